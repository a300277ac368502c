"""A phone in the hand (390×844, touch): every card or tile a player may play is a target at least 32 px wide —
where a long hand leaves less (升级's 51 cards, 63 while burying), a first tap enlarges the touched part of the
hand and the second tap there selects — and at a 升级 follow decision the trick being followed is on screen.

Each test taps every playable card of one decision, one after the other, and checks that each tap chose the
card it aimed at: selected (升级's selection), or asked about (tap-to-play with "confirm before playing" on, so
that nothing is sent and the decision stays)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .deals import huashui_discard_deal, shengji_bury_deal

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
FINGER = 32
"""The narrowest target a finger can aim at (px): issue 33's floor for every card you may play."""
TARGETS = ".seat.me .hand .card.playable, .seat.me .hand .card.selectable"
LOUPE = "#hand-loupe"

STRIP = """([scope, index]) => {
    // The part of a card a finger can hit: the widest stretch along its middle where nothing lies over it (the
    // next card of an overlapped hand, a raised selected card, the edge of the loupe's strip).
    const card = document.querySelector(`${scope} .card[data-index="${index}"]`);
    if (!card) return null;
    const r = card.getBoundingClientRect();
    const y = r.top + Math.min(r.height / 2, 24);
    let run = 0, widest = 0, end = 0;
    for (let x = Math.ceil(r.left); x < r.right; x += 1) {
        run = document.elementFromPoint(x, y)?.closest('.card') === card ? run + 1 : 0;
        if (run > widest) { widest = run; end = x; }
    }
    return {x: end - widest / 2 + 0.5, y, width: widest};
}"""
"""Where to tap card ``index`` in the hand (scope ``.seat.me .hand``) or in the loupe (``#hand-loupe``), and
how wide a target it is there."""


def prefer_confirm(page: Any) -> None:
    """Confirm before playing: a tap on a card asks first and sends nothing (set before the table loads)."""
    page.evaluate("() => localStorage.setItem('paiju.prefs', JSON.stringify({confirm: true}))")


def targets(page: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.locator(TARGETS).evaluate_all(
        "els => els.map(e => ({index: e.dataset.index, card: e.dataset.card}))")
    return out


def aim(page: Any, scope: str, index: str) -> dict[str, float] | None:
    spot: dict[str, float] | None = page.evaluate(STRIP, [scope, index])
    return spot


def tap_every_target(page: Any, game: str, artifacts: Path) -> int:
    """Tap each playable card of the decision on screen as a person would; the number tapped."""
    seq = page.locator("#controls").get_attribute("data-seq")
    listed = targets(page)
    assert listed, f"{game}: no card to tap"
    loupe_used = False
    for k, t in enumerate(listed):
        index, card = t["index"], t["card"]
        spot = aim(page, LOUPE, index) if page.locator(LOUPE).count() else None
        if spot is None or spot["width"] < FINGER:  # not in the enlarged part: touch the hand itself
            if page.locator(LOUPE).count():
                page.locator(f"{LOUPE} .loupe-close").tap()
                page.wait_for_selector(LOUPE, state="detached")
            spot = aim(page, ".seat.me .hand", index)
            assert spot is not None, f"{game}: card {index} is gone"
            page.touchscreen.tap(spot["x"], spot["y"])
            if spot["width"] < FINGER:  # too narrow to aim at: the touch opens the loupe on that part
                page.wait_for_selector(LOUPE)
                loupe_used = True
                if k == 0:
                    page.screenshot(path=str(artifacts / f"{game}-touch-loupe.png"))
                spot = aim(page, LOUPE, index)
                assert spot is not None and spot["width"] >= FINGER, \
                    f"{game}: the loupe opened by card {index} does not show it {FINGER} px wide: {spot}"
                page.touchscreen.tap(spot["x"], spot["y"])
        else:
            page.touchscreen.tap(spot["x"], spot["y"])
        try:
            page.wait_for_function("([i, c]) => window.__chosen(i, c)", arg=[index, card], timeout=3000)
            if page.locator("#confirm-no").count():  # ask afresh for the next card (a second tap would confirm)
                page.locator("#confirm-no").tap()
                page.wait_for_selector("#confirm-bar", state="detached")
        except Exception:  # say which card, and what the tap chose instead
            picked = page.locator(".seat.me .hand .card.selected, .seat.me .hand .card.confirming").evaluate_all(
                "els => els.map(e => e.dataset.index + '=' + e.dataset.card)")
            page.screenshot(path=str(artifacts / f"{game}-touch-missed.png"))
            hit = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y); return e &&"
                                " (e.closest('.card')?.dataset.index ?? e.className); }", [spot["x"], spot["y"]])
            pytest.fail(f"{game}: the tap aimed at card {index} ({card}) at {spot} chose {picked} "
                        f"(loupe: {loupe_used}; now under the finger: {hit})")
    assert page.locator("#controls").get_attribute("data-seq") == seq, f"{game}: a tap sent a move"
    return len(listed)


STILL = """async () => {
    let y = -1;
    for (let i = 0; i < 40 && y !== scrollY; i++) { y = scrollY; await new Promise((done) => setTimeout(done, 100)); }
    return true;
}"""

CHOSEN = """() => { window.__chosen = (index, card) => {
    const el = document.querySelector(`.seat.me .hand .card[data-index="${index}"]`);
    if (!el) return false;
    if (el.classList.contains('selectable')) return el.classList.contains('selected');
    const asked = [...document.querySelectorAll('.seat.me .hand .card.confirming')];
    return el.classList.contains('confirming') && asked.every((e) => e.dataset.card === card);
}; }"""


def decide_on_a_phone(room: Any, game: str) -> Any:
    """A person at 390×844 with "confirm before playing", at their first decision of a scripted or seeded deal."""
    page = room.enter("指尖", **PHONE)
    prefer_confirm(page)
    if game == "shengji":
        room.dealt_table(page, game, shengji_bury_deal(), {"max_hands": 1}, turn_seconds=0)
    elif game == "huashui":
        room.dealt_table(page, game, huashui_discard_deal(), {"hands": 1}, turn_seconds=0, claim_seconds=0)
    else:
        from .conftest import api_post

        tid = str(api_post(page, "/api/tables", {"game": game, "config": {}, "seed": 5, "turn_seconds": 0,
                                                  "claim_seconds": 0})["id"])
        page.goto(f"{room.base}/t/{tid}")
        room.sit(page, 0)
        room.fill_bots_and_start(page)
    # 升级's deal ends with a last call for bids that the person, holding none, lets pass (15 s at most)
    page.wait_for_selector(TARGETS if game != "shuiyu" else "#controls.active", timeout=30_000)
    page.wait_for_function(STILL)  # the page has scrolled the decision into view: aim only once it is still
    page.evaluate(CHOSEN)
    return page


@pytest.mark.parametrize("game", ["huashui", "weimaque", "shengji"])
def test_every_playable_card_is_a_finger_wide_target(game: str, room: Any, artifacts: Path) -> None:
    page = decide_on_a_phone(room, game)
    tapped = tap_every_target(page, game, artifacts)
    assert tapped >= {"huashui": 14, "weimaque": 10, "shengji": 63}[game]
    page.screenshot(path=str(artifacts / f"{game}-touch.png"))


def test_shuiyu_choices_are_finger_wide(room: Any, artifacts: Path) -> None:
    """水鱼's decisions are buttons (a split of the four cards, a call): each is a wide target, and each tap
    asks about the very choice it aimed at."""
    page = decide_on_a_phone(room, "shuiyu")
    buttons = page.locator("#controls .actions button.action")
    actions = buttons.evaluate_all("els => els.map(e => e.dataset.action)")
    assert actions
    for action in actions:
        button = page.locator(f'#controls .actions button.action[data-action="{action}"]')
        box = button.bounding_box()
        assert box["width"] >= FINGER and box["height"] >= FINGER, f"{action}: {box}"
        button.tap()
        page.wait_for_selector("#confirm-bar")
        assert page.locator("#confirm-yes").count() == 1
        asked = page.evaluate("() => document.querySelector('#controls .actions button.action.confirming')"
                              "?.dataset.action ?? null")
        assert asked in (None, action)
        page.click("#confirm-no")
    cards = page.locator(".seat.me .hand .card").evaluate_all("els => els.map(e => e.getBoundingClientRect().width)")
    assert cards and min(cards) >= FINGER, f"水鱼's cards on a phone: {cards}"


def test_the_trick_followed_is_on_screen(room: Any, artifacts: Path) -> None:
    """At each of the person's first follow decisions of a 升级 hand (a full hand of 51 cards to start with), the
    plays already made to the trick are all on screen, and so are the controls."""
    from .conftest import api_post

    page = room.enter("跟牌", **PHONE)
    tid = str(api_post(page, "/api/tables", {"game": "shengji", "config": {"max_hands": 1}, "seed": 7,
                                             "turn_seconds": 0, "claim_seconds": 0})["id"])
    page.goto(f"{room.base}/t/{tid}")
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    checked = 0
    seq = None
    while checked < 4 and not page.locator("#result-panel").count():
        # a play, or the last call for bids (the person bids nothing: the deal's steps pass for them)
        page.wait_for_function("s => { const c = document.querySelector('#controls.active');"
                               " return (c && c.dataset.seq !== s && (document.getElementById('select-hint')"
                               " || c.querySelector('button[data-action=\"pass\"]')))"
                               " || document.getElementById('result-panel'); }", arg=seq, timeout=30_000)
        if page.locator("#result-panel").count():
            break
        seq = page.locator("#controls").get_attribute("data-seq")
        if not page.locator("#select-hint").count():
            page.locator('#controls button[data-action="pass"]').click()
            continue
        # the finished trick stays on the table a moment (docs/web.md, "The trick"); then the one to play to
        page.wait_for_selector('#trick[data-kind="live"]')
        if page.locator('#trick .trick-slot .card').count():  # following a lead
            page.wait_for_function(STILL)
            seen = page.evaluate("""() => {
                const vh = window.innerHeight;
                const header = document.querySelector('.site-header');
                const top = header && getComputedStyle(header).position !== 'static'
                    ? header.getBoundingClientRect().bottom : 0;
                const off = [...document.querySelectorAll('#trick .trick-slot:has(.card)')].map((s) => {
                    const r = s.getBoundingClientRect();
                    return {seat: s.dataset.seat, top: r.top, bottom: r.bottom};
                }).filter((r) => r.top < top - 0.5 || r.bottom > vh + 0.5);
                const bar = document.getElementById('controls').getBoundingClientRect();
                return {off, bar: [bar.top, bar.bottom], vh, top};
            }""")
            if seen["off"] or seen["bar"][1] > seen["vh"] + 0.5:
                page.screenshot(path=str(artifacts / "shengji-follow-off-screen.png"))
            assert not seen["off"], f"follow decision {checked + 1}: plays off screen: {json.dumps(seen)}"
            assert seen["bar"][1] <= seen["vh"] + 0.5, f"the controls are off screen: {seen}"
            if checked == 0:
                page.screenshot(path=str(artifacts / "shengji-follow-mobile.png"))
            checked += 1
        page.click("#select-hint")
        page.click("#select-send")
    assert checked >= 3, f"only {checked} follow decisions before the hand ended"
