"""The bot study: duplicate deals, two smart bots as one team and then the other on the same cards.

    paiju study shengji --deals 1000        # every core

Each deal is a default one-hand match (``max_hands=1``) played twice: the studied bots in seats 0+2, then in
seats 1+3.  A sample is the studied side's net levels (levels it gained minus levels the other side gained)
averaged over the two rotations; the interval is 95% over deals.  Each row also gives the levels each side
gained per hand and how often the studied side dealt.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from paiju.bots.base import bot_maker
from paiju.bots.executor import Work
from paiju.bots.study import DealResult, DuplicateDeals, StudyArgs, StudySpec, Summary, interval, rows_work
from paiju.core.game import Game

from .config import ShengjiConfig

TEAMS = ((0, 2), (1, 3))


def hero_side(g: Game[Any], seats: Sequence[int]) -> float:
    r = g.result()
    assert r is not None
    return float(r.scores[seats[0]])


def levels(g: Game[Any], seats: Sequence[int]) -> tuple[float, ...]:
    """(levels gained by the studied side, by the other side, the studied side dealt) for one match."""
    r = g.result()
    assert r is not None
    team = seats[0] % 2
    return (float(r.detail["gained"][team]), float(r.detail["gained"][1 - team]),
            1.0 if r.detail["hand_log"][0]["dealer"] % 2 == team else 0.0)


def _sides(row: DuplicateDeals, results: list[DealResult]) -> Summary:
    per_deal = [[statistics.fmean(m[i] for m in r.measures) for r in results] for i in range(3)]
    gained, lost = interval(per_deal[0]), interval(per_deal[1])
    return {"gained": gained["mean"], "gained_ci95": gained["ci95"], "lost": lost["mean"],
            "lost_ci95": lost["ci95"], "dealt": statistics.fmean(per_deal[2])}


def plan(args: StudyArgs) -> Work[tuple[int, int], DealResult, Summary]:
    hero = str(args.options.get("bot", "smart"))
    cfg = ShengjiConfig(max_hands=1)
    rows = [(f"2 × {hero}", f"2 × {opp}", DuplicateDeals("shengji", bot_maker("shengji", hero),
                                                          bot_maker("shengji", opp), TEAMS, cfg, args.seed,
                                                          score=hero_side, measure=levels))
            for opp in args.against]
    return rows_work("shengji", rows, args.deals, seed=args.seed, unit="net levels per hand", extra=_sides)


STUDY = StudySpec(deals=1000, seed=0, against=("random", "highest"), plan=plan,
                  options={"bot": "the studied bot kind (default smart)"})
