"""The capped follow list: never empty, always legal, and the follow rule always leaves a legal play."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from paiju.core.cards import parse_cards
from paiju.games.shengji.plays import follow_candidates
from paiju.games.shengji.rules import Order, follow_problem, hand_counts, order_for


def _case(rng: random.Random, size: int) -> tuple[list[int], list[int], Order]:
    order = order_for(rng.randrange(2, 15), rng.choice([None, 0, 1, 2, 3]))
    deck = list(range(54)) * 4
    rng.shuffle(deck)
    # bias towards one suit so that groups and structure matter
    suit = rng.choice([s for s in range(5) if order.members[s]])
    members = list(order.members[suit])
    hand = [rng.choice(members) if rng.random() < 0.6 else c for c in deck[:size]]
    counts = Counter(hand)
    hand = [c for c, k in counts.items() for _ in range(min(k, 4))]
    lead: list[int] = []
    for c in rng.sample(members, k=min(len(members), rng.randrange(1, 4))):
        lead += [c] * rng.choice([1, 1, 2, 2, 3, 4])
    return hand, lead, order


def test_follow_candidates_are_legal_and_never_empty() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        hand, lead, order = _case(rng, rng.randrange(4, 40))
        if len(hand) < len(lead):
            continue
        h = hand_counts(hand)
        cands = follow_candidates(h, lead, order)
        assert cands, (hand, lead)
        for a in cands:
            play = parse_cards(a.split(" ", 1)[1])
            assert follow_problem(h, lead, play, order) is None, (hand, lead, a)


def test_rule_always_leaves_a_legal_play() -> None:
    """Brute force on small hands: some sub-multiset of the right size is always legal."""
    rng = random.Random(11)
    for _ in range(400):
        hand, lead, order = _case(rng, rng.randrange(4, 11))
        n = len(lead)
        if len(hand) < n or n > 6:
            continue
        h = hand_counts(hand)
        legal = {tuple(sorted(p)) for p in itertools.combinations(sorted(hand), n)
                 if follow_problem(h, lead, list(p), order) is None}
        assert legal, (hand, lead)
        listed = {tuple(sorted(parse_cards(a.split(" ", 1)[1])))
                  for a in follow_candidates(h, lead, order)}
        assert listed <= legal
