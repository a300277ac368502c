"""The state of a 升级 match, declared once: what each field holds, how a copy takes it, who may see it.

The engine (:mod:`.engine`) changes it by the rules; the view (:mod:`.view`) reads it.  Who sees what: each
seat its own hand (``hands``, card counts; ``known`` is the part of a hand everyone has seen — cards shown in a
bid, the rest of a failed throw); nobody the undealt cards (``stock[pos:]``, the kitty's 12 included until
the trump is set); the dealer the kitty once it has taken it, everyone at the end of the match, and everyone
the third kitty card while it names the trump.  Bids, tricks, points and fines are public.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from paiju.core.cards import Card
from paiju.core.game import Game
from paiju.core.state import COPY, EACH, HIDDEN, OWNER, SHARED, Cards, cache, cards
from paiju.core.terms import OMNISCIENT, Action, Seat

from .config import ShengjiConfig
from .rules import TOP, Order, Refusal, bid_trump, order_for

__all__ = ["ALL_SEATS", "DEALT", "DECK_SIZE", "KITTY", "SEATS", "TOP", "Phase", "ShengjiState", "team_of"]

SEATS = 4
DECK_SIZE = 216
KITTY = 12
DEALT = DECK_SIZE - KITTY
ALL_SEATS = (1 << SEATS) - 1
"""``asking`` when a deal step begins: every seat is asked."""


class Phase(StrEnum):
    DEAL = "deal"
    """Cards go out a round at a time (a card to each seat); after each round every seat may bid (亮主, 抢亮)."""
    BURY = "bury"
    """The dealer has taken the kitty and buries 12."""
    PLAY = "play"
    OVER = "over"
    """The match is over (:data:`paiju.core.MATCH_OVER`)."""


def team_of(seat: Seat) -> int:
    """The side of a seat: seats 0 and 2 are side 0, seats 1 and 3 side 1."""
    return seat % 2


def _kitty_sight(game: ShengjiState, viewer: int, seat: int) -> bool:
    """The dealer sees the kitty once it has taken it; everyone at the end of the match."""
    return viewer == OMNISCIENT or game.phase == Phase.OVER or (viewer == game.dealer and game.trump_set)


class ShengjiState(Game[ShengjiConfig]):
    """The fields of a 升级 match (each declared once, see :mod:`paiju.core.state`) and the questions both the
    engine and the view ask of them."""

    # ---- the match ----
    rules: Annotated[dict[str, Any], SHARED]  # the config as a dict, in every view (never changed)
    levels: Annotated[list[int], COPY]
    """Each side's level, 2…14 (seats 0+2, seats 1+3)."""
    match_gain: Annotated[list[int], COPY]
    hands_played: int
    end_reason: str | None
    hand_log: Annotated[list[dict[str, Any]], COPY]  # one summary per hand, never changed once made
    last_result: Annotated[dict[str, Any] | None, SHARED]  # replaced at each settlement, never changed in place
    hand_first_action: int
    """Index in ``history`` of the current hand's first action: the card room times hands with it."""
    _version: int
    """Bumped by every action: ``_listed`` (the last legal list offered) is valid only at its version."""
    _listed: Annotated[tuple[int, int, tuple[str, ...]], cache((-1, -1, ()))]
    phase: Phase
    # ---- the deal and the bidding ----
    stock: Annotated[list[Card], cards(Cards.LIST, sees=HIDDEN, span=("pos", None))]
    """The hand's 216 cards in dealing order; ``stock[pos:]`` is still to come (the last 12 are the kitty)."""
    pos: int
    start: Seat
    """The seat that receives the first card."""
    dealer: Seat | None
    first_hand: bool
    """The dealer is still open: the first seat to bid will deal (the match's first hand)."""
    hands: Annotated[list[list[int]], cards(Cards.COUNTS, per_seat=True, sees=OWNER, fixed="known")]
    """Per seat, a count per card kind (the dealer's kitty is apart while it buries)."""
    sizes: Annotated[list[int], COPY]
    known: Annotated[list[list[int]], EACH]
    """Per seat, the cards everyone knows are in its hand: shown in a bid, or the rest of a failed throw."""
    bid_cards: tuple[tuple[Card, tuple[tuple[int, int, str], ...]], ...]
    """The bids of this hand's level (:func:`.rules.bid_table`)."""
    bid: tuple[Seat, Card, int, int] | None
    """The standing bid: (seat, card, copies, ladder rank)."""
    first_bidder: Seat | None
    bids: Annotated[list[dict[str, Any]], COPY]  # every bid as shown, each never changed once made
    asking: int
    """While dealing, bit s is set while seat s has not answered this deal step (every seat is asked at every
    step, whether or not it holds a bid); a seat knows only its own bit."""
    trump: int | None
    trump_set: bool
    level: int
    order: Order
    """Which suit each card plays in and how strong it is, for this hand's level and trump."""
    kitty: Annotated[list[Card], cards(Cards.LIST, sees=_kitty_sight, face_up="kitty_face_up")]
    kitty_reveal: Card | None
    """The third kitty card when it named the trump (nobody bid): shown to everyone."""
    buried: bool
    # ---- tricks ----
    turn: Seat
    trick: Annotated[list[tuple[Seat, tuple[Card, ...]]], COPY]  # (seat, its cards) per play so far
    tricks: Annotated[list[dict[str, Any]], COPY]  # each trick as played, never changed once made
    pile: Annotated[list[Card], COPY]
    """Every card played this hand (the inventory counts them)."""
    captured: int
    """The attackers' points in tricks this hand."""
    penalty: Annotated[list[int], COPY]
    """Failed-throw points conceded per side this hand."""
    fails: Annotated[list[int], COPY]
    fail_cards: Annotated[list[int], COPY]

    @property
    def over(self) -> bool:
        """The old spelling of ``finished``."""
        return self.finished

    @property
    def kitty_face_up(self) -> tuple[int, ...]:
        """Kitty positions everyone sees: the third card while the dealer buries, when it named the trump."""
        return (2,) if self.phase == Phase.BURY and self.kitty_reveal is not None else ()

    def holding(self, seat: Seat) -> list[int]:
        """Counts of the cards ``seat`` may play or bury now (the dealer's hand includes the kitty while burying)."""
        if self.phase == Phase.BURY and seat == self.dealer:
            h = list(self.hands[seat])
            for c in self.kitty:
                h[c] += 1
            return h
        return self.hands[seat]

    def hand_cards(self, seat: Seat) -> list[Card]:
        """``seat``'s cards (what it holds now), in the current trump order."""
        return self.view_order().spread(self.holding(seat))

    def held(self, seat: Seat) -> int:
        """How many cards ``seat`` holds now (the dealer's 63 while it buries)."""
        return self.sizes[seat] + (KITTY if self.phase == Phase.BURY and seat == self.dealer else 0)

    def view_order(self) -> Order:
        """The order cards are shown in: this hand's, or while bidding the standing bid's."""
        if self.trump_set:
            return self.order
        return order_for(self.level, bid_trump(self.bid[1]) if self.bid is not None else None)

    def _problem(self, seat: Seat, action: Action) -> Refusal | None:
        """Why ``action`` is refused (the engine's legality authority); None when it is legal."""
        raise NotImplementedError

