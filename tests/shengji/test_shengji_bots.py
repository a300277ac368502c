"""The 升级 bots: the search bot decides from its view alone, repeats itself, plays legally; the determinization
keeps what the seat knows; the smart bot buries short suits whole."""

from __future__ import annotations

import random

from paiju.bots.base import bot_maker, play_out
from paiju.games.shengji import ShengjiConfig, ShengjiGame
from paiju.games.shengji.bots import BOTS, SearchBot, SmartBot
from paiju.games.shengji.rollout import determinize, playout, position_from_view
from paiju.games.shengji.rules import NUM_KINDS, TOTAL_POINTS


def _to_play(seed: int, tricks: int) -> ShengjiGame:
    """A smart-bot game stopped in the play phase after ``tricks`` tricks and one more play or none."""
    g = ShengjiGame.new(ShengjiConfig(max_hands=1), seed)
    bots = [SmartBot(s) for s in range(4)]
    while not g.finished:
        seat = g.to_move()[0]
        if g.phase == "play" and len(g.tricks) >= tricks:
            return g
        g.apply(seat, bots[seat].act(g.view(seat), g.legal_actions(seat)))
    raise AssertionError("the hand ended early")


def test_best_stays_the_fast_smart_bot_and_search_is_listed() -> None:
    assert next(iter(BOTS)) == "smart"
    assert bot_maker("shengji", "best") is SmartBot
    assert bot_maker("shengji", "search") is SearchBot


def test_search_decides_from_the_view_alone() -> None:
    """Two games that look the same to the seat (a resample deals every hidden card afresh) get the same action
    for the same seed, and the searched decision differs from nothing hidden."""
    searched = 0
    for seed, tricks in ((3, 2), (4, 9), (5, 20), (6, 0)):
        g = _to_play(seed, tricks)
        seat = g.to_move()[0]
        twin = g.resample(seat, random.Random(seed))
        assert twin.view(seat) == g.view(seat)
        assert twin.hands != g.hands, "the twin's hidden hands differ"
        bot = SearchBot(11, playouts=12)
        a = bot.act(g.view(seat), g.legal_actions(seat))
        b = SearchBot(11, playouts=12).act(twin.view(seat), twin.legal_actions(seat))
        assert a == b
        assert g.is_legal(seat, a)
        assert bot.act(g.view(seat), g.legal_actions(seat)) == a, "stateless: the same decision again"
        searched += 1
    assert searched == 4


def test_search_plays_whole_hands_legally() -> None:
    g = ShengjiGame.new(ShengjiConfig(max_hands=1), 21)
    play_out(g, [SearchBot(0, playouts=8), SmartBot(1), SearchBot(2, playouts=8), SmartBot(3)])
    r = g.result()
    assert r is not None and r.detail["hands"] == 1


def test_search_wall_clock_cap_still_answers() -> None:
    g = _to_play(8, 3)
    seat = g.to_move()[0]
    a = SearchBot(0, playouts=10_000, max_seconds=0.01).act(g.view(seat), g.legal_actions(seat))
    assert g.is_legal(seat, a)


def test_determinize_keeps_the_seat_hand_sizes_voids_and_conserves_cards() -> None:
    for seed, tricks in ((30, 5), (31, 15), (32, 30)):
        g = _to_play(seed, tricks)
        seat = g.to_move()[0]
        view = g.view(seat)
        pos = position_from_view(view)
        assert any(pos.void), "by then some seat has shown a void"
        for k in range(5):
            hands, kitty_points = determinize(pos, random.Random(k))
            assert hands[seat] == g.hands[seat]
            assert [sum(h) for h in hands] == [g.sizes[s] for s in range(4)]
            for s in range(4):
                if s != seat:
                    for su in pos.void[s]:
                        assert not any(hands[s][c] for c in g.order.members[su]), f"seat {s} void in {su}"
            for c in range(NUM_KINDS):
                in_hands = sum(h[c] for h in hands)
                assert in_hands + g.pile.count(c) <= 4
            assert 0 <= kitty_points <= TOTAL_POINTS


def test_playout_finishes_the_hand_with_every_point_counted() -> None:
    g = _to_play(40, 6)
    seat = g.to_move()[0]
    pos = position_from_view(g.view(seat))
    hands, kitty_points = determinize(pos, random.Random(1))
    legal = g.legal_actions(seat)
    from paiju.games.shengji.plays import parse_play

    total = playout(pos, hands, kitty_points, parse_play(legal[0].partition(" ")[2]))
    assert pos.captured <= total + abs(pos.offset) <= TOTAL_POINTS * 5


def test_smart_dealer_buries_from_its_short_suits() -> None:
    """The bury takes its short side suits away (voids to ruff with): the shortest loses at least half, and
    over a few deals some suit goes whole."""
    voids_made = 0
    for seed in range(6):
        g = ShengjiGame.new(ShengjiConfig(max_hands=1), seed)
        bots = [SmartBot(s) for s in range(4)]
        while g.phase != "bury":
            seat = g.to_move()[0]
            g.apply(seat, bots[seat].act(g.view(seat), g.legal_actions(seat)))
        dealer = g.to_move()[0]
        held = g.holding(dealer)
        before = [sum(held[c] for c in g.order.members[s]) for s in range(4)]
        g.apply(dealer, bots[dealer].act(g.view(dealer), g.legal_actions(dealer)))
        after = [sum(g.hands[dealer][c] for c in g.order.members[s]) for s in range(4)]
        shortest = min(n for n in before if n)
        assert min(after[s] for s in range(4) if before[s]) <= shortest // 2
        voids_made += sum(1 for s in range(4) if before[s] and not after[s])
    assert voids_made >= 2
