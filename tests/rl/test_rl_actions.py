"""The action maps reach every legal action and nothing else; 升级's card-by-card masks are exact."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")

from hypothesis import given
from hypothesis import strategies as st

from paiju.core import Game, get_game
from paiju.core.cards import card_text, parse_cards
from paiju.games.shengji.rules import follow_problem, order_for
from paiju.rl import make_spec
from paiju.rl.core import OneStep, make_config
from paiju.rl.shengji import DONE, Cards, Follow

GAMES = ["shuiyu", "huashui", "shengji", "weimaque"]


def positions(game: str, matches: int, **options: Any) -> list[tuple[Game[Any], int]]:
    """Deciding seats of random matches, in every phase they reach."""
    cls = get_game(game)
    rng = random.Random(7)
    out = []
    for seed in range(matches):
        g = cls.new(cls.config_class.from_dict(options), seed)
        while not g.finished:
            movers = g.to_move()
            seat = movers[rng.randrange(len(movers))]
            out.append((g.clone(), seat))
            legal = g.legal_actions(seat)
            g.apply(seat, legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize(("game", "options"), [("shuiyu", {}), ("shuiyu", {"seats": 6, "rounds": 2}),
                                               ("huashui", {}), ("weimaque", {}), ("shengji", {})])
def test_one_step_actions_round_trip(game: str, options: dict[str, Any]) -> None:
    spec = make_spec(game, make_config(game, options))
    names = spec.action_names()
    assert len(names) == spec.num_actions == len(set(names))
    checked = 0
    for g, seat in positions(game, 3 if game == "shengji" else 12, **options):
        view = g.view(seat)
        decision = spec.decision(g, seat, view)
        if not isinstance(decision, OneStep):
            continue
        legal = g.legal_actions(seat)
        ids = [spec.to_id(view, a) for a in legal]
        assert len(set(ids)) == len(ids), f"two actions share an id: {legal}"
        assert all(0 <= i < spec.num_actions for i in ids)
        for a, i in zip(legal, ids, strict=True):
            assert spec.to_action(view, i) == a
            assert decision.push(i) == a
        checked += len(legal)
    assert checked > (20 if game == "shengji" else 100)  # 升级 decides by id only while bidding


def _build(decision: Cards, cards: list[int]) -> str | None:
    """Push ``cards`` one by one, each of which the mask must allow; then 'done' if still needed."""
    result = None
    for c in cards:
        assert result is None, "the choice was sent before all its cards were in"
        assert c in decision.allowed(), f"{card_text(c)} refused after {decision.chosen}"
        result = decision.push(c)
    if result is None:
        assert DONE in decision.allowed()
        result = decision.push(DONE)
    return result


def test_every_offered_shengji_play_is_reachable_card_by_card() -> None:
    spec = make_spec("shengji", make_config("shengji", {}))
    checked = 0
    for g, seat in positions("shengji", 6):
        view = g.view(seat)
        decision = spec.decision(g, seat, view)
        if not isinstance(decision, Cards):
            continue
        for action in g.legal_actions(seat):
            verb, _, rest = action.partition(" ")
            fresh = spec.decision(g, seat, view)
            assert isinstance(fresh, Cards)
            built = _build(fresh, parse_cards(rest))
            assert built is not None and built.split()[0] == verb
            assert Counter(built.split()[1:]) == Counter(rest.split())
            checked += 1
    assert checked > 1000


def test_random_shengji_builds_are_always_legal() -> None:
    spec = make_spec("shengji", make_config("shengji", {}))
    rng = random.Random(5)
    built = 0
    for g, seat in positions("shengji", 4):
        decision = spec.decision(g, seat, g.view(seat))
        if not isinstance(decision, Cards):
            continue
        for _ in range(3):
            d = spec.decision(g, seat, g.view(seat))
            action = None
            while action is None:
                allowed = d.allowed()
                action = d.push(allowed[rng.randrange(len(allowed))])
            assert g.is_legal(seat, action), action
            built += 1
    assert built > 500


HAND_CARDS = ["AS", "KS", "QS", "JS", "9S", "8S", "5S", "3S", "AH", "2H", "BJ"]


@given(st.lists(st.sampled_from(HAND_CARDS), min_size=4, max_size=12),
       st.lists(st.sampled_from(["AS", "KS", "QS", "7S", "6S", "4S"]), min_size=1, max_size=6))
def test_follow_mask_allows_exactly_the_prefixes_of_legal_follows(hand_cards: list[str], lead_cards: list[str]) -> None:
    """Against brute force: every multiset of the lead's size is judged by ``follow_problem``."""
    order = order_for(2, 1)  # level 2, hearts trump: spades are a plain suit
    hand = [0] * 54
    for c in parse_cards(hand_cards):
        hand[c] += 1
    lead = parse_cards(lead_cards)
    n = len(lead)
    if sum(hand) < n or max(hand) > 4:
        return
    kinds = [c for c in range(54) if hand[c]]
    legal: set[tuple[int, ...]] = set()
    pool = [c for c in kinds for _ in range(hand[c])]
    for combo in set(itertools.combinations(pool, n)):
        if follow_problem(hand, lead, list(combo), order) is None:
            legal.add(tuple(sorted(combo)))
    prefixes = {tuple(sorted(p)) for play in legal for k in range(n + 1) for p in itertools.combinations(play, k)}

    def walk(chosen: list[int]) -> None:
        d = Follow(hand, order, lead)
        for c in chosen:
            d.push(c)
        want = sorted({c for c in kinds if tuple(sorted([*chosen, c])) in prefixes})
        assert d.allowed() == want, (chosen, lead_cards, hand_cards)
        for c in want[:3]:
            if len(chosen) + 1 < n:
                walk([*chosen, c])

    assert legal, "some follow is always legal"
    walk([])
