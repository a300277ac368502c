"""Paper-card notation of 偎麻雀 is the core's (:mod:`paiju.core.paper`: ``捌``, ``d8``, ``大八``); here are the
deck and the count vectors.

There are four copies of each of the 20 kinds (80 cards).  A hand is a count vector of 20 ints.
"""

from __future__ import annotations

from collections.abc import Iterable

from paiju.core.paper import (
    BIG_ZH,
    IS_RED,
    NUM_KINDS,
    RED_NUMBERS,
    SMALL_ZH,
    Card,
    alias,
    char,
    format_cards,
    is_big,
    is_red,
    make,
    number,
    parse_card,
    parse_cards,
)

__all__ = [
    "BIG_ZH",
    "COPIES",
    "IS_RED",
    "NUM_KINDS",
    "RED_NUMBERS",
    "SMALL_ZH",
    "Card",
    "alias",
    "cards_of",
    "char",
    "counts_of",
    "deck",
    "format_cards",
    "is_big",
    "is_red",
    "make",
    "number",
    "parse_card",
    "parse_cards",
]

COPIES = 4


def counts_of(cards: Iterable[Card | str]) -> list[int]:
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[parse_card(c) if not isinstance(c, int) else c] += 1
    return counts


def cards_of(counts: Iterable[int]) -> list[Card]:
    out: list[Card] = []
    for k, n in enumerate(counts):
        out.extend([k] * n)
    return out


def deck() -> list[Card]:
    return [k for k in range(NUM_KINDS) for _ in range(COPIES)]
