"""The one protocol every game implements; the CLI, bots, server and RL wrappers talk only to it.

A game here is a *match*: one or more hands played in a row with a running tally, dealt from one seeded
random stream.  Its record is (game name, rules config, seed, actions) — plus an explicit first deal
for tests — and replaying the record rebuilds the identical game, because nothing but the seed and the
actions decides anything.

Hidden information leaves a game only through :meth:`Game.view`.  Events returned by :meth:`Game.apply`
are public: safe to broadcast to every seat and spectator.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Self, TypeVar

from .config import RulesConfig
from .errors import GameOverError, IllegalActionError, NotYourTurnError

Seat = int
Action = str
Event = dict[str, Any]
View = dict[str, Any]

SPECTATOR: int = -1
"""Viewer id of a spectator: the public view."""
OMNISCIENT: int = -2
"""Viewer id that sees everything: tests, finished-game replays and admin tools only."""

C = TypeVar("C", bound=RulesConfig)


class Window(StrEnum):
    """Which decision window applies: the card room times claims and ordinary turns differently."""

    TURN = "turn"
    CLAIM = "claim"


@dataclass(frozen=True)
class Result:
    """Final scores per seat (match totals) and a game-specific breakdown."""

    scores: tuple[float, ...]
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "detail": self.detail}


@dataclass(frozen=True)
class Record:
    """Everything needed to rebuild a game exactly: (game, config, seed, actions[, first deal])."""

    game: str
    config: dict[str, Any]
    seed: int
    actions: tuple[tuple[Seat, Action], ...] = ()
    deal: Any = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "config": self.config, "seed": self.seed,
                               "actions": [[s, a] for s, a in self.actions]}
        if self.deal is not None:
            out["deal"] = self.deal
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        try:
            return cls(game=str(data["game"]), config=dict(data.get("config") or {}), seed=int(data["seed"]),
                       actions=tuple((int(s), str(a)) for s, a in data.get("actions", ())),
                       deal=data.get("deal"))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"malformed game record: {e}") from e

    @classmethod
    def from_json(cls, text: str) -> Record:
        return cls.from_dict(json.loads(text))


class Game(ABC, Generic[C]):
    """Base of every game: bookkeeping here, rules in the subclass hooks.

    Subclasses set ``name``, ``config_class`` and ``display`` and implement the abstract hooks.  The base
    checks every action before the subclass sees it, so a refused action changes nothing.
    """

    name: ClassVar[str]
    config_class: ClassVar[type[RulesConfig]]
    display: ClassVar[dict[str, str]] = {}
    """Human names: {"zh": ..., "en": ...}."""
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4

    def __init__(self, config: C, seed: int, deal: Any = None) -> None:
        self.config: C = config
        self.seed = seed
        self.deal = deal
        self.rng = random.Random(seed)
        self.history: list[tuple[Seat, Action]] = []
        self._setup(deal)

    # ---- construction ------------------------------------------------------------------------------
    @classmethod
    def new(cls, config: C | None = None, seed: int = 0) -> Self:
        """A new match dealt from ``seed``."""
        return cls(config if config is not None else cls.config_class(), seed)  # type: ignore[arg-type]

    @classmethod
    def from_deal(cls, deal: Any, config: C | None = None, seed: int = 0) -> Self:
        """A match whose first hand is dealt exactly as given (game-specific JSON), later hands from seed."""
        return cls(config if config is not None else cls.config_class(), seed, deal)  # type: ignore[arg-type]

    @classmethod
    def replay(cls, record: Record) -> Self:
        config = cls.config_class.from_dict(record.config)
        game = cls(config, record.seed, record.deal)  # type: ignore[arg-type]
        for seat, action in record.actions:
            game.apply(seat, action)
        return game

    def record(self) -> Record:
        return Record(self.name, self.config.to_dict(), self.seed, tuple(self.history), self.deal)

    # ---- the protocol ------------------------------------------------------------------------------
    @property
    @abstractmethod
    def num_seats(self) -> int:
        """Seats at the table (including non-playing seats such as 偎麻雀's 守醒)."""

    @abstractmethod
    def to_move(self) -> tuple[Seat, ...]:
        """Seats that must decide now; several at once for simultaneous choices and claim windows."""

    @abstractmethod
    def legal_actions(self, seat: Seat) -> list[Action]:
        """Legal actions of ``seat`` now (empty when it need not decide).  May be capped for huge sets:
        then ``is_legal`` is the authority."""

    def is_legal(self, seat: Seat, action: Action) -> bool:
        return action in self.legal_actions(seat)

    @abstractmethod
    def _setup(self, deal: Any) -> None:
        """Deal the first hand (from ``deal`` if given, else from ``self.rng``)."""

    @abstractmethod
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        """Carry out an action already known to be legal; return public events."""

    @abstractmethod
    def _view(self, viewer: int) -> View:
        """Game-specific part of the view: exactly what ``viewer`` may see."""

    @property
    @abstractmethod
    def finished(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result | None:
        """Final result once finished, else None."""

    @abstractmethod
    def totals(self) -> tuple[float, ...]:
        """Running match tally per seat."""

    @abstractmethod
    def inventory(self) -> Counter[Any]:
        """Every card/tile in the game, wherever it lies: must stay the same multiset throughout."""

    @abstractmethod
    def clone(self) -> Self:
        """A cheap independent copy (no deepcopy on hot paths)."""

    @abstractmethod
    def resample(self, viewer: int, rng: random.Random) -> Self:
        """A copy in which everything ``viewer`` cannot see is reshuffled among the places it cannot see.

        Sizes are kept and ``resample(v).view(v) == view(v)``: the leak test relies on it, and bots use it
        for determinized search.  The copy need not be reachable by the recorded actions.
        """

    def window(self, seat: Seat) -> Window:
        """Which decision window applies to ``seat`` now."""
        return Window.TURN

    def timeout_action(self, seat: Seat) -> Action | None:
        """What the table takes when ``seat``'s window expires; None means a bot chooses (compulsory move)."""
        return None

    def public_to_move(self) -> tuple[Seat, ...]:
        """Deciding seats everyone may know about.  Claim windows must not reveal who *could* claim."""
        return self.to_move()

    def describe(self, action: Action, lang: str = "zh") -> str:
        """A human label for an action (the CLI and the web client show it on buttons)."""
        return action

    # ---- bookkeeping done once for every game ------------------------------------------------------
    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply ``seat``'s ``action``; on any refusal raise a typed error and change nothing."""
        if self.finished:
            raise GameOverError("the game is over", seat=seat, action=action)
        if not isinstance(action, str):
            raise IllegalActionError(f"an action is a string, not {type(action).__name__}", seat=seat)
        if seat not in self.to_move():
            raise NotYourTurnError(f"seat {seat} has no decision to make now", seat=seat, action=action)
        if not self.is_legal(seat, action):
            raise IllegalActionError(self.why_illegal(seat, action), seat=seat, action=action)
        events = self._apply(seat, action)
        self.history.append((seat, action))
        return events

    def why_illegal(self, seat: Seat, action: Action) -> str:
        """A reason a person can act on; games override for rule-specific messages."""
        legal = self.legal_actions(seat)
        shown = ", ".join(legal[:12]) + (" …" if len(legal) > 12 else "")
        return f"{action!r} is not legal now; legal: {shown}"

    def view(self, viewer: int) -> View:
        """What ``viewer`` (a seat, SPECTATOR or OMNISCIENT) may see, as a JSON-able dict."""
        deciding = self.to_move() if viewer == OMNISCIENT else self.public_to_move()
        base: View = {
            "game": self.name,
            "viewer": viewer,
            "seats": self.num_seats,
            "finished": self.finished,
            "totals": list(self.totals()),
            "deciding": list(deciding),
            "you_decide": viewer >= 0 and viewer in self.to_move(),
        }
        base.update(self._view(viewer))
        return base
