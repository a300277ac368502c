"""水鱼 benchmark: decisions, rounds/s, and the exact odds index against a plain loop.

    .venv/bin/python bench/bench_shuiyu.py

The bot study (duplicate deals, OddsBot against each baseline, and what its calls say in self-play) is
``paiju study shuiyu --deals 1250 -o selfplay=1000`` (``paiju.games.shuiyu.study``).  Writes nothing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from paiju.bots import Bot, RandomBot, play_out
from paiju.bots.study import percentile
from paiju.core.cards import parse_cards
from paiju.games.shuiyu import ShuiyuConfig, ShuiyuGame
from paiju.games.shuiyu.bots import OddsBot, model_split, odds_tables
from paiju.games.shuiyu.rules import GROUP_KEY, SPLIT_PATTERNS, keys_of, kind_of_cards, parse_arrangement

Maker = Callable[[int], Bot]


def plain_loop_odds(mine: list[int], h: int, t: int) -> tuple[int, int]:
    """The peer: the same exact count by looping over every opposing hand (what the index replaces)."""
    rest = [c for c in range(52) if c not in mine]
    below = above = 0
    for hand in combinations(rest, 4):
        if kind_of_cards(hand) != "plain":
            continue
        best = -9.0
        bh = bt = 0
        for i, j, k, m in SPLIT_PATTERNS:
            k1, k2 = GROUP_KEY[hand[i] * 52 + hand[j]], GROUP_KEY[hand[k] * 52 + hand[m]]
            v = model_split(k1, k2)
            if v > best:
                best, bh, bt = v, max(k1, k2), min(k1, k2)
        below += bh < h and bt < t
        above += bh > h and bt > t
    return below, above


def speed() -> None:
    start = time.perf_counter()
    odds_tables()
    build = time.perf_counter() - start
    print(f"odds tables built in {build:.2f} s (once per process)")

    mine = parse_cards("AS 8H KD 7C")
    h, t = keys_of(parse_arrangement("AS 8H | KD 7C"))
    idx = odds_tables().split
    reps = 200
    start = time.perf_counter()
    for _ in range(reps):
        mask = idx.avail(mine)
        fast = (idx.below(h, t, mask).bit_count(), idx.above(h, t, mask).bit_count())
    fast_s = (time.perf_counter() - start) / reps
    start = time.perf_counter()
    slow = plain_loop_odds(mine, h, t)
    slow_s = time.perf_counter() - start
    assert fast == slow, (fast, slow)
    print(f"exact odds of one split over C(48,4) hands: index {fast_s * 1e3:.3f} ms, "
          f"plain loop {slow_s * 1e3:.0f} ms — {slow_s / fast_s:,.0f}× faster, same counts {fast}")

    for label, maker in (("random", RandomBot), ("odds", OddsBot)):
        games = 300 if label == "random" else 150
        clocks: list[CpuClock] = []
        start = time.perf_counter()
        rounds = 0
        for seed in range(games):
            g = ShuiyuGame.new(ShuiyuConfig(), seed)
            bots = [CpuClock(maker(seed * 10 + s)) for s in range(g.num_seats)]
            clocks += bots
            play_out(g, bots)
            rounds += g.rounds_played
        seconds = time.perf_counter() - start
        times = [x for c in clocks for x in c.times]
        print(f"{label:>6} bots, 4 seats: {rounds / seconds:,.0f} rounds/s (wall); decision CPU time p50 "
              f"{percentile(times, 0.5) * 1e3:.3f} ms, p99 {percentile(times, 0.99) * 1e3:.3f} ms, "
              f"max {max(times) * 1e3:.2f} ms")


class CpuClock:
    """Times each decision in CPU time: on a shared machine wall time also counts other processes."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.needs_view = getattr(bot, "needs_view", True)

    def act(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        start = time.process_time()
        action = self.bot.act(view, legal)
        self.times.append(time.process_time() - start)
        return action


def main() -> None:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    speed()


if __name__ == "__main__":
    main()
