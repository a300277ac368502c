"""升级 speed: full random hands per second through the Game protocol, against OpenSpiel in the same run.

    .venv/bin/python bench/bench_shengji.py [--hands 200] [--peer-games 2000]

Our side: a default one-hand match (216 cards, live bidding, burying, about 40–50 tricks), each decision
``legal_actions`` + a uniformly random choice from the (capped) list + ``apply``.  The peer: OpenSpiel's
C++ ``spades`` and ``hearts`` (pip ``open_spiel``), driven the same way from Python: chance outcomes
sampled, ``legal_actions`` + random choice + ``apply_action``.  Also timed: the follow-rule check alone and
the smart bot's decisions (p50 / p99).  The bot study (duplicate deals) is ``paiju study shengji``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from paiju.bots.base import Bot, RandomBot, play_random
from paiju.games.shengji import ShengjiConfig, ShengjiGame
from paiju.games.shengji.bots import SmartBot
from paiju.games.shengji.rules import is_legal_follow


def ours(hands: int) -> tuple[float, float]:
    """(hands per second, decisions per second) of random play through the protocol."""
    rng = random.Random(1)
    cfg = ShengjiConfig(max_hands=1)
    decisions = 0
    start = time.perf_counter()
    for seed in range(hands):
        decisions += play_random(ShengjiGame.new(cfg, seed), rng)
    secs = time.perf_counter() - start
    return hands / secs, decisions / secs


def peer(name: str, games: int) -> tuple[float, float] | None:
    try:
        import pyspiel
    except ImportError as e:
        print(f"  open_spiel not importable: {e}")
        return None
    game = pyspiel.load_game(name)
    rng = random.Random(2)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                x, acc = rng.random(), 0.0
                pick = outcomes[-1][0]
                for action, p in outcomes:
                    acc += p
                    if x < acc:
                        pick = action
                        break
                state.apply_action(pick)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
    secs = time.perf_counter() - start
    return games / secs, decisions / secs


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200, help="random shengji hands")
    ap.add_argument("--peer-games", type=int, default=2000, help="random games of each OpenSpiel peer")
    ap.add_argument("--bot-hands", type=int, default=20, help="hands for the bot timing")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]} on {platform.machine()}")
    h_rate, d_rate = ours(args.hands)
    print(f"paiju shengji     {h_rate:9.2f} hands/s   {d_rate:10.0f} decisions/s   ({args.hands} hands)")
    for name in ("spades", "hearts"):
        res = peer(name, args.peer_games)
        if res is None:
            continue
        g_rate, pd_rate = res
        print(f"open_spiel {name:<7}{g_rate:9.2f} games/s   {pd_rate:10.0f} decisions/s   ({args.peer_games} games)")
        print(f"  ratio hands/s (paiju shengji / open_spiel {name}): {h_rate / g_rate:.4f}"
              f"   decisions/s ratio: {d_rate / pd_rate:.3f}")
    print(f"is_legal_follow   {follow_checks(20_000):9.0f} checks/s (string API, parsing included)")
    p50, p99, n = bot_decisions(args.bot_hands)
    print(f"smart bot         p50 {p50:.2f} ms   p99 {p99:.2f} ms   over {n} decisions")


if __name__ == "__main__":
    main()
