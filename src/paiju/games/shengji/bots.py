"""Bots for 升级: a card-counting team player, a search bot, an easy bot with a beginner's habits (the room's
入门) and a plain highest-card baseline.

Both read only the seat's view and legal list.  The legal list is capped for plays, so the smart bot
also builds its own plays (throws it has proved safe, point-feeding follows) from the rules functions;
the engine's ``is_legal`` accepts any legal play, listed or not.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from paiju.bots.base import WallClockCap
from paiju.core.cards import SUITS, Card, card_text, parse_cards
from paiju.core.game import Action, View

from .rollout import count_played, determinize, playout, position_from_view
from .rules import (
    NUM_KINDS,
    POINTS,
    THRESHOLD,
    TRUMP,
    Order,
    follow_problem,
    order_for,
    play_strength,
    suit_number,
)


def _play(cards: Sequence[Card]) -> Action:
    return "play " + " ".join(card_text(c) for c in cards)


def _cards_of(action: Action) -> list[Card]:
    return parse_cards(action.partition(" ")[2])


class _Table:
    """What a seat knows, rebuilt from its view: its hand, the cards gone, who is void where."""

    def __init__(self, view: View) -> None:
        self.seat: int = view["viewer"]
        self.partner = (self.seat + 2) % 4
        trump = view["trump"] if view["trump_set"] else (
            view["bid"]["cards"][0][-1] if view["bid"] and view["bid"]["cards"][0] not in ("SJ", "BJ") else None)
        self.order: Order = order_for(view["level"], suit_number(trump))
        self.hand = [0] * NUM_KINDS
        for c in parse_cards(view["hand"] or []):
            self.hand[c] += 1
        self.size = sum(self.hand)
        self.dealer: int | None = view["dealer"]
        self.defending = self.dealer is not None and self.dealer % 2 == self.seat % 2
        seen = list(self.hand)
        if view["kitty"] is not None and view["kitty_buried"]:
            for c in parse_cards(view["kitty"]):
                seen[c] += 1
        self.void: list[set[int]] = [set() for _ in range(4)]
        self.partner_wins: Counter[int] = Counter()
        order = self.order
        tricks: list[tuple[list[tuple[int, list[Card]]], int | None]] = [
            ([(s, parse_cards(p)) for s, p in t["plays"]], t["winner"]) for t in view["tricks"]]
        current = [(s, parse_cards(p)) for s, p in view["trick"]["plays"]]
        tricks.append((current, None))
        count_played([plays for plays, _w in tricks], order, seen, self.void)
        for plays, winner in tricks:
            if plays and winner == self.partner and plays[0][0] == self.partner:
                self.partner_wins[order.suit[plays[0][1][0]]] += 1
        self.unseen = [4 - seen[c] for c in range(NUM_KINDS)]
        self.trick = current
        self.opponents = [(self.seat + 1) % 4, (self.seat + 3) % 4]

    def value(self, cards: Sequence[Card]) -> int:
        """What spending ``cards`` costs: trumps and high cards are worth keeping, points worth more."""
        o = self.order
        return sum((20 + o.key[c] if o.suit[c] == TRUMP else o.key[c]) + POINTS[c] for c in cards)

    def unbeatable(self, card: Card, k: int) -> bool:
        """No unseen card of the suit outranks ``card`` with ``k`` or more copies left."""
        o = self.order
        kc = o.key[card]
        return not any(self.unseen[d] >= k and o.key[d] > kc for d in o.members[o.suit[card]])

    def units(self, suit: int) -> list[tuple[Card, int]]:
        return [(c, self.hand[c]) for c in self.order.members[suit] if self.hand[c]]

    def suit_count(self, suit: int) -> int:
        return sum(self.hand[c] for c in self.order.members[suit])


class SmartBot:
    """Counts cards and plays for its side: safe throws, leads to partner, feeds points, cheap wins."""

    suit_bid = 0.42
    """Share of trumps (strong ones weigh 1.5) a suit bid needs; a hand averages about 0.37."""
    nt_bid = 0.24
    draw_trumps = 0.45
    """The dealer side leads trumps once this share of its hand is trumps."""
    bury_short = 15.0
    """What each card of its suit adds to a card's burying cost: the dealer buries its short suits whole, and
    the voids let its side ruff the attackers' leads (self-play hold rate 45.5% at 15 over the study's 1,000
    deals, 37.6% at 0.8 on the same deals: docs/bots/shengji.md)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        phase = view["phase"]
        if phase == "deal":
            return self._bid(view, legal)
        t = _Table(view)
        if phase == "bury":
            return self._bury(t)
        if not t.trick:
            return self._lead(view, t, legal)
        return self._follow(t, legal)

    # ---- bidding --------------------------------------------------------------------------------------
    def _bid(self, view: View, legal: Sequence[Action]) -> Action:
        bids = [a for a in legal if a != "pass"]
        if not bids:
            return "pass"
        hand = parse_cards(view["hand"] or [])
        n = len(hand)
        standing = view["bid"]
        if standing is not None and standing["seat"] == view["viewer"]:
            return bids[-1]                                   # 自保: make our own bid safe
        if standing is not None and standing["seat"] == (view["viewer"] + 2) % 4:
            return "pass"                                     # never overcall partner
        if n < 8:
            return "pass"
        best, best_score = "pass", 0.0
        for a in bids:
            cards = _cards_of(a)
            trump = cards[0] % 4 if cards[0] < 52 else None
            order = order_for(view["level"], trump)
            trumps = sum(1 for c in hand if order.suit[c] == TRUMP)
            strong = sum(1 for c in hand if order.suit[c] == TRUMP and order.key[c] >= 14)
            ratio = (trumps + 0.5 * strong) / n
            need = self.suit_bid if trump is not None else self.nt_bid
            score = ratio - need
            if score > best_score:
                best, best_score = a, score
        return best

    # ---- burying ---------------------------------------------------------------------------------------
    def _bury(self, t: _Table) -> Action:
        o = t.order
        lengths = {s: t.suit_count(s) for s in range(4)}
        pool = [c for c in range(NUM_KINDS) for _ in range(t.hand[c])]

        def cost(c: Card) -> float:
            if o.suit[c] == TRUMP:
                return 1000 + o.key[c]
            s = o.suit[c]
            base = o.key[c] + 25 * (POINTS[c] > 0) + 6 * (t.hand[c] >= 2)
            if o.key[c] == 14:
                base += 30
            return base + lengths[s] * self.bury_short        # short suits go first: voids let us ruff

        chosen = sorted(pool, key=cost)[:12]
        return "bury " + " ".join(card_text(c) for c in chosen)

    # ---- leading ---------------------------------------------------------------------------------------
    def _lead(self, view: View, t: _Table, legal: Sequence[Action]) -> Action:
        o = t.order
        opp_void = t.void[t.opponents[0]] | t.void[t.opponents[1]]
        limits = view["throw_limits"]
        me = t.seat
        may_throw = view["throw_fails"][me] < limits["fails"] and view["throw_cards"][me] < limits["cards"]
        # 1. a throw that cannot fail (every unit the largest still out), where nobody can ruff it
        best: tuple[float, list[Card]] | None = None
        for s in range(5):
            if s != TRUMP and s in opp_void:
                continue
            safe = [(c, k) for c, k in t.units(s) if t.unbeatable(c, k)]
            if not safe:
                continue
            if may_throw and len(safe) >= 2:
                cards = [c for c, k in safe for _ in range(k)]
            else:
                c, k = max(safe, key=lambda u: (u[1], o.key[u[0]]))
                cards = [c] * k
            if s == TRUMP and t.suit_count(TRUMP) < 0.4 * t.size and len(cards) < 3:
                continue                                  # keep a short trump hand for ruffing
            score = len(cards) * 3 + sum(POINTS[c] for c in cards) / 5 + (0 if s == TRUMP else 2)
            if best is None or score > best[0]:
                best = (score, cards)
        if best is not None:
            return _play(best[1])
        side = [s for s in range(4) if t.suit_count(s)]
        partner_void = t.void[t.partner]
        # 2. lead to partner: a suit partner has won with, or one partner can ruff and they cannot
        for s in sorted(side, key=lambda s: -t.partner_wins[s]):
            if t.partner_wins[s] or (s in partner_void and TRUMP not in partner_void and s not in opp_void):
                return _play([self._low(t, s)])
        # 3. the dealer side draws trumps when long in them
        if t.defending and t.suit_count(TRUMP) >= self.draw_trumps * t.size:
            pairs = [c for c, k in t.units(TRUMP) if k >= 2]
            if pairs:
                c = pairs[-1]
                return _play([c, c])
        # 4. a low card of a long side suit nobody ruffs
        options = [s for s in side if s not in opp_void] or side
        if options:
            s = max(options, key=lambda s: t.suit_count(s))
            return _play([self._low(t, s)])
        return _play([self._low(t, TRUMP)])

    @staticmethod
    def _low(t: _Table, s: int) -> Card:
        cards = [c for c in t.order.members[s] if t.hand[c]]
        return min(cards, key=lambda c: (POINTS[c] > 0, t.hand[c] >= 2, t.order.key[c]))

    # ---- following -------------------------------------------------------------------------------------
    def _follow(self, t: _Table, legal: Sequence[Action]) -> Action:
        o = t.order
        lead = t.trick[0][1]
        cands = [_cards_of(a) for a in legal]
        cands.extend(self._extra(t, lead))
        cands = [c for c in cands if follow_problem(t.hand, lead, c, o) is None] or [_cards_of(legal[0])]
        best_i, best_val = 0, play_strength(lead, lead, o)
        for i, (_, p) in enumerate(t.trick[1:], 1):
            v = play_strength(p, lead, o)
            if v is not None and best_val is not None and v > best_val:
                best_i, best_val = i, v
        winner = t.trick[best_i][0]
        assert best_val is not None
        left = 3 - len(t.trick)
        pts = sum(POINTS[c] for _, p in t.trick for c in p)
        partner_winning = winner == t.partner
        safe = partner_winning and (left == 0 or self._holds(t, t.trick[best_i][1], lead, best_val))

        def strength(c: Sequence[Card]) -> tuple[int, int] | None:
            return play_strength(c, lead, o)

        if safe:
            return _play(max(cands, key=lambda c: (sum(POINTS[x] for x in c), -t.value(c))))
        winning = [c for c in cands if (v := strength(c)) is not None and v > best_val]
        if winning and not partner_winning:
            if left == 0:
                if pts + min(sum(POINTS[x] for x in c) for c in winning) > 0 or len(lead) > 1:
                    return _play(min(winning, key=t.value))
            else:
                sure = [c for c in winning if self._holds(t, c, lead, strength(c))]
                if sure:
                    return _play(min(sure, key=t.value))
                if pts >= 10:
                    return _play(max(winning, key=lambda c: strength(c) or (0, 0)))
        return _play(min(cands, key=lambda c: (3 * sum(POINTS[x] for x in c) + t.value(c))))

    @staticmethod
    def _holds(t: _Table, play: list[Card], lead: list[Card], val: tuple[int, int] | None) -> bool:
        """Whether no seat still to play is likely to beat ``play`` (by the cards still unseen)."""
        if val is None:
            return False
        o = t.order
        k = max(Counter(lead).values())
        is_trump, key = val
        if not is_trump:
            ls = o.suit[lead[0]]
            later = [(t.seat + i) % 4 for i in range(1, 4 - len(t.trick))]
            if any(ls in t.void[s] and TRUMP not in t.void[s] for s in later if s % 2 != t.seat % 2):
                return False
            suit = ls
        else:
            suit = TRUMP
        return not any(t.unseen[d] >= k and o.key[d] > key for d in o.members[suit])

    @staticmethod
    def _extra(t: _Table, lead: list[Card]) -> list[list[Card]]:
        """Follows the capped list may miss: for single leads, every card; the point cards first."""
        o = t.order
        s = o.suit[lead[0]]
        if len(lead) != 1:
            return []
        if t.suit_count(s):
            return [[c] for c in o.members[s] if t.hand[c]]
        return [[c] for c in range(NUM_KINDS) if t.hand[c]]


class SearchBot(WallClockCap):
    """Determinized search over the smart bot's real choices (the 高手 of the card room).

    At each play where the smart bot has more than one distinct sensible play, it deals the cards its seat has
    not seen at random (:func:`.rollout.determinize`: shown cards and shown voids kept), plays every candidate
    out to the end of the hand with the fast policy of :mod:`.rollout` on the same deals, and keeps the smart
    bot's own choice unless another candidate scores better by more than ``switch_z`` standard errors of the
    paired difference.  Bidding and burying are the smart bot's.

    Honest: everything comes from the view it is given (``rollout.position_from_view``); it never holds a
    game.  Deterministic and stateless: the random stream of each decision is seeded from the bot's seed and
    the position's place in the hand, so the card room may run it in a worker process.  Its budget is
    ``playouts`` per decision; ``max_seconds`` (off by default) is a wall-clock cap for the card room.
    The kitty's multiplier is read as the default rule (``unit``): a view does not carry the table's rules.
    """

    playouts = 48
    """Play-outs per searched decision, shared between the candidates (at least ``min_deals`` deals each)."""
    min_deals = 4
    max_candidates = 5
    switch_z = 1.0
    bonus = 40
    """Points a side counts for being past 160 (the deal changes hands): the level step the points miss."""

    def __init__(self, seed: int = 0, playouts: int | None = None, max_seconds: float | None = None) -> None:
        self.seed = seed
        self.smart = SmartBot(seed)
        if playouts is not None:
            self.playouts = playouts
        self.max_seconds = max_seconds

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if view["phase"] != "play":
            return self.smart.act(view, legal)
        t = _Table(view)
        if not t.trick:
            choice = self.smart._lead(view, t, legal)
            cands = self._lead_candidates(t, _cards_of(choice))
        else:
            choice = self.smart._follow(t, legal)
            cands = self._follow_candidates(t, legal, _cards_of(choice))
        if len(cands) < 2:
            return choice
        return _play(self._search(view, t, cands))

    def _lead_candidates(self, t: _Table, choice: list[Card]) -> list[list[Card]]:
        out = [sorted(choice)]
        tops: list[list[Card]] = []
        lows: list[list[Card]] = []
        for s in (TRUMP, 0, 1, 2, 3):
            units = t.units(s)
            if not units:
                continue
            c, k = units[-1]
            tops.append([c] * k)
            lows.append([SmartBot._low(t, s)])
        for cand in tops + lows:
            cand = sorted(cand)
            if cand not in out:
                out.append(cand)
        return out[:self.max_candidates]

    def _follow_candidates(self, t: _Table, legal: Sequence[Action], choice: list[Card]) -> list[list[Card]]:
        o = t.order
        lead = t.trick[0][1]
        cands = [_cards_of(a) for a in legal] + SmartBot._extra(t, lead)
        cands = [sorted(c) for c in cands if follow_problem(t.hand, lead, c, o) is None]
        if not cands:
            return [choice]
        best = None
        for _, p in t.trick:
            v = play_strength(p, lead, o)
            if v is not None and (best is None or v > best):
                best = v
        assert best is not None

        def pts(c: list[Card]) -> int:
            return sum(POINTS[x] for x in c)

        winning = [c for c in cands if (v := play_strength(c, lead, o)) is not None and v > best]
        picks = [sorted(choice), min(cands, key=lambda c: 3 * pts(c) + t.value(c)),
                 max(cands, key=lambda c: (pts(c), -t.value(c)))]
        if winning:
            picks.append(min(winning, key=t.value))
            picks.append(max(winning, key=lambda c: (play_strength(c, lead, o) or (0, 0), -t.value(c))))
        out: list[list[Card]] = []
        for c in picks:
            if c not in out:
                out.append(c)
        return out[:self.max_candidates]

    def _search(self, view: View, t: _Table, cands: list[list[Card]]) -> list[Card]:
        pos = position_from_view(view)
        rng = random.Random(f"{self.seed}/{view['hand_no']}/{len(view['tricks'])}/{len(t.trick)}")
        deals = max(self.min_deals, self.playouts // len(cands))
        sign = 1 if t.dealer is not None and t.seat % 2 != t.dealer % 2 else -1
        values: list[list[float]] = [[] for _ in cands]
        deadline = time.perf_counter() + self.max_seconds if self.max_seconds else None
        plays = [tuple(c) for c in cands]
        for _ in range(deals):
            hands, kitty_points = determinize(pos, rng)
            for j, p in enumerate(plays):
                total = playout(pos, hands, kitty_points, p)
                values[j].append(sign * (total + (self.bonus if total >= THRESHOLD else 0)))
            if deadline is not None and time.perf_counter() > deadline:
                break
        n = len(values[0])
        best_j, best_score = 0, 0.0
        for j in range(1, len(cands)):
            diffs = [a - b for a, b in zip(values[j], values[0], strict=True)]
            mean = statistics.fmean(diffs)
            se = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
            score = mean - self.switch_z * se
            if score > best_score:
                best_j, best_score = j, score
        return cands[best_j]


class HighestCardBot:
    """Plays the strongest card it may (no throws), bids whenever it can, buries the first offer:
    the plain baseline a thoughtful bot must beat."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if view["phase"] == "deal":
            bids = [a for a in legal if a != "pass"]
            return bids[-1] if bids else "pass"
        if view["phase"] == "bury":
            return legal[0]
        trump = view["trump"]
        order = order_for(view["level"], suit_number(trump) if trump in SUITS else None)

        def rank(a: Action) -> tuple[int, int, int, int]:
            cards = _cards_of(a)
            top = max(cards, key=lambda c: (order.suit[c] == TRUMP, order.key[c]))
            return (order.suit[top] == TRUMP, order.key[top], -len(set(cards)), len(cards))

        return max(legal, key=rank)


class EasyBot:
    """入门: a beginner's habits: it plays its own cards big and small and counts nothing.

    - **Bids whenever it can**, with the first bid it is offered: a new player shows a level card as soon as
      one comes, whatever the rest of the hand.
    - **Buries its smallest cards**: of the offered burials, the one whose cards rank lowest (trumps count
      above every plain card); it does not think of voids or of the points it hides.
    - **Leads its highest card**: a single card, the strongest it holds (trumps first), never a pair or a throw:
      big cards look safe to a beginner.
    - **Follows with the lowest legal cards**, unless points lie on the trick: then it plays its highest to grab
      them.  It never feeds points to its partner and never counts who is void.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)     # unused: every habit is a fixed rule (the room reseeds it anyway)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if view["phase"] == "deal":
            return next((a for a in legal if a != "pass"), "pass")
        trump = view["trump"]
        order = order_for(view["level"], suit_number(trump) if trump in SUITS else None)

        def rank(c: Card) -> int:
            return order.key[c] + (100 if order.suit[c] == TRUMP else 0)

        def top(a: Action) -> tuple[int, int]:
            cards = _cards_of(a)
            return max(rank(c) for c in cards), -sum(POINTS[c] for c in cards)

        if view["phase"] == "bury":
            return min(legal, key=lambda a: sum(rank(c) for c in _cards_of(a)))
        plays = view["trick"]["plays"]
        if not plays:
            singles = [a for a in legal if len(_cards_of(a)) == 1] or list(legal)
            return max(singles, key=top)
        if any(POINTS[c] for _, p in plays for c in parse_cards(p)):
            return max(legal, key=top)
        return min(legal, key=top)


BOTS: dict[str, Callable[[int], Any]] = {"smart": SmartBot, "search": SearchBot, "easy": EasyBot,
                                       "highest": HighestCardBot}
"""Strongest first by kind: ``best`` (the first entry) is the strongest *fast* bot, SmartBot; ``search`` is
stronger but spends up to tens of milliseconds a decision.  ``easy`` (the room's 入门) is listed above ``highest``,
which it beats by +3.96 ± 0.11 net levels a hand (docs/bots.md, *Easy bots*)."""

STRENGTHS: dict[str, str] = {"easy": "easy", "normal": "best", "strong": "search"}
"""The card room's 入门 / 普通 / 高手 (docs/bots.md, "In the card room"): 高手 is the search bot, which the room runs
in its worker processes with a time cap and falls back from to SmartBot when busy."""
