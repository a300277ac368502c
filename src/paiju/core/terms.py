"""The protocol's basic terms, shared by the game base, the rules configs and the display block.

They sit apart from :mod:`.game` so that :mod:`.config` can name a decision window without importing the
game base (which imports the configs).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final, TypedDict

Seat = int
Action = str
Event = dict[str, Any]
View = dict[str, Any]

SPECTATOR: Final = -1
"""Viewer id of a spectator: the public view."""
OMNISCIENT: Final = -2
"""Viewer id that sees everything: tests, finished-game replays and admin tools only."""

MATCH_OVER: Final = "over"
"""The one spelling of "the match is over": every game's phase takes this value at the end, and
``Game.finished`` reads it."""


class Window(StrEnum):
    """Which decision window applies: the card room times claims and ordinary turns differently."""

    TURN = "turn"
    CLAIM = "claim"
    PACE = "pace"
    """A step of something that runs at the table's pace whether or not anyone acts (升级's deal: a card to each
    seat, then every seat may bid): the room gives it one fixed length, never closes it early (not even when every
    seat asked has answered), never says who was asked, and takes ``timeout_action`` for each silent seat at its
    end.  Bot-only tables need not wait."""


class Text(TypedDict):
    """Words for people in both languages of the table."""

    zh: str
    en: str


def text(zh: str, en: str) -> Text:
    return {"zh": zh, "en": en}
