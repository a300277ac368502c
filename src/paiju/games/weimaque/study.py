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
from collections.abc import Callable
from typing import Any

from paiju.bots.base import Bot, RandomBot, play_out
from paiju.bots.study import DecisionClock, mean_ci95, percentile

from .bots import ClosestToWinBot, SmartBot
from .engine import WeimaqueGame

PLAYER_SEATS = (0, 1, 3)  # dealer 0 (config first_dealer=0), 守醒 2


def duel(bot: Callable[[int], Bot], opponent: Callable[[int], Bot], deals: int, start: int) -> dict[str, Any]:
    per_deal: list[float] = []
    wins = chou = hands = 0
    times: list[float] = []
    for d in range(start, start + deals):
        total = 0.0
        for me in PLAYER_SEATS:
            g = WeimaqueGame.new(seed=d)
            hero = DecisionClock(bot(d * 8 + me))
            play_out(g, [hero if s == me else opponent(d * 8 + s) for s in range(4)])
            times.extend(hero.times)
            total += g.totals()[me]
            winner = g.results[-1]["winner"]
            wins += winner == me
            chou += winner is None
            hands += 1
        per_deal.append(total / len(PLAYER_SEATS))
    mean, half = mean_ci95(per_deal)
    return {"hands": hands, "deals": deals, "mean_xi": mean, "ci95": half, "win_rate": wins / hands,
            "chou_rate": chou / hands, "p50_ms": 1000 * percentile(times, 0.5),
            "p99_ms": 1000 * percentile(times, 0.99)}


def main() -> None:
    ap = argparse.ArgumentParser(description="偎麻雀 bot study with duplicate deals")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--start", type=int, default=100_000, help="first deal seed")
    args = ap.parse_args()
    rows: list[tuple[str, str, Callable[[int], Bot], Callable[[int], Bot]]] = [
        ("smart", "random", SmartBot, RandomBot), ("smart", "closest", SmartBot, ClosestToWinBot),
            ("closest", "random", ClosestToWinBot, RandomBot)]
    print("| bot | opponents | hands | mean 息 won per hand | 95% CI | win rate | 臭 rate | p50 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, opp, b, o in rows:
        r = duel(b, o, args.deals, args.start)
        print(f"| {name} | 2 × {opp} | {r['hands']} | {r['mean_xi']:+.2f} | ±{r['ci95']:.2f} | "
              f"{r['win_rate']:.1%} | {r['chou_rate']:.1%} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
