"""Bot studies with duplicate deals: the same cards replayed with the bot in every seat.

Duplicate deals take the luck of the deal out of a comparison: for every seed the match is played once
per rotation, the studied bot ("hero") taking each rotation's seats and the opponents the rest.  The
per-deal mean over rotations is one sample; the confidence interval is over deals.

A deal is one job for ``paiju.bots.executor``: decided by its seed alone, so a study split over every core or
a Ray cluster gives the same figures as one process.  Each game's ``study`` module offers ``STUDY``, a
``StudySpec`` that ``paiju study GAME`` runs.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from paiju.core.game import Game
from paiju.core.registry import get_game

from .base import Bot, play_out
from .executor import Work

BotMaker = Callable[[int], Bot]
Summary = dict[str, Any]


@dataclass
class DecisionClock:
    """Wraps a bot to time each decision: wall time, and CPU time of the thread (which other jobs on a busy
    machine, or more workers than cores, disturb far less)."""

    bot: Bot
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @property
    def needs_view(self) -> bool:
        return bool(getattr(self.bot, "needs_view", True))

    def act(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        start, start_cpu = time.perf_counter(), time.thread_time()
        action = self.bot.act(view, legal)
        self.cpu.append(time.thread_time() - start_cpu)
        self.times.append(time.perf_counter() - start)
        return action


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


def decision_times(wall: Sequence[float], cpu: Sequence[float]) -> Summary:
    """The p50/p99 decision figures every study reports (timing fields: they vary from run to run)."""
    return {"decisions": len(wall),
            "decision_p50_ms": round(percentile(wall, 0.5) * 1000, 3),
            "decision_p99_ms": round(percentile(wall, 0.99) * 1000, 3),
            "decision_cpu_p50_ms": round(percentile(cpu, 0.5) * 1000, 3),
            "decision_cpu_p99_ms": round(percentile(cpu, 0.99) * 1000, 3)}


def interval(samples: Sequence[float]) -> Summary:
    """Mean and 95% half-width for a JSON summary (``None`` where there are too few samples)."""
    if not samples:
        return {"mean": None, "ci95": None}
    m, ci = mean_ci95(samples)
    return {"mean": m, "ci95": ci if math.isfinite(ci) else None}


class DealResult(NamedTuple):
    """One duplicate deal: the hero's sample (mean over rotations, per hand), the hands played, each
    rotation's extra measures, and the hero's decision times."""

    sample: float
    hands: int
    measures: tuple[tuple[float, ...], ...]
    wall: list[float]
    cpu: list[float]


@dataclass(frozen=True)
class DuplicateDeals:
    """One row of a study: ``hero`` against ``opponent`` on deal ``seed + d``, once per rotation.

    ``score`` gives the hero's result for one match (default: the mean match total of its seats); the sample per
    deal is the mean over rotations of score / hands (``hands_per_match``, default 1).  ``measure`` keeps extra
    figures per match (e.g. levels gained by each side).  Every field must pickle (classes, module-level
    functions, ``functools.partial``) so that deals can be played in other processes.
    """

    game: str
    hero: BotMaker
    opponent: BotMaker
    rotations: tuple[tuple[int, ...], ...]
    config: Any = None
    seed: int = 0
    hands_per_match: Callable[[Game[Any]], int] | None = None
    score: Callable[[Game[Any], Sequence[int]], float] | None = None
    measure: Callable[[Game[Any], Sequence[int]], tuple[float, ...]] | None = None

    def bot_seed(self, d: int, r: int, seat: int, hero: bool) -> int:
        return self.seed * 7 + d * 101 + r * 13 + seat + (0 if hero else 50)

    def new_game(self, d: int) -> Game[Any]:
        cls = get_game(self.game)
        return cls.new(self.config if self.config is not None else cls.config_class(), self.seed + d)

    def play(self, d: int) -> DealResult:
        per_rotation: list[float] = []
        measures: list[tuple[float, ...]] = []
        wall: list[float] = []
        cpu: list[float] = []
        hands = 0
        for r, hero_seats in enumerate(self.rotations):
            g = self.new_game(d)
            bots: list[Bot] = []
            clocks: list[DecisionClock] = []
            for s in range(g.num_seats):
                if s in hero_seats:
                    clock = DecisionClock(self.hero(self.bot_seed(d, r, s, True)))
                    clocks.append(clock)
                    bots.append(clock)
                else:
                    bots.append(self.opponent(self.bot_seed(d, r, s, False)))
            play_out(g, bots)
            n_hands = self.hands_per_match(g) if self.hands_per_match else 1
            hands += n_hands
            if self.score is not None:
                value = self.score(g, hero_seats)
            else:
                totals = g.totals()
                value = statistics.fmean(totals[s] for s in hero_seats)
            per_rotation.append(value / max(1, n_hands))
            if self.measure is not None:
                measures.append(self.measure(g, hero_seats))
            for c in clocks:
                wall.extend(c.times)
                cpu.extend(c.cpu)
        return DealResult(statistics.fmean(per_rotation), hands, tuple(measures), wall, cpu)


def play_row_deal(rows: Sequence[DuplicateDeals], job: tuple[int, int]) -> DealResult:
    """One job of a many-row study: deal ``d`` of row ``row``."""
    row, d = job
    return rows[row].play(d)


def row_summary(results: Sequence[DealResult]) -> Summary:
    """The generic figures of one row: the interval over deals, hands, decision times."""
    wall = [t for r in results for t in r.wall]
    cpu = [t for r in results for t in r.cpu]
    return {"deals": len(results), "hands": sum(r.hands for r in results),
            **interval([r.sample for r in results]), **decision_times(wall, cpu)}


def by_row(jobs: Sequence[tuple[int, int]], results: Sequence[Any], rows: int) -> list[list[Any]]:
    """Results of a many-row study grouped by row (each in deal order, as ``execute`` hands them)."""
    grouped: list[list[Any]] = [[] for _ in range(rows)]
    for (row, _), result in zip(jobs, results, strict=True):
        grouped[row].append(result)
    return grouped


@dataclass(frozen=True)
class StudyArgs:
    """What ``paiju study`` passes a game's study: deals, first seed, opponents and free options (``-o``)."""

    deals: int
    seed: int
    against: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StudySpec:
    """A game's study as ``paiju study GAME`` runs it: the defaults and the plan (jobs + merge)."""

    deals: int
    seed: int
    against: tuple[str, ...]
    plan: Callable[[StudyArgs], Work[Any, Any, Summary]]
    options: Mapping[str, str] = field(default_factory=dict)
    """``-o`` options the study understands, with what each does"""
    prepare_bots: Callable[[Sequence[str]], None] | None = None
    """What ``paiju sim`` should build once, before its workers start, for these bot kinds"""


Row = tuple[str, str, DuplicateDeals]
"""(studied bot's name, opponents' name, the row's deals)"""


def rows_work(game: str, rows: Sequence[Row], deals: int, *, seed: int, unit: str,
              extra: Callable[[DuplicateDeals, list[DealResult]], Summary] | None = None,
              prepare: Callable[[], object] | None = None,
              pairs: Sequence[tuple[int, int]] = ()) -> Work[tuple[int, int], DealResult, Summary]:
    """A study of several rows over the same ``deals``: one job per (row, deal), one merge into the summary that
    ``paiju study`` prints (``extra`` adds a game's own figures to each row).  ``pairs`` (row i, row j): also
    row i's result minus row j's, deal by deal — two bots on the same cards against the same field, whose
    difference has a far tighter interval than the two means apart."""
    specs = tuple(r for _, _, r in rows)

    def merge(jobs: Sequence[tuple[int, int]], results: Sequence[DealResult]) -> Summary:
        out = []
        for (bot, against, row), got in zip(rows, by_row(jobs, results, len(rows)), strict=True):
            out.append({"bot": bot, "against": against, "unit": unit, **row_summary(got),
                        **(extra(row, got) if extra is not None and got else {})})
        grouped = by_row(jobs, results, len(rows))
        paired = [{"bot": rows[i][0], "minus": rows[j][0], "against": rows[i][1], "unit": unit,
                   **interval([a.sample - b.sample for a, b in zip(grouped[i], grouped[j], strict=True)])}
                  for i, j in pairs]
        return {"game": game, "study": "duplicate deals", "deals": deals, "seed": seed, "rows": out,
                **({"paired": paired} if pairs else {})}

    jobs = [(r, d) for r in range(len(rows)) for d in range(deals)]
    return Work(play=partial(play_row_deal, specs), jobs=jobs, merge=merge, prepare=prepare)
