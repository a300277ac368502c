"""滑水麻将: win checks per second against the PyPI ``mahjong`` library's ``Agari.is_agari``.

Both check the same 14-tile hands, given as 34-long count vectors: half complete standard hands (four sets
and a pair), half near misses (one tile of a complete hand swapped).  Timed in CPU time, the three jobs
interleaved, the fastest of several rounds counting.  Ours is measured two ways:

- from counts: build the four per-suit keys, then the table look-ups (what ``rules.is_win`` does after parsing);
- in play: the engine keeps the keys up to date as tiles move, so a check is the look-ups alone.

The answers are compared first: on standard shapes both libraries must agree on every hand.

    .venv/bin/python bench/bench_huashui_wincheck.py [--hands 20000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from paiju.games.huashui.tables import is_even_keys, is_standard_keys, keys_of

IN_PLAY_LOOPS = 10

SETS = [[t, t, t] for t in range(34)] + [[t, t + 1, t + 2] for t in range(27) if t % 9 <= 6]


def make_hands(n: int, seed: int = 1) -> list[list[int]]:
    """Complete hands and near misses (one tile replaced), as count vectors; no 对胡-only shapes."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < n:
        counts = [0] * 34
        pair = rng.randrange(34)
        counts[pair] += 2
        for _ in range(4):
            for t in rng.choice(SETS):
                counts[t] += 1
        if max(counts) > 4:
            continue
        if len(out) % 2:
            gone = rng.choice([t for t in range(34) if counts[t]])
            new = rng.randrange(34)
            counts[gone] -= 1
            counts[new] += 1
            if max(counts) > 4:
                continue
        out.append(counts)
    return out


def ours_from_counts(hands: list[list[int]]) -> list[bool]:
    return [is_standard_keys(k) or is_even_keys(k) for k in map(keys_of, hands)]


def best_times(jobs: list[tuple[Callable[[Any], Any], Any]], rounds: int) -> list[float]:
    """Fastest of ``rounds`` runs of each job, in CPU time of this process, the jobs interleaved.

    CPU time, not wall time: on a shared machine a process waits for a core at random moments, which wall
    time would charge to whichever job happened to be running."""
    best = [float("inf")] * len(jobs)
    for _ in range(rounds):
        for i, (fn, arg) in enumerate(jobs):
            start = time.process_time()
            fn(arg)
            best[i] = min(best[i], time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=7, help="interleaved rounds; the fastest of each counts")
    args = parser.parse_args()
    try:
        from mahjong.agari import Agari
    except ImportError:
        print("peer skipped: the mahjong library is not installed: .venv/bin/pip install mahjong")
        return
    hands = make_hands(args.hands)
    keys = [keys_of(h) for h in hands]
    agari = Agari()

    def peer(hs: list[list[int]]) -> list[bool]:
        return [agari.is_agari(h) for h in hs]

    def in_play(ks: list[list[int]]) -> list[bool]:
        out: list[bool] = []
        for _ in range(IN_PLAY_LOOPS):  # long enough to time as precisely as the others
            out = [is_standard_keys(k) or is_even_keys(k) for k in ks]
        return out

    mine, theirs = ours_from_counts(hands), peer(hands)
    differ = [i for i, (a, b) in enumerate(zip(mine, theirs, strict=True))
              if a != b and not is_even_keys(keys_of(hands[i]))]
    assert not differ, f"disagreement on {len(differ)} standard hands, e.g. {hands[differ[0]]}"
    n = len(hands)
    t_peer, t_counts, t_play = best_times([(peer, hands), (ours_from_counts, hands), (in_play, keys)], args.repeat)
    print(f"{n} hands, {sum(mine)} complete; answers agree on every standard shape")
    print(f"mahjong Agari.is_agari:             {n / t_peer:>12,.0f} checks/s")
    print(f"paiju huashui, from counts:         {n / t_counts:>12,.0f} checks/s  ratio {t_peer / t_counts:5.1f}x")
    t_play /= IN_PLAY_LOOPS
    print(f"paiju huashui, in play (keys kept): {n / t_play:>12,.0f} checks/s  ratio {t_peer / t_play:5.1f}x"
          "  (goal: at least 10x)")


if __name__ == "__main__":
    main()
