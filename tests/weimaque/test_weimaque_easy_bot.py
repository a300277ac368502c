"""偎麻雀's easy bot (issue 37): each named habit, in the game's notation, and the room's 入门 seat plays it."""

from __future__ import annotations

import time
from typing import Any

import pytest

from paiju.bots import play_out
from paiju.bots.base import get_bot, strength_kinds
from paiju.games.weimaque import WeimaqueGame
from paiju.games.weimaque.bots import EasyBot
from paiju.games.weimaque.config import WeimaqueConfig


def _view(hand: str, phase: str = "discard") -> dict[str, Any]:
    """The part of a seat's view the easy bot reads: the phase and its hand."""
    return {"phase": phase, "viewer": 0, "hand": hand.split()}


def _discards(hand: str) -> list[str]:
    return [f"discard {c}" for c in dict.fromkeys(hand.split())]


@pytest.mark.parametrize(("view", "legal", "choice"), [
    # wins whenever it can
    (_view("x1 x2 x3", "claim"), ["hu", "peng", "pass"], "hu"),
    (_view("x1 x2 x3"), ["hu", *_discards("x1 x2 x3")], "hu"),
    # claims whenever allowed: 碰 before 吃, the first 吃 offered
    (_view("x5 x5 x6 x8 d1", "claim"), ["peng", "chi x5 x6", "pass"], "peng"),
    (_view("x5 x6 x8 x9 d1", "claim"), ["chi x5 x6", "chi x6 x8", "chi x8 x9", "pass"], "chi x5 x6"),
    (_view("x5 x6 d1", "claim"), ["pass"], "pass"),
    # throws the card with the fewest neighbours: copies, its size within two, the same number of the other size
    (_view("x1 x2 x3 x9 d9 d5"), _discards("x1 x2 x3 x9 d9 d5"), "discard d5"),
    (_view("x1 x2 x3 x9 d9 d5 d6"), _discards("x1 x2 x3 x9 d9 d5 d6"), "discard x9"),   # ties: first in order
    (_view("x1 x1 x4 x7 d1"), _discards("x1 x1 x4 x7 d1"), "discard x4"),             # x4, x7 alone: the first
])
def test_habits(view: dict[str, Any], legal: list[str], choice: str) -> None:
    assert EasyBot(0).act(view, legal) == choice


def test_the_rooms_easy_strength_is_the_easy_bot() -> None:
    assert strength_kinds("weimaque")["easy"] == "easy"
    assert isinstance(get_bot("weimaque", "easy", 3), EasyBot)


def test_easy_bots_finish_matches_fast_and_deterministically() -> None:
    def match(seed: int) -> list[float]:
        g = WeimaqueGame.new(WeimaqueConfig(), seed)
        play_out(g, [EasyBot(seed * 8 + s) for s in range(g.num_seats)])
        return list(g.totals())

    start = time.perf_counter()
    for seed in range(6):
        assert match(seed) == match(seed)
    assert time.perf_counter() - start < 5.0
