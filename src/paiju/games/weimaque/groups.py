"""The groups of a finished 偎麻雀 hand and their 息, and the scored win: the types the rules and the 名堂 share.

A group is ``(kind, cards)``: ``peng`` (碰), ``wei`` (煨, face down), ``kan`` (砍: three dealt together),
``chi`` (a run) or ``pair`` (the 麻雀).  :mod:`.rules` finds wins, :mod:`.mingtang` scores their 名堂; both
build on this module, which imports neither.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import IS_RED, NUM_KINDS, Card, alias, char, parse_card, parse_cards

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


@dataclass(frozen=True)
class MingtangHit:
    key: str
    zh: str
    en: str
    kind: str
    value: int
    times: int

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "zh": self.zh, "en": self.en, "kind": self.kind, "value": self.value,
                "times": self.times}


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
