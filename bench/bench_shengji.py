"""升级 speed beyond the engine loop: the follow rule alone and the smart bot's decisions; the bot study.

    .venv/bin/python bench/bench_shengji.py [--bot-hands 20]
    .venv/bin/python bench/bench_shengji.py --study --deals 1000     # the bot study (duplicate deals)

Random play against the peers (RLCard bridge and doudizhu, OpenSpiel spades, hearts and
python_team_dominoes) is measured by ``bench/bench_engines.py --games shengji``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from paiju.bots.base import Bot, RandomBot
from paiju.core.game import Game
from paiju.games.shengji import ShengjiConfig, ShengjiGame
from paiju.games.shengji.bots import SmartBot
from paiju.games.shengji.rules import is_legal_follow


def follow_checks(n: int) -> float:
    hand, lead = "JH JH JH 8H 7H 5H 5H 3C 4C KS KS QD", "AH AH KH KH"
    plays = ["5H 5H JH JH", "5H 5H 8H 7H", "JH JH 8H 7H", "5H 5H 8H 3C"]
    start = time.perf_counter()
    for i in range(n):
        is_legal_follow(hand, lead, plays[i % 4], level=10, trump="S")
    return n / (time.perf_counter() - start)


def bot_decisions(hands: int) -> tuple[float, float, int]:
    """Smart bot (seats 0, 2) against random bots: decision time p50 and p99 in ms."""
    times: list[float] = []
    for seed in range(hands):
        g = ShengjiGame.new(ShengjiConfig(max_hands=1), 10_000 + seed)
        bots: list[Bot] = [SmartBot(seed), RandomBot(seed), SmartBot(seed + 1), RandomBot(seed + 1)]
        while not g.finished:
            seat = g.to_move()[0]
            legal = g.legal_actions(seat)
            if seat % 2 == 0:
                t0 = time.perf_counter()
                action = bots[seat].act(g.view(seat), legal)
                times.append((time.perf_counter() - t0) * 1000)
            else:
                action = bots[seat].act({}, legal)
            g.apply(seat, action)
    times.sort()
    return statistics.median(times), times[int(0.99 * (len(times) - 1))], len(times)


def _recorder(rows: list[tuple[float, float, float]]) -> Callable[[Game[Any], Sequence[int]], float]:
    """A study score that also keeps, per match, (levels gained by the hero side, by the other, hero dealt)."""
    def score(g: Game[Any], seats: Sequence[int]) -> float:
        r = g.result()
        assert r is not None
        team = seats[0] % 2
        rows.append((float(r.detail["gained"][team]), float(r.detail["gained"][1 - team]),
                     1.0 if r.detail["hand_log"][0]["dealer"] % 2 == team else 0.0))
        return float(r.scores[seats[0]])
    return score


def study(deals: int, seed: int) -> None:
    """Levels per hand for two smart bots (seats 0+2, then 1+3 on the same cards) against two baseline bots."""
    from paiju.bots.study import duplicate_study, mean_ci95
    from paiju.games.shengji.bots import HighestCardBot

    cfg = ShengjiConfig(max_hands=1)
    for name, opponent in (("random", RandomBot), ("highest", HighestCardBot)):
        rows: list[tuple[float, float, float]] = []
        res = duplicate_study("shengji", SmartBot, opponent, deals=deals, rotations=[(0, 2), (1, 3)], config=cfg,
                              seed=seed, score=_recorder(rows))
        per_deal = [[(a[i] + b[i]) / 2 for a, b in zip(rows[0::2], rows[1::2], strict=True)] for i in range(3)]
        g_m, g_ci = mean_ci95(per_deal[0])
        l_m, l_ci = mean_ci95(per_deal[1])
        print(f"smart+smart vs {name}+{name}: net levels {res.line()}")
        print(f"  levels gained per hand: smart side {g_m:.3f} ± {g_ci:.3f}, {name} side {l_m:.3f} ± {l_ci:.3f};"
              f" smart side dealt {statistics.fmean(per_deal[2]):.0%} of hands; {res.seconds:.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot-hands", type=int, default=20, help="hands for the bot timing")
    ap.add_argument("--study", action="store_true", help="run the duplicate-deal bot study instead")
    ap.add_argument("--deals", type=int, default=1000, help="study deals (each played twice)")
    ap.add_argument("--seed", type=int, default=0, help="first study deal seed")
    args = ap.parse_args()
    if args.study:
        study(args.deals, args.seed)
        return
    print(f"python {sys.version.split()[0]} on {platform.machine()}")
    print(f"is_legal_follow   {follow_checks(20_000):9.0f} checks/s (string API, parsing included)")
    p50, p99, n = bot_decisions(args.bot_hands)
    print(f"smart bot         p50 {p50:.2f} ms   p99 {p99:.2f} ms   over {n} decisions")


if __name__ == "__main__":
    main()
