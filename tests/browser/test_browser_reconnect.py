"""A dropped connection: the client reconnects by itself, asks to `resume`, and play goes on; server
errors reach the person as a toast."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .conftest import MY_PLAYABLE

pytestmark = pytest.mark.browser


def test_reconnects_and_resumes_after_a_drop(room: Any) -> None:
    page = room.enter("断线")
    routes: list[Any] = []
    sent: list[dict[str, Any]] = []

    def through(ws: Any) -> None:
        """Pass the table's socket through, remembering what the client sends."""
        server = ws.connect_to_server()

        def from_client(message: str | bytes) -> None:
            sent.append(json.loads(message))
            server.send(message)

        ws.on_message(from_client)
        routes.append(ws)

    page.route_web_socket(re.compile(r"/ws/tables/"), through)
    room.create_table(page, "demo", {"style": "tile", "players": 2})
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    page.wait_for_selector(MY_PLAYABLE)
    page.locator(MY_PLAYABLE).first.click()
    page.wait_for_function("() => Number(document.getElementById('controls').dataset.seq) >= 2")
    seq = int(page.locator("#controls").get_attribute("data-seq") or 0)

    routes[-1].close(code=1012, reason="test drop")
    for _ in range(100):
        if len(routes) >= 2 and any(m.get("type") == "resume" for m in sent):
            break
        page.wait_for_timeout(50)
    assert len(routes) >= 2, "the client did not reconnect"
    resumes = [m for m in sent if m.get("type") == "resume"]
    assert resumes and resumes[-1]["since"] >= seq

    # The table still works: the person can act again on the new connection.
    page.wait_for_selector(f"#controls.active .actions button, {MY_PLAYABLE}")
    before = page.locator("#controls").get_attribute("data-seq")
    page.locator(".seat.me .hand .card.playable, #controls .actions button.action").first.click()
    page.wait_for_function("s => document.getElementById('controls').dataset.seq !== s", arg=before)

    # A server refusal is shown to the person.
    routes[-1].send(json.dumps({"type": "error", "code": "illegal", "message": "discard 9z is not legal"}))
    toast = page.locator("#toast.show")
    toast.wait_for()
    assert "不合规则" in toast.inner_text() and "9z" in toast.inner_text()


def test_a_moving_table_is_retried_when_the_server_says(room: Any) -> None:
    """4503 (the table's worker died; another takes it over): the client comes back after the close's hint,
    not after its own back-off (400 ms first)."""
    page = room.enter("换服")
    opened: list[float] = []
    routes: list[Any] = []

    def through(ws: Any) -> None:
        ws.connect_to_server()
        opened.append(page.evaluate("() => performance.now()"))
        routes.append(ws)

    page.route_web_socket(re.compile(r"/ws/tables/"), through)
    room.create_table(page, "demo", {"style": "tile", "players": 2})
    room.sit(page, 0)
    page.wait_for_timeout(300)
    assert len(routes) == 1
    closed = page.evaluate("() => performance.now()")
    routes[-1].close(code=4503, reason=json.dumps({"code": "owner_unavailable", "retry_after_ms": 1500}))
    page.wait_for_timeout(1000)
    assert len(routes) == 1, "came back before the hint"
    for _ in range(60):
        if len(routes) >= 2:
            break
        page.wait_for_timeout(50)
    assert len(routes) >= 2, "the client did not come back"
    assert 1500 <= opened[-1] - closed < 2500, opened[-1] - closed


def test_a_dead_connection_shows_and_resumes_by_itself(room: Any) -> None:
    """The socket stays open but nothing passes (a lost network): the unanswered ping shows "reconnecting…";
    when the network is back the client connects again by itself and resumes where it was."""
    page = room.enter("掉线")
    page.clock.install()  # page timers on a clock the test can move forward (it also runs on by itself)
    page.goto(room.base + "/")
    page.wait_for_selector(".lobby .game-tile")
    cut = {"on": False}
    sent: list[dict[str, Any]] = []
    sockets: list[Any] = []

    def through(ws: Any) -> None:
        if cut["on"]:  # no network: the connection fails
            ws.close(code=1006)
            return
        server = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            if not cut["on"]:
                sent.append(json.loads(message))
                server.send(message)

        def down(message: str | bytes) -> None:
            if not cut["on"]:
                ws.send(message)

        ws.on_message(up)
        server.on_message(down)
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws/tables/"), through)
    room.create_table(page, "demo", {"style": "tile", "players": 2}, windows={"turn_seconds": 0})
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    page.wait_for_selector(MY_PLAYABLE)
    assert page.locator("#conn").inner_text() == ""
    pings = sum(1 for m in sent if m.get("type") == "ping")
    page.clock.fast_forward(10_500)
    for _ in range(50):
        if sum(1 for m in sent if m.get("type") == "ping") > pings:
            break
        page.wait_for_timeout(20)
    assert sum(1 for m in sent if m.get("type") == "ping") > pings, "the client pings every 10 s"
    assert page.locator("#conn").inner_text() == ""  # answered: nothing to show

    cut["on"] = True
    seq = int(page.locator("#controls").get_attribute("data-seq") or 0)
    page.clock.fast_forward(16_000)  # the next ping goes unanswered
    banner = page.locator("#conn.reconnecting")
    banner.wait_for()
    assert banner.inner_text() == "连接断开，正在重连…"
    page.click("#lang-switch")
    assert banner.inner_text() == "Connection lost, reconnecting…"
    page.click("#lang-switch")

    cut["on"] = False
    page.clock.fast_forward(6_000)  # past the longest wait between attempts
    page.wait_for_selector("#conn.open", state="attached")
    assert page.locator("#conn").inner_text() == ""
    resumes = [m for m in sent if m.get("type") == "resume"]
    assert resumes and resumes[-1]["since"] == seq
    before = page.locator("#controls").get_attribute("data-seq")
    page.locator(MY_PLAYABLE).first.click()
    page.wait_for_function("s => document.getElementById('controls').dataset.seq !== s", arg=before)
