"""The duplicate-deal study helpers."""

from __future__ import annotations

import math

import pytest

from paiju.bots.study import mean_ci95, percentile


def test_mean_ci95() -> None:
    m, ci = mean_ci95([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5
    assert ci == pytest.approx(1.96 * math.sqrt(5 / 3) / 2)
    assert mean_ci95([3.0]) == (3.0, math.inf)


def test_percentile() -> None:
    values = [float(i) for i in range(100)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([], 0.5) == 0.0


def test_play_random_finishes_every_game_legally() -> None:
    import random

    from paiju.bots import play_random
    from paiju.core import game_names, get_game, replay

    for name in game_names():
        cls = get_game(name)
        game = cls.new(cls.config_class(), 3)
        decisions = play_random(game, random.Random(3))
        assert game.finished and decisions == len(game.history) > 0
        assert replay(game.record()).totals() == game.totals()
