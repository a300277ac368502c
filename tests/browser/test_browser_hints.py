"""提示 (hints, issue 38) in the browser: at a casual table the person may ask what the strong bot would choose,
and the choice is marked on its button, never played for them; a rated table shows no hint button at all."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def my_turn(page: Any) -> list[str]:
    """Wait for a decision of the person's own and return its legal actions."""
    page.wait_for_selector("#controls.active")
    return list(json.loads(page.locator("#controls").get_attribute("data-legal") or "[]"))


def test_a_hint_at_a_casual_table_and_none_at_a_rated_one(room: Any) -> None:
    ada = room.enter("阿达")
    room.create_table(ada, "demo", {"players": 3, "casual": True})
    room.sit(ada, 0)
    room.fill_bots_and_start(ada)
    legal = my_turn(ada)
    seq = ada.locator("#controls").get_attribute("data-seq")
    ada.click("#ask-hint")
    says = ada.locator("#hint-says")
    says.wait_for()
    action = says.get_attribute("data-action")
    assert action in legal
    assert "高手会选" in says.inner_text()
    assert ada.locator(".hinted").count() >= 1  # its button, or its cards in the hand
    assert ada.locator("#controls").get_attribute("data-seq") == seq  # marked, not played
    assert ada.locator("#ask-hint").is_disabled()  # one hint a decision is enough

    bo = room.enter("小波")
    room.create_table(bo, "demo", {"players": 3})  # two bots are within the room's rated_bots: rated
    room.sit(bo, 0)
    room.fill_bots_and_start(bo)
    my_turn(bo)
    assert bo.locator("#table-rated").get_attribute("data-rated") == "rated"
    assert bo.locator("#ask-hint").count() == 0
    assert room.script_errors == []
