"""偎麻雀 speed: full random hands per second through the Game protocol, against RLCard's mahjong in the same run.

    .venv/bin/python bench/bench_weimaque.py [--seconds 10] [--peer-seconds 10]

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

from paiju.games.weimaque import WeimaqueGame
from paiju.games.weimaque.bots import SmartBot
from paiju.games.weimaque.cards import counts_of, parse_cards
from paiju.games.weimaque.rules import best_win, is_complete


def ours(seconds: float) -> tuple[float, float, int]:
    """(hands per second, decisions per second, hands) of random play through the protocol."""
    rng = random.Random(1)
    hands = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = WeimaqueGame.new(seed=hands)
        while not g.finished:
            movers = g.to_move()
            seat = movers[rng.randrange(len(movers))]
            legal = g.legal_actions(seat)
            g.apply(seat, legal[rng.randrange(len(legal))])
            decisions += 1
        hands += 1
    secs = time.perf_counter() - start
    return hands / secs, decisions / secs, hands


def rlcard_inline(seconds: float) -> float:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("mahjong", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.run(is_training=False)
        games += 1
    return games / (time.perf_counter() - start)


def peer(seconds: float) -> tuple[float | None, str]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        from rlcard_peer import rlcard_mahjong_hands_per_second  # type: ignore[import-not-found,unused-ignore]

        return float(rlcard_mahjong_hands_per_second(seconds)), "bench/rlcard_peer.py"
    except ImportError:
        pass
    try:
        return rlcard_inline(seconds), "measured inline (bench/rlcard_peer.py absent)"
    except ImportError as e:
        return None, f"rlcard not importable: {e}"


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
        g = WeimaqueGame.new(seed=10_000 + seed)
        bots = [SmartBot(seed * 4 + s) for s in range(4)]
        while not g.finished:
            seat = g.to_move()[0]
            view, legal = g.view(seat), g.legal_actions(seat)
            t = time.perf_counter()
            action = bots[seat].act(view, legal)
            times.append(time.perf_counter() - t)
            g.apply(seat, action)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.99)] * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--peer-seconds", type=float, default=10.0)
    ap.add_argument("--bot-hands", type=int, default=100)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    hps, dps, n = ours(args.seconds)
    print(f"weimaque random hands: {hps:,.1f} hands/s ({dps:,.0f} decisions/s, {n} hands)")
    rl, how = peer(args.peer_seconds)
    if rl is not None:
        print(f"rlcard mahjong random games: {rl:,.1f} games/s [{how}]")
        print(f"ratio weimaque / rlcard mahjong: {hps / rl:,.1f}x")
    else:
        print(f"peer unavailable: {how}")
    shape, full = win_checks(200_000)
    print(f"win check: {shape:,.0f} structural checks/s, {full:,.0f} best_win scorings/s")
    p50, p99 = bot_times(args.bot_hands)
    print(f"smart bot decisions: p50 {p50:.2f} ms, p99 {p99:.2f} ms")


if __name__ == "__main__":
    main()
