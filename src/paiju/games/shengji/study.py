"""The bot study: duplicate deals, two smart bots as one team and then the other on the same cards.

    paiju study shengji --deals 1000        # every core

    paiju study shengji -o bot=search --against smart --deals 500     # the search bot against the smart one

Each deal is a default one-hand match (``max_hands=1``) played twice: the studied bots in seats 0+2, then in
seats 1+3.  A sample is the studied side's net levels (levels it gained minus levels the other side gained)
averaged over the two rotations; the interval is 95% over deals.  Each row also gives the levels each side
gained per hand and how often the studied side dealt; and, since net levels saturate against weak bots, the
finer figures of the issue: the attackers' points per hand with the studied side attacking and defending,
how often each side keeps the deal when it deals (hold rate), and the studied side's points per hand (the
attackers' points counted for it when it attacks and against it when it defends), with 95% intervals over
deals.
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
    """(levels gained by the studied side, by the other side, the studied side dealt, the attackers' points,
    the dealer's side held) for one match (its first hand)."""
    r = g.result()
    assert r is not None
    team = seats[0] % 2
    first = r.detail["hand_log"][0]
    return (float(r.detail["gained"][team]), float(r.detail["gained"][1 - team]),
            1.0 if first["dealer"] % 2 == team else 0.0, float(first["total"]),
            1.0 if first["outcome"] in ("hold", "shutout") else 0.0)


def _rate(values: list[float]) -> Summary:
    got = interval(values)
    return {"mean": got["mean"], "ci95": got["ci95"], "n": len(values)}


def _sides(row: DuplicateDeals, results: list[DealResult]) -> Summary:
    per_deal = [[statistics.fmean(m[i] for m in r.measures) for r in results] for i in range(3)]
    gained, lost = interval(per_deal[0]), interval(per_deal[1])
    matches = [m for r in results for m in r.measures]
    # the studied side attacks where the other side dealt
    attacking = [m[3] for m in matches if not m[2]]
    defending = [m[3] for m in matches if m[2]]
    side_points = [statistics.fmean(m[3] if not m[2] else -m[3] for m in r.measures) for r in results]
    pts = interval(side_points)
    held_hero = _rate([m[4] for m in matches if m[2]])
    held_other = _rate([m[4] for m in matches if not m[2]])
    wall = [x for r in results for x in r.wall]
    cpu = [x for r in results for x in r.cpu]
    return {"decision_mean_ms": round(1000 * statistics.fmean(wall), 3) if wall else None,
            "decision_cpu_mean_ms": round(1000 * statistics.fmean(cpu), 3) if cpu else None,
            "gained": gained["mean"], "gained_ci95": gained["ci95"], "lost": lost["mean"],
            "lost_ci95": lost["ci95"], "dealt": statistics.fmean(per_deal[2]),
            "points_for_side": pts["mean"], "points_for_side_ci95": pts["ci95"],
            "attack_points": _rate(attacking), "defence_points": _rate(defending),
            "hold_rate": _rate([m[4] for m in matches]),
            "hold_rate_side_deals": held_hero, "hold_rate_other_deals": held_other}


def plan(args: StudyArgs) -> Work[tuple[int, int], DealResult, Summary]:
    compare = args.options.get("compare")
    if compare is not None and (not isinstance(compare, list) or len(compare) < 2
                                or not all(isinstance(k, str) for k in compare)):
        raise ValueError('compare takes a JSON list of two or more bot kinds, e.g. ["smart", "search"]')
    heroes = [str(k) for k in compare] if compare else [str(args.options.get("bot", "smart"))]
    cfg = ShengjiConfig(max_hands=1)
    rows = [(f"2 × {hero}", f"2 × {opp}", DuplicateDeals("shengji", bot_maker("shengji", hero),
                                                          bot_maker("shengji", opp), TEAMS, cfg, args.seed,
                                                          score=hero_side, measure=levels))
            for hero in heroes for opp in args.against]
    n = len(args.against)
    pairs = [(h * n + o, o) for h in range(1, len(heroes)) for o in range(n)]  # each hero minus the first, per field
    return rows_work("shengji", rows, args.deals, seed=args.seed, unit="net levels per hand", extra=_sides,
                     pairs=pairs)


STUDY = StudySpec(deals=1000, seed=0, against=("random", "highest"), plan=plan,
                  options={"bot": "the studied bot kind (default smart)",
                           "compare": "a JSON list of bot kinds played on the same deals against each opponent, "
                                      "each one's result minus the first's, paired deal by deal"})
