"""偎麻雀's search bot (issue 37): legal within its budget from a view alone, deterministic, and its play-outs find
the clearly better option."""

from __future__ import annotations

import random
import time
from typing import Any

from paiju.bots import play_out
from paiju.games.weimaque import WeimaqueGame
from paiju.games.weimaque.bots import SearchBot, TunedBot

from .test_weimaque_engine import WAIT_BA, discard, make_deal, reach, shown


def _positions(seed: int, every: int = 4) -> list[tuple[dict[str, Any], list[str]]]:
    """Every ``every``-th decision with a choice in one hand of tuned bots: (view, legal) of the seat to move."""
    game = WeimaqueGame.new(seed=seed)
    bots = [TunedBot(s) for s in range(4)]
    out: list[tuple[dict[str, Any], list[str]]] = []
    n = 0
    while not game.finished:
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        if len(legal) > 1:
            n += 1
            if n % every == 0:
                out.append((view, legal))
        game.apply(seat, bots[seat].act(view, legal))
    return out


def test_legal_and_within_its_budget_from_the_view_alone() -> None:
    """It is handed only a view (a copy built from the view itself, so the live game cannot leak in)."""
    for view, legal in _positions(700000)[:6]:
        bot = SearchBot(3, worlds=1000)
        bot.budget_seconds = 0.05
        start = time.perf_counter()
        assert bot.act(view, legal) in legal
        # the cap stops it: a thousand worlds would take seconds (7 ms a play-out); the time is only checked
        # between worlds, and a loaded machine makes one play-out slow, so the bound is loose (not a benchmark)
        assert time.perf_counter() - start < 0.05 + 2.0


def test_no_time_means_the_tuned_choice() -> None:
    for view, legal in _positions(700001)[:6]:
        assert SearchBot(1, max_seconds=0.0).act(view, legal) == TunedBot(1).act(view, legal)


def test_deterministic_for_a_seed_and_blind_past_its_view() -> None:
    for view, legal in _positions(700002, every=3)[:5]:
        game = WeimaqueGame.from_view(view, random.Random(5))     # the hidden cards dealt another way
        seat = view["viewer"]
        assert game.view(seat) == view and game.legal_actions(seat) == legal
        first = SearchBot(7, worlds=6, max_seconds=None).act(view, legal)
        assert SearchBot(7, worlds=6, max_seconds=None).act(game.view(seat), legal) == first


def test_the_play_outs_find_a_win_the_first_choice_passes_up() -> None:
    """Given a pass (as the first, incumbent choice) and a win on the shown card, the search takes the win:
    its play-outs score 息, not the tuned bot's valuation."""
    deal = make_deal({0: "九", 3: WAIT_BA}, stock="捌", avoid={0: "捌", 1: "捌"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    reach(g, shown("d8"))
    view, legal = g.view(3), g.legal_actions(3)
    assert "hu" in legal
    bot = SearchBot(2, worlds=6, max_seconds=None, margin=0.0, z=0.0)
    assert bot._search(view, ["pass", "hu"], 11, time.perf_counter()) == "hu"
    assert bot._search(view, ["hu", "pass"], 11, time.perf_counter()) == "hu"


def test_plays_a_whole_match() -> None:
    game = WeimaqueGame.new(seed=700003)
    play_out(game, [SearchBot(0, worlds=3)] + [TunedBot(s) for s in range(1, 4)])
    assert game.finished


def test_the_study_compares_kinds_paired_on_the_same_deals() -> None:
    """``-o compare=``: each kind minus the first, deal by deal; the tuned bot against its own field scores 0."""
    from paiju.bots.executor import execute, make_executor
    from paiju.bots.study import StudyArgs
    from paiju.games.weimaque.study import plan

    work = plan(StudyArgs(2, 700010, ("tuned",), {"compare": ["tuned", "smart"]}))
    with make_executor(1) as ex:
        summary = execute(work, ex).summary
    tuned, smart = summary["rows"]
    assert [r["bot"] for r in summary["rows"]] == ["tuned", "smart"] and tuned["mean"] == 0.0
    assert summary["paired"][0]["minus"] == "tuned" and summary["paired"][0]["mean"] == smart["mean"]
