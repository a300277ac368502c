"""The rules API of 安乡偎麻雀: phrases, 息, win search.  Pure functions over count vectors; no state.

Terms (the page's): a 话 (phrase) is three of a kind or a run of three numbers within one size; a 麻雀 is the
pair; a winning hand is six 话 and a 麻雀 (20 cards) with at least 10 硬息.  Group kinds, as the rules API
takes them: ``peng`` (碰), ``wei`` (煨, face down), ``kan`` (砍: three dealt together, never split), ``chi``
(any run, claimed or held), ``pair`` (the 麻雀).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .cards import IS_RED, NUM_KINDS, Card, alias, char, counts_of, parse_card, parse_cards
from .config import WeimaqueConfig

if TYPE_CHECKING:
    from .mingtang import MingtangHit

Group = tuple[str, tuple[Card, ...]]
"""(kind, cards): kind is one of peng, wei, kan, chi, pair."""

TRIPLE_KINDS = frozenset({"peng", "wei", "kan"})
GROUP_KINDS = frozenset({"peng", "wei", "kan", "chi", "pair"})
GROUP_ZH = {"peng": "碰", "wei": "煨", "kan": "砍", "chi": "吃", "pair": "麻雀"}
GROUP_EN = {"peng": "pung", "wei": "wei (face down)", "kan": "kan (dealt triple)", "chi": "run", "pair": "pair"}

# 息 per group kind: (black, red)
XI_PENG = (2, 3)
XI_WEI = (3, 4)
XI_PAIR = (0, 2)
XI_ZHUANWAN = (2, 3)
XI_TUANYUAN = (3, 4)


def _card_list(cards: Iterable[Card | str]) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return [c if isinstance(c, int) else parse_card(c) for c in cards]


def is_run(cards: Sequence[Card]) -> bool:
    """Three consecutive numbers of one size (一二三 … 八九十); never 二七十, never mixed sizes."""
    if len(cards) != 3:
        return False
    a, b, c = sorted(cards)
    return b == a + 1 and c == a + 2 and a // 10 == c // 10


def is_phrase(cards: Iterable[Card | str]) -> bool:
    """A 话: three of a kind, or a run of three within one size."""
    cs = _card_list(cards)
    if len(cs) != 3:
        return False
    return (cs[0] == cs[1] == cs[2]) or is_run(cs)


def red_count(cards: Iterable[Card | str]) -> int:
    return sum(1 for c in _card_list(cards) if IS_RED[c])


def _check_group(kind: str, cards: Sequence[Card]) -> None:
    if kind not in GROUP_KINDS:
        raise ValueError(f"unknown group kind {kind!r}; kinds are {sorted(GROUP_KINDS)}")
    if kind == "pair":
        if len(cards) != 2 or cards[0] != cards[1]:
            raise ValueError(f"a 麻雀 is two identical cards, not {[alias(c) for c in cards]}")
    elif kind == "chi":
        if not is_run(cards):
            raise ValueError(f"a run is three consecutive cards of one size, not {[alias(c) for c in cards]}")
    elif len(cards) != 3 or len(set(cards)) != 1:
        raise ValueError(f"a {kind} is three identical cards, not {[alias(c) for c in cards]}")


def normalise_groups(groups: Iterable[tuple[str, Iterable[Card | str]]]) -> tuple[Group, ...]:
    out: list[Group] = []
    for kind, cards in groups:
        cs = tuple(sorted(_card_list(cards)))
        _check_group(kind, cs)
        out.append((kind, cs))
    return tuple(out)


@dataclass(frozen=True)
class XiLine:
    """The 硬息 of one group, with the reason (团圆 / 转弯) when it has one."""

    group: Group
    xi: int
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        kind, cards = self.group
        return {"kind": kind, "cards": [alias(c) for c in cards], "xi": self.xi, "note": self.note}


def xi_lines(groups: Iterable[tuple[str, Iterable[Card | str]]]) -> list[XiLine]:
    """硬息 group by group; 团圆 and 转弯 are found from the groups themselves (copies of a kind across them)."""
    gs = normalise_groups(groups)
    counts = [0] * NUM_KINDS
    for _, cards in gs:
        for c in cards:
            counts[c] += 1
    lines: list[XiLine] = []
    for kind, cards in gs:
        k = cards[0]
        red = 1 if IS_RED[k] else 0
        if kind in TRIPLE_KINDS:
            xi = (XI_PENG if kind == "peng" else XI_WEI)[red]
            note = ""
            if counts[k] == 4:
                xi += XI_TUANYUAN[red]
                note = "团圆"
            lines.append(XiLine((kind, cards), xi, note))
        elif kind == "pair":
            if counts[k] > 2:
                lines.append(XiLine((kind, cards), XI_ZHUANWAN[red], "转弯"))
            else:
                lines.append(XiLine((kind, cards), XI_PAIR[red]))
        else:
            lines.append(XiLine((kind, cards), 0))
    return lines


def hard_xi(groups: Iterable[tuple[str, Iterable[Card | str]]]) -> int:
    """硬息 (face 息) of a finished hand given as (kind, cards) groups."""
    return sum(line.xi for line in xi_lines(groups))


# ---- structure: can these cards be six 话 and a 麻雀? ------------------------------------------------------

@lru_cache(maxsize=1 << 16)
def _suit_forms(suit: tuple[int, ...]) -> int:
    """Bit 1: the suit's cards split into 话 alone; bit 2: into 话 and one 麻雀."""
    return (1 if _suit_ok(suit, False) else 0) | (2 if _suit_ok(suit, True) else 0)


@lru_cache(maxsize=1 << 17)
def _suit_ok(suit: tuple[int, ...], pair: bool) -> bool:
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
    """Do these cards form 话 plus exactly one 麻雀?  Two table look-ups (one per size), cached."""
    small = _suit_forms(tuple(counts[:10]))
    big = _suit_forms(tuple(counts[10:]))
    return bool((small & 1 and big & 2) or (small & 2 and big & 1))


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

@dataclass(frozen=True)
class Win:
    """A winning hand as scored: its groups, where the winning card sits, 硬息, 名堂 and total 息."""

    groups: tuple[Group, ...]
    win_index: int
    win_card: Card
    lines: tuple[XiLine, ...]
    hard_xi: int
    mingtang: tuple[MingtangHit, ...]
    multiplier: int
    additions: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "groups": [line.to_dict() for line in self.lines],
            "win_card": alias(self.win_card),
            "win_group": self.win_index,
            "hard_xi": self.hard_xi,
            "mingtang": [h.to_dict() for h in self.mingtang],
            "multiplier": self.multiplier,
            "additions": self.additions,
            "total": self.total,
        }

    def describe(self) -> str:
        parts = [f"{GROUP_ZH[k]}{''.join(char(c) for c in cs)}" for k, cs in self.groups]
        mt = " ".join(f"{h.zh}{'×' if h.kind == 'mult' else '+'}{h.value}" for h in self.mingtang)
        return f"{' '.join(parts)} | 硬息 {self.hard_xi} {mt} = {self.total}"


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
    from .mingtang import score_win  # the 名堂 need this module's types

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
    """The cheap structural filter the engine runs before scoring: could ``card`` complete this hand?"""
    hc = list(hand_counts)
    if own_draw and hc[card] >= 2:
        hc[card] -= 2
    else:
        hc[card] += 1
    return is_complete(hc)
