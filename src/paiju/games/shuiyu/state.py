"""The state of a 水鱼 match, declared once: what each field holds, how a copy takes it, who may see it.

The engine (:mod:`.engine`) changes it by the rules; the view (:mod:`.view`) reads it.  Who sees a hand
(page §五, §六): its own seat always; everyone once it is face up (开牌, 强奸, a 水鱼/至尊 at the reveal, a
covered hand compared at settlement); and, at settlement, each player the banker must show its hand to
(bit ``v`` of ``seen[seat]``).  A call or a response is its own seat's until all have called or responded.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from paiju.core.cards import Card
from paiju.core.game import Game
from paiju.core.state import COPY, HIDDEN, SHARED, Cards, Copy, cache, cards, field
from paiju.core.terms import OMNISCIENT

from .config import ShuiyuConfig
from .rules import COVER_ANSWERS, Arrangement, Kind, Table


class Phase(StrEnum):
    ARRANGE = "arrange"
    CALL = "call"
    ANSWER = "answer"
    RESPOND = "respond"
    OVER = "over"


def sees_hand(viewer: int, seat: int, public: list[bool], seen: list[int]) -> bool:
    """``viewer`` sees ``seat``'s hand: its own, a face-up one, or one shown to it (also for the last round)."""
    if viewer in (OMNISCIENT, seat) or public[seat]:
        return True
    return viewer >= 0 and bool(seen[seat] >> viewer & 1)


def _hand_sight(game: ShuiyuState, viewer: int, seat: int) -> bool:
    return sees_hand(viewer, seat, game.public, game.seen)


def _call_sight(game: ShuiyuState, viewer: int, seat: int) -> bool:
    return game.calls_public or viewer in (seat, OMNISCIENT)


def _response_sight(game: ShuiyuState, viewer: int, seat: int) -> bool:
    return game.responses_public or viewer in (seat, OMNISCIENT)


class ShuiyuState(Game[ShuiyuConfig]):
    """The fields of a 水鱼 match (each declared once, see :mod:`paiju.core.state`) and the questions both the
    engine and the view ask of them."""

    n: int
    table_rules: Table
    _rules: Annotated[dict[str, Any], SHARED]  # the config as a dict, shared by every view (views are read-only)
    banker: int
    rounds_played: int
    total: Annotated[list[float], COPY]
    drinks: Annotated[list[int], COPY]
    last_result: Annotated[dict[str, Any] | None, SHARED]  # replaced at each settlement, never changed in place
    prev: Annotated[dict[str, Any] | None, SHARED]  # the last round as settled: replaced, never changed in place
    _prev_views: Annotated[dict[int, dict[str, Any]], cache(dict)]  # ``last_round`` per viewer, made on demand
    phase: Phase
    pending: Annotated[list[int], COPY]
    hands: Annotated[list[list[Card]], cards(Cards.LIST, per_seat=True, sees=_hand_sight)]
    stock: Annotated[list[Card], cards(Cards.LIST, sees=HIDDEN)]
    kinds: Annotated[list[Kind], field(Copy.COPY, per_seat=True, sees=_hand_sight, derived=True)]
    arr: Annotated[list[Arrangement | None], field(Copy.COPY, per_seat=True, sees=_hand_sight, derived=True)]
    _split_options: Annotated[list[dict[str, Arrangement] | None], field(Copy.COPY, per_seat=True, derived=True)]
    """Each seat's splits by action, made when first asked for (a dict is never changed once made)."""
    calls: Annotated[list[str | None], field(Copy.COPY, per_seat=True, sees=_call_sight)]
    answers: Annotated[list[str | None], COPY]
    responses: Annotated[list[str | None], field(Copy.COPY, per_seat=True, sees=_response_sight)]
    calls_public: bool
    responses_public: bool
    public: Annotated[list[bool], COPY]
    """Face up for everyone."""
    seen: Annotated[list[int], COPY]
    """Bit v set: seat v may see this seat's hand (besides the seat itself and public hands)."""

    @property
    def _over(self) -> bool:
        """The old spelling of ``finished``."""
        return self.finished

    def players(self) -> list[int]:
        """Every seat but the banker, in order after the banker (the order the banker answers in)."""
        return [(self.banker + i) % self.n for i in range(1, self.n)]

    def visible(self, viewer: int, seat: int) -> bool:
        """May ``viewer`` see ``seat``'s hand now?"""
        return self.sees("hands", viewer, seat)

    def answer_targets(self) -> list[int]:
        """Players the banker may answer now: open hands first (page §五 6), then the covered ones."""
        open_ = [p for p in self.players() if self.calls[p] == "open" and self.answers[p] is None]
        if open_:
            return open_
        return [p for p in self.players() if self.calls[p] in COVER_ANSWERS and self.answers[p] is None]
