"""Generating legal follows without enumerating subsets: a hand holds up to 51 cards.

The engine offers these as the (capped) legal list; ``rules.follow_problem`` stays the authority.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from paiju.core.cards import Card, card_text, parse_cards
from paiju.core.game import Action

from .rules import NUM_KINDS, TRUMP, Order, coverage_plan, lead_sizes

FOLLOW_CAP = 40
UNIT_TEXT: tuple[tuple[str, ...], ...] = tuple(
    ("", *(" ".join([card_text(c)] * k) for k in range(1, 5))) for c in range(NUM_KINDS))
"""``AS AS`` for every card and count."""
UNIT_PLAY: tuple[tuple[str, ...], ...] = tuple(tuple("play " + t if t else "" for t in row) for row in UNIT_TEXT)
"""``play AS AS`` for every card and count."""
UNIT_RUNS: tuple[tuple[tuple[str, ...], ...], ...] = tuple(tuple(row[1:k + 1] for k in range(5)) for row in UNIT_PLAY)
"""``UNIT_RUNS[c][k]``: playing 1…k copies of ``c``."""
TEXT: tuple[str, ...] = tuple(card_text(c) for c in range(NUM_KINDS))


@lru_cache(maxsize=1 << 16)
def parse_play(rest: str) -> tuple[Card, ...]:
    """The cards of an action's card part (``AS AS KD``), remembered: the same plays recur in every hand."""
    return tuple(parse_cards(rest))


def play_text(cards: Sequence[Card], order: Order) -> list[str]:
    """A play's cards as text, in display order."""
    if len(cards) == 1 or cards.count(cards[0]) == len(cards):
        return [TEXT[cards[0]]] * len(cards)
    return [TEXT[c] for c in order.sorted(cards)]


def follow_candidates(h: Sequence[int], lead: Sequence[Card], order: Order) -> list[Action]:
    """A capped, useful list of legal follows: every single to a single lead; otherwise the owed groups
    filled low and high, each exact group of the led size, ruffs of the same structure, low and rich
    discards.  Never empty while the hand holds enough cards."""
    n = len(lead)
    s = order.suit[lead[0]]
    if n == 1:
        singles = [a for c, a in order.singles[s] if h[c]]
        if singles:
            return singles[:FOLLOW_CAP]
        return _void_single(h, s, order)
    suit_cards = [c for c in order.members[s] if h[c]]  # weakest first
    held = 0
    for c in suit_cards:
        held += h[c]
    sizes = lead_sizes(lead)
    cands: list[list[Card]] = []
    if held >= n:
        bins = [k for k in sizes if k > 1]
        need = 0
        if bins:
            exact = [c for c in suit_cards if 2 <= h[c] <= bins[0]]
            plan = coverage_plan(bins, [h[c] for c in exact])
            need = 4 * plan[0] + 3 * plan[1] + 2 * plan[2]
            reqs = (_required(plan, exact, h), _required(plan, exact[::-1], h))
        else:
            reqs = ([], [])
        rev = suit_cards[::-1]
        for req in reqs:
            cands.append(_fill(req, suit_cards, h, n))
            cands.append(_fill(req, rev, h, n))
        if len(sizes) == 1:
            k = sizes[0]
            for c in suit_cards:
                if (need and h[c] == k) or (not need and h[c] >= k):
                    cands.append([c] * k)
    else:
        suit = order.suit
        base = [c for c in suit_cards for _ in range(h[c])]
        for kinds in (order.low, order.rich):
            cands.append(base + _take([c for c in kinds if h[c] and suit[c] != s], h, n - held))
        if held == 0 and s != TRUMP:
            trumps = [c for c in order.members[TRUMP] if h[c]]
            for pref in (trumps[::-1], trumps):
                ruff = _structured(sizes, pref, h)
                if ruff is not None:
                    cands.append(ruff)
            if len(sizes) == 1:
                cands.extend([c] * sizes[0] for c in trumps if h[c] >= sizes[0])
    out: list[Action] = []
    seen: list[list[Card]] = []
    for cand in cands:
        # Legal by construction: short of the suit every candidate holds the whole suit; otherwise it
        # holds the owed groups of an optimal packing (or an exact group of the led size). The property
        # tests check every candidate against ``follow_problem``.
        if len(cand) != n or cand in seen:
            continue
        seen.append(cand)
        if n <= 4 and cand.count(cand[0]) == n:
            a = UNIT_PLAY[cand[0]][n]
        else:
            a = "play " + " ".join([TEXT[c] for c in order.sorted(cand)])
        if a not in out:
            out.append(a)
            if len(out) >= FOLLOW_CAP:
                break
    return out


def _void_single(h: Sequence[int], s: int, order: Order) -> list[Action]:
    """Follows to a single lead of a suit the hand is void in: the cheapest and the richest other card; then,
    void in a side suit, the strongest and the weakest trump and every trump (weakest first)."""
    suit = order.suit
    out: list[Action] = []
    for kinds in (order.low, order.rich):
        for c in kinds:
            if h[c] and suit[c] != s:
                a = UNIT_PLAY[c][1]
                if a not in out:
                    out.append(a)
                break
    if s != TRUMP:
        trumps = [c for c in order.members[TRUMP] if h[c]]
        if trumps:
            for c in (trumps[-1], trumps[0], *trumps):
                a = UNIT_PLAY[c][1]
                if a not in out:
                    out.append(a)
    return out[:FOLLOW_CAP]


def _required(plan: tuple[int, int, int], exact: list[Card], h: Sequence[int]) -> list[Card]:
    """Exact groups (preferred in the given order) that an optimal packing of the lead's units uses: ``plan``
    says how many quads, triples and pairs (:func:`.rules.coverage_plan`)."""
    want = {4: plan[0], 3: plan[1], 2: plan[2]}
    out: list[Card] = []
    for c in exact:
        k = h[c]
        if want[k] > 0:
            want[k] -= 1
            out += [c] * k
    return out


def _fill(required: list[Card], pref: list[Card], h: Sequence[int], n: int) -> list[Card]:
    out = list(required)
    left = list(h)
    for c in required:
        left[c] -= 1
    for c in pref:
        k = min(left[c], n - len(out))
        if k > 0:
            out += [c] * k
        if len(out) >= n:
            break
    return out


def _take(pref: list[Card], h: Sequence[int], n: int) -> list[Card]:
    out: list[Card] = []
    for c in pref:
        k = min(h[c], n - len(out))
        out.extend([c] * k)
        if len(out) >= n:
            break
    return out


def _structured(sizes: list[int], pref: list[Card], h: Sequence[int]) -> list[Card] | None:
    """Cards from ``pref`` (in order) forming units of ``sizes``, or None."""
    room = {c: h[c] for c in pref}
    out: list[Card] = []
    for k in sizes:
        c = next((c for c in pref if room[c] >= k), None)
        if c is None:
            return None
        room[c] -= k
        out.extend([c] * k)
    return out
