"""The rules API of 安乡偎麻雀: phrases, 息, win search.  Pure functions over count vectors; no state.

The groups and their 息 live in :mod:`.groups` (the 名堂 build on them too) and are offered here as well.

Terms (the page's): a 话 (phrase) is three of a kind or a run of three numbers within one size; a 麻雀 is the
pair; a winning hand is six 话 and a 麻雀 (20 cards) with at least 10 硬息.  Group kinds, as the rules API
takes them: ``peng`` (碰), ``wei`` (煨, face down), ``kan`` (砍: three dealt together, never split), ``chi``
(any run, claimed or held), ``pair`` (the 麻雀).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from .cards import NUM_KINDS, Card, counts_of, parse_card
from .config import WeimaqueConfig
from .groups import (
    GROUP_EN,
    GROUP_KINDS,
    GROUP_ZH,
    TRIPLE_KINDS,
    XI_PAIR,
    XI_PENG,
    XI_TUANYUAN,
    XI_WEI,
    XI_ZHUANWAN,
    Group,
    MingtangHit,
    Win,
    XiLine,
    hard_xi,
    is_phrase,
    is_run,
    normalise_groups,
    red_count,
    xi_lines,
)
from .mingtang import score_win

__all__ = [  # the groups and their 息 moved to .groups; this module still offers them
    "GROUP_EN", "GROUP_KINDS", "GROUP_ZH", "TRIPLE_KINDS", "XI_PAIR", "XI_PENG", "XI_TUANYUAN", "XI_WEI",
    "XI_ZHUANWAN", "Group", "MingtangHit", "Win", "XiLine", "best_win", "can_win_shape", "decompositions",
    "hard_xi", "is_complete", "is_phrase", "is_run", "next_dealer", "normalise_groups", "red_count", "win_points",
    "xi_lines",
]

# ---- structure: can these cards be six 话 and a 麻雀? ------------------------------------------------------
# A size's ten counts are one base-5 number, its key (``sum(count[k] * 5**k)``), so a whole hand is two keys
# and the question is two look-ups in a table built once: for every key that splits into 话 alone, bit 1; into
# 话 and one 麻雀, bit 2.  The table holds every split of up to six 话 (and a 麻雀), which covers every hand of
# at most 20 cards (the most a player's concealed cards and one more card come to).

POW: tuple[int, ...] = tuple(5 ** (k % 10) for k in range(NUM_KINDS))
"""What one card adds to its size's key."""
_SETS_ONLY, _WITH_PAIR = 1, 2
_MAX_SETS = 6
_forms: bytearray | None = None


def _forms_table() -> bytearray:
    """key -> bit 1 (splits into 话 alone) | bit 2 (into 话 and one 麻雀), for keys of up to six 话 (0.1 s, once)."""
    global _forms
    if _forms is None:
        table = bytearray(5 ** 10)
        # each multiset of 话 once: a 话 is added only after those of lower index (10 triples, then 8 runs)
        level: list[tuple[int, tuple[int, ...], int]] = [(0, (0,) * 10, 0)]
        found = list(level)
        for _ in range(_MAX_SETS):
            grown = []
            for key, c, lo in level:
                for i in range(lo, 18):
                    if i < 10:
                        if c[i] <= 1:
                            grown.append((key + 3 * 5 ** i, (*c[:i], c[i] + 3, *c[i + 1:]), i))
                    else:
                        r = i - 10
                        if c[r] <= 3 and c[r + 1] <= 3 and c[r + 2] <= 3:
                            grown.append((key + 31 * 5 ** r,  # a run adds 1 + 5 + 25 at its lowest number
                                          (*c[:r], c[r] + 1, c[r + 1] + 1, c[r + 2] + 1, *c[r + 3:]), i))
            level = grown
            found += grown
        for key, c, _ in found:
            table[key] |= _SETS_ONLY
            for r in range(10):
                if c[r] <= 2:
                    table[key + 2 * 5 ** r] |= _WITH_PAIR
        _forms = table
    return _forms


def suit_keys(c: Sequence[int]) -> tuple[int, int]:
    """The two size keys of a 20-count vector (written out: this runs on every win check)."""
    return (c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (c[5] + 5 * (c[6] + 5 * (c[7] + 5 * (
                c[8] + 5 * c[9])))))))),
            c[10] + 5 * (c[11] + 5 * (c[12] + 5 * (c[13] + 5 * (c[14] + 5 * (c[15] + 5 * (c[16] + 5 * (c[17] + 5 * (
                c[18] + 5 * c[19])))))))))


def _complete_keys(small: int, big: int) -> bool:
    forms = _forms if _forms is not None else _forms_table()
    a, b = forms[small], forms[big]
    return bool((a & _SETS_ONLY and b & _WITH_PAIR) or (a & _WITH_PAIR and b & _SETS_ONLY))


@lru_cache(maxsize=1 << 12)
def _suit_ok(suit: tuple[int, ...], pair: bool) -> bool:
    """The same question answered by search, for count vectors the table does not cover."""
    i = next((j for j, n in enumerate(suit) if n), -1)
    if i < 0:
        return not pair
    s = list(suit)
    if pair and s[i] >= 2:
        s[i] -= 2
        if _suit_ok(tuple(s), False):
            return True
        s[i] += 2
    if s[i] >= 3:
        s[i] -= 3
        if _suit_ok(tuple(s), pair):
            return True
        s[i] += 3
    if i <= 7 and s[i + 1] and s[i + 2]:
        s[i] -= 1
        s[i + 1] -= 1
        s[i + 2] -= 1
        if _suit_ok(tuple(s), pair):
            return True
    return False


def is_complete(counts: Sequence[int]) -> bool:
    """Do these cards form 话 plus exactly one 麻雀?  Two table look-ups (one per size).

    >>> is_complete(counts_of("一二三捌捌"))
    True
    """
    if sum(counts) <= 3 * _MAX_SETS + 2 and max(counts) <= 4:
        return _complete_keys(*suit_keys(counts))
    small, big = tuple(counts[:10]), tuple(counts[10:])
    return (_suit_ok(small, False) and _suit_ok(big, True)) or (_suit_ok(small, True) and _suit_ok(big, False))


def decompositions(counts: Sequence[int]) -> list[list[tuple[str, Card]]]:
    """Every split of ``counts`` into triples ('t', k), runs ('r', lowest k) and one pair ('p', k)."""
    out: list[list[tuple[str, Card]]] = []
    c = list(counts)
    acc: list[tuple[str, Card]] = []

    def go(i: int, pair_used: bool) -> None:
        while i < NUM_KINDS and c[i] == 0:
            i += 1
        if i == NUM_KINDS:
            if pair_used:
                out.append(list(acc))
            return
        if not pair_used and c[i] >= 2:
            c[i] -= 2
            acc.append(("p", i))
            go(i, True)
            acc.pop()
            c[i] += 2
        if c[i] >= 3:
            c[i] -= 3
            acc.append(("t", i))
            go(i, pair_used)
            acc.pop()
            c[i] += 3
        if i % 10 <= 7 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            acc.append(("r", i))
            go(i, pair_used)
            acc.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    go(0, False)
    return out


# ---- the best win ------------------------------------------------------------------------------------------

def best_win(
    hand: Iterable[Card | str] | Sequence[int],
    melds: Iterable[tuple[str, Iterable[Card | str]]],
    card: Card | str,
    *,
    own_draw: bool,
    last_card: bool = False,
    config: WeimaqueConfig | None = None,
    counts: bool = False,
) -> Win | None:
    """The best win for a player on a drawn card, or None if it does not win.

    ``hand``: the concealed cards before the draw (cards, or a 20-count vector with ``counts=True``);
    ``melds``: the groups already on the table (peng / wei / chi); ``card``: the drawn card; ``own_draw``:
    the player drew it (then two or three copies in hand are 煨'd with it first, as the rules force);
    ``last_card``: it was the last card of the stock (海底胡).  Every split of the cards and every group the
    winning card could sit in is scored; the one with the most total 息 (then the most 硬息) wins.  Splits
    below ``config.min_hard_xi`` 硬息 do not count.
    """
    cfg = config or WeimaqueConfig()
    hc: list[int] = [int(x) for x in hand] if counts else counts_of(hand)
    k = card if isinstance(card, int) else parse_card(card)
    fixed = normalise_groups(melds)
    hand_before = sum(hc)
    if own_draw and hc[k] >= 2:
        hc[k] -= 2
        if not is_complete(hc):
            return None
        fixed = (*fixed, ("wei", (k, k, k)))
        candidates = [(_groups_of(split), -1) for split in decompositions(hc)]
        win_at_fixed = len(fixed) - 1
    else:
        hc[k] += 1
        if not is_complete(hc):
            return None
        win_at_fixed = -1
        candidates = []
        for split in decompositions(hc):
            gs = _groups_of(split)
            for i, (kind, cs) in enumerate(gs):
                if k not in cs:
                    continue
                if kind == "kan":
                    if own_draw:
                        continue  # the drawer would have 煨'd it
                    gs2 = list(gs)
                    gs2[i] = ("peng", cs)  # completed by another player's draw: scores as 碰
                    candidates.append((gs2, i))
                else:
                    candidates.append((gs, i))
    best: Win | None = None
    for hand_groups, idx in candidates:
        groups = (*fixed, *hand_groups)
        win_index = win_at_fixed if idx < 0 else len(fixed) + idx
        win = score_win(groups, win_index, k, hand_before=hand_before, last_card=last_card,
                        own_draw=own_draw, config=cfg)
        if win is None:
            continue
        if best is None or (win.total, win.hard_xi) > (best.total, best.hard_xi):
            best = win
    return best


def _groups_of(split: list[tuple[str, Card]]) -> list[Group]:
    out: list[Group] = []
    for t, k in split:
        if t == "p":
            out.append(("pair", (k, k)))
        elif t == "t":
            out.append(("kan", (k, k, k)))
        else:
            out.append(("chi", (k, k + 1, k + 2)))
    return out


def can_win_shape(hand_counts: Sequence[int], card: Card, *, own_draw: bool) -> bool:
    """The cheap structural filter the engine runs before scoring: could ``card`` complete this hand?

    ``hand_counts`` is a real hand (at most 20 cards, at most four of a kind): two look-ups, no copy.
    """
    small, big = suit_keys(hand_counts)
    step = -2 * POW[card] if own_draw and hand_counts[card] >= 2 else POW[card]
    if card < 10:
        small += step
    else:
        big += step
    return _complete_keys(small, big)


# ---- settlement ----------------------------------------------------------------------------------------------

def win_points(winner: int, players: Iterable[int], total: int, payment: str = "each") -> list[float]:
    """Points per seat (four seats) when ``winner`` wins ``total`` 息: each other player pays the total
    (``payment="each"``) or half of it (``"split"``); the 守醒, not among ``players``, neither pays nor receives.

    >>> win_points(3, (0, 1, 3), 42)
    [-42.0, -42.0, 0.0, 84.0]
    >>> win_points(3, (0, 1, 3), 42, "split")
    [-21.0, -21.0, 0.0, 42.0]
    """
    payers = [s for s in players if s != winner]
    share = float(total) if payment == "each" else total / 2
    points = [0.0] * 4
    points[winner] = share * len(payers)
    for s in payers:
        points[s] = -share
    return points


def next_dealer(dealer: int, winner: int | None) -> int:
    """A dealer who wins deals again; otherwise (another's win, or 臭) the deal passes to the next seat round
    the table, and the 守醒 seat moves with it.

    >>> next_dealer(0, 0), next_dealer(0, 3), next_dealer(0, None)
    (0, 1, 1)
    """
    return dealer if winner == dealer else (dealer + 1) % 4
