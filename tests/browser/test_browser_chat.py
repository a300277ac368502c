"""Free-text chat with the hosts' filter, in real browsers (issue 38): a host lists a word on the host page; a
player types it with a zero-width space and full-width letters inside; the other browser shows it masked; a
report points at that very line, and the host page quotes it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import HOST, create_host, serve_room
from .test_browser_friends import log_in

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A card room of its own with chat on (the package's room keeps it off, as rooms do by default)."""
    pytest.importorskip("uvicorn")
    from paiju.core import registry
    from paiju.server import Settings, create_app

    from . import demo_game

    registry.GAMES.setdefault("demo", f"{demo_game.__name__}:DemoGame")
    data = tmp_path_factory.mktemp("chat-room")
    create_host(data, *HOST)
    settings = Settings(data_dir=data, secret_key="browser-tests", turn_seconds=15.0, claim_seconds=15.0,
                        bot_delay_seconds=0.0, grace_seconds=600.0, chat_max_length=40, address_limit_factor=100,
                        ready_seconds=0)
    with serve_room(create_app(settings), "chat-room", proxy_headers=False) as url:
        yield url


def test_a_filtered_word_is_masked_however_typed_and_a_report_quotes_the_line(room: Any) -> None:
    host = log_in(room, HOST[0], HOST[1])
    host.goto(f"{room.base}/host")
    host.fill("#host-chat-filter", "笨蛋\nＤｕｍｂ")
    host.click("#host-chat-filter-save")
    host.wait_for_function("() => document.querySelector('#host-chat-filter').value === 'dumb\\n笨蛋'")
    host.wait_for_selector('#host-log tr[data-action="chat_filter"]')

    ada = room.enter("阿达")
    tid = room.create_table(ada, "demo", {"players": 2})
    host.goto(f"{room.base}/t/{tid}")
    room.sit(host, 1)
    ada.click("#phrase-toggle")  # the phrases' panel holds the chat line
    ada.fill("#chat-text", "你这个笨\u200b蛋, so ｄｕｍｂ")
    ada.click("#chat-send")
    bubble = host.locator('.seat-row[data-seat="0"] .bubble.chat')
    bubble.wait_for()
    assert bubble.inner_text() == "你这个**, so ****"

    host.click('.seat-row[data-seat="0"] .report-seat')
    host.wait_for_selector("#report-lines")
    host.check('#report-lines input[value="1"]')  # the line, not "no particular line"
    host.click("#report-send")
    host.wait_for_selector("#report-panel", state="detached")
    host.goto(f"{room.base}/host")
    quoted = host.locator(".host-report", has_text="阿达").locator(".report-chat")
    quoted.wait_for()
    assert "“你这个**, so ****”" in quoted.inner_text()
    assert room.script_errors == []
