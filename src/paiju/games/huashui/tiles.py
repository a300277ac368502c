"""Tile notation for 滑水麻将 is the core's (:mod:`paiju.core.tiles`: ``123m456p789s1234567z``, ``二万``, ``东``);
here are the counts and the game's own melds.

A hand is a list of tile ints or a 34-long count vector.
"""

from __future__ import annotations

from collections.abc import Iterable

from paiju.core.errors import NotationError
from paiju.core.tiles import (
    HONOUR_EN,
    HONOUR_ZH,
    NUM_KINDS,
    NUMERAL_ZH,
    SUIT_ZH,
    SUITS,
    TILE_TEXT,
    Tile,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_en,
    tile_text,
    tile_zh,
)

__all__ = [
    "HONOUR_EN",
    "HONOUR_ZH",
    "NUMERAL_ZH",
    "NUM_KINDS",
    "SUITS",
    "SUIT_ZH",
    "TILE_TEXT",
    "Tile",
    "counts_of",
    "format_tiles",
    "parse_meld",
    "parse_tile",
    "parse_tiles",
    "tile_en",
    "tile_text",
    "tile_zh",
    "tiles_of",
]


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def tiles_of(counts: list[int]) -> list[Tile]:
    return [t for t in range(NUM_KINDS) for _ in range(counts[t])]


def parse_meld(text: str) -> tuple[Tile, int]:
    """A laid-down pung or kong such as ``"777z"`` or ``"9999s"`` → (tile, 3 or 4)."""
    tiles = parse_tiles(text)
    if len(tiles) not in (3, 4) or len(set(tiles)) != 1:
        raise NotationError(f"bad meld {text!r}: a meld is three or four of one tile (no chow in this game)")
    return tiles[0], len(tiles)
