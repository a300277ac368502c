"""``clone()`` and ``resample()`` per second for every game, against another revision in the same run.

Each side prepares the same mid-game positions (seeded random play stopped at several depths, every game
of the registry), then copies them round-robin — ``clone()`` (again and again, as a search copies its root),
``clone()`` just after the random stream was used (the first copy after a deal), or ``resample(seat, rng)``
for a seat that is deciding — for slices of CPU time.  With ``--against REV`` the revision's ``src/`` is
taken from git into a temporary directory and both sides run as worker processes, slices interleaved (ten
each by default), so the machine's load falls on both alike; the ratio is this tree's rate over the other's.

    .venv/bin/python bench/bench_clone.py [--against main] [--seconds 6] [--slices 10] [--game shengji]
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
GAMES = ("shuiyu", "huashui", "shengji", "weimaque")
OPS = ("clone", "first-clone", "resample")
"""``first-clone`` touches the random stream before each copy, as a move that deals would: no snapshot of the
stream can then be shared with an earlier copy."""
DEPTHS = (0, 3, 10, 25, 60, 120)


def positions(name: str) -> list[Any]:
    """Mid-game positions of ``name``: random play from a few seeds, stopped at several depths."""
    from paiju.core import get_game

    cls = get_game(name)
    out = []
    for seed in range(4):
        for depth in DEPTHS:
            game = cls.new(cls.config_class(), seed)
            rng = random.Random(seed)
            for _ in range(depth):
                if game.finished:
                    break
                movers = game.to_move()
                seat = movers[rng.randrange(len(movers))]
                legal = game.legal_actions(seat)
                game.apply(seat, legal[rng.randrange(len(legal))])
            if not game.finished:
                out.append(game)
    return out


def run_slice(games: list[Any], op: str, seconds: float) -> tuple[int, float]:
    """Copies made in ``seconds`` of process CPU time, and the CPU time taken."""
    rng = random.Random(7)
    seats = [g.to_move()[0] for g in games]
    done = 0
    start = time.process_time()
    while True:
        for game, seat in zip(games, seats, strict=True):
            if op == "clone":
                game.clone()
            elif op == "first-clone":
                game.rng  # noqa: B018 - a use of the stream, as a deal would make
                game.clone()
            else:
                game.resample(seat, rng)
        done += len(games)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done, elapsed


def worker() -> None:
    """Answer ``<op> <game> <seconds>`` lines on stdin with ``<count> <cpu seconds>``."""
    prepared = {name: positions(name) for name in GAMES}
    print("ready", flush=True)
    for line in sys.stdin:
        op, name, seconds = line.split()
        count, elapsed = run_slice(prepared[name], op, float(seconds))
        print(f"{count} {elapsed}", flush=True)


class Side:
    """This tree's or another revision's worker process, asked for one slice at a time."""

    def __init__(self, label: str, src: Path) -> None:
        # imported here: the worker runs this file on another revision's paiju, which may lack devtools
        from paiju.devtools.revision import Worker

        self.label = label
        self.worker: Worker = Worker(label, __file__, src, ready=True)

    def run(self, op: str, name: str, seconds: float) -> tuple[int, float]:
        count, elapsed = self.worker.ask(op, name, seconds)
        return int(count), float(elapsed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", help="git revision to compare with (e.g. main)")
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds per side, game and operation")
    parser.add_argument("--slices", type=int, default=10)
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    from paiju.devtools.revision import export_src

    with tempfile.TemporaryDirectory() as tmp:
        sides = [Side("this tree", ROOT / "src")]
        if args.against:
            sides.append(Side(args.against, export_src(args.against, Path(tmp))))
        rows: dict[str, Any] = {}
        for name in args.game or GAMES:
            for op in OPS:
                totals = {s.label: [0, 0.0] for s in sides}
                for _ in range(args.slices):
                    for side in sides:
                        count, elapsed = side.run(op, name, args.seconds / args.slices)
                        totals[side.label][0] += count
                        totals[side.label][1] += elapsed
                rates = {label: c / t for label, (c, t) in totals.items()}
                rows[f"{name} {op}"] = rates
                line = "  ".join(f"{label}: {rate:>9,.0f}/s" for label, rate in rates.items())
                if args.against:
                    ratio = rates["this tree"] / rates[args.against]
                    line += f"  ratio {ratio:.2f}"
                print(f"{name:<9} {op:<9} {line}", flush=True)
        for side in sides:
            side.worker.close()
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
