"""The rules that ask every seat at a claim point (set by the card room with its claim pause) keep the
protocol's promises: random play conforms, views leak nothing and resamples depend on the view alone."""

from __future__ import annotations

import random

import pytest
from resample_check import check_resample_is_sound

from paiju.core import SPECTATOR, get_game


@pytest.mark.parametrize("name", ["huashui", "weimaque"])
def test_asking_everyone_keeps_views_and_resamples_sound(name: str) -> None:
    cls = get_game(name)
    option = cls.config_class.asks_all_option()
    assert option is not None, f"{name} has no rule that asks everyone"
    for seed in range(4):
        game = cls.new(cls.config_class.from_dict({option: True}), seed)
        rng = random.Random(seed)
        step = 0
        while not game.finished:
            if step % 7 == 0:  # claim windows come at every card now: a sample of them is enough
                check_resample_is_sound(game, rng)
            elif step % 3 == 0:
                for viewer in (*range(game.num_seats), SPECTATOR):
                    assert game.resample(viewer, rng).view(viewer) == game.view(viewer)
            seat = rng.choice(game.to_move())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            step += 1
        assert game.replay(game.record()).view(SPECTATOR) == game.view(SPECTATOR)
