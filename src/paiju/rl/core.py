"""What every game's RL wrapper shares: the action map, the decision being chosen, the table both envs drive.

A game's :class:`Spec` fixes, for one rules config, a ``Discrete(num_actions)`` action space and a float32
observation of ``obs_size``; it turns a seat's **view** (and nothing else) into that observation, and the
seat's legal actions into a :class:`Decision` that says which ids are allowed and which engine action an id
stands for.  升级's plays take several ids (a card at a time, then "done"): a decision may therefore need more
than one id before it yields an engine action.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from paiju.core.game import Action, Game, Seat, View
from paiju.core.registry import get_game

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Part(NamedTuple):
    """A part of an observation: ``repeat`` copies ``stride`` apart (one per relative seat), or one."""

    name: str
    offset: int
    size: int
    meaning: str
    stride: int = 0
    repeat: int = 1


def squash(x: float, scale: float) -> float:
    """A score or tally folded into (-1, 1): the observation box stays bounded whatever the match length."""
    return math.tanh(x / scale)


@cache
def _zeros(size: int) -> bytes:
    """A mask's zero bytes, made once per size (copying them is cheaper than ``bytearray(size)``)."""
    return bytes(size)


class Decision(ABC):
    """One seat's choice now, as ids of the game's action space."""

    @abstractmethod
    def allowed(self) -> list[int]:
        """The ids that may be taken next (never empty while the decision is open)."""

    @abstractmethod
    def push(self, aid: int) -> Action | None:
        """Take id ``aid`` (must be allowed): the engine action once the choice is complete, else None."""

    def allows(self, aid: int) -> bool:
        return aid in self.allowed()

    def mask(self, size: int) -> Mask:
        m = bytearray(size)
        for aid in self.allowed():
            m[aid] = 1
        return np.frombuffer(m, dtype=np.int8)


class OneStep(Decision):
    """A choice made with one id: each legal engine action has its own id."""

    __slots__ = ("by_id",)

    def __init__(self, by_id: dict[int, Action]) -> None:
        self.by_id = by_id

    def allowed(self) -> list[int]:
        return list(self.by_id)

    def allows(self, aid: int) -> bool:
        return aid in self.by_id

    def push(self, aid: int) -> Action | None:
        return self.by_id[aid]

    def mask(self, size: int) -> Mask:
        m = bytearray(_zeros(size))
        for aid in self.by_id:
            m[aid] = 1
        return np.frombuffer(m, dtype=np.int8)


class Spec(ABC):
    """One game's action map and observation encoder, for one rules config."""

    name: str
    num_actions: int
    obs_size: int
    score_scale: float = 20.0
    """Typical size of one hand's score: the scale at which tallies are squashed into the observation."""
    layout: list[Part]
    """The observation's parts: (name, offset, length, meaning), for the docs and the tests."""

    def __init__(self, config: Any) -> None:
        self.config = config
        self.seats: int = self.num_seats(config)

    @staticmethod
    def num_seats(config: Any) -> int:
        return 4

    actions: tuple[str, ...] = ()
    """Games whose ids are fixed engine strings list them here."""

    def action_names(self) -> list[str]:
        """A label per id, for the docs and for debugging (``"discard 5m"``, ``"card AS"``, ``"done"``)."""
        return list(self.actions)

    def label(self, aid: int) -> str:
        names = self.action_names()
        return names[aid] if 0 <= aid < len(names) else f"out of range 0..{len(names) - 1}"

    @abstractmethod
    def to_id(self, view: View, action: Action) -> int:
        """The id of a one-step engine action as seen by the view's seat (升级's plays and burials have none)."""

    @abstractmethod
    def to_action(self, view: View, aid: int) -> Action:
        """The engine action a one-step id stands for from the view's seat."""

    def decision(self, game: Game[Any], seat: Seat, view: View) -> Decision:
        """What ``seat`` may choose now; the default maps every legal action through :meth:`to_id`."""
        return OneStep({self.to_id(view, a): a for a in game.legal_actions(seat)})

    @abstractmethod
    def encode(self, view: View, decision: Decision | None) -> Obs:
        """The float32 observation of the view's seat, entries in [-1, 1]; ``decision`` adds what this
        seat has already chosen of a several-id choice."""

    # ---- what the envs call: by default through the seat's view, which a game may read straight ----------
    def decide(self, game: Game[Any], seat: Seat, view: Callable[[Seat], View]) -> Decision:
        """``seat``'s decision as the envs take it; ``view(seat)`` gives the seat's view (built once, on demand)."""
        return self.decision(game, seat, view(seat))

    def observe(self, game: Game[Any], seat: Seat, decision: Decision | None, view: Callable[[Seat], View]) -> Obs:
        """``seat``'s observation as the envs take it: :meth:`encode` of its view, unless the game's spec
        encodes the same numbers from the state's fields that the view is built from (滑水's does: it reads
        only what ``view(seat)`` shows, ``tests/rl/test_rl_leaks.py`` resamples the rest on this path, and
        ``tests/rl/test_rl_envs.py`` checks it equals :meth:`encode` of the view)."""
        return self.encode(view(seat), decision)

    def never_plays(self, seat: Seat) -> str | None:
        """Why ``seat`` can never decide under this config (偎麻雀's fixed 守醒), else None."""
        return None

    def playing_seats(self, game: Game[Any]) -> list[Seat]:
        """Seats that decide in this match (偎麻雀's 守醒 of a one-hand match never does)."""
        return list(range(game.num_seats))


_SPECS: dict[str, str] = {
    "shuiyu": "paiju.rl.shuiyu:ShuiyuSpec",
    "huashui": "paiju.rl.huashui:HuashuiSpec",
    "shengji": "paiju.rl.shengji:ShengjiSpec",
    "weimaque": "paiju.rl.weimaque:WeimaqueSpec",
}


GAMES: tuple[str, ...] = tuple(_SPECS)


def make_spec(game: str, config: Any) -> Spec:
    import importlib

    try:
        target = _SPECS[game]
    except KeyError:
        get_game(game)  # an unknown name raises the registry's clear error
        raise ValueError(f"no RL environment for {game!r} yet; known: {', '.join(_SPECS)}") from None
    module, _, attr = target.partition(":")
    cls: type[Spec] = getattr(importlib.import_module(module), attr)
    return cls(config)


def make_config(game: str, options: dict[str, Any]) -> Any:
    """The game's rules config from keyword options (unknown keys are refused by the config)."""
    return get_game(game).config_class.from_dict(options)


class Table:
    """A game, its spec and the decision being built: the part the AEC and the Gymnasium env share.

    Views are taken once per state and seat; the decision of the seat to act is kept until it yields an
    engine action, so a several-id choice survives between steps.
    """

    def __init__(self, game_name: str, config: Any, spec: Spec, *, direct: bool = False) -> None:
        self.game_name = game_name
        self.cls = get_game(game_name)
        self.config = config
        self.spec = spec
        self.game: Game[Any] = self.cls.new(config, 0)
        kind = type(spec)
        self._own_path = direct and (kind.decide is not Spec.decide or kind.observe is not Spec.observe)
        """Asked for (``direct_observation=True``) and the spec reads the state's fields itself (滑水's): then
        ``decide``/``observe``; otherwise every observation goes through the seat's view, the only door for
        hidden information, straight to ``decision`` and ``encode``."""
        self._views: dict[Seat, View] = {}
        self._decisions: dict[Seat, Decision] = {}
        self._building: Seat | None = None

    def new_game(self, seed: int) -> None:
        self.game = self.cls.new(self.config, seed)
        self._views = {}
        self._decisions = {}
        self._building = None

    def view(self, seat: Seat) -> View:
        v = self._views.get(seat)
        if v is None:
            v = self._views[seat] = self.game.view(seat, copy=False)
        return v

    def deciding(self) -> tuple[Seat, ...]:
        """Seats with a decision open; a seat halfway through a several-id choice comes first."""
        if self.game.finished:
            return ()
        movers = self.game.to_move()
        b = self._building
        if b is not None and b in movers:
            return (b, *(s for s in movers if s != b))
        return movers

    def decision(self, seat: Seat) -> Decision | None:
        d = self._decisions.get(seat)
        if d is None:
            if self.game.finished or seat not in self.game.to_move():
                return None
            spec = self.spec
            d = self._decisions[seat] = (spec.decide(self.game, seat, self.view) if self._own_path
                                         else spec.decision(self.game, seat, self.view(seat)))
        return d

    def observe(self, seat: Seat) -> dict[str, Any]:
        d = self.decision(seat)
        spec = self.spec
        mask = d.mask(spec.num_actions) if d is not None else np.zeros(spec.num_actions, dtype=np.int8)
        obs = spec.observe(self.game, seat, d, self.view) if self._own_path else spec.encode(self.view(seat), d)
        return {"observation": obs, "action_mask": mask}

    def push(self, seat: Seat, aid: int) -> bool:
        """Take an allowed id for ``seat``; True when it completed an engine action (then applied)."""
        d = self.decision(seat)
        if d is None:
            raise ValueError(f"seat {seat} has no decision to make now")
        action = d.push(aid)
        if action is None:
            self._building = seat
            return False
        self.apply(seat, action)
        return True

    def apply(self, seat: Seat, action: Action) -> None:
        """An engine action taken outside the action map (a bot's)."""
        self.game.apply(seat, action)
        self._views = {}
        self._decisions = {}
        self._building = None

    def legal_ids(self, seat: Seat) -> Sequence[int]:
        d = self.decision(seat)
        return d.allowed() if d is not None else ()
