"""The game core: notation, the Game protocol, errors and the registry.  Standard library only."""

from .config import RulesConfig, option
from .errors import (
    ActionError,
    ConfigError,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    PaijuError,
    UnknownGameError,
)
from .game import OMNISCIENT, SPECTATOR, Action, Event, Game, Record, Result, Seat, View, Window
from .registry import game_names, get_game, replay

__all__ = [
    "OMNISCIENT",
    "SPECTATOR",
    "Action",
    "ActionError",
    "ConfigError",
    "Event",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "NotYourTurnError",
    "NotationError",
    "PaijuError",
    "Record",
    "Result",
    "RulesConfig",
    "Seat",
    "UnknownGameError",
    "View",
    "Window",
    "game_names",
    "get_game",
    "option",
    "replay",
]
