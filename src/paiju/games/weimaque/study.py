"""The bot study: duplicate deals, the bot in each of the three player seats of the same cards.

    .venv/bin/python -m paiju.games.weimaque.study --deals 2000

For every deal (seed) the match is played three times, the bot sitting once in each player seat (the
dealer's, its next and its previous seat; the 守醒 seat never plays) against two copies of the opponent.
Reported per opponent: the bot's mean 息 won per hand (its net score: a winner collects the total from each
other player) with a 95% confidence interval over deals, its win rate, the rate of 臭 hands, and the
time of its decisions (p50 / p99).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from paiju.bots.base import RandomBot

from .bots import ClosestToWinBot, SmartBot
from .engine import WeimaqueGame

PLAYER_SEATS = (0, 1, 3)  # dealer 0 (config first_dealer=0), 守醒 2


def duel(bot: Callable[[int], Any], opponent: Callable[[int], Any], deals: int, start: int) -> dict[str, Any]:
    per_deal: list[float] = []
    wins = chou = hands = 0
    times: list[float] = []
    for d in range(start, start + deals):
        total = 0.0
        for me in PLAYER_SEATS:
            g = WeimaqueGame.new(seed=d)
            seats = {s: (bot(d * 8 + s) if s == me else opponent(d * 8 + s)) for s in range(4)}
            while not g.finished:
                s = g.to_move()[0]
                view, legal = g.view(s), g.legal_actions(s)
                t = time.perf_counter()
                action = seats[s].act(view, legal)
                if s == me:
                    times.append(time.perf_counter() - t)
                g.apply(s, action)
            total += g.totals()[me]
            winner = g.results[-1]["winner"]
            wins += winner == me
            chou += winner is None
            hands += 1
        per_deal.append(total / len(PLAYER_SEATS))
    mean = statistics.mean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else float("nan")
    times.sort()
    return {"hands": hands, "deals": deals, "mean_xi": mean, "ci95": half, "win_rate": wins / hands,
            "chou_rate": chou / hands, "p50_ms": 1000 * statistics.median(times),
            "p99_ms": 1000 * times[int(0.99 * (len(times) - 1))]}


def main() -> None:
    ap = argparse.ArgumentParser(description="偎麻雀 bot study with duplicate deals")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--start", type=int, default=100_000, help="first deal seed")
    args = ap.parse_args()
    rows = [("smart", "random", SmartBot, RandomBot), ("smart", "closest", SmartBot, ClosestToWinBot),
            ("closest", "random", ClosestToWinBot, RandomBot)]
    print("| bot | opponents | hands | mean 息 won per hand | 95% CI | win rate | 臭 rate | p50 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, opp, b, o in rows:
        r = duel(b, o, args.deals, args.start)
        print(f"| {name} | 2 × {opp} | {r['hands']} | {r['mean_xi']:+.2f} | ±{r['ci95']:.2f} | "
              f"{r['win_rate']:.1%} | {r['chou_rate']:.1%} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
