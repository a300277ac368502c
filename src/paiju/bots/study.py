"""Bot studies with duplicate deals: the same cards replayed with the bot in every seat.

Duplicate deals take the luck of the deal out of a comparison: for every seed the match is played once
per rotation, the studied bot ("hero") taking each rotation's seats and the opponents the rest.  The
per-deal mean over rotations is one sample; the confidence interval is over deals.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju.core.game import Game
from paiju.core.registry import get_game

from .base import Bot, play_out

BotMaker = Callable[[int], Bot]


@dataclass
class DecisionClock:
    """Wraps a bot to time each decision (for the p50/p99 figures)."""

    bot: Bot
    times: list[float] = field(default_factory=list)

    @property
    def needs_view(self) -> bool:
        return bool(getattr(self.bot, "needs_view", True))

    def act(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        start = time.perf_counter()
        action = self.bot.act(view, legal)
        self.times.append(time.perf_counter() - start)
        return action


@dataclass(frozen=True)
class StudyResult:
    deals: int
    hands: int
    mean: float
    ci95: float
    decision_p50_ms: float
    decision_p99_ms: float
    seconds: float

    def line(self) -> str:
        return (f"{self.mean:+.3f} ± {self.ci95:.3f} per hand (95% CI, {self.deals} deals, {self.hands} hands); "
                f"decisions p50 {self.decision_p50_ms:.2f} ms, p99 {self.decision_p99_ms:.2f} ms")


def mean_ci95(samples: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal-approximation 95% confidence interval."""
    m = statistics.fmean(samples)
    if len(samples) < 2:
        return m, math.inf
    return m, 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def duplicate_study(
    game: str,
    hero: BotMaker,
    opponent: BotMaker,
    *,
    deals: int,
    rotations: Sequence[Sequence[int]],
    config: Any = None,
    seed: int = 0,
    hands_per_match: Callable[[Game[Any]], int] | None = None,
    score: Callable[[Game[Any], Sequence[int]], float] | None = None,
    progress: Callable[[int], None] | None = None,
) -> StudyResult:
    """Play every deal once per rotation (the hero's seats in that rotation) and compare.

    ``score`` gives the hero's result for one match (default: the mean match total of its seats);
    the sample per deal is the mean over rotations, divided by the hands the match lasted.
    """
    cls = get_game(game)
    cfg = config if config is not None else cls.config_class()
    samples: list[float] = []
    times: list[float] = []
    hands = 0
    start = time.perf_counter()
    for d in range(deals):
        per_rotation = []
        for r, hero_seats in enumerate(rotations):
            g = cls.new(cfg, seed + d)
            bots: list[Bot] = []
            clocks = []
            for s in range(g.num_seats):
                if s in hero_seats:
                    clock = DecisionClock(hero(seed * 7 + d * 101 + r * 13 + s))
                    clocks.append(clock)
                    bots.append(clock)
                else:
                    bots.append(opponent(seed * 7 + d * 101 + r * 13 + s + 50))
            play_out(g, bots)
            n_hands = hands_per_match(g) if hands_per_match else 1
            hands += n_hands
            if score is not None:
                value = score(g, hero_seats)
            else:
                totals = g.totals()
                value = statistics.fmean(totals[s] for s in hero_seats)
            per_rotation.append(value / max(1, n_hands))
            for c in clocks:
                times.extend(c.times)
        samples.append(statistics.fmean(per_rotation))
        if progress is not None:
            progress(d + 1)
    m, ci = mean_ci95(samples)
    return StudyResult(deals=deals, hands=hands, mean=m, ci95=ci,
                       decision_p50_ms=percentile(times, 0.5) * 1000,
                       decision_p99_ms=percentile(times, 0.99) * 1000,
                       seconds=time.perf_counter() - start)
