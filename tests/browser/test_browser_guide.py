"""The first game that teaches (issue 38): a new player's first solo match shows the guide (the phase, what the
buttons do, what just happened); it closes, stays closed, and the rules page brings it back."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_the_first_solo_game_guides_and_the_guide_can_be_closed_and_brought_back(room: Any) -> None:
    page = room.enter("新手", guide=True)
    tid = room.create_table(page, "demo", {"players": 3})
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    guide = page.locator("#guide")
    guide.wait_for()
    page.wait_for_selector("#controls.active")
    page.wait_for_selector("#guide-buttons:has-text('轮到你了')")
    assert page.locator("#guide-phase").inner_text().startswith("现在：")
    legal = page.locator("#controls").get_attribute("data-legal") or ""
    page.locator("#controls .action, .hand .card.playable").first.click()
    page.wait_for_selector("#guide-happened")
    assert page.locator("#guide-happened").inner_text().startswith("刚才：")
    assert legal  # there was a decision to explain

    page.click("#guide-close")
    guide.wait_for(state="detached")
    page.reload()
    page.wait_for_selector(".board .seat")
    assert page.locator("#guide").count() == 0  # closed for this game, also after a reload

    page.goto(f"{room.base}/rules/demo")
    page.click("#guide-again")
    page.goto(f"{room.base}/t/{tid}")
    page.wait_for_selector("#guide")
    assert room.script_errors == []


def test_no_guide_at_a_table_with_other_people(room: Any) -> None:
    ada, bo = room.enter("阿达", guide=True), room.enter("小波", guide=True)
    tid = room.create_table(ada, "demo", {"players": 3})
    room.sit(ada, 0)
    bo.goto(f"{room.base}/t/{tid}")
    room.sit(bo, 1)
    room.fill_bots_and_start(ada)
    bo.wait_for_selector(".board .seat.me")
    ada.wait_for_selector(".board .seat.me")
    assert ada.locator("#guide").count() == 0 and bo.locator("#guide").count() == 0
