"""The rules API, table-driven, in the page's own notation.  Examples of page 002 are marked 'page'."""

from __future__ import annotations

import pytest

from paiju.core.cards import parse_cards
from paiju.games.shengji.rules import (
    card_points,
    coverage,
    declaration_rank,
    fits,
    is_legal_follow,
    is_throw_shape,
    level_change,
    order_for,
    parse_level,
    suit_number,
    throw_fails,
    trick_winner,
)


@pytest.mark.parametrize(("cards", "points"), [
    ("5S", 5), ("10H", 10), ("KD", 10), ("AS QS JS 9S 4C 2D", 0), ("BJ SJ", 0),
    ("5S 5H 10C KD KD", 40),
])
def test_card_points(cards: str, points: int) -> None:
    assert card_points(cards) == points


def test_four_decks_hold_400_points() -> None:
    from paiju.core.cards import card_text

    assert card_points([card_text(c) for c in range(54)] * 4) == 400


@pytest.mark.parametrize(("points", "expected", "why"), [
    (205, ("attackers", 2), "page: (200-160)/20 = 2, the 5 is dropped (甩零头)"),
    (85, ("defenders", 4), "page: 85 counts as 100, (160-100)/20 = 3, plus the natural level"),
    (110, ("defenders", 3), "page's formula: 110 counts as 120, 2 + natural 1 (the page's '4' is a slip)"),
    (150, ("defenders", 1), "page: 150 counts as 160, only the natural level"),
    (160, ("attackers", 0), "page: exactly 160, the attackers take over at their own level"),
    (175, ("attackers", 0), "under 180 no level above the take-over"),
    (180, ("attackers", 1), "one full 20 above 160"),
    (140, ("defenders", 2), "140 is already a multiple of 20: 1 + 1"),
    (141, ("defenders", 1), "141 counts as 160"),
    (5, ("defenders", 8), "5 counts as 20: 7 + 1"),
    (0, ("defenders", 9), "0: 8 + 1 (光头 ends the match in the engine)"),
    (-30, ("defenders", 9), "penalties never take the attackers below 0"),
    (400, ("attackers", 12), "every point"),
])
def test_level_change(points: int, expected: tuple[str, int], why: str) -> None:
    assert level_change(points) == expected, why


def test_page_example_85_from_level_4() -> None:
    """The page: a dealer side at 4 whose attackers score 85 plays 4 + 3 + 1 next (the page writes 7; it is 8)."""
    side, n = level_change(85)
    assert side == "defenders" and 4 + n == 8


# The page's ladder, weakest first (打10).
LADDER = [
    "10H", "10H 10H", "SJ SJ", "BJ BJ", "10H 10H 10H", "SJ SJ SJ", "BJ BJ BJ",
    "10H 10H 10H 10H", "SJ SJ SJ SJ", "BJ BJ BJ BJ",
]


def test_bidding_ladder_is_strictly_increasing() -> None:
    ranks = [r for b in LADDER if (r := declaration_rank(b, 10)) is not None]
    assert len(ranks) == len(LADDER)
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)


@pytest.mark.parametrize(("a", "b"), [("10H", "10S"), ("10C 10C", "10D 10D"), ("10S 10S 10S", "10H 10H 10H")])
def test_equal_bids_in_different_suits_tie(a: str, b: str) -> None:
    assert declaration_rank(a, "10") == declaration_rank(b, "10")


@pytest.mark.parametrize(("cards", "level"), [
    ("BJ", 10), ("SJ", 10),             # 不能用单张大小王来亮无主
    ("SJ BJ", 10), ("10H 10S", 10),     # mixed cards
    ("9H", 10), ("2H 2H", 3),           # not the level rank
    ("10H 10H 10H 10H 10H", 10), ("", 10),
])
def test_no_bid(cards: str, level: int) -> None:
    assert declaration_rank(cards, level) is None


def test_levels_parse() -> None:
    assert [parse_level(x) for x in ("2", "10", "J", "Q", "K", "A", 14)] == [2, 10, 11, 12, 13, 14, 14]


def test_card_order_with_trumps() -> None:
    """Page: 大王, 小王, 主10, 副10, A … 2; 副牌 A … 2 (打10, hearts trump)."""
    order = order_for(10, suit_number("H"))
    trumps = parse_cards("BJ SJ 10H 10S AH KH QH JH 9H 8H 7H 6H 5H 4H 3H 2H")
    keys = [order.key[c] for c in trumps]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    assert all(order.suit[c] == 4 for c in trumps)
    assert order.key[parse_cards("10S")[0]] == order.key[parse_cards("10C")[0]]  # 副10 are equal
    side = [order.key[c] for c in parse_cards("AS KS QS JS 9S 2S")]
    assert side == sorted(side, reverse=True) and order.suit[parse_cards("AS")[0]] == 0


# ---- following ------------------------------------------------------------------------------------

AAKK = "AH AH KH KH"
JJJ8755 = "JH JH JH 8H 7H 5H 5H 3C 4C"


@pytest.mark.parametrize(("hand", "lead", "play", "legal", "why"), [
    (JJJ8755, AAKK, "5H 5H JH JH", True, "page: 55JJ"),
    (JJJ8755, AAKK, "5H 5H 8H 7H", True, "page: 5587"),
    (JJJ8755, AAKK, "JH JH 8H 7H", False, "page: never JJ87 — the true pair 55 is owed"),
    (JJJ8755, AAKK, "JH JH JH 5H", False, "a triple does not stand in for the owed pair"),
    (JJJ8755, AAKK, "5H 5H 8H JH", True, "page: 5587(J) — a J may stand in for the 7"),
    (JJJ8755, AAKK, "JH JH JH 8H", False, "page: JJ87(J) — nor with a J for the 7"),
    (JJJ8755, AAKK, "5H 5H 8H 3C", False, "must follow hearts while holding 7 of them"),
    ("QH QH QH 8H 7H 3C", "KH KH KH", "QH QH QH", True, "triple led, triple held: play it"),
    ("QH QH QH 8H 7H 3C", "KH KH KH", "QH 8H 7H", False, "the triple is owed"),
    ("QH QH 8H 7H 3C", "KH KH KH", "QH QH 8H", True, "page: no triple → the pair plus one more heart"),
    ("QH QH 8H 7H 3C", "KH KH KH", "QH 8H 7H", False, "page: the pair is owed"),
    ("QH 9H 8H 7H 3C", "KH KH KH", "9H 8H 7H", True, "no pair at all: any three hearts"),
    ("QH QH QH 5H 5H 2S", "KH KH KH KH", "QH QH QH 5H", True, "quad led: a triple and one more"),
    ("QH QH QH 5H 5H 2S", "KH KH KH KH", "QH QH 5H 5H", False, "the triple covers more of the quad"),
    ("QH QH 6H 6H 5H 2S", "KH KH KH KH", "QH QH 6H 6H", True, "quad led, two pairs: both"),
    ("QH QH 6H 6H 5H 2S", "KH KH KH KH", "QH QH 6H 5H", False, "the second pair is owed too"),
    ("9H 9H 9H 3C 3C", "KH KH", "9H 9H", True, "a pair from a triple may be played"),
    ("9H 9H 9H 8H 3C", "KH KH", "9H 8H", True, "… but is never owed"),
    ("9H 5H 5H 3C 3C", "KH KH", "9H 5H", False, "an exact pair is owed to a pair lead"),
    ("7H 3C 3C 3C", "KH KH", "7H 3C", True, "short in the suit: all hearts, then anything"),
    ("7H 3C 3C 3C", "KH KH", "3C 3C", False, "short in the suit: the heart must go"),
    ("7H 3C 3C 3C", "KH", "3C", False, "follow suit"),
    ("3C 3C BJ", "KH KH", "3C 3C", True, "void: discard anything"),
    ("AH 10S 3C", "2H", "10S", True, "打10, hearts trump: 10S is a trump and follows a trump lead"),
    ("AH 10S 3C", "2H", "3C", False, "… and a club may not be played while trumps are held"),
])
def test_follow(hand: str, lead: str, play: str, legal: bool, why: str) -> None:
    trump = "H" if "10S" in hand else "S"
    assert is_legal_follow(hand, lead, play, level=10, trump=trump) is legal, why


def test_level_cards_follow_as_trumps() -> None:
    """With spades trump at level 10, a held 10H is a trump: it cannot follow hearts but must follow trumps."""
    assert is_legal_follow("10H 4C", "AS", "10H", level=10, trump="S")
    assert not is_legal_follow("10H 4C", "AS", "4C", level=10, trump="S")
    assert is_legal_follow("10H 4H", "AH", "4H", level=10, trump="S")
    assert not is_legal_follow("10H 4H", "AH", "10H", level=10, trump="S")


@pytest.mark.parametrize(("bins", "groups", "best"), [
    ([2, 2], [2, 3], 2), ([2, 2], [2, 2, 2], 4), ([4], [3, 2], 3), ([4], [2, 2], 4),
    ([3], [2, 2], 2), ([4, 3], [3, 3], 6), ([4, 2], [4, 2], 6), ([2], [4, 3], 0),
])
def test_coverage(bins: list[int], groups: list[int], best: int) -> None:
    assert coverage(bins, groups) == best


# ---- throws (甩牌) and 吃苍蝇 ----------------------------------------------------------------------

@pytest.mark.parametrize("shape", [
    "AS AS AS AS KS KS KS",          # page: AAAAKKK
    "AS AS AS KS KS KS KS",          # page: AAAKKKK
    "AS QS QS QS QS JS JS JS JS",    # page: AQQQQJJJJ
    "9S 8S 8S 8S 8S 4S 4S 4S",       # page: 98888444
    "BJ SJ SJ",                      # trumps are one suit
])
def test_page_throw_shapes(shape: str) -> None:
    assert is_throw_shape(shape, level=10, trump="H")


@pytest.mark.parametrize("cards", ["AS AS", "AS KH", "AS 10S", "KS"])
def test_not_throws(cards: str) -> None:
    assert not is_throw_shape(cards, level=10, trump="H")


OTHERS_WEAK = ["AS QS QS 2C", "KS JS JS 3D", "9S 9S 9S 7S"]


@pytest.mark.parametrize(("throw", "others", "beaten"), [
    ("AS AS AS AS KS KS KS", OTHERS_WEAK, []),
    ("AS AS AS KS KS KS KS", OTHERS_WEAK, []),
    ("AS QS QS QS QS JS JS JS JS", OTHERS_WEAK, []),
    ("9S 8S 8S 8S 8S 4S 4S 4S", ["2C", "3D", "5C"], []),         # nothing left above the single 9
    ("9S 8S 8S 8S 8S 4S 4S 4S", OTHERS_WEAK, ["9S", "4S 4S 4S"]),  # singles above 9; 999 beats 444
    ("AS KS KS", ["AS AS"], ["KS KS"]),
    ("AS KS KS", ["QS QS QS"], []),
    ("KS KS QS", ["BJ BJ", "AS"], ["QS"]),         # a single A beats the Q, not the pair; trumps never count
])
def test_throw_fails(throw: str, others: list[str], beaten: list[str]) -> None:
    assert sorted(throw_fails(throw, others, level=10, trump="H")) == sorted(beaten)


# ---- who wins a trick ------------------------------------------------------------------------------

@pytest.mark.parametrize(("plays", "winner", "why"), [
    (["KS", "AS", "2S", "3S"], 1, "higher card of the led suit"),
    (["AS", "2H", "3S", "4S"], 1, "a trump (hearts) ruffs"),
    (["AS", "2H", "SJ", "BJ"], 3, "big joker over small joker over trumps"),
    (["AS", "10C", "10D", "4S"], 1, "equal off-suit level cards: the first played wins"),
    (["AS", "10C", "10H", "4S"], 2, "the level card of the trump suit beats the others"),
    (["AS AS", "2H 3H", "4S 4S", "KS QS"], 0, "a ruff of a pair needs a pair"),
    (["AS AS", "2H 2H", "3H 3H", "KS QS"], 2, "a bigger trump pair over-ruffs"),
    (["KS KS", "AS AS", "5C 5C", "QS QS"], 1, "a bigger pair in suit"),
    (["KS KS", "AS QS", "5C 5C", "QS QS"], 0, "two singles are no pair"),
    (["AS AS KS", "2H 2H 3H", "4H 4H 4H", "QS JS 9S"], 2,
     "a throw is ruffed by the same structure (22+3); 444 splits into pair + single and over-ruffs"),
    (["AS AS KS", "2H 3H 4H", "QS JS 9S", "8S 7S 6S"], 0, "three single trumps do not ruff pair + single"),
    (["AS AS AS AS", "2H 2H 3H 3H", "5S 5S 5S 5S", "QS JS 9S 8S"], 0, "a quad needs a quad"),
])
def test_trick_winner(plays: list[str], winner: int, why: str) -> None:
    order = order_for(10, suit_number("H"))
    assert trick_winner([parse_cards(p) for p in plays], order) == winner, why


def test_fits() -> None:
    assert fits([4], [2, 2]) and fits([3], [2, 1]) and not fits([1, 1], [2]) and not fits([2, 2], [4])
