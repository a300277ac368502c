"""A resample depends on the viewer's view and the random stream alone (issue 11): two games a viewer cannot
tell apart resample alike, so everything hidden — other hands, the stock, face-down 煨, who may claim and what
others answered, the match's random stream — is dealt or derived afresh, and ``view(OMNISCIENT)`` shows it all.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from paiju.core import OMNISCIENT, SPECTATOR
from paiju.games.weimaque import WeimaqueConfig, WeimaqueGame

from .test_weimaque_engine import WAIT_BA, discard, make_deal, reach, shown

VIEWERS = (0, 1, 2, 3, SPECTATOR)


def positions(config: WeimaqueConfig, seeds: range, every: int) -> list[WeimaqueGame]:
    """Positions of random play (every ``every``-th), claim windows with answers given among them."""
    out = []
    for seed in seeds:
        g = WeimaqueGame.new(config, seed)
        rng = random.Random(seed)
        step = 0
        while not g.finished:
            if step % every == 0:
                out.append(g.clone())
            movers = g.to_move()
            seat = movers[rng.randrange(len(movers))]
            legal = g.legal_actions(seat)
            g.apply(seat, legal[rng.randrange(len(legal))])
            step += 1
    return out


def _playable(g: WeimaqueGame) -> None:
    assert g.finished or g.to_move()
    for seat in g.to_move():
        assert g.legal_actions(seat)


@pytest.mark.parametrize("config", [WeimaqueConfig(hands=2), WeimaqueConfig(guozhang="passer", first_dealer=-1)],
                         ids=["default", "passer"])
def test_games_a_viewer_cannot_tell_apart_resample_alike(config: WeimaqueConfig) -> None:
    checked = 0
    for g in positions(config, range(12), 5):
        inventory = g.inventory()
        for viewer in VIEWERS:
            seed = len(g.history) * 10 + viewer
            twin = g.resample(viewer, random.Random(seed))
            assert twin.view(viewer) == g.view(viewer)
            assert twin.inventory() == inventory
            _playable(twin)
            a, b = g.resample(viewer, random.Random(seed + 1)), twin.resample(viewer, random.Random(seed + 1))
            assert a.view(OMNISCIENT) == b.view(OMNISCIENT), (viewer, g.record())
            checked += 1
    assert checked > 300


def _peng_or_chi_window() -> WeimaqueGame:
    """Seat 0 discards 五: seat 1 (its next) may 吃 it with 三四, seat 3 may 碰 it."""
    g = WeimaqueGame.from_deal(make_deal({0: "五", 1: "三四", 3: "五五"}, avoid={0: "五", 1: "五"}))
    discard(g, 0, "x5")
    assert set(g.to_move()) == {1, 3}
    return g


def test_who_may_claim_is_found_afresh_and_other_answers_are_forgotten() -> None:
    g = _peng_or_chi_window()
    claimants = {tuple(g.resample(1, random.Random(s)).view(OMNISCIENT)["claim"]["options"]) for s in range(40)}
    assert ("1",) in claimants and ("1", "3") in claimants  # seat 3's 碰 was seat 3's secret
    g.apply(3, "pass")
    for s in range(10):
        other = g.resample(1, random.Random(s))
        assert "3" not in other.view(OMNISCIENT)["claim"]["answers"]  # seat 1 never saw seat 3 pass
        assert other.to_move()[0] == 1
        own = g.resample(3, random.Random(s))
        assert own.view(OMNISCIENT)["claim"]["answers"] == {"3": "pass"} and own.view(3)["claim"]["answer"] == "pass"


def test_a_waiting_claim_keeps_someone_deciding_above_it() -> None:
    """Seat 3's 碰 waits for seat 1, whose 吃 cannot outrank it... so it waits for nobody: it is carried out.
    Seat 1's 吃 waits for seat 3: every resample for seat 1 keeps a seat deciding that outranks the 吃."""
    g = _peng_or_chi_window()
    g.apply(1, "chi x3 x4")
    for s in range(20):
        copy = g.resample(1, random.Random(s))
        assert copy.view(1) == g.view(1) and copy.to_move() and 1 not in copy.to_move()
        seat = copy.to_move()[0]
        copy.apply(seat, "pass")
        assert copy.melds[1][-1][0] == "chi"  # the 吃 goes ahead once the seat above it passes


def test_the_watcher_keeps_every_hand_but_not_the_stock() -> None:
    g = WeimaqueGame.new(seed=5)
    stocks = set()
    for s in range(5):
        copy = g.resample(g.watcher, random.Random(s))
        assert copy.view(OMNISCIENT)["hands"] == g.view(OMNISCIENT)["hands"]
        stocks.add(tuple(copy.view(OMNISCIENT)["stock_cards"]))
    assert len(stocks) > 1


def test_the_omniscient_view_shows_every_hidden_fact() -> None:
    g = _peng_or_chi_window()
    g.apply(3, "pass")
    v: dict[str, Any] = g.view(OMNISCIENT)
    claim = v["claim"]
    assert claim["options"]["3"] == ["peng"] and "chi x3 x4" in claim["options"]["1"]
    assert claim["answers"] == {"3": "pass"} and claim["priority"] == [[3, "peng"], [1, "chi"]]
    assert len(v["stock_cards"]) == 22 and set(v["hands"]) == {"0", "1", "3"} and v["passed"] == [[]] * 4
    assert g.view(1)["claim"] == {"options": claim["options"]["1"], "answer": None}
    assert g.view(0)["claim"] is None and g.view(SPECTATOR)["claim"] is None


def test_a_claim_waiting_for_a_rare_win_keeps_a_seat_deciding() -> None:
    """Seat 0's 碰 of the 捌 seat 1 drew waits for seat 3, who can win with it.  Seat 0 sees only that someone
    above it is deciding; a win on this card is too rare to find by dealing, so a seat it cannot see keeps the
    decision (it may only pass), and the copy plays on to the 碰."""
    g = WeimaqueGame.from_deal(make_deal({0: "九 捌捌", 3: WAIT_BA}, stock="捌", avoid={1: "捌"}))
    discard(g, 0, "x9")
    reach(g, shown("d8"))
    g.apply(0, "peng")
    copy = g.resample(0, random.Random(1))
    assert copy.view(0) == g.view(0) and copy.view(0)["claim"]["answer"] == "peng"
    assert copy.to_move() and 0 not in copy.to_move()
    while copy.phase == "claim":
        seat = copy.to_move()[0]
        assert "pass" in copy.legal_actions(seat)
        copy.apply(seat, "pass")
    assert copy.melds[0][-1][0] == "peng" and copy.to_move() == (0,)
