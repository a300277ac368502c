"""The display block: the ``table`` part of every view, typed, so one web client and one terminal renderer
draw every game.

A game's ``view.py`` builds it from the game's state with the helpers below; the shapes are plain dicts at
run time (``TypedDict``), so a view is still JSON as it was.  docs/architecture.md describes each key.  Event
text and action labels are in the same two languages (:class:`Text`); the card room attaches event text when
it broadcasts (``Game.event_text``), never on the engine's hot path.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, Protocol, TypedDict

from .terms import Event, Text, View, text

__all__ = [
    "FACE_DOWN",
    "ActionItem",
    "CardStyle",
    "CenterItem",
    "GameView",
    "GroupBlock",
    "SeatBlock",
    "Select",
    "TableBlock",
    "Text",
    "center",
    "fresh",
    "group",
    "name_seats",
    "result_block",
    "seat_block",
    "seat_points",
    "table_block",
    "text",
    "who",
]

CardStyle = Literal["french", "tile", "paper"]
SEAT_REF = re.compile(r"\{seat:(\d+)\}")


def who(seat: object) -> str:
    """A seat inside a game text: ``{seat:N}``, N counted from 0.  Each reader puts its own name there (the
    browser the person's or bot's name, the terminal 座位N / seat N), so no text names a seat by a bare number
    (docs/web.md, "Seats inside game texts")."""
    return f"{{seat:{seat}}}"


def seat_points(points: Iterable[float]) -> str:
    """Each seat's points after its name, ``{seat:0} +5  {seat:1} -5``: a bare list of numbers names nobody, and
    a reader cannot tell which number is theirs (issue 33)."""
    return "  ".join(f"{who(seat)} {p:+g}" for seat, p in enumerate(points))


def name_seats(words: str, name: Callable[[int], str]) -> str:
    """``words`` with every ``{seat:N}`` replaced by ``name(N)``."""
    return SEAT_REF.sub(lambda m: name(int(m.group(1))), words) if "{seat:" in words else words

FACE_DOWN = "??"
"""A card whose face the viewer may not see, wherever it lies."""


class GroupBlock(TypedDict):
    """Cards a seat has laid out together (a meld, a head or tail, a bid), with their name."""

    label: Text
    cards: list[str]


class SeatBlock(TypedDict):
    seat: int
    role: Text
    hand: list[str] | None
    """The cards when the viewer may see them, else None (``hand_count`` says how many)."""
    hand_count: int
    groups: list[GroupBlock]
    discards: list[str]
    note: Text | None


class CenterItem(TypedDict):
    label: Text
    cards: list[str]


class Select(TypedDict):
    """The seat picks cards from its hand and sends ``"<verb> <cards>"`` (升级's plays and burying)."""

    verb: str
    min: int
    max: int


class TableBlock(TypedDict):
    card_style: CardStyle
    phase: Text
    info: list[Text]
    seats: list[SeatBlock]
    center: list[CenterItem]
    select: Select | None
    last_result: dict[str, Any] | None
    """The latest hand's settlement (see :func:`result_block`), or None."""


class ActionItem(TypedDict):
    """One legal action as the card room sends it: the action string, its kind (the verb) and its labels."""

    action: str
    kind: str
    zh: str
    en: str


def group(label: Text, cards: Iterable[str]) -> GroupBlock:
    return {"label": label, "cards": list(cards)}


def center(label: Text, cards: Iterable[str]) -> CenterItem:
    return {"label": label, "cards": list(cards)}


def seat_block(seat: int, role: Text, *, hand: list[str] | None, hand_count: int,
               groups: Sequence[GroupBlock] = (), discards: Iterable[str] = (), note: Text | None = None) -> SeatBlock:
    return {"seat": seat, "role": role, "hand": hand, "hand_count": hand_count, "groups": list(groups),
            "discards": list(discards), "note": note}


def table_block(card_style: CardStyle, phase: Text, info: list[Text], seats: list[SeatBlock], *,
                center: list[CenterItem] | None = None, select: Select | None = None,
                last_result: dict[str, Any] | None = None) -> TableBlock:
    return {"card_style": card_style, "phase": phase, "info": info, "seats": seats, "center": center or [],
            "select": select, "last_result": last_result}


_ATOMS = frozenset({str, int, float, bool, type(None)})


def fresh(x: Any) -> Any:
    """A copy of a JSON-like value that shares no dict or list with it (tuples become lists, as in JSON).
    Leaves are kept without a call (most of a view is leaves: 10–25 % faster per view)."""
    if type(x) is dict:
        return {k: v if type(v) in _ATOMS else fresh(v) for k, v in x.items()}
    if type(x) is list or type(x) is tuple:
        return [v if type(v) in _ATOMS else fresh(v) for v in x]
    return x


def result_block(title: Text, lines: list[dict[str, Any]], scores: list[Any], **extra: Any) -> dict[str, Any]:
    """A hand's settlement: ``title``, ``lines`` (each ``{"zh", "en", "points": [per seat]}`` and whatever
    else the game adds), ``scores`` per seat, then the game's own keys."""
    return {"title": title, "lines": lines, "scores": scores, **extra}


class GameView(Protocol):
    """A game's display code — its ``view.py`` module — which the engine names as ``display_code``; the game
    base then builds views, labels actions, words refusals and events with it.  ``game`` is the game's state."""

    def build(self, game: Any, viewer: int) -> View:
        """The game's part of ``viewer``'s view, ``table`` (the display block) included."""

    def label(self, game: Any, action: str) -> Text:
        """An action on a button."""

    def explain(self, game: Any, seat: int, action: str) -> Text | None:
        """Why ``action`` is refused, by the rule that forbids it; None for the generic reason."""

    def event_text(self, event: Event) -> Text:
        """One public event in words."""
