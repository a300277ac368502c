"""The 升级 state machine: a match of hands with bidding live during the deal, burying, tricks, levels.

Phases of a hand: ``deal`` (cards go out in steps, a card to each seat; after each step every seat is asked,
whether or not it holds a bid, so that nobody learns who could bid — a paced window the card room never closes
early), ``bury`` (the dealer has taken the kitty and buries 12), ``play`` (tricks until the hands are empty),
then the settlement and the next hand or the end of the match.  Seats 0 and 2 are one side, 1 and 3 the other.

The state is declared in :mod:`.state`, the view and every word in :mod:`.view`, the settlement is the pure
:func:`.rules.settle_hand`.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

from paiju.core.cards import SUITS, Card, card_text, parse_cards
from paiju.core.display import GameView
from paiju.core.errors import NotationError
from paiju.core.fromview import Unseen, counts_of
from paiju.core.game import Action, Event, Result, Seat, Window

from . import view
from .config import ShengjiConfig
from .plays import TEXT, UNIT_RUNS, UNIT_TEXT, follow_candidates, parse_play, play_text
from .rules import (
    NUM_KINDS,
    TOP,
    Refusal,
    bid_rank,
    bid_table,
    bid_trump,
    follow_problem,
    order_for,
    play_suit,
    points_of,
    refuse,
    settle_hand,
    smallest_unit,
    throw_beaten_units,
    trick_winner,
)
from .state import ALL_SEATS, DEALT, DECK_SIZE, KITTY, SEATS, Phase, ShengjiState, team_of

DEAL, BURY, PLAY, OVER = Phase.DEAL, Phase.BURY, Phase.PLAY, Phase.OVER

__all__ = ["DEALT", "DECK_SIZE", "KITTY", "SEATS", "TOP", "Phase", "ShengjiGame", "team_of"]

LEAD_CAP = 240
_SEATS_OF: tuple[tuple[Seat, ...], ...] = tuple(tuple(s for s in range(SEATS) if m >> s & 1) for m in range(16))
"""The seats whose bits are set in a 4-bit mask."""


class ShengjiGame(ShengjiState):
    """升级 with four decks (打10 rules), four seats in two partnerships."""

    name = "shengji"
    config_class = ShengjiConfig
    display: ClassVar[dict[str, str]] = {"zh": "升级（四副牌）", "en": "Shengji (four decks)"}
    paced: ClassVar[bool] = True  # the deal: a card to each seat per step, bids at any step (反主)
    display_code: ClassVar[GameView] = view  # the view, action labels, refusal reasons, event text
    min_seats = 4
    max_seats = 4

    # ---- setup ------------------------------------------------------------------------------------
    def _setup(self, deal: Any) -> None:
        cfg = self.config
        self.rules = cfg.to_dict()
        self.levels = [cfg.start_level, cfg.start_level]
        self.match_gain = [0, 0]
        self.hands_played = 0
        self.end_reason = None
        self.hand_log = []
        self.last_result = None
        self._version = 0
        self._listed = (-1, -1, ())
        start: int
        dealer: int | None = None
        if deal is None:
            stock = list(range(NUM_KINDS)) * 4
            self.rng.shuffle(stock)
            start = self.rng.randrange(SEATS)
        else:
            stock, start, dealer, levels = _parse_deal(deal)
            if levels is not None:
                self.levels = list(levels)
            if dealer is None and self.levels[0] != self.levels[1]:
                raise ValueError("a deal with different levels must name its dealer")
        self.hand_first_action = 0
        self._new_hand(stock, start, dealer, first=dealer is None)
        self._deal_step()

    def _new_hand(self, stock: list[Card], start: Seat, dealer: Seat | None, *, first: bool) -> None:
        self.stock = stock
        self.pos = 0
        self.start = start
        self.dealer = dealer
        self.first_hand = first
        self.phase = Phase.DEAL
        self.hands = [[0] * NUM_KINDS for _ in range(SEATS)]
        self.sizes = [0] * SEATS
        self.known = [[0] * NUM_KINDS for _ in range(SEATS)]
        self.bid = None
        self.first_bidder = None
        self.bids = []
        self.asking = 0
        self.trump = None
        self.trump_set = False
        self.level = self.levels[team_of(dealer)] if dealer is not None else self.levels[0]
        self.order = order_for(self.level, None)
        self.bid_cards = bid_table(self.level)
        self.kitty = []
        self.kitty_reveal = None
        self.buried = False
        self.turn = 0
        self.trick = []
        self.tricks = []
        self.pile = []
        self.captured = 0
        self.penalty = [0, 0]
        self.fails = [0] * SEATS
        self.fail_cards = [0] * SEATS

    # ---- the deal and live bidding -----------------------------------------------------------------
    def _bid_options(self, seat: Seat) -> list[Action]:
        """Every bid ``seat`` may make now: stronger than the standing bid; 自保 only with the same card."""
        h = self.hands[seat]
        bid = self.bid
        standing = bid[3] if bid is not None else 0
        own = bid is not None and bid[0] == seat
        out: list[Action] = []
        for card, options in self.bid_cards:
            held = h[card]
            if not held or (own and bid is not None and card != bid[1]):
                continue
            for n, rank, action in options:
                if n > held:
                    break
                if rank > standing:
                    out.append(action)
        return out

    def _deal_step(self) -> list[Event]:
        """Deal the next step — a card to each seat — and ask every seat; after the last, fix the trump."""
        pos = self.pos
        if pos >= DEALT:
            return self._settle_trump()
        stock, hands, sizes, start = self.stock, self.hands, self.sizes, self.start
        for i in range(pos, pos + SEATS):
            seat = (start + i) % SEATS
            hands[seat][stock[i]] += 1
            sizes[seat] += 1
        self.pos = pos + SEATS
        self.asking = ALL_SEATS
        return []

    def _settle_trump(self) -> list[Event]:
        events: list[Event] = []
        self.kitty = self.stock[DEALT:DECK_SIZE]
        self.pos = DECK_SIZE
        if self.bid is not None:
            b_seat, b_card, _, _ = self.bid
            self.trump = bid_trump(b_card)
            if self.dealer is None:
                self.dealer = self.first_bidder
            by: Seat | None = b_seat
        else:
            self.kitty_reveal = self.kitty[2]
            self.trump = bid_trump(self.kitty_reveal)
            if self.dealer is None:
                self.dealer = self.start
            by = None
        assert self.dealer is not None
        self.trump_set = True
        self.level = self.levels[team_of(self.dealer)]
        self.order = order_for(self.level, self.trump)
        reveal = card_text(self.kitty_reveal) if self.kitty_reveal is not None else None
        events.append({"type": "trump", "hand": self.hands_played + 1,
                       "trump": SUITS[self.trump] if self.trump is not None else None,
                       "by": by, "kitty_card": reveal, "dealer": self.dealer, "level": self.level})
        events.append({"type": "kitty_taken", "seat": self.dealer, "cards": KITTY})
        self.phase = Phase.BURY
        self.turn = self.dealer
        return events

    # ---- the protocol -------------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return SEATS

    def to_move(self) -> tuple[Seat, ...]:
        phase = self.phase
        if phase is DEAL:
            return _SEATS_OF[self.asking]
        return () if phase is OVER else _SEATS_OF[1 << self.turn]

    def public_to_move(self) -> tuple[Seat, ...]:
        return () if self.phase is DEAL else self.to_move()

    def window(self, seat: Seat) -> Window:
        # the deal's steps run at the table's pace; once the last card is dealt, the last call for bids is a
        # claim window (every seat is asked, so it tells nobody who holds a bid)
        if self.phase is DEAL:
            return Window.CLAIM if self.pos >= DEALT else Window.PACE
        return Window.TURN

    def hands_finished(self) -> int:
        return self.hands_played

    def timeout_action(self, seat: Seat) -> Action | None:
        return "pass" if self.phase is DEAL else None

    @property
    def finished(self) -> bool:
        return self.phase is OVER

    def legal_actions(self, seat: Seat) -> list[Action]:
        phase = self.phase
        if phase is DEAL:
            if seat not in _SEATS_OF[self.asking]:
                return []
            bids = self._bid_options(seat)  # is_legal checks a bid by itself: no need to remember the list
            return ["pass", *bids] if bids else ["pass"]
        if phase is OVER or seat != self.turn:
            return []
        if phase is BURY:
            out = self._bury_candidates()
        elif not self.trick:
            out = self._lead_candidates(seat)
        else:
            out = self._follow_candidates(seat)
        self._listed = (self._version, seat, tuple(out))
        return out

    def is_legal(self, seat: Seat, action: Action) -> bool:
        if action == "pass" and self.phase is DEAL:
            return seat in _SEATS_OF[self.asking]
        version, listed_seat, listed = self._listed
        if version == self._version and listed_seat == seat and action in listed:
            return True  # just offered by legal_actions in this very state (found by identity, at once)
        return self._problem(seat, action) is None

    def _problem(self, seat: Seat, action: Action) -> Refusal | None:
        """Why ``action`` is refused (``view.explain`` words it); None when it is legal."""
        if not isinstance(action, str):
            return refuse("not_string")
        if seat not in self.to_move():
            return refuse("not_deciding", seat)
        verb, _, rest = action.partition(" ")
        if self.phase is DEAL:
            if action == "pass":
                return None
            if verb != "bid":
                return refuse("deal_only_bid")
            return self._bid_problem(seat, rest)
        try:
            cards = parse_cards(rest)
        except NotationError as e:
            return refuse("notation", str(e))
        if self.phase is BURY:
            if verb != "bury":
                return refuse("bury_now")
            if len(cards) != KITTY:
                return refuse("bury_count", len(cards))
            return self._missing(self.holding(seat), cards)
        if verb != "play":
            return refuse("play_now")
        if not cards:
            return refuse("no_cards")
        if self.trick:
            return follow_problem(self.hands[seat], self.trick[0][1], cards, self.order)
        missing = self._missing(self.hands[seat], cards)
        if missing:
            return missing
        if play_suit(cards, self.order) is None:
            return refuse("lead_suits")
        if len(set(cards)) > 1:
            cfg = self.config
            if self.fails[seat] >= cfg.throw_fails_limit:
                return refuse("throw_fails", self.fails[seat])
            if self.fail_cards[seat] >= cfg.throw_cards_limit:
                return refuse("throw_cards", self.fail_cards[seat])
        return None

    @staticmethod
    def _missing(counts: list[int], cards: list[Card]) -> Refusal | None:
        for c, k in Counter(cards).items():
            if counts[c] < k:
                return refuse("not_held", c, k)
        return None

    def _bid_problem(self, seat: Seat, rest: str) -> Refusal | None:
        try:
            cards = parse_cards(rest)
        except NotationError as e:
            return refuse("notation", str(e))
        if not cards or len(set(cards)) != 1:
            return refuse("bid_shape")
        card, n = cards[0], len(cards)
        if "bid " + " ".join([card_text(card)] * n) in self._bid_options(seat):
            return None
        rank = bid_rank(card, n, self.level)
        if rank is None:
            if card >= 52 and n == 1:
                return refuse("one_joker")
            return refuse("not_level", self.level)
        if self.hands[seat][card] < n:
            return refuse("not_held", card, n)
        assert self.bid is not None
        b_seat, b_card, b_n, _ = self.bid
        if b_seat == seat and card != b_card:
            return refuse("self_overcall")
        return refuse("weak_bid", b_card, b_n)

    # ---- candidates (the capped legal list) ------------------------------------------------------------
    def _bury_candidates(self) -> list[Action]:
        """The cheapest 12 (no trumps, no points, weak first); the weakest 12; the shortest side suit first."""
        order = self.order
        h = self.holding(self.turn)
        cheapest = [c for c in order.low for _ in range(h[c])][:KITTY]
        variants = [cheapest, [c for c in order.weak for _ in range(h[c])][:KITTY]]
        lengths = [sum(h[c] for c in order.members[s]) for s in range(4)]
        by_suit = sorted((s for s in range(4) if lengths[s]), key=lengths.__getitem__)
        if by_suit:
            first = [c for c in order.members[by_suit[0]] for _ in range(h[c])][:KITTY]
            left = list(h)
            for c in first:
                left[c] -= 1
            extra: list[Card] = []
            for c in cheapest:
                if len(first) + len(extra) >= KITTY:
                    break
                if c not in first and left[c] > 0:
                    extra.append(c)
                    left[c] -= 1
            if len(first) + len(extra) == KITTY:
                variants.append(first + extra)
        out: list[Action] = []
        for v in variants:
            a = "bury " + " ".join([TEXT[c] for c in order.sorted(v)])
            if a not in out:
                out.append(a)
        return out

    def _lead_candidates(self, seat: Seat) -> list[Action]:
        """Every single, pair, triple and quad; plus, while throwing is allowed, the top two units of
        each suit as a throw (it may fail: the engine then plays its smallest beatable part)."""
        h = self.hands[seat]
        out: list[Action] = []
        for runs, k in zip(UNIT_RUNS, h, strict=True):
            if k:
                out += runs[k]
        cfg = self.config
        if self.fails[seat] < cfg.throw_fails_limit and self.fail_cards[seat] < cfg.throw_cards_limit:
            order = self.order
            place = order.place
            for members in order.members:
                top = -1
                for c in reversed(members):
                    if h[c]:
                        if top < 0:
                            top = c
                            continue
                        a, b = (top, c) if place[top] < place[c] else (c, top)
                        out.append("play " + UNIT_TEXT[a][h[a]] + " " + UNIT_TEXT[b][h[b]])
                        break
        return out if len(out) <= LEAD_CAP else out[:LEAD_CAP]

    def _follow_candidates(self, seat: Seat) -> list[Action]:
        return follow_candidates(self.hands[seat], self.trick[0][1], self.order)

    # ---- applying actions -------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        self._version += 1
        if self.phase is DEAL:
            if action == "pass":
                self.asking &= ~(1 << seat)
                return [] if self.asking else self._deal_step()
            return self._apply_bid(seat, action.partition(" ")[2])
        cards = parse_play(action.partition(" ")[2])
        if self.phase is BURY:
            return self._apply_bury(seat, cards)
        return self._apply_play(seat, cards)

    def _apply_bid(self, seat: Seat, rest: str) -> list[Event]:
        cards = parse_cards(rest)
        card, n = cards[0], len(cards)
        rank = bid_rank(card, n, self.level)
        assert rank is not None
        if self.first_bidder is None:
            self.first_bidder = seat
        self.bid = (seat, card, n, rank)
        self.known[seat][card] = max(self.known[seat][card], n)
        shown = [card_text(card)] * n
        self.bids.append({"seat": seat, "cards": shown, "rank": rank})
        self.asking = ALL_SEATS  # a new standing bid: the step begins again, every seat may answer it
        return [{"type": "bid", "seat": seat, "cards": shown, "rank": rank,
                 "trump": SUITS[card % 4] if card < 52 else None}]

    def _apply_bury(self, seat: Seat, cards: tuple[Card, ...]) -> list[Event]:
        h = self.holding(seat)
        for c in cards:
            h[c] -= 1
        self.hands[seat] = h
        self.sizes[seat] = sum(h)
        self.kitty = list(cards)
        self.known[seat] = [0] * NUM_KINDS
        self.buried = True
        self.phase = Phase.PLAY
        self.turn = seat
        return [{"type": "buried", "seat": seat, "cards": KITTY}]

    def _apply_play(self, seat: Seat, cards: tuple[Card, ...]) -> list[Event]:
        events: list[Event] = []
        order = self.order
        if not self.trick and len(cards) > 1 and cards.count(cards[0]) < len(cards):
            others = [self.hands[s] for s in range(SEATS) if s != seat]
            beaten = throw_beaten_units(cards, others, order)
            if beaten:
                c, k = smallest_unit(beaten, order)
                events.append(self._fail_throw(seat, list(cards), [c] * k, beaten))
                cards = (c,) * k
        h = self.hands[seat]
        known = self.known[seat]
        for c in cards:
            h[c] -= 1
            if known[c] > h[c]:
                known[c] = h[c]
        self.sizes[seat] -= len(cards)
        self.trick.append((seat, cards))
        self.pile += cards
        events.append({"type": "play", "seat": seat, "cards": play_text(cards, order)})
        if len(self.trick) < SEATS:
            self.turn = (seat + 1) % SEATS
            return events
        return events + self._finish_trick()

    def _fail_throw(self, seat: Seat, tried: list[Card], forced: list[Card],
                    beaten: list[tuple[Card, int]]) -> Event:
        cfg = self.config
        counted = max(0, min(len(tried), cfg.throw_cards_limit - self.fail_cards[seat]))
        room = max(0, cfg.throw_penalty_cap - sum(self.penalty))
        points = min(counted * cfg.throw_penalty, room)
        self.fails[seat] += 1
        self.fail_cards[seat] += len(tried)
        self.penalty[team_of(seat)] += points
        back = Counter(tried) - Counter(forced)
        for c, k in back.items():
            self.known[seat][c] = max(self.known[seat][c], k)
        return {"type": "throw_failed", "seat": seat, "tried": [card_text(c) for c in self.order.sorted(tried)],
                "played": [card_text(c) for c in forced], "penalty": points,
                "beatable": [" ".join([card_text(c)] * k) for c, k in beaten]}

    def _finish_trick(self) -> list[Event]:
        order = self.order
        plays = [p for _, p in self.trick]
        w = trick_winner(plays, order)
        winner = self.trick[w][0]
        pts = points_of(self.pile[-sum(map(len, plays)):])
        assert self.dealer is not None
        attackers = 1 - team_of(self.dealer)
        if team_of(winner) == attackers:
            self.captured += pts
        self.tricks.append({"leader": self.trick[0][0],
                            "plays": [[s, " ".join(play_text(p, order))] for s, p in self.trick],
                            "winner": winner, "points": pts})
        events: list[Event] = [{"type": "trick", "winner": winner, "points": pts,
                                "attacker_points": self.captured}]
        last_lead = plays[0]
        self.trick = []
        self.turn = winner
        if any(self.sizes):
            return events
        return events + self._settle_hand(winner, last_lead)

    # ---- settlement -------------------------------------------------------------------------------------
    def _settle_hand(self, last_winner: Seat, last_lead: tuple[Card, ...]) -> list[Event]:
        cfg = self.config
        dealer = self.dealer
        assert dealer is not None
        attackers = 1 - team_of(dealer)
        s = settle_hand(dealer=dealer, levels=self.levels, captured=self.captured, kitty=self.kitty,
                        last_winner=last_winner, last_lead=last_lead, penalties=self.penalty,
                        kitty_multiplier=cfg.kitty_multiplier, end_on_shutout=cfg.end_on_shutout)
        self.levels = list(s.levels)
        self.match_gain[s.team] += s.gained
        self.hands_played += 1
        summary: dict[str, Any] = {
            "type": "hand_end", "hand": self.hands_played, "dealer": dealer, "level": self.level,
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "attacker_points": self.captured, "kitty": [card_text(c) for c in self.order.sorted(self.kitty)],
            "kitty_points": s.kitty_points, "kitty_factor": s.kitty_factor, "kitty_score": s.kitty_score,
            "penalties": {"attackers": self.penalty[attackers], "defenders": self.penalty[1 - attackers]},
            "total": s.total, "outcome": s.outcome, "team": s.team, "levels_up": s.levels_up, "gained": s.gained,
            "passed_a": s.passed_a, "levels": list(self.levels), "next_dealer": s.next_dealer,
            "scores": list(self.totals()), "actions": [self.hand_first_action, len(self.history)],
        }
        self.hand_log.append({k: v for k, v in summary.items() if k != "type"})
        self.last_result = view.hand_result(summary, attackers)
        events: list[Event] = [summary]
        limit = cfg.max_hands
        if s.passed_a or (limit and self.hands_played >= limit):
            self.phase = Phase.OVER
            self.end_reason = "passed_a" if s.passed_a else "max_hands"
            events.append({"type": "match_end", "reason": self.end_reason, "levels": list(self.levels),
                           "scores": list(self.totals())})
            return events
        stock = list(range(NUM_KINDS)) * 4
        self.rng.shuffle(stock)
        self.hand_first_action = len(self.history) + 1
        self._new_hand(stock, s.next_dealer, s.next_dealer, first=False)
        events.append({"type": "hand_start", "hand": self.hands_played + 1, "dealer": s.next_dealer,
                       "levels": list(self.levels)})
        events.extend(self._deal_step())
        return events

    def totals(self) -> tuple[float, ...]:
        g = self.match_gain
        return tuple(float(g[team_of(s)] - g[1 - team_of(s)]) for s in range(SEATS))

    def result(self) -> Result | None:
        if not self.finished:
            return None
        return Result(self.totals(), {"levels": list(self.levels), "gained": list(self.match_gain),
                                      "hands": self.hands_played, "reason": self.end_reason,
                                      "hand_log": self.hand_log})

    # ---- a game from a seat's view (issue 37) ------------------------------------------------------
    @classmethod
    def _from_view(cls, view: dict[str, Any]) -> ShengjiGame:
        """The hand as ``view`` shows it.  Other seats' hands (less the cards they showed), the undealt cards and
        a kitty the viewer cannot see get unseen cards (the resample deals them afresh); while dealing, the other
        seats are asked again, as in a resample.  Not in any view, so not rebuilt: the dealt part of the stock
        (``stock[:pos]``, which nothing reads again), the earlier hands' log (``hand_log``: the last hand's
        settlement is in ``last_result``, the others are placeholders) and each side's gains apart (``match_gain``
        holds their difference, which is all the totals show), so the result's detail may differ."""
        g = cls(ShengjiConfig.from_dict(view["rules"]), 0)
        viewer = int(view["viewer"])
        g.phase = Phase(view["phase"])
        g.levels = [int(x) for x in view["levels"]]
        diff = int(view["totals"][0])
        g.match_gain = [max(diff, 0), max(-diff, 0)]
        g.hands_played = int(view["hands_played"])
        limit = g.config.max_hands
        g.end_reason = None if g.phase != OVER else "max_hands" if limit and g.hands_played >= limit else "passed_a"
        g.hand_log = [{"hand": h + 1} for h in range(g.hands_played)]
        g.last_result = view["last_result"]
        g.hand_first_action = int(view["hand_first_action"])
        g._version = 0
        g.start = int(view["start"])
        g.dealer = None if view["dealer"] is None else int(view["dealer"])
        g.first_hand = bool(view["first_hand"])
        g.level = int(view["level"])
        g.bid_cards = bid_table(g.level)
        bid = view["bid"]
        g.bid = None if bid is None else (int(bid["seat"]), parse_cards(bid["cards"])[0], len(bid["cards"]),
                                          int(bid["rank"]))
        g.first_bidder = None if view["first_bidder"] is None else int(view["first_bidder"])
        g.bids = [dict(b) for b in view["bids"]]
        g.trump_set = bool(view["trump_set"])
        g.trump = SUITS.index(view["trump"]) if view["trump"] is not None else None
        g.order = order_for(g.level, g.trump if g.trump_set else None)
        reveal = view["kitty_card"]
        g.kitty_reveal = parse_cards([reveal])[0] if reveal is not None else None
        g.buried = bool(view["kitty_buried"])
        g.turn = int(view["turn"]) if view["turn"] is not None else 0
        g.trick = [(int(s), tuple(parse_cards(p))) for s, p in view["trick"]["plays"]]
        g.tricks = [dict(t) for t in view["tricks"]]
        g.pile = [c for t in g.tricks for _, p in t["plays"] for c in parse_cards(p)] + \
            [c for _, p in g.trick for c in p]
        g.captured = int(view["points"])
        g.penalty = [int(x) for x in view["penalties"]]
        g.fails = [int(x) for x in view["throw_fails"]]
        g.fail_cards = [int(x) for x in view["throw_cards"]]
        # the cards: what the viewer holds and sees, then the unseen ones where the counts say
        burying = g.phase == BURY
        g.known = [counts_of(parse_cards(k), NUM_KINDS) for k in view["shown"]]
        kitty = parse_cards(view["kitty"]) if view["kitty"] is not None else None
        held = counts_of(parse_cards(view["hand"] or []), NUM_KINDS)
        if burying and viewer == g.dealer and kitty is not None:  # the dealer's hand shows the kitty it took
            for c in kitty:
                held[c] -= 1
        counts = [int(n) for n in view["hand_counts"]]
        g.sizes = [n - (KITTY if burying and s == g.dealer else 0) for s, n in enumerate(counts)]
        seen = [c for c, n in enumerate(held) for _ in range(n)] + list(g.pile) + (kitty or [])
        seen += [c for s in range(SEATS) if s != viewer for c, n in enumerate(g.known[s]) for _ in range(n)]
        face_up = g.kitty_reveal if burying and kitty is None else None  # the third kitty card, shown to all
        if face_up is not None:
            seen.append(face_up)
        unseen = Unseen(list(range(NUM_KINDS)) * 4, seen)
        g.hands = [held if s == viewer else
                   [k + n for k, n in zip(g.known[s], unseen.take_counts(g.sizes[s] - sum(g.known[s]), NUM_KINDS),
                                          strict=True)] for s in range(SEATS)]
        if kitty is None and g.phase in (BURY, PLAY):
            kitty = unseen.take(KITTY - (face_up is not None))
            if face_up is not None:
                kitty.insert(2, face_up)
        g.kitty = kitty if kitty is not None and g.phase != DEAL else []
        g.pos = int(view["dealt"]) if g.phase == DEAL else DECK_SIZE
        g.stock = [0] * g.pos + unseen.take(DECK_SIZE - g.pos)
        if unseen.rest():
            raise ValueError("the view's counts do not account for every card")
        g.asking = (ALL_SEATS & ~(1 << viewer)) | (1 << viewer if view["you_decide"] else 0) if g.phase == DEAL else 0
        g._listed = (-1, -1, ())
        return g

    # ---- resampling: what the declaration cannot say ------------------------------------------------
    def _rederive(self, viewer: int, rng: random.Random) -> None:
        """While dealing, a seat knows only whether it has answered this step itself: the others are asked again
        (who has passed is not in the viewer's view, so a copy must not keep it)."""
        if self.phase is DEAL:
            mine = self.asking & (1 << viewer) if viewer >= 0 else 0
            self.asking = (ALL_SEATS & ~(1 << viewer) if viewer >= 0 else ALL_SEATS) | mine

    def inventory(self) -> Counter[Any]:
        inv: Counter[Any] = Counter()
        for h in self.hands:
            for c in range(NUM_KINDS):
                if h[c]:
                    inv[c] += h[c]
        inv.update(self.stock[self.pos:])
        inv.update(self.kitty)
        inv.update(self.pile)
        return inv


def _parse_deal(deal: Any) -> tuple[list[Card], int, int | None, tuple[int, int] | None]:
    """The first hand, as JSON: either the dealing order, or each seat's cards in the order received.

    ``{"order": [216 cards], "start": 0}`` deals ``order[i]`` to seat ``(start + i) % 4`` and leaves the
    last 12 as the kitty (its third card decides the trump if nobody bids).  ``{"hands": [[51 cards] ×
    4], "kitty": [12 cards], "start": 0}`` is the same deal written per seat: in round r each seat from
    ``start`` on receives its r-th card.  Optional: ``"dealer"`` (fixes the dealer, as in a later hand:
    the first bidder then does not take the deal) and ``"levels"`` ([seats 0+2, seats 1+3], 2…14).
    """
    if not isinstance(deal, dict):
        raise ValueError("a shengji deal is a JSON object with 'order' or 'hands' and 'kitty'")
    start = int(deal.get("start", 0)) % SEATS
    if "order" in deal:
        stock = parse_cards(deal["order"])
    else:
        hands = [parse_cards(h) for h in deal["hands"]]
        if len(hands) != SEATS or any(len(h) != DEALT // SEATS for h in hands):
            raise ValueError(f"a deal gives each of 4 seats {DEALT // SEATS} cards")
        stock = [hands[(start + i) % SEATS][i // SEATS] for i in range(DEALT)]
        stock += parse_cards(deal["kitty"])
    if len(stock) != DECK_SIZE or Counter(stock) != Counter(list(range(NUM_KINDS)) * 4):
        raise ValueError("a deal must use exactly four full decks with jokers (216 cards)")
    dealer = deal.get("dealer")
    levels = deal.get("levels")
    lv: tuple[int, int] | None = None
    if levels is not None:
        if len(levels) != 2 or not all(isinstance(x, int) and 2 <= x <= TOP for x in levels):
            raise ValueError("levels are two ints 2…14 (seats 0+2, seats 1+3)")
        lv = (levels[0], levels[1])
    return stock, start, (int(dealer) % SEATS if dealer is not None else None), lv
