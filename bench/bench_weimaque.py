"""偎麻雀 speed beyond the engine loop: the win check, the full scoring and the smart bot's decisions.

    .venv/bin/python bench/bench_weimaque.py [--bot-hands 100]

Random play against the peers (RLCard's mahjong) is measured by ``bench/bench_engines.py --games weimaque``.
"""

from __future__ import annotations

import argparse
import platform
import time

from paiju.bots.base import play_out
from paiju.bots.study import DecisionClock, percentile
from paiju.games.weimaque import WeimaqueGame
from paiju.games.weimaque.bots import SmartBot
from paiju.games.weimaque.cards import counts_of, parse_cards
from paiju.games.weimaque.rules import best_win, is_complete


def win_checks(n: int) -> tuple[float, float]:
    """(structural checks per second, full best_win scorings per second) on a winning hand."""
    hand = parse_cards("捌捌 柒捌玖 二二二 七七七 十十十 三四五 壹贰")
    counts = counts_of(hand)
    counts[12] += 1
    start = time.perf_counter()
    for _ in range(n):
        is_complete(counts)
    shape = n / (time.perf_counter() - start)
    start = time.perf_counter()
    for _ in range(n // 20):
        best_win(hand, [], "叁", own_draw=False)
    full = (n // 20) / (time.perf_counter() - start)
    return shape, full


def bot_times(hands: int) -> tuple[float, float]:
    times: list[float] = []
    for seed in range(hands):
        bots = [DecisionClock(SmartBot(seed * 4 + s)) for s in range(4)]
        play_out(WeimaqueGame.new(seed=10_000 + seed), bots)
        for b in bots:
            times.extend(b.times)
    return percentile(times, 0.5) * 1000, percentile(times, 0.99) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot-hands", type=int, default=100)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    shape, full = win_checks(200_000)
    print(f"win check: {shape:,.0f} structural checks/s, {full:,.0f} best_win scorings/s")
    p50, p99 = bot_times(args.bot_hands)
    print(f"smart bot decisions: p50 {p50:.2f} ms, p99 {p99:.2f} ms")


if __name__ == "__main__":
    main()
