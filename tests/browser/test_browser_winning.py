"""The tile that won (issue 38): when a hand is won, the result panel names the winner and shows the winning
tile, the winner's revealed hand marks that one tile, and the board marks it at the winner's seat."""

from __future__ import annotations

from typing import Any

import pytest

from .deals import huashui_claim_deal

pytestmark = pytest.mark.browser


def test_the_winning_tile_is_marked_in_the_result_and_on_the_table(room: Any) -> None:
    page = room.enter("小红")
    room.dealt_table(page, "huashui", huashui_claim_deal(), {"hands": 1}, turn_seconds=0, claim_seconds=0)
    page.locator("#claim-prompt").wait_for(timeout=30_000)
    page.click('#controls .actions button[data-action="hu"]')  # win on the dealer's East
    won = page.locator("#result-panel #won-with .won-with-item")
    won.wait_for()
    assert won.count() == 1
    assert (won.get_attribute("data-seat"), won.get_attribute("data-card")) == ("0", "1z")
    assert "小红 胡的是" in won.inner_text()
    marked = page.locator('#result-panel .reveal-row[data-seat="0"] .card.won-with')
    assert marked.count() == 1 and marked.get_attribute("data-card") == "1z"  # one East of the three
    page.click("#result-close")
    chip = page.locator('.board .seat[data-seat="0"] .won-with-chip')
    chip.wait_for()
    assert chip.get_attribute("data-card") == "1z"
    assert page.locator(".board .won-with-chip").count() == 1  # the winner's seat only
    assert room.script_errors == []
