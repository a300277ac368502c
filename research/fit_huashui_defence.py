"""Fit the 滑水 bot's defence models (``paiju.games.huashui.defence``) on self-play read omnisciently.

    .venv/bin/python research/fit_huashui_defence.py --games 1500 --seed 100000
    .venv/bin/python research/fit_huashui_defence.py --ceiling 200 [--parts ready|which]

Plays one efficient bot against three shanten-greedy bots (the study's table, the efficient bot's seat
rotating with the deal), and at every discard decision of every seat records, from that seat's view only,
the features of each (opponent, held kind) and of the discard chosen; the labels come from the whole game
(the opponent's hand: is the kind one of its waits, and is it not locked on it; and did the seat win the
hand).  Two logistic regressions (numpy, Newton steps) give the coefficients to paste into ``defence.py``.
The study deals start at seed 0: fit on other seeds (the default) so the study measures, not recalls.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from paiju.bots.base import Bot, play_out
from paiju.core.game import View
from paiju.games.huashui.bots import EfficientBot, Hand, ShantenGreedyBot
from paiju.games.huashui.config import HuashuiConfig
from paiju.games.huashui.defence import (
    READY_NAMES,
    TILE_NAMES,
    WIN_NAMES,
    deal_in_read,
    fresh_tiles,
    read_features,
    read_ready_features,
    ready_chance,
    ready_features,
    suit_shares,
    tile_features,
    wait_chance,
    win_features,
)
from paiju.games.huashui.engine import HuashuiGame
from paiju.games.huashui.tables import POW, SUIT_OF, is_even_keys, is_standard_keys
from paiju.games.huashui.tiles import NUM_KINDS, parse_tile


def waits(game: HuashuiGame, o: int) -> dict[int, int]:
    """Kinds ``o`` may win on now (locks removed), each with what a discard of it would cost."""
    if game.lock_all[o]:
        return {}
    keys = list(game.keys[o])
    concealed = not game.melds[o]
    out = {}
    for w in range(NUM_KINDS):
        if w in game.locks[o]:
            continue
        keys[SUIT_OF[w]] += POW[w]
        dui = concealed and is_even_keys(keys)
        if dui or is_standard_keys(keys):
            out[w] = 15 if dui else 5
        keys[SUIT_OF[w]] -= POW[w]
    return out


class Recorder:
    """Wraps a seat's bot; reads its view (features) and the game (labels) at each discard decision."""

    def __init__(self, bot: Bot, game: HuashuiGame, seat: int, danger: list[Any], wins: list[Any]) -> None:
        self.bot, self.game, self.seat, self.danger, self.wins = bot, game, seat, danger, wins
        self.mine: list[list[float]] = []

    def act(self, view: View, legal: Sequence[str]) -> str:
        action = self.bot.act(view, legal)
        if view.get("claim") or not action.startswith("discard"):
            return action
        hand = Hand(view)
        me = self.seat
        kinds = [t for t in range(NUM_KINDS) if hand.counts[t]]
        for o in range(4):
            if o == me:
                continue
            r = ready_features(view, o)
            thrown = {parse_tile(x) for x in view["discards"][o]}
            fresh = fresh_tiles(view, me, o)
            shares = suit_shares(view["discards"][o])
            w = waits(self.game, o)
            for t in kinds:
                self.danger.append((r + tile_features(t, hand.unseen, thrown, t in fresh, shares),
                                    float(t in w), w.get(t, 0), not view["melds"][o]))
        t = parse_tile(action.split()[1])
        hand.add(t, -1)
        s = hand.shanten()
        pair, other = hand.useful_split(s)
        opp = sum(len(view["melds"][o]) for o in range(4) if o != me)
        self.mine.append(win_features(s, pair, other, view["wall"], hand.melds, opp))
        return action


class OracleBot(EfficientBot):
    """The efficient bot's defence with the true waits instead of the fitted read: the ceiling of reading."""

    game: HuashuiGame | None = None

    def _deal_in(self, view: View, me: int, kinds: list[int], unseen: list[int]) -> list[list[float]]:
        assert self.game is not None
        out = [[0.0] * NUM_KINDS for _ in range(4)]
        for o in range(4):
            if o != me:
                for t in waits(self.game, o):
                    out[o][t] = 1.0
        return out


class ReadyOracleBot(OracleBot):
    """Knows which opponents are ready (the truth); which tile from the crossed fit: what a perfect read of
    readiness alone is worth."""

    def _deal_in(self, view: View, me: int, kinds: list[int], unseen: list[int]) -> list[list[float]]:
        assert self.game is not None
        out = [[0.0] * NUM_KINDS for _ in range(4)]
        for o in range(4):
            if o != me and waits(self.game, o):
                r, per_tile = read_features(view, me, o, kinds, unseen)
                for t, g in zip(kinds, per_tile, strict=True):
                    out[o][t] = wait_chance(g, r, cross=True)
        return out


class WhichOracleBot(OracleBot):
    """The fitted chance each opponent is ready, × the true waits of a ready one (a seat not ready: the fit's
    7 % wait share of a ready seat's tiles): what a perfect read of which tile alone is worth.  Two dials
    make reads between today's and a perfect one, to find how good the read must be for the goal (each stays
    calibrated, a mixture of two calibrated reads): with ``mix`` below 1 the which-tile chance is that share
    of the truth and the rest the crossed fit's (it ranks nearly perfectly and is less sure); with ``known``
    below 1 the truth is known for that share of (decision, opponent) pairs, drawn at random, and the crossed
    fit read for the rest (AUC about 1 − (1 − known)² × (1 − the fit's))."""

    mix = 1.0
    known = 1.0

    def __init__(self, seed: int = 0, **options: Any) -> None:
        super().__init__(seed, **options)
        self._coin = random.Random(seed * 7 + 1)  # its own stream: the bot's choices draw from theirs

    def _deal_in(self, view: View, me: int, kinds: list[int], unseen: list[int]) -> list[list[float]]:
        assert self.game is not None
        out = [[0.0] * NUM_KINDS for _ in range(4)]
        dial = min(self.mix, self.known) < 1.0  # else lam is 1 below and the fit is never read
        fitted = deal_in_read(view, me, kinds, unseen, cross=True) if dial else []
        for o in range(4):
            if o == me:
                continue
            ready = ready_chance(read_ready_features(view, o))
            w = waits(self.game, o)
            lam = self.mix if self.known >= 1.0 or self._coin.random() < self.known else 0.0
            for t in kinds:
                truth = ready * (float(t in w) if w else 0.07)
                out[o][t] = truth if lam >= 1.0 else (1.0 - lam) * fitted[o][t] + lam * truth
        return out


ORACLES: dict[str, type[OracleBot]] = {"oracle": OracleBot, "ready": ReadyOracleBot, "which": WhichOracleBot}


def ceiling(deals: int, variants: list[tuple[str, dict[str, Any]]], first: int = 0) -> None:
    """Paired deals first..first+deals-1 (0.. are the study's, 20000.. the fresh ones), the hero in each seat
    against three greedy bots, per variant (kind ``model``: the bot as it is; else one of :data:`ORACLES`)."""
    rows: list[list[tuple[float, float, float]]] = [[] for _ in variants]
    for d in range(first, first + deals):
        for i, (kind, options) in enumerate(variants):
            pts = won = dealt = 0.0
            for hero in range(4):
                game = HuashuiGame.new(HuashuiConfig(hands=1), d)
                bot = ORACLES.get(kind, EfficientBot)(d * 101 + hero, **options)
                if isinstance(bot, OracleBot):
                    bot.game = game
                play_out(game, [bot if s == hero else ShantenGreedyBot(s) for s in range(4)])
                last = game.last_result or {}
                pts += game.totals()[hero] / 4
                won += (hero in last.get("winners", ())) / 4
                dealt += any(line["points"][hero] < 0 and sum(p < 0 for p in line["points"]) == 1
                             for line in last.get("lines", [])[len(last["lines"]) - len(last["winners"]):]) / 4
            rows[i].append((pts, won, dealt))
    base = rows[0]
    for (kind, options), got in zip(variants, rows, strict=True):
        def ci(xs: list[float]) -> str:
            a = np.array(xs)
            return f"{a.mean():+.3f} ± {1.96 * a.std(ddof=1) / np.sqrt(len(a)):.3f}"
        diff = [g[0] - b[0] for g, b in zip(got, base, strict=True)]
        print(f"{kind} {options}: points {ci([g[0] for g in got])} (paired {ci(diff)}), "
              f"win {ci([g[1] for g in got])}, deal-in {ci([g[2] for g in got])}")


def logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 25) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))   # clipped: separable features would overflow
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        w -= np.linalg.solve(hess, grad)
    return w


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=100_000)
    ap.add_argument("--ceiling", type=int, default=0,
                    help="instead: play this many study deals with the oracle's defence (the true waits)")
    ap.add_argument("--parts", choices=["ready", "which"],
                    help="with --ceiling: the oracle of one part of the read only (who is ready, or which tile)")
    ap.add_argument("--mix", type=float, default=1.0,
                    help="with --parts which: the truth's share of the which-tile read (the rest the crossed fit)")
    ap.add_argument("--known", type=float, default=1.0,
                    help="with --parts which: the share of (decision, opponent) pairs read true (the rest the fit)")
    args = ap.parse_args()
    WhichOracleBot.mix, WhichOracleBot.known = args.mix, args.known
    if args.ceiling and args.parts:
        ceiling(args.ceiling, [("model", {"defence": False}), (args.parts, {"defence": True, "danger_scale": 2.0})])
        return
    if args.ceiling:
        ceiling(args.ceiling, [("model", {"defence": False}), ("model", {"defence": True, "danger_scale": 2.0}),
                               ("model", {"defence": True, "danger_scale": 2.0, "pung_model": 1.0}),
                               ("oracle", {"defence": True, "danger_scale": 2.0})])
        return
    start = time.process_time()
    danger: list[Any] = []
    wins: list[tuple[list[float], float]] = []
    points_won: list[float] = []
    points_other: list[float] = []
    for d in range(args.games):
        game = HuashuiGame.new(HuashuiConfig(hands=1), args.seed + d)
        hero = d % 4
        bots = [Recorder(EfficientBot(d * 101 + s, defence=True) if s == hero else ShantenGreedyBot(s), game, s,
                         danger, wins)
                for s in range(4)]
        play_out(game, bots)
        winners = game.last_result["winners"] if game.last_result else []
        for s, b in enumerate(bots):
            won = float(s in winners)
            wins.extend((f, won) for f in b.mine)
            (points_won if won else points_other).append(game.totals()[s])
    xd = np.array([row[0] for row in danger])
    yd = np.array([row[1] for row in danger])
    wd = logistic(xd, yd)
    hits = [row for row in danger if row[1]]
    concealed_pay = [row[2] for row in hits if row[3]]
    print(f"# {args.games} games, {len(danger)} (opponent, tile) rows, {len(hits)} hits "
          f"({len(hits) / len(danger):.3%}); {len(wins)} discards; CPU {time.process_time() - start:.0f} s")
    print("DEAL_IN_COEF = (" + ", ".join(f"{c:.3f}" for c in wd) + ")")
    for name, c in zip(READY_NAMES + TILE_NAMES, wd, strict=True):
        print(f"#   {name}: {c:+.3f}")
    print(f"DUI_PAY = {np.mean(concealed_pay):.2f}   # mean payment into a concealed hand ({len(concealed_pay)})")
    xw = np.array([f for f, _ in wins])
    yw = np.array([y for _, y in wins])
    ww = logistic(xw, yw)
    print("WIN_COEF = (" + ", ".join(f"{c:.3f}" for c in ww) + ")")
    for name, c in zip(WIN_NAMES, ww, strict=True):
        print(f"#   {name}: {c:+.3f}")
    print(f"# mean points of a hand's winner {np.mean(points_won):+.2f}, of the others {np.mean(points_other):+.2f}")
    # calibration: predicted vs observed deal-in in deciles
    pd_ = 1.0 / (1.0 + np.exp(-(xd @ wd)))
    order = np.argsort(pd_)
    for chunk in np.array_split(order, 10):
        print(f"#   predicted {pd_[chunk].mean():.4f}  observed {yd[chunk].mean():.4f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
