"""The Gymnasium environment: one seat learns, paiju's bots play every other seat."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from paiju.bots import Bot, get_bot
from paiju.core.game import Seat

from .core import Table, make_config, make_spec
from .render import render_text

MAX_REDEALS = 100


class PaijuGym(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a paiju match against bots; an episode is the match.

    The observation is ``{"observation": float32, "action_mask": int8}`` as in the AEC env.  Any id is
    accepted: one the mask does not allow costs ``illegal_penalty`` and the lowest allowed id is taken
    instead (``info["illegal"]`` says so).  The reward is the seat's score of every hand that ends before
    its next decision.  A match in which the seat never gets to decide (the dealer wins at once, the seat is
    偎麻雀's 守醒) is skipped at reset: the next seed of the reset's stream is dealt, so one seed still
    gives one episode.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, game: str, seat: Seat = 0, opponents: str | Sequence[str] = "best", *,
                 illegal_penalty: float = 1.0, render_mode: str | None = None, lang: str = "en",
                 direct_observation: bool = False, **options: Any) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.lang = lang
        self.game_name = game
        self.config = make_config(game, options)
        self.codec = make_spec(game, self.config)
        self.table = Table(game, self.config, self.codec, direct=direct_observation)
        if not 0 <= seat < self.codec.seats:
            raise ValueError(f"seat must be 0..{self.codec.seats - 1}, not {seat}")
        why = self.codec.never_plays(seat)
        if why is not None:
            raise ValueError(why)
        self.seat = seat
        kinds = [opponents] * self.codec.seats if isinstance(opponents, str) else list(opponents)
        if len(kinds) != self.codec.seats:
            raise ValueError(f"opponents: one bot name per seat ({self.codec.seats}), or one name for all")
        for s, kind in enumerate(kinds):
            if s != seat:
                get_bot(game, kind, 0)  # an unknown name fails here, not at reset
        self.kinds = kinds
        self.illegal_penalty = float(illegal_penalty)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-1.0, 1.0, (self.codec.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(self.codec.num_actions)
        self.bots: dict[Seat, Bot] = {}
        self._total = 0.0

    # ---- gymnasium ------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new match: ``seed`` is the engine's seed (``Game.new(config, seed)`` deals the same), and the bots'
        seeds follow from it."""
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**31))
        stream = random.Random(game_seed)
        for _ in range(MAX_REDEALS):
            self.table.new_game(game_seed)
            self.bots = {s: get_bot(self.game_name, k, stream.getrandbits(31))
                         for s, k in enumerate(self.kinds) if s != self.seat}
            self._total = self.table.game.totals()[self.seat]
            self._advance()
            if not self.table.game.finished:
                break
            game_seed = stream.getrandbits(31)
        else:  # pragma: no cover - a seat that never decides in a hundred matches is a config error
            raise RuntimeError(f"seat {self.seat} never decides in {self.game_name} with these options")
        self._total = self.table.game.totals()[self.seat]
        return self.table.observe(self.seat), {"seed": game_seed}

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self.table.game.finished:
            raise RuntimeError("the match is over: call reset()")
        aid = int(action)
        allowed = self.table.legal_ids(self.seat)
        info: dict[str, Any] = {}
        penalty = 0.0
        if aid not in allowed:
            info["illegal"] = aid
            penalty = self.illegal_penalty
            aid = min(allowed)
        if self.table.push(self.seat, aid):
            self._advance()
        total = self.table.game.totals()[self.seat]
        reward = total - self._total - penalty
        self._total = total
        done = self.table.game.finished
        if self.render_mode == "human":
            self.render()
        return self.table.observe(self.seat), float(reward), done, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The allowed ids as booleans (the method MaskablePPO-style learners look for)."""
        mask: npt.NDArray[np.int8] = self.table.observe(self.seat)["action_mask"]
        return mask.astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_text(self.table.game, self.table.view(self.seat), self.lang, ansi=True)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ---- the bots -------------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Let the bots play until this seat decides or the match ends."""
        table, me = self.table, self.seat
        while not table.game.finished:
            movers = table.deciding()
            if me in movers:
                return
            s = movers[0]
            bot = self.bots[s]
            game = table.game
            legal = game.legal_actions(s)
            view = table.view(s) if getattr(bot, "needs_view", True) else {}
            table.apply(s, bot.act(view, legal))


def gym_env(game: str, seat: Seat = 0, opponents: str | Sequence[str] = "best", **options: Any) -> PaijuGym:
    """A Gymnasium environment for ``seat`` of ``game`` against bots (``"best"``, ``"random"`` or any name of
    ``paiju.bots.bot_names(game)``; one name, or one per seat).  ``options`` are the game's rule options plus
    ``illegal_penalty``, ``render_mode``, ``lang`` and ``direct_observation`` (see :func:`paiju.rl.aec_env`)."""
    return PaijuGym(game, seat, opponents, **options)
