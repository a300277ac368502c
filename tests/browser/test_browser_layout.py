"""Deciding never hides your hand: the action bar and the cards you choose from are both in view, apart, on a
desktop (升级's 63-card bury) and on a phone; a phone's cards are at least 40 px tall."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .deals import huashui_claim_deal, shengji_bury_deal

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}

BOXES = """() => {
    const box = (els) => {
        const rs = [...els].map((e) => e.getBoundingClientRect()).filter((r) => r.width && r.height);
        if (!rs.length) return null;
        return {top: Math.min(...rs.map((r) => r.top)), bottom: Math.max(...rs.map((r) => r.bottom)),
                left: Math.min(...rs.map((r) => r.left)), right: Math.max(...rs.map((r) => r.right)),
                heights: rs.map((r) => r.height)};
    };
    return {hand: box(document.querySelectorAll('.seat.me .hand .card')),
            controls: box([document.getElementById('controls')]),
            vh: window.innerHeight, vw: window.innerWidth};
}"""


def assert_hand_and_bar_apart(page: Any, where: str) -> dict[str, Any]:
    b: dict[str, Any] = page.evaluate(BOXES)
    hand, bar = b["hand"], b["controls"]
    assert hand and bar, f"{where}: no hand or no action bar: {b}"
    overlap = hand["bottom"] > bar["top"] and bar["bottom"] > hand["top"] and \
        hand["right"] > bar["left"] and bar["right"] > hand["left"]
    assert not overlap, f"{where}: the action bar {bar} covers the hand {hand}"
    for name, r in (("hand", hand), ("action bar", bar)):
        assert r["top"] >= 0 and r["bottom"] <= b["vh"] + 0.5, f"{where}: the {name} is not all in view: {r}, {b['vh']}"
    return b


def in_english(page: Any) -> None:
    """The same table in English (its labels are longer): the layout must hold in both languages."""
    page.click("#lang-switch")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.wait_for_selector("#controls.active")


def test_the_63_card_bury_on_a_desktop(room: Any, artifacts: Path) -> None:
    page = room.enter("扣底", **DESKTOP)
    room.dealt_table(page, "shengji", shengji_bury_deal(), {"max_hands": 1}, turn_seconds=0)
    page.wait_for_selector("#select-send", timeout=30_000)
    assert page.locator(".seat.me .hand .card").count() == 63
    page.screenshot(path=str(artifacts / "shengji-bury-desktop.png"))
    assert_hand_and_bar_apart(page, "1366×768 bury")
    in_english(page)
    page.screenshot(path=str(artifacts / "shengji-bury-desktop-en.png"))
    assert_hand_and_bar_apart(page, "1366×768 bury, in English")


@pytest.mark.parametrize("game", ["shengji", "huashui"])
def test_a_phone_shows_hand_and_bar_apart(game: str, room: Any, artifacts: Path) -> None:
    page = room.enter("手机", **PHONE)
    deal = shengji_bury_deal() if game == "shengji" else huashui_claim_deal()
    room.dealt_table(page, game, deal, {"max_hands": 1} if game == "shengji" else {"hands": 1}, turn_seconds=0)
    page.wait_for_selector("#controls.active", timeout=30_000)
    page.screenshot(path=str(artifacts / f"{game}-decide-mobile.png"))
    b = assert_hand_and_bar_apart(page, f"390×844 {game}")
    assert min(b["hand"]["heights"]) >= 40, f"{game}: cards under 40 px tall on a phone: {min(b['hand']['heights'])}"
    page.screenshot(path=str(artifacts / f"{game}-decide-mobile.png"))
    in_english(page)
    b = assert_hand_and_bar_apart(page, f"390×844 {game}, in English")
    assert min(b["hand"]["heights"]) >= 40
    page.screenshot(path=str(artifacts / f"{game}-decide-mobile-en.png"))
