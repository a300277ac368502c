"""Tile notation for 滑水麻将: ``123m456p789s1234567z``; a tile is an int 0..33.

0..8 are 1m..9m (万), 9..17 1p..9p (筒), 18..26 1s..9s (条), 27..33 the honours in the order
东 南 西 北 白 发 中 (1z = East … 7z = Red).  A hand is a list of tile ints or a 34-long count vector.
"""

from __future__ import annotations

from collections.abc import Iterable

from paiju.core.errors import NotationError

Tile = int

NUM_KINDS = 34
SUITS = "mpsz"
SUIT_ZH = ("万", "筒", "条")
HONOUR_ZH = ("东", "南", "西", "北", "白", "发", "中")
HONOUR_EN = ("East", "South", "West", "North", "White", "Green", "Red")
NUMERAL_ZH = ("一", "二", "三", "四", "五", "六", "七", "八", "九")

TILE_TEXT: tuple[str, ...] = tuple(f"{t % 9 + 1}{SUITS[t // 9]}" for t in range(NUM_KINDS))
_PARSE: dict[str, Tile] = {text: t for t, text in enumerate(TILE_TEXT)}


def tile_text(tile: Tile) -> str:
    return TILE_TEXT[tile]


def tile_zh(tile: Tile) -> str:
    """Chinese name: 五万, 三筒, 九条, 东, 中."""
    if tile >= 27:
        return HONOUR_ZH[tile - 27]
    return NUMERAL_ZH[tile % 9] + SUIT_ZH[tile // 9]


def tile_en(tile: Tile) -> str:
    return HONOUR_EN[tile - 27] if tile >= 27 else TILE_TEXT[tile]


def parse_tile(text: str) -> Tile:
    """One tile such as ``5m`` or ``7z``."""
    try:
        return _PARSE[text.strip()]
    except KeyError:
        raise NotationError(f"bad tile {text!r}: expected a digit then m/p/s (1-9) or z (1-7)") from None


def parse_tiles(text: str) -> list[Tile]:
    """``"123m456p11z"`` → tile ints in the written order.  Spaces are ignored; digits wait for their suit."""
    tiles: list[Tile] = []
    digits: list[str] = []
    for ch in text:
        if ch.isspace():
            continue
        if ch.isdigit():
            digits.append(ch)
        elif ch in SUITS:
            if not digits:
                raise NotationError(f"bad tiles {text!r}: suit letter {ch!r} without digits before it")
            for d in digits:
                tiles.append(parse_tile(d + ch))
            digits = []
        else:
            raise NotationError(f"bad tiles {text!r}: unexpected {ch!r} (use digits and m p s z)")
    if digits:
        raise NotationError(f"bad tiles {text!r}: digits {''.join(digits)!r} have no suit letter after them")
    return tiles


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Sorted compact form: ``[0, 1, 2, 27]`` → ``"123m1z"``."""
    out: list[str] = []
    by_suit: list[list[str]] = [[], [], [], []]
    for t in sorted(tiles):
        by_suit[t // 9].append(str(t % 9 + 1))
    for s, digits in enumerate(by_suit):
        if digits:
            out.append("".join(digits) + SUITS[s])
    return "".join(out)


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
