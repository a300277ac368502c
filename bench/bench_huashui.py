"""滑水麻将: the bot study; without ``--study`` the engine's speed against RLCard's mahjong (``bench_engines.py``).

    .venv/bin/python bench/bench_huashui.py [--seconds 5]       # = bench_engines.py --games huashui

With ``--study DEALS`` it runs the bot study instead: the efficient bot against three random bots and against
three shanten-greedy bots, duplicate deals (each deal played four times, the bot in each seat once), mean points
per hand with a 95% confidence interval over deals, and the bot's decision times (wall clock, and CPU time of
the deciding thread, which a busy shared machine disturbs less).  ``--variant JSON`` passes options to the efficient
bot (the variants in docs/bots/huashui.md); ``--compare JSON JSON ...`` screens variants on the same deals and
prints each one's difference to the first with its own interval (paired over deals).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from paiju.games.huashui import HuashuiConfig, HuashuiGame


class CpuClock:
    """Times each decision of a bot in CPU time of this thread (wall time is taken by the study helper)."""

    def __init__(self, bot: Any, sink: list[float]) -> None:
        self.bot = bot
        self.sink = sink

    def act(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        start = time.thread_time()
        action: str = self.bot.act(view, legal)
        self.sink.append(time.thread_time() - start)
        return action


def _timed_efficient(seed: int, sink: list[float], options: dict[str, Any]) -> CpuClock:
    from paiju.games.huashui.bots import EfficientBot

    return CpuClock(EfficientBot(seed, **options), sink)


def study(deals: int, seed: int, against: Sequence[str], options: dict[str, Any] | None = None) -> None:
    from paiju.bots.base import Bot, RandomBot
    from paiju.bots.study import duplicate_study, percentile
    from paiju.games.huashui.bots import ShantenGreedyBot

    rotations = [[0], [1], [2], [3]]
    opponents: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": ShantenGreedyBot}
    for name in against:
        cpu: list[float] = []
        result = duplicate_study("huashui", partial(_timed_efficient, sink=cpu, options=options or {}),
                                 opponents[name], deals=deals, rotations=rotations, seed=seed)
        label = f"efficient {json.dumps(options)}" if options else "efficient"
        print(f"{label} vs 3 × {name}: {result.line()}; "
              f"CPU p50 {percentile(cpu, 0.5) * 1000:.2f} ms, p99 {percentile(cpu, 0.99) * 1000:.2f} ms; "
              f"{result.seconds:.0f} s", flush=True)


def compare(deals: int, seed: int, variants: Sequence[dict[str, Any]]) -> None:
    """Paired screening: each variant of the efficient bot plays the same deals against three shanten-greedy bots
    (the bot in each seat once); the difference to the first variant, deal by deal, has a much tighter interval
    than either mean, since most decisions agree."""
    from paiju.bots.base import play_out
    from paiju.bots.study import mean_ci95
    from paiju.games.huashui.bots import EfficientBot, ShantenGreedyBot

    cfg = HuashuiConfig(hands=1)
    samples: list[list[float]] = [[] for _ in variants]
    for d in range(deals):
        for i, options in enumerate(variants):
            total = 0.0
            for hero in range(4):
                game = HuashuiGame.new(cfg, seed + d)
                bots = [EfficientBot(d * 101 + hero, **options) if s == hero else ShantenGreedyBot(s)
                        for s in range(4)]
                play_out(game, bots)
                total += game.totals()[hero]
            samples[i].append(total / 4)
    for i, options in enumerate(variants):
        m, ci = mean_ci95(samples[i])
        dm, dci = mean_ci95([a - b for a, b in zip(samples[i], samples[0], strict=True)])
        print(f"{json.dumps(options):60s} {m:+.3f} ± {ci:.3f} per hand; minus the first {dm:+.3f} ± {dci:.3f}",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="speed: CPU seconds per side (bench_engines.py)")
    parser.add_argument("--study", type=int, default=0, metavar="DEALS", help="run the bot study instead")
    parser.add_argument("--seed", type=int, default=0, help="first deal of the study")
    parser.add_argument("--against", default="random,greedy", help="opponent kinds for the study")
    parser.add_argument("--variant", default="", metavar="JSON",
                        help='EfficientBot options for the study, e.g. \'{"pair_weight": 1.0}\'')
    parser.add_argument("--compare", nargs="+", default=None, metavar="JSON",
                        help="paired screening of efficient-bot variants against 3 greedy over --study deals")
    args = parser.parse_args()
    if args.compare:
        compare(args.study or 300, args.seed, [json.loads(v) for v in args.compare])
        return
    if args.study:
        study(args.study, args.seed, args.against.split(","), json.loads(args.variant) if args.variant else None)
        return
    from bench_engines import main as engines

    engines(["--games", "huashui", "--seconds", str(args.seconds)])


if __name__ == "__main__":
    main()
