"""The core's parsers, one per notation, read what a screen shows as well as the ASCII codes (table-driven)."""

from __future__ import annotations

import pytest

from paiju.core import NotationError, paper, tiles
from paiju.core import cards as french


@pytest.mark.parametrize(("typed", "code"), [
    ("AS", "AS"), ("as", "AS"), ("10H", "10H"), ("TH", "10H"), ("th", "10H"), ("KD", "KD"),
    ("红桃A", "AH"), ("黑桃10", "10S"), ("黑桃T", "10S"), ("梅花K", "KC"), ("草花K", "KC"), ("方块2", "2D"),
    ("方片2", "2D"), ("A♥", "AH"), ("♥A", "AH"), ("10♠", "10S"), ("♦Q", "QD"), ("A红桃", "AH"),
    ("BJ", "BJ"), ("sj", "SJ"), ("大王", "BJ"), ("小王", "SJ"),
])
def test_french_card(typed: str, code: str) -> None:
    assert french.card_text(french.parse_card(typed)) == code


@pytest.mark.parametrize(("typed", "codes"), [
    ("AS 10H KD", ["AS", "10H", "KD"]), ("红桃A 红桃A", ["AH", "AH"]), ("红桃A红桃A", ["AH", "AH"]),
    ("A♥A♥K♠", ["AH", "AH", "KS"]), ("ASAS", ["AS", "AS"]), ("10H10H", ["10H", "10H"]),
    ("大王 大王 小王", ["BJ", "BJ", "SJ"]), ("", []),
])
def test_french_cards(typed: str, codes: list[str]) -> None:
    assert [french.card_text(c) for c in french.parse_cards(typed)] == codes


@pytest.mark.parametrize("typed", ["1S", "11H", "红桃", "AX", "1010", "王"])
def test_french_refuses_what_is_no_card(typed: str) -> None:
    with pytest.raises(NotationError, match="bad card"):
        french.parse_cards(typed)


@pytest.mark.parametrize(("typed", "code"), [
    ("5m", "5m"), ("5M", "5m"), ("二万", "2m"), ("2万", "2m"), ("两万", "2m"), ("九萬", "9m"), ("一筒", "1p"),
    ("三饼", "3p"), ("7筒", "7p"), ("九条", "9s"), ("四索", "4s"), ("东", "1z"), ("東", "1z"), ("东风", "1z"),
    ("南", "2z"), ("西风", "3z"), ("北", "4z"), ("白", "5z"), ("白板", "5z"), ("发", "6z"), ("发财", "6z"),
    ("發", "6z"), ("中", "7z"), ("红中", "7z"), ("East", "1z"), ("south", "2z"), ("WEST", "3z"), ("North", "4z"),
    ("White", "5z"), ("Green", "6z"), ("Red", "7z"),
])
def test_tile(typed: str, code: str) -> None:
    assert tiles.tile_text(tiles.parse_tile(typed)) == code


@pytest.mark.parametrize(("typed", "codes"), [
    ("123m45p", ["1m", "2m", "3m", "4p", "5p"]), ("5m 5m", ["5m", "5m"]), ("二万 东 红中", ["2m", "1z", "7z"]),
    ("East Red", ["1z", "7z"]), ("11z", ["1z", "1z"]),
])
def test_tiles(typed: str, codes: list[str]) -> None:
    assert [tiles.tile_text(t) for t in tiles.parse_tiles(typed)] == codes


@pytest.mark.parametrize("typed", ["8z", "0m", "十万", "红", "Blue", "m"])
def test_tiles_refuse_what_is_no_tile(typed: str) -> None:
    with pytest.raises(NotationError, match="bad tile"):
        tiles.parse_tiles(typed)


def test_tile_names_both_ways() -> None:
    for t in range(tiles.NUM_KINDS):
        assert tiles.parse_tile(tiles.tile_zh(t)) == t and tiles.parse_tile(tiles.tile_en(t)) == t


@pytest.mark.parametrize(("typed", "code"), [
    ("八", "x8"), ("捌", "d8"), ("x8", "x8"), ("X8", "x8"), ("d10", "d10"), ("小八", "x8"), ("大八", "d8"),
    ("大十", "d10"), ("小一", "x1"), ("貳", "d2"), ("兩", "x2"),
])
def test_paper_card(typed: str, code: str) -> None:
    assert paper.alias(paper.parse_card(typed)) == code


@pytest.mark.parametrize(("typed", "codes"), [
    ("捌捌", ["d8", "d8"]), ("柒捌玖", ["d7", "d8", "d9"]), ("小八大八", ["x8", "d8"]), ("d8 x8", ["d8", "x8"]),
    ("一, 二", ["x1", "x2"]),
])
def test_paper_cards(typed: str, codes: list[str]) -> None:
    assert [paper.alias(c) for c in paper.parse_cards(typed)] == codes


@pytest.mark.parametrize("typed", ["x11", "d0", "大", "中八", "eight"])
def test_paper_refuses_what_is_no_card(typed: str) -> None:
    with pytest.raises(NotationError, match="bad card"):
        paper.parse_cards(typed)


def test_the_games_read_through_the_core() -> None:
    """The games' own modules are the core's parsers, not copies."""
    from paiju.games.huashui import tiles as huashui_tiles
    from paiju.games.weimaque import cards as weimaque_cards

    assert huashui_tiles.parse_tile is tiles.parse_tile and huashui_tiles.parse_tiles is tiles.parse_tiles
    assert weimaque_cards.parse_card is paper.parse_card and weimaque_cards.parse_cards is paper.parse_cards
