"""Generating legal follows without enumerating subsets: a hand holds up to 51 cards.

The engine offers these as the (capped) legal list; ``rules.follow_problem`` stays the authority.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from paiju.core.cards import Card, card_text
from paiju.core.game import Action

from .rules import NUM_KINDS, TRUMP, Order, coverage, coverage_plan, points_of

FOLLOW_CAP = 40
UNIT_PLAY: tuple[tuple[str, ...], ...] = tuple(
    ("", *("play " + " ".join([card_text(c)] * k) for k in range(1, 5))) for c in range(NUM_KINDS))
"""``play AS AS`` for every card and count."""


def follow_candidates(h: Sequence[int], lead: Sequence[Card], order: Order) -> list[Action]:
    """A capped, useful list of legal follows: every single to a single lead; otherwise the owed groups
    filled low and high, each exact group of the led size, ruffs of the same structure, low and rich
    discards.  Never empty while the hand holds enough cards."""
    n = len(lead)
    s = order.suit[lead[0]]
    sizes = sorted(Counter(lead).values(), reverse=True)
    suit_cards = [c for c in order.members[s] if h[c]]  # weakest first
    held = sum(h[c] for c in suit_cards)
    cands: list[list[Card]] = []
    if held >= n:
        if sizes == [1]:
            return [UNIT_PLAY[c][1] for c in reversed(suit_cards)][:FOLLOW_CAP]
        bins = [k for k in sizes if k > 1]
        exact = [c for c in suit_cards if 2 <= h[c] <= max(bins)] if bins else []
        for chosen in (exact, list(reversed(exact))):
            req = _required(bins, chosen, h) if bins else []
            for fill_order in (suit_cards, list(reversed(suit_cards))):
                cands.append(_fill(req, fill_order, h, n))
        if len(sizes) == 1:
            k = sizes[0]
            need = coverage(bins, [h[c] for c in exact])
            for c in suit_cards:
                if (need and h[c] == k) or (not need and h[c] >= k):
                    cands.append([c] * k)
    else:
        base = [c for c in suit_cards for _ in range(h[c])]
        others = [c for c in range(NUM_KINDS) if h[c] and order.suit[c] != s]
        low = sorted(others, key=lambda c: (order.suit[c] == TRUMP, points_of([c]) > 0, order.key[c]))
        rich = sorted(others, key=lambda c: (-points_of([c]), order.suit[c] == TRUMP, order.key[c]))
        for pref in (low, rich):
            cands.append(base + _take(pref, h, n - held))
        if held == 0 and s != TRUMP:
            trumps = [c for c in order.members[TRUMP] if h[c]]
            for pref in (list(reversed(trumps)), trumps):
                ruff = _structured(sizes, pref, h)
                if ruff is not None:
                    cands.append(ruff)
            if len(sizes) == 1:
                cands.extend([c] * sizes[0] for c in trumps if h[c] >= sizes[0])
    out: list[Action] = []
    for cand in cands:
        # Legal by construction: short of the suit every candidate holds the whole suit; otherwise it
        # holds the owed groups of an optimal packing (or an exact group of the led size). The property
        # tests check every candidate against ``follow_problem``.
        if len(cand) != n:
            continue
        if n <= 4 and cand.count(cand[0]) == n:
            a = UNIT_PLAY[cand[0]][n]
        else:
            a = "play " + " ".join(card_text(c) for c in order.sorted(cand))
        if a not in out:
            out.append(a)
        if len(out) >= FOLLOW_CAP:
            break
    return out


def _required(bins: list[int], exact: list[Card], h: Sequence[int]) -> list[Card]:
    """Exact groups (preferred in the given order) that an optimal packing of the lead's units uses."""
    want = dict(zip((4, 3, 2), coverage_plan(bins, [h[c] for c in exact]), strict=True))
    out: list[Card] = []
    for c in exact:
        if want.get(h[c], 0) > 0:
            want[h[c]] -= 1
            out.extend([c] * h[c])
    return out


def _fill(required: list[Card], pref: list[Card], h: Sequence[int], n: int) -> list[Card]:
    out = list(required)
    used = Counter(required)
    for c in pref:
        while len(out) < n and used[c] < h[c]:
            out.append(c)
            used[c] += 1
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
