"""Between two hands the result panel stays in view with the pause's countdown and whom the table waits for;
the next hand starts when both people have pressed continue, and then the panel gives way to the clock.

Two people (one reading Chinese, one English) and two bots at a two-round 水鱼 match."""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import api_post
from .test_browser_play import choose_and_click, controls_state

pytestmark = pytest.mark.browser


def play_both_until_results(pages: list[Any], rng: random.Random, limit: float = 120) -> None:
    """Each person takes the decisions their page offers, turn about, until both pages show the result."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if all(p.locator("#result-panel").count() for p in pages):
            return
        for page in pages:
            if page.locator("#result-panel").count():
                continue
            active, _seq, legal, select = controls_state(page)
            if active and legal:
                with contextlib.suppress(Exception):  # the decision went away under the click: look again
                    choose_and_click(page, rng, legal, select)
            page.wait_for_timeout(30)
    raise AssertionError("the first hand's result did not show on both pages")


def test_the_next_hand_waits_for_both_people_with_the_countdown_in_view(room: Any, artifacts: Path) -> None:
    zh = room.enter("阿禄")
    en = room.enter("Mei")
    en.click("#lang-switch")
    body = {"game": "shuiyu", "config": {"seats": 4, "rounds": 2}, "seed": 9, "turn_seconds": 0,
            "claim_seconds": 0, "next_hand_seconds": 90}
    tid = api_post(zh, "/api/tables", body)["id"]
    for page, seat in ((zh, 0), (en, 1)):
        page.goto(f"{room.base}/t/{tid}")
        page.wait_for_selector(".waiting-room .seat-row")
        room.sit(page, seat)
    room.fill_bots_and_start(zh)
    en.wait_for_selector(".board .seat")

    play_both_until_results([zh, en], random.Random(3))
    for page, words, other in ((zh, "下一局", "Mei"), (en, "Next hand in", "阿禄")):
        page.wait_for_selector("#pause-status")
        status = page.locator("#pause-status").inner_text()
        assert words in status and other in status, status  # the countdown, and whom the table waits for
        assert page.locator("#controls.active").count() == 0  # nobody decides while the table waits
        assert page.locator(".board .seat.deciding").count() == 0
    zh.screenshot(path=str(artifacts / "pause-zh.png"))
    en.screenshot(path=str(artifacts / "pause-en.png"))

    zh.click("#result-close")
    zh.wait_for_selector("#result-close[disabled]")
    assert "已准备" in zh.locator("#result-close").inner_text()
    en.wait_for_function("() => !document.getElementById('pause-status')?.innerText.includes('Mei')")
    assert "阿禄" not in en.locator("#pause-status").inner_text()  # 阿禄 is ready now: only Mei is awaited
    time.sleep(0.5)
    assert zh.locator("#result-panel").count() == 1, "the table went on before everyone was ready"

    en.click("#result-close")
    for page in (zh, en):  # the pause is over: the panel gives way, and the second hand is played
        page.wait_for_selector("#result-panel", state="detached", timeout=10_000)
    deadline = time.monotonic() + 30
    while not any(controls_state(p)[0] for p in (zh, en)):
        assert time.monotonic() < deadline, "no decision came in the second hand"
        zh.wait_for_timeout(50)
