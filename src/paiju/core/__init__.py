"""The game core: notation, the Game protocol, declared state, the display block, the claim window, errors
and the registry.  Standard library only."""

from .claims import ClaimWindow
from .config import RulesConfig, option
from .display import ActionItem, TableBlock
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
from .game import Game, Record, Result
from .registry import GameEntry, Terminal, game_names, get_game, register, replay, unregister
from .state import State
from .terms import MATCH_OVER, OMNISCIENT, SPECTATOR, Action, Event, Seat, Text, View, Window, text

__all__ = [
    "MATCH_OVER",
    "OMNISCIENT",
    "SPECTATOR",
    "Action",
    "ActionError",
    "ActionItem",
    "ClaimWindow",
    "ConfigError",
    "Event",
    "Game",
    "GameEntry",
    "GameOverError",
    "IllegalActionError",
    "NotYourTurnError",
    "NotationError",
    "PaijuError",
    "Record",
    "Result",
    "RulesConfig",
    "Seat",
    "State",
    "TableBlock",
    "Terminal",
    "Text",
    "UnknownGameError",
    "View",
    "Window",
    "game_names",
    "get_game",
    "option",
    "register",
    "replay",
    "text",
    "unregister",
]
