"""升级 shows the trick: a finished trick stays on the table, its winner marked, until the next lead and for at
least ~1.5 s; the leader is marked; each side's points so far are shown; "last trick" brings the previous one
back.  The hand starts from a scripted deal where the person deals, buries and leads."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .deals import shengji_bury_deal

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1366, "height": 768}}


def send_hint(page: Any) -> None:
    """Select the first listed legal play (or bury) with the hint button and confirm it."""
    seq = page.locator("#controls").get_attribute("data-seq")
    page.click("#select-hint")
    page.click("#select-send")
    page.wait_for_function("s => document.getElementById('controls').dataset.seq !== s", arg=seq)


def slots_with_cards(page: Any) -> list[str]:
    out: list[str] = page.locator("#trick .trick-slot:has(.card)").evaluate_all("els => els.map(e => e.dataset.seat)")
    return out


def play(page: Any, cards: list[str]) -> None:
    seq = page.locator("#controls").get_attribute("data-seq")
    for c in cards:
        page.locator(f'.seat.me .hand .card[data-card="{c}"]:not(.selected)').first.click()
    page.click("#select-send")
    page.wait_for_function("s => document.getElementById('controls').dataset.seq !== s", arg=seq)


def shown_trick(page: Any) -> str:
    return str(page.locator("#trick").evaluate(
        "e => e.dataset.kind + ':' + [...e.querySelectorAll('.trick-slot')].map(s => s.dataset.seat + '='"
        " + [...s.querySelectorAll('.card')].map(c => c.dataset.card).join(',')).join(' ')"))


def test_a_finished_trick_stays_with_its_winner(room: Any, artifacts: Path) -> None:
    page = room.enter("庄家", **DESKTOP)
    room.dealt_table(page, "shengji", shengji_bury_deal(), {"max_hands": 1}, turn_seconds=0)
    page.wait_for_selector("#select-hint", timeout=30_000)
    send_hint(page)  # bury
    page.wait_for_selector("#controls.active #select-hint")  # the dealer leads the first trick
    assert page.locator(".seat.me .lead-badge").inner_text() == "该出"
    play(page, ["5S"])  # a low single: a bot takes the trick and leads the next one

    # Bots follow at once; the four plays stay together, the leader and the winner marked.
    page.wait_for_selector('#trick[data-kind="done"]')
    seen = time.monotonic()
    first = shown_trick(page)
    assert sorted(slots_with_cards(page)) == ["0", "1", "2", "3"], "a finished trick shows all four plays"
    assert page.locator("#trick .trick-slot.leader").get_attribute("data-seat") == "0"
    assert page.locator("#trick .trick-slot.leader .lead-mark").count() == 1
    winner = page.locator("#trick .trick-slot.winner")
    assert winner.count() == 1 and "★" in winner.inner_text()
    won_by = str(winner.get_attribute("data-seat"))
    name = page.locator(f'.board .seat[data-seat="{won_by}"] .seat-name').inner_text()
    result = page.locator("#trick .trick-result").inner_text()
    assert f"{name} 赢这一墩" in result
    points = int(result.split("·")[1].strip().split()[0])
    sides = page.locator("#side-points .side")
    assert sides.count() == 2 and sum(int(x) for x in sides.evaluate_all("els => els.map(e => e.dataset.points)")) \
        == points, "each side's points add up to the points taken"
    assert "闲家" in sides.nth(0).inner_text() and "庄家" in sides.nth(1).inner_text()
    page.screenshot(path=str(artifacts / "shengji-trick-done.png"))

    page.click("#lang-switch")  # English, the same trick
    assert "wins the trick" in page.locator("#trick .trick-result").inner_text()
    assert "attackers" in page.locator("#side-points").inner_text()
    page.click("#lang-switch")

    # It leaves the table once the next trick is led, and not before ~1.5 s.
    assert won_by != "0", "a bot beats a lone 5♠"
    page.wait_for_function("() => document.getElementById('trick')?.dataset.kind === 'live'", timeout=10_000)
    assert shown_trick(page) != first
    assert time.monotonic() - seen >= 1.4, "the finished trick left the table too soon"
    assert page.locator("#trick").get_attribute("data-kind") == "live"
    leader = page.locator("#trick .trick-slot.leader")
    assert leader.get_attribute("data-seat") == won_by and leader.locator(".lead-mark").count() == 1
    assert page.locator(f'.board .seat[data-seat="{won_by}"] .lead-badge').count() == 1

    # "Last trick" shows the finished trick again, with its winner; pressing again comes back.
    page.click("#last-trick")
    page.wait_for_selector('#trick[data-kind="last"]')
    assert shown_trick(page).split(":", 1)[1] == first.split(":", 1)[1]
    assert page.locator("#trick .trick-slot.winner").get_attribute("data-seat") == won_by
    page.screenshot(path=str(artifacts / "shengji-last-trick.png"))
    page.click("#last-trick")
    page.wait_for_selector('#trick[data-kind="live"]')


FINAL_TRICK = """async () => {
    const { TrickTable } = await import('/static/trick.js');
    const play = (seat, cards) => ({type: 'play', seat, cards});
    const live = (plays) => ({table: {seats: [{}, {}, {}, {}]}, attackers: [1, 3], tricks: [{leader: 0,
        plays: [[0, ['AS']], [1, ['3S']], [2, ['4S']], [3, ['5S']]], winner: 0, points: 0}],
        trick: {leader: 2, plays}});
    let expired = 0;
    const tt = new TrickTable(() => { expired += 1; });
    const t0 = 1000;
    tt.update(live([[2, ['KH']], [3, ['5H']], [0, ['10H']]]), [], true, t0);
    // The fourth card ends the hand: the view is already the next hand's (no tricks, nothing led).
    const next = {table: {seats: [{}, {}, {}, {}]}, attackers: [0, 2], tricks: [], trick: {leader: null, plays: []}};
    tt.update(next, [play(1, ['AH']), {type: 'trick', winner: 1, points: 20}, {type: 'hand_end'},
                     {type: 'hand_start'}], false, t0 + 10);
    const during = tt.display(t0 + 500);
    const holding = tt.holding(t0 + 500);
    const after = tt.display(t0 + 2000);
    return {during, holding, after: after.kind, afterHolding: tt.holding(t0 + 2000)};
}"""


def test_the_last_trick_of_a_hand_is_rebuilt_from_the_events(room: Any) -> None:
    """The view moves on to the next hand with the fourth card: the client rebuilds that trick from the trick it
    drew and the update's events, and holds it before the result panel opens."""
    page = room.enter("末墩")
    out = page.evaluate(FINAL_TRICK)
    assert out["during"]["kind"] == "done" and out["during"]["winner"] == 1 and out["during"]["points"] == 20
    assert out["during"]["plays"] == [[2, ["KH"]], [3, ["5H"]], [0, ["10H"]], [1, ["AH"]]]
    assert out["holding"] is True
    assert out["after"] == "live" and out["afterHolding"] is False
