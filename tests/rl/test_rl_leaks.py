"""Observations leak nothing: reshuffling what a seat cannot see (``resample``) leaves its observation unchanged.

For random positions of random matches, every playing seat's observation and action mask are taken from the
game and from several of its resamples for that seat; they must be identical.  For 升级 a random partial play
is built first, so the mask of a half-chosen play is checked too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")

import numpy as np

from paiju.core import Game, get_game
from paiju.rl import make_spec
from paiju.rl.core import Decision, OneStep, Spec, make_config

CASES = [
    ("shuiyu", {"rounds": 2}, 40),
    ("shuiyu", {"seats": 6, "rounds": 1}, 20),
    ("huashui", {"hands": 2}, 8),
    ("huashui", {"hands": 2, "pass_lock": "any_tile"}, 4),
    ("huashui", {"ask_everyone": True}, 4),
    ("shengji", {}, 2),
    ("weimaque", {"hands": 2}, 8),
]


def observation(spec: Spec, game: Game[Any], seat: int, prefix: list[int]) -> tuple[bytes, bytes]:
    """The observation and mask as the envs take them (``Spec.decide`` and ``Spec.observe``: 滑水's read the
    state's fields straight, the other games' encode the view), so resampling tests the very path the envs use."""
    decision: Decision | None = None
    if not game.finished and seat in game.to_move():
        decision = spec.decide(game, seat, game.view)
        for aid in prefix:
            decision.push(aid)
    mask = decision.mask(spec.num_actions) if decision is not None else np.zeros(spec.num_actions, np.int8)
    return spec.observe(game, seat, decision, game.view).tobytes(), mask.tobytes()


@pytest.mark.parametrize(("game", "options", "matches"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_resample_leaves_every_observation_unchanged(game: str, options: dict[str, Any], matches: int) -> None:
    cls = get_game(game)
    config = make_config(game, options)
    spec = make_spec(game, config)
    rng = random.Random(13)
    compared = 0
    for seed in range(matches):
        g = cls.new(config, seed)
        seats = spec.playing_seats(g)
        while not g.finished:
            movers = g.to_move()
            if rng.random() < (0.05 if game == "shengji" else 0.3):
                for seat in seats:
                    prefix: list[int] = []
                    if seat in movers:
                        d = spec.decision(g, seat, g.view(seat))
                        while not isinstance(d, OneStep) and rng.random() < 0.7:
                            allowed = d.allowed()
                            aid = allowed[rng.randrange(len(allowed))]
                            if d.push(aid) is not None:
                                break
                            prefix.append(aid)
                    mine = observation(spec, g, seat, prefix)
                    for _ in range(3):
                        twin = g.resample(seat, rng)
                        assert observation(spec, twin, seat, prefix) == mine, \
                            f"{game} seed {seed}: seat {seat}'s observation changed after {len(g.history)} actions"
                        compared += 1
            seat = movers[rng.randrange(len(movers))]
            legal = g.legal_actions(seat)
            g.apply(seat, legal[rng.randrange(len(legal))])
    assert compared > 100
