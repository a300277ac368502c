"""The state of a 偎麻雀 match, declared once, and the questions both the engine and the view ask of it: seats
round the table, what a seat may discard, and why a 碰 or a 吃 is barred.

Who sees what: each player its own hand; the 守醒 the three players' hands (not the stock); nobody the stock.
A face-down 煨 is part of its owner's hand for this purpose (its owner and the 守醒, who saw the pair in hand,
know it).  Melds, discards, what each seat played or locked and the 过张 are public; a claim window's options
and answers are each seat's own.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from paiju.core.claims import ClaimWindow
from paiju.core.game import Game
from paiju.core.state import COPY, EACH, HIDDEN, OWNER, SHARED, Cards, Copy, cards, field
from paiju.core.terms import OMNISCIENT, Action, Event, Seat

from .cards import NUM_KINDS, Card, alias
from .config import WeimaqueConfig
from .groups import Win


class Phase(StrEnum):
    DISCARD = "discard"
    CLAIM = "claim"
    OVER = "over"


DISCARD, CLAIM, OVER = Phase.DISCARD, Phase.CLAIM, Phase.OVER

Meld = tuple[str, tuple[Card, ...], int]
"""(kind, cards, claimed card or -1): kind is peng, chi or wei."""

# ---- the action notation and the seats round the table: built once, read by look-ups -------------------
HU, PENG, PASS = "hu", "peng", "pass"
DISCARD_ACT: tuple[str, ...] = tuple(f"discard {alias(k)}" for k in range(NUM_KINDS))
DISCARD_OF: dict[str, Card] = {a: k for k, a in enumerate(DISCARD_ACT)}
def _chi_runs(card: Card) -> tuple[tuple[Card, Card, str], ...]:
    out = []
    for lo in (card - 2, card - 1, card):
        if lo < 0 or lo % 10 > 7 or lo // 10 != card // 10:
            continue  # the run would leave its size (no 九十壹, no wrap-around)
        a, b = (k for k in (lo, lo + 1, lo + 2) if k != card)
        out.append((a, b, f"chi {alias(a)} {alias(b)}"))
    return tuple(out)


CHI_OPTIONS: tuple[tuple[tuple[Card, Card, str], ...], ...] = tuple(_chi_runs(k) for k in range(NUM_KINDS))
"""Per card shown: the two cards from hand and the action of each run it can complete (within one size)."""
CHI_OF: dict[str, tuple[Card, Card]] = {act: (a, b) for runs in CHI_OPTIONS for a, b, act in runs}
NEXT: tuple[tuple[int, ...], ...] = tuple(
    tuple((s + 2) % 4 if (s + 1) % 4 == w else (s + 1) % 4 for s in range(4)) for w in range(4))
"""NEXT[watcher][seat]: the next player round the table, the 守醒 skipped."""
PREV: tuple[tuple[int, ...], ...] = tuple(
    tuple((s + 2) % 4 if (s + 3) % 4 == w else (s + 3) % 4 for s in range(4)) for w in range(4))


def _hand_sight(game: WeimaqueState, viewer: int, seat: int) -> bool:
    """Its own seat, and the 守醒 for the three players (the 守醒's own hand is empty)."""
    return viewer in (seat, OMNISCIENT) or (viewer == game.watcher and seat != viewer)


class WeimaqueState(Game[WeimaqueConfig]):
    """The fields of a 偎麻雀 match, each declared once (see :mod:`paiju.core.state`)."""

    hand_no: int
    tally: Annotated[list[float], COPY]
    results: Annotated[list[dict[str, Any]], COPY]  # one result per hand, never changed once made
    last_result: Annotated[dict[str, Any] | None, SHARED]  # replaced at each settlement
    rules: Annotated[dict[str, Any], SHARED]  # the config as a dict, in every view (bots score wins by it)
    pending_events: Annotated[list[Event], COPY]  # events made between actions (the next hand's start)
    dealer: Seat
    watcher: Seat
    hands: Annotated[list[list[int]], cards(Cards.COUNTS, per_seat=True, sees=_hand_sight)]
    """Per seat, the count of each kind in hand."""
    stock: Annotated[list[Card], cards(Cards.LIST, sees=HIDDEN)]
    """Drawn from the end."""
    melds: Annotated[list[list[Meld]], EACH]
    """Public but for a 煨's cards, which the resample hooks deal afresh with the hand they came from."""
    discards: Annotated[list[list[Card]], EACH]
    played: Annotated[list[set[Card]], EACH]
    """Kinds each seat discarded or played out (it may not 吃 them)."""
    locked: Annotated[list[set[Card]], EACH]
    """Kinds each seat 碰'd or 吃'd (it may not discard them)."""
    guo: Annotated[set[Card], COPY]
    """过张 kinds (the global reading)."""
    passed: Annotated[list[set[Card]], field(Copy.EACH, per_seat=True, sees=OWNER)]
    """过张 per seat (the passer reading; empty under the global one): whom a seat let a card go by is its own."""
    phase: Phase
    turn: Seat
    hu_option: Annotated[Win | None, field(derived=True)]
    """The turn seat's win after a 煨, if its hand is complete."""
    exposed: Card
    """The card on offer in a claim window, or -1."""
    source: str
    """``"draw"`` or ``"discard"``: how the card on offer came out."""
    source_seat: Seat
    last_card: bool
    claim: Annotated[ClaimWindow, field(Copy.COPY, sees=OWNER)]  # each seat sees its own options only
    wins: Annotated[dict[Seat, Win], field(Copy.COPY, derived=True)]
    """Each seat's win on the card on offer, found when the window opened."""

    # ---- old names --------------------------------------------------------------------------------
    @property
    def match_over(self) -> bool:
        """The old spelling of ``finished``."""
        return self.phase == OVER

    @property
    def options(self) -> dict[Seat, list[Action]]:
        """The old name of ``claim.options`` (without the ``pass`` every claimant may answer)."""
        return self.claim.options

    @property
    def responses(self) -> dict[Seat, Action]:
        """The old name of ``claim.answers``."""
        return self.claim.answers

    @property
    def order(self) -> list[tuple[Seat, str]]:
        """The old name of ``claim.priority``."""
        return self.claim.priority

    # ---- seats --------------------------------------------------------------------------------------
    def watcher_seat(self) -> Seat:
        """The 守醒 of the current hand (the seat opposite the dealer): ``paiju play --watch`` sits here."""
        return self.watcher

    def players(self) -> tuple[Seat, Seat, Seat]:
        """The dealer, its next player and its previous one."""
        d = self.dealer
        return (d, NEXT[self.watcher][d], PREV[self.watcher][d])

    def next_of(self, seat: Seat) -> Seat:
        return NEXT[self.watcher][seat]

    def prev_of(self, seat: Seat) -> Seat:
        return PREV[self.watcher][seat]

    def chi_seats(self) -> tuple[Seat, ...]:
        """Who may 吃 the card on offer: the drawer and its next player, or the discarder's next player."""
        src = self.source_seat
        return (src, self.next_of(src)) if self.source == "draw" else (self.next_of(src),)

    # ---- restrictions -------------------------------------------------------------------------------
    def _free_kinds(self, hand: list[int], locked: set[Card]) -> list[Card]:
        return [k for k in range(NUM_KINDS) if 0 < hand[k] < 3 and k not in locked]

    def discard_kinds(self, seat: Seat) -> list[Card]:
        """Kinds ``seat`` may discard: not one it holds three of, not one it 碰'd or 吃'd.

        When every card in hand is barred (possible only after a forced 煨), the 吃/碰 bar is lifted first,
        then the three-of-a-kind bar: the page does not say, and a player must discard after a 煨.
        """
        hand = self.hands[seat]
        free = self._free_kinds(hand, self.locked[seat])
        if free:
            return free
        free = [k for k in range(NUM_KINDS) if 0 < hand[k] < 3]
        return free or [k for k in range(NUM_KINDS) if hand[k]]

    def is_guo(self, seat: Seat, card: Card) -> bool:
        """Is ``card`` 过张 for ``seat`` (by the configured reading)?"""
        return card in (self.guo if self.config.guozhang == "global" else self.passed[seat])

    def leaves_discard(self, seat: Seat, a: Card, b: Card, lock: Card) -> bool:
        """After taking ``a`` and ``b`` from hand and locking ``lock`` (a 碰 or 吃), may ``seat`` still discard?"""
        hand = self.hands[seat]
        locked = self.locked[seat]
        for k in range(NUM_KINDS):
            n = hand[k]
            if n:
                n -= (k == a) + (k == b)
                if 0 < n < 3 and k != lock and k not in locked:
                    return True
        return False

    def peng_problem(self, seat: Seat, card: Card) -> str | None:
        """None if ``seat`` may 碰 ``card`` now, else the key of the rule that forbids it (worded in the view)."""
        if self.hands[seat][card] < 2:
            return "peng_pair"
        if self.is_guo(seat, card):
            return "peng_guo"
        if not self.leaves_discard(seat, card, card, card):
            return "peng_dead"
        return None

    def chi_problem(self, seat: Seat, card: Card, a: Card, b: Card) -> str | None:
        """None if ``seat`` may 吃 ``card`` with ``a`` and ``b`` from hand, else the key of the rule against it."""
        hand = self.hands[seat]
        if not hand[a] or not hand[b] or (a == b and hand[a] < 2):
            return "chi_cards"
        run = sorted((a, b, card))
        if not (run[1] == run[0] + 1 and run[2] == run[0] + 2 and run[0] // 10 == run[2] // 10):
            return "chi_run"
        if hand[card] >= 2:
            return "chi_peng"
        if card in self.played[seat]:
            return "chi_own"
        if self.is_guo(seat, card):
            return "chi_guo"
        if not self.leaves_discard(seat, a, b, card):
            return "chi_dead"
        return None
