"""The shared notation for French-suited cards: ``AS 10H KD``, jokers ``BJ`` and ``SJ``, and what a screen shows.

:func:`parse_card` reads the codes (``10`` or ``T``, either case), the suit symbols on either side (``A♥``,
``♥A``), the Chinese suit names (``红桃A``, ``黑桃10``, ``方片``/``方块``, ``草花``/``梅花``) and the jokers by name
(``大王``, ``小王``); every form is a key of one table built at import, so reading a code costs one dict lookup.

A card is a small int: ``rank_index * 4 + suit`` for the 52 ranked cards (rank index 0 = A … 12 = K,
suit 0..3 = S H C D), then 52 = small joker, 53 = big joker.  Several decks repeat the same ints; a
hand is a list (or a count vector) of them.  Tables are built once at import.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import NotationError

Card = int

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "C", "D")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
"""The one suit-symbol table: the terminal, the games' labels and typed input all use it."""
SUIT_ZH = {"S": "黑桃", "H": "红桃", "C": "梅花", "D": "方块"}
SUIT_EN = ("spades", "hearts", "clubs", "diamonds")
"""In the order of ``SUITS``."""
SMALL_JOKER: Card = 52
BIG_JOKER: Card = 53
NUM_KINDS = 54

_TEXT: list[str] = [r + s for r in RANKS for s in SUITS] + ["SJ", "BJ"]
_SUIT_NAMES = {"S": ("黑桃", "♠", "♤"), "H": ("红桃", "紅桃", "♥", "♡"), "C": ("梅花", "草花", "♣", "♧"),
               "D": ("方块", "方片", "方塊", "♦", "♢")}
_PARSE: dict[str, Card] = {}
for _i, _t in enumerate(_TEXT):
    for _alias in (_t, _t.replace("10", "T", 1)):
        _PARSE[_alias] = _i
        _PARSE[_alias.lower()] = _i
    if _i < 52:
        _rank, _suit = _t[:-1], _t[-1]
        for _rank_word in (_rank, "T") if _rank == "10" else (_rank, _rank.lower()):
            for _name in _SUIT_NAMES[_suit]:
                _PARSE[_name + _rank_word] = _i
                _PARSE[_rank_word + _name] = _i
for _name, _i in (("大王", 53), ("小王", 52), ("大鬼", 53), ("小鬼", 52)):
    _PARSE[_name] = _i
_LONGEST = max(len(k) for k in _PARSE)


def rank_of(card: Card) -> int:
    """Rank number 1 (A) … 13 (K); jokers give 14 (small) and 15 (big)."""
    return card // 4 + 1 if card < 52 else card - 38


def suit_of(card: Card) -> str | None:
    """Suit letter, or None for a joker."""
    return SUITS[card % 4] if card < 52 else None


def suit_index(card: Card) -> int:
    """0..3 for S H C D, 4 for jokers."""
    return card % 4 if card < 52 else 4


def make(rank: int, suit: str) -> Card:
    """Card from a rank number 1..13 and a suit letter."""
    return (rank - 1) * 4 + SUITS.index(suit)


def card_text(card: Card) -> str:
    return _TEXT[card]


def parse_card(token: str) -> Card:
    try:
        return _PARSE[token.strip()]
    except KeyError:
        raise NotationError(f"bad card {token!r}: expected rank A 2…10 J Q K then suit S H C D (or ♠♥♣♦), "
                            "红桃A / 黑桃10 / 梅花K / 方块2, or BJ SJ 大王 小王") from None


def _split(word: str) -> list[str]:
    """Cards written together (``红桃A红桃A``, ``A♥A♥``, ``ASAS``) cut into tokens, longest first; the word
    itself when it does not cut (then :func:`parse_card` names it in its error)."""
    out: list[str] = []
    i = 0
    while i < len(word):
        for n in range(min(_LONGEST, len(word) - i), 0, -1):
            if word[i:i + n] in _PARSE:
                out.append(word[i:i + n])
                i += n
                break
        else:
            return [word]
    return out


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"AS 10H KD"``, ``"红桃A 红桃A"``, ``"A♥A♥"`` (or a list of tokens); commas and ``|`` are not
    separators here."""
    if not isinstance(text, str):
        return [parse_card(t) for t in text]
    tokens: list[str] = []
    for word in text.split():
        tokens.extend([word] if word in _PARSE else _split(word))
    return [parse_card(t) for t in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(_TEXT[c] for c in cards)


def pretty(card: Card) -> str:
    """Card with its suit symbol, for terminals and logs: ``A♠``."""
    t = _TEXT[card]
    if card >= 52:
        return "大王" if card == BIG_JOKER else "小王"
    return t[:-1] + SUIT_SYMBOLS[t[-1]]


def deck(decks: int = 1, *, jokers: bool = False) -> list[Card]:
    one = list(range(54 if jokers else 52))
    return one * decks
