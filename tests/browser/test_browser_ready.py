"""准备 (ready) and the creator's kick in real browsers (issue 38): three people at a table that waits for ready;
the start button waits for the others; a person who has not pressed ready in the table's ready time is asked
to leave by the creator and cannot sit straight back down; the last ready starts the match everywhere."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import api_post, serve_room

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A card room of its own whose tables wait for ready, as a room's do by default."""
    pytest.importorskip("uvicorn")
    from paiju.core import registry
    from paiju.server import Settings, create_app

    from . import demo_game

    registry.GAMES.setdefault("demo", f"{demo_game.__name__}:DemoGame")
    settings = Settings(data_dir=tmp_path_factory.mktemp("ready-room"), secret_key="browser-tests",
                        turn_seconds=15.0, claim_seconds=15.0, bot_delay_seconds=0.0, grace_seconds=600.0,
                        address_limit_factor=100)
    assert settings.ready_seconds == 60  # the room's default: tables wait for ready
    with serve_room(create_app(settings), "ready-room", proxy_headers=False) as url:
        yield url


def test_ready_the_ready_time_and_the_creators_kick(room: Any) -> None:
    ada, bo, cy = room.enter("阿达"), room.enter("小波"), room.enter("小慈")
    tid = api_post(ada, "/api/tables", {"game": "demo", "config": {"players": 3}, "ready_seconds": 10})["id"]
    for page in (ada, bo, cy):
        page.goto(f"{room.base}/t/{tid}")
        page.wait_for_selector(".waiting-room .seat-row")
    room.sit(bo, 1)
    room.sit(cy, 2)
    ada.wait_for_selector('.seat-row[data-seat="2"] .kick-seat')
    assert ada.locator("#start").is_disabled()  # full, but the others have not pressed ready
    assert "10" in ada.locator("#ready-hint").inner_text()

    bo.click("#ready")
    ada.wait_for_selector('.seat-row[data-seat="1"] .ready-badge')
    assert ada.locator('.seat-row[data-seat="1"] .kick-seat').count() == 0  # ready: not to be kicked
    kick = ada.locator('.seat-row[data-seat="2"] .kick-seat')
    assert kick.is_disabled()  # cy has time left to press ready
    ada.wait_for_selector('.seat-row[data-seat="2"] .kick-seat:not([disabled])', timeout=15_000)
    kick.click()
    cy.wait_for_selector('.seat-row[data-seat="2"] button.sit')  # cy watches now
    cy.click('.seat-row[data-seat="2"] button.sit')
    cy.wait_for_function("() => document.querySelector('#toast')?.innerText.includes('桌主')")
    assert cy.locator('.seat-row[data-seat="2"] .you-badge').count() == 0  # not seated again

    ada.click("#fill-bots")  # a bot in the free seat; ada's own ready is the last
    ada.wait_for_selector('.seat-row[data-seat="2"] .seat-who.bot')
    ada.click("#ready")
    for page in (ada, bo):
        page.wait_for_selector(".board .seat.me")
    assert room.script_errors == []
