"""升级 speed beyond the engine loop: the follow rule alone and the smart bot's decisions.

    .venv/bin/python bench/bench_shengji.py [--bot-hands 20] [--search-hands 6]

Random play against the peers (RLCard bridge and doudizhu, OpenSpiel spades, hearts and
python_team_dominoes) is measured by ``bench/bench_engines.py --games shengji``; the bot study (duplicate
deals) is ``paiju study shengji``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time

from paiju.bots.base import Bot, RandomBot
from paiju.games.shengji import ShengjiConfig, ShengjiGame
from paiju.games.shengji.bots import SearchBot, SmartBot
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


def search_decisions(hands: int) -> dict[str, float]:
    """Search bots (seats 0, 2) against smart bots, play-phase decisions only: mean and p99 in ms, wall and CPU
    time of the thread (the CPU figure is what another job on a busy machine disturbs least)."""
    wall: list[float] = []
    cpu: list[float] = []
    for seed in range(hands):
        g = ShengjiGame.new(ShengjiConfig(max_hands=1), 20_000 + seed)
        bots: list[Bot] = [SearchBot(seed), SmartBot(seed), SearchBot(seed + 1), SmartBot(seed + 1)]
        while not g.finished:
            seat = g.to_move()[0]
            legal = g.legal_actions(seat)
            view = g.view(seat)
            if seat % 2 == 0 and g.phase == "play":
                t0, c0 = time.perf_counter(), time.thread_time()
                action = bots[seat].act(view, legal)
                cpu.append((time.thread_time() - c0) * 1000)
                wall.append((time.perf_counter() - t0) * 1000)
            else:
                action = bots[seat].act(view, legal)
            g.apply(seat, action)
    wall.sort()
    cpu.sort()
    p99 = int(0.99 * (len(wall) - 1))
    return {"mean": statistics.fmean(wall), "p99": wall[p99], "cpu_mean": statistics.fmean(cpu),
            "cpu_p99": cpu[p99], "n": len(wall)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot-hands", type=int, default=20, help="hands for the bot timing")
    ap.add_argument("--search-hands", type=int, default=6, help="hands for the search bot's timing (0: skip)")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]} on {platform.machine()}")
    print(f"is_legal_follow   {follow_checks(20_000):9.0f} checks/s (string API, parsing included)")
    p50, p99, n = bot_decisions(args.bot_hands)
    print(f"smart bot         p50 {p50:.2f} ms   p99 {p99:.2f} ms   over {n} decisions")
    if args.search_hands:
        s = search_decisions(args.search_hands)
        print(f"search bot (play) mean {s['mean']:.1f} ms  p99 {s['p99']:.1f} ms wall; mean {s['cpu_mean']:.1f} ms  "
              f"p99 {s['cpu_p99']:.1f} ms CPU   over {s['n']:.0f} decisions")


if __name__ == "__main__":
    main()
