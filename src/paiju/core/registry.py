"""The games paiju knows, by name.  Listed explicitly and imported lazily: no import side effects."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import UnknownGameError
from .game import Game

# name -> "module:Class"; a game appears here once its engine lands.
GAMES: dict[str, str] = {
    "shuiyu": "paiju.games.shuiyu:ShuiyuGame",
    "huashui": "paiju.games.huashui:HuashuiGame",
    "shengji": "paiju.games.shengji:ShengjiGame",
    "weimaque": "paiju.games.weimaque:WeimaqueGame",
}


def game_names() -> list[str]:
    return list(GAMES)


def get_game(name: str) -> type[Game[Any]]:
    try:
        target = GAMES[name]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None
    module, _, attr = target.partition(":")
    cls: type[Game[Any]] = getattr(importlib.import_module(module), attr)
    return cls


def replay(record: Any) -> Game[Any]:
    """Rebuild any registered game from its record."""
    from .game import Record

    rec = record if isinstance(record, Record) else Record.from_dict(record)
    return get_game(rec.game).replay(rec)
