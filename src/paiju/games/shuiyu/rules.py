"""广西水鱼 rules as pure functions: points, hand classes, the three splits, the showdown, the drinking table.

Cards are the shared French notation (``AS 10H KD``, :mod:`paiju.core.cards`).  Internally a card is the
core's small int; every two-card group has a precomputed integer *strength* (``GROUP_KEY``) such that a
larger key is a stronger group (page §三):

* the group's points (0–9, units digit of the sum; A = 1, 10/J/Q/K = 10), a pair (保) above every point;
* then the group's highest card by rank, 2 < 3 < … < 10 < J < Q < K < A (not by points);
* then that card's suit, ♦ < ♣ < ♥ < ♠.

Two groups from one deck never tie unless they share their top card, so at a real table every
comparison is strict.

An *arrangement* is the four cards split into head (头, the stronger group) and tail (尾): the text form
is ``"AS 8H | KD 7C"``; whichever group is written first, head and tail are found by strength (§四 1).
:func:`splits` returns the three arrangements of a hand in that form, head first, each group's stronger
card first, so its strings are canonical (the engine's ``split …`` actions use them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from paiju.core.cards import Card, card_text, parse_cards
from paiju.core.errors import NotationError

Group = tuple[Card, Card]
Arrangement = tuple[Group, Group]
"""(head, tail), head the stronger group, each group's stronger card first."""

Kind = Literal["zhizun", "shuiyu", "plain"]
Outcome = Literal["banker", "player", "walk"]

PAIR_POINTS = 10
"""``points`` of a pair (保): above every point value."""

# ---- tables built once at import ----------------------------------------------------------------
RANK_INDEX: tuple[int, ...] = tuple(c // 4 for c in range(52))
"""0 = A … 12 = K."""
POINT: tuple[int, ...] = tuple((r + 1) % 10 if r < 9 else 0 for r in RANK_INDEX)
"""A = 1, 2–9 face value, 10/J/Q/K = 10 ≡ 0."""
_ORDER: tuple[int, ...] = tuple(12 if r == 0 else r - 1 for r in RANK_INDEX)
"""Rank order for the high card: 2 → 0 … K → 11, A → 12."""
CARD_KEY: tuple[int, ...] = tuple(_ORDER[c] * 4 + (3 - c % 4) for c in range(52))
"""0..51, unique per card: rank order then suit (♦ 0 < ♣ 1 < ♥ 2 < ♠ 3; core suits are S H C D = 0..3)."""


def _group_key(a: Card, b: Card) -> int:
    pts = PAIR_POINTS if RANK_INDEX[a] == RANK_INDEX[b] else (POINT[a] + POINT[b]) % 10
    return pts * 52 + max(CARD_KEY[a], CARD_KEY[b])


GROUP_KEY: tuple[int, ...] = tuple(_group_key(a, b) if a != b else -1 for a in range(52) for b in range(52))
"""Strength of the group {a, b} at index ``a * 52 + b`` (symmetric); -1 on the diagonal."""
NUM_KEYS = (PAIR_POINTS + 1) * 52
"""Keys lie in 0 .. NUM_KEYS - 1."""

SPLIT_PATTERNS: tuple[tuple[int, int, int, int], ...] = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2))
"""The three ways to split four cards into two pairs of positions: {ab|cd}, {ac|bd}, {ad|bc}."""


def key_points(key: int) -> int:
    """Points of a group from its key (10 = pair)."""
    return key // 52


def _order_group(a: Card, b: Card) -> Group:
    return (a, b) if CARD_KEY[a] > CARD_KEY[b] else (b, a)


def make_arrangement(g1: Group, g2: Group) -> Arrangement:
    """Head/tail by strength, each group's stronger card first: the canonical form."""
    k1 = GROUP_KEY[g1[0] * 52 + g1[1]]
    k2 = GROUP_KEY[g2[0] * 52 + g2[1]]
    a, b = _order_group(*g1), _order_group(*g2)
    return (a, b) if k1 > k2 else (b, a)


def split_cards(cards: tuple[Card, Card, Card, Card] | list[Card]) -> list[Arrangement]:
    """The three arrangements of four card ints, canonical, in the fixed pattern order."""
    return [make_arrangement((cards[i], cards[j]), (cards[k], cards[m])) for i, j, k, m in SPLIT_PATTERNS]


def keys_of(arr: Arrangement) -> tuple[int, int]:
    """(head key, tail key)."""
    (a, b), (c, d) = arr
    return GROUP_KEY[a * 52 + b], GROUP_KEY[c * 52 + d]


def kind_of_cards(cards: Iterable[Card]) -> Kind:
    """至尊 = four of a kind; 水鱼 = two pairs of different ranks (page §二)."""
    ranks = sorted(RANK_INDEX[c] for c in cards)
    if len(ranks) != 4:
        raise ValueError("a 水鱼 hand has four cards")
    if ranks[0] == ranks[3]:
        return "zhizun"
    if ranks[0] == ranks[1] and ranks[2] == ranks[3]:
        return "shuiyu"
    return "plain"


def kind_of_arrangement(arr: Arrangement) -> Kind:
    """The page defines 水鱼/至尊 by the arrangement: both groups 保, of different / the same rank."""
    (a, b), (c, d) = arr
    if RANK_INDEX[a] != RANK_INDEX[b] or RANK_INDEX[c] != RANK_INDEX[d]:
        return "plain"
    return "zhizun" if RANK_INDEX[a] == RANK_INDEX[c] else "shuiyu"


def special_arrangement(cards: list[Card] | tuple[Card, ...]) -> Arrangement | None:
    """The pair split of a 水鱼 or 至尊 hand (the one split that keeps its class), else None."""
    if kind_of_cards(cards) == "plain":
        return None
    for arr in split_cards(list(cards)):
        if kind_of_arrangement(arr) != "plain":
            return arr
    return None  # pragma: no cover - a special hand always has a pair split


def compare_keys(bh: int, bt: int, ph: int, pt: int) -> Outcome:
    """Head against head, tail against tail (§四 2 (1)–(3))."""
    if bh > ph and bt > pt:
        return "banker"
    if bh < ph and bt < pt:
        return "player"
    return "walk"


_KIND_RANK = {"plain": 0, "shuiyu": 1, "zhizun": 2}


def outcome(banker: Arrangement, player: Arrangement) -> Outcome:
    """Showdown of two arrangements: 至尊硬牌 and 水鱼硬牌 first, then group against group (§四 2)."""
    kb, kp = _KIND_RANK[kind_of_arrangement(banker)], _KIND_RANK[kind_of_arrangement(player)]
    if kb != kp:
        return "banker" if kb > kp else "player"
    bh, bt = keys_of(banker)
    ph, pt = keys_of(player)
    return compare_keys(bh, bt, ph, pt)


_BANKER_SCORE = {"banker": 2, "walk": 1, "player": 0}


def _allowed_splits(cards: list[Card] | tuple[Card, ...]) -> list[Arrangement]:
    """The splits a hand may take: a 水鱼/至尊 only its pairs, any other hand all three."""
    special = special_arrangement(cards)
    return [special] if special is not None else split_cards(list(cards))


def best_banker_arrangement(banker_cards: list[Card] | tuple[Card, ...], player: Arrangement) -> Arrangement:
    """The banker's split that does best against an open hand: a win if any, else a walk, else any."""
    return max(_allowed_splits(banker_cards), key=lambda arr: _BANKER_SCORE[outcome(arr, player)])


def worst_player_arrangement(player_cards: list[Card] | tuple[Card, ...], banker: Arrangement) -> Arrangement:
    """The split of the player's cards the banker would choose: the player's worst result; among equals the
    one with the weakest head (then tail), so the split shown is the plainest proof."""
    def banker_prefers(arr: Arrangement) -> tuple[int, int, int]:
        head, tail = keys_of(arr)
        return _BANKER_SCORE[outcome(banker, arr)], -head, -tail
    return max(_allowed_splits(player_cards), key=banker_prefers)


# ---- text form ----------------------------------------------------------------------------------
def _cards(text: str | Iterable[str], n: int) -> list[Card]:
    cards = parse_cards(text)
    if len(cards) != n:
        raise NotationError(f"expected {n} cards, got {len(cards)}: {' '.join(card_text(c) for c in cards)!r}")
    if any(c >= 52 for c in cards):
        raise NotationError("水鱼 is played without jokers")
    if len(set(cards)) != n:
        raise NotationError("a card appears twice: one deck has each card once")
    return cards


def group_text(group: Group) -> str:
    return f"{card_text(group[0])} {card_text(group[1])}"


def arrangement_text(arr: Arrangement) -> str:
    """``"AS 8H | KD 7C"``: head first."""
    return f"{group_text(arr[0])} | {group_text(arr[1])}"


def parse_arrangement(text: str) -> Arrangement:
    """``"AS 8H | KD 7C"`` in either order; head and tail are found by strength."""
    parts = text.split("|")
    if len(parts) != 2:
        raise NotationError(f"an arrangement is two groups separated by '|', e.g. 'AS 8H | KD 7C': {text!r}")
    g1, g2 = _cards(parts[0], 2), _cards(parts[1], 2)
    if set(g1) & set(g2):
        raise NotationError(f"a card appears twice in {text!r}")
    return make_arrangement((g1[0], g1[1]), (g2[0], g2[1]))


def points(group: str | Iterable[str]) -> int:
    """Points of a two-card group: units digit of the sum (A = 1, 10/J/Q/K = 10), or 10 for a pair (保)."""
    a, b = _cards(group, 2)
    return GROUP_KEY[a * 52 + b] // 52


def group_strength(group: str | Iterable[str]) -> int:
    """The comparable strength of a group (larger is stronger): points, then top rank, then top suit."""
    a, b = _cards(group, 2)
    return GROUP_KEY[a * 52 + b]


def classify(hand: str | Iterable[str]) -> Kind:
    """``"zhizun"`` (four of a kind), ``"shuiyu"`` (two pairs of different ranks) or ``"plain"``."""
    return kind_of_cards(_cards(hand, 4))


def splits(hand: str | Iterable[str]) -> list[str]:
    """The three arrangements of four cards as ``"head | tail"`` strings (canonical, head first)."""
    return [arrangement_text(a) for a in split_cards(_cards(hand, 4))]


def showdown(banker: str, player: str) -> Outcome:
    """Who wins: ``"banker"``, ``"player"`` or ``"walk"`` (走过).  Each side is an arrangement string."""
    b, p = parse_arrangement(banker), parse_arrangement(player)
    shared = {c for g in b for c in g} & {c for g in p for c in g}
    if shared:
        raise NotationError(f"banker and player both hold {' '.join(card_text(c) for c in sorted(shared))}")
    return outcome(b, p)


# ---- the drinking table (page §六) ---------------------------------------------------------------
@dataclass(frozen=True)
class Drink:
    """One settled line: which page line, who drinks and how many times the base drink (0 = nobody)."""

    line: str
    """Page reference: "一.1" … "一.12", "二.1" … "二.6"."""
    drinker: Literal["banker", "player", "nobody"]
    mult: int
    case: str
    """Machine-readable case name, e.g. ``kill_doubt_banker``."""


Call = Literal["open", "cover", "force", "attack", "push", "show"]
Answer = Literal["kill", "walk", "call", "concede", "accept", "refuse", "allow", "deny"]
Response = Literal["believe", "doubt", "drink", "compare"]

PLAYER_CALLS = ("open", "cover", "force", "attack", "push")
OPEN_ANSWERS = ("kill", "walk")
COVER_ANSWERS = {"cover": ("call", "concede"), "attack": ("accept", "refuse"), "push": ("allow", "deny")}
"""How the banker answers a hand that stays covered: each call has its own pair of answers (page §五)."""
ANSWER_OF = {"open": OPEN_ANSWERS, **COVER_ANSWERS}


@dataclass(frozen=True)
class Table:
    """The multipliers and the choices for the page's holes (a view of ``ShuiyuConfig``)."""

    kill_believed: int = 1
    doubt: int = 2
    force: int = 3
    attack_refused: int = 1
    attack_drink: int = 1
    attack_compare: int = 2
    push_drink: int = 1
    push_compare: int = 2
    cover_called: int = 2
    cover_conceded: int = 1
    shuiyu: int = 2
    zhizun: int = 4
    walk_doubted_banker_bigger: Literal["player", "banker"] = "player"
    force_walk: Literal["player", "nobody"] = "player"
    attack_walk: Literal["attacker", "nobody"] = "attacker"


_SPECIAL_LINES: dict[tuple[str, str], str] = {
    ("plain", "shuiyu"): "二.1", ("shuiyu", "shuiyu"): "二.2/二.5",
    ("plain", "zhizun"): "二.3", ("shuiyu", "zhizun"): "二.3", ("zhizun", "zhizun"): "二.4/二.6",
    ("shuiyu", "plain"): "二.5", ("zhizun", "plain"): "二.6", ("zhizun", "shuiyu"): "二.6",
}
"""(banker kind, player kind) -> the page line that settles it."""


def settle_special(banker_kind: Kind, player_kind: Kind, result: Outcome, t: Table) -> Drink:
    """Lines 二.1–二.6: a 水鱼 or 至尊 on either side, shown and settled without calls."""
    line = _SPECIAL_LINES[banker_kind, player_kind]
    m = t.zhizun if "zhizun" in (banker_kind, player_kind) else t.shuiyu
    if result == "walk":
        return Drink(line, "nobody", 0, "special_walk")
    return Drink(line, "player" if result == "banker" else "banker", m, f"special_{result}")


def settle(call: Call, answer: Answer | None, response: Response | None, result: Outcome, t: Table) -> Drink:
    """Lines 一.1–一.12 for a plain hand against a plain banker.

    ``result`` is the true showdown (for 强奸 already the banker's chosen arrangement); it is ignored
    where the page settles without comparing (信, 不看, refusals, drinking instead of comparing).
    """
    if call == "open":
        if answer == "kill":
            if response == "believe":
                return Drink("一.1", "player", t.kill_believed, "kill_believe")
            if result == "banker":
                return Drink("一.2", "player", t.doubt, "kill_doubt_banker")
            return Drink("一.3", "banker", t.doubt, f"kill_doubt_{result}")
        if answer == "walk":
            if response == "believe":
                return Drink("一.4", "nobody", 0, "walk_believe")
            if result == "walk":
                return Drink("一.5", "player", t.doubt, "walk_doubt_walk")
            if result == "player":
                return Drink("一.6", "banker", t.doubt, "walk_doubt_player")
            return Drink("一.5*", t.walk_doubted_banker_bigger, t.doubt, "walk_doubt_banker")
        raise ValueError(f"an open hand is answered kill or walk, not {answer!r}")
    if call == "force":
        if result == "player":
            return Drink("一.7", "banker", t.force, "force_player")
        if result == "walk" and t.force_walk == "nobody":
            return Drink("一.7*", "nobody", 0, "force_walk")
        return Drink("一.7" if result == "banker" else "一.7*", "player", t.force, f"force_{result}")
    if call == "attack":
        if answer == "refuse":
            return Drink("一.8", "banker", t.attack_refused, "attack_refused")
        if answer != "accept":
            raise ValueError(f"an attack is answered accept or refuse, not {answer!r}")
        if response == "drink":
            return Drink("一.8", "player", t.attack_drink, "attack_drink")
        if result == "player":
            return Drink("一.8", "banker", t.attack_compare, "attack_compare_player")
        if result == "walk" and t.attack_walk == "nobody":
            return Drink("一.8*", "nobody", 0, "attack_compare_walk")
        return Drink("一.8" if result == "banker" else "一.8*", "player", t.attack_compare,
                     f"attack_compare_{result}")
    if call == "push":
        if answer == "allow":
            return Drink("一.9", "nobody", 0, "push_allowed")
        if answer != "deny":
            raise ValueError(f"a push is answered allow or deny, not {answer!r}")
        if response == "drink":
            return Drink("一.9", "player", t.push_drink, "push_drink")
        if result == "banker":
            return Drink("一.9", "player", t.push_compare, "push_compare_banker")
        return Drink("一.9", "banker", t.push_compare, f"push_compare_{result}")
    if call == "cover":
        if answer == "concede":
            return Drink("一.12", "banker", t.cover_conceded, "cover_conceded")
        if answer != "call":
            raise ValueError(f"a covered hand is answered call or concede, not {answer!r}")
        if result == "player":
            return Drink("一.10", "banker", t.cover_called, "cover_called_player")
        return Drink("一.11", "player", t.cover_called, f"cover_called_{result}")
    raise ValueError(f"no drinking line for call {call!r}")



@dataclass(frozen=True)
class PlayerResult:
    """How one player's round against the banker ends: the line of the page that settles it, the showdown
    it used, and what it shows — the banker's hand to this player, this player's covered hand to all."""

    call: Call
    """The player's call; ``show`` for a 水鱼 or 至尊 on either side."""
    drink: Drink
    result: Outcome
    banker_shown: bool
    player_shown: bool
    resplit: Arrangement | None = None
    """强奸: the split the banker made (of the player's cards, or with ``force_rearrange="banker"`` its own)."""


def settle_player(banker: Arrangement, banker_cards: list[Card], banker_kind: Kind, player: Arrangement,
                  player_cards: list[Card], player_kind: Kind, call: Call, answer: Answer | None,
                  response: Response | None, t: Table, *, force_rearrange: str = "player") -> PlayerResult:
    """Settle one player against the banker, as the page does (§六).

    A 水鱼 or 至尊 on either side is shown and settled by its own lines (二.1–二.6), calls aside; both hands
    are then face up only if both are special.  Otherwise the calls decide (一.1–一.12): for 强奸 ("任由庄家组合
    自己的牌") the banker splits the player's cards (or, with ``force_rearrange="banker"``, re-splits its own)
    for the best result it can get; the banker's hand is shown to a player who doubted (不信), whose covered
    hand it called (开牌), who compared (比牌), or who forced (强奸); a covered hand that is compared is turned
    up for everyone.
    """
    if banker_kind != "plain" or player_kind != "plain":
        result = outcome(banker, player)
        both = banker_kind != "plain" and player_kind != "plain"
        return PlayerResult("show", settle_special(banker_kind, player_kind, result, t), result, both, False)
    resplit = None
    if call == "force":
        if force_rearrange == "banker":
            resplit = best_banker_arrangement(banker_cards, player)
            result = outcome(resplit, player)
        else:
            resplit = worst_player_arrangement(player_cards, banker)
            result = outcome(banker, resplit)
    else:
        result = outcome(banker, player)
    drink = settle(call, answer, response, result, t)
    shown = (call == "force" or (call == "open" and response == "doubt") or (call == "cover" and answer == "call")
             or response == "compare")
    return PlayerResult(call, drink, result, shown, shown and call in ("cover", "attack", "push"), resplit)


def drink_points(seats: int, banker: int, player: int, drink: Drink, *, zero_sum: bool) -> list[float]:
    """Points per seat from one line: the drinker loses its drinks; the other side gains them if zero-sum."""
    row = [0.0] * seats
    if drink.drinker != "nobody":
        loser, winner = (player, banker) if drink.drinker == "player" else (banker, player)
        row[loser] -= drink.mult
        if zero_sum:
            row[winner] += drink.mult
    return row

def all_hands() -> Iterable[tuple[Card, Card, Card, Card]]:
    """Every four-card hand of the deck, in lexicographic order (270,725 of them)."""
    return combinations(range(52), 4)
