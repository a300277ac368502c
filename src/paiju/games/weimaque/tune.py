"""Fit the smart bot's weights by duplicate self-play against the hand-set smart bot.

    python -m paiju.games.weimaque.tune --generations 20 --deals 300     # ~45 CPU-minutes, one process
    python -m paiju.games.weimaque.tune --method coord --rounds 40 --deals 400 --initial ...   # ~105 CPU-s a round

A candidate weight vector sits in one player seat against two copies of today's smart bot (``SMART``), on
every deal three times (dealer, next and previous seat), exactly as the study plays it; its fitness is its
mean 息 won per hand.  Every candidate of a generation plays the same deals (common random numbers: the
differences between candidates are then not the luck of the cards), and each generation takes new deals, so
no candidate is fitted to a fixed set.  The deals used here start at ``TUNE_FIRST_DEAL`` (1,000,000), far
from the study's (100,000 on), so the final comparison is on deals the tuning never saw.

The optimiser is a small (μ/μ_w, λ) evolution strategy with one step size per weight (stdlib only): λ
candidates drawn around the mean, ranked, the mean moved to the weighted mean of the best μ.  Recombining
several ranked candidates averages out much of the noise of one generation's deals, which a (1+1) hill
climb on noisy scores does not.  Each step size follows the spread of the selected steps, and shrinks when
the mean's own score (played on the same deals) beats the candidates.

``--method coord`` (:func:`coordinate_search`) is the less noisy alternative: one weight at a time, moved only
when the move beats the incumbent by two standard errors of the paired per-deal difference on fresh deals.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from .bots import SMART, WEIGHT_NAMES, SmartBot, Weights
from .study import duel_row

TUNE_FIRST_DEAL = 1_000_000
LOWER = (0.0, 0.0, 0.0, 0.0, 0.0, -5.0, 0.0, 0.0, -5.0, -5.0, -5.0, -5.0, -5.0, -20.0, -20.0, 0.0, 0.0)
"""Bounds keep the block values meaningful (a triple, run or pair worth nothing is not a hand)"""
UPPER = (30.0, 10.0, 30.0, 15.0, 10.0, 10.0, 10.0, 10.0, 10.0, 5.0, 10.0, 10.0, 5.0, 40.0, 20.0, 40.0, 60.0)
SCALE = (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 12.0, 4.0, 4.0, 4.0)
"""The floor of each first step over ``sigma``: the new terms start at zero and need room to move"""


def fitness(weights: Weights, start: int, deals: int) -> float:
    """Mean 息 won per hand of ``weights`` in one seat against two hand-set smart bots, deals ``start``…"""
    return statistics.fmean(samples(weights, start, deals))


def samples(weights: Weights, start: int, deals: int) -> list[float]:
    """Per-deal 息 won per hand (the mean of its three rotations) of ``weights`` against two smart bots."""
    row = duel_row(partial(SmartBot, weights=weights), SmartBot, start)
    return [row.play(d).sample for d in range(deals)]


def clip(w: Sequence[float]) -> Weights:
    return tuple(round(min(hi, max(lo, x)), 3) for x, lo, hi in zip(w, LOWER, UPPER, strict=True))


@dataclass
class Generation:
    number: int
    start: int
    mean_score: float
    best_score: float
    scores: list[float]
    mean: Weights
    cpu_s: float


def tune(generations: int, deals: int, lam: int = 8, seed: int = 1, start: int = TUNE_FIRST_DEAL,
         initial: Weights = SMART, sigma0: float = 0.25, progress: bool = True) -> list[Generation]:
    """The evolution strategy; returns every generation (its mean, the mean's score, the candidates' scores)."""
    rng = random.Random(seed)
    n = len(WEIGHT_NAMES)
    mu = lam // 2
    ranks = [math.log(mu + 0.5) - math.log(i + 1) for i in range(mu)]
    rec = [r / sum(ranks) for r in ranks]
    mean = list(initial)
    # a step scaled to each weight's size, with a floor so that weights now at zero can move
    sigma = [sigma0 * max(abs(x), f) for x, f in zip(initial, SCALE, strict=True)]
    out: list[Generation] = []
    for gen in range(generations):
        t0 = time.process_time()
        first = start + gen * deals
        steps = [[rng.gauss(0.0, 1.0) for _ in range(n)] for _ in range(lam // 2)]
        steps += [[-z for z in s] for s in steps]  # mirrored pairs: the noise of the step cancels in the mean
        cands = [clip([m + s * z for m, s, z in zip(mean, sigma, step, strict=True)]) for step in steps]
        scores = []
        for i, c in enumerate(cands):
            scores.append(fitness(c, first, deals))
            if progress:
                _bar(gen, generations, i + 1, lam + 1, scores)
        mean_score = fitness(clip(mean), first, deals)
        order = sorted(range(lam), key=lambda i: -scores[i])
        chosen = [[(c - m) / s for c, m, s in zip(cands[i], mean, sigma, strict=True)] for i in order[:mu]]
        new_mean = [m + s * sum(r * z[j] for r, z in zip(rec, chosen, strict=True))
                    for j, (m, s) in enumerate(zip(mean, sigma, strict=True))]
        # step sizes: widen a little where the selected steps were long, narrow where short; narrow all
        # when the mean scored better than the candidates' median (the steps are then too bold)
        shrink = 0.9 if mean_score > statistics.median(scores) else 1.0
        for j in range(n):
            spread = math.sqrt(sum(r * z[j] ** 2 for r, z in zip(rec, chosen, strict=True)))
            sigma[j] *= shrink * math.exp(0.2 * (spread - 1.0))
        mean = list(clip(new_mean))
        g = Generation(gen, first, mean_score, max(scores), scores, tuple(mean), time.process_time() - t0)
        out.append(g)
        if progress:
            sys.stderr.write("\n")
            print(json.dumps({"gen": gen, "start": first, "mean_score": round(mean_score, 3),
                              "best": round(max(scores), 3), "median": round(statistics.median(scores), 3),
                              "cpu_s": round(g.cpu_s, 1), "new_mean": list(g.mean)}), flush=True)
    return out


def coordinate_search(rounds: int, deals: int, initial: Weights, free: Sequence[str], step: float = 0.25,
                      start: int = TUNE_FIRST_DEAL, z: float = 2.0, progress: bool = True) -> list[dict[str, object]]:
    """Noisy coordinate search on paired deals: each round takes new deals, plays the incumbent and the
    incumbent with one free weight moved up and down by its step on them, and moves only if the better move's
    mean paired difference (per deal, the same cards) beats the incumbent by ``z`` standard errors; a weight
    whose moves fail has its step shrunk (×0.6), one that moves has it grown (×1.2).  The incumbent is
    re-played on every round's deals, so a lucky set of deals cannot keep a candidate that was not better."""
    x = list(initial)
    idx = [WEIGHT_NAMES.index(n) for n in free]
    steps = {j: step * max(abs(x[j]), SCALE[j]) for j in idx}
    log: list[dict[str, object]] = []
    for r in range(rounds):
        t0 = time.process_time()
        j = idx[r % len(idx)]
        first = start + r * deals
        base = samples(clip(x), first, deals)
        tried = []
        for sign in (1.0, -1.0):
            cand = list(x)
            cand[j] += sign * steps[j]
            cand_w = clip(cand)
            if cand_w == clip(x):
                continue
            s = samples(cand_w, first, deals)
            diff = [a - b for a, b in zip(s, base, strict=True)]
            se = statistics.stdev(diff) / math.sqrt(len(diff)) if len(diff) > 1 else math.inf
            tried.append((statistics.fmean(diff), se, sign, cand_w))
            if progress:
                sys.stderr.write(f"\rround {r + 1}/{rounds} {WEIGHT_NAMES[j]} {sign:+.0f}: {tried[-1][0]:+.2f}"
                                 f" ± {1.96 * se:.2f}   ")
        best = max(tried, default=None, key=lambda t: t[0])
        moved = best is not None and best[0] > z * best[1]
        if moved and best is not None:
            x = list(best[3])
            steps[j] *= 1.2
        else:
            steps[j] *= 0.6
        entry: dict[str, object] = {
            "round": r, "start": first, "deals": deals, "weight": WEIGHT_NAMES[j],
            "incumbent_score": round(statistics.fmean(base), 3),
            "tries": [{"value": t[3][j], "diff": round(t[0], 3), "se": round(t[1], 3)} for t in tried],
            "moved": moved, "incumbent": list(clip(x)), "cpu_s": round(time.process_time() - t0, 1)}
        log.append(entry)
        if progress:
            sys.stderr.write("\n")
            print(json.dumps(entry), flush=True)
    return log


def _bar(gen: int, gens: int, done: int, total: int, scores: Sequence[float]) -> None:
    width = 20
    filled = width * done // total
    sys.stderr.write(f"\rgeneration {gen + 1}/{gens} [{'#' * filled}{'.' * (width - filled)}] "
                     f"{done}/{total}  best so far {max(scores):+.2f} 息")
    sys.stderr.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description="tune the 偎麻雀 smart bot's weights by duplicate self-play")
    ap.add_argument("--generations", type=int, default=20)
    ap.add_argument("--deals", type=int, default=300, help="deals per candidate (each played 3 times)")
    ap.add_argument("--lam", type=int, default=8, help="candidates per generation (even)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the optimiser's own draws")
    ap.add_argument("--start", type=int, default=TUNE_FIRST_DEAL, help="first deal seed of the tuning")
    ap.add_argument("--sigma", type=float, default=0.25, help="first step, as a fraction of each weight")
    ap.add_argument("--initial", type=str, default="", help="comma-separated weights to start from")
    ap.add_argument("--method", choices=("es", "coord"), default="es",
                    help="es: the evolution strategy; coord: paired coordinate search (--rounds, --free)")
    ap.add_argument("--rounds", type=int, default=30, help="coord: rounds (one free weight each, in turn)")
    ap.add_argument("--free", default="ready,ready_xi,triple,pair,run,adjacent,feed_3,claim",
                    help="coord: the weights it may move, comma-separated")
    ap.add_argument("--z", type=float, default=2.0, help="coord: standard errors a move must win by")
    args = ap.parse_args()
    initial = tuple(float(x) for x in args.initial.split(",")) if args.initial else SMART
    if len(initial) != len(WEIGHT_NAMES):
        ap.error(f"--initial needs {len(WEIGHT_NAMES)} weights ({', '.join(WEIGHT_NAMES)})")
    t0 = time.process_time()
    if args.method == "coord":
        log = coordinate_search(args.rounds, args.deals, initial, args.free.split(","), args.sigma, args.start,
                                args.z)
        print(json.dumps({"final": log[-1]["incumbent"] if log else list(initial), "names": list(WEIGHT_NAMES),
                          "cpu_s": round(time.process_time() - t0, 1)}))
        return
    gens = tune(args.generations, args.deals, args.lam, args.seed, args.start, initial, args.sigma)
    print(json.dumps({"final": list(gens[-1].mean), "names": list(WEIGHT_NAMES),
                      "cpu_s": round(time.process_time() - t0, 1)}))


if __name__ == "__main__":
    main()
