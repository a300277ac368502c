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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar

from .config import RulesConfig
from .display import ActionItem, GameView, fresh
from .errors import GameOverError, IllegalActionError, NotYourTurnError
from .state import Copy, State, hidden_part, put_back
from .state import field as state_field
from .terms import MATCH_OVER, OMNISCIENT, SPECTATOR, Action, Event, Seat, Text, View, Window

__all__ = ["MATCH_OVER", "OMNISCIENT", "SPECTATOR", "Action", "Event", "Game", "Record", "Result", "Seat", "View",
           "Window"]

C = TypeVar("C", bound=RulesConfig)

RESAMPLE_TRIES = 1000
"""Deals a resample tries before it keeps the last one when the game's ``_resample_ok`` keeps refusing."""


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

    Subclasses set ``name``, ``config_class`` and ``display``, declare their state as annotated fields (see
    :mod:`paiju.core.state`) and implement the abstract hooks.  The base checks every action before the
    subclass sees it, so a refused action changes nothing; it copies and resamples from the declared state.
    A game that declares no state writes its own ``clone`` and ``resample`` (the base supports both).
    """

    name: ClassVar[str]
    config_class: ClassVar[type[RulesConfig]]
    display: ClassVar[dict[str, str]] = {}
    """Human names: {"zh": ..., "en": ...}."""
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    paced: ClassVar[bool] = False
    """Some decisions are paced steps (``Window.PACE``): the card room offers a table the pace option."""

    display_code: ClassVar[GameView | None] = None
    """The game's display code (its ``view.py``): views, action labels, refusal reasons and event text come from
    it.  A game without one overrides ``_view`` (and ``describe``, ``explain``, ``event_text``) itself."""
    declared: ClassVar[State | None] = None
    """The base's fields and the game's, as ``clone`` copies them: made from the class-level annotations of the
    game's classes when the class is made (see :mod:`paiju.core.state`); None for a game that declares none."""
    _copy_fields: ClassVar[Callable[[Any], Any] | None] = None

    BASE_STATE: ClassVar[State] = State(
        config=state_field(),  # frozen
        seed=state_field(),
        deal=state_field(),  # the first deal's JSON, never changed
        history=state_field(Copy.COPY),
    )
    """The base's fields; the random stream (``_rng``) is copied by :meth:`clone` itself, lazily."""

    phase: Any
    """Every game's phase; the value :data:`MATCH_OVER` ends the match (games set it in ``_setup``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = State.of(cls, Game)
        if own:
            cls.declared = Game.BASE_STATE | own
            cls._copy_fields = cls.declared.compile_clone()

    def __init__(self, config: C, seed: int, deal: Any = None) -> None:
        self.config: C = config
        self.seed = seed
        self.deal = deal
        self.rng = random.Random(seed)
        self.history: list[tuple[Seat, Action]] = []
        self._setup(deal)

    # ---- the random stream, copied lazily ------------------------------------------------------------
    _rng: random.Random | None
    _rng_from: tuple[Any, ...] | int | None
    """Where a copy's stream starts, until it is first used: a state of the original's (a clone) or a seed (a
    resample).  While ``_rng`` is live, a state here is a snapshot still valid (taken by a clone since the last
    use), which the next clone shares instead of asking the stream again."""

    @property
    def rng(self) -> random.Random:
        """The match's one random stream: every deal draws from it.  A copy gets its own on first use."""
        r = self._rng
        if r is None:
            src = self._rng_from
            if isinstance(src, int):
                r = random.Random(src)
            else:
                r = random.Random.__new__(random.Random)
                r.setstate(src)  # type: ignore[arg-type]
            self._rng = r
        self._rng_from = None  # whoever asked may draw: a snapshot would be stale
        return r

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_from = None

    def _rng_state(self) -> tuple[Any, ...] | int:
        src = self._rng_from
        if src is None:
            assert self._rng is not None
            src = self._rng_from = self._rng.getstate()
        return src

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

    def _view(self, viewer: int) -> View:
        """Game-specific part of the view: exactly what ``viewer`` may see (the display code builds it)."""
        if self.display_code is None:
            raise NotImplementedError(f"{type(self).__name__} names no display_code and builds no view")
        return self.display_code.build(self, viewer)

    @property
    def finished(self) -> bool:
        """The match is over: its phase is :data:`MATCH_OVER`."""
        return bool(self.phase == MATCH_OVER)

    def result(self) -> Result | None:
        """Final result once finished, else None: by default the totals; games add their own detail."""
        return Result(self.totals()) if self.finished else None

    @abstractmethod
    def totals(self) -> tuple[float, ...]:
        """Running match tally per seat."""

    @abstractmethod
    def inventory(self) -> Counter[Any]:
        """Every card/tile in the game, wherever it lies: must stay the same multiset throughout."""

    def window(self, seat: Seat) -> Window:
        """Which decision window applies to ``seat`` now."""
        return Window.TURN

    def timeout_action(self, seat: Seat) -> Action | None:
        """What the table takes when ``seat``'s window expires; None means a bot chooses (compulsory move)."""
        return None

    def public_to_move(self) -> tuple[Seat, ...]:
        """Deciding seats everyone may know about.  Claim windows must not reveal who *could* claim."""
        return self.to_move()

    def hands_finished(self) -> int:
        """Hands of this match settled so far: the card room pauses between two hands (the result in view)
        when this grows and the match goes on."""
        return 0

    def watch_seat(self) -> int:
        """Where a person who only watches sits: ``SPECTATOR``, or a seat that plays no card but sees more
        (偎麻雀's 守醒)."""
        return SPECTATOR

    # ---- words for people ---------------------------------------------------------------------------
    def describe(self, action: Action, lang: str = "zh") -> str:
        """A human label for an action (the CLI and the web client show it on buttons)."""
        if self.display_code is None:
            return action
        return self.display_code.label(self, action)["zh" if lang == "zh" else "en"]

    def action_item(self, action: Action) -> ActionItem:
        """One action as the card room offers it: the string, its kind (the verb) and its labels."""
        return {"action": action, "kind": action.partition(" ")[0], "zh": self.describe(action, "zh"),
                "en": self.describe(action, "en")}

    def legal_items(self, seat: Seat) -> list[ActionItem]:
        """``seat``'s legal actions as the card room offers them (strings stay the actions themselves)."""
        return [self.action_item(a) for a in self.legal_actions(seat)]

    def event_text(self, event: Event) -> Text:
        """One public event in words, both languages: the card room attaches it when it broadcasts, the
        terminal prints it; never computed on the engine's hot path.  Games word their own events."""
        if self.display_code is not None:
            return self.display_code.event_text(event)
        plain = " ".join(f"{k}={v}" for k, v in event.items())
        return {"zh": plain, "en": plain}

    def explain(self, seat: Seat, action: Action) -> Text:
        """Why ``action`` is refused, in both languages; games give rule-specific reasons."""
        reason = self.display_code.explain(self, seat, action) if self.display_code is not None else None
        if reason is not None:
            return reason
        legal = self.legal_actions(seat)
        shown = ", ".join(legal[:12]) + (" …" if len(legal) > 12 else "")
        return {"zh": f"现在不能 {action!r}；可以：{shown}", "en": f"{action!r} is not legal now; legal: {shown}"}

    def why_illegal(self, seat: Seat, action: Action) -> str:
        """The reason in English (the error's message); see :meth:`explain`."""
        return self.explain(seat, action)["en"]

    # ---- bookkeeping done once for every game ------------------------------------------------------
    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply ``seat``'s ``action``; on any refusal raise a typed error and change nothing."""
        if self.finished:
            raise GameOverError("the game is over", seat=seat, action=action, zh="牌局已经结束")
        if not isinstance(action, str):
            raise IllegalActionError(f"an action is a string, not {type(action).__name__}", seat=seat,
                                     zh="动作必须是一段文字")
        if seat not in self.to_move():
            raise NotYourTurnError("it is not your turn: you have no decision to make now", seat=seat,
                                   action=action, zh="现在不是你的回合，不用行动")  # the seat is e.seat
        if not self.is_legal(seat, action):
            raise IllegalActionError(self.why_illegal(seat, action), seat=seat, action=action,
                                     zh=self.explain(seat, action)["zh"])
        events = self._apply(seat, action)
        self.history.append((seat, action))
        return events

    def view(self, viewer: int, *, copy: bool = True) -> View:
        """What ``viewer`` (a seat, SPECTATOR or OMNISCIENT) may see, as a JSON-able dict.

        The view is the caller's own: games hand out the same unchanged parts (their rules, the last round, a
        label) in many views, so it is copied before it leaves.  ``copy=False`` skips the copy for a caller
        that only reads it at once and keeps nothing (the card room serialises it, an encoder reads it)."""
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
        return fresh(base) if copy else base

    # ---- copies, from the declared state ------------------------------------------------------------
    def sees(self, field: str, viewer: int, seat: int = -1) -> bool:
        """May ``viewer`` see ``field`` (``seat``'s entry of a per-seat field)?  As the state declares."""
        if viewer == OMNISCIENT:
            return True
        declared = type(self).declared
        assert declared is not None, f"{type(self).__name__} declares no state"
        return declared.fields[field].sees(self, viewer, seat)

    def undeclared(self) -> set[str]:
        """Attributes a copy would not take because the state does not declare them (tests keep this empty)."""
        declared = type(self).declared
        names = set(declared.fields) if declared is not None else set()
        have = set(vars(self))
        for k in type(self).__mro__:  # a class compiled by mypyc keeps its own attributes out of __dict__
            have.update(n for n in getattr(k, "__mypyc_attrs__", ()) if n != "__dict__" and hasattr(self, n))
        return have - names - {"_rng", "_rng_from"}

    def clone(self) -> Self:
        """A cheap independent copy: every declared field as declared, the random stream copied on first use."""
        copy_fields = type(self)._copy_fields
        if copy_fields is None:
            raise NotImplementedError(f"{type(self).__name__} declares no state: declare its fields or write clone()")
        g: Self = copy_fields(self)
        g._rng = None
        g._rng_from = self._rng_state()
        return g

    def resample(self, viewer: int, rng: random.Random) -> Self:
        """A copy in which everything ``viewer`` cannot see is dealt afresh from ``rng``.

        Every card in a declared card field that ``viewer`` may not see goes into one pool, which is put in
        order, shuffled and dealt back into the same places in the same numbers; the match's random stream
        (hidden from every seat) is reseeded from ``rng``; then the game re-derives what follows from the
        cards and what other seats said unseen (``_rederive``).  Sizes are kept and ``resample(v).view(v) ==
        view(v)``: the leak test relies on it, and bots use it for determinized search.

        The copy depends on ``view(viewer)`` and ``rng`` alone (the conformance test checks it): two games
        that look the same to ``viewer`` give the same copy for the same ``rng``.  So it has no record: its
        history is empty (the actions would tell what others called unseen), and it need not be reachable.
        """
        g = self.clone()
        if viewer == OMNISCIENT:
            return g
        g.history = []
        g._rng_from = rng.getrandbits(63)
        declared = type(self).declared
        assert declared is not None
        spots: list[tuple[str, Any, int, int]] = []
        pool: list[int] = []
        for name, f in declared.card_fields:
            for seat in (range(self.num_seats) if f.per_seat else (-1,)):
                if not f.sees(self, viewer, seat):
                    part = hidden_part(g, name, f, seat)
                    spots.append((name, f, seat, len(part)))
                    pool.extend(part)
        pool += g._resample_gather(viewer)
        pool.sort()  # the same hidden cards in any places make the same pool: the copy depends on the view alone
        for _ in range(RESAMPLE_TRIES):
            rng.shuffle(pool)
            rest = g._resample_place(viewer, pool, rng)
            at = 0
            for name, f, seat, size in spots:
                put_back(g, name, f, seat, rest[at:at + size])
                at += size
            if g._resample_ok(viewer):
                break
        g._rederive(viewer, rng)
        return g

    @classmethod
    def from_view(cls, view: View, rng: random.Random) -> Self:
        """A game that looks to ``view["viewer"]`` as ``view`` shows, everything that seat cannot see dealt afresh
        from ``rng``: what a bot holding only its view searches from (issue 37).

        ``view`` is what ``view(seat)`` returned, or the same read back from JSON.  The game fills in what the
        view shows and puts the unseen cards anywhere their counts fit (``_from_view``, which depends on the view
        alone); a resample for the seat then deals them afresh and re-derives what follows.  So, as with
        :meth:`resample`, ``from_view(view(s), rng).view(s) == view(s)`` (a game names any field it cannot
        reproduce), the result depends on the view and ``rng`` alone, cards are conserved, and its history is
        empty: the actions that led here are not in a view (and it need not be reachable by them)."""
        viewer = view.get("viewer")
        if not isinstance(viewer, int) or isinstance(viewer, bool) or viewer < 0:
            raise ValueError(f"from_view needs a seat's view, not the view of {viewer!r}")
        if view.get("game") != cls.name:
            raise ValueError(f"a {view.get('game')!r} view cannot build a {cls.name!r} game")
        return cls._from_view(view).resample(viewer, rng)

    @classmethod
    def _from_view(cls, view: View) -> Self:
        """The game as ``view`` shows it, hidden places filled with unseen cards in a fixed order (the resample
        deals them afresh) and hidden decisions with any that fit (``_rederive`` draws them afresh)."""
        raise NotImplementedError(f"{cls.__name__} cannot be built from a view")

    def _resample_gather(self, viewer: int) -> list[int]:
        """Hidden cards kept outside the declared card fields (偎麻雀's face-down 煨): they join the pool."""
        return []

    def _resample_place(self, viewer: int, pool: list[int], rng: random.Random) -> list[int]:
        """Deal the game's own hidden places from the shuffled ``pool`` first (as many cards as it gathered);
        return the rest, which go back into the declared card fields."""
        return pool

    def _resample_ok(self, viewer: int) -> bool:
        """May a resample keep this deal?  Games refuse deals the viewer knows cannot be (say why)."""
        return True

    def _rederive(self, viewer: int, rng: random.Random) -> None:
        """After a resample dealt new cards: recompute what follows from them (fields declared ``derived``),
        and re-derive from ``rng`` (or reset) what other seats decided or may decide that ``viewer`` has not
        seen — hidden calls, claim options and answers — so that nothing of the real game leaks through."""
