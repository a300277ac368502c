"""The table's clock as a pure function: who must decide by when, from (before, who decides now, the time).

No event loop and no server: each case is the deadlines before, the seats deciding now with their windows,
the seat that just acted, and the deadlines expected after.
"""

from __future__ import annotations

import pytest

from paiju.core import Window
from paiju.server.room.clock import NO_DEADLINES, Deadlines, Windows, next_deadlines, timer_changes

T, C = Window.TURN, Window.CLAIM
TIMED = Windows(turn=20.0, claim=10.0)
NOW = 1000.0

CASES: list[tuple[str, Deadlines, dict[int, Window], int | None, Windows, dict[int, float]]] = [
    ("a new turn gets the turn window",
     NO_DEADLINES, {0: T}, None, TIMED, {0: 1020.0}),
    ("a claim window gets the claim window, for every claimant",
     Deadlines({0: 990.0}, {0: T}), {1: C, 2: C}, 0, TIMED, {1: 1010.0, 2: 1010.0}),
    ("a claimant still deciding keeps its deadline when another answers",
     Deadlines({1: 1005.0, 2: 1005.0}, {1: C, 2: C}), {2: C}, 1, TIMED, {2: 1005.0}),
    ("the seat that acted gets a new deadline even in the same window",
     Deadlines({0: 1005.0}, {0: T}), {0: T}, 0, TIMED, {0: 1020.0}),
    ("a seat moved from a claim to a turn gets a new deadline",
     Deadlines({1: 1005.0}, {1: C}), {1: T}, 2, TIMED, {1: 1020.0}),
    ("a seat no longer deciding loses its deadline",
     Deadlines({0: 1005.0, 1: 1005.0}, {0: T, 1: T}), {1: T}, None, TIMED, {1: 1005.0}),
    ("an untimed turn window gives no deadline",
     NO_DEADLINES, {0: T}, None, Windows(turn=0.0, claim=10.0), {}),
    ("an untimed claim window gives none while the turn stays timed",
     NO_DEADLINES, {1: C, 2: C}, None, Windows(turn=20.0, claim=0.0), {}),
    ("nobody deciding (the match is over): no deadlines",
     Deadlines({0: 1005.0}, {0: T}), {}, 0, TIMED, {}),
    ("simultaneous decisions each get one",
     NO_DEADLINES, {0: T, 1: T, 2: T, 3: T}, None, Windows(turn=5.0, claim=10.0),
     {0: 1005.0, 1: 1005.0, 2: 1005.0, 3: 1005.0}),
]


@pytest.mark.parametrize(("name", "before", "deciding", "acted", "windows", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_next_deadlines(name: str, before: Deadlines, deciding: dict[int, Window], acted: int | None,
                        windows: Windows, expected: dict[int, float]) -> None:
    after = next_deadlines(before, deciding, NOW, windows, acted)
    assert dict(after.at) == expected
    assert dict(after.windows) == {s: deciding[s] for s in expected}


def test_next_deadlines_leaves_the_old_value_alone() -> None:
    before = Deadlines({0: 1005.0}, {0: T})
    next_deadlines(before, {1: T}, NOW, TIMED, 0)
    assert before == Deadlines({0: 1005.0}, {0: T})


@pytest.mark.parametrize(("armed", "deadlines", "cancel", "arm"), [
    ({}, {0: 5.0}, [], {0: 5.0}),
    ({0: 5.0}, {0: 5.0}, [], {}),
    ({0: 5.0}, {0: 7.0}, [0], {0: 7.0}),
    ({0: 5.0, 1: 6.0}, {1: 6.0, 2: 8.0}, [0], {2: 8.0}),
    ({0: 5.0}, {}, [0], {}),
])
def test_timer_changes(armed: dict[int, float], deadlines: dict[int, float], cancel: list[int],
                       arm: dict[int, float]) -> None:
    assert timer_changes(armed, deadlines) == (cancel, arm)


def test_windows_pick_the_claim_window_only_for_claims() -> None:
    assert (TIMED.seconds(Window.CLAIM), TIMED.seconds(Window.TURN)) == (10.0, 20.0)
