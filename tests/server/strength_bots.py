"""Test-only bots for the strengths tests, in a module of their own: a worker process imports it to build them
(a search bot is sent to the pool as its class), and it must import nothing heavy."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any


class FirstBot:
    """The fast bot: the first legal action, at once."""

    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, view: Any, legal: Sequence[str]) -> str:
        return legal[0]


class BudgetBot:
    """A well-behaved search bot: thinks (spins) for its whole budget, then takes the last legal action, so a
    game shows which bot decided."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.budget_seconds = 10.0  # the room always sets it

    def act(self, view: Any, legal: Sequence[str]) -> str:
        end = time.monotonic() + self.budget_seconds
        while time.monotonic() < end:
            pass
        return legal[-1]


class StuckBot:
    """A search bot that ignores its budget: the room must not wait for it."""

    def __init__(self, seed: int = 0) -> None:
        self.budget_seconds = 0.0

    def act(self, view: Any, legal: Sequence[str]) -> str:
        time.sleep(3.0)
        return legal[-1]


class DyingBot:
    """A search bot whose worker dies in the middle of its search (killed, out of memory)."""

    def __init__(self, seed: int = 0) -> None:
        self.budget_seconds = 0.0

    def act(self, view: Any, legal: Sequence[str]) -> str:
        import os

        os._exit(3)
