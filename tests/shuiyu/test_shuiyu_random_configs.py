"""Random play over random 水鱼 configs: the conformance promises hold for every option, not just defaults."""

from __future__ import annotations

import json
import random

import pytest

from paiju.core import OMNISCIENT, SPECTATOR, ConfigError, Record, replay
from paiju.games.shuiyu import ShuiyuConfig, ShuiyuGame


def _random_config(rng: random.Random) -> ShuiyuConfig:
    seats = rng.choice([2, 3, 5, 8, 13])
    return ShuiyuConfig(
        seats=seats, rounds=rng.randint(1, 5), first_banker=rng.randrange(seats),
        banker_rotation=rng.choice(["next", "keep", "winner"]), zero_sum=rng.random() < 0.5,
        allow_force=rng.random() < 0.7, allow_attack=rng.random() < 0.7, allow_push=rng.random() < 0.7,
        force_rearrange=rng.choice(["banker", "player"]), banker_shows=rng.choice(["challengers", "all"]),
        mult_doubt=rng.randint(0, 5), mult_zhizun=rng.randint(1, 8),
        walk_doubted_banker_bigger=rng.choice(["player", "banker"]), force_walk=rng.choice(["player", "nobody"]),
        attack_walk=rng.choice(["attacker", "nobody"]),
    )


@pytest.mark.parametrize("seed", range(60))
def test_random_configs_conform(seed: int) -> None:
    rng = random.Random(seed)
    cfg = _random_config(rng)
    g = ShuiyuGame.new(cfg, seed)
    deck = g.inventory()
    assert sum(deck.values()) == 52
    settled = [0.0] * cfg.seats
    while not g.finished:
        movers = g.to_move()
        seat = rng.choice(movers)
        if rng.random() < 0.3:
            for viewer in [*range(cfg.seats), SPECTATOR]:
                view = g.view(viewer)
                assert json.loads(json.dumps(view)) == view
                assert g.resample(viewer, rng).view(viewer) == view
        for ev in g.apply(seat, rng.choice(g.legal_actions(seat))):
            if ev["type"] == "settlement":
                settled = [a + b for a, b in zip(settled, ev["scores"], strict=True)]
                for line in ev["lines"]:
                    assert line["rule"].startswith(("一.", "二.")) and line["mult"] >= 0
        assert g.inventory() == deck
    assert list(g.totals()) == settled
    if cfg.zero_sum:
        assert sum(g.totals()) == 0
    else:
        result = g.result()
        assert result is not None
        assert [-d for d in result.detail["drinks"]] == list(g.totals())
    again = replay(Record.from_json(g.record().to_json()))
    assert again.view(OMNISCIENT) == g.view(OMNISCIENT)


def test_seat_limits() -> None:
    g = ShuiyuGame.new(ShuiyuConfig(seats=13), 1)
    assert sorted(c for h in g.hands for c in h) == list(range(52))
    with pytest.raises(ConfigError):
        ShuiyuConfig(seats=14)
    with pytest.raises(ConfigError):
        ShuiyuConfig(seats=1)
    with pytest.raises(ConfigError):
        ShuiyuConfig(seats=3, first_banker=3)


def test_disabled_calls_are_not_offered() -> None:
    g = ShuiyuGame.from_deal({"hands": ["AS 8H KD 7C", "2S 3H 4C 6D"]},
                             ShuiyuConfig(seats=2, allow_force=False, allow_attack=False, allow_push=False))
    g.apply(0, g.legal_actions(0)[0])
    g.apply(1, g.legal_actions(1)[0])
    assert g.legal_actions(1) == ["open", "cover"]
    from paiju.core import IllegalActionError

    with pytest.raises(IllegalActionError, match="switched off"):
        g.apply(1, "attack")
