"""Bot strengths in the browser (issue 16): the waiting room offers 入门 / 普通 / 高手 beside *add bots*, the
seats show the strength chosen, in the waiting room and on the board, in both languages, and the game plays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import MY_PLAYABLE

pytestmark = pytest.mark.browser


def test_strong_bots_are_chosen_shown_and_play(room: Any, artifacts: Path) -> None:
    page = room.enter("高手迷")
    room.create_table(page, "demo", {"style": "tile", "players": 3}, windows={"turn_seconds": 0})
    room.sit(page, 0)
    choice = page.locator("#bot-strength")
    assert choice.locator("option").all_inner_texts() == ["入门", "普通", "高手"]
    assert choice.input_value() == "normal"  # {} as before unless a person chooses
    choice.select_option("strong")
    page.click("#fill-bots")
    page.wait_for_selector('.seat-row[data-seat="2"] .strength-badge[data-strength="strong"]')
    page.screenshot(path=str(artifacts / "strengths-waiting.png"))
    rows = page.locator(".waiting-room .seat-row .strength-badge")
    assert rows.all_inner_texts() == ["高手", "高手"]
    assert page.locator('.seat-row[data-seat="0"] .strength-badge').count() == 0  # a person has no strength
    page.click("#start")
    page.wait_for_selector(".board .seat")
    badges = page.locator(".board .seat .strength-badge")
    assert badges.all_inner_texts() == ["高手", "高手"]
    assert page.locator('.board .seat[data-seat="1"] .bot-badge').count() == 1
    # the game plays: the person plays twice, and the strong bots answer each time
    for _ in range(2):
        page.wait_for_selector(MY_PLAYABLE)
        before = page.locator("#controls").get_attribute("data-seq")
        page.locator(MY_PLAYABLE).first.click()
        page.wait_for_function("s => document.getElementById('controls').dataset.seq !== s", arg=before)
    lines = page.locator("#log li").all_text_contents()
    # an answer, a discard or a pass: the demo's random bot may pass (in one full-suite run it passed both times,
    # on a seeded table; why its choices differed from every other run is not established)
    assert any(line.startswith(("阿禄 打出", "阿禄 pass")) for line in lines), lines
    page.locator("#result-panel").wait_for()  # the demo hand is over after two rounds: played to its end
    page.screenshot(path=str(artifacts / "strengths-board.png"))
    page.keyboard.press("Escape")
    page.click("#lang-switch")
    assert page.locator(".board .seat .strength-badge").all_inner_texts() == ["strong", "strong"]
    page.click("#lang-switch")
