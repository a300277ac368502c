"""滑水 at the table: a claim prompt that names the tile, the last discard highlighted, the winner's tiles shown at
the end, the drawn tile set apart at the right of the hand, and no label offering 吃 (the game has no chow)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .deals import huashui_claim_deal

pytestmark = pytest.mark.browser


def test_claim_prompt_reveal_and_drawn_tile(room: Any, artifacts: Path) -> None:
    page = room.enter("小红")
    room.dealt_table(page, "huashui", huashui_claim_deal(), {"hands": 2}, turn_seconds=0, claim_seconds=0)

    # The dealer (a bot in seat 1) throws its East: the person may win, pung or pass, and is told on what.
    prompt = page.locator("#claim-prompt")
    prompt.wait_for(timeout=30_000)
    dealer = page.locator('.board .seat[data-seat="1"] .seat-name').inner_text()
    assert prompt.get_attribute("data-tile") == "1z"
    assert prompt.locator(".claim-text").inner_text() == f"{dealer} 打出 东"
    assert sorted(page.locator("#controls .actions button").evaluate_all("els => els.map(e => e.dataset.action)")) \
        == ["hu", "pass", "pung 1z"]
    last = page.locator(".board .card.last-discard")
    assert last.count() == 1 and last.get_attribute("data-card") == "1z"
    assert last.locator("xpath=ancestor::section[contains(@class,'seat')]").get_attribute("data-seat") == "1"
    for where in ("#controls", ".board .seat", "#log"):
        for text in page.locator(where).all_inner_texts():
            assert "吃" not in text, f"a label offers 吃 in {where}: {text!r}"
    page.screenshot(path=str(artifacts / "huashui-claim.png"))
    page.click("#lang-switch")
    dealer_en = page.locator('.board .seat[data-seat="1"] .seat-name').inner_text()
    assert prompt.locator(".claim-text").inner_text() == f"{dealer_en} discards East"
    page.click("#lang-switch")

    # Win on it: the result shows the winner's fourteen tiles.
    page.click('#controls .actions button[data-action="hu"]')
    reveal = page.locator('#result-panel #result-reveal .reveal-row[data-seat="0"]')
    reveal.wait_for()
    assert "小红" in reveal.inner_text()
    tiles = sorted(reveal.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert tiles == sorted(["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1z", "1z", "1z", "9s", "9s"])
    page.screenshot(path=str(artifacts / "huashui-reveal.png"))
    page.click("#result-close")

    # The winner deals the next hand: the fourteenth tile, just drawn, stands apart at the right of the hand.
    drawn = page.locator(".seat.me .hand .card.drawn")
    drawn.wait_for()
    boxes = page.locator(".seat.me .hand .card").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top,"
        " e.classList.contains('drawn')]; })")
    assert len(boxes) == 14 and boxes[-1][3], "the drawn tile is the last of the hand"
    others_right = max(b[1] for b in boxes[:-1] if abs(b[2] - boxes[-1][2]) < 5)
    assert boxes[-1][0] >= others_right + 8, "the drawn tile stands apart from the rest"
    code = str(drawn.get_attribute("data-card"))
    drawn.click()  # tap to discard it
    page.wait_for_selector(f'.seat.me .discards .card[data-card="{code}"]')
    page.screenshot(path=str(artifacts / "huashui-drawn.png"))
