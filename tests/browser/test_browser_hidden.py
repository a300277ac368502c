"""Four people, four browser contexts, one table: each sees its own hand face up and nobody else's."""

from __future__ import annotations

import json
from typing import Any

import pytest

from paiju.core import registry

pytestmark = pytest.mark.browser

PREFERRED = ("huashui", "shengji")  # games whose four seats all play


def four_seat_game() -> str:
    for name in PREFERRED:
        try:
            registry.get_game(name)
        except (ImportError, AttributeError):
            continue
        return name
    return "demo"  # the test game plays four seats too


def hands_seen(page: Any) -> dict[int, dict[str, Any]]:
    """Per seat on this page: is it 'me', how many face-up and face-down cards its hand shows."""
    rows = page.locator(".board .seat").evaluate_all("""els => els.map(e => ({
        seat: Number(e.dataset.seat), me: e.classList.contains('me'),
        faces: e.querySelectorAll('.hand .card.face').length,
        backs: e.querySelectorAll('.hand .card.back').length,
        count: Number((e.querySelector('.hand') || {dataset: {}}).dataset.count || 0)}))""")
    return {r["seat"]: r for r in rows}


def check_private(pages: list[Any]) -> None:
    for seat, page in enumerate(pages):
        seen = hands_seen(page)
        assert sorted(seen) == [0, 1, 2, 3], seen
        mine = seen[seat]
        assert mine["me"], f"seat {seat}'s page does not mark its own seat"
        assert mine["faces"] > 0 and mine["faces"] == mine["count"], mine
        for other, row in seen.items():
            if other == seat:
                continue
            assert not row["me"]
            assert row["faces"] == 0, f"seat {seat} sees {row['faces']} face-up cards in seat {other}'s hand"
            assert row["count"] > 0 and row["backs"] > 0, row


def test_each_of_four_people_sees_only_their_own_hand(room: Any) -> None:
    game = four_seat_game()
    from .conftest import short_match

    names = ["东风", "南风", "西风", "北风"]
    host = room.enter(names[0])
    options = short_match(room.base, game) if game != "demo" else {"players": 4}
    table = room.create_table(host, game, options, windows={"turn_seconds": 0, "claim_seconds": 0})
    room.sit(host, 0)
    pages = [host]
    for seat in (1, 2, 3):
        page = room.enter(names[seat])
        page.goto(f"{room.base}/t/{table}")
        page.wait_for_selector(".waiting-room .seat-row")
        room.sit(page, seat)
        pages.append(page)
    host.wait_for_selector("#start:not([disabled])")
    host.click("#start")
    for page in pages:
        page.wait_for_selector(".board .seat.me .hand .card.face")
    check_private(pages)

    # After someone acts, every page is updated and still shows only its own hand.
    actor = next((p for p in pages if "active" in (p.locator("#controls").get_attribute("class") or "")), None)
    if actor is not None:
        seq = actor.locator("#controls").get_attribute("data-seq")
        legal = json.loads(actor.locator("#controls").get_attribute("data-legal") or "[]")
        assert legal
        target = actor.locator(".seat.me .hand .card.playable, #controls .actions button.action").first
        if target.count():
            target.click()
        else:  # a selection: the first legal play's cards, then confirm
            _verb, *cards = next(a for a in legal if len(a.split()) > 1).split()
            for c in cards:
                actor.locator(f'.seat.me .hand .card[data-card="{c}"]:not(.selected)').first.click()
            actor.click("#select-send")
        for page in pages:
            page.wait_for_function("seq => document.getElementById('controls').dataset.seq !== seq", arg=seq)
        check_private(pages)
