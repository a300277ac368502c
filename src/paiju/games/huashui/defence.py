"""What the efficient bot reads from the table to defend: the chance a tile deals in, and the chance to win.

Both are small logistic models over what a seat's view shows, fitted offline on self-play read omnisciently
(``bench/fit_huashui_defence.py`` prints the coefficients below; docs/bots/huashui.md gives the run).  The bot
weighs them in points: a discard's chance to win the hand times what a win is worth, against each opponent's
chance to win on that tile times what it would cost (the discarder alone pays: 5, or 15 for a 对胡).

Why these features, in a game without chow: waits are pungs and pairs (a held pair or single of the tile)
and runs the waiter completes itself (it holds both neighbours), so a tile is dangerous in proportion to its
unseen copies (0 unseen: nobody holds one to pair with) and to the run shapes around it that are still live
(every copy of a neighbour seen kills them, the "wall" read).  A tile thrown by anyone after the opponent's
last discard is safe against it by the pass rule (it either could not win on it, or passed and is locked on
that tile until its turn), and one it threw itself rarely waits.  How ready it is shows in its melds (two
pungs laid down leave a seven-tile hand), how long it has played, and middle tiles thrown late.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from paiju.core.game import View

from .tiles import NUM_KINDS, TILE_TEXT

TILE_OF = {text: t for t, text in enumerate(TILE_TEXT)}
"""A tile's kind from its text in a view."""
_RUN_SHAPES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((t + a, t + b) for a, b in ((-2, -1), (-1, 1), (1, 2))
          if t % 9 + a >= 0 and t % 9 + b <= 8) if t < 27 else ()
    for t in range(NUM_KINDS)
)
"""Per number kind, the neighbour pairs a run wait on it needs (both held by the waiter)."""

READY_NAMES = ("bias", "one meld", "two melds", "three melds", "turns/10", "(turns/10)^2", "late middle discards",
               "wall/83")
TILE_NAMES = ("thrown by it", "thrown since its turn", "honour", "terminal", "2 or 8", "0 unseen", "1 unseen",
              "2 unseen", "live run shapes/3", "honour, 2+ unseen", "it threw a neighbour", "it threw one two away",
              "it threw its suji (±3)", "its discards in the suit (share)")
DEAL_IN_COEF: tuple[float, ...] = (
    -5.737, 0.428, 0.918, 1.354, 5.177, -1.934, 0.693, -3.673,
    -3.177, -9.669, -2.490, -0.321, 0.026, -1.055, -0.337, -0.248,
    0.900, 2.085, -0.270, -0.211, -0.532, 0.225,
)
"""Log-odds that a tile is one of an opponent's waits: the readiness part (:data:`READY_NAMES`) plus the
tile's part (:data:`TILE_NAMES`).  Fitted by ``bench/fit_huashui_defence.py``."""
DUI_PAY = 6.15
"""Expected payment when dealing into a concealed hand (5, or 15 when it is a 对胡), fitted likewise."""

WIN_NAMES = (*(f"{what}, shanten {band}" for band in ("0", "1", "2", "3+")
                for what in ("bias", "log(1+pair outs)", "log(1+other outs)", "wall/83")),
             "own melds", "opponents' melds/4")
WIN_COEF: tuple[float, ...] = (
    -2.629, 0.975, 0.904, 2.280,
    -4.361, 0.478, 0.425, 3.073,
    -5.589, 0.389, 0.203, 4.090,
    -6.214, 0.367, 0.068, 4.460,
    -0.058, -0.660,
)
"""Log-odds of winning the hand after a discard that leaves this shanten and these outs."""


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -30.0 else 0.0


def ready_features(view: View, o: int) -> list[float]:
    """How ready opponent ``o`` looks (:data:`READY_NAMES`)."""
    melds = len(view["melds"][o])
    river = view["discards"][o]
    turns = (len(river) + melds) / 10.0
    late = sum(1 for x in river[-2:] if x[1] != "z" and "3" <= x[0] <= "7") / 2.0
    return [1.0, float(melds == 1), float(melds == 2), float(melds >= 3), turns, turns * turns, late,
            view["wall"] / 83.0]


def fresh_tiles(view: View, me: int, o: int) -> set[int]:
    """Kinds thrown by the seats after ``o`` in play order up to ``me``: discarded since ``o``'s last turn, so
    ``o`` could not win on them or is locked on them (the pass rule), unless a 碰 broke the order."""
    fresh: set[int] = set()
    x = (o + 1) % 4
    while x != me:
        river = view["discards"][x]
        if river:
            fresh.add(TILE_OF[river[-1]])
        x = (x + 1) % 4
    return fresh


def tile_features(t: int, unseen: Sequence[int], thrown: set[int], fresh: bool,
                  suit_share: Sequence[float]) -> list[float]:
    """The tile's part (:data:`TILE_NAMES`); ``unseen`` counts copies the reader cannot see, ``thrown`` the
    kinds the opponent threw, ``suit_share`` its discards per suit as a share of all of them.  An efficient
    player throws what does not connect to its hand, so kinds near its discards are less often waits."""
    u = unseen[t]
    honour = t >= 27
    rank = t % 9
    live = sum(1 for a, b in _RUN_SHAPES[t] if unseen[a] and unseen[b])
    near = two = suji = 0.0
    if not honour:
        near = float((rank > 0 and t - 1 in thrown) or (rank < 8 and t + 1 in thrown))
        two = float((rank > 1 and t - 2 in thrown) or (rank < 7 and t + 2 in thrown))
        suji = float((rank > 2 and t - 3 in thrown) or (rank < 6 and t + 3 in thrown))
    return [float(t in thrown), float(fresh), float(honour), float(not honour and rank in (0, 8)),
            float(not honour and rank in (1, 7)), float(u == 0), float(u == 1), float(u == 2), live / 3.0,
            float(honour and u >= 2), near, two, suji, suit_share[t // 9]]


def suit_shares(river: Sequence[str]) -> list[float]:
    """The opponent's discards per suit (m, p, s, honours) as shares of all its discards."""
    shares = [0.0, 0.0, 0.0, 0.0]
    for x in river:
        shares["mpsz".index(x[1])] += 1.0
    n = len(river)
    return [c / n for c in shares] if n else shares


def deal_in(view: View, me: int, kinds: Sequence[int], unseen: Sequence[int]) -> list[list[float]]:
    """Per opponent (seat order, ``me`` included as zeros), the chance each of ``kinds`` is one of its waits."""
    nr = len(READY_NAMES)
    coef = DEAL_IN_COEF
    out: list[list[float]] = []
    for o in range(4):
        row = [0.0] * NUM_KINDS
        out.append(row)
        if o == me:
            continue
        f = ready_features(view, o)
        a = sum(c * x for c, x in zip(coef[:nr], f, strict=True))
        thrown = {TILE_OF[x] for x in view["discards"][o]}
        fresh = fresh_tiles(view, me, o)
        shares = suit_shares(view["discards"][o])
        for t in kinds:
            g = tile_features(t, unseen, thrown, t in fresh, shares)
            row[t] = _sigmoid(a + sum(c * x for c, x in zip(coef[nr:], g, strict=True)))
    return out


def win_features(shanten: int, pair_outs: int, other_outs: int, wall: int, own_melds: int,
                 opponent_melds: int) -> list[float]:
    """The discard's outlook (:data:`WIN_NAMES`)."""
    band = min(shanten, 3)
    f = [0.0] * 18
    i = band * 4
    f[i], f[i + 1], f[i + 2], f[i + 3] = 1.0, math.log1p(pair_outs), math.log1p(other_outs), wall / 83.0
    f[16], f[17] = float(own_melds), opponent_melds / 4.0
    return f


def win_chance(shanten: int, pair_outs: int, other_outs: int, wall: int, own_melds: int,
               opponent_melds: int) -> float:
    f = win_features(shanten, pair_outs, other_outs, wall, own_melds, opponent_melds)
    return _sigmoid(sum(c * x for c, x in zip(WIN_COEF, f, strict=True) if x))


__all__ = ["DEAL_IN_COEF", "DUI_PAY", "READY_NAMES", "TILE_NAMES", "WIN_COEF", "WIN_NAMES", "deal_in",
           "fresh_tiles", "ready_features", "suit_shares", "tile_features", "win_chance", "win_features"]
