"""The PettingZoo AEC environment: every playing seat an agent, one decision (one id) per step."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from paiju.core.game import Seat

from .core import Table, make_config, make_spec
from .render import render_text


def agent_name(seat: Seat) -> str:
    return f"seat_{seat}"


class PaijuAEC(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """A paiju match as an AEC game.

    Agents are ``seat_0`` … one per playing seat.  Several seats deciding at once (claim windows, 水鱼's
    calls, 升级's bids) are asked one at a time, in seat order; no view shows a seat another's pending choice,
    so the order reveals nothing.  Rewards are each hand's scores as the game settles them (the change of
    ``Game.totals()``), paid to every seat when the hand ends.  The episode is the match (``hands`` /
    ``rounds`` / ``max_hands`` options); it ends for all agents at once.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class and the instance
        "render_modes": ["ansi", "human"], "name": "paiju_v0", "is_parallelizable": False}

    def __init__(self, game: str, *, render_mode: str | None = None, lang: str = "en",
                 direct_observation: bool = False, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.lang = lang
        self.config = make_config(game, options)
        self.codec = make_spec(game, self.config)
        self.table = Table(game, self.config, self.codec, direct=direct_observation)
        self.metadata = {**self.metadata, "name": f"paiju_{game}_v0"}
        seats = self.codec.seats
        self.possible_agents = [agent_name(s) for s in range(seats)]
        self._seat = {agent_name(s): s for s in range(seats)}
        self._names = list(self.possible_agents)
        obs_space = spaces.Dict({
            "observation": spaces.Box(-1.0, 1.0, (self.codec.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), np.int8),
        })
        act_space = spaces.Discrete(self.codec.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._seeds = random.Random()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ---- the AEC protocol -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match dealt from ``seed`` (the engine's own seed: ``Game.new(config, seed)`` is the same deal);
        without one, the next seed of a stream that the last given seed started."""
        if seed is not None:
            self._seeds.seed(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(31)
        self.table.new_game(game_seed)
        self.agents = [agent_name(s) for s in self.codec.playing_seats(self.table.game)]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._totals = self.table.game.totals()
        self._paid = False
        self.agent_selection = self._names[self.table.deciding()[0]]

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observe(self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: only a finished agent steps with None")
        seat = self._seat[agent]
        aid = int(action)
        table = self.table
        decision = table.decision(seat)
        if decision is None or not decision.allows(aid):
            raise ValueError(f"{agent}: action {aid} ({self.codec.label(aid)}) is not allowed now; see the action_mask")
        self._cumulative_rewards[agent] = 0.0
        if self._paid:
            for a in self.agents:
                self.rewards[a] = 0.0
            self._paid = False
        if table.push(seat, aid):
            totals = table.game.totals()
            old = self._totals
            if totals != old:
                for a in self.agents:
                    s = self._seat[a]
                    self.rewards[a] = float(totals[s] - old[s])
                self._totals = totals
                self._paid = True
                self._accumulate_rewards()
            if table.game.finished:
                for a in self.agents:
                    self.terminations[a] = True
                self.agent_selection = self.agents[0]
            else:
                self.agent_selection = self._names[table.deciding()[0]]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self._seat.get(self.agent_selection, 0) if self.agents else 0
        text = render_text(self.table.game, self.table.view(seat), self.lang, ansi=True)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game is plain Python objects."""


def aec_env(game: str, **options: Any) -> PaijuAEC:
    """A PettingZoo AEC environment for ``game`` (``shuiyu``, ``huashui``, ``shengji``, ``weimaque``).

    ``options`` are the game's rule options (``hands=4``), plus ``render_mode`` (``"ansi"`` or ``"human"``)
    and ``lang`` (``"en"``/``"zh"``) for :meth:`~PaijuAEC.render`, and ``direct_observation`` (docs/rl.md:
    滑水's encoder reading the fields its view shows, tested equal to encoding the view; off by default).
    """
    return PaijuAEC(game, **options)
