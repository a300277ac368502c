"""The bot study: duplicate deals, the efficient bot in each seat of the same wall in turn.

    paiju study huashui --deals 2500 --against greedy           # every core
    paiju study huashui --deals 1250 --against random
    paiju study huashui --deals 300 -o 'compare=[{}, {"pair_weight": 1.0}]'    # paired screening of variants

Each deal is played four times, the studied bot in seat 0, 1, 2 and 3 against three copies of the opponent; a
sample is its mean points per hand over the four, the interval is 95% over deals.  ``-o variant=JSON`` passes
options to the efficient bot; ``-o bot=KIND`` studies another bot kind instead (``-o bot=easy --against
random``).  ``-o compare=[JSON, ...]`` plays every variant on the same deals against three
shanten-greedy bots and gives each one's difference to the first, paired deal by deal (a much tighter interval
than either mean, since most decisions agree).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from paiju.bots.base import Bot, bot_maker, play_out
from paiju.bots.executor import Work
from paiju.bots.study import DealResult, DuplicateDeals, StudyArgs, StudySpec, Summary, interval, rows_work
from paiju.core.game import Game

from .bots import EfficientBot, ShantenGreedyBot
from .config import HuashuiConfig
from .engine import HuashuiGame

SEATS = ((0,), (1,), (2,), (3,))
OUTCOMES = ("win", "deal_in", "self_drawn", "other_self_drawn")
"""Per hand and seat: it won, it dealt in (paid a win on its discard or robbed kong), it won self-drawn,
another seat won self-drawn (everyone else pays: the cost a fold cannot dodge)."""


def outcome(g: Game[Any], seat: int) -> tuple[float, ...]:
    """The seat's :data:`OUTCOMES` in the last hand, read from its settlement: the win lines come last, one per
    winner, and the seat that pays in a win on a discard is the one dealt in."""
    last = g.last_result  # type: ignore[attr-defined]
    winners = last["winners"]
    won = win_self = dealt = other_self = 0.0
    for w, line in zip(winners, last["lines"][len(last["lines"]) - len(winners):], strict=True):
        pts = line["points"]
        self_drawn = sum(1 for p in pts if p < 0) == 3
        if w == seat:
            won, win_self = 1.0, float(self_drawn)
        elif self_drawn:
            other_self = 1.0
        elif pts[seat] < 0:
            dealt = 1.0
    return (won, dealt, win_self, other_self)


def hero_outcome(g: Game[Any], seats: Sequence[int]) -> tuple[float, ...]:
    return outcome(g, seats[0])


def _rates(_: DuplicateDeals, results: list[DealResult]) -> Summary:
    """Each outcome's rate per hand with its 95% interval over deals (a deal's sample: its four rotations)."""
    out: Summary = {}
    for i, name in enumerate(OUTCOMES):
        got = interval([sum(m[i] for m in r.measures) / len(r.measures) for r in results])
        out[f"{name}_rate"], out[f"{name}_ci95"] = got["mean"], got["ci95"]
    return out


def plan(args: StudyArgs) -> Work[Any, Any, Summary]:
    if "compare" in args.options:
        variants = args.options["compare"]
        if not isinstance(variants, list) or not all(isinstance(v, dict) for v in variants) or not variants:
            raise ValueError("compare takes a JSON list of efficient-bot option objects")
        return compare_work(args.deals, args.seed, variants, str(args.options.get("field", "greedy")))
    variant: dict[str, Any] = args.options.get("variant") or {}
    hero: Callable[[int], Bot] = partial(EfficientBot, **variant) if variant else EfficientBot
    name = f"efficient {json.dumps(variant)}" if variant else "efficient"
    if "bot" in args.options:          # another bot in the studied seat (variant applies to efficient only)
        name = str(args.options["bot"])
        hero = bot_maker("huashui", name)
    rows = [(name, opp, DuplicateDeals("huashui", hero, bot_maker("huashui", opp), SEATS, seed=args.seed,
                                         measure=hero_outcome))
            for opp in args.against]
    return rows_work("huashui", rows, args.deals, seed=args.seed, unit="points per hand", extra=_rates)


def _variant_bot(options: Mapping[str, Any], seed: int) -> Bot:
    """The efficient bot with ``options``; ``{"bot": "greedy"}`` is the shanten-greedy bot, for reference."""
    if options.get("bot") == "greedy":
        return ShantenGreedyBot(seed)
    if options.get("bot") == "search":           # issue 37: the search bot, its options as keywords
        from .search import SearchBot
        return SearchBot(seed, **{k: v for k, v in options.items() if k != "bot"})
    return EfficientBot(seed, **{k: v for k, v in options.items() if k != "bot"})


@dataclass(frozen=True)
class CompareDeal:
    """Deal ``seed + d`` for every variant, each in every seat against three shanten-greedy bots: per variant,
    the mean points per hand and each of :data:`OUTCOMES`' rates over the four seats."""

    variants: tuple[Mapping[str, Any], ...]
    seed: int
    field: str = "greedy"
    """The three other seats' kind (``-o field=efficient``: the search bot against the normal bot, issue 37)."""

    def __call__(self, d: int) -> list[tuple[float, ...]]:
        cfg = HuashuiConfig(hands=1)
        field = bot_maker("huashui", self.field)
        samples = []
        for options in self.variants:
            total = [0.0] * (1 + len(OUTCOMES))
            for hero in range(4):
                game = HuashuiGame.new(cfg, self.seed + d)
                bots = [_variant_bot(options, d * 101 + hero) if s == hero else field(s) for s in range(4)]
                play_out(game, bots)
                for i, x in enumerate((game.totals()[hero], *outcome(game, hero))):
                    total[i] += x / 4
            samples.append(tuple(total))
        return samples


def compare_work(deals: int, seed: int, variants: Sequence[Mapping[str, Any]], field: str = "greedy"
                 ) -> Work[int, list[tuple[float, ...]], Summary]:
    def merge(_: Sequence[int], per_deal: Sequence[list[tuple[float, ...]]]) -> Summary:
        rows = []
        for i, options in enumerate(variants):
            mine = [s[i][0] for s in per_deal]
            diff = interval([s[i][0] - s[0][0] for s in per_deal])
            row: Summary = {"variant": dict(options), **interval(mine),
                            "minus_first": diff["mean"], "minus_first_ci95": diff["ci95"]}
            for k, name in enumerate(OUTCOMES, start=1):
                rate = interval([s[i][k] for s in per_deal])
                rdiff = interval([s[i][k] - s[0][k] for s in per_deal])
                row[f"{name}_rate"], row[f"{name}_ci95"] = rate["mean"], rate["ci95"]
                row[f"{name}_minus_first"], row[f"{name}_minus_first_ci95"] = rdiff["mean"], rdiff["ci95"]
            rows.append(row)
        return {"game": "huashui", "study": f"paired variants against 3 {field}", "deals": len(per_deal),
                "seed": seed, "variants": rows}

    return Work(play=CompareDeal(tuple(variants), seed, field), jobs=range(deals), merge=merge)


STUDY = StudySpec(deals=2500, seed=0, against=("random", "greedy"), plan=plan,
                  options={"bot": "the studied bot kind (default efficient), e.g. easy",
                           "variant": "efficient-bot options as a JSON object",
                           "compare": "a JSON list of efficient-bot option objects to screen, paired "
                                      '({"bot": "search", ...}: the search bot)',
                           "field": "the other seats' kind in compare (default greedy), e.g. efficient"})

