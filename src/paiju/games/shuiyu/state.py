"""The state of a 水鱼 match, declared once: what each field holds, how a copy takes it, who may see it.

The engine (:mod:`.engine`) changes it by the rules; the view (:mod:`.view`) reads it.  Who sees a hand
(page §五, §六): its own seat always; everyone once it is face up (开牌, 强奸, a 水鱼/至尊 at the reveal, a
covered hand compared at settlement); and, at settlement, each player the banker must show its hand to
(bit ``v`` of ``seen[seat]``).  A call or a response is its own seat's until all have called or responded.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from paiju.core.cards import Card
from paiju.core.game import Game
from paiju.core.state import HIDDEN, Cards, Copy, State, cache, cards, field
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
    """The fields of a 水鱼 match and the questions both the engine and the view ask of them."""

    state = State(
        n=field(),
        table_rules=field(),  # frozen: the drinking table of the config
        _rules=field(),  # the config as a dict, shared by every view (views are read-only)
        banker=field(),
        rounds_played=field(),
        total=field(Copy.COPY),
        drinks=field(Copy.COPY),
        last_result=field(),  # replaced at each settlement, never changed in place
        prev=field(),  # the last round as settled: replaced, never changed in place
        _prev_views=cache(dict),  # ``last_round`` per viewer, rebuilt on demand
        phase=field(),
        pending=field(Copy.COPY),
        hands=cards(Cards.LIST, per_seat=True, sees=_hand_sight),
        stock=cards(Cards.LIST, sees=HIDDEN),
        kinds=field(Copy.COPY, per_seat=True, sees=_hand_sight, derived=True),
        arr=field(Copy.COPY, per_seat=True, sees=_hand_sight, derived=True),
        _split_options=field(Copy.COPY, per_seat=True, derived=True),  # each seat's splits, built when first asked
        calls=field(Copy.COPY, per_seat=True, sees=_call_sight),
        answers=field(Copy.COPY, per_seat=True),
        responses=field(Copy.COPY, per_seat=True, sees=_response_sight),
        calls_public=field(),
        responses_public=field(),
        public=field(Copy.COPY, per_seat=True),
        seen=field(Copy.COPY, per_seat=True),
    )

    n: int
    table_rules: Table
    _rules: dict[str, Any]
    banker: int
    rounds_played: int
    total: list[float]
    drinks: list[int]
    last_result: dict[str, Any] | None
    prev: dict[str, Any] | None
    _prev_views: dict[int, dict[str, Any]]
    phase: Phase
    pending: list[int]
    hands: list[list[Card]]
    stock: list[Card]
    kinds: list[Kind]
    arr: list[Arrangement | None]
    _split_options: list[dict[str, Arrangement] | None]
    calls: list[str | None]
    answers: list[str | None]
    responses: list[str | None]
    calls_public: bool
    responses_public: bool
    public: list[bool]
    """Face up for everyone."""
    seen: list[int]
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
