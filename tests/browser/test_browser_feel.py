"""Sound, motion and the confirm setting: cues for your turn, a claim and the hand's end (WebAudio, muted by a
switch kept per browser); cards fly to the table, and nothing moves under prefers-reduced-motion; an optional
"confirm before playing" (kept per browser) with the keyboard shortcuts still working."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import MY_PLAYABLE
from .deals import huashui_claim_deal

pytestmark = pytest.mark.browser

# Count what the page does: cues announced, WebAudio notes started, element animations started.
RECORD = """
window.__cues = []; window.__notes = 0; window.__animations = 0;
window.addEventListener('paiju:cue', (e) => window.__cues.push(e.detail));
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...a) { window.__notes += 1; return start.apply(this, a); };
const animate = Element.prototype.animate;
Element.prototype.animate = function (...a) { window.__animations += 1; return animate.apply(this, a); };
"""


def counts(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(
        "() => ({cues: window.__cues, notes: window.__notes, animations: window.__animations,"
        " running: document.getAnimations().length})")
    return out


def demo_table(room: Any, nickname: str, **context: Any) -> Any:
    page = room.enter(nickname, **context)
    page.add_init_script(RECORD)
    room.create_table(page, "demo", {"style": "tile", "players": 2, "hands": 2}, windows={"turn_seconds": 0})
    page.reload()  # the recording starts with the page
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    page.wait_for_selector(MY_PLAYABLE)
    return page


def discard(page: Any) -> None:
    seq = page.locator("#controls").get_attribute("data-seq")
    page.locator(MY_PLAYABLE).first.click()
    page.wait_for_function("s => document.getElementById('controls').dataset.seq !== s", arg=seq)


def test_sound_cues_and_the_mute_switch(room: Any) -> None:
    page = demo_table(room, "听声")
    page.wait_for_function("() => window.__cues.length >= 1")
    assert counts(page)["cues"] == ["turn"] and counts(page)["notes"] >= 2, "your turn rings, with WebAudio notes"
    discard(page)
    page.wait_for_selector(MY_PLAYABLE)
    page.wait_for_function("() => window.__cues.length >= 2")
    assert counts(page)["cues"] == ["turn", "turn"]

    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    page.click("#sound-toggle")  # mute
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    discard(page)
    page.wait_for_selector("#result-panel")  # the hand is over: silent now
    assert counts(page)["cues"] == ["turn", "turn"]
    page.reload()  # kept per browser
    page.wait_for_selector("#sound-toggle")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    page.locator("#settings summary").click()
    assert not page.locator("#pref-sound").is_checked()
    page.locator("#pref-sound").check()
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"


def test_a_claim_and_the_hand_end_have_their_cues(room: Any) -> None:
    page = room.enter("抢牌")
    page.add_init_script(RECORD)
    room.dealt_table(page, "huashui", huashui_claim_deal(), {"hands": 1}, turn_seconds=0, claim_seconds=0)
    page.wait_for_selector("#claim-prompt", timeout=30_000)
    page.wait_for_function("() => window.__cues.length >= 1")
    assert counts(page)["cues"] == ["claim"]
    page.click('#controls .actions button[data-action="hu"]')
    page.wait_for_selector("#result-panel")
    page.wait_for_function("() => window.__cues.length >= 2")
    assert counts(page)["cues"] == ["claim", "over"]


@pytest.mark.parametrize("reduced", [False, True])
def test_cards_move_unless_motion_is_reduced(room: Any, reduced: bool) -> None:
    page = demo_table(room, "动画", reduced_motion="reduce" if reduced else "no-preference")
    seen_running = 0
    for _ in range(2):
        discard(page)  # your tile flies to the table, then the bot's does
        seen_running = max(seen_running, counts(page)["running"])
        page.wait_for_selector(MY_PLAYABLE)
        seen_running = max(seen_running, counts(page)["running"])
    out = counts(page)
    if reduced:
        assert out["animations"] == 0 and seen_running == 0, f"something moved under reduced motion: {out}"
        assert page.evaluate("() => getComputedStyle(document.querySelector('.hand.own .card')).transitionDuration")\
            in ("0s", "")
    else:
        assert out["animations"] >= 2, f"the discards did not fly in: {out}"


def test_confirm_before_playing_and_the_keyboard(room: Any) -> None:
    page = demo_table(room, "确认")
    page.keyboard.press("1")  # the first button (pass) by its number
    page.wait_for_function("() => document.getElementById('controls').dataset.seq !== '0'")
    page.wait_for_selector(MY_PLAYABLE)

    page.locator("#settings summary").click()
    page.locator("#pref-confirm").check()
    page.locator("#settings summary").click()
    seq = page.locator("#controls").get_attribute("data-seq")
    card = page.locator(MY_PLAYABLE).first
    code = str(card.get_attribute("data-card"))
    card.click()
    bar = page.locator("#confirm-bar")
    bar.wait_for()
    assert page.locator("#controls").get_attribute("data-seq") == seq, "nothing is sent before the confirmation"
    assert "确定要" in bar.inner_text() and "打" in bar.inner_text()
    page.click("#confirm-no")
    assert page.locator("#confirm-bar").count() == 0
    page.locator(f'.seat.me .hand .card.playable[data-card="{code}"]').first.click()
    bar.wait_for()
    page.keyboard.press("Enter")  # Enter confirms
    page.wait_for_function("s => document.getElementById('controls').dataset.seq !== s", arg=seq)
    assert any(line.startswith("确认 打出") for line in page.locator("#log li").all_text_contents())
    page.reload()
    page.wait_for_selector("#settings")
    page.locator("#settings summary").click()
    assert page.locator("#pref-confirm").is_checked(), "the setting is kept per browser"
