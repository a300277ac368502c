"""滑水麻将: full hands per second of random play through the Game protocol, against RLCard's mahjong env.

Both sides play random legal actions to the end of a hand in this process, one after the other:
ours through ``to_move`` / ``legal_actions`` / ``apply`` (every action checked, public events built), a new
``HuashuiGame`` per hand; RLCard through ``env.reset`` / ``env.step`` with its ``RandomAgent``.  The two run in
ten interleaved slices each and are timed in CPU time of the process.

    .venv/bin/python bench/bench_huashui.py [--seconds 10]

The bot study (duplicate deals, its variants and paired screens) is ``paiju study huashui``
(``paiju.games.huashui.study``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rlcard_peer import PeerMissing, RLCardMahjong

from paiju.bots.base import play_random
from paiju.games.huashui import HuashuiConfig, HuashuiGame


class RandomHuashui:
    """Random legal actions through the protocol, a new single-hand match per hand (its deal included)."""

    def __init__(self) -> None:
        self.cfg = HuashuiConfig(hands=1)
        self.rng = random.Random(1)
        self.seed = 0
        self.actions = 0

    def run(self, seconds: float, clock: Callable[[], float] = time.perf_counter) -> tuple[int, float]:
        rng = self.rng
        hands = 0
        start = clock()
        while True:
            self.actions += play_random(HuashuiGame.new(self.cfg, self.seed), rng)
            self.seed += 1
            hands += 1
            elapsed = clock() - start
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
    # Interleaved slices, timed in CPU time of this process: on a shared machine wall time charges every wait
    # for a core to whichever side happened to be running.
    totals = [[0, 0.0], [0, 0.0]]
    for _ in range(10):
        for i, side in enumerate((ours, peer)):
            if side is not None:
                h, t = side.run(args.seconds / 10, time.process_time)
                totals[i][0] += h
                totals[i][1] += t
    rate = totals[0][0] / totals[0][1]
    print(f"paiju huashui, random play via the protocol: {rate:>8,.1f} hands per CPU second "
          f"({ours.actions / ours.seed:.0f} actions per hand)")
    if peer is None:
        return
    peer_rate = totals[1][0] / totals[1][1]
    print(f"RLCard mahjong, random agents:               {peer_rate:>8,.1f} hands per CPU second")
    print(f"ratio: {rate / peer_rate:.1f}x  (goal: at least 20x)")


if __name__ == "__main__":
    main()
