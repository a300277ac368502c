"""The bot study: duplicate deals, the efficient bot in each seat of the same wall in turn.

    paiju study huashui --deals 2500 --against greedy           # every core
    paiju study huashui --deals 1250 --against random
    paiju study huashui --deals 300 -o 'compare=[{}, {"pair_weight": 1.0}]'    # paired screening of variants

Each deal is played four times, the studied bot in seat 0, 1, 2 and 3 against three copies of the opponent; a
sample is its mean points per hand over the four, the interval is 95% over deals.  ``-o variant=JSON`` passes
options to the efficient bot.  ``-o compare=[JSON, ...]`` plays every variant on the same deals against three
shanten-greedy bots and gives each one's difference to the first, paired deal by deal (a much tighter interval
than either mean, since most decisions agree).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from paiju.bots.base import bot_maker, play_out
from paiju.bots.executor import Work
from paiju.bots.study import DuplicateDeals, StudyArgs, StudySpec, Summary, interval, rows_work

from .bots import EfficientBot, ShantenGreedyBot
from .config import HuashuiConfig
from .engine import HuashuiGame

SEATS = ((0,), (1,), (2,), (3,))


def plan(args: StudyArgs) -> Work[Any, Any, Summary]:
    if "compare" in args.options:
        variants = args.options["compare"]
        if not isinstance(variants, list) or not all(isinstance(v, dict) for v in variants) or not variants:
            raise ValueError("compare takes a JSON list of efficient-bot option objects")
        return compare_work(args.deals, args.seed, variants)
    variant: dict[str, Any] = args.options.get("variant") or {}
    hero = partial(EfficientBot, **variant) if variant else EfficientBot
    name = f"efficient {json.dumps(variant)}" if variant else "efficient"
    rows = [(name, opp, DuplicateDeals("huashui", hero, bot_maker("huashui", opp), SEATS, seed=args.seed))
            for opp in args.against]
    return rows_work("huashui", rows, args.deals, seed=args.seed, unit="points per hand")


@dataclass(frozen=True)
class CompareDeal:
    """Deal ``seed + d`` for every variant, each in every seat against three shanten-greedy bots."""

    variants: tuple[Mapping[str, Any], ...]
    seed: int

    def __call__(self, d: int) -> list[float]:
        cfg = HuashuiConfig(hands=1)
        samples = []
        for options in self.variants:
            total = 0.0
            for hero in range(4):
                game = HuashuiGame.new(cfg, self.seed + d)
                bots = [EfficientBot(d * 101 + hero, **options) if s == hero else ShantenGreedyBot(s)
                        for s in range(4)]
                play_out(game, bots)
                total += game.totals()[hero]
            samples.append(total / 4)
        return samples


def compare_work(deals: int, seed: int, variants: Sequence[Mapping[str, Any]]) -> Work[int, list[float], Summary]:
    def merge(_: Sequence[int], per_deal: Sequence[list[float]]) -> Summary:
        rows = []
        for i, options in enumerate(variants):
            mine = [s[i] for s in per_deal]
            diff = interval([a - s[0] for a, s in zip(mine, per_deal, strict=True)])
            rows.append({"variant": dict(options), **interval(mine),
                         "minus_first": diff["mean"], "minus_first_ci95": diff["ci95"]})
        return {"game": "huashui", "study": "paired variants against 3 greedy", "deals": len(per_deal),
                "seed": seed, "variants": rows}

    return Work(play=CompareDeal(tuple(variants), seed), jobs=range(deals), merge=merge)


STUDY = StudySpec(deals=2500, seed=0, against=("random", "greedy"), plan=plan,
                  options={"variant": "efficient-bot options as a JSON object",
                           "compare": "a JSON list of efficient-bot option objects to screen, paired"})

