"""The shared notation for mahjong tiles: ``5m 1p 9s 7z``, compact ``123m456p``, and the names people read.

A tile is an int 0..33: 0..8 are 1m..9m (万), 9..17 1p..9p (筒), 18..26 1s..9s (条), 27..33 the honours in
the order 东 南 西 北 白 发 中 (1z = East … 7z = Red).  :func:`parse_tile` reads what a screen shows as well as
the codes: ``二万``/``2万``, ``东``/``东风``, ``中``/``红中``, ``发``/``发财``, ``白``/``白板``, ``East`` …
``Red``/``Green``/``White`` (and 饼/索 for 筒/条).  Every name is a key of one table built at import, so reading
a code costs one dict lookup on the engines' path.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import NotationError

Tile = int

NUM_KINDS = 34
SUITS = "mpsz"
SUIT_ZH = ("万", "筒", "条")
HONOUR_ZH = ("东", "南", "西", "北", "白", "发", "中")
HONOUR_EN = ("East", "South", "West", "North", "White", "Green", "Red")
NUMERAL_ZH = ("一", "二", "三", "四", "五", "六", "七", "八", "九")

TILE_TEXT: tuple[str, ...] = tuple(f"{t % 9 + 1}{SUITS[t // 9]}" for t in range(NUM_KINDS))

_SUIT_WORDS = (("万", "萬", "m"), ("筒", "饼", "餅", "p"), ("条", "條", "索", "s"))
_HONOUR_WORDS = (("东", "東", "东风", "東風", "east"), ("南", "南风", "南風", "south"),
                 ("西", "西风", "西風", "west"), ("北", "北风", "北風", "north"),
                 ("白", "白板", "white"), ("发", "發", "发财", "發財", "green"), ("中", "红中", "紅中", "red"))
_PARSE: dict[str, Tile] = {text: t for t, text in enumerate(TILE_TEXT)}
for _t in range(27):
    _n, _s = _t % 9, _t // 9
    for _word in _SUIT_WORDS[_s]:
        for _num in (str(_n + 1), NUMERAL_ZH[_n], *(("两",) if _n == 1 else ())):
            _PARSE.setdefault(_num + _word, _t)
for _h, _names in enumerate(_HONOUR_WORDS):
    for _word in _names:
        _PARSE.setdefault(_word, 27 + _h)
        _PARSE.setdefault(_word.capitalize(), 27 + _h)
for _key in list(_PARSE):
    _PARSE.setdefault(_key.upper(), _PARSE[_key])


def tile_text(tile: Tile) -> str:
    return TILE_TEXT[tile]


def tile_zh(tile: Tile) -> str:
    """Chinese name: 五万, 三筒, 九条, 东, 中."""
    if tile >= 27:
        return HONOUR_ZH[tile - 27]
    return NUMERAL_ZH[tile % 9] + SUIT_ZH[tile // 9]


def tile_en(tile: Tile) -> str:
    """English name: the code for a suited tile (``5m``), the honour's name (``East`` … ``Red``)."""
    return HONOUR_EN[tile - 27] if tile >= 27 else TILE_TEXT[tile]


def parse_tile(text: str) -> Tile:
    """One tile: ``5m``, ``7z``, ``五万``, ``5万``, ``东``, ``红中``, ``White`` …"""
    try:
        return _PARSE[text.strip()]
    except KeyError:
        raise NotationError(f"bad tile {text!r}: expected a digit then m/p/s (1-9) or z (1-7), "
                            "a name such as 二万 / 东 / 红中, or East … Red") from None


def parse_tiles(text: str) -> list[Tile]:
    """``"123m456p11z"`` → tile ints in the written order.  Spaces are ignored; digits wait for their suit.
    Words that name one tile each (``二万 东 红中``, ``East Red``) are read too."""
    if any(not (ch.isspace() or (ch.isascii() and (ch.isdigit() or ch in SUITS))) for ch in text):
        return [parse_tile(word) for word in text.split()]
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
