"""The games paiju knows, by name: one entry per game naming its engine, config, bots and terminal hooks.

Entries name their parts as ``"module:attribute"`` and are imported only when asked for, so importing the
registry imports no game.  Nothing is found by convention: no module path is cut to guess where a game's bots
or terminal code live, and no attribute is probed for.  Tests register their own games with
:func:`register` (a plain ``"module:Class"`` string as an entry still names just an engine).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .config import RulesConfig
from .errors import UnknownGameError
from .game import Game, Record
from .terms import Event, View


@dataclass(frozen=True)
class Terminal:
    """A game's own terminal hooks; the shared renderer (``paiju.cli.render``) draws every display block.

    A game gives only what is truly its own: how a card or tile looks (``card``; French cards are drawn by the
    core), lines the display block has no place for (``extra``), and how typed text maps to an action
    (``parse_input``).  ``render`` and ``format_event`` are whole renderers of a game's own, for games whose
    view does not yet carry everything (they replace the shared drawing and ``Game.event_text``).
    """

    card: Callable[[str, str], str] | None = None
    """``(card text, lang) -> rich markup`` for one card; None for French cards."""
    extra: Callable[[View, str], list[str]] | None = None
    """``(view, lang) -> lines`` drawn after the table."""
    parse_input: Callable[[str, Sequence[str]], str | None] | None = None
    """``(typed text, legal actions) -> action``, or None when the text is not understood.  The action may be
    an illegal one (a tile not in hand): the terminal then shows the rule's reason (``Game.explain``)."""
    hand: Callable[[View, str], list[str]] | None = None
    """``(view, lang) -> lines`` drawing the viewer's own hand at the foot of the table (升级 groups it by
    suit); None draws it on the seat's line like any seat's."""
    render: Callable[[View, str], str] | None = None
    format_event: Callable[[Event, str], str] | None = None


BotFactory = Callable[[int], Any]
"""``seed -> bot`` (a :class:`paiju.bots.Bot`)."""

Ref = str
"""``"package.module:attribute"``."""


def load(ref: Ref) -> Any:
    """The object ``ref`` names, importing its module."""
    module, sep, attr = ref.partition(":")
    if not sep or not attr:
        raise ValueError(f"a reference is 'module:attribute', not {ref!r}")
    return getattr(importlib.import_module(module), attr)


@dataclass(frozen=True)
class GameEntry:
    """One registered game: its name and where its engine, config, bots and terminal hooks are."""

    name: str
    engine: Ref | type[Game[Any]]
    config: Ref | type[RulesConfig] | None = None
    """None: the engine's ``config_class``."""
    bots: Ref | Mapping[str, BotFactory] | None = None
    """The game's bots in order, strongest first (``random`` is always offered besides)."""
    terminal: Ref | Terminal | None = None
    study: Ref | Any = None
    """The bot study ``paiju study`` runs (a :class:`paiju.bots.study.StudySpec`); None: the game has none."""
    strengths: Ref | Mapping[str, str] | None = None
    """The card room's strengths, ``{"easy": kind, "normal": kind, "strong": kind}`` (kinds of ``bots``, or
    ``best``); None: :func:`paiju.bots.base.strength_kinds` derives them from ``bots``."""

    def game(self) -> type[Game[Any]]:
        cls: type[Game[Any]] = load(self.engine) if isinstance(self.engine, str) else self.engine
        return cls

    def config_class(self) -> type[RulesConfig]:
        if self.config is None:
            return self.game().config_class
        cfg: type[RulesConfig] = load(self.config) if isinstance(self.config, str) else self.config
        return cfg

    def bot_factories(self) -> Mapping[str, BotFactory]:
        if self.bots is None:
            return {}
        bots: Mapping[str, BotFactory] = load(self.bots) if isinstance(self.bots, str) else self.bots
        return bots

    def terminal_hooks(self) -> Terminal:
        if self.terminal is None:
            return Terminal()
        hooks: Terminal = load(self.terminal) if isinstance(self.terminal, str) else self.terminal
        return hooks

    def strength_map(self) -> Mapping[str, str]:
        """The strengths the entry names ({} when it names none)."""
        if self.strengths is None:
            return {}
        found: Mapping[str, str] = load(self.strengths) if isinstance(self.strengths, str) else self.strengths
        return found

    def study_spec(self) -> Any:
        """The game's study (a ``paiju.bots.study.StudySpec``), or None."""
        return load(self.study) if isinstance(self.study, str) else self.study


def _entry(game: str, package: str, cls: str) -> GameEntry:
    return GameEntry(game, engine=f"{package}.engine:{cls}Game", config=f"{package}.config:{cls}Config",
                     bots=f"{package}.bots:BOTS", terminal=f"{package}.cli:TERMINAL", study=f"{package}.study:STUDY",
                     strengths=f"{package}.bots:STRENGTHS")


GAMES: dict[str, GameEntry | Ref] = {
    "shuiyu": _entry("shuiyu", "paiju.games.shuiyu", "Shuiyu"),
    "huashui": _entry("huashui", "paiju.games.huashui", "Huashui"),
    "shengji": _entry("shengji", "paiju.games.shengji", "Shengji"),
    "weimaque": _entry("weimaque", "paiju.games.weimaque", "Weimaque"),
}
"""name -> entry, in the order games are listed.  A bare ``"module:Class"`` names an engine alone."""


def register(entry: GameEntry) -> None:
    """Add (or replace) a game: tests register their own."""
    GAMES[entry.name] = entry


def unregister(name: str) -> None:
    GAMES.pop(name, None)


def game_names() -> list[str]:
    return list(GAMES)


def entry(name: str) -> GameEntry:
    try:
        found = GAMES[name]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None
    return GameEntry(name, engine=found) if isinstance(found, str) else found


def get_game(name: str) -> type[Game[Any]]:
    return entry(name).game()


def replay(record: Any) -> Game[Any]:
    """Rebuild any registered game from its record."""
    rec = record if isinstance(record, Record) else Record.from_dict(record)
    return get_game(rec.game).replay(rec)
