"""Bots play legal moves from their own view and make sensible choices; the terminal hooks draw and parse."""

from __future__ import annotations

import pytest

from paiju.bots import get_bot, play_out
from paiju.core import SPECTATOR
from paiju.games.huashui import HuashuiConfig, HuashuiGame
from paiju.games.huashui.bots import BOTS, EfficientBot, Hand, ShantenGreedyBot
from paiju.games.huashui.cli import format_event, parse_input, render, tile_label

from .test_huashui_engine import ADDED, MULTI, SHANPON, start


def test_best_bot_is_the_efficient_one() -> None:
    assert list(BOTS) == ["efficient", "greedy", "easy"]
    assert isinstance(get_bot("huashui", "best", 1), EfficientBot)


@pytest.mark.parametrize("kind", ["efficient", "greedy"])
def test_bots_finish_matches_with_zero_sum_totals(kind: str) -> None:
    for seed in range(4):
        g = HuashuiGame.new(HuashuiConfig(hands=2), seed)
        play_out(g, [BOTS[kind](seed * 4 + s) for s in range(4)])
        assert g.finished and sum(g.totals()) == 0


def test_bots_take_a_win_when_offered() -> None:
    for bot in (EfficientBot(0), ShantenGreedyBot(0)):
        g = start(MULTI)
        g.apply(0, "discard 5s")
        assert bot.act(g.view(1), g.legal_actions(1)) == "hu"


def test_discard_keeps_the_hand_shape() -> None:
    """From 123m456p789s11z55s + 2z: the lone 2z goes and the hand is ready on 1z or 5s."""
    g = HuashuiGame.from_deal({"dealer": 0, "hands": ["123m456p789s11z2z55s", "2m5m8m3p6p9p1s4s7s3z4z5z6z",
                                                      "3m6m9m1p4p7p2s8s3z4z5z6z7z", "1m4m7m2p5p8p3s6s9s3z4z5z6z"]})
    for bot in (EfficientBot(0), ShantenGreedyBot(0)):
        assert bot.act(g.view(0), g.legal_actions(0)) == "discard 2z"


def test_efficient_bot_folds_to_a_thrown_tile_against_three_pungs() -> None:
    hand = Hand(start(SHANPON).view(0))
    assert hand.shanten() >= 2
    view = start(SHANPON).view(0)
    view["melds"][1] = [{"type": "pung", "tile": t, "from": 2, "cards": [t] * 3} for t in ("1m", "5p", "7s")]
    view["discards"][1] = ["4s"] * 9  # long into the hand, and 4s is a tile seat 1 threw
    assert EfficientBot(0).act(view, [a for a in start(SHANPON).legal_actions(0)]) == "discard 4s"


def test_render_and_events_in_both_languages() -> None:
    g = start(ADDED, wall="1m8p2z5m")
    events = []
    for seat, action in ((0, "discard 5m"), (2, "pass"), (1, "pung 5m")):
        events += g.apply(seat, action)
    zh, en = render(g.view(1), "zh"), render(g.view(1), "en")
    assert "座位1" in zh and "手牌" in zh and "seat" not in zh and "hand" not in zh, "Chinese says nothing twice"
    assert "seat 1" in en and "hand" in en and "座位" not in en and "东" not in en and "East" in en
    for lang in ("zh", "en"):
        assert all(isinstance(format_event(e, lang), str) for e in events)
    assert "碰" in render(g.view(SPECTATOR), "zh")
    assert tile_label("5m") == "[red]五万[/]" and tile_label("7z", "en") == "[magenta]Red[/]"
    g2 = start(MULTI)
    g2.apply(0, "discard 5s")
    for s in (1, 2, 3):
        g2.apply(s, "hu")
    assert "胡" in render(g2.view(0), "zh") or "win" in render(g2.view(0), "en")


def test_parse_input() -> None:
    legal = ["hu", "kong 1m", "discard 1m", "discard 5p"]
    assert parse_input("5p", legal) == "discard 5p"
    assert parse_input("胡", legal) == "hu"
    assert parse_input("gang", legal) == "kong 1m"
    assert parse_input("gang 1m", legal) == "kong 1m"
    assert parse_input("9s", legal) == "discard 9s", "read, though illegal: the terminal then gives the reason"
    assert parse_input("nonsense", legal) is None
    assert parse_input("过", ["pung 5m", "pass"]) == "pass"
    assert parse_input("碰", ["pung 5m", "pass"]) == "pung 5m"
