"""A claim window tells nothing until it resolves: a claimant's answer — a pass, or a claim that must wait for
a seat of higher priority — makes no event and changes no other viewer's view; the resolution then makes the
events for all at once (issue 13, "Timing that tells", the engine's side)."""

from __future__ import annotations

import random
from typing import Any

from paiju.core import SPECTATOR
from paiju.games.weimaque import WeimaqueConfig, WeimaqueGame

from .test_weimaque_engine import WAIT_BA, discard, make_deal, reach, shown, types

VIEWERS = (0, 1, 2, 3, SPECTATOR)


def _others(g: WeimaqueGame, seat: int) -> dict[int, Any]:
    return {v: g.view(v) for v in VIEWERS if v != seat}


def _answer_tells_nothing(g: WeimaqueGame, seat: int, action: str) -> None:
    before = _others(g, seat)
    assert g.apply(seat, action) == []
    assert g.phase == "claim" and seat not in g.to_move() and g.to_move()
    assert _others(g, seat) == before


def test_a_claim_waiting_for_a_win_and_a_pass_tell_nothing() -> None:
    """Seat 1 draws 捌: seat 0 may 碰 it, seat 3 may win with it.  Seat 0's 碰 waits for seat 3's answer."""
    deal = make_deal({0: "九 捌捌", 3: WAIT_BA}, stock="捌", avoid={1: "捌"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    reach(g, shown("d8"))
    _answer_tells_nothing(g, 0, "peng")
    events = g.apply(3, "pass")
    assert types(events)[0] == "peng" and g.phase == "discard"  # the resolution speaks for all


def test_a_pass_while_another_decides_tells_nothing() -> None:
    deal = make_deal({0: "五", 1: "三四", 3: "五五"}, avoid={0: "五", 1: "五"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x5")
    _answer_tells_nothing(g, 3, "pass")
    assert types(g.apply(1, "chi x3 x4")) == ["chi"]


def test_no_answer_tells_anything_in_random_play() -> None:
    checked = 0
    for seed in range(40):
        g = WeimaqueGame.new(WeimaqueConfig(hands=2), seed)
        rng = random.Random(seed)
        while not g.finished:
            movers = g.to_move()
            seat = movers[rng.randrange(len(movers))]
            legal = g.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            best = g.claim.best() if g.phase == "claim" else None
            probe = g.clone()
            probe.claim.answer(seat, action)
            if g.phase == "claim" and probe.claim.best() is best:  # still pending after this answer
                _answer_tells_nothing(g, seat, action)
                checked += 1
            else:
                g.apply(seat, action)
    assert checked > 100
