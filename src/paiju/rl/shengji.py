"""四副牌升级 for RL: 80 action ids; plays and burials are built a card at a time.

Ids 0…53 are card kinds (``AS AH AC AD 2S … KD SJ BJ``): while a seat leads, follows or buries, each id adds
one such card to the choice, and the mask allows only cards that keep the choice a prefix of some legal play
(following: of the lead's size, with the groups owed to it; leading: one suit, a single unit when throwing is
barred; burying: any 12).  ``done`` (54) ends a lead; a follow or a burial is sent by itself once it has its
size, and so is a lead that nothing more could join.  While the cards are dealt: ``pass`` (55) and 24 bids
(56 + 4 × what + count − 1, what = the level card of ♠ ♥ ♣ ♦, the small joker, the big joker).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

import numpy as np

from paiju.core.cards import SUITS, card_text
from paiju.core.game import Action, Game, Seat, View
from paiju.games.shengji.rules import (
    NUM_KINDS,
    Order,
    coverage,
    level_rank,
    order_for,
    suit_number,
)

from .core import Decision, Obs, OneStep, Part, Spec, squash

K = NUM_KINDS
DONE, PASS, BID = K, K + 1, K + 2
BID_WHAT = ("♠", "♥", "♣", "♦", "SJ", "BJ")
NUM_ACTIONS = BID + 4 * len(BID_WHAT)
KITTY = 12
_CARD: dict[str, int] = {card_text(c): c for c in range(K)}

HAND, CHOSEN, TRICK = 0, K, 2 * K
PLAYED = TRICK + 4 * K
KITTY_AT = PLAYED + K
LEVELS = KITTY_AT + K
"""my side's level, the other side's, the level played this hand: (level - 2) / 12"""
TRUMP = LEVELS + 3
"""♠ ♥ ♣ ♦ no-trump, then 'decided'"""
DEALER = TRUMP + 6
BIDDER = DEALER + 4
BID_RANK = BIDDER + 4
PHASE = BID_RANK + 1
PHASES = ("deal", "bury", "play", "over")
LEADER = PHASE + len(PHASES)
TURN = LEADER + 4
DEALT = TURN + 4
POINTS = DEALT + 1
PENALTIES = POINTS + 1
THROWS = PENALTIES + 2
HAND_COUNTS = THROWS + 2
TOTALS = HAND_COUNTS + 4
SIZE = TOTALS + 2

LAYOUT: list[Part] = [
    Part("hand", HAND, K, "my cards (with the kitty while I bury), count / 4 per kind AS AH AC AD 2S … KD SJ BJ"),
    Part("chosen", CHOSEN, K, "cards of the play or burial I am building, count / 4"),
    Part("trick", TRICK, K, "per relative seat: its cards in the current trick, count / 4", K, 4),
    Part("played", PLAYED, K, "every card played this hand so far (four decks: up to 4 of a kind), count / 4"),
    Part("kitty", KITTY_AT, K, "the kitty when I may see it (the dealer, after taking it), count / 4"),
    Part("levels", LEVELS, 3, "my side's level, the other side's, this hand's: (level - 2) / 12"),
    Part("trump", TRUMP, 6, "♠ ♥ ♣ ♦ no-trump (the standing bid's while dealing), then 'decided'"),
    Part("dealer", DEALER, 4, "relative seat of the dealer (none in the first hand until someone bids)"),
    Part("bidder", BIDDER, 4, "relative seat of the standing bid"),
    Part("bid rank", BID_RANK, 1, "rank of the standing bid on the ladder / 10"),
    Part("phase", PHASE, 4, "deal, bury, play, over"),
    Part("leader", LEADER, 4, "relative seat that led the current trick"),
    Part("turn", TURN, 4, "relative seat to play or bury"),
    Part("dealt", DEALT, 1, "cards dealt / 204"),
    Part("points", POINTS, 1, "the attackers' points this hand / 400"),
    Part("penalties", PENALTIES, 2, "failed-throw points conceded by my side, the other / 200"),
    Part("throws", THROWS, 2, "my failed throws / limit, my failed-throw cards / limit"),
    Part("hand counts", HAND_COUNTS, 4, "cards held per relative seat / 63"),
    Part("totals", TOTALS, 2, "levels gained over the match, my side and the other: tanh(x / 4)"),
]


def _counts(cards: Sequence[str]) -> list[int]:
    out = [0] * K
    for c in cards:
        out[_CARD[c]] += 1
    return out


class Cards(Decision):
    """A play or a burial built a card at a time; subclasses say which card may come next."""

    verb = "play"

    def __init__(self, hand: list[int], order: Order) -> None:
        self.hand = hand
        self.order = order
        self.chosen = [0] * K
        self.size = 0
        self._allowed: list[int] | None = None

    def can_add(self, card: int) -> bool:
        raise NotImplementedError

    def can_stop(self) -> bool:
        raise NotImplementedError

    def allowed(self) -> list[int]:
        if self._allowed is None:
            hand, chosen = self.hand, self.chosen
            out = [c for c in range(K) if hand[c] > chosen[c] and self.can_add(c)]
            if self.size and self.can_stop():
                out.append(DONE)
            self._allowed = out
        return self._allowed

    def action(self) -> Action:
        cards = [c for c in range(K) for _ in range(self.chosen[c])]
        return self.verb + " " + " ".join(card_text(c) for c in self.order.sorted(cards))

    def push(self, aid: int) -> Action | None:
        if aid == DONE:
            return self.action()
        self.chosen[aid] += 1
        self.size += 1
        self._allowed = None
        if self.allowed() == [DONE]:
            return self.action()
        return None


class Bury(Cards):
    verb = "bury"

    def can_add(self, card: int) -> bool:
        return self.size < KITTY

    def can_stop(self) -> bool:
        return self.size == KITTY


class Lead(Cards):
    """One suit (all trumps are one suit); several kinds only while this seat may still throw."""

    def __init__(self, hand: list[int], order: Order, may_throw: bool) -> None:
        super().__init__(hand, order)
        self.may_throw = may_throw
        self.first = -1

    def can_add(self, card: int) -> bool:
        if not self.size:
            return True
        if self.may_throw:
            return self.order.suit[card] == self.order.suit[self.first]
        return card == self.first

    def can_stop(self) -> bool:
        return True

    def push(self, aid: int) -> Action | None:
        if self.first < 0:
            self.first = aid
        return super().push(aid)


class Follow(Cards):
    """As many cards as the lead, each choice a prefix of some follow the rules allow.

    ``rules.follow_problem`` is the rule: with fewer cards of the led suit than the lead, all of them go in;
    otherwise only that suit, and whole groups (pairs, triples, quads held exactly) must cover the lead's
    units as far as the hand's groups can.  A prefix extends to such a follow when the cheapest whole groups
    still reaching that coverage fit in the cards left to choose.
    """

    def __init__(self, hand: list[int], order: Order, lead: list[int]) -> None:
        super().__init__(hand, order)
        self.n = len(lead)
        self.s = order.suit[lead[0]]
        members = order.members[self.s]
        self.held = sum(hand[c] for c in members)
        self.bins = [k for k in Counter(lead).values() if k > 1]
        groups = [hand[c] for c in members if hand[c] >= 2]
        self.need = coverage(self.bins, groups) if self.bins and self.held >= self.n else 0
        self.groups = {k: [c for c in members if hand[c] == k] for k in (2, 3, 4)}
        b4, b3, b2 = (self.bins.count(k) for k in (4, 3, 2))
        self.limits = {4: b4, 3: b4 + b3, 2: 2 * b4 + b3 + b2}
        """Groups of a size beyond these cannot add to the coverage."""

    def can_stop(self) -> bool:
        return self.size == self.n

    def can_add(self, card: int) -> bool:
        if self.size >= self.n:
            return False
        suit = self.order.suit[card] == self.s
        if self.held < self.n:
            if suit:
                return True
            off_suit = self.size - sum(self.chosen[c] for c in self.order.members[self.s])
            return off_suit + 1 <= self.n - self.held
        if not suit:
            return False
        if not self.need:
            return True
        self.chosen[card] += 1
        try:
            return self._cheapest_cover() <= self.n - self.size - 1
        finally:
            self.chosen[card] -= 1

    def _cheapest_cover(self) -> int:
        """Fewest more cards that complete enough whole groups to owe nothing (a large number if none do)."""
        hand, chosen = self.hand, self.chosen
        costs = {k: sorted(hand[c] - chosen[c] for c in self.groups[k]) for k in (2, 3, 4)}
        prefix = {k: [0, *accumulate(costs[k])] for k in (2, 3, 4)}
        best = 1 << 30
        for a4 in range(min(len(costs[4]), self.limits[4]) + 1):
            for a3 in range(min(len(costs[3]), self.limits[3]) + 1):
                for a2 in range(min(len(costs[2]), self.limits[2]) + 1):
                    cost = prefix[4][a4] + prefix[3][a3] + prefix[2][a2]
                    if cost < best and coverage(self.bins, [4] * a4 + [3] * a3 + [2] * a2) >= self.need:
                        best = cost
        return best


def _order(view: View) -> Order:
    return order_for(view["level"], suit_number(view["trump"]))


class ShengjiSpec(Spec):
    name = "shengji"
    num_actions = NUM_ACTIONS
    obs_size = SIZE
    score_scale = 4.0
    layout = LAYOUT

    def action_names(self) -> list[str]:
        return ([f"card {card_text(c)}" for c in range(K)] + ["done", "pass"]
                + [f"bid {w} x{n}" for w in BID_WHAT for n in range(1, 5)])

    def to_id(self, view: View, action: Action) -> int:
        if action == "pass":
            return PASS
        verb, _, rest = action.partition(" ")
        if verb != "bid":
            raise ValueError(f"{action!r}: plays and burials are built card by card, they have no single id")
        cards = rest.split()
        card = _CARD[cards[0]]
        what = card % 4 if card < 52 else 4 + (card - 52)
        return BID + 4 * what + len(cards) - 1

    def to_action(self, view: View, aid: int) -> Action:
        if aid == PASS:
            return "pass"
        if not BID <= aid < NUM_ACTIONS:
            raise ValueError(f"id {aid} is a card or 'done': part of a play built card by card")
        what, n = divmod(aid - BID, 4)
        card = (level_rank(view["level"]) - 1) * 4 + what if what < 4 else 52 + (what - 4)
        return "bid " + " ".join([card_text(card)] * (n + 1))

    def decision(self, game: Game[Any], seat: Seat, view: View) -> Decision:
        phase = view["phase"]
        if phase == "deal":
            return OneStep({self.to_id(view, a): a for a in game.legal_actions(seat)})
        hand = _counts(view["hand"])
        order = _order(view)
        if phase == "bury":
            return Bury(hand, order)
        plays = view["trick"]["plays"]
        if plays:
            return Follow(hand, order, [_CARD[c] for c in plays[0][1]])
        limits = view["throw_limits"]
        may_throw = view["throw_fails"][seat] < limits["fails"] and view["throw_cards"][seat] < limits["cards"]
        return Lead(hand, order, may_throw)

    def encode(self, view: View, decision: Decision | None) -> Obs:
        me: int = view["viewer"]
        out = np.zeros(SIZE, dtype=np.float32)
        card = _CARD
        for c in view["hand"] or ():
            out[HAND + card[c]] += 0.25
        if isinstance(decision, Cards):
            out[CHOSEN:CHOSEN + K] = np.asarray(decision.chosen, dtype=np.float32) * 0.25
        played = [0] * K
        for t in view["tricks"]:
            for _s, cards in t["plays"]:
                for c in cards.split():
                    played[card[c]] += 1
        trick = view["trick"]
        for s, cards in trick["plays"]:
            base = TRICK + K * ((s - me) & 3)
            for c in cards:
                out[base + card[c]] += 0.25
                played[card[c]] += 1
        out[PLAYED:PLAYED + K] = np.asarray(played, dtype=np.float32) * 0.25
        for c in view["kitty"] or ():
            out[KITTY_AT + card[c]] += 0.25
        levels = view["levels"]
        out[LEVELS] = (levels[me & 1] - 2) / 12.0
        out[LEVELS + 1] = (levels[1 - (me & 1)] - 2) / 12.0
        out[LEVELS + 2] = (view["level"] - 2) / 12.0
        bid = view["bid"]
        if view["trump_set"]:
            trump = view["trump"]
            out[TRUMP + (SUITS.index(trump) if trump is not None else 4)] = 1.0
            out[TRUMP + 5] = 1.0
        elif bid is not None:
            c = card[bid["cards"][0]]
            out[TRUMP + (c % 4 if c < 52 else 4)] = 1.0
        if bid is not None:
            out[BIDDER + ((bid["seat"] - me) & 3)] = 1.0
            out[BID_RANK] = bid["rank"] / 10.0
        if view["dealer"] is not None:
            out[DEALER + ((view["dealer"] - me) & 3)] = 1.0
        out[PHASE + PHASES.index(view["phase"])] = 1.0
        if trick["leader"] is not None:
            out[LEADER + ((trick["leader"] - me) & 3)] = 1.0
        if view["turn"] is not None:
            out[TURN + ((view["turn"] - me) & 3)] = 1.0
        out[DEALT] = view["dealt"] / 204.0
        out[POINTS] = min(view["points"], 400) / 400.0
        pen = view["penalties"]
        out[PENALTIES] = min(pen[me & 1], 200) / 200.0
        out[PENALTIES + 1] = min(pen[1 - (me & 1)], 200) / 200.0
        limits = view["throw_limits"]
        out[THROWS] = min(1.0, view["throw_fails"][me] / max(1, limits["fails"]))
        out[THROWS + 1] = min(1.0, view["throw_cards"][me] / max(1, limits["cards"]))
        counts = view["hand_counts"]
        for r in range(4):
            out[HAND_COUNTS + r] = counts[(me + r) & 3] / 63.0
        totals = view["totals"]
        out[TOTALS] = squash(totals[me], self.score_scale)
        out[TOTALS + 1] = squash(totals[(me + 1) & 3], self.score_scale)
        return out

