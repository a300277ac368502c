"""滑水's easy bot (issue 37): each named habit, in the game's notation, and the room's 入门 seat plays it."""

from __future__ import annotations

import pickle
import time
from typing import Any

import pytest

from paiju.bots import play_out
from paiju.bots.base import get_bot, strength_kinds
from paiju.bots.executor import SerialExecutor, execute
from paiju.bots.study import StudyArgs
from paiju.core.registry import entry
from paiju.games.huashui import HuashuiConfig, HuashuiGame
from paiju.games.huashui.bots import EasyBot


def _view(hand: str, **more: Any) -> dict[str, Any]:
    """The part of a seat's view the easy bot reads (its hand), with whatever else a row sets."""
    return {"viewer": 0, "hand": hand.split(), "melds": [[], [], [], []], "discards": [[], [], [], []], **more}


def _discards(hand: str) -> list[str]:
    return [f"discard {t}" for t in dict.fromkeys(hand.split())]


THREAT = {"melds": [[], [{"type": "pung", "tile": t} for t in ("1z", "2z", "3z")], [], []],
          "discards": [[], ["5p", "6p"], [], []]}
"""A seat with three pungs out, one tile from a win: a beginner does not see it."""


@pytest.mark.parametrize(("hand", "more", "legal", "choice"), [
    # wins whenever it can, on a discard as on its own draw
    ("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 2z 2z", {}, ["hu", "pung 2z", "pass"], "hu"),
    # claims every kong and pung offered, the kong first
    ("1m 5m 9m 2p 7p 3s 3s 8s 1z 4z 5z 6z 7z", {}, ["pung 3s", "pass"], "pung 3s"),
    ("1m 2m 3m 2p 3p 4p 3s 3s 3s 8s 1z 4z 5z", {}, ["kong 3s", "pung 3s", "pass"], "kong 3s"),
    ("1m 2m 3m 2p 3p 4p 3s 3s 3s 3s 8s 1z 4z 5z", {}, ["kong 3s", *_discards("1m 2m 3m 2p 3p 4p 3s 8s 1z 4z 5z")],
     "kong 3s"),
    # throws the loneliest tile: a lone honour before a lone number, then the first in hand order
    ("1m 2m 3m 5m 2p 3p 4p 9s 9s 9s 5z 5z 7z 8s", {}, _discards("1m 2m 3m 5m 2p 3p 4p 9s 5z 7z 8s"), "discard 7z"),
    ("1m 2m 3m 5m 2p 3p 4p 9s 9s 9s 1p 1p 5s 6z", {}, _discards("1m 2m 3m 5m 2p 3p 4p 9s 1p 5s 6z"), "discard 6z"),
    ("1m 2m 3m 7m 2p 3p 4p 9s 9s 9s 1z 1z 3s 6p", {}, _discards("1m 2m 3m 7m 2p 3p 4p 9s 1z 3s 6p"), "discard 7m"),
    # no lone tile: the one touching fewest goes (6m touches only 5m; 5m touches 3m and 6m)
    ("1m 2m 3m 5m 6m 2p 3p 4p 9s 9s 9s 1z 1z 1z", {}, _discards("1m 2m 3m 5m 6m 2p 3p 4p 9s 1z"), "discard 6m"),
    # never defends: the same lone tile goes out though an opponent is one tile from a win
    ("1m 2m 3m 5m 2p 3p 4p 9s 9s 9s 1p 1p 5s 6z", THREAT, _discards("1m 2m 3m 5m 2p 3p 4p 9s 1p 5s 6z"),
     "discard 6z"),
])
def test_habits(hand: str, more: dict[str, Any], legal: list[str], choice: str) -> None:
    assert EasyBot(0).act(_view(hand, **more), legal) == choice


def test_the_rooms_easy_strength_is_the_easy_bot() -> None:
    assert strength_kinds("huashui")["easy"] == "easy"
    assert isinstance(get_bot("huashui", "easy", 3), EasyBot)


def test_easy_bots_finish_matches_fast_and_deterministically() -> None:
    def match(seed: int) -> list[float]:
        g = HuashuiGame.new(HuashuiConfig(hands=2), seed)
        play_out(g, [EasyBot(seed * 4 + s) for s in range(4)])
        assert sum(g.totals()) == 0
        return list(g.totals())

    start = time.perf_counter()
    for seed in range(6):
        assert match(seed) == match(seed)
    assert time.perf_counter() - start < 5.0


def test_the_study_puts_any_bot_in_the_studied_seat() -> None:
    """``paiju study huashui -o bot=easy``: the easy bot is studied, and the plan pickles for workers."""
    work = entry("huashui").study_spec().plan(StudyArgs(1, 300_000, ("random",), {"bot": "easy"}))
    pickle.dumps(work.play)
    with SerialExecutor() as ex:
        row = execute(work, ex).summary["rows"][0]
    assert (row["bot"], row["against"], row["deals"]) == ("easy", "random", 1)
