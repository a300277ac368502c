"""The 偎麻雀 state machine: deal, discards, drawn cards and their claims, wins, 臭, dealer rotation.

Four seats: the dealer, the dealer's next and previous players, and the 守醒 opposite the dealer, who never
decides.  A drawn card is 煨'd at once (face down) when the drawer holds two or three of it; otherwise it is
shown and a claim window opens in which every seat with an option decides at once; claims are then carried
out by the page's priority (win: drawer, next, previous; then 碰; then the drawer's 吃; then the next
seat's 吃 of the played-out card).

The state is declared in :mod:`.state`, the view and every word in :mod:`.view`, the payments are pure
functions in :mod:`.rules`; a claim window is the core's :class:`~paiju.core.claims.ClaimWindow`.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

from paiju.core.claims import PENDING, ClaimWindow
from paiju.core.display import GameView
from paiju.core.errors import NotationError
from paiju.core.fromview import Unseen, by_seat
from paiju.core.game import Event, Result, Window

from . import view
from .cards import NUM_KINDS, Card, alias, cards_of, counts_of, deck, parse_card, parse_cards
from .config import WeimaqueConfig
from .rules import Win, best_win, can_win_shape, next_dealer, win_points
from .state import (
    CHI_OF,
    CHI_OPTIONS,
    CLAIM,
    DISCARD,
    DISCARD_ACT,
    DISCARD_OF,
    HU,
    OVER,
    PASS,
    PENG,
    Meld,
    Phase,
    WeimaqueState,
)
from .view import ROLE_DEALER, ROLE_PLAYER, ROLE_WATCHER

__all__ = ["CLAIM", "DISCARD", "OVER", "ROLE_DEALER", "ROLE_PLAYER", "ROLE_WATCHER", "Meld", "Phase",
           "WeimaqueGame"]

DEALER_HAND = 20
PLAYER_HAND = 19
STOCK = 22


class WeimaqueGame(WeimaqueState):
    """安乡偎麻雀: a match of ``config.hands`` hands."""

    name = "weimaque"
    config_class = WeimaqueConfig
    display: ClassVar[dict[str, str]] = {"zh": "安乡偎麻雀", "en": "Anxiang Wei Maque"}
    display_code: ClassVar[GameView] = view  # the view, action labels, refusal reasons, event text
    min_seats = 4
    max_seats = 4

    # ---- setup ---------------------------------------------------------------------------------------
    def _setup(self, deal: Any) -> None:
        self.hand_no = 0
        self.tally = [0.0] * 4
        self.results = []
        self.last_result = None
        self.rules = self.config.to_dict()
        self.pending_events = []
        if deal is not None:
            dealer, hands, stock = self._parse_deal(deal)
        else:
            d = self.config.first_dealer
            dealer = self.rng.randrange(4) if d < 0 else d
            hands, stock = self._shuffle_deal(dealer)
        self._start_hand(dealer, hands, stock)

    def _shuffle_deal(self, dealer: int) -> tuple[list[list[int]], list[Card]]:
        cards = deck()
        self.rng.shuffle(cards)
        stock = cards[:STOCK]  # the 守醒 counts off the stock first
        rest = cards[STOCK:]
        order = [dealer, (dealer + 1) % 4, (dealer + 3) % 4]
        hands = [[0] * NUM_KINDS for _ in range(4)]
        for i, c in enumerate(rest[:-1]):
            hands[order[i % 3]][c] += 1
        hands[dealer][rest[-1]] += 1  # the dealer takes the last card
        return hands, stock

    def _parse_deal(self, deal: Any) -> tuple[int, list[list[int]], list[Card]]:
        """``{"dealer": d, "hands": [four strings, the 守醒's empty], "stock": "first cards drawn"}``.

        Hands are given in full (dealer 20, others 19).  The stock lists the cards in the order they will
        be drawn; cards not named anywhere are shuffled from the seed and drawn after them.
        """
        try:
            dealer = int(deal["dealer"])
            raw_hands = deal["hands"]
            stock_text = deal.get("stock", "")
        except (KeyError, TypeError, ValueError) as e:
            raise NotationError(f"bad 偎麻雀 deal: {e}") from e
        if dealer not in range(4) or len(raw_hands) != 4:
            raise NotationError("a deal needs a dealer seat 0..3 and four hands (the 守醒's empty)")
        watcher = (dealer + 2) % 4
        hands = []
        for seat, text in enumerate(raw_hands):
            cs = parse_cards(text or "")
            want = 0 if seat == watcher else DEALER_HAND if seat == dealer else PLAYER_HAND
            if len(cs) != want:
                raise NotationError(f"seat {seat} must be dealt {want} cards, not {len(cs)}")
            hands.append(counts_of(cs))
        named = parse_cards(stock_text or "")
        used = Counter(named)
        for h in hands:
            for k, n in enumerate(h):
                used[k] += n
        left = Counter(deck())
        left.subtract(used)
        if any(n < 0 for n in left.values()):
            raise NotationError("the deal uses some card more than four times")
        rest = sorted(left.elements())
        self.rng.shuffle(rest)
        if len(named) + len(rest) != STOCK:
            raise NotationError("the stock must come to 22 cards")
        # stock is drawn from the end of the list
        return dealer, hands, list(reversed(named + rest))

    def _start_hand(self, dealer: int, hands: list[list[int]], stock: list[Card]) -> None:
        self.hand_no += 1
        self.dealer = dealer
        self.watcher = (dealer + 2) % 4
        self.hands = hands
        self.stock = stock
        self.melds = [[] for _ in range(4)]
        self.discards = [[] for _ in range(4)]
        self.played = [set() for _ in range(4)]
        self.locked = [set() for _ in range(4)]
        self.guo = set()
        self.passed = [set() for _ in range(4)]
        self.phase = DISCARD
        self.turn = dealer
        self.hu_option = None
        self.exposed = -1
        self.source = ""
        self.source_seat = -1
        self.last_card = False
        self.claim = ClaimWindow()
        self.wins = {}
        self.pending_events.append({"type": "hand_start", "hand": self.hand_no, "dealer": dealer,
                                    "watcher": self.watcher, "stock": len(stock)})

    # ---- protocol --------------------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return 4

    def watch_seat(self) -> int:
        """A watching person sits as the 守醒, who sees the three hands."""
        return self.watcher

    def to_move(self) -> tuple[int, ...]:
        if self.phase == DISCARD:
            return (self.turn,)
        if self.phase == CLAIM:
            return self.claim.waiting()
        return ()

    def public_to_move(self) -> tuple[int, ...]:
        return () if self.phase == CLAIM else self.to_move()

    def window(self, seat: int) -> Window:
        return Window.CLAIM if self.phase == CLAIM else Window.TURN

    def hands_finished(self) -> int:
        return len(self.results)

    def timeout_action(self, seat: int) -> str | None:
        return "pass" if self.phase == CLAIM and seat in self.to_move() else None

    def legal_actions(self, seat: int) -> list[str]:
        if self.phase == CLAIM:
            options = self.claim.options.get(seat)
            if options is None or seat in self.claim.answers:
                return []
            return [*options, PASS]
        if self.phase == DISCARD and seat == self.turn:
            out = [DISCARD_ACT[k] for k in self.discard_kinds(seat)]
            return [HU, *out] if self.hu_option is not None else out
        return []

    def is_legal(self, seat: int, action: str) -> bool:
        """As ``action in legal_actions(seat)``, without building the list."""
        if self.phase == CLAIM:
            options = self.claim.options.get(seat)
            if options is None or seat in self.claim.answers:
                return False
            return action == PASS or action in options
        if self.phase == DISCARD and seat == self.turn:
            if action == HU:
                return self.hu_option is not None
            card = DISCARD_OF.get(action)
            return card is not None and card in self.discard_kinds(seat)
        return False

    def peng_ok(self, seat: int, card: Card) -> str | None:
        """None if ``seat`` may 碰 ``card`` now, else the rule that forbids it (in English)."""
        why = self.peng_problem(seat, card)
        return None if why is None else view.REASONS[why]["en"]

    def chi_ok(self, seat: int, card: Card, a: Card, b: Card) -> str | None:
        """None if ``seat`` may 吃 ``card`` with ``a`` and ``b`` from hand, else the rule that forbids it."""
        why = self.chi_problem(seat, card, a, b)
        return None if why is None else view.REASONS[why]["en"]

    def _chi_options(self, seat: int, card: Card) -> list[str]:
        """``seat``'s 吃 of ``card``, as :meth:`chi_problem` allows them (its checks, cheapest first)."""
        hand = self.hands[seat]
        if hand[card] >= 2 or card in self.played[seat] or self.is_guo(seat, card):
            return []
        return [act for a, b, act in CHI_OPTIONS[card] if hand[a] and hand[b] and self.leaves_discard(seat, a, b, card)]

    # ---- claim window ----------------------------------------------------------------------------------
    def _open_claim(self, card: Card, source: str, src: int, events: list[Event]) -> None:
        self.phase = CLAIM
        self.exposed, self.source, self.source_seat = card, source, src
        self._compute_options()
        if not self.claim:
            self._card_passes(events)

    def _compute_options(self) -> None:
        """Every seat's options on the exposed card, and the order in which claims are carried out."""
        card, src = self.exposed, self.source_seat
        hands = self.hands
        order: list[tuple[int, str]] = []
        opts: dict[int, list[str]] = {}
        if self.wins:
            self.wins = {}
        nxt = self.next_of(src)
        draw = self.source == "draw"
        if draw:  # only a drawn card wins: the drawer, then its next player, then its previous one
            for s in (src, nxt, self.prev_of(src)):
                own = s == src
                if can_win_shape(hands[s], card, own_draw=own):
                    w = best_win(hands[s], [(k, cs) for k, cs, _ in self.melds[s]], card, own_draw=own,
                                 last_card=self.last_card, config=self.config, counts=True)
                    if w is not None:
                        self.wins[s] = w
                        opts[s] = [HU]
                        order.append((s, HU))
        for s in self.players():  # as peng_problem allows, cheapest check first
            if s != src and hands[s][card] >= 2 and not self.is_guo(s, card) \
                    and self.leaves_discard(s, card, card, card):
                opts.setdefault(s, []).append(PENG)
                order.append((s, PENG))
        for s in ((src, nxt) if draw else (nxt,)):
            chis = self._chi_options(s, card)
            if chis:
                opts.setdefault(s, []).extend(chis)
                order.append((s, "chi"))
        if self.config.ask_everyone:  # every player who could be asked is, with nothing but pass if need be
            for s in self.players():
                if draw or s != src:
                    opts.setdefault(s, [])
        if opts or self.claim:  # an empty window stays as it is (it holds no answers)
            self.claim = ClaimWindow({s: opts[s] for s in sorted(opts)}, order)

    def _resolve(self, events: list[Event]) -> None:
        """Carry out the best claim once every seat that could outrank it has answered."""
        best = self.claim.best()
        if best is PENDING:
            return
        if best is None:
            self._note_passes(taken_by=-1)
            self._card_passes(events)
            return
        assert isinstance(best, tuple)
        seat, answer = best
        kind = answer.partition(" ")[0]
        self._note_passes(taken_by=seat if kind in ("peng", "chi") else -1)
        if kind == "hu":
            self._win(seat, self.wins[seat], events)
        elif kind == "peng":
            self._peng(seat, events)
        else:
            self._chi(seat, *CHI_OF[answer], events)

    def _note_passes(self, taken_by: int) -> None:
        """Under the passer reading of 过张, a seat that could 碰 or 吃 the card and passed may not take it later."""
        if self.config.guozhang != "passer":
            return
        options = self.claim.options
        for s, ans in self.claim.answers.items():
            if ans == "pass" and s != taken_by and any(o == "peng" or o.startswith("chi") for o in options[s]):
                self.passed[s].add(self.exposed)

    def _card_passes(self, events: list[Event]) -> None:
        """Nobody takes the card: it lies in front of whoever showed it, and that seat's next player draws."""
        card, src = self.exposed, self.source_seat
        self.discards[src].append(card)
        self.played[src].add(card)
        self.guo.add(card)
        if self.source == "draw":
            events.append({"type": "played_out", "seat": src, "card": alias(card)})
        self._clear_exposed()
        self._draw(self.next_of(src), events)

    def _clear_exposed(self) -> None:
        self.exposed, self.source, self.source_seat = -1, "", -1
        if self.claim:
            self.claim = ClaimWindow()
        if self.wins:
            self.wins = {}

    # ---- moves -----------------------------------------------------------------------------------------
    def _draw(self, seat: int, events: list[Event]) -> None:
        if not self.stock:
            self._chou(events)
            return
        card = self.stock.pop()
        self.last_card = not self.stock
        hand = self.hands[seat]
        if hand[card] >= 2:
            hand[card] -= 2
            self.melds[seat].append(("wei", (card, card, card), card))
            events.append({"type": "wei", "seat": seat, "stock": len(self.stock)})
            self.phase, self.turn, self.hu_option = DISCARD, seat, self._wei_win(seat)
            return
        events.append({"type": "draw", "seat": seat, "card": alias(card), "stock": len(self.stock)})
        self._open_claim(card, "draw", seat, events)

    def _wei_win(self, seat: int) -> Win | None:
        """The win open to ``seat`` just after its 煨 (its last meld), scored on the hand as it was before."""
        card = self.melds[seat][-1][1][0]
        hand = list(self.hands[seat])
        hand[card] += 2
        if not can_win_shape(hand, card, own_draw=True):
            return None
        return best_win(hand, [(k, cs) for k, cs, _ in self.melds[seat][:-1]], card, own_draw=True,
                        last_card=self.last_card, config=self.config, counts=True)

    def _peng(self, seat: int, events: list[Event]) -> None:
        card = self.exposed
        self.hands[seat][card] -= 2
        self.melds[seat].append(("peng", (card, card, card), card))
        self.locked[seat].add(card)
        events.append({"type": "peng", "seat": seat, "card": alias(card), "from": self.source_seat})
        self._clear_exposed()
        self.phase, self.turn, self.hu_option = DISCARD, seat, None

    def _chi(self, seat: int, a: Card, b: Card, events: list[Event]) -> None:
        card, src = self.exposed, self.source_seat
        self.hands[seat][a] -= 1
        self.hands[seat][b] -= 1
        self.melds[seat].append(("chi", tuple(sorted((a, b, card))), card))
        self.locked[seat].add(card)
        self.guo.add(card)
        if seat != src:
            self.played[src].add(card)  # the drawer played it out before the next seat took it
        events.append({"type": "chi", "seat": seat, "card": alias(card), "with": [alias(a), alias(b)],
                       "from": src})
        self._clear_exposed()
        self.phase, self.turn, self.hu_option = DISCARD, seat, None

    def _discard(self, seat: int, card: Card, events: list[Event]) -> None:
        self.hands[seat][card] -= 1
        self.played[seat].add(card)
        self.hu_option = None
        events.append({"type": "discard", "seat": seat, "card": alias(card)})
        self._open_claim(card, "discard", seat, events)

    def _apply(self, seat: int, action: str) -> list[Event]:
        events: list[Event] = self.pending_events
        self.pending_events = []
        if self.phase == CLAIM:
            self.claim.answer(seat, action)
            self._resolve(events)
        elif action == HU:
            assert self.hu_option is not None
            self._win(seat, self.hu_option, events)
        else:
            self._discard(seat, DISCARD_OF[action], events)
        return events

    # ---- the end of a hand -----------------------------------------------------------------------------
    def _win(self, seat: int, win: Win, events: list[Event]) -> None:
        points = win_points(seat, self.players(), win.total, self.config.payment)
        src = self.source_seat if self.phase == CLAIM else seat
        if self.phase == CLAIM and self.exposed >= 0:
            self.hands[seat][self.exposed] += 1  # the winning card joins the shown hand
            self.exposed = -1
        result = view.win_result(self, seat, win, points, src)
        events.append({"type": "hu", "seat": seat, "card": alias(win.win_card), "drawn_by": src,
                       "hand": {"melds": [[k, [alias(c) for c in cs]] for k, cs, _ in self.melds[seat]],
                                "concealed": [alias(c) for c in cards_of(self.hands[seat])]}})
        self._end_hand(result, points, seat, events)

    def _chou(self, events: list[Event]) -> None:
        events.append({"type": "chou"})
        self._end_hand(view.chou_result(self), [0.0] * 4, None, events)

    def _end_hand(self, result: dict[str, Any], points: list[float], winner: int | None,
                  events: list[Event]) -> None:
        for s in range(4):
            self.tally[s] += points[s]
        self.results.append(result)
        self.last_result = result
        events.append({"type": "settle", **{k: v for k, v in result.items() if k != "lines"},
                       "lines": result["lines"], "totals": list(self.tally)})
        self._clear_exposed()
        self.hu_option = None
        dealer = next_dealer(self.dealer, winner)
        if self.hand_no >= self.config.hands:
            self.phase = OVER
            events.append({"type": "match_end", "totals": list(self.tally)})
            return
        hands, stock = self._shuffle_deal(dealer)
        self._start_hand(dealer, hands, stock)
        events.extend(self.pending_events)
        self.pending_events = []

    # ---- results ---------------------------------------------------------------------------------------
    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        return Result(tuple(self.tally), {"hands": self.results})

    def totals(self) -> tuple[float, ...]:
        return tuple(self.tally)

    def inventory(self) -> Counter[Any]:
        inv: Counter[Any] = Counter()
        for s in range(4):
            for k, n in enumerate(self.hands[s]):
                if n:
                    inv[k] += n
            for _, cs, _ in self.melds[s]:
                inv.update(cs)
            inv.update(self.discards[s])
        inv.update(self.stock)
        if self.exposed >= 0:
            inv[self.exposed] += 1
        return inv

    # ---- a game from a seat's view (issue 37) ------------------------------------------------------
    @classmethod
    def _from_view(cls, view: dict[str, Any]) -> WeimaqueGame:
        """The hand as ``view`` shows it.  Hands the viewer cannot see, the face-down 煨 and the stock get unseen
        cards (the resample deals them afresh, a 煨 as three of a kind); the claim window and the win after a 煨
        follow from the cards.  Not in any view, so not rebuilt: the earlier hands' results (``results`` holds the
        last one and empty placeholders, so ``hands_finished`` and the result's length are right) and the 过张
        kinds under the passer reading that no rule reads (``guo``)."""
        g = cls(WeimaqueConfig.from_dict(view["rules"]), 0)
        viewer = int(view["viewer"])
        g.hand_no = int(view["hand_no"])
        g.tally = [float(t) for t in view["totals"]]
        g.phase = Phase(view["phase"])
        g.last_result = view["table"]["last_result"]
        done = g.hand_no - (0 if g.phase == OVER else 1)
        g.results = [{} for _ in range(max(0, done - 1))] + ([g.last_result] if done > 0 and g.last_result else [])
        g.pending_events = []
        g.dealer, g.watcher = int(view["dealer"]), int(view["watcher"])
        shown_hands = by_seat(view.get("hands"))
        if "hand" in view:
            shown_hands[viewer] = view["hand"]
        hands = {s: counts_of(parse_cards(h)) for s, h in shown_hands.items()}
        if viewer == g.watcher:
            hands[viewer] = [0] * NUM_KINDS
        melds: list[list[Meld]] = [[] for _ in range(4)]
        seen: list[Card] = [c for h in hands.values() for c in cards_of(h)]
        face_down: list[tuple[int, int]] = []
        for s in range(4):
            for i, m in enumerate(view["melds"][s]):
                if m["cards"][0] == "??":
                    face_down.append((s, i))
                    melds[s].append(("wei", (-1, -1, -1), -1))
                    continue
                cs = tuple(parse_cards(m["cards"]))
                seen.extend(cs)
                melds[s].append((m["kind"], cs, parse_card(m["claimed"]) if m["claimed"] is not None else cs[0]))
        g.discards = [parse_cards(d) for d in view["discards"]]
        seen += [c for d in g.discards for c in d]
        exposed = view["exposed"]
        g.exposed = parse_card(exposed["card"]) if exposed is not None else -1
        g.source = exposed["source"] if exposed is not None else ""
        g.source_seat = int(exposed["seat"]) if exposed is not None else -1
        if g.exposed >= 0:
            seen.append(g.exposed)
        unseen = Unseen(deck(), seen)
        for s, i in face_down:
            cs = tuple(unseen.take_set(3))
            melds[s][i] = ("wei", cs, cs[0])
        g.melds = melds
        g.hands = [hands[s] if s in hands else unseen.take_counts(int(view["hand_counts"][s]), NUM_KINDS)
                   for s in range(4)]
        g.stock = unseen.take(int(view["stock"]))
        if unseen.rest():
            raise ValueError("the view's counts do not account for every card")
        g.last_card = not g.stock
        g.played = [{parse_card(c) for c in p} for p in view["played"]]
        g.locked = [{parse_card(c) for c in p} for p in view["locked"]]
        passed = {parse_card(c) for c in view["guozhang"]}
        g.guo = passed if g.config.guozhang == "global" else set()
        g.passed = [passed if s == viewer and g.config.guozhang != "global" else set() for s in range(4)]
        g.turn = int(view["turn"]) if view["turn"] is not None else max(g.source_seat, 0)
        g.hu_option = None
        g.wins = {}
        g.claim = ClaimWindow()
        if g.phase == DISCARD and g.melds[g.turn] and g.melds[g.turn][-1][0] == "wei":
            g.hu_option = g._wei_win(g.turn)
        if g.phase == CLAIM:
            g._compute_options()
            mine = view["claim"]["answer"] if view["claim"] is not None else None
            if mine is not None:
                g.claim.answer(viewer, mine)
        return g

    # ---- resampling: what the declaration cannot say ------------------------------------------------
    def _hidden_wei(self, viewer: int) -> list[tuple[int, int]]:
        """(seat, meld index) of every 煨 lying face down to ``viewer``."""
        return [(s, i) for s in self.players() if not self.sees("hands", viewer, s)
                for i, m in enumerate(self.melds[s]) if m[0] == "wei"]

    def _resample_gather(self, viewer: int) -> list[int]:
        """A face-down 煨 is three cards of its owner's hidden hand: they join the pool."""
        return [c for s, i in self._hidden_wei(viewer) for c in self.melds[s][i][1]]

    def _resample_place(self, viewer: int, pool: list[int], rng: random.Random) -> list[int]:
        """Each face-down 煨 becomes three of a kind found at least three times in the pool, at random."""
        rest = list(pool)
        for s, i in self._hidden_wei(viewer):
            counts = Counter(rest)
            kinds = sorted(k for k, n in counts.items() if n >= 3)
            k = kinds[rng.randrange(len(kinds))]
            for _ in range(3):
                rest.remove(k)
            self.melds[s][i] = ("wei", (k, k, k), k)
        return rest

    def _resample_ok(self, viewer: int) -> bool:
        """Keep only deals the viewer cannot rule out: a drawer shows a card only when it holds fewer than two of
        it (else it would have 煨'd it), and an open window is still waiting for somebody — re-derived from the
        new hands, some seat must still be deciding that could outrank the viewer's own answer."""
        if self.phase != CLAIM:
            return True
        self._forget_passes(viewer)  # before the window is re-derived: 过张 bars claims
        src = self.source_seat
        if self.source == "draw" and self.hands[src][self.exposed] >= 2:
            return False
        self._rederive_window(viewer)
        return self.claim.best() is PENDING

    def _rederive_window(self, viewer: int) -> None:
        """The claim window as the new hands make it: who may claim what is found afresh, and only the viewer's
        own answer stays (nobody else's was shown to it)."""
        mine = self.claim.answers.get(viewer)
        self._compute_options()
        if mine is not None:
            self.claim.answer(viewer, mine)

    def _rederive(self, viewer: int, rng: random.Random) -> None:
        """What follows from the new cards: the turn seat's win after a 煨, the claim window (with no other seat's
        answer), and nobody's 过张 but the viewer's own."""
        self._forget_passes(viewer)
        if self.phase == DISCARD:
            seat = self.turn
            melds = self.melds[seat]
            if not self.sees("hands", viewer, seat):
                self.hu_option = self._wei_win(seat) if melds and melds[-1][0] == "wei" else None
        elif self.phase == CLAIM:
            self._rederive_window(viewer)
            if self.claim.best() is not PENDING:
                self._keep_waiting(viewer)

    def _forget_passes(self, viewer: int) -> None:
        """Whom another seat let a card go by (the passer reading of 过张) was never shown to the viewer."""
        for s in range(4):
            if self.passed[s] and not self.sees("passed", viewer, s):
                self.passed[s] = set()

    def _keep_waiting(self, viewer: int) -> None:
        """No deal tried gave a seat that outranks the viewer's answer (a win on the card can be rare): one seat
        the viewer cannot see keeps a decision at the head of the window, as if it could claim, and may only pass.
        The viewer knows no more than that somebody is still deciding, and the copy stays playable."""
        src = self.source_seat
        seats: tuple[int, ...]
        if self.source == "draw":
            seats, kind = (src, self.next_of(src), self.prev_of(src)), "hu"
        else:
            seats, kind = tuple(s for s in self.players() if s != src), "peng"
        seat = next((s for s in seats if s != viewer and not self.sees("hands", viewer, s)), None)
        if seat is None:
            return
        old = self.claim
        options = {s: old.options.get(s, []) for s in sorted({*old.options, seat})}
        window = ClaimWindow(options, [(seat, kind), *old.priority])
        window.answers = old.answers.copy()
        self.claim = window
