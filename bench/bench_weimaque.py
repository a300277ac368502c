"""偎麻雀 speed: full random hands per second through the Game protocol, against RLCard's mahjong in the same run.

    .venv/bin/python bench/bench_weimaque.py [--seconds 10] [--bot-hands 100]

Our side: default one-hand matches (80 cards, 煨 / 碰 / 吃 claims, win search on every shown card), each
decision ``to_move`` + ``legal_actions`` + a uniformly random choice + ``apply``.  The peer: RLCard's
``mahjong`` (the nearest open engine with claims) with its random agents, as measured by
``bench/rlcard_peer.py`` when present (else measured here the same way).  Also timed: the structural win
check and the full ``best_win`` scoring, and the smart bot's decisions (p50 / p99).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from paiju.bots.base import play_out, play_random
from paiju.bots.study import DecisionClock, percentile
from paiju.games.weimaque import WeimaqueConfig, WeimaqueGame
from paiju.games.weimaque.bots import SmartBot
from paiju.games.weimaque.cards import counts_of, parse_cards
from paiju.games.weimaque.rules import best_win, is_complete


def ours(seconds: float) -> tuple[float, float, int]:
    """(hands per second, decisions per second, hands) of random play through the protocol."""
    rng = random.Random(1)
    cfg = WeimaqueConfig()
    hands = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += play_random(WeimaqueGame.new(cfg, seed=hands), rng)
        hands += 1
    secs = time.perf_counter() - start
    return hands / secs, decisions / secs, hands


def peer(seconds: float) -> tuple[float | None, str]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from rlcard_peer import rlcard_mahjong_hands_per_second  # type: ignore[import-not-found,unused-ignore]

    try:
        return float(rlcard_mahjong_hands_per_second(seconds)), "bench/rlcard_peer.py"
    except RuntimeError as e:  # rlcard_peer.PeerMissing
        return None, str(e)


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
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds for each side, in 2 s slices")
    ap.add_argument("--bot-hands", type=int, default=100)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    # The machine is shared: alternate 2 s slices of each side so load changes hit both alike.
    slices = max(1, round(args.seconds / 2))
    ours_rates: list[float] = []
    peer_rates: list[float] = []
    decisions = 0.0
    how = ""
    for _ in range(slices):
        hps, dps, _n = ours(2.0)
        ours_rates.append(hps)
        decisions += dps / slices
        rate, how = peer(2.0)
        if rate is not None:
            peer_rates.append(rate)
    hps = statistics.mean(ours_rates)
    print(f"weimaque random hands: {hps:,.1f} hands/s ({decisions:,.0f} decisions/s)")
    if peer_rates:
        rl = statistics.mean(peer_rates)
        ratios = sorted(a / b for a, b in zip(ours_rates, peer_rates, strict=False))
        print(f"rlcard mahjong random hands: {rl:,.1f} hands/s [{how}]")
        print(f"ratio weimaque / rlcard mahjong: {hps / rl:,.1f}x "
              f"(per slice {ratios[0]:.1f}x .. {ratios[-1]:.1f}x over {slices} slices)")
    else:
        print(f"peer unavailable: {how}")
    shape, full = win_checks(200_000)
    print(f"win check: {shape:,.0f} structural checks/s, {full:,.0f} best_win scorings/s")
    p50, p99 = bot_times(args.bot_hands)
    print(f"smart bot decisions: p50 {p50:.2f} ms, p99 {p99:.2f} ms")


if __name__ == "__main__":
    main()
