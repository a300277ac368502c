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

from paiju.core.cards import BIG_JOKER, SMALL_JOKER, SUITS, Card, parse_cards, rank_of
from paiju.core.errors import NotationError

TRUMP = 4
"""Effective suit number of every trump card (0..3 are S H C D)."""

NUM_KINDS = 54
TOTAL_POINTS = 400
"""Points in four decks: (4×5 + 4×10 + 4×10) × 4."""
THRESHOLD = 160
STEP = 20

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

    def sort_key(self, card: Card) -> tuple[int, int, int]:
        """Display order: trumps first, then suits S H C D, strongest first."""
        s = self.suit[card]
        return (0 if s == TRUMP else 1 + s, -self.key[card], card % 4 if card < 52 else 0)

    def sorted(self, cards: Iterable[Card]) -> list[Card]:
        return sorted(cards, key=self.sort_key)


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
    return Order(level, trump, tuple(suit), tuple(key), members)


# ---- points and levels ---------------------------------------------------------------------------

def points_of(cards: Iterable[Card]) -> int:
    return sum(POINTS[c] for c in cards)


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


def follow_problem(hand: Sequence[int], lead: Sequence[Card], play: Sequence[Card], order: Order) -> str | None:
    """Why ``play`` is not a legal follow to ``lead`` from ``hand`` (counts per card kind), or None.

    Follow suit while you can; if the lead has pairs, triples or quads, every group you hold of exactly
    that many identical cards in the suit is owed to the trick as far as the lead's units can take it
    (the page's example: to AAKK, JJJ8755 must give 55 and may add JJ or 87; JJ87 is refused).
    """
    n = len(lead)
    if len(play) != n:
        return f"play {n} card{'s' if n > 1 else ''}, as many as the lead"
    pc = Counter(play)
    for c, k in pc.items():
        if hand[c] < k:
            return "you do not hold those cards"
    s = order.suit[lead[0]]
    held = sum(hand[c] for c in order.members[s])
    in_suit = sum(k for c, k in pc.items() if order.suit[c] == s)
    name = suit_label(s)
    if held < n:
        if in_suit < held:
            return f"must follow {name}: play all {held} {name} you hold"
        return None
    if in_suit < n:
        return f"must follow {name}: you hold {held} {name}"
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
        shown = " ".join(" ".join([_text(c)] * hand[c]) for c in reversed(owed))
        return (f"the lead has pairs/triples/quads: play your matching {name} groups first "
                f"(you hold {shown})")
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
    return sorted(Counter(lead).values(), reverse=True)


def play_strength(play: Sequence[Card], lead: Sequence[Card], order: Order) -> tuple[int, int] | None:
    """How strongly ``play`` contests a trick led by ``lead``: (trump?, key) or None if it cannot win.

    A play contests only if it is all in the led suit or all trump and repeats the lead's structure; it
    is then valued by its strongest card that can fill the lead's largest unit.
    """
    s = play_suit(play, order)
    ls = order.suit[lead[0]]
    if s is None or (s != ls and s != TRUMP):
        return None
    sizes = lead_sizes(lead)
    pc = Counter(play)
    if len(sizes) == 1:
        if len(pc) != 1:
            return None
        top = play[0]
    else:
        if not fits(list(pc.values()), sizes):
            return None
        big = sizes[0]
        top = max((c for c, k in pc.items() if k >= big), key=lambda c: order.key[c])
    return (1 if s == TRUMP else 0, order.key[top])


def trick_winner(plays: Sequence[Sequence[Card]], order: Order) -> int:
    """Index (in play order) of the play that wins; the earliest of equals wins."""
    lead = plays[0]
    best, best_val = 0, play_strength(lead, lead, order)
    assert best_val is not None
    for i in range(1, len(plays)):
        val = play_strength(plays[i], lead, order)
        if val is not None and val > best_val:
            best, best_val = i, val
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


# ---- labels --------------------------------------------------------------------------------------

_SUIT_LABEL = ("♠", "♥", "♣", "♦", "trumps")


def suit_label(s: int) -> str:
    return _SUIT_LABEL[s]


def _text(card: Card) -> str:
    from paiju.core.cards import card_text

    return card_text(card)


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
    from paiju.core.cards import card_text

    order = order_for(parse_level(level), suit_number(trump))
    beaten = throw_beaten_units(_cards(throw), [hand_counts(_cards(h)) for h in others], order)
    return [" ".join([card_text(c)] * k) for c, k in beaten]


def is_throw_shape(cards: str | Iterable[str], *, level: int | str, trump: str | None) -> bool:
    """A throw: two or more units, all in one suit (trumps count as one suit)."""
    order = order_for(parse_level(level), suit_number(trump))
    cs = _cards(cards)
    return bool(cs) and play_suit(cs, order) is not None and len(set(cs)) > 1
