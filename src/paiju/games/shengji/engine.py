"""The 升级 state machine: a match of hands with bidding live during the deal, burying, tricks, levels.

Phases of a hand: ``deal`` (cards go out one at a time; a seat is asked only when it holds a bid it has
not yet declined, so the table never waits on seats that cannot bid), ``bury`` (the dealer has taken the
kitty and buries 12), ``play`` (tricks until the hands are empty), then the settlement and the next hand
or the end of the match.  Seats 0 and 2 are one side, 1 and 3 the other.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar, Self

from paiju.core.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    SUIT_SYMBOLS,
    SUIT_ZH,
    SUITS,
    Card,
    card_text,
    make,
    parse_cards,
    pretty,
)
from paiju.core.errors import NotationError
from paiju.core.game import OMNISCIENT, Action, Event, Game, Result, Seat, View, Window

from .config import ShengjiConfig
from .plays import UNIT_PLAY, follow_candidates
from .rules import (
    LEVEL_NAMES,
    NUM_KINDS,
    TOTAL_POINTS,
    TRUMP,
    Order,
    bid_rank,
    bid_trump,
    follow_problem,
    kitty_factor,
    level_change,
    level_rank,
    order_for,
    play_suit,
    points_of,
    smallest_unit,
    throw_beaten_units,
    trick_winner,
)

SEATS = 4
DECK_SIZE = 216
KITTY = 12
DEALT = DECK_SIZE - KITTY
TOP = 14
"""Level A: the highest level; going past it (过A) ends the match."""
LEAD_CAP = 240



def team_of(seat: Seat) -> int:
    return seat % 2


def _cards_text(cards: list[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


def _trump_label(trump: int | None, lang: str) -> str:
    if trump is None:
        return "无主" if lang == "zh" else "no-trump"
    suit = SUITS[trump]
    return f"{SUIT_ZH[suit]}{SUIT_SYMBOLS[suit]}" if lang == "zh" else SUIT_SYMBOLS[suit]


class ShengjiGame(Game[ShengjiConfig]):
    """升级 with four decks (打10 rules), four seats in two partnerships."""

    name = "shengji"
    config_class = ShengjiConfig
    display: ClassVar[dict[str, str]] = {"zh": "升级（四副牌）", "en": "Shengji (four decks)"}
    min_seats = 4
    max_seats = 4

    # ---- setup ------------------------------------------------------------------------------------
    def _setup(self, deal: Any) -> None:
        cfg = self.config
        self.levels: list[int] = [cfg.start_level, cfg.start_level]
        self.match_gain: list[int] = [0, 0]
        self.hands_played = 0
        self.over = False
        self.end_reason: str | None = None
        self.hand_log: list[dict[str, Any]] = []
        self.last_result: dict[str, Any] | None = None
        self._version = 0
        """Bumped by every action: ``_listed`` (the last legal list offered) is valid only at its version."""
        self._listed: tuple[int, int, frozenset[str]] = (-1, -1, frozenset())
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
        """Index in ``history`` of the current hand's first action: the card room times hands with it."""
        self._new_hand(stock, start, dealer, first=dealer is None)
        self._advance()

    def _new_hand(self, stock: list[Card], start: Seat, dealer: Seat | None, *, first: bool) -> None:
        self.stock = stock
        self.pos = 0
        self.start = start
        self.dealer: Seat | None = dealer
        self.first_hand = first
        """The dealer is still open: the first seat to bid will deal (the match's first hand)."""
        self.phase = "deal"
        self.hands: list[list[int]] = [[0] * NUM_KINDS for _ in range(SEATS)]
        self.sizes = [0] * SEATS
        self.known: list[list[int]] = [[0] * NUM_KINDS for _ in range(SEATS)]
        self.bid: tuple[Seat, Card, int, int] | None = None
        self.first_bidder: Seat | None = None
        self.bids: list[dict[str, Any]] = []
        self.declined: list[set[str]] = [set() for _ in range(SEATS)]
        self.pending = [False] * SEATS
        self.trump: int | None = None
        self.trump_set = False
        self.level = self.levels[team_of(dealer)] if dealer is not None else self.levels[0]
        self.order: Order = order_for(self.level, None)
        self.kitty: list[Card] = []
        self.kitty_reveal: Card | None = None
        self.buried = False
        self.turn: Seat = 0
        self.trick: list[tuple[Seat, list[Card]]] = []
        self.tricks: list[dict[str, Any]] = []
        self.pile: list[Card] = []
        self.captured = 0
        self.penalty = [0, 0]
        """Failed-throw points conceded per team this hand."""
        self.fails = [0] * SEATS
        self.fail_cards = [0] * SEATS

    # ---- the deal and live bidding -----------------------------------------------------------------
    def _bid_options(self, seat: Seat) -> list[Action]:
        """Every bid ``seat`` may make now: stronger than the standing bid; 自保 only with the same card."""
        h = self.hands[seat]
        lr = level_rank(self.level)
        out: list[Action] = []
        for card in [make(lr, s) for s in SUITS] + [SMALL_JOKER, BIG_JOKER]:
            for n in range(1, h[card] + 1):
                rank = bid_rank(card, n, self.level)
                if rank is None:
                    continue
                if self.bid is not None:
                    b_seat, b_card, _, b_rank = self.bid
                    if rank <= b_rank or (b_seat == seat and card != b_card):
                        continue
                out.append("bid " + " ".join([card_text(card)] * n))
        return out

    def _update_pending(self, seat: Seat) -> None:
        self.pending[seat] = any(a not in self.declined[seat] for a in self._bid_options(seat))

    def _advance(self) -> list[Event]:
        """Deal cards until some seat has a bid to decide, or the deal is over; then settle the trump."""
        if self.phase != "deal":
            return []
        stock, hands, sizes = self.stock, self.hands, self.sizes
        lr = level_rank(self.level)
        while not any(self.pending):
            if self.pos >= DEALT:
                return self._settle_trump()
            card = stock[self.pos]
            seat = (self.start + self.pos) % SEATS
            hands[seat][card] += 1
            sizes[seat] += 1
            self.pos += 1
            if card >= 52 or (card // 4 + 1) == lr:
                self._update_pending(seat)
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
        self.phase = "bury"
        self.turn = self.dealer
        return events

    # ---- the protocol -------------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return SEATS

    @property
    def finished(self) -> bool:
        return self.over

    def to_move(self) -> tuple[Seat, ...]:
        if self.over:
            return ()
        if self.phase == "deal":
            return tuple(s for s in range(SEATS) if self.pending[s])
        return (self.turn,)

    def public_to_move(self) -> tuple[Seat, ...]:
        return () if self.phase == "deal" else self.to_move()

    def window(self, seat: Seat) -> Window:
        return Window.CLAIM if self.phase == "deal" else Window.TURN

    def timeout_action(self, seat: Seat) -> Action | None:
        return "pass" if self.phase == "deal" else None

    def holding(self, seat: Seat) -> list[int]:
        """Counts of the cards ``seat`` may play or bury now (the dealer's hand includes the kitty while burying)."""
        if self.phase == "bury" and seat == self.dealer:
            h = list(self.hands[seat])
            for c in self.kitty:
                h[c] += 1
            return h
        return self.hands[seat]

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.to_move():
            return []
        if self.phase == "deal":
            out = ["pass", *self._bid_options(seat)]
        elif self.phase == "bury":
            out = self._bury_candidates()
        elif not self.trick:
            out = self._lead_candidates(seat)
        else:
            out = self._follow_candidates(seat)
        self._listed = (self._version, seat, frozenset(out))
        return out

    def is_legal(self, seat: Seat, action: Action) -> bool:
        version, listed_seat, listed = self._listed
        if version == self._version and listed_seat == seat and action in listed:
            return True  # just offered by legal_actions in this very state
        return self._problem(seat, action) is None

    def why_illegal(self, seat: Seat, action: Action) -> str:
        return self._problem(seat, action) or f"{action!r} is legal"

    def _problem(self, seat: Seat, action: Action) -> str | None:
        """Why ``action`` is refused, in words a player understands; None when it is legal."""
        if not isinstance(action, str):
            return "an action is a string"
        if seat not in self.to_move():
            return f"seat {seat} has no decision to make now"
        verb, _, rest = action.partition(" ")
        if self.phase == "deal":
            if action == "pass":
                return None
            if verb != "bid":
                return "while the cards are dealt you may only bid (bid 2H 2H) or pass"
            return self._bid_problem(seat, rest)
        try:
            cards = parse_cards(rest)
        except NotationError as e:
            return str(e)
        if self.phase == "bury":
            if verb != "bury":
                return f"the dealer buries {KITTY} cards now: bury <12 cards>"
            if len(cards) != KITTY:
                return f"bury exactly {KITTY} cards, not {len(cards)}"
            return self._missing(self.holding(seat), cards)
        if verb != "play":
            return "play your cards: play <cards>"
        if not cards:
            return "choose at least one card"
        if self.trick:
            return follow_problem(self.hands[seat], self.trick[0][1], cards, self.order)
        missing = self._missing(self.hands[seat], cards)
        if missing:
            return missing
        if play_suit(cards, self.order) is None:
            return "a lead must be in one suit (all trumps count as one suit)"
        if len(set(cards)) > 1:
            cfg = self.config
            if self.fails[seat] >= cfg.throw_fails_limit:
                return f"throw limit reached: {self.fails[seat]} failed throws this hand"
            if self.fail_cards[seat] >= cfg.throw_cards_limit:
                return f"throw limit reached: {self.fail_cards[seat]} cards of failed throws this hand"
        return None

    @staticmethod
    def _missing(counts: list[int], cards: list[Card]) -> str | None:
        for c, k in Counter(cards).items():
            if counts[c] < k:
                return f"you do not hold {k}× {card_text(c)}" if k > 1 else f"you do not hold {card_text(c)}"
        return None

    def _bid_problem(self, seat: Seat, rest: str) -> str | None:
        try:
            cards = parse_cards(rest)
        except NotationError as e:
            return str(e)
        if not cards or len(set(cards)) != 1:
            return "a bid shows 1–4 identical cards: level cards of one suit, or 2–4 identical jokers"
        card, n = cards[0], len(cards)
        if "bid " + " ".join([card_text(card)] * n) in self._bid_options(seat):
            return None
        rank = bid_rank(card, n, self.level)
        if rank is None:
            if card >= 52 and n == 1:
                return "one joker cannot bid no-trump: show two or more identical jokers"
            return f"only level cards ({LEVEL_NAMES[self.level]}) or pairs of identical jokers can bid"
        if self.hands[seat][card] < n:
            return f"you do not hold {n}× {card_text(card)}"
        assert self.bid is not None
        b_seat, b_card, _, _ = self.bid
        if b_seat == seat and card != b_card:
            return "you cannot overcall your own bid (no 自反); you may only strengthen it with the same card"
        return f"a bid must beat the standing bid {_cards_text([b_card] * self.bid[2])} (抢亮: equal bids lose)"

    # ---- candidates (the capped legal list) ------------------------------------------------------------
    def _canon(self, verb: str, cards: list[Card]) -> Action:
        return verb + " " + _cards_text(self.order.sorted(cards))

    def _bury_candidates(self) -> list[Action]:
        order = self.order
        h = self.holding(self.turn)
        cards = [c for c in range(NUM_KINDS) for _ in range(h[c])]
        variants = [
            sorted(cards, key=lambda c: (order.suit[c] == TRUMP, points_of([c]) > 0, order.key[c]))[:KITTY],
            sorted(cards, key=lambda c: (order.suit[c] == TRUMP, order.key[c]))[:KITTY],
        ]
        by_suit = sorted((s for s in range(4) if any(h[c] for c in order.members[s])),
                         key=lambda s: sum(h[c] for c in order.members[s]))
        if by_suit:
            first = [c for c in order.members[by_suit[0]] for _ in range(h[c])][:KITTY]
            rest = [c for c in variants[0] if c not in first]
            pool = Counter(first)
            extra: list[Card] = []
            left = Counter(cards) - pool
            for c in rest:
                if len(first) + len(extra) >= KITTY:
                    break
                if left[c] > 0:
                    extra.append(c)
                    left[c] -= 1
            if len(first) + len(extra) == KITTY:
                variants.append(first + extra)
        out: list[Action] = []
        for v in variants:
            a = self._canon("bury", v)
            if a not in out:
                out.append(a)
        return out

    def _lead_candidates(self, seat: Seat) -> list[Action]:
        """Every single, pair, triple and quad; plus, while throwing is allowed, the top two units of
        each suit as a throw (it may fail: the engine then plays its smallest beatable part)."""
        h = self.hands[seat]
        out = [UNIT_PLAY[c][k] for c in range(NUM_KINDS) for k in range(1, h[c] + 1)]
        cfg = self.config
        if self.fails[seat] < cfg.throw_fails_limit and self.fail_cards[seat] < cfg.throw_cards_limit:
            for s in range(5):
                top = [c for c in reversed(self.order.members[s]) if h[c]][:2]
                if len(top) == 2:
                    out.append(self._canon("play", [c for c in top for _ in range(h[c])]))
        return out[:LEAD_CAP]

    def _follow_candidates(self, seat: Seat) -> list[Action]:
        return follow_candidates(self.hands[seat], self.trick[0][1], self.order)

    # ---- applying actions -------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        self._version += 1
        verb, _, rest = action.partition(" ")
        if self.phase == "deal":
            return self._apply_bid(seat, verb, rest)
        cards = parse_cards(rest)
        if self.phase == "bury":
            return self._apply_bury(seat, cards)
        return self._apply_play(seat, cards)

    def _apply_bid(self, seat: Seat, verb: str, rest: str) -> list[Event]:
        if verb == "pass":
            self.declined[seat].update(self._bid_options(seat))
            self.pending[seat] = False
            return self._advance()
        cards = parse_cards(rest)
        card, n = cards[0], len(cards)
        rank = bid_rank(card, n, self.level)
        assert rank is not None
        if self.first_bidder is None:
            self.first_bidder = seat
        self.bid = (seat, card, n, rank)
        self.known[seat][card] = max(self.known[seat][card], n)
        self.bids.append({"seat": seat, "cards": [card_text(card)] * n, "rank": rank})
        self.declined[seat].add("bid " + " ".join([card_text(card)] * n))
        for s in range(SEATS):
            self._update_pending(s)
        events: list[Event] = [{"type": "bid", "seat": seat, "cards": [card_text(card)] * n, "rank": rank,
                                "trump": SUITS[card % 4] if card < 52 else None}]
        events.extend(self._advance())
        return events

    def _apply_bury(self, seat: Seat, cards: list[Card]) -> list[Event]:
        h = self.holding(seat)
        for c in cards:
            h[c] -= 1
        self.hands[seat] = h
        self.sizes[seat] = sum(h)
        self.kitty = list(cards)
        self.known[seat] = [0] * NUM_KINDS
        self.buried = True
        self.phase = "play"
        self.turn = seat
        return [{"type": "buried", "seat": seat, "cards": KITTY}]

    def _apply_play(self, seat: Seat, cards: list[Card]) -> list[Event]:
        events: list[Event] = []
        order = self.order
        if not self.trick and len(set(cards)) > 1:
            others = [self.hands[s] for s in range(SEATS) if s != seat]
            beaten = throw_beaten_units(cards, others, order)
            if beaten:
                c, k = smallest_unit(beaten, order)
                events.append(self._fail_throw(seat, cards, [c] * k, beaten))
                cards = [c] * k
        h = self.hands[seat]
        known = self.known[seat]
        for c in cards:
            h[c] -= 1
            if known[c] > h[c]:
                known[c] = h[c]
        self.sizes[seat] -= len(cards)
        self.trick.append((seat, cards))
        self.pile.extend(cards)
        events.append({"type": "play", "seat": seat, "cards": [card_text(c) for c in order.sorted(cards)]})
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
        pts = sum(points_of(p) for p in plays)
        assert self.dealer is not None
        attackers = 1 - team_of(self.dealer)
        if team_of(winner) == attackers:
            self.captured += pts
        self.tricks.append({"leader": self.trick[0][0],
                            "plays": [[s, _cards_text(order.sorted(p))] for s, p in self.trick],
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
    def _settle_hand(self, last_winner: Seat, last_lead: list[Card]) -> list[Event]:
        cfg = self.config
        assert self.dealer is not None
        dealer = self.dealer
        defenders = team_of(dealer)
        attackers = 1 - defenders
        kitty_points = points_of(self.kitty)
        factor = kitty_factor(cfg.kitty_multiplier, last_lead) if team_of(last_winner) == attackers else 0
        kitty_score = kitty_points * factor
        total = self.captured + kitty_score + self.penalty[defenders] - self.penalty[attackers]
        card_points = self.captured + (kitty_points if factor else 0)
        final = max(0, total)
        side, n = level_change(final)
        shutout = cfg.end_on_shutout and final == 0
        sweep = cfg.end_on_shutout and card_points == TOTAL_POINTS
        if sweep:
            winner_team, kind, next_dealer = attackers, "sweep", (dealer + 1) % SEATS
        elif shutout:
            winner_team, kind, next_dealer = defenders, "shutout", (dealer + 2) % SEATS
        elif side == "attackers":
            winner_team, kind, next_dealer = attackers, "take_over", (dealer + 1) % SEATS
        else:
            winner_team, kind, next_dealer = defenders, "hold", (dealer + 2) % SEATS
        old = self.levels[winner_team]
        new = TOP + 1 if kind in ("sweep", "shutout") else old + n
        gained = min(new, TOP) - old
        passed = new > TOP
        self.levels[winner_team] = min(new, TOP)
        self.match_gain[winner_team] += gained
        self.hands_played += 1
        self.phase = "over"
        kitty_text = [card_text(c) for c in self.order.sorted(self.kitty)]
        summary: dict[str, Any] = {
            "type": "hand_end", "hand": self.hands_played, "dealer": dealer, "level": self.level,
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "attacker_points": self.captured, "kitty": kitty_text, "kitty_points": kitty_points,
            "kitty_factor": factor, "kitty_score": kitty_score,
            "penalties": {"attackers": self.penalty[attackers], "defenders": self.penalty[defenders]},
            "total": total, "outcome": kind, "team": winner_team, "levels_up": n if kind in ("hold", "take_over")
            else TOP - old, "gained": gained, "passed_a": passed, "levels": list(self.levels),
            "next_dealer": next_dealer, "scores": list(self.totals()),
            "actions": [self.hand_first_action, len(self.history)],
        }
        self.hand_log.append({k: v for k, v in summary.items() if k != "type"})
        self.last_result = self._result_block(summary, attackers)
        events: list[Event] = [summary]
        limit = cfg.max_hands
        if passed or (limit and self.hands_played >= limit):
            self.over = True
            self.end_reason = "passed_a" if passed else "max_hands"
            events.append({"type": "match_end", "reason": self.end_reason, "levels": list(self.levels),
                           "scores": list(self.totals())})
            return events
        stock = list(range(NUM_KINDS)) * 4
        self.rng.shuffle(stock)
        self.hand_first_action = len(self.history) + 1
        self._new_hand(stock, next_dealer, next_dealer, first=False)
        events.append({"type": "hand_start", "hand": self.hands_played + 1, "dealer": next_dealer,
                       "levels": list(self.levels)})
        events.extend(self._advance())
        return events

    def _result_block(self, s: dict[str, Any], attackers: int) -> dict[str, Any]:
        def side(values: tuple[int, int]) -> list[int]:
            return [values[team_of(seat)] for seat in range(SEATS)]

        att = (s["attacker_points"], 0) if attackers == 0 else (0, s["attacker_points"])
        kit = (s["kitty_score"], 0) if attackers == 0 else (0, s["kitty_score"])
        pen = s["total"] - s["attacker_points"] - s["kitty_score"]
        pe = (pen, 0) if attackers == 0 else (0, pen)
        gain = (s["gained"], 0) if s["team"] == 0 else (0, s["gained"])
        outcome = {
            "hold": ("庄家守庄，升{n}级", "defenders hold, up {n}"),
            "take_over": ("闲家上台，升{n}级", "attackers take over, up {n}"),
            "shutout": ("光头：庄家过局", "光头 (attackers scored 0): defenders pass A"),
            "sweep": ("全捡：闲家过局", "全捡 (attackers took every point): attackers pass A"),
        }[s["outcome"]]
        n = s["levels_up"]
        return {
            "title": {"zh": f"第{s['hand']}局结算", "en": f"hand {s['hand']} settlement"},
            "lines": [
                {"zh": "闲家得分", "en": "attackers' points in tricks", "points": side(att)},
                {"zh": f"扣底 {s['kitty_points']}×{s['kitty_factor']}",
                 "en": f"kitty {s['kitty_points']}×{s['kitty_factor']}", "points": side(kit)},
                {"zh": "吃苍蝇", "en": "failed throws", "points": side(pe)},
                {"zh": f"合计 {s['total']}", "en": f"total {s['total']}",
                 "points": side((s["total"], 0) if attackers == 0 else (0, s["total"]))},
                {"zh": outcome[0].format(n=n), "en": outcome[1].format(n=n), "points": side(gain)},
                {"zh": "级别 " + " / ".join(LEVEL_NAMES[x] for x in s["levels"]),
                 "en": "levels " + " / ".join(LEVEL_NAMES[x] for x in s["levels"]), "points": [0] * SEATS},
            ],
            "kitty": s["kitty"],
            "scores": s["scores"],
        }

    def totals(self) -> tuple[float, ...]:
        g = self.match_gain
        return tuple(float(g[team_of(s)] - g[1 - team_of(s)]) for s in range(SEATS))

    def result(self) -> Result | None:
        if not self.over:
            return None
        return Result(self.totals(), {"levels": list(self.levels), "gained": list(self.match_gain),
                                      "hands": self.hands_played, "reason": self.end_reason,
                                      "hand_log": self.hand_log})

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

    # ---- views ---------------------------------------------------------------------------------------
    def _view(self, viewer: int) -> View:
        omni = viewer == OMNISCIENT
        order = self.order if self.trump_set else order_for(
            self.level, bid_trump(self.bid[1]) if self.bid is not None else None)
        sees_kitty = omni or self.over or (viewer == self.dealer and self.trump_set)

        def hand_of(s: int) -> list[str] | None:
            if not (omni or s == viewer):
                return None
            h = self.holding(s)
            return [card_text(c) for c in order.sorted(c for c in range(NUM_KINDS) for _ in range(h[c]))]

        counts = [sum(self.holding(s)) for s in range(SEATS)]
        bid = None
        if self.bid is not None:
            b_seat, b_card, b_n, b_rank = self.bid
            bid = {"seat": b_seat, "cards": [card_text(b_card)] * b_n, "rank": b_rank}
        attackers = [s for s in range(SEATS) if self.dealer is not None and team_of(s) != team_of(self.dealer)]
        view: View = {
            "hand_no": self.hands_played + (0 if self.over else 1),
            "max_hands": self.config.max_hands,
            "phase": self.phase,
            "levels": list(self.levels),
            "level": self.level,
            "level_name": LEVEL_NAMES[self.level],
            "dealer": self.dealer,
            "attackers": attackers,
            "trump_set": self.trump_set,
            "trump": SUITS[self.trump] if self.trump_set and self.trump is not None else None,
            "bid": bid,
            "bids": [dict(b) for b in self.bids],
            "first_bidder": self.first_bidder,
            "first_hand": self.first_hand,
            "dealt": min(self.pos, DEALT),
            "hand": hand_of(viewer) if viewer >= 0 else None,
            "hands": [hand_of(s) for s in range(SEATS)],
            "hand_counts": counts,
            "kitty": [card_text(c) for c in self.kitty] if sees_kitty and self.trump_set else None,
            "kitty_count": KITTY,
            "kitty_buried": self.buried,
            "kitty_card": card_text(self.kitty_reveal) if self.kitty_reveal is not None else None,
            "turn": self.turn if self.phase in ("bury", "play") and not self.over else None,
            "trick": {"leader": self.trick[0][0] if self.trick else (self.turn if self.phase == "play" else None),
                      "plays": [[s, [card_text(c) for c in order.sorted(p)]] for s, p in self.trick]},
            "tricks": [dict(t) for t in self.tricks],
            "points": self.captured,
            "penalties": list(self.penalty),
            "throw_fails": list(self.fails),
            "throw_cards": list(self.fail_cards),
            "throw_limits": {"fails": self.config.throw_fails_limit, "cards": self.config.throw_cards_limit},
            "hands_played": self.hands_played,
            "hand_first_action": self.hand_first_action,
            "last_result": self.last_result,
        }
        view["table"] = self._table(viewer, view, order)
        return view

    def _table(self, viewer: int, v: View, order: Order) -> dict[str, Any]:
        lvl = LEVEL_NAMES[self.level]
        trump_zh = _trump_label(self.trump, "zh") if self.trump_set else "未定"
        trump_en = _trump_label(self.trump, "en") if self.trump_set else "undecided"
        phase = {"deal": ("发牌·亮主", "dealing · bidding"), "bury": ("扣底", "burying the kitty"),
                 "play": ("出牌", "play"), "over": ("终局", "match over")}[self.phase if not self.over else "over"]
        info = [
            {"zh": f"第{v['hand_no']}局 打{lvl} 主{trump_zh}",
             "en": f"hand {v['hand_no']}, level {lvl}, trump {trump_en}"},
            {"zh": f"级别 南北{LEVEL_NAMES[self.levels[0]]} 东西{LEVEL_NAMES[self.levels[1]]}",
             "en": f"levels: seats 0+2 {LEVEL_NAMES[self.levels[0]]}, seats 1+3 {LEVEL_NAMES[self.levels[1]]}"},
            {"zh": f"闲家得分 {self.captured}", "en": f"attackers' points {self.captured}"},
        ]
        if self.bid is not None and not self.trump_set:
            b = self.bid
            info.append({"zh": f"{b[0]}号亮 {_cards_text([b[1]] * b[2])}",
                         "en": f"seat {b[0]} bid {_cards_text([b[1]] * b[2])}"})
        seats = []
        current = {s: p for s, p in self.trick}
        for s in range(SEATS):
            if self.dealer is None:
                role = {"zh": "", "en": ""}
            elif s == self.dealer:
                role = {"zh": "庄家", "en": "dealer"}
            elif team_of(s) == team_of(self.dealer):
                role = {"zh": "庄家对家", "en": "dealer's partner"}
            else:
                role = {"zh": "闲家", "en": "attacker"}
            groups = []
            if self.bid is not None and self.bid[0] == s and self.phase == "deal":
                groups.append({"label": {"zh": "亮主", "en": "bid"}, "cards": list(v["bid"]["cards"])})
            seats.append({"seat": s, "role": role, "hand": v["hands"][s], "hand_count": v["hand_counts"][s],
                          "groups": groups,
                          "discards": [card_text(c) for c in order.sorted(current.get(s, []))],
                          "note": None})
        kitty_cards = v["kitty"] if v["kitty"] is not None else ["??"] * KITTY
        center = [{"label": {"zh": "底牌", "en": "kitty"}, "cards": kitty_cards}]
        select = None
        if viewer >= 0 and viewer in self.to_move():
            if self.phase == "bury":
                select = {"verb": "bury", "min": KITTY, "max": KITTY}
            elif self.phase == "play":
                n = len(self.trick[0][1]) if self.trick else None
                select = {"verb": "play", "min": n or 1, "max": n or self.sizes[viewer]}
        return {"card_style": "french", "phase": {"zh": phase[0], "en": phase[1]}, "info": info,
                "seats": seats, "center": center, "select": select, "last_result": self.last_result}

    # ---- copies ----------------------------------------------------------------------------------------
    def clone(self) -> Self:
        g = object.__new__(type(self))
        d = dict(self.__dict__)
        d["history"] = list(self.history)
        d["levels"] = list(self.levels)
        d["match_gain"] = list(self.match_gain)
        d["hand_log"] = list(self.hand_log)
        d["stock"] = list(self.stock)
        d["hands"] = [list(h) for h in self.hands]
        d["sizes"] = list(self.sizes)
        d["known"] = [list(h) for h in self.known]
        d["bids"] = list(self.bids)
        d["declined"] = [set(x) for x in self.declined]
        d["pending"] = list(self.pending)
        d["kitty"] = list(self.kitty)
        d["trick"] = [(s, list(p)) for s, p in self.trick]
        d["tricks"] = list(self.tricks)
        d["pile"] = list(self.pile)
        d["penalty"] = list(self.penalty)
        d["fails"] = list(self.fails)
        d["fail_cards"] = list(self.fail_cards)
        d["_listed"] = (-1, -1, frozenset())
        g.__dict__.update(d)
        g.rng = random.Random()  # the random stream is a property of the base: set it, not __dict__
        g.rng.setstate(self.rng.getstate())
        return g

    def resample(self, viewer: int, rng: random.Random) -> Self:
        g = self.clone()
        if viewer == OMNISCIENT or self.over:
            return g
        hidden = [s for s in range(SEATS) if s != viewer]
        pool: list[Card] = []
        free: dict[int, int] = {}
        for s in hidden:
            h, k = g.hands[s], g.known[s]
            free[s] = 0
            for c in range(NUM_KINDS):
                extra = h[c] - k[c]
                if extra > 0:
                    pool.extend([c] * extra)
                    free[s] += extra
        deal_rest = g.phase == "deal"
        if deal_rest:
            pool.extend(g.stock[g.pos:])
        kitty_hidden = g.trump_set and viewer != g.dealer
        fixed_kitty = g.kitty_reveal if (kitty_hidden and g.phase == "bury" and g.kitty_reveal is not None) else None
        if kitty_hidden:
            pool.extend(g.kitty)
            if fixed_kitty is not None:
                pool.remove(fixed_kitty)
        rng.shuffle(pool)
        i = 0
        for s in hidden:
            h = list(g.known[s])
            for c in pool[i:i + free[s]]:
                h[c] += 1
            i += free[s]
            g.hands[s] = h
        if deal_rest:
            n = len(g.stock) - g.pos
            g.stock[g.pos:] = pool[i:i + n]
            i += n
        if kitty_hidden:
            if fixed_kitty is not None:
                g.kitty = [*pool[i:i + 2], fixed_kitty, *pool[i + 2:i + KITTY - 1]]
                i += KITTY - 1
            else:
                g.kitty = pool[i:i + KITTY]
                i += KITTY
        return g

    # ---- labels ------------------------------------------------------------------------------------------
    def describe(self, action: Action, lang: str = "zh") -> str:
        verb, _, rest = action.partition(" ")
        try:
            cards = " ".join(pretty(c) for c in parse_cards(rest))
        except NotationError:
            return action
        zh = lang == "zh"
        if verb == "pass":
            return "不亮" if zh else "no bid"
        if verb == "bid":
            return f"亮主 {cards}" if zh else f"bid {cards}"
        if verb == "bury":
            return f"扣底 {cards}" if zh else f"bury {cards}"
        if verb == "play":
            return f"出 {cards}" if zh else f"play {cards}"
        return action


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
