"""RL env steps per second: paiju's AEC envs against RLCard's mahjong and doudizhu envs, in the same run.

One step is one decision of the acting seat, through the env's public API, with the next observation encoded:

- paiju: ``env.last()`` (the acting seat's view, encoded into the float32 observation and the int8 action mask)
  then ``env.step(id)`` (the id mapped to the engine's action, applied, rewards and the next agent settled).
  滑水's env encodes straight from the state fields the seat's view is built from (``Spec.observe``; the same
  numbers as encoding ``game.view(seat)``, which tests check); ``--via-view`` adds a row for 滑水 with the
  view dict built and encoded at every step, as the other games' envs do;
- RLCard: ``env.step(action)``, which applies the action and extracts the next player's state (its observation
  planes, the legal actions and the raw observation); ``env.reset()`` opens each hand.

Both pick uniformly among the allowed actions with one ``random.Random`` (RLCard's ``RandomAgent`` would add a
``numpy.random.choice`` per step, charged to RLCard).  What still differs: paiju's step also checks the id
against the mask, keeps PettingZoo's reward and termination dicts, and plays whole matches (one hand each by
default) where RLCard plays hands; RLCard's mahjong has chow and its own observation planes (6 × 34 × 4),
doudizhu is a different game of similar length.  Sides run in interleaved slices timed in CPU time of this
process, so a busy shared machine slows both alike.  ``--against REV`` adds that git revision's envs (its
``src/`` in a worker process, this file's loop, slices interleaved with the rest) to compare a change with.

    .venv/bin/python bench/bench_rl.py [--seconds 20] [--games huashui,weimaque,shuiyu,shengji] [--via-view]
                                       [--against main]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from paiju.rl import aec_env

if TYPE_CHECKING:
    from paiju.devtools.revision import Worker

GOAL = 5.0
"""滑水's env against RLCard's mahjong env."""


class PaijuSide:
    def __init__(self, game: str, via_view: bool = False) -> None:
        self.name = f"paiju {game}" + (" (view)" if via_view else "")
        # the default path builds the seat's view dict, maps and encodes it; the direct one (滑水) reads the
        # fields the view shows
        self.env = aec_env(game, direct_observation=not via_view)
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


class RevisionSide:
    """One game's env as another revision has it, run by that revision's worker process."""

    def __init__(self, rev: str, game: str, worker: Worker) -> None:
        self.name, self.game, self.worker = f"{rev} {game}", game, worker

    def run(self, seconds: float, clock: Callable[[], float]) -> tuple[int, float]:
        steps, elapsed = self.worker.ask(self.game, seconds)  # timed in the worker's own CPU time
        return int(steps), float(elapsed)


def worker() -> None:
    """``--worker``: run a game's side for the seconds asked, answer ``steps elapsed`` (the sides persist)."""
    sides: dict[str, PaijuSide] = {}
    print("ready", flush=True)
    for line in sys.stdin:
        game, seconds = line.split()
        side = sides.get(game) or sides.setdefault(game, PaijuSide(game))
        print(*side.run(float(seconds), time.process_time), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds per side, in 10 interleaved slices")
    parser.add_argument("--games", default="huashui,weimaque,shuiyu,shengji", help="paiju games to measure")
    parser.add_argument("--via-view", action="store_true", help="add 滑水 with the view dict built at every step")
    parser.add_argument("--against", help="git revision whose envs to measure too (e.g. main)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    games = args.games.split(",")
    sides: list[Any] = [PaijuSide(g) for g in games]
    if args.via_view and "huashui" in games:
        sides.append(PaijuSide("huashui", via_view=True))
    try:
        sides += [RLCardSide("mahjong"), RLCardSide("doudizhu")]
    except ImportError as e:
        print(f"peers skipped: {e} (pip install -e '.[bench]')")
    # imported here, not above: the worker runs this file on another revision's paiju, which may lack devtools
    from paiju.devtools.revision import Worker, export_src

    with tempfile.TemporaryDirectory() as tmp:
        other = Worker(args.against, __file__, export_src(args.against, Path(tmp)), ready=True) if args.against \
            else None
        if other is not None:
            sides += [RevisionSide(args.against, g, other) for g in games]
        totals = {side.name: [0, 0.0] for side in sides}
        for _ in range(10):
            for side in sides:
                steps, elapsed = side.run(args.seconds / 10, time.process_time)
                totals[side.name][0] += steps
                totals[side.name][1] += elapsed
        if other is not None:
            other.close()
    rates = {name: steps / elapsed for name, (steps, elapsed) in totals.items()}
    for name, rate in rates.items():
        print(f"{name:25s} {rate:>9,.0f} env steps per CPU second")
    for peer in ("RLCard mahjong", "RLCard doudizhu"):
        if peer in rates:
            ours = [(n.removeprefix("paiju "), r) for n, r in rates.items() if n.startswith("paiju")]
            line = ", ".join(f"{game} {r / rates[peer]:.1f}x" for game, r in ours)
            print(f"against {peer}: {line}")
    if args.against:
        line = ", ".join(f"{g} {rates[f'paiju {g}'] / rates[f'{args.against} {g}']:.2f}x" for g in games)
        print(f"this tree / {args.against}: {line}")
    if "paiju huashui" in rates and "RLCard mahjong" in rates:
        ratio = rates["paiju huashui"] / rates["RLCard mahjong"]
        print(f"huashui / RLCard mahjong: {ratio:.1f}x (goal: at least {GOAL:.0f}x)")


if __name__ == "__main__":
    main()
