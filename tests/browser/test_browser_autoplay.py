"""Autoplay (托管) in the browser: the button on your own seat hands it to the bot and takes it back, every
viewer's seat shows 托管, the button reads clearly, and the page keeps to the room's Content-Security-Policy (no
inline script)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import MY_PLAYABLE, serve_room

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A card room of its own whose bots think for a second, so the test sees a seat handed over before the
    bot plays it out (the package's room has bots without delay)."""
    pytest.importorskip("uvicorn")
    from paiju.core import registry
    from paiju.server import Settings, create_app

    from . import demo_game

    registry.GAMES.setdefault("demo", f"{demo_game.__name__}:DemoGame")
    settings = Settings(data_dir=tmp_path_factory.mktemp("autoplay-room"), secret_key="browser-tests",
                        turn_seconds=0.0, claim_seconds=0.0, bot_delay_seconds=1.0, grace_seconds=600.0,
                        ready_seconds=0)
    with serve_room(create_app(settings), "autoplay-room", proxy_headers=False) as url:
        yield url


CONTRAST = """(el) => {
    const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const c = getComputedStyle(el);
    const fg = rgb(c.color), bg = rgb(c.backgroundColor);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return {color: c.color, background: c.backgroundColor, opaque: bg.length === 3 || bg[3] === 1,
            ratio: (a + 0.05) / (b + 0.05)};
}"""
"""The WCAG contrast ratio of an element's text against its own background (which must be opaque)."""


def seq_of(page: Any) -> int:
    return int(page.locator("#controls").get_attribute("data-seq") or 0)


def test_autoplay_on_and_off_from_the_seat_shown_to_everyone(room: Any, server: str) -> None:
    blocked: list[str] = []

    def watch(page: Any) -> Any:
        page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
        return page

    page = watch(room.enter("托管者"))
    tid = room.create_table(page, "demo", {"style": "tile", "players": 2, "hands": 3})
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    watcher = watch(room.enter("旁观"))
    watcher.goto(f"{server}/t/{tid}")
    watcher.wait_for_selector(".board .seat")

    page.wait_for_selector(MY_PLAYABLE)  # my turn, and nobody plays it for me
    button = page.locator(".seat.me #autoplay")
    assert button.inner_text() == "托管" and button.get_attribute("aria-pressed") == "false"
    before = seq_of(page)
    button.click()
    page.wait_for_selector(".seat.me .autoplay-badge")
    assert page.locator(".seat.me .autoplay-badge").inner_text() == "托管"
    assert page.locator(".seat.me #autoplay").inner_text() == "取消托管"
    watcher.wait_for_selector('.seat[data-seat="0"] .autoplay-badge')  # everyone sees it
    assert not page.locator(".seat.me.offline").count()  # handed over, not gone
    page.wait_for_function("s => Number(document.getElementById('controls').dataset.seq) > s", arg=before)

    page.locator(".seat.me #autoplay").click()  # take the seat back
    page.wait_for_selector(".seat.me .autoplay-badge", state="detached")
    watcher.wait_for_selector('.seat[data-seat="0"] .autoplay-badge', state="detached")
    assert page.locator(".seat.me #autoplay").inner_text() == "托管"
    assert not blocked, blocked


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_the_autoplay_button_is_readable(screen: str, room: Any) -> None:
    """The button on your own seat lies on the white-lettered board: its text must stand out from its own
    background, off and on, on a desktop and on a phone (issue 33: it was white on white)."""
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    page = room.enter("看得清", **(phone if screen == "phone" else {}))
    room.create_table(page, "demo", {"style": "tile", "players": 2, "hands": 3}, windows={"turn_seconds": 0})
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    page.wait_for_selector(MY_PLAYABLE)
    button = page.locator(".seat.me #autoplay")
    for state in ("off", "on"):
        if state == "on":
            button.click()
            page.wait_for_selector(".seat.me #autoplay.on")
        seen = button.evaluate(CONTRAST)
        assert seen["opaque"], f"{screen}, autoplay {state}: the button's background is see-through: {seen}"
        assert seen["ratio"] >= 4.5, f"{screen}, autoplay {state}: {seen['color']} on {seen['background']}"
