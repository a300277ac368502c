"""Compute OddsBot's call/answer/response mix as an equilibrium over hand-strength buckets (CFR+), offline.

    .venv/bin/python research/shuiyu_equilibrium.py            # prints the exploitability, writes nothing
    .venv/bin/python research/shuiyu_equilibrium.py --write    # writes src/paiju/games/shuiyu/mix.py

Needs numpy (the ``rl`` extra); the bot only reads the table it writes.

The abstraction: one player against the banker, the page's multipliers.  A plain hand's bucket is its model
split's head-strength band (``HEAD_BINS`` bands of equal population) and, inside it, its tail band
(``TAIL_BINS``); ``P(outcome | player bucket, banker bucket)`` is counted on random pairs of disjoint plain hands
(both split by :func:`paiju.games.shuiyu.bots.model_split`).  The game: the player (knowing its bucket) calls
open / cover / attack / push; for an open hand the banker, who sees both hands, knows the outcome and says kill
or walk, then the player believes or doubts; a covered hand, an attack or a push is answered from the banker's
own bucket, then an accepted attack or a denied push drinks or compares.  强奸 needs no answer and is left to the
bot's exact odds.  CFR+ with linearly weighted averages solves it; the script prints both sides' best-response
gains against the average strategy (the abstraction's exploitability).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paiju.games.shuiyu.bots import model_split  # noqa: E402
from paiju.games.shuiyu.config import ShuiyuConfig  # noqa: E402
from paiju.games.shuiyu.rules import GROUP_KEY, RANK_INDEX  # noqa: E402

HEAD_BINS = 10
TAIL_BINS = 7
OUT = ROOT / "src" / "paiju" / "games" / "shuiyu" / "mix.py"
B, W, P = 0, 1, 2           # outcomes: banker wins both, walk, player wins both
CALLS = ("open", "cover", "attack", "push")


def plain_hands() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every plain hand's model-split (head key, tail key) and its cards as a 52-bit mask."""
    heads, tails, masks = [], [], []
    gk = GROUP_KEY
    for a, b, c, d in combinations(range(52), 4):
        ra, rb, rc, rd = RANK_INDEX[a], RANK_INDEX[b], RANK_INDEX[c], RANK_INDEX[d]
        if (ra == rb and rc == rd) or (ra == rc and rb == rd) or (ra == rd and rb == rc):
            continue
        best = (-9.0, 0, 0)
        for k1, k2 in ((gk[a * 52 + b], gk[c * 52 + d]), (gk[a * 52 + c], gk[b * 52 + d]),
                       (gk[a * 52 + d], gk[b * 52 + c])):
            v = model_split(k1, k2)
            if v > best[0]:
                best = (v, max(k1, k2), min(k1, k2))
        heads.append(best[1])
        tails.append(best[2])
        masks.append((1 << a) | (1 << b) | (1 << c) | (1 << d))
    return np.array(heads), np.array(tails), np.array(masks, dtype=np.uint64)


def edges(heads: np.ndarray, tails: np.ndarray) -> tuple[list[int], list[list[int]]]:
    """Band edges (keys): a hand is in head band ``bisect_right(head_edges, h)``, then its tail band likewise."""
    order = np.sort(heads)
    head_edges = sorted({int(order[len(order) * k // HEAD_BINS]) for k in range(1, HEAD_BINS)})
    hb = np.searchsorted(head_edges, heads, side="right")
    tail_edges = []
    for band in range(len(head_edges) + 1):
        ts = np.sort(tails[hb == band])
        tail_edges.append(sorted({int(ts[len(ts) * k // TAIL_BINS]) for k in range(1, TAIL_BINS)}))
    return head_edges, tail_edges


def buckets(heads: np.ndarray, tails: np.ndarray, head_edges: list[int],
            tail_edges: list[list[int]]) -> np.ndarray:
    hb = np.searchsorted(head_edges, heads, side="right")
    out = np.zeros(len(heads), dtype=np.int64)
    for band, te in enumerate(tail_edges):
        sel = hb == band
        out[sel] = band * TAIL_BINS + np.searchsorted(te, tails[sel], side="right")
    return out


def outcome_counts(heads: np.ndarray, tails: np.ndarray, masks: np.ndarray, bucket: np.ndarray, n: int,
                   pairs: int, seed: int) -> np.ndarray:
    """counts[i, j, r]: random disjoint (player, banker) plain hands by buckets and outcome."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((n, n, 3))
    done = 0
    while done < pairs:
        size = min(1_000_000, pairs - done)
        p = rng.integers(0, len(heads), size)
        b = rng.integers(0, len(heads), size)
        ok = (masks[p] & masks[b]) == 0
        p, b = p[ok], b[ok]
        bwin = (heads[b] > heads[p]) & (tails[b] > tails[p])
        pwin = (heads[p] > heads[b]) & (tails[p] > tails[b])
        r = np.where(bwin, B, np.where(pwin, P, W))
        np.add.at(counts, (bucket[p], bucket[b], r), 1)
        done += len(p)
    return counts


class Abstract:
    """The bucket game and its CFR+ solver; payoffs are the player's drinks gained (zero-sum)."""

    def __init__(self, pi: np.ndarray) -> None:
        self.pi = pi                                # pi[i, j, r], sums to 1
        self.n = pi.shape[0]
        t = ShuiyuConfig().table()
        d = float(t.doubt)
        # open: [message kill/walk][response believe/doubt][outcome]
        self.open_pay = np.array([[[-t.kill_believed] * 3, [-d, d, d]],
                                  [[0.0] * 3, [-d, -d, d]]], dtype=float)
        cc = float(t.cover_called)
        self.cover_call = np.array([-cc, -cc, cc])
        self.cover_concede = float(t.cover_conceded)
        ac = float(t.attack_compare)
        self.attack_compare = np.array([-ac, -ac, ac])
        self.attack_drink = -float(t.attack_drink)
        self.attack_refused = float(t.attack_refused)
        pc = float(t.push_compare)
        self.push_compare = np.array([-pc, pc, pc])
        self.push_drink = -float(t.push_drink)
        n = self.n
        # regrets (CFR+: clipped at zero) and weighted strategy sums, per information set
        shapes = {"call": (n, 4), "kill": (n, 3, 2), "doubt": (n, 2, 2), "answer": (n, 3, 2),
                  "acc_resp": (n, 2), "deny_resp": (n, 2)}
        self.regret = {k: np.zeros(s) for k, s in shapes.items()}
        self.total = {k: np.zeros(s) for k, s in shapes.items()}

    @staticmethod
    def _match(regret: np.ndarray) -> np.ndarray:
        pos = np.maximum(regret, 0)
        s = pos.sum(axis=-1, keepdims=True)
        uniform = np.full_like(pos, 1.0 / pos.shape[-1])
        out: np.ndarray = np.where(s > 0, pos / np.where(s > 0, s, 1), uniform)
        return out

    def values(self, st: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Counterfactual values of every action (player's view for the player's sets, the player's payoff for
        the banker's: the banker minimises)."""
        pi = self.pi
        call, kill, doubt, ans = st["call"], st["kill"], st["doubt"], st["answer"]
        acc, deny = st["acc_resp"], st["deny_resp"]
        # -- open: banker at (i, r) says m, player at (i, m) answers x
        resp_val = np.einsum("imx,mxr->imr", doubt, self.open_pay)          # value after message m at (i, r)
        kill_cf = np.einsum("ijr,i,imr->irm", pi, call[:, 0], np.broadcast_to(resp_val, (self.n, 2, 3)))
        reach_ir = pi.sum(axis=1)                                              # (i, r)
        msg_reach = np.einsum("ir,irm->imr", reach_ir, kill)                  # (i, m, r)
        doubt_cf = np.einsum("imr,mxr->imx", msg_reach, self.open_pay)
        open_val = np.einsum("irm,imr->ir", kill, resp_val)                  # (i, r)
        # -- face-down: banker at (j, c) answers
        v_cover = np.stack([np.broadcast_to(self.cover_call, (self.n, 3)),
                            np.full((self.n, 3), self.cover_concede)], axis=-1)   # (i, r, a)
        acc_val = acc[:, 0, None] * self.attack_drink + acc[:, 1, None] * self.attack_compare[None, :]   # (i, r)
        v_attack = np.stack([acc_val, np.full((self.n, 3), self.attack_refused)], axis=-1)
        deny_val = deny[:, 0, None] * self.push_drink + deny[:, 1, None] * self.push_compare[None, :]
        v_push = np.stack([np.zeros((self.n, 3)), deny_val], axis=-1)       # allow, deny
        vs = (v_cover, v_attack, v_push)
        answer_cf = np.stack([np.einsum("ijr,i,ira->ja", pi, call[:, c + 1], vs[c]) for c in range(3)], axis=1)
        # player's value of each call at (i, j, r)
        u = np.zeros((*pi.shape, 4))
        u[..., 0] = open_val[:, None, :]
        for c in range(3):
            u[..., c + 1] = np.einsum("ja,ira->ijr", ans[:, c, :], vs[c])
        call_cf = np.einsum("ijr,ijrc->ic", pi, u)
        # responses after an accepted attack / a denied push
        acc_reach = np.einsum("ijr,j->ir", pi, ans[:, 1, 0])
        acc_cf = np.stack([acc_reach.sum(1) * self.attack_drink, acc_reach @ self.attack_compare], axis=-1)
        deny_reach = np.einsum("ijr,j->ir", pi, ans[:, 2, 1])
        deny_cf = np.stack([deny_reach.sum(1) * self.push_drink, deny_reach @ self.push_compare], axis=-1)
        return {"call": call_cf, "kill": kill_cf, "doubt": doubt_cf, "answer": answer_cf,
                "acc_resp": acc_cf, "deny_resp": deny_cf, "value": np.einsum("ic,ic->", call, call_cf)}

    PLAYER = ("call", "doubt", "acc_resp", "deny_resp")
    BANKER = ("kill", "answer")

    def solve(self, iterations: int, tremble: float) -> dict[str, np.ndarray]:
        """CFR+ with alternating updates.  Each side learns against the other's mix trembling (``tremble`` of
        every set spread evenly), so that where an action is indifferent at the equilibrium it picks the one that
        does better against mistakes — e.g. always killing an open hand it beats (a believer drinks one), which
        matters against a player who deviates to one fixed rule."""
        for it in range(1, iterations + 1):
            for side in (self.PLAYER, self.BANKER):      # alternating updates
                st = {k: self._match(r) for k, r in self.regret.items()}
                shaken = {k: v if k in side else (1 - tremble) * v + tremble / v.shape[-1] for k, v in st.items()}
                cf = self.values(shaken)
                own = self._own_reach(st)
                for k in side:
                    v = cf[k]
                    node = (v * st[k]).sum(axis=-1, keepdims=True)
                    gain = v - node if side is self.PLAYER else node - v
                    self.regret[k] = np.maximum(self.regret[k] + gain, 0)
                    self.total[k] += it * own[k] * st[k]
        return self.average()

    def _own_reach(self, st: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """How often a side's own play reaches each set (the average's weights); a small floor keeps a set the
        mix never reaches (a response after a call it never makes) at its counterfactual best, which a
        deviating caller still gets."""
        one = np.ones((self.n, 1))
        call = st["call"] + 1e-4
        return {"call": one, "kill": np.ones((self.n, 1, 1)), "answer": np.ones((self.n, 1, 1)),
                "doubt": call[:, 0, None, None], "acc_resp": call[:, 2, None], "deny_resp": call[:, 3, None]}

    def average(self) -> dict[str, np.ndarray]:
        out = {}
        for k, t in self.total.items():
            s = t.sum(axis=-1, keepdims=True)
            out[k] = np.where(s > 0, t / np.where(s > 0, s, 1), 1.0 / t.shape[-1])
        return out

    def best_response_gain(self, st: dict[str, np.ndarray]) -> tuple[float, float, float]:
        """(the mix's value, what a best-responding player gains over it, what a best-responding banker
        gains), per player-round; by backward induction over each side's information sets."""
        value = float(self.values(st)["value"])
        br = dict(st)
        for k in ("acc_resp", "deny_resp", "doubt", "call"):   # player: deepest sets first
            v = self.values(br)[k]
            br[k] = np.eye(v.shape[-1])[v.argmax(axis=-1)]
        player_br = float(self.values(br)["value"])
        br = dict(st)
        for k in ("kill", "answer"):
            v = self.values(br)[k]
            br[k] = np.eye(v.shape[-1])[v.argmin(axis=-1)]
        banker_br = float(self.values(br)["value"])
        return value, player_br - value, value - banker_br


def _table(name: str, rows: Sequence[object], doc: str) -> list[str]:
    """``NAME = [...]`` with one row a line (ruff's line length) and its docstring."""
    return [f"{name} = [", *(f"    {row!r}," for row in rows), "]", f'"""{doc}"""']


def _rows(a: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 4) for x in row] for row in a.reshape(a.shape[0], -1)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=6_000_000)
    ap.add_argument("--iterations", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tremble", type=float, default=0.01)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    heads, tails, masks = plain_hands()
    head_edges, tail_edges = edges(heads, tails)
    bucket = buckets(heads, tails, head_edges, tail_edges)
    n = (len(head_edges) + 1) * TAIL_BINS
    counts = outcome_counts(heads, tails, masks, bucket, n, args.pairs, args.seed)
    game = Abstract(counts / counts.sum())
    avg = game.solve(args.iterations, args.tremble)
    value, p_gain, b_gain = game.best_response_gain(avg)
    print(f"{n} buckets, {args.pairs:,} pairs, {args.iterations} iterations: value {value:+.4f} per player-round; "
          f"best-response gain: player {p_gain:.5f}, banker {b_gain:.5f}")
    bucket_value = game.values(avg)["call"] / np.maximum(game.pi.sum(axis=(1, 2))[:, None], 1e-12)
    for name, k in (("call", "call"), ("open answer", "kill"), ("open response", "doubt"), ("answer", "answer")):
        print(name, np.round(avg[k].reshape(n, -1)[::TAIL_BINS], 2).tolist())
    if not args.write:
        return
    lines = [
        '"""Generated by research/shuiyu_equilibrium.py (do not edit): OddsBot\'s equilibrium mix over hand buckets.',
        "",
        f"{n} buckets ({HEAD_BINS} head bands x {TAIL_BINS} tail bands), {args.pairs:,} random hand pairs,",
        f"{args.iterations} CFR+ iterations (tremble {args.tremble}, seed {args.seed}).  The mix's value: "
        f"{value:+.4f} drinks per",
        f"player-round to the player; in the bucket game a best-responding player gains {p_gain:.5f}, a",
        f"best-responding banker {b_gain:.5f}.",
        '"""',
        "",
        *_table("HEAD_EDGES", head_edges, "A hand with head key h is in head band ``bisect_right(HEAD_EDGES, h)``."),
        *_table("TAIL_EDGES", tail_edges, "Per head band: its tail band is ``bisect_right(TAIL_EDGES[band], t)``; "
                "the bucket is band * TAIL_BINS + that."),
        f"TAIL_BINS = {TAIL_BINS}",
        *_table("CALL", _rows(avg["call"]), "Per player bucket: P(open), P(cover), P(attack), P(push)."),
        *_table("KILL", _rows(avg["kill"][..., 0]), "Per player bucket (an open hand, which the banker sees): "
                "P(kill) when the banker wins both / walks / loses both."),
        *_table("DOUBT", _rows(avg["doubt"][..., 1]), "Per player bucket: P(doubt) after a kill, after a walk."),
        *_table("ANSWER", _rows(avg["answer"][..., 0]),
                "Per banker bucket: P(call) a covered hand, P(accept) an attack, P(allow) a push."),
        *_table("COMPARE", _rows(np.stack([avg["acc_resp"][:, 1], avg["deny_resp"][:, 1]], axis=1)),
                "Per player bucket: P(compare) after an accepted attack, after a denied push."),
        *_table("VALUE", [round(float(v), 4) for v in bucket_value.max(axis=1)],
                "Per player bucket: the best call's value against the banker's mix (the bar a 强奸 must clear)."),
        "",
    ]
    OUT.write_text("\n".join(lines))
    print("wrote", OUT)


if __name__ == "__main__":
    main()
