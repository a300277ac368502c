"""Decisions per CPU-second in random play through the protocol (no views, no bots), 升级 against 滑水 in one run.

Each game plays whole default matches — ``to_move`` + ``legal_actions`` + a uniformly random choice + ``apply``,
the loop of ``paiju.bots.base.play_random`` — for slices of process CPU time, the games' slices interleaved so
the machine's load falls on both alike.  Besides every decision, it counts the decisions that are not a deal
step's bid-or-pass (升级's deal asks every seat at each of its 51 steps: cheap questions that would flatter a
per-decision rate), so the ratio is given both ways.  With ``--against REV`` the revision's ``src/`` runs as a
third and fourth side (taken from git), slices interleaved with this tree's.

    .venv/bin/python bench/bench_rates.py [--against main] [--seconds 20] [--slices 10] [--games shengji,huashui]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paiju.devtools.revision import Worker

ROOT = Path(__file__).resolve().parents[1]


def run_slice(name: str, seconds: float, seed: int) -> tuple[int, int, int, float]:
    """(decisions, decisions that are not a deal step's, matches finished, CPU seconds) in one slice."""
    from paiju.bots.base import play_random
    from paiju.core import get_game

    cls = get_game(name)
    config = cls.config_class()
    rng = random.Random(seed)
    decisions = later = matches = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = cls.new(config, seed * 1000 + matches)
        decisions += play_random(game, rng)
        later += sum(1 for _, a in game.history if not a.startswith(("pass", "bid ")))
        matches += 1
    return decisions, later, matches, time.process_time() - start


def worker() -> None:
    for line in sys.stdin:
        name, seconds, seed = line.split()
        print(*run_slice(name, float(seconds), int(seed)), flush=True)


class Side:
    """This tree's or another revision's worker process, asked for one slice at a time."""

    def __init__(self, label: str, src: Path) -> None:
        # imported here: the worker runs this file on another revision's paiju, which may lack devtools
        from paiju.devtools.revision import Worker

        self.label = label
        self.worker: Worker = Worker(label, __file__, src)

    def run(self, name: str, seconds: float, seed: int) -> tuple[int, int, int, float]:
        d, later, m, t = self.worker.ask(name, seconds, seed)
        return int(d), int(later), int(m), float(t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", help="git revision to compare with (e.g. main)")
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds per side and game")
    parser.add_argument("--slices", type=int, default=10)
    parser.add_argument("--games", default="shengji,huashui", help="comma-separated; the first is compared to the "
                        "last")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    games = args.games.split(",")
    from paiju.devtools.revision import export_src

    with tempfile.TemporaryDirectory() as tmp:
        sides = [Side("this tree", ROOT / "src")]
        if args.against:
            sides.append(Side(args.against, export_src(args.against, Path(tmp))))
        totals: dict[tuple[str, str], list[float]] = {(s.label, g): [0, 0, 0, 0.0] for s in sides for g in games}
        for i in range(args.slices):
            for name in games:
                for side in sides:
                    got = side.run(name, args.seconds / args.slices, i)
                    for k, x in enumerate(got):
                        totals[(side.label, name)][k] += x
        for side in sides:
            side.worker.close()
    rows: dict[str, Any] = {}
    for side in sides:
        print(f"== {side.label}")
        for name in games:
            d, later, m, t = totals[(side.label, name)]
            rows[f"{side.label} {name}"] = {"decisions": d / t, "later": later / t, "matches": m / t}
            print(f"  {name:<9} {d / t:>9,.0f} decisions/s  {later / t:>9,.0f} after the deal/s  "
                  f"{m / t:>7,.1f} matches/s  ({d / max(m, 1):.0f} decisions, {later / max(m, 1):.0f} after the "
                  f"deal per match)")
        a, b = rows[f"{side.label} {games[0]}"], rows[f"{side.label} {games[-1]}"]
        if len(games) > 1:
            print(f"  {games[0]} / {games[-1]}: {a['decisions'] / b['decisions']:.2f} counting every decision, "
                  f"{a['later'] / b['decisions']:.2f} counting only {games[0]}'s decisions after the deal")
    if args.against:
        for name in games:
            a, b = rows[f"this tree {name}"], rows[f"{args.against} {name}"]
            print(f"{name}: this tree / {args.against}: {a['matches'] / b['matches']:.2f} matches/s, "
                  f"{a['later'] / b['later']:.2f} decisions after the deal/s")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
