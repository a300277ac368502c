"""Copies are independent: play on a clone (or a resampled copy) never touches the original, nor the reverse.

For every registered game, a match is played at random to some depth and cloned; the original and the clone
then go on with different random continuations to the end of the match (later hands included, so the deal
of the next hand proves the random stream was copied, not shared).  Each is checked after every action
against a shadow rebuilt from scratch by replaying the same actions: every seat's view and the omniscient
one must match.  A shared list, dict, set or random stream would show up as a difference.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from paiju.core import OMNISCIENT, Game, game_names, get_game

LONG = {"shuiyu": {"rounds": 3}, "huashui": {"hands": 2}, "shengji": {"max_hands": 2}, "weimaque": {"hands": 2}}
"""Matches of more than one hand, so the next deal depends on each copy's own random stream."""


def _step(game: Game[Any], rng: random.Random) -> tuple[int, str]:
    movers = game.to_move()
    seat = movers[rng.randrange(len(movers))]
    legal = game.legal_actions(seat)
    action = legal[rng.randrange(len(legal))]
    game.apply(seat, action)
    return seat, action


def _shadow(game: Game[Any]) -> Game[Any]:
    """The same position rebuilt from the record alone."""
    return type(game).replay(game.record())


def _same(a: Game[Any], b: Game[Any], where: str) -> None:
    for viewer in (*range(a.num_seats), OMNISCIENT):
        assert a.view(viewer) == b.view(viewer), f"{where}: view of {viewer} differs from its replay"
    assert a.history == b.history


def _play_beside(game: Game[Any], shadow: Game[Any], rng: random.Random, steps: int, where: str) -> None:
    for _ in range(steps):
        if game.finished:
            return
        seat, action = _step(game, rng)
        shadow.apply(seat, action)
        _same(game, shadow, where)


@pytest.mark.parametrize("name", game_names())
def test_clone_and_original_go_separate_ways(name: str) -> None:
    cls = get_game(name)
    config = cls.config_class.from_dict(LONG.get(name, {}))
    checked = 0
    for seed, depth in ((1, 0), (2, 7), (3, 25)):
        game = cls.new(config, seed)
        rng = random.Random(seed)
        for _ in range(depth):
            if not game.finished:
                _step(game, rng)
        if game.finished:
            continue
        checked += 1
        twin = game.clone()
        game_shadow, twin_shadow = _shadow(game), _shadow(twin)
        _same(twin, game_shadow, f"{name} seed {seed}: fresh clone")
        # alternate moves on the two, each with its own continuation, to the end of the match
        rng_a, rng_b = random.Random(seed * 10 + 1), random.Random(seed * 10 + 2)
        while not (game.finished and twin.finished):
            _play_beside(game, game_shadow, rng_a, 3, f"{name} seed {seed}: original after the clone moved")
            _play_beside(twin, twin_shadow, rng_b, 3, f"{name} seed {seed}: clone after the original moved")
        assert game.history != twin.history, "the two continuations should differ"
    assert checked >= 2


@pytest.mark.parametrize("name", game_names())
def test_playing_a_resampled_copy_leaves_the_original_alone(name: str) -> None:
    cls = get_game(name)
    game = cls.new(cls.config_class.from_dict(LONG.get(name, {})), 4)
    rng = random.Random(4)
    for _ in range(12):
        if not game.finished:
            _step(game, rng)
    shadow = _shadow(game)
    for viewer in range(game.num_seats):
        twin = game.resample(viewer, random.Random(viewer))
        while not twin.finished:
            _step(twin, rng)
        _same(game, shadow, f"{name}: after playing out a copy resampled for {viewer}")


@pytest.mark.parametrize("name", game_names())
def test_a_declared_state_declares_every_attribute(name: str) -> None:
    """A game on the declared state copies only what it declares: every attribute it sets must be declared."""
    cls = get_game(name)
    if cls.declared is None:
        pytest.skip(f"{name} still writes its own clone and resample")
    for seed in range(3):
        game = cls.new(cls.config_class.from_dict(LONG.get(name, {})), seed)
        rng = random.Random(seed)
        while not game.finished:
            assert game.undeclared() == set(), f"{name}: attributes not in its state declaration"
            _step(game, rng)
            if len(game.history) % 5 == 0:
                for copy in (game.clone(), game.resample(0, rng)):
                    assert copy.undeclared() == set()
                    copy.view(0)
        assert game.undeclared() == set()
