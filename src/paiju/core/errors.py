"""Typed errors: callers (CLI, server, bots) tell a bad move from a bug by type, never by message."""

from __future__ import annotations


class PaijuError(Exception):
    """Base of every error paiju raises on purpose."""


class NotationError(PaijuError, ValueError):
    """A card, tile or action string could not be parsed; the message names the bad token."""


class ConfigError(PaijuError, ValueError):
    """A rules config has an unknown option, a wrong type or a value out of range."""


class ActionError(PaijuError, ValueError):
    """An action was refused; the game is untouched.  ``code`` is stable for clients; the message is English
    and ``zh`` says the same in Chinese (both: ``text``)."""

    code = "illegal"

    def __init__(self, message: str, *, seat: int | None = None, action: str | None = None,
                 zh: str | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.zh = zh if zh is not None else message

    @property
    def text(self) -> dict[str, str]:
        """The reason in both languages: ``{"zh": ..., "en": ...}``."""
        return {"zh": self.zh, "en": str(self)}


class IllegalActionError(ActionError):
    """The action is not one of the seat's legal actions now."""

    code = "illegal"


class NotYourTurnError(ActionError):
    """The seat is not among those that must decide now."""

    code = "not_your_turn"


class GameOverError(ActionError):
    """The game has finished; nothing more can be applied."""

    code = "game_over"


class UnknownGameError(PaijuError, KeyError):
    """No game is registered under that name."""
