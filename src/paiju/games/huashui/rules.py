"""The rules API of 滑水麻将: winning shapes, waits and shanten.  Pure functions, no state.

Hands are given in notation (``"11123m456p789s11z"``) or as tile ints; melds are strings of one pung or kong
(``"777z"``, ``"9999s"``).  Every laid-down meld stands for one set, so a winning concealed part holds
``14 - 3 * len(melds)`` tiles.

Winning shapes (the page's nine): four sets and a pair, where a set is a run (numbers only, one suit) or three
or four alike (shapes 1–5); and the 对胡 family (shapes 6–9): fourteen concealed tiles, no meld, every kind held
0, 2 or 4 times — seven pairs where a concealed 1111 counts as two.

>>> is_win("123m456p789s111z22z")
True
>>> is_dui_hu("1111m22p33p44s55s66z")
True
>>> [tile_text(t) for t in waits("1112345678999m")]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from paiju.core.errors import NotationError

from .config import HuashuiConfig
from .tables import is_even_keys, is_standard_keys, keys_of, shanten
from .tiles import NUM_KINDS, Tile, counts_of, parse_meld, parse_tiles, tile_text

HandLike = str | Iterable[Tile]
MeldLike = str | tuple[Tile, int]

__all__ = ["WinKind", "WinPayment", "break_wall", "deal_hands", "dealer_pays_each", "each_other_pays", "hand_counts",
           "is_dui_hu", "is_win", "one_pays", "shanten_of", "tile_text", "waits", "win_payment"]


def hand_counts(concealed: HandLike) -> list[int]:
    """A 34-long count vector from notation or tile ints; refuses a fifth copy of a tile."""
    tiles = parse_tiles(concealed) if isinstance(concealed, str) else list(concealed)
    if any(not 0 <= t < NUM_KINDS for t in tiles):
        raise NotationError(f"tile ints run 0..33, got {tiles!r}")
    counts = counts_of(tiles)
    _check_copies(counts)
    return counts


def _meld_tiles(melds: Sequence[MeldLike]) -> list[tuple[Tile, int]]:
    return [parse_meld(m) if isinstance(m, str) else (m[0], m[1]) for m in melds]


def _check_copies(counts: list[int]) -> None:
    bad = [tile_text(t) for t in range(NUM_KINDS) if counts[t] > 4]
    if bad:
        raise ValueError(f"more than four of {', '.join(bad)}: there are four of each tile")


def _prepare(concealed: HandLike, melds: Sequence[MeldLike], extra: int) -> tuple[list[int], int]:
    counts = hand_counts(concealed)
    parsed = _meld_tiles(melds)
    if len(parsed) > 4:
        raise ValueError("at most four melds")
    total = counts[:]
    for t, n in parsed:
        total[t] += n
    _check_copies(total)
    want = 14 - 3 * len(parsed) - extra
    if sum(counts) != want:
        raise ValueError(f"with {len(parsed)} meld(s) the concealed part holds {want} tiles, not {sum(counts)}")
    return counts, len(parsed)


def is_win(concealed: HandLike, melds: Sequence[MeldLike] = ()) -> bool:
    """Whether the concealed tiles (the winning tile included) with the laid-down melds form a winning hand."""
    counts, n_melds = _prepare(concealed, melds, 0)
    keys = keys_of(counts)
    return is_standard_keys(keys) or (n_melds == 0 and is_even_keys(keys))


def is_dui_hu(concealed: HandLike) -> bool:
    """The 对胡 family (the page's shapes 6–9): fourteen concealed tiles, every kind held 0, 2 or 4 times."""
    counts = hand_counts(concealed)
    return sum(counts) == 14 and is_even_keys(keys_of(counts))


def waits(concealed13: HandLike, melds: Sequence[MeldLike] = ()) -> list[Tile]:
    """The tile kinds that complete the hand (a kind whose four copies the hand already holds is left out)."""
    counts, n_melds = _prepare(concealed13, melds, 1)
    parsed = _meld_tiles(melds)
    used = counts[:]
    for t, n in parsed:
        used[t] += n
    keys = keys_of(counts)
    out = []
    for t in range(NUM_KINDS):
        if used[t] >= 4:
            continue
        s, p = divmod(t, 9)
        keys[s] += 5**p
        if is_standard_keys(keys) or (n_melds == 0 and is_even_keys(keys)):
            out.append(t)
        keys[s] -= 5**p
    return out


def shanten_of(concealed: HandLike, melds: Sequence[MeldLike] = ()) -> int:
    """Tiles away from ready over both families: -1 complete (14), 0 ready (13), 1 one away, …"""
    counts = hand_counts(concealed)
    return shanten(keys_of(counts), len(melds))


# ---- the deal ---------------------------------------------------------------------------------------
def break_wall(ring: Sequence[Tile], dealer: int, dice: tuple[int, int]) -> list[Tile]:
    """Where drawing starts (the page: 2 个骰子加起来的点数确定开门的地方，最小点数确定剩下多少墩开始拿牌).

    The 136 tiles stand as four sides of 17 stacks of two, side k in front of seat k, in play order.  The dice
    sum counts sides from the dealer's own (1 = the dealer's, 2 = the next seat's, …); the smaller die is the
    number of stacks skipped from the left end of that side.  Returns the tiles in drawing order; the last
    ones are where kong replacements come from.
    """
    side = (dealer + dice[0] + dice[1] - 1) % 4
    start = 2 * (17 * side + min(dice))
    return list(ring[start:]) + list(ring[:start])


def deal_hands(wall: Sequence[Tile], dealer: int) -> tuple[list[list[Tile]], list[Tile]]:
    """The page's deal, starting with the dealer in play order: three rounds of four tiles each, then one each,
    then the dealer's fourteenth.  Returns the four hands and the rest of the wall."""
    hands: list[list[Tile]] = [[], [], [], []]
    order = [(dealer + i) % 4 for i in range(4)]
    pos = 0
    for _ in range(3):
        for s in order:
            hands[s].extend(wall[pos:pos + 4])
            pos += 4
    for s in order:
        hands[s].append(wall[pos])
        pos += 1
    hands[dealer].append(wall[pos])
    return hands, list(wall[pos + 1:])


# ---- settlement (the page's scoring table) --------------------------------------------------------------
def each_other_pays(seat: int, amount: int) -> list[int]:
    """自摸, 暗杠, 过路杠: each of the three others pays ``seat``."""
    points = [-amount] * 4
    points[seat] = 3 * amount
    return points


def one_pays(payer: int, payee: int, amount: int) -> list[int]:
    """点炮, 抢杠, 放杠: one seat pays."""
    points = [0, 0, 0, 0]
    points[payer] = -amount
    points[payee] = amount
    return points


def dealer_pays_each(dealer: int, amount: int) -> list[int]:
    """跟庄: the dealer pays each of the others."""
    points = [amount] * 4
    points[dealer] = -3 * amount
    return points


WinKind = Literal["self", "discard", "rob"]
"""自摸, 点炮, 抢杠."""


@dataclass(frozen=True)
class WinPayment:
    """What one win is paid: the base of its kind, the multipliers that apply (in the page's order: 抢杠,
    对胡, 杠开), the amount per payer, and the points per seat."""

    how: WinKind
    base: int
    multipliers: tuple[tuple[str, int], ...]
    """(``rob`` | ``dui_hu`` | ``kong_draw``, ×n)."""
    amount: int
    points: list[int]


def win_payment(how: WinKind, winner: int, payer: int, *, dui_hu: bool,
                kong_draw: bool, config: HuashuiConfig) -> WinPayment:
    """自摸: each other pays the self-draw price, ×杠开 on a kong's replacement tile; 点炮: the discarder pays
    the discard price; 抢杠: the kong-maker pays it ×抢杠; a 对胡 hand multiplies either.  At most one special
    applies in play: 杠开 and 抢杠 both involve a kong, and a hand with a kong (or robbed: all four copies are
    then out) can never be a 对胡."""
    multipliers: list[tuple[str, int]] = []
    if how == "rob":
        multipliers.append(("rob", config.robbing_multiplier))
    if dui_hu:
        multipliers.append(("dui_hu", config.dui_hu_multiplier))
    if how == "self" and kong_draw:
        multipliers.append(("kong_draw", config.kong_draw_multiplier))
    base = config.self_draw if how == "self" else config.discard_win
    amount = base
    for _, m in multipliers:
        amount *= m
    points = each_other_pays(winner, amount) if how == "self" else one_pays(payer, winner, amount)
    return WinPayment(how, base, tuple(multipliers), amount, points)
