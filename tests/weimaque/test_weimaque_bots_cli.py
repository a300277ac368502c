"""Bots play only legal moves and take wins; the terminal hooks draw views and read typed moves."""

from __future__ import annotations

import pytest

from paiju.bots import get_bot, play_out
from paiju.core import OMNISCIENT
from paiju.games.weimaque import WeimaqueGame
from paiju.games.weimaque.bots import BOTS, ClosestToWinBot, SmartBot
from paiju.games.weimaque.cli import format_event, parse_input, render

from .test_weimaque_engine import WAIT_BA, discard, make_deal, reach, shown


def test_bot_registry() -> None:
    assert list(BOTS) == ["smart", "closest"]
    assert isinstance(get_bot("weimaque", "best"), SmartBot)


@pytest.mark.parametrize("kind", ["smart", "closest"])
def test_bots_finish_matches_with_legal_moves(kind: str) -> None:
    for seed in range(6):
        g = WeimaqueGame.new(seed=seed)
        play_out(g, [get_bot("weimaque", kind, seed * 4 + s) for s in range(4)])
        assert g.finished and sum(g.totals()) == pytest.approx(0.0)


@pytest.mark.parametrize("bot", [SmartBot(1), ClosestToWinBot(1)])
def test_bots_take_a_win(bot: SmartBot) -> None:
    deal = make_deal({0: "九", 3: WAIT_BA}, stock="捌", avoid={0: "捌", 1: "捌"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    reach(g, shown("d8"))
    assert bot.act(g.view(3), g.legal_actions(3)) == "hu"


def test_smart_bot_pengs_a_red_pair() -> None:
    deal = make_deal({0: "七", 3: "七七"}, avoid={0: "七", 1: "七"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x7")
    assert "peng" in g.legal_actions(3)
    assert SmartBot(0).act(g.view(3), g.legal_actions(3)) == "peng"


def test_render_and_events() -> None:
    g = WeimaqueGame.new(seed=2)
    text = render(g.view(0), "zh")
    assert "守醒" in text and "手牌" in text
    events = g.apply(0, g.legal_actions(0)[0])
    assert all(isinstance(format_event(e, "en"), str) for e in events)
    assert "seat 0 discards" in format_event(events[0] if events[0]["type"] == "discard" else events[1], "en")
    assert render(g.view(OMNISCIENT), "en")


def test_parse_input() -> None:
    legal = ["discard x3", "discard d8", "peng", "chi x4 x5", "pass", "hu"]
    assert parse_input("捌", legal) == "discard d8"
    assert parse_input("出三", legal) == "discard x3"
    assert parse_input("碰", legal) == "peng"
    assert parse_input("吃五四", legal) == "chi x4 x5"
    assert parse_input("过", legal) == "pass"
    assert parse_input("胡", legal) == "hu"
    assert parse_input("九", legal) == "discard x9", "read, though not in hand: the terminal gives the reason"
    assert parse_input("大八", legal) == "discard d8" and parse_input("打 d8", legal) == "discard d8"
    assert parse_input("nonsense", legal) is None



def test_study_runs_duplicate_deals() -> None:
    from paiju.bots.base import RandomBot
    from paiju.games.weimaque.study import duel

    r = duel(SmartBot, RandomBot, deals=2, start=0)
    assert r["hands"] == 6 and r["deals"] == 2
    assert 0.0 <= r["win_rate"] <= 1.0 and r["p99_ms"] >= r["p50_ms"] >= 0.0
