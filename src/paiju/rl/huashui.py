"""滑水麻将 for RL: 104 action ids that are the engine's own action strings, a 442-float observation.

Seats in the observation are relative: 0 is the observer, 1 the next seat in play order, 2 across, 3 before.

The envs take the observation from :meth:`HuashuiSpec.observe`, which writes the same numbers as
:meth:`HuashuiSpec.encode` of the seat's view straight from the state fields that view is built from: small
ints into a byte per entry, made float32 by two byte-table look-ups, the ten non-counts packed in place.
Building the view's strings and display block only to read them back was most of a step.  It reads exactly
what ``game.view(seat)`` shows; the leak test resamples everything else on this path, and a test checks it
equals ``encode(game.view(seat))`` at every position of whole matches.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from math import tanh
from typing import Any, cast

import numpy as np

from paiju.core.game import Action, Game, Seat, View
from paiju.games.huashui.state import OVER, PUNG, ROB, TURN, HuashuiState
from paiju.games.huashui.tiles import NUM_KINDS, TILE_TEXT

from .core import Decision, Obs, OneStep, Part, Spec

ACTIONS: tuple[str, ...] = (
    "hu", "pass",
    *(f"discard {t}" for t in TILE_TEXT),
    *(f"kong {t}" for t in TILE_TEXT),
    *(f"pung {t}" for t in TILE_TEXT),
)
ACTION_ID: dict[str, int] = {a: i for i, a in enumerate(ACTIONS)}

K = NUM_KINDS
HAND, DRAWN = 0, K
SEAT_BASE, SEAT_WIDTH = 2 * K, 2 * K
"""Per relative seat: its melds' tiles (counts / 4), then its discards (counts / 4)."""
LAST = SEAT_BASE + 4 * SEAT_WIDTH
LAST_SEAT = LAST + K
CLAIM = LAST_SEAT + 4
"""[a claim of mine is open, it is a robbing window]"""
CLAIM_FROM = CLAIM + 2
LOCK = CLAIM_FROM + 4
LOCK_ALL = LOCK + K
DEALER = LOCK_ALL + 1
PHASE = DEALER + 4
CURRENT = PHASE + 4
GEN = CURRENT + 4
HAND_COUNTS = GEN + 1
"""From here on the numbers that are not counts, written in one slice: hand counts, wall, hand number, totals."""
WALL = HAND_COUNTS + 4
HAND_NO = WALL + 1
TOTALS = HAND_NO + 1
SIZE = TOTALS + 4

PHASES = ("turn", "claim", "rob", "over")

LAYOUT: list[Part] = [
    Part("hand", HAND, K, "own concealed tiles, count / 4 per kind (1m…9m 1p…9p 1s…9s 1z…7z)"),
    Part("drawn", DRAWN, K, "the tile just drawn, one-hot (own turn after a draw)"),
    Part("melds", SEAT_BASE, K, "per relative seat: tiles in its pungs and kongs, count / 4", SEAT_WIDTH, 4),
    Part("discards", SEAT_BASE + K, K, "per relative seat: its discards, count / 4", SEAT_WIDTH, 4),
    Part("last discard", LAST, K, "the latest discard, one-hot"),
    Part("last discarder", LAST_SEAT, 4, "its relative seat, one-hot"),
    Part("claim", CLAIM, 2, "a claim of mine is open; it is a robbing (抢杠) window"),
    Part("claim from", CLAIM_FROM, 4, "relative seat the claimed tile comes from"),
    Part("pass lock", LOCK, K, "tiles I may not win on until my next turn (special rule 4)"),
    Part("pass lock all", LOCK_ALL, 1, "locked for every tile (pass_lock = any_tile)"),
    Part("dealer", DEALER, 4, "relative seat of the dealer, one-hot"),
    Part("phase", PHASE, 4, "turn, claim, rob, over"),
    Part("current", CURRENT, 4, "relative seat whose turn it is (or who discarded), one-hot"),
    Part("follow the dealer", GEN, 1, "跟庄 still possible this hand"),
    Part("hand counts", HAND_COUNTS, 4, "tiles in each relative seat's hand / 14"),
    Part("wall", WALL, 1, "tiles left in the wall / 136"),
    Part("hand number", HAND_NO, 1, "hand / hands in the match"),
    Part("totals", TOTALS, 4, "match tally per relative seat, tanh(points / 20)"),
]

_SCALE = np.ones(SIZE, dtype=np.float32)
_SCALE[HAND:HAND + K] = 0.25
for _r in range(4):
    _SCALE[SEAT_BASE + SEAT_WIDTH * _r:SEAT_BASE + SEAT_WIDTH * (_r + 1)] = 0.25
_PHASE = {p: PHASE + i for i, p in enumerate(PHASES)}
_REL = [tuple((me + r) & 3 for r in range(4)) for me in range(4)]
_MELDS_AT = tuple(SEAT_BASE + SEAT_WIDTH * r for r in range(4))
_DISCARDS_AT = tuple(SEAT_BASE + SEAT_WIDTH * r + K for r in range(4))
_ZERO, _ZERO_F32 = bytes(SIZE), bytes(4 * SIZE)
ONE = 4
"""A one-hot entry in the byte per entry: every byte ``n`` becomes the float ``n / 4`` (counts are / 4)."""
_QUARTER = [struct.pack("<f", n / 4) if n <= 16 else bytes(4) for n in range(256)]
_BYTE2 = bytes(f[2] for f in _QUARTER)
_BYTE3 = bytes(f[3] for f in _QUARTER)
"""``n / 4`` for n ≤ 16 has two zero low bytes as a little-endian float32: a float32 observation is the zero
buffer with bytes 2 and 3 of every entry set from these tables (two ``translate`` calls, no numpy op)."""
if any(f[:2] != bytes(2) for f in _QUARTER):  # pragma: no cover - a property of IEEE-754 single floats
    raise AssertionError("n / 4 needs more than two bytes of float32")
_F32 = np.dtype("<f4")
_PACK_TAIL = struct.Struct(f"<{SIZE - HAND_COUNTS}f").pack_into
"""The ten entries from HAND_COUNTS on, written as floats in one call."""


def _at(offset: int) -> dict[str, int]:
    """Tile text -> its place in a 34-long part of the observation."""
    return {t: offset + i for i, t in enumerate(TILE_TEXT)}


_AT_HAND, _AT_DRAWN, _AT_LAST, _AT_LOCK = _at(HAND), _at(DRAWN), _at(LAST), _at(LOCK)
_AT_MELDS = [_at(SEAT_BASE + SEAT_WIDTH * r) for r in range(4)]
_AT_DISCARDS = [_at(SEAT_BASE + SEAT_WIDTH * r + K) for r in range(4)]


class HuashuiSpec(Spec):
    name = "huashui"
    num_actions = len(ACTIONS)
    obs_size = SIZE
    score_scale = 20.0
    layout = LAYOUT
    actions = ACTIONS

    def to_id(self, view: View, action: Action) -> int:
        return ACTION_ID[action]

    def to_action(self, view: View, aid: int) -> Action:
        return ACTIONS[aid]

    def decision(self, game: Game[Any], seat: Seat, view: View) -> Decision:
        return OneStep({ACTION_ID[a]: a for a in game.legal_actions(seat)})

    def decide(self, game: Game[Any], seat: Seat, view: Callable[[Seat], View]) -> Decision:
        """The legal actions are the ids' own strings: no view is needed to map them."""
        return OneStep({ACTION_ID[a]: a for a in game.legal_actions(seat)})

    def observe(self, game: Game[Any], seat: Seat, decision: Decision | None, view: Callable[[Seat], View]) -> Obs:
        """:meth:`encode` of ``view(seat)``, written from the fields that view shows (see the module's docstring).

        Each line says which entry of the view it stands for (``view.build`` in ``paiju.games.huashui``).
        """
        g, me = cast(HuashuiState, game), seat
        b = bytearray(_ZERO)
        counts = g.counts
        b[HAND:HAND + K] = bytes(counts[me])  # "hand": the viewer's own concealed tiles
        phase = g.phase
        discards, melds = g.discards, g.melds  # public
        for r in range(4):
            s = (me + r) & 3
            at = _DISCARDS_AT[r]
            for t in discards[s]:
                b[at + t] += 1
            at = _MELDS_AT[r]
            for kind, t, _src in melds[s]:  # "cards" of a meld: 3 for a pung, 4 for any kong (one face up)
                b[at + t] += 3 if kind == PUNG else 4
        if phase == TURN:
            cur = g.current  # "current"
            b[CURRENT + ((cur - me) & 3)] = ONE
            if me == cur and g.drew and g.last_drawn is not None:  # "drawn": only the drawer's
                b[DRAWN + g.last_drawn] = ONE
        elif phase != OVER:
            rel = (g.claim_from - me) & 3  # "current" in a window is the seat the tile came from
            b[CURRENT + rel] = ONE
            if g.claim.may_answer(me):  # "claim": only a seat that may still answer sees its window
                b[CLAIM] = ONE
                if phase == ROB:
                    b[CLAIM + 1] = ONE
                b[CLAIM_FROM + rel] = ONE
        last = g.last_discard  # "last_discard"
        if last is not None:
            b[LAST + last[1]] = ONE
            b[LAST_SEAT + ((last[0] - me) & 3)] = ONE
        if g.lock_all[me]:  # "locked": the viewer's own
            b[LOCK_ALL] = ONE
        else:
            for t in g.locks[me]:
                b[LOCK + t] = ONE
        b[DEALER + ((g.dealer - me) & 3)] = ONE
        b[_PHASE[phase]] = ONE
        if g.gen_active:  # "gen_zhuang"
            b[GEN] = ONE
        f = bytearray(_ZERO_F32)
        f[2::4] = b.translate(_BYTE2)
        f[3::4] = b.translate(_BYTE3)
        totals, scale = g._totals, self.score_scale  # "totals" (the view's are these as floats)
        s0, s1, s2, s3 = _REL[me]
        _PACK_TAIL(f, HAND_COUNTS * 4,  # "hand_counts", "wall", "hand_no" / "hands", "totals"
                   sum(counts[s0]) / 14.0, sum(counts[s1]) / 14.0, sum(counts[s2]) / 14.0, sum(counts[s3]) / 14.0,
                   (g.back - g.front) / 136.0, (g.hand_no if phase == OVER else g.hand_no + 1) / g.config.hands,
                   tanh(totals[s0] / scale), tanh(totals[s1] / scale), tanh(totals[s2] / scale),
                   tanh(totals[s3] / scale))
        out: Obs = np.frombuffer(f, _F32)
        return out

    def encode(self, view: View, decision: Decision | None) -> Obs:
        me: int = view["viewer"]
        idx: list[int] = list(map(_AT_HAND.__getitem__, view["hand"]))
        ap = idx.append
        drawn = view["drawn"]
        if drawn:
            ap(_AT_DRAWN[drawn])
        melds, discards = view["melds"], view["discards"]
        for r in range(4):
            s = (me + r) & 3
            d = discards[s]
            if d:
                idx += map(_AT_DISCARDS[r].__getitem__, d)
            ms = melds[s]
            if ms:
                at = _AT_MELDS[r]
                for m in ms:
                    idx += (at[m["tile"]],) * len(m["cards"])
        last = view["last_discard"]
        if last is not None:
            ap(_AT_LAST[last["tile"]])
            ap(LAST_SEAT + ((last["seat"] - me) & 3))
        claim = view["claim"]
        if claim is not None:
            ap(CLAIM)
            if claim["robbing"]:
                ap(CLAIM + 1)
            ap(CLAIM_FROM + ((claim["from"] - me) & 3))
        locked = view["locked"]
        if locked == "all":
            ap(LOCK_ALL)
        elif locked:
            idx += map(_AT_LOCK.__getitem__, locked)
        ap(DEALER + ((view["dealer"] - me) & 3))
        ap(_PHASE[view["phase"]])
        current = view["current"]
        if current is not None:
            ap(CURRENT + ((current - me) & 3))
        if view["gen_zhuang"]["active"]:
            ap(GEN)
        out = np.bincount(idx, minlength=SIZE).astype(np.float32)
        out *= _SCALE
        counts, totals = view["hand_counts"], view["totals"]
        rel = _REL[me]
        scale = self.score_scale
        out[HAND_COUNTS:] = [*(counts[s] / 14.0 for s in rel), view["wall"] / 136.0, view["hand_no"] / view["hands"],
                             *(tanh(totals[s] / scale) for s in rel)]
        return out
