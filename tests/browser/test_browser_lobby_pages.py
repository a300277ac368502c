"""The lobby a page at a time: a room with more open tables than one page shows 50 and a button for the rest."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import serve_room

pytestmark = pytest.mark.browser

TABLES = 57  # one page of 50 and part of another


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A room of its own, so the package's room keeps a short lobby for the other tests."""
    pytest.importorskip("uvicorn")
    import httpx

    from paiju.server import Settings, create_app
    settings = Settings(data_dir=tmp_path_factory.mktemp("lobby-pages"), secret_key="browser-tests",
                        address_limit_factor=100)
    with serve_room(create_app(settings), "lobby-pages-room") as url, httpx.Client(base_url=url) as http:
        for owner in range(-(-TABLES // settings.tables_per_minute_per_session)):
            token = http.post("/api/session", json={"nickname": f"桌主{owner}"}).json()["token"]
            for _ in range(min(settings.tables_per_minute_per_session,
                               TABLES - owner * settings.tables_per_minute_per_session)):
                r = http.post("/api/tables", json={"game": "shuiyu"}, headers={"Authorization": f"Bearer {token}"})
                assert r.status_code == 201, r.text
        yield url


def test_more_tables_adds_the_next_page(room: Any, server: str) -> None:
    page = room.enter("翻页")
    rows = page.locator(".lobby-tables .table-row")
    rows.first.wait_for()
    assert rows.count() == 50
    first_page = rows.evaluate_all("rs => rs.map(r => r.dataset.table)")
    page.click("#more-tables")
    page.locator(f".lobby-tables .table-row >> nth={TABLES - 1}").wait_for()  # the page's CSP allows no eval
    every = rows.evaluate_all("rs => rs.map(r => r.dataset.table)")
    assert every[:50] == first_page and len(set(every)) == TABLES  # appended below, nothing twice
    assert page.locator("#more-tables").count() == 0  # the last page has no next
    page.click(".lobby-tables .section-head button.link")  # refresh: back to the first page
    page.locator("#more-tables").wait_for()
    assert rows.count() == 50
