"""滑水麻将: full hands per second of random play through the Game protocol, against RLCard's mahjong env.

Both sides play random legal actions to the end of a hand in this process, one after the other:
ours through ``to_move`` / ``legal_actions`` / ``apply`` (every action checked, public events built), a new
``HuashuiGame`` per hand; RLCard through ``env.reset`` / ``env.step`` with its ``RandomAgent``.

    .venv/bin/python bench/bench_huashui.py [--seconds 10]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rlcard_peer import PeerMissing, RLCardMahjong

from paiju.games.huashui import HuashuiConfig, HuashuiGame


class RandomHuashui:
    """Random legal actions through the protocol, a new single-hand match per hand (its deal included)."""

    def __init__(self) -> None:
        self.cfg = HuashuiConfig(hands=1)
        self.rng = random.Random(1)
        self.seed = 0
        self.actions = 0

    def run(self, seconds: float) -> tuple[int, float]:
        rng = self.rng
        hands = 0
        start = time.perf_counter()
        while True:
            game = HuashuiGame.new(self.cfg, self.seed)
            self.seed += 1
            while not game.finished:
                seat = game.to_move()[0]
                legal = game.legal_actions(seat)
                game.apply(seat, legal[rng.randrange(len(legal))])
                self.actions += 1
            hands += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return hands, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per side, in 10 interleaved slices")
    args = parser.parse_args()
    ours = RandomHuashui()
    try:
        peer: RLCardMahjong | None = RLCardMahjong()
    except PeerMissing as e:
        print(f"peer skipped: {e}")
        peer = None
    totals = [[0, 0.0], [0, 0.0]]
    for _ in range(10):
        for i, side in enumerate((ours, peer)):
            if side is not None:
                h, t = side.run(args.seconds / 10)
                totals[i][0] += h
                totals[i][1] += t
    rate = totals[0][0] / totals[0][1]
    print(f"paiju huashui, random play via the protocol: {rate:>8,.1f} hands/s "
          f"({ours.actions / ours.seed:.0f} actions per hand)")
    if peer is None:
        return
    peer_rate = totals[1][0] / totals[1][1]
    print(f"RLCard mahjong, random agents:               {peer_rate:>8,.1f} hands/s")
    print(f"ratio: {rate / peer_rate:.1f}x  (goal: at least 20x)")


if __name__ == "__main__":
    main()
