"""Per-suit keys and the tables built from them once at import.

A suit's tiles are summarised by one int, ``key = sum(count[rank] * 5**rank)``, kept up to date as tiles
come and go (``key += POW[tile]``).  A hand is then four keys (万 筒 条 字), and

- a standard win (four sets and a pair, honours never in runs) is four dict look-ups: every suit's key must
  be a "sets only" pattern (code 0) or a "sets and the pair" pattern (code 1), with exactly one code 1;
- the 对胡 family (every kind held 0, 2 or 4 times) is four set look-ups;
- shanten combines each suit's Pareto-best (sets, partial sets, pair) counts, computed once per key and cached.
"""

from __future__ import annotations

from .tiles import NUM_KINDS

POW: tuple[int, ...] = tuple(5 ** (t % 9) for t in range(NUM_KINDS))
"""What one tile adds to its suit's key."""
SUIT_OF: tuple[int, ...] = tuple(t // 9 for t in range(NUM_KINDS))
SUIT_SIZE = (9, 9, 9, 7)


def key_of(counts: list[int], suit: int) -> int:
    base = suit * 9
    return sum(counts[base + r] * 5**r for r in range(SUIT_SIZE[suit]))


def keys_of(c: list[int]) -> list[int]:
    """The four suit keys of a 34-long count vector (written out: this runs once per check from counts)."""
    return [
        c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (c[5] + 5 * (c[6] + 5 * (c[7] + 5 * c[8]))))))),
        c[9] + 5 * (c[10] + 5 * (c[11] + 5 * (c[12] + 5 * (c[13] + 5 * (c[14] + 5 * (c[15] + 5 * (c[16]
                                                                                       + 5 * c[17]))))))),
        c[18] + 5 * (c[19] + 5 * (c[20] + 5 * (c[21] + 5 * (c[22] + 5 * (c[23] + 5 * (c[24] + 5 * (c[25]
                                                                                        + 5 * c[26]))))))),
        c[27] + 5 * (c[28] + 5 * (c[29] + 5 * (c[30] + 5 * (c[31] + 5 * (c[32] + 5 * c[33]))))),
    ]


def decode(key: int, size: int) -> list[int]:
    out = []
    for _ in range(size):
        key, c = divmod(key, 5)
        out.append(c)
    return out


def _encode(counts: tuple[int, ...]) -> int:
    return sum(c * 5**r for r, c in enumerate(counts))


def _win_codes(size: int, runs: bool) -> dict[int, int]:
    """key → 0 for sets only (0..4 sets), 1 for sets plus one pair; counts never above 4."""
    shapes: list[tuple[int, ...]] = []
    for r in range(size):
        shapes.append(tuple(3 if i == r else 0 for i in range(size)))
    if runs:
        for r in range(size - 2):
            shapes.append(tuple(1 if r <= i <= r + 2 else 0 for i in range(size)))
    frontier = {tuple([0] * size)}
    no_pair: set[tuple[int, ...]] = set()
    for _ in range(5):
        no_pair |= frontier
        nxt = set()
        for c in frontier:
            for s in shapes:
                n = tuple(a + b for a, b in zip(c, s, strict=True))
                if max(n) <= 4:
                    nxt.add(n)
        frontier = nxt
    codes = {_encode(c): 0 for c in no_pair}
    for c in no_pair:
        for r in range(size):
            if c[r] <= 2:
                codes[_encode(tuple(v + 2 if i == r else v for i, v in enumerate(c)))] = 1
    return codes


def _even_keys(size: int) -> frozenset[int]:
    keys = {0}
    for r in range(size):
        keys = {k + m * 2 * 5**r for k in keys for m in range(3)}
    return frozenset(keys)


WIN_CODE: tuple[dict[int, int], ...] = (*([_win_codes(9, True)] * 3), _win_codes(7, False))
"""Per suit: key → 0 (sets only) or 1 (sets and the pair).  The three number suits share one dict."""
EVEN: tuple[frozenset[int], ...] = (*([_even_keys(9)] * 3), _even_keys(7))
"""Per suit: keys where every kind is held 0, 2 or 4 times (the 对胡 family)."""


def is_standard_keys(keys: list[int]) -> bool:
    """Four sets and a pair in the concealed part (melds already removed)."""
    a = WIN_CODE[0].get(keys[0])
    if a is None:
        return False
    b = WIN_CODE[1].get(keys[1])
    if b is None:
        return False
    c = WIN_CODE[2].get(keys[2])
    if c is None:
        return False
    d = WIN_CODE[3].get(keys[3])
    if d is None:
        return False
    return a + b + c + d == 1


def is_even_keys(keys: list[int]) -> bool:
    return keys[0] in EVEN[0] and keys[1] in EVEN[1] and keys[2] in EVEN[2] and keys[3] in EVEN[3]


# ---- shanten ------------------------------------------------------------------------------------------
_SHANTEN_CAP = 200_000
"""Bound on the whole-hand shanten cache (cleared when full): some 40 MB at most."""
_REST_CAP = 20_000
"""Bound on the per-suit look-up tables (each about 30 entries): some 40 MB at most."""

Block = tuple[int, int, int]
"""(complete sets, partial sets, pair taken) found in one suit."""

_BLOCKS: tuple[dict[int, tuple[Block, ...]], dict[int, tuple[Block, ...]]] = ({}, {})
_PAIRS: tuple[dict[int, int], dict[int, int]] = ({}, {})


def _pareto(found: set[Block]) -> tuple[Block, ...]:
    return tuple(sorted(b for b in found
                        if not any(o != b and o[0] >= b[0] and o[1] >= b[1] and o[2] >= b[2] for o in found)))


def _shift(sub: tuple[Block, ...], dm: int, dt: int, dp: int, out: set[Block]) -> None:
    for m, t, p in sub:
        if dp and p:
            continue
        m2 = m + dm
        if m2 > 4:
            m2 = 4
        t2 = t + dt
        if m2 + t2 > 4:
            t2 = 4 - m2
        out.add((m2, t2, p | dp))


def _search(key: int, honour: bool) -> tuple[Block, ...]:
    """Dynamic programme over the suit's lowest held rank: what to do with it (set, pair, partial, drop),
    the rest looked up again (and cached) by its own key."""
    if key == 0:
        return ((0, 0, 0),)
    i = 0
    k = key
    while k % 5 == 0:
        k //= 5
        i += 1
    c = k % 5
    nxt = k // 5
    c1 = nxt % 5
    c2 = (nxt // 5) % 5
    size = 7 if honour else 9
    runs = not honour
    p = POW[i]
    out: set[Block] = set()
    if c >= 3:
        _shift(blocks(key - 3 * p, honour), 1, 0, 0, out)
    if runs and i + 2 < size and c1 and c2:
        _shift(blocks(key - p - 5 * p - 25 * p, honour), 1, 0, 0, out)
    if c >= 2:
        sub = blocks(key - 2 * p, honour)
        _shift(sub, 0, 0, 1, out)
        _shift(sub, 0, 1, 0, out)
    if runs and i + 1 < size and c1:
        _shift(blocks(key - p - 5 * p, honour), 0, 1, 0, out)
    if runs and i + 2 < size and c2:
        _shift(blocks(key - p - 25 * p, honour), 0, 1, 0, out)
    _shift(blocks(key - p, honour), 0, 0, 0, out)
    return _pareto(out)


def blocks(key: int, honour: bool) -> tuple[Block, ...]:
    """Pareto-best (sets, partial sets, pair) splits of one suit, cached per key."""
    cache = _BLOCKS[honour]
    got = cache.get(key)
    if got is None:
        got = _search(key, honour)
        cache[key] = got
    return got


def pairs_in(key: int, honour: bool) -> int:
    """Pairs for the 对胡 count: a kind held 4 times is two pairs."""
    cache = _PAIRS[honour]
    got = cache.get(key)
    if got is None:
        got = sum(c // 2 for c in decode(key, 7 if honour else 9))
        cache[key] = got
    return got


def merge(a: tuple[Block, ...] | list[Block], b: tuple[Block, ...]) -> list[Block]:
    """All ways to put two suits' splits together (at most one pair, at most four sets+partials kept)."""
    out: set[Block] = set()
    for m1, t1, p1 in a:
        for m2, t2, p2 in b:
            if p1 and p2:
                continue
            m = m1 + m2
            if m > 4:
                continue
            t = t1 + t2
            if m + t > 4:
                t = 4 - m
            out.add((m, t, p1 | p2))
    return list(out)


def shanten_from(combined: list[Block], need: int) -> int:
    """Standard-shape shanten from combined splits when ``need`` sets are still to be made in hand."""
    best = 8
    for m, t, p in combined:
        if m > need:
            m = need
        if m + t > need:
            t = need - m
        s = 2 * need - 2 * m - t - p
        if s < best:
            best = s
    return best


_REST: dict[tuple[int, int, int, int, int], dict[Block, int]] = {}


def rest_table(keys: list[int], suit: int, need: int) -> dict[Block, int]:
    """Shanten for every split one suit could have, the other three suits held as they are.

    Trying many tiles of one suit then costs one or two dict look-ups each.  Cached by the other suits' keys."""
    others = [o for o in range(4) if o != suit]
    ck = (keys[others[0]], keys[others[1]], keys[others[2]], suit, need)
    got = _REST.get(ck)
    if got is not None:
        return got
    rest = merge(merge(blocks(keys[others[0]], others[0] == 3), blocks(keys[others[1]], others[1] == 3)),
                 blocks(keys[others[2]], others[2] == 3))
    got = {}
    for m2 in range(5):
        for t2 in range(5 - m2):
            for p2 in (0, 1):
                best = 8
                for m1, t1, p1 in rest:
                    if p1 and p2:
                        continue
                    m = m1 + m2
                    if m > need:
                        m = need
                    t = t1 + t2
                    if m + t > need:
                        t = need - m
                    v = 2 * need - 2 * m - t - p1 - p2
                    if v < best:
                        best = v
                got[(m2, t2, p2)] = best
    if len(_REST) >= _REST_CAP:
        _REST.clear()
    _REST[ck] = got
    return got


def standard_shanten(keys: list[int], melds: int) -> int:
    combined = merge(merge(merge(blocks(keys[0], False), blocks(keys[1], False)), blocks(keys[2], False)),
                     blocks(keys[3], True))
    return shanten_from(combined, 4 - melds)


def dui_shanten(keys: list[int]) -> int:
    """Shanten towards the 对胡 family (14 concealed tiles, seven pairs, a quad counting as two)."""
    pairs = pairs_in(keys[0], False) + pairs_in(keys[1], False) + pairs_in(keys[2], False) + pairs_in(keys[3], True)
    return 6 - min(pairs, 7)


_SHANTEN: dict[tuple[int, int, int, int, int], int] = {}


def shanten(keys: list[int], melds: int) -> int:
    """Tiles away from ready (0 = ready with 13, -1 = complete with 14), over both families of shapes.

    Cached per whole hand: successive decisions look at nearly the same hands again."""
    whole = (keys[0], keys[1], keys[2], keys[3], melds)
    got = _SHANTEN.get(whole)
    if got is not None:
        return got
    s = standard_shanten(keys, melds)
    if melds == 0:
        d = dui_shanten(keys)
        if d < s:
            s = d
    if len(_SHANTEN) >= _SHANTEN_CAP:
        _SHANTEN.clear()
    _SHANTEN[whole] = s
    return s


def suit_counts_ok(counts: list[int]) -> bool:
    return all(0 <= c <= 4 for c in counts)

