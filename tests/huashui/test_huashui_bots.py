"""The efficient bot's hand reading: which tiles it counts as useful, and how much."""

from __future__ import annotations

from paiju.games.huashui import HuashuiConfig, HuashuiGame
from paiju.games.huashui.bots import EfficientBot, Hand, ShantenGreedyBot

OTHERS = ["2m5m8m3p6p9p1s4s7s3z4z5z6z7z", "3m6m9m1p4p7p2s8s3z4z5z6z7z", "1m4m7m2p5p8p3s6s9s3z4z5z6z"]


def seat1_hand(tiles13: str) -> Hand:
    """Seat 1's view of a fresh deal where it holds ``tiles13`` (the dealer, seat 0, holds 14 others)."""
    hands = [OTHERS[0], tiles13, OTHERS[1], OTHERS[2]]
    g = HuashuiGame.from_deal({"dealer": 0, "hands": hands, "dice": [3, 4]}, HuashuiConfig(), seed=1)
    return Hand(g.view(1))


def test_a_tile_that_turns_a_pair_into_a_set_counts_pair_weight_times() -> None:
    """No chow here: a run partial waits on our own draw only, a pair on anyone's discard too (碰).

    123m 456p 11z 55s 78s 3p is one from ready; 1z and 5s (two unseen each) complete a pair into a set,
    6s and 9s (four each) complete the run."""
    hand = seat1_hand("123m456p11z55s78s3p")
    assert hand.shanten() == 1
    assert hand.useful(1) == 2 + 2 + 4 + 4
    hand.pair_weight = 3.0
    assert hand.useful(1) == 3 * (2 + 2) + 4 + 4


def test_waits_of_a_ready_hand_are_not_weighted() -> None:
    """Once ready, every wait wins on anyone's discard alike: 123m456p789s11z55s waits on 1z and 5s."""
    hand = seat1_hand("123m456p789s11z55s")
    assert hand.shanten() == 0
    plain = hand.useful(0)
    hand.pair_weight = 3.0
    assert hand.useful(0) == plain == 4


def test_efficient_bot_keeps_pairs_where_greedy_breaks_one() -> None:
    """123m 456p 11z 22z 99m 79s, one from ready whichever way.  Breaking a pair leaves 8s (four) and two pair
    tiles (two each): 8 useful tiles, so the greedy bot throws 9m.  Keeping the three pairs leaves 6, but each
    can come from anyone's discard (碰): 18 weighted against 16, so the efficient bot throws 7s."""
    hands = ["123m456p11z22z99m79s", OTHERS[0][:-2], OTHERS[1], OTHERS[2]]
    g = HuashuiGame.from_deal({"dealer": 0, "hands": hands, "dice": [3, 4]}, HuashuiConfig(), seed=1)
    view, legal = g.view(0), g.legal_actions(0)
    assert ShantenGreedyBot(0).act(view, legal) == "discard 9m"
    assert EfficientBot(0).act(view, legal) == "discard 7s"
    assert EfficientBot(0, pair_weight=1.0).act(view, legal) == "discard 9m"
