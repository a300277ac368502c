"""Could a 滑水 bot choose its discards by playouts within the issue's 50 ms (issue 16)?

    .venv/bin/python research/huashui_rollout.py --deals 60 --playouts 30      # about 5 min of CPU

A rollout bot would sample the hidden tiles from its seat (``resample``), play each candidate discard out
with fast policies, and keep the one that scores best.  Two numbers say whether that fits the budget: what
one playout costs, and how noisy the difference between two candidates is.  For each deal from 10000 on,
at the efficient bot's first discard with a choice (seat 0, three greedy opponents), this plays the
efficient bot's discard and one other discard (chosen at random) from the same resampled deals (common
random numbers), every seat greedy after it, and prints the cost per playout (CPU), the standard deviation
of the paired difference per playout, and the playouts per candidate it takes to tell apart a difference of
``--resolve`` points at two standard errors.  Only the bot's view and ``resample`` are used, as a real bot
would.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from paiju.bots.base import Bot, play_out
from paiju.bots.study import percentile
from paiju.games.huashui.bots import EfficientBot, ShantenGreedyBot
from paiju.games.huashui.config import HuashuiConfig
from paiju.games.huashui.engine import HuashuiGame


def first_choice(seed: int) -> tuple[HuashuiGame, str, str] | None:
    """The game at seat 0's first discard with a choice, the efficient bot's discard and a random other."""
    game = HuashuiGame.new(HuashuiConfig(hands=1), seed)
    bots: list[Bot] = [EfficientBot(seed), *(ShantenGreedyBot(s) for s in (1, 2, 3))]
    while not game.finished:
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        action = bots[seat].act(game.view(seat), legal)
        others = [a for a in legal if a.startswith("discard") and a != action]
        if seat == 0 and action.startswith("discard") and others:
            return game, action, random.Random(seed).choice(others)
        game.apply(seat, action)
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--first", type=int, default=10_000)
    ap.add_argument("--playouts", type=int, default=30, help="resampled deals per decision, each played twice")
    ap.add_argument("--resolve", type=float, default=0.5, help="the difference in points to tell apart")
    args = ap.parse_args()
    greedy = [ShantenGreedyBot(s) for s in range(4)]
    costs: list[float] = []
    spreads: list[float] = []
    gaps: list[float] = []
    for seed in range(args.first, args.first + args.deals):
        found = first_choice(seed)
        if found is None:
            continue
        game, mine, other = found
        diffs = []
        for r in range(args.playouts):
            points = []
            for action in (mine, other):
                start = time.process_time()
                sample = game.resample(0, random.Random(r))
                sample.apply(0, action)
                play_out(sample, greedy)
                costs.append((time.process_time() - start) * 1000)
                points.append(sample.totals()[0])
            diffs.append(points[0] - points[1])
        spreads.append(statistics.stdev(diffs))
        gaps.append(statistics.mean(diffs))
    spread = statistics.median(spreads)
    need = (2 * spread / args.resolve) ** 2
    mean_cost = statistics.mean(costs)
    print(f"{len(costs)} playouts: CPU mean {mean_cost:.1f} ms, p50 {percentile(costs, 0.5):.1f}, "
          f"p90 {percentile(costs, 0.9):.1f}")
    print(f"{len(spreads)} decisions: SD of the paired difference per playout, median {spread:.2f} points "
          f"(mean {statistics.mean(spreads):.2f}); mean |efficient − other| {statistics.mean(map(abs, gaps)):.2f}")
    print(f"to tell {args.resolve} points apart at two standard errors: {need:.0f} playouts per candidate, "
          f"{2 * need * mean_cost / 1000:.1f} s of CPU for two candidates (the budget: 50 ms p99)")


if __name__ == "__main__":
    main()
