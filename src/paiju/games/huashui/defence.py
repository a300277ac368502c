"""What the efficient bot reads from the table to defend: the chance a tile deals in, and the chance to win.

Both are small logistic models over what a seat's view shows, fitted offline on self-play read omnisciently
(``research/fit_huashui_defence.py`` prints the coefficients below; docs/bots/huashui.md gives the run).  The bot
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
from collections.abc import Callable, Sequence

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
tile's part (:data:`TILE_NAMES`).  Fitted by ``research/fit_huashui_defence.py``."""
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

    def read(o: int, row: list[float]) -> None:
        f = ready_features(view, o)
        a = sum(c * x for c, x in zip(coef[:nr], f, strict=True))
        thrown = {TILE_OF[x] for x in view["discards"][o]}
        fresh = fresh_tiles(view, me, o)
        shares = suit_shares(view["discards"][o])
        for t in kinds:
            g = tile_features(t, unseen, thrown, t in fresh, shares)
            row[t] = _sigmoid(a + sum(c * x for c, x in zip(coef[nr:], g, strict=True)))
    return _by_opponent(me, read)


def _by_opponent(me: int, read: Callable[[int, list[float]], None]) -> list[list[float]]:
    """Per seat in seat order (``me`` as zeros), a row of chances per kind, filled by ``read(opponent, row)``:
    the one shape every read of waits returns."""
    out: list[list[float]] = []
    for o in range(4):
        row = [0.0] * NUM_KINDS
        out.append(row)
        if o != me:
            read(o, row)
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



# ---- the read of waits in two parts (issue 16): is the seat ready, and which tile does a ready seat wait on ----
READ_READY_NAMES = (*READY_NAMES, "middle share of its last 4 discards", "honours/terminals in its last 3",
                    "concealed, turns/10")
READ_TILE_NAMES = (*TILE_NAMES, "thrown by anyone since its 2nd last discard", "since its 3rd last",
                   "it threw it in its last 3", "it threw a neighbour in its last 3",
                   "its discards within ±2 (count/3)", "its last 5 discards in the suit (share)",
                   "live run shapes, weighted by copies/9", "one meld", "two melds", "three melds",
                   "honour, 3 unseen", "number, 3 unseen")


def since_sets(view: View, me: int, o: int, depth: int = 3) -> list[set[int]]:
    """Kinds thrown by the other seats after ``o``'s k-th last discard (k = 0, 1, …, ``depth`` − 1), read from
    the rivers in play order: a seat after ``o`` and before ``me`` has thrown its last k + 1 tiles since, the
    others (``me`` included) their last k.  A 碰 breaks the order; the read is a guess there.  A speed player
    wins whenever it can, so its hand of the last go-around or two did not wait on these (a ready hand keeps
    its wait for several turns when the draws do not help)."""
    out: list[set[int]] = []
    got: set[int] = set()
    d_me = (me - o) % 4
    for k in range(depth):
        for d in (1, 2, 3):
            y = (o + d) % 4
            river = view["discards"][y]
            j = k if d < d_me else k - 1
            if 0 <= j < len(river):
                got.add(TILE_OF[river[-1 - j]])
        out.append(set(got))
    return out


def read_ready_features(view: View, o: int) -> list[float]:
    """How ready opponent ``o`` looks (:data:`READ_READY_NAMES`)."""
    f = ready_features(view, o)
    river = view["discards"][o]
    last4 = river[-4:]
    middle = sum(1 for x in last4 if x[1] != "z" and "3" <= x[0] <= "7") / len(last4) if last4 else 0.0
    edge = sum(1 for x in river[-3:] if x[1] == "z" or x[0] in "19") / 3.0
    concealed = float(not view["melds"][o])
    return [*f, middle, edge, concealed * f[4]]


def read_features(view: View, me: int, o: int, kinds: Sequence[int], unseen: Sequence[int]
                  ) -> tuple[list[float], list[list[float]]]:
    """Opponent ``o``'s ready features and, per kind of ``kinds``, the tile features (:data:`READ_TILE_NAMES`)."""
    river = view["discards"][o]
    thrown = {TILE_OF[x] for x in river}
    recent = {TILE_OF[x] for x in river[-3:]}
    own = [TILE_OF[x] for x in river]
    shares = suit_shares(river)
    last5 = suit_shares(river[-5:])
    since = since_sets(view, me, o)
    melds = len(view["melds"][o])
    m1, m2, m3 = float(melds == 1), float(melds == 2), float(melds >= 3)
    rows = []
    for t in kinds:
        g = tile_features(t, unseen, thrown, t in since[0], shares)
        honour = t >= 27
        s1 = float(t in since[1] and t not in since[0])
        s2 = float(t in since[2] and t not in since[1])
        near_recent = 0.0
        within = 0
        weighted = 0.0
        if not honour:
            rank = t % 9
            near_recent = float((rank > 0 and t - 1 in recent) or (rank < 8 and t + 1 in recent))
            within = sum(1 for x in own if x != t and x // 9 == t // 9 and abs(x - t) <= 2)
            weighted = sum(unseen[a] * unseen[b] for a, b in _RUN_SHAPES[t]) / 9.0
        u3 = unseen[t] >= 3
        rows.append([*g, s1, s2, float(t in recent), near_recent, within / 3.0, last5[t // 9], weighted / 3.0,
                     m1, m2, m3, float(honour and u3), float(not honour and u3)])
    return read_ready_features(view, o), rows


READ_READY_COEF: tuple[float, ...] = (
    -1.706, 0.867, 1.423, 2.945, 4.224, -1.803, 0.018, -3.893, 0.956, -0.567, 0.248,
)
"""Log-odds that an opponent is ready (:data:`READ_READY_NAMES`).  Fitted by ``research/huashui_read.py`` on
800 games from seed 100000 (100,521 (decision, opponent) rows, 14,366 of them ready)."""
READ_TILE_COEF: tuple[float, ...] = (
    -2.701, -5.178, -3.322, -0.791, -0.174, -3.138, -2.340, -2.266, 0.313, 2.282, -0.163, -0.022, -0.403, -1.340,
    -1.364, -0.865, -1.626, 0.215, -0.303, 0.592, 0.121, 0.077, 0.257, 0.341, -1.945, -2.261,
)
"""Log-odds that a tile is one of a ready opponent's waits (:data:`READ_TILE_NAMES`), fitted on the tiles of
ready seats only (the same run)."""


READ_CROSS = (2, 3, 4)
"""Ready features (two melds, three melds, turns/10) whose products with the tile features (all but the first)
the crossed tile model adds: what a tile's features say depends on how many tiles the seat still hides."""
READ_CROSS_COEF: tuple[float, ...] = (
    -2.818, -2.308, -2.070, -0.866, -0.361, -3.417, -2.643, -2.751, -0.310, 0.582, -0.958, -0.334, -0.867, -0.467,
    0.031, 0.279, -0.918, 0.294, -0.464, 0.729, 0.322, -0.148, -0.234, -0.042, -2.046, -2.795, -0.286, -1.220,
    0.037, -0.166, -0.187, -0.336, -0.376, 0.060, -0.934, -0.425, -0.132, -0.142, 0.910, 0.484, 0.352, -0.259,
    0.305, 0.388, -0.899, 0.361, 0.000, -0.234, 0.000, 0.930, -0.265, -0.034, -0.727, 0.210, 0.642, -0.125, -0.019,
    0.284, -0.542, -0.710, 0.196, 0.701, -0.045, -0.342, -0.506, 1.520, -0.183, -0.870, 0.328, -1.870, 0.591, 0.000,
    0.000, -0.042, -0.342, 0.159, -1.669, -0.792, 0.213, 0.255, 0.111, 0.092, 0.313, 0.502, 1.392, 0.730, 0.294,
    0.207, 0.223, -1.401, -1.146, -0.474, 0.106, -0.393, -0.208, 0.182, 0.088, 0.432, -0.157, -0.008, 0.449,
)
"""The crossed tile model (:func:`cross_row` order), fitted by ``research/huashui_read.py fit --cross`` on the
same run (ridge 1.0)."""


def cross_row(g: Sequence[float], r: Sequence[float]) -> list[float]:
    """The tile features ``g`` followed by their products (all but the first) with each of :data:`READ_CROSS`."""
    out = list(g)
    for k in READ_CROSS:
        x = r[k]
        out.extend(v * x for v in g[1:])
    return out


def ready_chance(r: Sequence[float]) -> float:
    """P(the opponent is ready), from its :func:`read_ready_features` ``r``: the first part of the split read."""
    return _sigmoid(sum(c * x for c, x in zip(READ_READY_COEF, r, strict=True)))


def wait_chance(g: Sequence[float], r: Sequence[float], cross: bool = False) -> float:
    """P(the tile is a wait | the opponent is ready), from its tile features ``g`` (``cross``: with
    :func:`cross_row`'s products with the ready features ``r``): the second part."""
    coef = READ_CROSS_COEF if cross else READ_TILE_COEF
    return _sigmoid(sum(c * x for c, x in zip(coef, cross_row(g, r) if cross else g, strict=True) if x))


def deal_in_read(view: View, me: int, kinds: Sequence[int], unseen: Sequence[int],
                 cross: bool = False) -> list[list[float]]:
    """Like :func:`deal_in`, as two parts: P(the opponent is ready) × P(the tile is a wait | it is ready)
    (``cross``: the tile part with :func:`cross_row`'s products)."""

    def read(o: int, row: list[float]) -> None:
        r, per_tile = read_features(view, me, o, kinds, unseen)
        ready = ready_chance(r)
        for t, g in zip(kinds, per_tile, strict=True):
            row[t] = ready * wait_chance(g, r, cross)
    return _by_opponent(me, read)


__all__ = ["DEAL_IN_COEF", "DUI_PAY", "READY_NAMES", "READ_CROSS", "READ_CROSS_COEF", "READ_READY_COEF",
           "READ_READY_NAMES", "READ_TILE_COEF", "READ_TILE_NAMES", "TILE_NAMES", "WIN_COEF", "WIN_NAMES", "cross_row",
           "deal_in", "deal_in_read", "fresh_tiles", "read_features", "read_ready_features", "ready_chance",
           "ready_features", "since_sets", "suit_shares", "tile_features", "wait_chance", "win_chance", "win_features"]
