"""Bots play only legal moves and take wins; the terminal hooks draw views and read typed moves."""

from __future__ import annotations

import pytest

from paiju.bots import get_bot, play_out
from paiju.core import OMNISCIENT
from paiju.games.weimaque import WeimaqueGame
from paiju.games.weimaque.bots import (
    BOTS,
    SMART,
    TUNED,
    WEIGHT_NAMES,
    ClosestToWinBot,
    SmartBot,
    TunedBot,
    _Seen,
    hand_value,
    waits,
)
from paiju.games.weimaque.cards import counts_of, parse_cards
from paiju.games.weimaque.cli import format_event, parse_input, render
from paiju.games.weimaque.config import WeimaqueConfig

from .test_weimaque_engine import WAIT_BA, discard, make_deal, reach, shown


def test_bot_registry() -> None:
    assert list(BOTS) == ["tuned", "smart", "closest", "easy", "search"]
    assert isinstance(get_bot("weimaque", "best"), TunedBot)
    assert SmartBot.weights == SMART and len(TunedBot.weights) == len(WEIGHT_NAMES)


def test_weights_are_checked_and_red_terms_count_the_melds() -> None:
    with pytest.raises(ValueError, match="17 weights"):
        SmartBot(0, weights=SMART[:10])
    w = (*SMART[:13], 7.0, *SMART[14:])  # few_reds: one red at most, hand and melds together
    hand = [0] * 20
    hand[1] = 1  # 二, red
    hand[3] = 2
    assert hand_value(hand, [2] * 20, w) - hand_value(hand, [2] * 20, SMART) == pytest.approx(7.0)
    assert hand_value(hand, [2] * 20, w, meld_reds=1) == pytest.approx(hand_value(hand, [2] * 20, SMART))
    red_card = (*SMART[:12], -1.5, *SMART[13:])
    assert hand_value(hand, [2] * 20, red_card) == pytest.approx(hand_value(hand, [2] * 20, SMART) - 1.5)


@pytest.mark.parametrize("kind", ["tuned", "smart", "closest"])
def test_bots_finish_matches_with_legal_moves(kind: str) -> None:
    for seed in range(6):
        g = WeimaqueGame.new(seed=seed)
        play_out(g, [get_bot("weimaque", kind, seed * 4 + s) for s in range(4)])
        assert g.finished and sum(g.totals()) == pytest.approx(0.0)


@pytest.mark.parametrize("bot", [TunedBot(1), SmartBot(1), ClosestToWinBot(1)])
def test_bots_take_a_win(bot: SmartBot) -> None:
    deal = make_deal({0: "九", 3: WAIT_BA}, stock="捌", avoid={0: "捌", 1: "捌"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    reach(g, shown("d8"))
    assert bot.act(g.view(3), g.legal_actions(3)) == "hu"


@pytest.mark.parametrize(("hand", "melds", "expected"), [
    # ready on 捌 alone: 12 硬息 from the three red 砍, 单吊 +20, 多红 (ten reds) +10
    ("二二二 七七七 十十十 三四五 叁肆伍 壹贰叁 捌", (), ((17, 42),)),
    # the same shape with black 砍: 9 硬息, so no win on any card
    ("一一一 六六六 九九九 三四五 叁肆伍 壹贰叁 捌", (), ()),
    # a 碰 on the table counts: 碰 十 (3) + 砍 二 七 (8) = 11 硬息, ready on 捌
    ("二二二 七七七 三四五 叁肆伍 壹贰叁 捌", (("peng", (9, 9, 9)),), ((17, 41),)),
])
def test_waits_are_the_cards_that_win_with_enough_xi(hand: str, melds: tuple[tuple[str, tuple[int, ...]], ...],
                                                      expected: tuple[tuple[int, int], ...]) -> None:
    assert waits(tuple(counts_of(parse_cards(hand))), melds) == expected


BLACK_KAN = "一一一 六六六 九九九 三四五 叁肆伍 壹贰叁 捌"
"""9 硬息: ready on 捌 only where a table asks fewer than 10."""


def test_the_tuned_bot_scores_waits_by_the_tables_rules() -> None:
    counts = tuple(counts_of(parse_cards(BLACK_KAN)))
    low = WeimaqueConfig(min_hard_xi=6)
    assert waits(counts, ()) == () and [c for c, _ in waits(counts, (), low)] == [17]
    bot = TunedBot(0)
    for config, ready in ((WeimaqueConfig(), False), (low, True)):
        g = WeimaqueGame.from_deal(make_deal({0: BLACK_KAN.replace(" ", "")}), config)
        seen = _Seen(g.view(0))  # the view carries the rules: every seat knows them
        assert seen.rules == config
        assert (bot.ready(seen, list(counts), ()) > 0) is ready


@pytest.mark.parametrize(("hand", "smart", "tuned"), [
    # smart keeps 一 (a single next to nothing is worth little either way) and breaks 四五五六; the tuned bot
    # drops 一 and waits on 三 五 六 (on 五 a 47 息 win: 硬息 17, 多红 +10, 单吊 +20)
    ("一四五五六七七七十十十陆柒捌玖玖玖拾拾拾", "discard x5", "discard x1"),
])
def test_the_tuned_bot_discards_to_a_ready_hand(hand: str, smart: str, tuned: str) -> None:
    g = WeimaqueGame.from_deal(make_deal({0: hand}))
    legal = g.legal_actions(0)
    assert SmartBot(0).act(g.view(0), legal) == smart
    assert TunedBot(0).act(g.view(0), legal) == tuned


FIRST_SESSION = (12.754, 2.453, 7.637, 7.87, 1.94, 1.809, 3.13, 1.7, 1.058, 0.598, 1.076, 0.889, -0.076, -3.484,
                 -0.718)
"""The ES's mean after generation 10 (docs/bots/weimaque.md, Tuning): the second session kept it"""


def test_the_shipped_weights_differ_from_smart_only_where_the_doc_says() -> None:
    ready = WEIGHT_NAMES.index("ready")
    assert TUNED[:ready] == FIRST_SESSION, "the coordinate search moved no weight"
    assert dict(zip(WEIGHT_NAMES[ready:], TUNED[ready:], strict=True)) == {"ready": 3.0, "ready_xi": 12.0}
    assert SMART[ready:] == (0.0, 0.0) and ClosestToWinBot.weights[ready:] == (0.0, 0.0), "baselines unchanged"
    assert SMART[:ready] == (11.0, 2.4, 8.0, 5.0, 2.0, 2.0, 2.6, 1.7, 0.8, 0.15, 1.6, 0.7, 0.0, 0.0, 0.0)


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
    assert r["xi_per_win"] is None or r["xi_per_win"] >= 10, "a win needs 10 硬息"
    assert r["win_rate"] + r["chou_rate"] + r["opponent_win_rate"] == pytest.approx(1.0)
    assert r["opponent_xi_per_win"] is None or r["opponent_xi_per_win"] >= 10


def test_tuning_measures_against_the_hand_set_bot() -> None:
    from paiju.games.weimaque.tune import LOWER, UPPER, fitness, tune

    assert fitness(SMART, 1_000_000, 2) == 0.0, "the same bot in every seat: each rotation plays the same hand"
    gens = tune(1, 2, lam=2, progress=False)
    assert len(gens) == 1 and len(gens[0].scores) == 2 and gens[0].mean_score == 0.0
    assert all(lo <= x <= hi for x, lo, hi in zip(gens[0].mean, LOWER, UPPER, strict=True))


def test_coordinate_search_replays_the_incumbent_and_stays_in_bounds() -> None:
    from paiju.games.weimaque.tune import LOWER, UPPER, coordinate_search

    log = coordinate_search(2, 2, SMART, ["ready", "claim"], progress=False)
    assert [e["weight"] for e in log] == ["ready", "claim"]
    assert log[0]["incumbent_score"] == 0.0, "smart against smart: every rotation plays the same hand"
    for e in log:
        assert isinstance(e["incumbent"], list) and len(e["incumbent"]) == len(WEIGHT_NAMES)
        assert all(lo <= x <= hi for x, lo, hi in zip(e["incumbent"], LOWER, UPPER, strict=True))
        assert e["moved"] or e["incumbent"] == list(SMART) or log[0]["moved"]
