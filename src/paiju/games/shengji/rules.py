"""The rules of 升级 (four decks, the 打10 rules of page 002) as pure functions: no state, no I/O.

Cards are the shared ints of :mod:`paiju.core.cards` (four decks repeat them).  Everything that depends
on the trump — which "suit" a card plays in and how strong it is there — lives in an :class:`Order`,
built once per (level, trump) and cached.  The public helpers at the bottom take card strings, as the
rule page writes them; the engine uses the int versions.

Terms: a *unit* is a group of identical cards in a play (a single, 对 pair, 三个头 triple, 四个头 quad);
a lead of several units in one suit is a *throw* (甩牌).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, repeat
from typing import Any

from paiju.core.cards import BIG_JOKER, SMALL_JOKER, SUITS, Card, card_text, parse_cards, rank_of
from paiju.core.errors import NotationError

TRUMP = 4
"""Effective suit number of every trump card (0..3 are S H C D)."""

NUM_KINDS = 54
TOTAL_POINTS = 400
"""Points in four decks: (4×5 + 4×10 + 4×10) × 4."""
THRESHOLD = 160
STEP = 20
TOP = 14
"""Level A: the highest level; going past it (过A) ends the match."""

LEVEL_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
               11: "J", 12: "Q", 13: "K", 14: "A"}
_LEVEL_PARSE = {v: k for k, v in LEVEL_NAMES.items()}

POINTS: tuple[int, ...] = tuple(
    0 if c >= 52 else {5: 5, 10: 10, 13: 10}.get(rank_of(c), 0) for c in range(NUM_KINDS))


def parse_level(level: int | str) -> int:
    """Level as 2…14 (14 = A) from an int or a rank text (``"10"``, ``"J"``, ``"A"``)."""
    if isinstance(level, int):
        if 2 <= level <= 14:
            return level
    elif level.strip().upper() in _LEVEL_PARSE:
        return _LEVEL_PARSE[level.strip().upper()]
    raise NotationError(f"bad level {level!r}: expected 2…10, J, Q, K, A (or 2…14)")


def level_rank(level: int) -> int:
    """The card rank (1 = A … 13 = K) played as level ``level`` (2…14)."""
    return 1 if level == 14 else level


def suit_number(trump: str | None) -> int | None:
    if trump is None:
        return None
    if trump not in SUITS:
        raise NotationError(f"bad trump suit {trump!r}: expected S H C D or None for no-trump")
    return SUITS.index(trump)


@dataclass(frozen=True)
class Order:
    """Card order for one hand: effective suit and strength of every card kind.

    Strength within a suit: plain cards 2…A = 2…14; in the trump suit, the level cards of the other
    suits 15 (all equal: the first played wins), the level card of the trump suit 16, small joker 17,
    big joker 18.  The level rank is left out of its own suit.
    """

    level: int
    trump: int | None
    suit: tuple[int, ...]
    key: tuple[int, ...]
    members: tuple[tuple[int, ...], ...]
    """Card kinds of each effective suit 0..4, weakest first."""
    display: tuple[int, ...] = ()
    """Every card kind in display order (see :meth:`sort_key`)."""
    place: tuple[int, ...] = ()
    """Each card kind's index in ``display``: sorting by it is sorting by :meth:`sort_key`."""
    display_text: tuple[str, ...] = ()
    """``display`` as text."""
    low: tuple[int, ...] = ()
    """Every card kind, cheapest to give away first: side suits before trumps, no points before points, weak first."""
    rich: tuple[int, ...] = ()
    """Every card kind, most points first (then side suits before trumps, weak first): what to feed a partner."""
    weak: tuple[int, ...] = ()
    """Every card kind, side suits before trumps, weak first."""
    singles: tuple[tuple[tuple[int, str], ...], ...] = ()
    """Per effective suit, ``(card, "play <card>")`` strongest first: the follows to a single lead."""

    def sort_key(self, card: Card) -> tuple[int, int, int]:
        """Display order: trumps first, then suits S H C D, strongest first."""
        s = self.suit[card]
        return (0 if s == TRUMP else 1 + s, -self.key[card], card % 4 if card < 52 else 0)

    def sorted(self, cards: Iterable[Card]) -> list[Card]:
        return sorted(cards, key=self.place.__getitem__)

    def spread(self, counts: Sequence[int]) -> list[Card]:
        """The cards of a hand given as counts per kind, in display order."""
        return list(chain.from_iterable(map(repeat, self.display, map(counts.__getitem__, self.display))))

    def spread_text(self, counts: Sequence[int]) -> list[str]:
        """The same as text (``["BJ", "2H", "2H", "AS", …]``)."""
        return list(chain.from_iterable(map(repeat, self.display_text, map(counts.__getitem__, self.display))))


@lru_cache(maxsize=128)
def order_for(level: int, trump: int | None) -> Order:
    lr = level_rank(level)
    suit: list[int] = []
    key: list[int] = []
    for c in range(NUM_KINDS):
        if c >= 52:
            suit.append(TRUMP)
            key.append(18 if c == BIG_JOKER else 17)
            continue
        r, s = rank_of(c), c % 4
        plain = 14 if r == 1 else r
        if r == lr:
            suit.append(TRUMP)
            key.append(16 if s == trump else 15)
        elif s == trump:
            suit.append(TRUMP)
            key.append(plain)
        else:
            suit.append(s)
            key.append(plain)
    members = tuple(tuple(sorted((c for c in range(NUM_KINDS) if suit[c] == s), key=lambda c: key[c]))
                    for s in range(5))
    order = Order(level, trump, tuple(suit), tuple(key), members)
    display = tuple(sorted(range(NUM_KINDS), key=order.sort_key))
    place = [0] * NUM_KINDS
    for i, c in enumerate(display):
        place[c] = i
    low = tuple(sorted(range(NUM_KINDS), key=lambda c: (suit[c] == TRUMP, POINTS[c] > 0, key[c])))
    rich = tuple(sorted(range(NUM_KINDS), key=lambda c: (-POINTS[c], suit[c] == TRUMP, key[c])))
    weak = tuple(sorted(range(NUM_KINDS), key=lambda c: (suit[c] == TRUMP, key[c])))
    singles = tuple(tuple((c, "play " + card_text(c)) for c in reversed(m)) for m in members)
    return Order(level, trump, tuple(suit), tuple(key), members, display, tuple(place),
                 tuple(card_text(c) for c in display), low, rich, weak, singles)


@dataclass(frozen=True)
class Refusal:
    """Why an action is refused: a reason and its facts.  The rules and the engine decide; the game's view
    (``view.explain``) words it in Chinese and English."""

    reason: str
    facts: tuple[Any, ...] = ()


def refuse(reason: str, *facts: Any) -> Refusal:
    return Refusal(reason, facts)


# ---- points and levels ---------------------------------------------------------------------------

def points_of(cards: Iterable[Card]) -> int:
    return sum(map(POINTS.__getitem__, cards))


def level_change(attacker_points: int) -> tuple[str, int]:
    """Who goes up and by how many levels, by the page's formula.

    At 160 or more the attackers (闲家) take over and go up one level per full 20 above 160 (甩零头, no
    natural level).  Below 160 the points are rounded up to a multiple of 20 (加零头) and the defenders
    (庄家) go up one level per 20 under 160, plus the natural level.  Negative totals count as 0.
    """
    p = max(0, attacker_points)
    if p >= THRESHOLD:
        return ("attackers", (p - THRESHOLD) // STEP)
    rounded = -(-p // STEP) * STEP
    return ("defenders", (THRESHOLD - rounded) // STEP + 1)


# ---- bidding (亮主) ------------------------------------------------------------------------------

# The page's ladder, weakest first: one level card, two level cards, two small jokers, two big jokers,
# three level cards, three small jokers, three big jokers, four level cards, four small, four big.
_LEVEL_BID_RANK = {1: 1, 2: 2, 3: 5, 4: 8}
_SMALL_BID_RANK = {2: 3, 3: 6, 4: 9}
_BIG_BID_RANK = {2: 4, 3: 7, 4: 10}


def bid_rank(card: Card, count: int, level: int) -> int | None:
    """Ladder rank of bidding ``count`` copies of ``card`` at ``level``; None when no legal bid."""
    if card == SMALL_JOKER:
        return _SMALL_BID_RANK.get(count)
    if card == BIG_JOKER:
        return _BIG_BID_RANK.get(count)
    if rank_of(card) != level_rank(level):
        return None
    return _LEVEL_BID_RANK.get(count)


@lru_cache(maxsize=16)
def bid_table(level: int) -> tuple[tuple[Card, tuple[tuple[int, int, str], ...]], ...]:
    """The bids at ``level``, built once: for each card that can bid (the level card of S H C D, the small and the
    big joker), ``(copies, ladder rank, action)`` for each number of copies that is a bid."""
    from paiju.core.cards import card_text

    lr = level_rank(level)
    out = []
    for card in [(lr - 1) * 4 + s for s in range(4)] + [SMALL_JOKER, BIG_JOKER]:
        options = []
        for n in range(1, 5):
            rank = bid_rank(card, n, level)
            if rank is not None:
                options.append((n, rank, "bid " + " ".join([card_text(card)] * n)))
        out.append((card, tuple(options)))
    return tuple(out)


def bid_trump(card: Card) -> int | None:
    """The trump a bid names: the level card's suit, or None (no-trump) for jokers."""
    return None if card >= 52 else card % 4


# ---- structure of plays ----------------------------------------------------------------------------

def units(cards: Iterable[Card]) -> list[tuple[Card, int]]:
    """A play's units: each distinct card with its count (four decks: 1…4)."""
    return list(Counter(cards).items())


def play_suit(cards: Sequence[Card], order: Order) -> int | None:
    """The one effective suit of ``cards``, or None when they mix suits."""
    s = order.suit[cards[0]]
    for c in cards:
        if order.suit[c] != s:
            return None
    return s


def coverage(bins: Sequence[int], groups: Sequence[int]) -> int:
    """Most cards of the ``groups`` (sizes 2…4, each used whole) that fit the lead's units ``bins``.

    The follow rule in one number: a quad fills a quad unit; a triple a triple or quad unit; a pair a
    pair, triple or quad unit, two pairs a quad unit.  Quads only fit quad units, so they go first; the
    loop tries every split of the triples between quad and triple units.
    """
    q, t, p = coverage_plan(bins, groups)
    return 4 * q + 3 * t + 2 * p


def coverage_plan(bins: Sequence[int], groups: Sequence[int]) -> tuple[int, int, int]:
    """How many quads, triples and pairs of ``groups`` an optimal packing (see :func:`coverage`) uses."""
    b4, b3, b2 = bins.count(4), bins.count(3), bins.count(2)
    i4, i3, i2 = groups.count(4), groups.count(3), groups.count(2)
    x4 = min(i4, b4)
    r4 = b4 - x4
    best, plan = -1, (0, 0, 0)
    for t4 in range(min(i3, r4) + 1):
        t3 = min(i3 - t4, b3)
        room = 2 * (r4 - t4) + (b3 - t3) + b2
        p = min(i2, room)
        total = 4 * x4 + 3 * (t4 + t3) + 2 * p
        if total > best:
            best, plan = total, (x4, t4 + t3, p)
    return plan


def follow_problem(hand: Sequence[int], lead: Sequence[Card], play: Sequence[Card], order: Order) -> Refusal | None:
    """Why ``play`` is not a legal follow to ``lead`` from ``hand`` (counts per card kind), or None.

    Follow suit while you can; if the lead has pairs, triples or quads, every group you hold of exactly
    that many identical cards in the suit is owed to the trick as far as the lead's units can take it
    (the page's example: to AAKK, JJJ8755 must give 55 and may add JJ or 87; JJ87 is refused).
    """
    n = len(lead)
    if len(play) != n:
        return refuse("follow_count", n)
    pc = Counter(play)
    for c, k in pc.items():
        if hand[c] < k:
            return refuse("not_held_those")
    s = order.suit[lead[0]]
    held = sum(hand[c] for c in order.members[s])
    in_suit = sum(k for c, k in pc.items() if order.suit[c] == s)
    if held < n:
        if in_suit < held:
            return refuse("follow_all", s, held)
        return None
    if in_suit < n:
        return refuse("follow_suit", s, held)
    bins = [k for k in Counter(lead).values() if k > 1]
    if not bins:
        return None
    exact = [hand[c] for c in order.members[s] if hand[c] >= 2]
    need = coverage(bins, exact)
    if need == 0:
        return None
    got = coverage(bins, [k for c, k in pc.items() if k >= 2 and hand[c] == k])
    if got < need:
        owed = [c for c in order.members[s] if 2 <= hand[c] <= max(bins)]
        return refuse("follow_groups", s, tuple((c, hand[c]) for c in reversed(owed)))
    return None


def fits(counts: Sequence[int], sizes: Sequence[int]) -> bool:
    """Whether groups of identical cards with ``counts`` split exactly into units of ``sizes``.

    A ruff (or an overtaking follow) must repeat the lead's structure: 相应数量的四个、三个和对.
    A quad may serve as two pairs, a triple as a pair and a single; two singles never make a pair.
    """
    if sum(counts) != sum(sizes):
        return False
    need = sorted(sizes, reverse=True)
    room = sorted(counts, reverse=True)

    def place(i: int) -> bool:
        if i == len(need):
            return True
        tried = set()
        for j, r in enumerate(room):
            if r >= need[i] and r not in tried:
                tried.add(r)
                room[j] = r - need[i]
                if place(i + 1):
                    room[j] = r
                    return True
                room[j] = r
        return False

    return place(0)


def lead_sizes(lead: Sequence[Card]) -> list[int]:
    """The sizes of a lead's units, largest first."""
    counts: dict[Card, int] = {}
    for c in lead:
        counts[c] = counts.get(c, 0) + 1
    return sorted(counts.values(), reverse=True)


def play_strength(play: Sequence[Card], lead: Sequence[Card], order: Order,
                  sizes: Sequence[int] | None = None) -> tuple[int, int] | None:
    """How strongly ``play`` contests a trick led by ``lead``: (trump?, key) or None if it cannot win.

    A play contests only if it is all in the led suit or all trump and repeats the lead's structure; it
    is then valued by its strongest card that can fill the lead's largest unit.  ``sizes`` are the lead's
    (:func:`lead_sizes`), when the caller has them.
    """
    s = play_suit(play, order)
    ls = order.suit[lead[0]]
    if s is None or (s != ls and s != TRUMP):
        return None
    if sizes is None:
        sizes = lead_sizes(lead)
    if len(sizes) == 1:
        first = play[0]
        if play.count(first) != len(play):
            return None
        top = first
    else:
        pc = Counter(play)
        if not fits(list(pc.values()), sizes):
            return None
        big = sizes[0]
        top = max((c for c, k in pc.items() if k >= big), key=lambda c: order.key[c])
    return (1 if s == TRUMP else 0, order.key[top])


def trick_winner(plays: Sequence[Sequence[Card]], order: Order) -> int:
    """Index (in play order) of the play that wins; the earliest of equals wins."""
    lead = plays[0]
    if len(lead) == 1:  # singles: the strongest card of the led suit or of the trumps
        suit, key = order.suit, order.key
        ls = suit[lead[0]]
        best, best_val = 0, (ls == TRUMP, key[lead[0]])
        for i in range(1, len(plays)):
            c = plays[i][0]
            s = suit[c]
            if s in (ls, TRUMP):
                val = (s == TRUMP, key[c])
                if val > best_val:
                    best, best_val = i, val
        return best
    sizes = lead_sizes(lead)
    best, best_strength = 0, play_strength(lead, lead, order, sizes)
    assert best_strength is not None
    for i in range(1, len(plays)):
        strength = play_strength(plays[i], lead, order, sizes)
        if strength is not None and strength > best_strength:
            best, best_strength = i, strength
    return best


def throw_beaten_units(throw: Sequence[Card], others: Iterable[Sequence[int]], order: Order) -> list[tuple[Card, int]]:
    """Units of a throw that some other hand (counts) could beat with a bigger unit of its size.

    A throw (甩牌) must be the largest out in every unit; this is the check that finds a 苍蝇.
    """
    s = order.suit[throw[0]]
    beaten = []
    hands = list(others)
    for c, k in units(throw):
        kc = order.key[c]
        if any(h[d] >= k for h in hands for d in order.members[s] if order.key[d] > kc):
            beaten.append((c, k))
    return beaten


def smallest_unit(beaten: Sequence[tuple[Card, int]], order: Order) -> tuple[Card, int]:
    """The part played after a failed throw: 出甩错牌当中的最小牌 — the weakest beatable unit
    (lowest card; of equals, the fewer cards)."""
    return min(beaten, key=lambda u: (order.key[u[0]], u[1]))


def kitty_factor(mode: str, last_lead: Sequence[Card]) -> int:
    """Multiplier of the kitty's points when the attackers win the last trick."""
    if mode == "single":
        return 1
    if mode == "double":
        return 2
    return 2 * max(Counter(last_lead).values())


@dataclass(frozen=True)
class HandSettlement:
    """A hand's settlement by the page's 升级规则 (see :func:`settle_hand`)."""

    kitty_points: int
    """Face points in the kitty."""
    kitty_factor: int
    """Its multiplier: 0 when the defenders won the last trick."""
    kitty_score: int
    card_points: int
    """What the attackers took in cards: their tricks, and the kitty's face points if they won the last trick."""
    total: int
    """P, the attackers' points: tricks + kitty × factor + the fines, each against the side fined (may be < 0)."""
    outcome: str
    """``hold`` (庄家守庄), ``take_over`` (闲家上台), ``shutout`` (光头) or ``sweep`` (全捡)."""
    team: int
    """The side that goes up (0: seats 0+2, 1: seats 1+3)."""
    levels_up: int
    gained: int
    """Levels counted: only up to A."""
    passed_a: bool
    levels: tuple[int, int]
    next_dealer: int


def settle_hand(*, dealer: int, levels: Sequence[int], captured: int, kitty: Sequence[Card], last_winner: int,
                last_lead: Sequence[Card], penalties: Sequence[int], kitty_multiplier: str,
                end_on_shutout: bool) -> HandSettlement:
    """Settle a hand as the page does: the attackers' points, the level change, who deals next.

    ``penalties`` are the fines each side (0, 1) conceded for failed throws; ``captured`` the points the
    attackers won in tricks; ``last_winner`` and ``last_lead`` are the last trick's winner and lead.
    """
    defenders = dealer % 2
    attackers = 1 - defenders
    # 扣底: the kitty counts for the attackers only if they won the last trick, multiplied.
    kitty_points = points_of(kitty)
    factor = kitty_factor(kitty_multiplier, last_lead) if last_winner % 2 == attackers else 0
    kitty_score = kitty_points * factor
    # 吃苍蝇: a fine always goes against the side fined.
    total = captured + kitty_score + penalties[defenders] - penalties[attackers]
    card_points = captured + (kitty_points if factor else 0)
    side, n = level_change(total)
    # 光头，全捡：直接过局 — decided on the card points the attackers took (not on P after the fines), scored as
    # passing A for the winning side.
    if end_on_shutout and card_points == TOTAL_POINTS:
        outcome, team = "sweep", attackers
    elif end_on_shutout and card_points == 0:
        outcome, team = "shutout", defenders
    elif side == "attackers":
        outcome, team = "take_over", attackers
    else:
        outcome, team = "hold", defenders
    # 轮庄: the dealer side holds → the dealer's partner deals; the attackers take over → the dealer's 下家.
    next_dealer = (dealer + 1) % 4 if team == attackers else (dealer + 2) % 4
    old = levels[team]
    shut = outcome in ("sweep", "shutout")
    new = TOP + 1 if shut else old + n
    # 最高只能算到A: past A (过局) counts only up to A and ends the match.
    after = [levels[0], levels[1]]
    after[team] = min(new, TOP)
    return HandSettlement(kitty_points=kitty_points, kitty_factor=factor, kitty_score=kitty_score,
                          card_points=card_points, total=total, outcome=outcome, team=team,
                          levels_up=TOP - old if shut else n, gained=min(new, TOP) - old, passed_a=new > TOP,
                          levels=(after[0], after[1]), next_dealer=next_dealer)


# ---- the public API on card strings ------------------------------------------------------------

def _cards(cards: str | Iterable[str]) -> list[Card]:
    return parse_cards(cards)


def card_points(cards: str | Iterable[str]) -> int:
    """Points held in ``cards``: 5 counts 5, 10 and K count 10."""
    return points_of(_cards(cards))


def declaration_rank(cards: str | Iterable[str], level: int | str) -> int | None:
    """Ladder rank of a bid (larger beats smaller; equal bids in different suits tie), None if no bid.

    One joker, mixed cards, or cards not of the level rank are no bid.
    """
    cs = _cards(cards)
    if not cs or len(set(cs)) != 1:
        return None
    return bid_rank(cs[0], len(cs), parse_level(level))


def hand_counts(cards: Iterable[Card]) -> list[int]:
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[c] += 1
    return counts


def is_legal_follow(hand: str | Iterable[str], lead: str | Iterable[str], play: str | Iterable[str], *,
                    level: int | str, trump: str | None) -> bool:
    """Whether ``play`` may follow ``lead`` from ``hand`` (``trump`` a suit letter, None = no-trump)."""
    order = order_for(parse_level(level), suit_number(trump))
    return follow_problem(hand_counts(_cards(hand)), _cards(lead), _cards(play), order) is None


def throw_fails(throw: str | Iterable[str], others: Iterable[str | Iterable[str]], *,
                level: int | str, trump: str | None) -> list[str]:
    """The units of a throw the ``others`` could beat (empty: the throw stands), as card strings."""
    order = order_for(parse_level(level), suit_number(trump))
    beaten = throw_beaten_units(_cards(throw), [hand_counts(_cards(h)) for h in others], order)
    return [" ".join([card_text(c)] * k) for c, k in beaten]


def is_throw_shape(cards: str | Iterable[str], *, level: int | str, trump: str | None) -> bool:
    """A throw: two or more units, all in one suit (trumps count as one suit)."""
    order = order_for(parse_level(level), suit_number(trump))
    cs = _cards(cards)
    return bool(cs) and play_suit(cs, order) is not None and len(set(cs)) > 1
