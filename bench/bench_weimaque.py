"""偎麻雀 speed beyond the engine loop: the win check, the full scoring and the smart bot's decisions.

    .venv/bin/python bench/bench_weimaque.py [--bot-hands 100]

Random play against the peers (RLCard's mahjong) is measured by ``bench/bench_engines.py --games weimaque``.

``--per-decision`` measures the figure issue 11 sets a goal for: decisions per CPU-second of random
play through the protocol without views, 偎麻雀 against 滑水 in the same run (alternating CPU-time slices), and
their ratio (goal: at least 0.45).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from paiju.bots.base import play_out, play_random
from paiju.bots.study import DecisionClock, percentile
from paiju.core import get_game
from paiju.games.weimaque import WeimaqueGame
from paiju.games.weimaque.bots import SmartBot
from paiju.games.weimaque.cards import counts_of, parse_cards
from paiju.games.weimaque.rules import best_win, is_complete


def decisions_per_cpu_second(name: str, seconds: float, first_seed: int) -> tuple[float, int]:
    """(decisions per CPU-second, matches played) of random play of ``name``'s default one-hand matches."""
    cls = get_game(name)
    config = cls.config_class()
    rng = random.Random(first_seed)
    decisions = seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += play_random(cls.new(config, seed=first_seed + seed), rng)
        seed += 1
    return decisions / (time.process_time() - start), seed


def per_decision(seconds: float, slices: int) -> None:
    """偎麻雀's and 滑水's decisions per CPU-second, slices alternating, and the ratio per slice."""
    rates: dict[str, list[float]] = {"weimaque": [], "huashui": []}
    for name in rates:  # warm up: tables built once per process (偎麻雀's win table), caches filled
        decisions_per_cpu_second(name, 0.5, 10**6)
    for i in range(slices):
        for name in rates:
            rate, _ = decisions_per_cpu_second(name, seconds / slices, 1000 * i)
            rates[name].append(rate)
    w, h = statistics.mean(rates["weimaque"]), statistics.mean(rates["huashui"])
    ratios = sorted(a / b for a, b in zip(rates["weimaque"], rates["huashui"], strict=True))
    print(f"weimaque random play: {w:,.0f} decisions per CPU-second")
    print(f"huashui random play:  {h:,.0f} decisions per CPU-second")
    print(f"ratio weimaque / huashui: {w / h:.3f} (per slice {ratios[0]:.3f} .. {ratios[-1]:.3f} over {slices} "
          f"slices; goal >= 0.45)")


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
    ap.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per side for --per-decision")
    ap.add_argument("--per-decision", action="store_true", help="decisions per CPU-second against 滑水 only")
    ap.add_argument("--slices", type=int, default=10, help="slices per side for --per-decision")
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    if args.per_decision:
        per_decision(args.seconds, args.slices)
        return
    shape, full = win_checks(200_000)
    print(f"win check: {shape:,.0f} structural checks/s, {full:,.0f} best_win scorings/s")
    p50, p99 = bot_times(args.bot_hands)
    print(f"smart bot decisions: p50 {p50:.2f} ms, p99 {p99:.2f} ms")


if __name__ == "__main__":
    main()
