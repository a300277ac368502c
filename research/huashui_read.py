"""Score and refit the 滑水 bot's read of opponents' waits offline (issue 16).

    .venv/bin/python research/huashui_read.py collect --games 800 --seed 100000 -o /tmp/read_train.pkl
    .venv/bin/python research/huashui_read.py collect --games 200 --seed 10000 -o /tmp/read_test.pkl
    .venv/bin/python research/huashui_read.py fit /tmp/read_train.pkl /tmp/read_test.pkl
    .venv/bin/python research/huashui_read.py gbm /tmp/read_train.pkl /tmp/read_test.pkl   # needs scikit-learn
    .venv/bin/python research/huashui_read.py collect --tsumo --games 800 --seed 100000 -o /tmp/ttrain.pkl   # 摸切
    .venv/bin/python research/huashui_read.py collect --tsumo --games 200 --seed 10000 -o /tmp/ttest.pkl
    .venv/bin/python research/huashui_read.py gbm --tsumo /tmp/ttrain.pkl /tmp/ttest.pkl

``collect`` plays one efficient bot against three shanten-greedy bots (the study's table) and keeps, at every
discard decision of every seat, the seat's view (only the public part and its own hand) and, for scoring
only, each opponent's true waits.  ``fit`` computes the read's features from those views alone
(``paiju.games.huashui.defence``), fits the two logistic models (is the seat ready; is the tile a wait of a
ready seat) on the first file and scores the AUCs on the second: whether a seat is ready, which tile a ready
seat waits on, and the (opponent, tile) product the bot uses.  It prints the coefficients to paste.
``gbm`` asks whether a richer model would read more from the same views: gradient-boosted trees
(scikit-learn, not a dependency of paiju: ``pip install scikit-learn``) on the read's features plus raw ones
(where in the opponent's river each relation to the tile last and first appears, the river's recent kinds
by class, the neighbours' unseen copies, …), scored the same way.  ``--tsumo`` asks what a table that
shows 摸切 / 手切 (whether each discard was the tile just drawn; the view does not show it) would add:
``collect --tsumo`` plays the same games on an engine that also records that flag (:class:`TsumoGame`,
kept beside each view under ``"tsumo"``), ``gbm --tsumo`` adds features from it and scores both models.
"""

from __future__ import annotations

import argparse
import pickle
import time
from collections.abc import Iterator, Sequence
from typing import Annotated, Any

import numpy as np
from fit_huashui_defence import logistic, waits

from paiju.bots.base import Bot, play_out
from paiju.core.game import View
from paiju.core.state import EACH
from paiju.games.huashui import defence
from paiju.games.huashui.bots import EfficientBot, Hand, ShantenGreedyBot
from paiju.games.huashui.config import HuashuiConfig
from paiju.games.huashui.engine import HuashuiGame
from paiju.games.huashui.tiles import NUM_KINDS


class TsumoGame(HuashuiGame):
    """The engine plus one flag per discard in each river: was it the tile just drawn (摸切)?  A research-only
    record of what a physical table shows; the flag of a discard taken by 碰 or 杠 leaves with it."""

    tsumo: Annotated[list[list[bool]], EACH]

    def _start_hand(self, dealer: int, deal: Any = None) -> None:
        self.tsumo = [[], [], [], []]
        super()._start_hand(dealer, deal)

    def _discard(self, seat: int, tile: int, events: list[Any]) -> None:
        self.tsumo[seat].append(self.drew and self.last_drawn == tile)
        super()._discard(seat, tile, events)

    def _resolve_claims(self, events: list[Any]) -> None:
        src = self.claim_from
        super()._resolve_claims(events)
        self._follow_river(src)

    def _resolve_rob(self, events: list[Any]) -> None:
        src = self.claim_from
        super()._resolve_rob(events)
        self._follow_river(src)

    def _follow_river(self, seat: int) -> None:
        """A claim takes the river's last tile, a robbed kong lays one there (from the hand): flags follow."""
        flags, n = self.tsumo[seat], len(self.discards[seat])
        del flags[n:]
        flags += [False] * (n - len(flags))


class Keeper:
    """Wraps a seat's bot; keeps its view and the opponents' true waits at each discard decision."""

    def __init__(self, bot: Bot, game: HuashuiGame, seat: int, rows: list[Any]) -> None:
        self.bot, self.game, self.seat, self.rows = bot, game, seat, rows

    def act(self, view: View, legal: Sequence[str]) -> str:
        action = self.bot.act(view, legal)
        if view.get("claim") or not action.startswith("discard"):
            return action
        keep = {k: view[k] for k in ("viewer", "dealer", "hand", "discards", "melds", "wall", "claim")}
        if isinstance(self.game, TsumoGame):
            keep["tsumo"] = [list(t) for t in self.game.tsumo]
            assert [len(t) for t in keep["tsumo"]] == [len(d) for d in view["discards"]]
        self.rows.append((keep, [waits(self.game, o) if o != self.seat else {} for o in range(4)]))
        return action


def collect(games: int, seed: int, out: str, tsumo: bool = False) -> None:
    rows: list[Any] = []
    start = time.process_time()
    for d in range(games):
        game = (TsumoGame if tsumo else HuashuiGame).new(HuashuiConfig(hands=1), seed + d)
        hero = d % 4
        bots = [Keeper(EfficientBot(d * 101 + s, defence=True) if s == hero else ShantenGreedyBot(s), game, s, rows)
                for s in range(4)]
        play_out(game, bots)
    with open(out, "wb") as f:
        pickle.dump(rows, f)
    print(f"{games} games, {len(rows)} decisions, CPU {time.process_time() - start:.0f} s -> {out}")


def decisions(rows: list[Any]) -> Iterator[tuple[View, list[dict[int, int]], Hand, list[int],
                                                  list[tuple[int, list[float], list[list[float]]]]]]:
    """Each kept decision as the read sees it: the view, the true waits, the hand, its kinds, and per
    opponent the read's ready and per-kind tile features (what :func:`features` and :func:`raw_rows` build on)."""
    for view, w in rows:
        me = view["viewer"]
        hand = Hand(view)
        kinds = [t for t in range(NUM_KINDS) if hand.counts[t]]
        yield view, w, hand, kinds, [(o, *defence.read_features(view, me, o, kinds, hand.unseen))
                                     for o in range(4) if o != me]


def features(rows: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per (decision, opponent): ready features and label; per (decision, opponent, held kind): tile features,
    label, and the index of its (decision, opponent) row."""
    xr, yr, xt, yt, idx, old = [], [], [], [], [], []
    for view, w, hand, kinds, seats in decisions(rows):
        first = defence.deal_in(view, view["viewer"], kinds, hand.unseen)
        for o, r, per_tile in seats:
            xr.append(r)
            yr.append(float(bool(w[o])))
            for t, f in zip(kinds, per_tile, strict=True):
                xt.append(f)
                yt.append(float(t in w[o]))
                idx.append(len(xr) - 1)
                old.append(first[o][t])
    return np.array(xr), np.array(yr), np.array(xt), np.array(yt), np.array(idx), np.array(old)


def auc(score: np.ndarray, y: np.ndarray) -> float:
    """The chance a random positive scores above a random negative (ties half)."""
    order = np.argsort(score, kind="mergesort")
    s = score[order]
    ranks = np.empty(len(s))
    i = 0
    while i < len(s):  # average ranks of ties
        j = i
        while j + 1 < len(s) and s[j + 1] == s[i]:
            j += 1
        ranks[i:j + 1] = (i + j) / 2 + 1
        i = j + 1
    r = np.empty(len(s))
    r[order] = ranks
    pos = y > 0.5
    n1, n0 = pos.sum(), (~pos).sum()
    return float((r[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def sig(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))
    return out


def expand(xt: np.ndarray, xr: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """The tile features and their products with the seat's :data:`defence.READ_CROSS` ready features (the
    order of ``defence.cross_row``)."""
    r = xr[idx]
    return np.hstack([xt] + [xt[:, 1:] * r[:, k:k + 1] for k in defence.READ_CROSS])


def fit(train: str, test: str, cross: bool = False) -> None:
    with open(train, "rb") as f:
        tr = features(pickle.load(f))
    with open(test, "rb") as f:
        te = features(pickle.load(f))
    xr, yr, xt, yt, idx, _ = tr
    xr2, yr2, xt2, yt2, idx2, old = te
    if cross:
        xt, xt2 = expand(xt, xr, idx), expand(xt2, xr2, idx2)
    wr = logistic(xr, yr, ridge=1e-2, steps=30)
    ready_rows = yr[idx] > 0.5
    wt = logistic(xt[ready_rows], yt[ready_rows], ridge=1.0 if cross else 1e-2, steps=30)
    pr = sig(xr2 @ wr)
    pt = sig(xt2 @ wt)
    rr = yr2[idx2] > 0.5
    print(f"train: {len(yr)} (decision, opponent) rows, {int(yr.sum())} ready; {len(yt)} tile rows, "
          f"{int(yt.sum())} waits; test: {len(yr2)} / {len(yt2)} rows, {rr.sum()} tiles of ready seats, "
          f"{yt2[rr].mean():.1%} of them waits")
    print(f"AUC ready {auc(pr, yr2):.3f}; wait among ready seats {auc(pt[rr], yt2[rr]):.3f}; "
          f"(opponent, tile) product {auc(pr[idx2] * pt, yt2):.3f}")
    print(f"the first fit (defence.deal_in): wait among ready seats {auc(old[rr], yt2[rr]):.3f}; "
          f"(opponent, tile) {auc(old, yt2):.3f}")
    if cross:  # what the reads of fit_huashui_defence.py --parts which --mix / --known λ score
        truth = np.where(rr, yt2, 0.07)
        coin = np.random.default_rng(0).random(len(yr2))[idx2]
        for dial in ("mix", "known"):
            for lam in (0.1, 0.25, 0.5, 0.75):
                mixed = (1 - lam) * pt + lam * truth if dial == "mix" else np.where(coin < lam, truth, pt)
                print(f"--{dial} {lam}: wait among ready seats {auc(mixed[rr], yt2[rr]):.3f}; "
                      f"(opponent, tile) {auc(pr[idx2] * mixed, yt2):.3f}")
    print("READ_READY_COEF = (" + ", ".join(f"{c:.3f}" for c in wr) + ")")
    for name, c in zip(defence.READ_READY_NAMES, wr, strict=True):
        print(f"#   {name}: {c:+.3f}")
    print(("READ_CROSS_COEF" if cross else "READ_TILE_COEF") + " = (" + ", ".join(f"{c:.3f}" for c in wt) + ")")
    for name, c in zip(defence.READ_TILE_NAMES, wt, strict=False):
        print(f"#   {name}: {c:+.3f}")
    p = pr[idx2] * pt
    order = np.argsort(p)
    for chunk in np.array_split(order, 10):
        print(f"#   predicted {p[chunk].mean():.4f}  observed {yt2[chunk].mean():.4f}")


def _relation(a: int, b: int) -> int:
    """A discarded kind ``a`` against tile ``b``: 0 the same, 1–3 that far in its suit, 4 farther, −1 none."""
    if a == b:
        return 0
    if a >= 27 or b >= 27 or a // 9 != b // 9:
        return -1
    return min(abs(a - b), 4)


def _class(x: int) -> int:
    return 0 if x >= 27 else 1 if x % 9 in (0, 8) else 2 if x % 9 in (1, 7) else 3


def raw_rows(rows: list[Any], tsumo: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                             np.ndarray, int, int]:
    """Per (decision, opponent): ready features (the read's and raw) and label; per held kind besides: tile
    features (the read's, the raw ones and the seat's ready features) and label, and the row's index; and
    how many leading columns of each are those.  With ``tsumo`` (rows collected with ``--tsumo``) the columns
    after them are what 摸切 / 手切 shows: for the seat, whether its last discards were the tile just drawn and
    how long its closing run of those is; for the tile besides, where it stands to the seat's hand-cut (手切)
    discards, which are what a ready speed hand gave up to keep its wait."""
    xr, yr, xt, yt = [], [], [], []
    idx: list[int] = []
    nr = nt = 0  # the columns before the 摸切 ones
    for view, w, hand, kinds, seats in decisions(rows):
        me = view["viewer"]
        for o, r, per_tile in seats:
            river = [defence.TILE_OF[x] for x in view["discards"][o]]
            n = len(river)
            since = defence.since_sets(view, me, o, depth=4)
            mine = [defence.TILE_OF[m["tile"]] for m in view["melds"][o]]
            seat = [*r, n, len(mine), view["wall"], (o - view["dealer"]) % 4, (me - o) % 4,
                    sum(len(d) for d in view["discards"])]
            seat += [_class(river[-k]) if k <= n else -1 for k in range(1, 9)]
            seat_t: list[float] = []
            cut: list[int] = []
            if tsumo:
                flags = view["tsumo"][o]
                run = next((k for k in range(n) if not flags[n - 1 - k]), n)
                cut = [i for i in range(n) if not flags[i]]
                seat_t = [float(flags[-k]) if k <= n else -1.0 for k in (1, 2, 3)]
                seat_t += [run, sum(flags[-4:]), n - cut[-1] if cut else 99, len(cut)]
            nr = len(seat)
            xr.append(seat + seat_t)
            yr.append(float(bool(w[o])))
            for t, g in zip(kinds, per_tile, strict=True):
                f = list(g) + seat + [t % 9 if t < 27 else -1, hand.unseen[t]]
                rel = [_relation(x, t) for x in river]
                for code in (0, 1, 2, 3):
                    at = [i for i in range(n) if rel[i] == code]
                    f += [n - at[-1] if at else 99, n - at[0] if at else 99, len(at)]
                f += [float(t in since[k]) for k in range(4)]
                f.append(min([abs(m - t) for m in mine if _relation(m, t) >= 0] or [9]))
                f += [hand.unseen[t + d] if t < 27 and 0 <= t + d < 27 and (t + d) // 9 == t // 9 else -1
                      for d in (-2, -1, 1, 2)]
                nt = len(f)
                if tsumo:
                    f += seat_t
                    f += [rel[cut[-k]] if k <= len(cut) else -2 for k in (1, 2, 3)]
                    for code in (0, 1, 2, 3):
                        at = [i for i in cut if rel[i] == code]
                        f += [n - at[-1] if at else 99, len(at)]
                xt.append(f)
                yt.append(float(t in w[o]))
                idx.append(len(xr) - 1)
    return np.array(xr, dtype=float), np.array(yr), np.array(xt, dtype=float), np.array(yt), np.array(idx), nr, nt


def gbm(train: str, test: str, tsumo: bool = False) -> None:
    from sklearn.ensemble import HistGradientBoostingClassifier

    with open(train, "rb") as f:
        tr = pickle.load(f)
    with open(test, "rb") as f:
        te = pickle.load(f)

    def trees() -> Any:
        return HistGradientBoostingClassifier(max_iter=400, learning_rate=0.05, max_leaf_nodes=31, random_state=0)

    xr, yr, xt, yt, idx, nr, nt = raw_rows(tr, tsumo)
    xr2, yr2, xt2, yt2, idx2, _, _ = raw_rows(te, tsumo)
    ready = yr[idx] > 0.5
    rr = yr2[idx2] > 0.5
    for label, cr, ct in [("trees", nr, nt), ("trees + 摸切/手切", xr.shape[1], xt.shape[1])][:2 if tsumo else 1]:
        pr = trees().fit(xr[:, :cr], yr).predict_proba(xr2[:, :cr])[:, 1]
        pt = trees().fit(xt[ready, :ct], yt[ready]).predict_proba(xt2[:, :ct])[:, 1]
        print(f"{label}: AUC ready {auc(pr, yr2):.3f}; wait among ready seats {auc(pt[rr], yt2[rr]):.3f}; "
              f"(opponent, tile) product {auc(pr[idx2] * pt, yt2):.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--games", type=int, default=800)
    c.add_argument("--seed", type=int, default=100_000)
    c.add_argument("-o", "--out", required=True)
    c.add_argument("--tsumo", action="store_true", help="also keep each river's 摸切 / 手切 flags (TsumoGame)")
    f = sub.add_parser("fit")
    f.add_argument("train")
    f.add_argument("test")
    f.add_argument("--cross", action="store_true",
                   help="the tile model with products of its features and the seat's melds and turns")
    g = sub.add_parser("gbm")
    g.add_argument("train")
    g.add_argument("test")
    g.add_argument("--tsumo", action="store_true", help="also score the trees with 摸切 / 手切 features")
    args = ap.parse_args()
    if args.cmd == "collect":
        collect(args.games, args.seed, args.out, args.tsumo)
    elif args.cmd == "gbm":
        gbm(args.train, args.test, args.tsumo)
    else:
        fit(args.train, args.test, args.cross)


if __name__ == "__main__":
    main()
