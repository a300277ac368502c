"""The shared notation for 偎麻雀's paper cards: the characters themselves, and ASCII aliases for terminals.

A card is a small int, its *kind*: 0..9 are the small cards 一…十, 10..19 the big cards 壹…拾.  The red cards
are 二七十 and 贰柒拾.  Text forms: the characters (``"捌"``), the aliases ``x1``…``x10`` (small) and ``d1``…``d10``
(big), and the names a person says: ``小八``/``大八`` (the size and the number).  Every form is a key of one
table built at import, so reading an alias costs one dict lookup on the engine's path.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import NotationError

Card = int

NUM_KINDS = 20
SMALL_ZH = "一二三四五六七八九十"
BIG_ZH = "壹贰叁肆伍陆柒捌玖拾"
RED_NUMBERS = (2, 7, 10)

_ALIAS: list[str] = [f"x{n}" for n in range(1, 11)] + [f"d{n}" for n in range(1, 11)]
_CHAR: list[str] = list(SMALL_ZH) + list(BIG_ZH)
_PARSE: dict[str, Card] = {}
for _k in range(NUM_KINDS):
    for _t in (_ALIAS[_k], _ALIAS[_k].upper(), _CHAR[_k], ("大" if _k >= 10 else "小") + SMALL_ZH[_k % 10]):
        _PARSE[_t] = _k
for _t, _k in (("貳", 11), ("參", 12), ("陸", 15), ("兩", 1)):
    _PARSE.setdefault(_t, _k)

IS_RED: tuple[bool, ...] = tuple((k % 10 + 1) in RED_NUMBERS for k in range(NUM_KINDS))


def number(card: Card) -> int:
    """1..10 whatever the size."""
    return card % 10 + 1


def is_big(card: Card) -> bool:
    return card >= 10


def is_red(card: Card) -> bool:
    return IS_RED[card]


def make(num: int, big: bool) -> Card:
    return num - 1 + (10 if big else 0)


def alias(card: Card) -> str:
    """ASCII form used in actions and in views: ``x8`` / ``d8``."""
    return _ALIAS[card]


def char(card: Card) -> str:
    """The character printed on the card: ``八`` / ``捌``."""
    return _CHAR[card]


def parse_card(token: str | int) -> Card:
    """One card: ``捌``, ``d8``, ``D8``, ``大八``; or a kind number 0..19."""
    if isinstance(token, int) and not isinstance(token, bool):
        if 0 <= token < NUM_KINDS:
            return token
        raise NotationError(f"bad card {token!r}: kinds are 0..19")
    try:
        return _PARSE[str(token).strip()]
    except KeyError:
        raise NotationError(
            f"bad card {token!r}: expected 一…十 / 壹…拾, x1…x10 / d1…d10, or 小八 / 大八") from None


def _split(word: str) -> list[str]:
    """A run of cards written together (``捌捌``, ``小八大八``) cut into tokens; the word itself if it does not cut."""
    out: list[str] = []
    i = 0
    while i < len(word):
        if word[i] in "大小" and word[i:i + 2] in _PARSE:
            out.append(word[i:i + 2])
            i += 2
        elif word[i] in _PARSE:
            out.append(word[i])
            i += 1
        else:
            return [word]
    return out


def parse_cards(text: str | Iterable[str | int]) -> list[Card]:
    """``"捌捌 柒捌玖"``, ``"d8 d8"`` or a list of tokens; characters may be written together."""
    if isinstance(text, str):
        tokens: list[str | int] = []
        for word in text.replace(",", " ").split():
            if word in _PARSE:
                tokens.append(word)
            else:
                tokens.extend(_split(word))
        return [parse_card(t) for t in tokens]
    return [parse_card(t) for t in text]


def format_cards(cards: Iterable[Card], *, ascii: bool = False) -> str:
    table = _ALIAS if ascii else _CHAR
    return (" " if ascii else "").join(table[c] for c in cards)
