"""The bot study: duplicate deals, the bot in each of the three player seats of the same cards.

    paiju study weimaque --deals 2000            # every core; --workers 1 for one process
    .venv/bin/python -m paiju.games.weimaque.study --deals 2000      # the same, printed as the docs' table
    paiju study weimaque --against smart -o bot=closest              # any bot against any other
    paiju study weimaque --against tuned -o 'compare=["tuned", "search"]'   # paired: search minus tuned

For every deal (seed) the match is played three times, the bot sitting once in each player seat (the
dealer's, its next and its previous seat; the 守醒 seat never plays) against two copies of the opponent.
Reported per opponent: the bot's mean 息 won per hand (its net score: a winner collects the total from each
other player) with a 95% confidence interval over deals, its win rate, the rate of 臭 hands, and the
time of its decisions (p50 / p99).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from paiju.bots.base import Bot, RandomBot, bot_maker, bot_names
from paiju.bots.executor import Work, execute, make_executor
from paiju.bots.study import DealResult, DuplicateDeals, StudyArgs, StudySpec, Summary, interval, rows_work
from paiju.core.game import Game

from .bots import ClosestToWinBot

PLAYER_SEATS = (0, 1, 3)  # dealer 0 (config first_dealer=0), 守醒 2
FIRST_DEAL = 100_000


def win_or_chou(g: Game[Any], seats: Sequence[int]) -> tuple[float, ...]:
    """(the hero won, nobody won, the hero's win total or 0, an opponent won, that win's total or 0)."""
    last = g.results[-1]  # type: ignore[attr-defined]
    won = last["winner"] == seats[0]
    lost = last["winner"] is not None and not won
    return (float(won), float(last["winner"] is None), float(last["win"]["total"]) if won else 0.0,
            float(lost), float(last["win"]["total"]) if lost else 0.0)


@dataclass(frozen=True)
class WeimaqueDeals(DuplicateDeals):
    """Deal ``seed + d`` with the bots seeded by the deal (deal × 8 + seat), as the study always was."""

    def bot_seed(self, d: int, r: int, seat: int, hero: bool) -> int:
        return (self.seed + d) * 8 + seat


def _rates(row: DuplicateDeals, results: list[DealResult]) -> Summary:
    """Win and 臭 rates (with 95% intervals over deals, as the 息), the mean total of the hero's wins and of the
    opponents' wins: whether a bot gains by winning more often, by winning bigger hands, or by paying less."""
    per_hand = [m for r in results for m in r.measures]
    wins = sum(m[0] for m in per_hand)
    losses = sum(m[3] for m in per_hand)
    win = interval([statistics.fmean(m[0] for m in r.measures) for r in results])
    chou = interval([statistics.fmean(m[1] for m in r.measures) for r in results])
    return {"win_rate": wins / len(per_hand), "win_ci95": win["ci95"],
            "chou_rate": sum(m[1] for m in per_hand) / len(per_hand), "chou_ci95": chou["ci95"],
            "xi_per_win": sum(m[2] for m in per_hand) / wins if wins else None,
            "opponent_win_rate": losses / len(per_hand),
            "opponent_xi_per_win": sum(m[4] for m in per_hand) / losses if losses else None}


def duel_row(bot: Callable[[int], Bot], opponent: Callable[[int], Bot], start: int) -> WeimaqueDeals:
    return WeimaqueDeals("weimaque", bot, opponent, tuple((s,) for s in PLAYER_SEATS), seed=start,
                         measure=win_or_chou)


def plan(args: StudyArgs) -> Work[tuple[int, int], DealResult, Summary]:
    """The best bot against each opponent kind (today's smart bot among them, whose weights were hand-set),
    and the closest-to-win bot against random players for scale."""
    compare = args.options.get("compare")
    if compare is not None and (not isinstance(compare, list) or len(compare) < 2
                                or not all(isinstance(k, str | dict) for k in compare)):
        raise ValueError('compare takes a JSON list of two or more bot kinds or {"bot": kind, option: value} '
                         'objects, e.g. ["tuned", "search"]')
    heroes = list(compare) if compare else [str(args.options.get("bot", "best"))]
    rows = [(_name(hero), opp, duel_row(_maker(hero), bot_maker("weimaque", opp), args.seed))
            for hero in heroes for opp in args.against]
    n = len(args.against)
    pairs = [(h * n + o, o) for h in range(1, len(heroes)) for o in range(n)]  # each hero minus the first, per field
    if args.options.get("scale", not compare):
        rows.append(("closest", "random", duel_row(ClosestToWinBot, RandomBot, args.seed)))
    return rows_work("weimaque", rows, args.deals, seed=args.seed, unit="息 won per hand", extra=_rates,
                     pairs=pairs)


def _name(hero: str | dict[str, Any]) -> str:
    if isinstance(hero, dict):
        return json.dumps(hero, ensure_ascii=False)
    return next(k for k in bot_names("weimaque") if k != "random") if hero == "best" else hero


def _maker(hero: str | dict[str, Any]) -> Callable[[int], Bot]:
    """A bot kind, or ``{"bot": kind, ...}``: that kind built with the other keys as keywords (screening)."""
    if isinstance(hero, str):
        return bot_maker("weimaque", _name(hero))
    from .bots import BOTS
    options = {k: v for k, v in hero.items() if k != "bot"}
    return partial(BOTS[str(hero.get("bot", "search"))], **options)


STUDY = StudySpec(deals=2000, seed=FIRST_DEAL, against=("random", "closest", "smart"), plan=plan,
                  options={"bot": "the studied bot (default best: tuned)",
                           "scale": "also closest vs random, for scale (default true, false with compare)",
                           "compare": "a JSON list of bot kinds (or {\"bot\": kind, option: value} objects) played "
                                      "on the same deals against each opponent, each minus the first, paired deal by "
                                      "deal: the field is --against, e.g. --against tuned (issue 37)"})


def duel(bot: Callable[[int], Bot], opponent: Callable[[int], Bot], deals: int, start: int,
         workers: int | None = 1) -> dict[str, Any]:
    """One row from Python, in the study's old shape."""
    work = rows_work("weimaque", [("bot", "opponent", duel_row(bot, opponent, start))], deals, seed=start,
                     unit="息", extra=_rates)
    with make_executor(workers) as ex:
        row = execute(work, ex).summary["rows"][0]
    return {"hands": row["hands"], "deals": deals, "mean_xi": row["mean"], "ci95": row["ci95"],
            "win_rate": row["win_rate"], "chou_rate": row["chou_rate"], "xi_per_win": row["xi_per_win"],
            "opponent_win_rate": row["opponent_win_rate"], "opponent_xi_per_win": row["opponent_xi_per_win"],
            "p50_ms": row["decision_p50_ms"],
            "p99_ms": row["decision_p99_ms"]}


def main() -> None:
    ap = argparse.ArgumentParser(description="偎麻雀 bot study with duplicate deals")
    ap.add_argument("--deals", type=int, default=STUDY.deals)
    ap.add_argument("--start", type=int, default=FIRST_DEAL, help="first deal seed")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    ap.add_argument("--bot", default="best", help="the studied bot (default best: tuned)")
    ap.add_argument("--against", default=",".join(STUDY.against), help="opponent kinds, comma-separated")
    ap.add_argument("--json", action="store_true", help="print the JSON summary instead of the table")
    args = ap.parse_args()
    work = plan(StudyArgs(args.deals, args.start, tuple(args.against.split(",")), {"bot": args.bot}))
    with make_executor(args.workers, prepare=work.prepare) as ex:
        summary = execute(work, ex).summary
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return
    print("| bot | opponents | hands | mean 息 won per hand | 95% CI | win rate | 臭 rate | 息 per win "
          "| opponents win | their 息 per win | p50 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in summary["rows"]:
        per_win = f"{r['xi_per_win']:.1f}" if r.get("xi_per_win") is not None else "–"
        theirs = f"{r['opponent_xi_per_win']:.1f}" if r.get("opponent_xi_per_win") is not None else "–"
        print(f"| {r['bot']} | 2 × {r['against']} | {r['hands']} | {r['mean']:+.2f} | ±{r['ci95']:.2f} | "
              f"{r['win_rate']:.1%} ±{r['win_ci95'] or 0:.1%} | {r['chou_rate']:.1%} ±{r['chou_ci95'] or 0:.1%} | "
              f"{per_win} | {r['opponent_win_rate']:.1%} | {theirs} | {r['decision_p50_ms']:.2f} | "
              f"{r['decision_p99_ms']:.2f} |")


if __name__ == "__main__":
    main()
