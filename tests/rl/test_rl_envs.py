"""The environments pass PettingZoo's and Gymnasium's own checkers, and behave as their docs say."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from paiju.core import get_game
from paiju.rl import PaijuAEC, aec_env, gym_env, make_spec
from paiju.rl.core import make_config

GAMES = ["shuiyu", "huashui", "shengji", "weimaque"]

# api_test warns about any env whose observation is a dict unless PettingZoo's own classic envs (it lists them by
# name); a dict with "observation" and "action_mask" is what those very envs return.
DICT_OBS_WARNINGS = ("Observation is not a NumPy array",
                     "Observation space for each agent probably should be gymnasium.spaces.box")


def play_aec(env: PaijuAEC, seed: int, rng: random.Random) -> tuple[dict[str, float], list[Any]]:
    """Random allowed ids to the end of the match: rewards summed per agent and the trajectory."""
    env.reset(seed=seed)
    summed = dict.fromkeys(env.agents, 0.0)
    trail: list[Any] = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        summed[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        ids = np.flatnonzero(obs["action_mask"])
        aid = int(ids[rng.randrange(len(ids))])
        trail.append((agent, aid, obs["observation"].tobytes()))
        env.step(aid)
    return summed, trail


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test(game: str) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        api_test(aec_env(game), num_cycles=400)
    unexpected = {str(w.message) for w in seen if not str(w.message).startswith(DICT_OBS_WARNINGS)}
    assert not unexpected


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env(game: str) -> None:
    env = gymnasium.make(f"paiju/{game}-v0", render_mode="ansi")
    check_env(env.unwrapped)  # the suite turns every warning into an error


@pytest.mark.parametrize("game", GAMES)
def test_rewards_are_the_games_scores(game: str) -> None:
    env = aec_env(game)
    summed, _ = play_aec(env, 11, random.Random(0))
    result = env.table.game.result()
    assert result is not None
    assert summed == {f"seat_{s}": result.scores[s] for s in range(len(result.scores)) if f"seat_{s}" in summed}


def test_rewards_come_at_each_hands_end() -> None:
    env = aec_env("huashui", hands=3)
    env.reset(seed=4)
    paid: list[int] = []
    rng = random.Random(1)
    while env.agents:
        agent = env.agent_selection
        obs, _, term, _, _ = env.last()
        if term:
            env.step(None)
            continue
        hand = env.table.game.view(-1)["hand_no"]
        ids = np.flatnonzero(obs["action_mask"])
        env.step(int(ids[rng.randrange(len(ids))]))
        if any(env.rewards.values()):
            paid.append(hand)
            assert sum(env.rewards.values()) == 0, "滑水 hands are zero-sum"
        del agent
    assert paid == sorted(set(paid)) and len(paid) <= 3  # once per hand at most, at its end (drawn hands pay 0)


@pytest.mark.parametrize("game", GAMES)
def test_aec_seed_replays_exactly(game: str) -> None:
    a = play_aec(aec_env(game), 5, random.Random(3))
    b = play_aec(aec_env(game), 5, random.Random(3))
    assert a == b
    # the seed is the engine's own: the env's match is Game.new(config, seed)
    env = aec_env(game)
    env.reset(seed=5)
    cls = get_game(game)
    assert env.table.game.view(-2) == cls.new(cls.config_class(), 5).view(-2)


def test_weimaque_watcher_is_no_agent() -> None:
    env = aec_env("weimaque", first_dealer=1)
    env.reset(seed=0)
    assert env.agents == ["seat_0", "seat_1", "seat_2"]  # dealer 1: the 守醒 is seat 3
    env = aec_env("weimaque", hands=3)
    env.reset(seed=0)
    assert env.agents == ["seat_0", "seat_1", "seat_2", "seat_3"]  # the 守醒 moves with the deal


def play_gym(game: str, seed: int, picks: random.Random, **kw: Any) -> list[Any]:
    env = gym_env(game, seat=1, opponents="random", **kw)
    obs, info = env.reset(seed=seed)
    trail: list[Any] = [info, obs["observation"].tobytes()]
    done = False
    while not done:
        ids = np.flatnonzero(obs["action_mask"])
        obs, reward, done, trunc, info = env.step(int(ids[picks.randrange(len(ids))]))
        trail.append((reward, obs["observation"].tobytes(), done, trunc, info))
    return trail


@pytest.mark.parametrize("game", GAMES)
def test_gym_one_seed_one_run(game: str) -> None:
    first = play_gym(game, 9, random.Random(2))
    assert play_gym(game, 9, random.Random(2)) == first
    assert play_gym(game, 10, random.Random(2)) != first


@pytest.mark.parametrize("game", GAMES)
def test_gym_illegal_id_costs_a_penalty_and_takes_the_first_allowed(game: str) -> None:
    env, twin = gym_env(game, illegal_penalty=2.5), gym_env(game, illegal_penalty=2.5)
    obs, _ = env.reset(seed=1)
    twin.reset(seed=1)
    mask = obs["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    got = env.step(bad)
    want = twin.step(int(np.flatnonzero(mask)[0]))
    assert got[4] == {"illegal": bad} and want[4] == {}
    assert float(got[1]) == pytest.approx(float(want[1]) - 2.5)
    assert np.array_equal(got[0]["observation"], want[0]["observation"])
    assert env.action_masks().tolist() == twin.action_masks().tolist()


def test_gym_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seat"):
        gym_env("huashui", seat=4)
    with pytest.raises(KeyError, match="no bot"):
        gym_env("huashui", opponents="nobody")
    with pytest.raises(ValueError, match="one bot name per seat"):
        gym_env("huashui", opponents=["random", "random"])
    with pytest.raises(Exception, match="unknown option"):
        gym_env("huashui", nonsense=1)
    with pytest.raises(ValueError, match="守醒"):
        gym_env("weimaque", seat=2)  # dealer 0: seat 2 watches the only hand


def test_gym_skips_a_match_the_seat_never_decides_in() -> None:
    env = gym_env("weimaque", seat=2, opponents="random", first_dealer=-1)
    redealt = 0
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        assert obs["action_mask"].any(), "the learner has a decision after every reset"
        assert env.table.game.view(-1)["watcher"] != 2
        assert env.table.game.seed == info["seed"]
        redealt += info["seed"] != seed
    assert redealt > 0


def test_aec_refuses_a_masked_id() -> None:
    env = aec_env("huashui")
    env.reset(seed=0)
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not allowed now"):
        env.step(bad)


@pytest.mark.parametrize("game", GAMES)
def test_render_is_the_terminal_table(game: str) -> None:
    env = aec_env(game, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    names = get_game(game).display
    assert names["en"] in text or names["zh"][:2] in text  # the game's own title heads the table
    assert "[bold]" not in text  # markup became text, not shown raw



OBSERVE_CASES: list[tuple[str, dict[str, Any], int, set[str]]] = [
    # game, options, matches, parts of the observation the compared positions must reach (滑水's: all of them)
    ("huashui", {"hands": 3}, 4, {"hand", "drawn", "melds", "discards", "last discard", "last discarder", "claim",
                                  "robbing", "claim from", "pass lock", "dealer", "phase", "current",
                                  "follow the dealer", "hand counts", "wall", "hand number", "totals"}),
    ("huashui", {"hands": 2, "pass_lock": "any_tile", "multi_win": "first"}, 3, {"pass lock all", "totals"}),
    ("huashui", {"ask_everyone": True}, 2, {"claim", "claim from"}),  # windows that ask seats with nothing to claim
    ("shuiyu", {"rounds": 1}, 6, set()),
    ("weimaque", {"hands": 2}, 3, set()),
]


def _huashui_policy(rng: random.Random) -> Any:
    """The greedy bot, declining a win on a discard or a kong half the time (that sets the pass locks)."""
    from paiju.games.huashui.bots import ShantenGreedyBot

    bot = ShantenGreedyBot(rng.randrange(1000))

    def act(game: Any, seat: int, legal: list[str]) -> str:
        if game.phase != "turn" and "hu" in legal and rng.random() < 0.5:
            return "pass"
        return bot.act(game.view(seat), legal)
    return act


@pytest.mark.parametrize(("game", "options", "matches", "reached"), OBSERVE_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(OBSERVE_CASES)])
def test_the_envs_observation_is_the_encoding_of_the_view(game: str, options: dict[str, Any], matches: int,
                                                          reached: set[str]) -> None:
    """``Spec.observe`` and ``Spec.decide`` (what the envs call; 滑水's read the state's fields straight) give
    exactly ``encode(view)`` and ``decision(view)`` for every seat, at every position of whole matches."""
    cls = get_game(game)
    config = make_config(game, options)
    spec = make_spec(game, config)
    rng = random.Random(5)
    policy = _huashui_policy(rng) if game == "huashui" else None
    seen: set[str] = set()
    for seed in range(matches):
        g = cls.new(config, seed)
        while True:
            movers = () if g.finished else g.to_move()
            for seat in range(g.num_seats):
                view = g.view(seat)
                decision = spec.decide(g, seat, g.view) if seat in movers else None
                if decision is not None:
                    assert decision.allowed() == spec.decision(g, seat, view).allowed()
                direct = spec.observe(g, seat, decision, g.view)
                assert direct.dtype == np.float32 and direct.shape == (spec.obs_size,)
                assert direct.tobytes() == spec.encode(view, decision).tobytes(), \
                    f"{game} seed {seed}, seat {seat}, after {len(g.history)} actions"
                seen.update(part.name for part in spec.layout if direct[part.offset:part.offset + part.size].any())
                if view.get("claim") and view["claim"].get("robbing"):
                    seen.add("robbing")
            if g.finished:
                break
            seat = movers[rng.randrange(len(movers))]
            legal = g.legal_actions(seat)
            g.apply(seat, policy(g, seat, legal) if policy else legal[rng.randrange(len(legal))])
    assert reached <= seen, f"never reached: {sorted(reached - seen)}"


def test_the_direct_observation_is_opt_in_and_gives_the_same_numbers() -> None:
    """By default every observation goes through the seat's view; ``direct_observation=True`` (滑水 reads the
    fields its view shows) plays the same match with byte-identical observations and masks."""
    via_view, direct = aec_env("huashui"), aec_env("huashui", direct_observation=True)
    assert not via_view.table._own_path and direct.table._own_path
    rng = random.Random(11)
    via_view.reset(seed=4)
    direct.reset(seed=4)
    for _ in range(300):
        if not via_view.agents:
            break
        a, b = via_view.last(), direct.last()
        assert a[0]["observation"].tobytes() == b[0]["observation"].tobytes()
        assert a[0]["action_mask"].tobytes() == b[0]["action_mask"].tobytes()
        if a[2] or a[3]:
            via_view.step(None)
            direct.step(None)
            continue
        aid = rng.choice(np.flatnonzero(a[0]["action_mask"]).tolist())
        via_view.step(aid)
        direct.step(aid)
