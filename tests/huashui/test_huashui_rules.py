"""Rules API: the page's nine winning shapes, look-alikes that do not win, melds, waits, notation."""

from __future__ import annotations

import random

import pytest

from paiju.core.errors import NotationError
from paiju.games.huashui.rules import hand_counts, is_dui_hu, is_win, shanten_of, waits
from paiju.games.huashui.tiles import format_tiles, parse_meld, parse_tiles, tile_text, tile_zh

# (hand, melds, wins, dui_hu, which of the page's shapes / why not)
WIN_CASES: list[tuple[str, tuple[str, ...], bool, bool, str]] = [
    ("11m123m456p789s123s", (), True, False, "shape 1: 11 + four runs"),
    ("123456789m22p789s", (), True, False, "shape 1: pure straight and a run"),
    ("11z123m456m789p222s", (), True, False, "shape 2: 11 + three runs + 111"),
    ("55p123m456s111z777z", (), True, False, "shape 3: 11 + two runs + two pungs"),
    ("99s123p111m555z666z", (), True, False, "shape 4: 11 + one run + three pungs"),
    ("22m111p999s111z333z", (), True, False, "shape 5: 11 + four pungs"),
    ("11m22m33p44p55s66s77z", (), True, True, "shape 6: seven different pairs (七对)"),
    ("1111m22p33p44s55s66z", (), True, True, "shape 7: 1111 + five pairs"),
    ("1111m2222p33s44s55z", (), True, True, "shape 8: 1111 1111 + three pairs"),
    ("1111m2222p3333s55z", (), True, True, "shape 9: 1111 1111 1111 + 11"),
    ("11223344556677m", (), True, True, "seven pairs that are also runs: both families"),
    ("11122233344455m", (), True, False, "pure pungs-and-runs in one suit"),
    ("1112345678999m5m", (), True, False, "nine gates with the 5"),
    # look-alikes
    ("11m123m456p789s124s", (), False, False, "a broken run"),
    ("123z456z789s11m222m", (), False, False, "honours never make runs"),
    ("11m22m33p44p55s66s67z", (), False, False, "six pairs and two singles"),
    ("111m22p33p44s55s66z7z", (), False, False, "a triple is not a pair"),
    ("11m22m33m44m55m66m78m", (), False, False, "six pairs and a run-less tail"),
    ("1m3m5m7m9m1p3p5p7p9p1s3s5s7s", (), False, False, "no shape at all"),
    ("1234m567m899m11z22z", (), False, False, "two pairs left over"),
    # with melds: each pung or kong is one set
    ("123m11z", ("777z", "9999s", "555p"), True, False, "three melds, a run and a pair"),
    ("22m", ("111z", "222z", "333z", "4444z"), True, False, "four melds and a pair"),
    ("22m", ("111z", "222z", "333z", "444z"), True, False, "four pungs and a pair"),
    ("23m", ("111z", "222z", "333z", "444z"), False, False, "four melds but no pair"),
    ("11m2233p44s", ("777z", "9999s"), False, False, "pairs with melds do not win"),
    ("123m456m789m22p", ("777z",), True, False, "one meld"),
]


@pytest.mark.parametrize(("hand", "melds", "wins", "dui", "why"), WIN_CASES, ids=[c[4] for c in WIN_CASES])
def test_is_win_table(hand: str, melds: tuple[str, ...], wins: bool, dui: bool, why: str) -> None:
    assert is_win(hand, melds) is wins, why
    if not melds:
        assert is_dui_hu(hand) is dui, why


WAIT_CASES: list[tuple[str, tuple[str, ...], str]] = [
    ("1112345678999m", (), "123456789m"),          # nine gates: every man tile
    ("123m456p789s111z2z", (), "2z"),               # single wait on the pair
    ("123m456p789s11z22z", (), "12z"),             # two pairs: either becomes the pung
    ("123m456p789s11z45s", (), "36s"),              # two-sided run
    ("123m456p789s11z46s", (), "5s"),               # closed run
    ("123m456p789s11z12s", (), "3s"),               # edge run
    ("11m22m33p44p55s66s7z", (), "7z"),             # 七对 ready
    ("1111m22p33p44s55s6z", (), "6z"),              # 1111 + pairs ready (shape 7)
    ("1111m2222p3333s5z", (), "5z"),                # shape 9 ready
    ("11223344556m77z", (), "36m"),                 # 6m completes 对胡 and a standard hand; 3m a standard one
    ("4m", ("111z", "222z", "333z", "4444z"), "4m"),
    ("1112m", ("222z", "333z", "444z"), "23m"),
    ("1111m", ("222z", "333z", "444z"), ""),      # a held 1111 is not a kong: no wait
    ("1m3m5m7m9m1p3p5p7p9p1s3s5s", (), ""),
]


@pytest.mark.parametrize(("hand", "melds", "expected"), WAIT_CASES)
def test_waits_table(hand: str, melds: tuple[str, ...], expected: str) -> None:
    assert format_tiles(waits(hand, melds)) == expected


def test_waits_agree_with_is_win_on_random_hands() -> None:
    rng = random.Random(7)
    wall = [t for t in range(34) for _ in range(4)]
    for _ in range(300):
        rng.shuffle(wall)
        hand = wall[:13]
        got = waits(hand)
        counts = hand_counts(hand)
        brute = [t for t in range(34) if counts[t] < 4 and is_win([*hand, t])]
        assert got == brute


def test_notation_round_trips_and_names() -> None:
    assert parse_tiles("123m4p7z") == [0, 1, 2, 12, 33]
    assert format_tiles(parse_tiles("7z 1m 11p")) == "1m11p7z"
    assert tile_text(27) == "1z" and tile_zh(27) == "东" and tile_zh(33) == "中" and tile_zh(4) == "五万"
    assert parse_meld("9999s") == (26, 4) and parse_meld("777z") == (33, 3)


@pytest.mark.parametrize("bad", ["8z", "0m", "12", "m12", "12x", "1m2"])
def test_bad_notation_is_refused(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_tiles(bad)


@pytest.mark.parametrize("bad", ["123m", "77z", "77777z"])
def test_bad_meld_is_refused(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_meld(bad)


def test_wrong_sizes_and_fifth_copies_are_refused() -> None:
    with pytest.raises(ValueError, match="holds 14"):
        is_win("123m")
    with pytest.raises(ValueError, match="more than four"):
        is_win("11111m23456789p")
    with pytest.raises(ValueError, match="more than four"):
        is_win("1m234p567p789p11s", ("1111m",))


SHANTEN_CASES = [
    ("123m456p789s111z22z", (), -1),
    ("123m456p789s111z2z", (), 0),
    ("11m22m33p44p55s66s7z", (), 0),
    ("11m22m33p44p55s67s", (), 1),   # six pairs missing: five pairs, two singles → one away via pairs
    ("1m4m7m1p4p7p1s4s7s1z2z3z4z", (), 6),      # 8 for sets, 6 for the pairs family
    ("1m4m7m1p4p7p1s4s7s1z", ("555m",), 6),     # three sets still to make
    ("12m", ("111z", "222z", "333z", "444z"), 0),
    ("19m", ("111z", "222z", "333z", "444z"), 0),
]


@pytest.mark.parametrize(("hand", "melds", "expected"), SHANTEN_CASES)
def test_shanten_table(hand: str, melds: tuple[str, ...], expected: int) -> None:
    assert shanten_of(hand, melds) == expected


def test_shanten_zero_iff_waits() -> None:
    rng = random.Random(11)
    wall = [t for t in range(34) for _ in range(4)]
    for _ in range(2000):
        rng.shuffle(wall)
        hand = wall[:13]
        ready = shanten_of(hand) == 0
        if waits(hand):
            assert ready
        elif ready:  # ready only on a fifth copy of a tile the hand holds four of
            assert max(hand_counts(hand)) == 4
