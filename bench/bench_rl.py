"""RL env steps per second: paiju's AEC envs against RLCard's mahjong and doudizhu envs, in the same run.

One step is one decision of the acting seat, through the env's public API, with the next observation encoded:

- paiju: ``env.last()`` (the acting seat's view, encoded into the float32 observation and the int8 action mask)
  then ``env.step(id)`` (the id mapped to the engine's action, applied, rewards and the next agent settled);
- RLCard: ``env.step(action)``, which applies the action and extracts the next player's state (its observation
  planes, the legal actions and the raw observation); ``env.reset()`` opens each hand.

Both pick uniformly among the allowed actions with one ``random.Random`` (RLCard's ``RandomAgent`` would add a
``numpy.random.choice`` per step, charged to RLCard).  What still differs: paiju's step also checks the id
against the mask, keeps PettingZoo's reward and termination dicts, and plays whole matches (one hand each by
default) where RLCard plays hands; RLCard's mahjong has chow and its own observation planes (6 × 34 × 4),
doudizhu is a different game of similar length.  Sides run in interleaved slices timed in CPU time of this
process, so a busy shared machine slows both alike.

    .venv/bin/python bench/bench_rl.py [--seconds 20] [--games huashui,weimaque,shuiyu,shengji]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from paiju.rl import aec_env

GOAL = 5.0
"""滑水's env against RLCard's mahjong env."""


class PaijuSide:
    def __init__(self, game: str) -> None:
        self.name = f"paiju {game}"
        self.env = aec_env(game)
        self.rng = random.Random(1)
        self.seed = 0
        self.env.reset(seed=self.seed)

    def run(self, seconds: float, clock: Callable[[], float]) -> tuple[int, float]:
        env, rng = self.env, self.rng
        steps = 0
        start = clock()
        while True:
            for _ in range(200):
                if not env.agents:
                    self.seed += 1
                    env.reset(seed=self.seed)
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                ids = np.flatnonzero(obs["action_mask"])
                env.step(int(ids[rng.randrange(len(ids))]))
                steps += 1
            elapsed = clock() - start
            if elapsed >= seconds:
                return steps, elapsed


class RLCardSide:
    def __init__(self, game: str) -> None:
        import rlcard

        self.name = f"RLCard {game}"
        self.env: Any = rlcard.make(game, config={"seed": 0})
        self.rng = random.Random(1)
        self.state, _ = self.env.reset()

    def run(self, seconds: float, clock: Callable[[], float]) -> tuple[int, float]:
        env, rng = self.env, self.rng
        state = self.state
        steps = 0
        start = clock()
        while True:
            for _ in range(200):
                if env.is_over():
                    state, _ = env.reset()
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rng.randrange(len(legal))])
                steps += 1
            elapsed = clock() - start
            if elapsed >= seconds:
                self.state = state
                return steps, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds per side, in 10 interleaved slices")
    parser.add_argument("--games", default="huashui,weimaque,shuiyu,shengji", help="paiju games to measure")
    args = parser.parse_args()
    sides: list[Any] = [PaijuSide(g) for g in args.games.split(",")]
    try:
        sides += [RLCardSide("mahjong"), RLCardSide("doudizhu")]
    except ImportError as e:
        print(f"peers skipped: {e} (pip install -e '.[bench]')")
    totals = {side.name: [0, 0.0] for side in sides}
    for _ in range(10):
        for side in sides:
            steps, elapsed = side.run(args.seconds / 10, time.process_time)
            totals[side.name][0] += steps
            totals[side.name][1] += elapsed
    rates = {name: steps / elapsed for name, (steps, elapsed) in totals.items()}
    for name, rate in rates.items():
        print(f"{name:18s} {rate:>9,.0f} env steps per CPU second")
    for peer in ("RLCard mahjong", "RLCard doudizhu"):
        if peer in rates:
            ours = [(n.split()[1], r) for n, r in rates.items() if n.startswith("paiju")]
            line = ", ".join(f"{game} {r / rates[peer]:.1f}x" for game, r in ours)
            print(f"against {peer}: {line}")
    if "paiju huashui" in rates and "RLCard mahjong" in rates:
        ratio = rates["paiju huashui"] / rates["RLCard mahjong"]
        print(f"huashui / RLCard mahjong: {ratio:.1f}x (goal: at least {GOAL:.0f}x)")


if __name__ == "__main__":
    main()
