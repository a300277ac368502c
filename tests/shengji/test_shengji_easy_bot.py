"""升级's easy bot (issue 37): each named habit, in the game's notation, and the room's 入门 seat plays it."""

from __future__ import annotations

import time
from typing import Any

import pytest

from paiju.bots import play_out
from paiju.bots.base import get_bot, strength_kinds
from paiju.games.shengji import ShengjiConfig, ShengjiGame
from paiju.games.shengji.bots import BOTS, EasyBot


def _view(phase: str, trick: list[tuple[int, list[str]]] | None = None) -> dict[str, Any]:
    """The part of a seat's view the easy bot reads: level 2, diamonds trump, the trick so far."""
    return {"phase": phase, "level": 2, "trump": "D", "trump_set": True,
            "trick": {"leader": trick[0][0] if trick else None, "plays": trick or []}}


@pytest.mark.parametrize(("view", "legal", "choice"), [
    # bids whenever it can, with the first bid offered
    (_view("deal"), ["pass", "bid 2S", "bid 2S 2S"], "bid 2S"),
    (_view("deal"), ["pass"], "pass"),
    # buries its smallest cards: the burial whose cards rank lowest (a trump counts above any plain card)
    (_view("bury"), ["bury 3C 4C 5C 6C 7C 8C 9C 3H 4H 5H 6H 3D", "bury 3C 4C 5C 6C 7C 8C 9C 3H 4H 5H 6H 7H",
                     "bury AS KS QS JS 3C 4C 5C 6C 7C 8C 9C 3H"], "bury 3C 4C 5C 6C 7C 8C 9C 3H 4H 5H 6H 7H"),
    # leads its highest single card, trumps first, never a pair or a throw
    (_view("play"), ["play AS", "play AS AS", "play KH", "play 3D"], "play 3D"),
    (_view("play"), ["play AS", "play AS AS", "play KH", "play 7C 7C"], "play AS"),
    (_view("play"), ["play 4H", "play BJ", "play BJ BJ", "play 2D"], "play BJ"),
    # follows with the lowest legal cards when no points lie on the trick
    (_view("play", [(1, ["9S"])]), ["play 3S", "play AS", "play 10S", "play 2D"], "play 3S"),
    (_view("play", [(1, ["9S", "9S"])]), ["play 3S 3S", "play AS AS"], "play 3S 3S"),
    # but grabs the trick's points with its highest
    (_view("play", [(1, ["KS"])]), ["play 3S", "play AS", "play 10S"], "play AS"),
    (_view("play", [(1, ["9S"]), (2, ["5S"])]), ["play 3S", "play AS", "play 10S", "play 2D"], "play 2D"),
])
def test_habits(view: dict[str, Any], legal: list[str], choice: str) -> None:
    assert EasyBot(0).act(view, legal) == choice


def test_the_rooms_easy_strength_is_the_easy_bot() -> None:
    assert strength_kinds("shengji")["easy"] == "easy"
    assert list(BOTS) == ["smart", "search", "easy", "highest"]     # strongest first: easy beats highest
    assert isinstance(get_bot("shengji", "easy", 3), EasyBot)


def test_easy_bots_finish_a_hand_fast_and_deterministically() -> None:
    def hand(seed: int) -> list[float]:
        g = ShengjiGame.new(ShengjiConfig(max_hands=1), seed)
        play_out(g, [EasyBot(seed * 4 + s) for s in range(4)])
        return list(g.totals())

    start = time.perf_counter()
    for seed in range(3):
        assert hand(seed) == hand(seed)
    assert time.perf_counter() - start < 5.0
