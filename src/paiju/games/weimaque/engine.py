"""The 偎麻雀 state machine: deal, discards, drawn cards and their claims, wins, 臭, dealer rotation.

Four seats: the dealer, the dealer's next and previous players, and the 守醒 opposite the dealer, who never
decides.  A drawn card is 煨'd at once (face down) when the drawer holds two or three of it; otherwise it is
shown and a claim window opens in which every seat with an option decides at once; claims are then carried
out by the page's priority (win: drawer, next, previous; then 碰; then the drawer's 吃; then the next
seat's 吃 of the played-out card).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar, Self

from paiju.core.errors import NotationError
from paiju.core.game import OMNISCIENT, Event, Game, Result, View, Window

from .cards import NUM_KINDS, Card, alias, cards_of, char, counts_of, deck, parse_card, parse_cards
from .config import WeimaqueConfig
from .rules import GROUP_EN, GROUP_ZH, Win, best_win, can_win_shape

Meld = tuple[str, tuple[Card, ...], int]
"""(kind, cards, claimed card or -1): kind is peng, chi or wei."""

DEALER_HAND = 20
PLAYER_HAND = 19
STOCK = 22

ROLE_DEALER = {"zh": "庄", "en": "dealer"}
ROLE_PLAYER = {"zh": "闲", "en": "player"}
ROLE_WATCHER = {"zh": "守醒", "en": "watcher"}


def _lbl(zh: str, en: str) -> dict[str, str]:
    return {"zh": zh, "en": en}


class WeimaqueGame(Game[WeimaqueConfig]):
    """安乡偎麻雀: a match of ``config.hands`` hands."""

    name = "weimaque"
    config_class = WeimaqueConfig
    display: ClassVar[dict[str, str]] = {"zh": "安乡偎麻雀", "en": "Anxiang Wei Maque"}
    min_seats = 4
    max_seats = 4

    # ---- setup ---------------------------------------------------------------------------------------
    def _setup(self, deal: Any) -> None:
        self.hand_no = 0
        self.tally: list[float] = [0.0] * 4
        self.results: list[dict[str, Any]] = []
        self.last_result: dict[str, Any] | None = None
        self.match_over = False
        self.pending_events: list[Event] = []
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
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.discards: list[list[Card]] = [[] for _ in range(4)]
        self.played: list[set[Card]] = [set() for _ in range(4)]  # kinds each seat discarded or played out
        self.locked: list[set[Card]] = [set() for _ in range(4)]  # kinds each seat 碰'd or 吃'd
        self.guo: set[Card] = set()  # 过张 kinds (global reading)
        self.passed: list[set[Card]] = [set() for _ in range(4)]  # 过张 per seat (passer reading)
        self.phase = "discard"
        self.turn = dealer
        self.hu_option: Win | None = None
        self.exposed = -1
        self.source = ""
        self.source_seat = -1
        self.last_card = False
        self.options: dict[int, list[str]] = {}
        self.responses: dict[int, str] = {}
        self.order: list[tuple[int, str]] = []
        self.wins: dict[int, Win] = {}
        self.pending_events.append({"type": "hand_start", "hand": self.hand_no, "dealer": dealer,
                                    "watcher": self.watcher, "stock": len(stock)})

    # ---- seats -----------------------------------------------------------------------------------------
    def watcher_seat(self) -> int:
        """The 守醒 of the current hand (the seat opposite the dealer): ``paiju play --watch`` sits here."""
        return self.watcher

    def watch_seat(self) -> int:
        """A watching person sits as the 守醒, who sees the three hands."""
        return self.watcher

    def players(self) -> tuple[int, int, int]:
        return (self.dealer, self.next_of(self.dealer), self.prev_of(self.dealer))

    def next_of(self, seat: int) -> int:
        s = (seat + 1) % 4
        return (s + 1) % 4 if s == self.watcher else s

    def prev_of(self, seat: int) -> int:
        s = (seat + 3) % 4
        return (s + 3) % 4 if s == self.watcher else s

    # ---- protocol --------------------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return 4

    @property
    def finished(self) -> bool:
        return self.match_over

    def to_move(self) -> tuple[int, ...]:
        if self.match_over:
            return ()
        if self.phase == "discard":
            return (self.turn,)
        return tuple(s for s in sorted(self.options) if s not in self.responses)

    def public_to_move(self) -> tuple[int, ...]:
        return () if self.phase == "claim" else self.to_move()

    def window(self, seat: int) -> Window:
        return Window.CLAIM if self.phase == "claim" else Window.TURN

    def timeout_action(self, seat: int) -> str | None:
        return "pass" if self.phase == "claim" and seat in self.to_move() else None

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_move():
            return []
        if self.phase == "claim":
            return [*self.options[seat], "pass"]
        out = ["hu"] if self.hu_option is not None else []
        return out + [f"discard {alias(k)}" for k in self.discard_kinds(seat)]

    def is_legal(self, seat: int, action: str) -> bool:
        return action in self.legal_actions(seat)

    # ---- restrictions ----------------------------------------------------------------------------------
    def _free_kinds(self, hand: list[int], locked: set[Card]) -> list[Card]:
        return [k for k in range(NUM_KINDS) if 0 < hand[k] < 3 and k not in locked]

    def discard_kinds(self, seat: int) -> list[Card]:
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

    def _is_guo(self, seat: int, card: Card) -> bool:
        return card in (self.guo if self.config.guozhang == "global" else self.passed[seat])

    def _leaves_discard(self, seat: int, remove: tuple[Card, ...], lock: Card) -> bool:
        hand = list(self.hands[seat])
        for c in remove:
            hand[c] -= 1
        return bool(self._free_kinds(hand, self.locked[seat] | {lock}))

    def peng_ok(self, seat: int, card: Card) -> str | None:
        """None if ``seat`` may 碰 ``card`` now, else the rule that forbids it."""
        if self.hands[seat][card] < 2:
            return "碰 needs two of the card in hand"
        if self._is_guo(seat, card):
            return "过张: this card has been shown before without a 碰, so it cannot be 碰'd (过张牌不能碰)"
        if not self._leaves_discard(seat, (card, card), card):
            return "after this 碰 nothing in hand could be discarded"
        return None

    def chi_ok(self, seat: int, card: Card, a: Card, b: Card) -> str | None:
        """None if ``seat`` may 吃 ``card`` with ``a`` and ``b`` from hand, else the rule that forbids it."""
        if not self.hands[seat][a] or not self.hands[seat][b] or (a == b and self.hands[seat][a] < 2):
            return "吃 uses two cards from your hand"
        run = sorted((a, b, card))
        if not (run[1] == run[0] + 1 and run[2] == run[0] + 2 and run[0] // 10 == run[2] // 10):
            return "吃 makes a run of three within one size (big with big, small with small; no 二七十)"
        if self.hands[seat][card] >= 2:
            return "a card you could 碰 cannot be 吃'd (可以碰的牌不能吃)"
        if card in self.played[seat]:
            return "you cannot 吃 a card you have discarded yourself (自己出过的牌不能吃)"
        if self._is_guo(seat, card):
            return "过张: this card has been shown before without a 碰, so it cannot be 吃'd (过张牌不能吃)"
        if not self._leaves_discard(seat, (a, b), card):
            return "after this 吃 nothing in hand could be discarded"
        return None

    def _chi_options(self, seat: int, card: Card) -> list[str]:
        out = []
        hand = self.hands[seat]
        for lo in (card - 2, card - 1, card):
            if lo < 0 or lo % 10 > 7 or lo // 10 != card // 10:
                continue  # the run would leave its size (no 九十壹, no wrap-around)
            others = [k for k in (lo, lo + 1, lo + 2) if k != card]
            if not all(hand[k] for k in others):
                continue
            if self.chi_ok(seat, card, others[0], others[1]) is None:
                out.append(f"chi {alias(others[0])} {alias(others[1])}")
        return out

    # ---- claim window ----------------------------------------------------------------------------------
    def _open_claim(self, card: Card, source: str, src: int, events: list[Event]) -> None:
        self.phase = "claim"
        self.exposed, self.source, self.source_seat = card, source, src
        self.options, self.responses, self.wins = {}, {}, {}
        self._compute_options()
        if not self.options:
            self._card_passes(events)

    def _compute_options(self) -> None:
        """Every seat's options on the exposed card, and the order in which claims are carried out."""
        card, src = self.exposed, self.source_seat
        order: list[tuple[int, str]] = []
        opts: dict[int, list[str]] = {}
        self.wins = {}
        if self.source == "draw":
            for s in (src, self.next_of(src), self.prev_of(src)):
                own = s == src
                if can_win_shape(self.hands[s], card, own_draw=own):
                    w = best_win(self.hands[s], [(k, cs) for k, cs, _ in self.melds[s]], card, own_draw=own,
                                 last_card=self.last_card, config=self.config, counts=True)
                    if w is not None:
                        self.wins[s] = w
                        opts.setdefault(s, []).append("hu")
                        order.append((s, "hu"))
        for s in self.players():
            if s != src and self.peng_ok(s, card) is None:
                opts.setdefault(s, []).append("peng")
                order.append((s, "peng"))
        chi_seats = (src, self.next_of(src)) if self.source == "draw" else (self.next_of(src),)
        for s in chi_seats:
            chis = self._chi_options(s, card)
            if chis:
                opts.setdefault(s, []).extend(chis)
                order.append((s, "chi"))
        self.options, self.order = opts, order

    def _resolve(self, events: list[Event]) -> None:
        """Carry out the best claim once every seat that could outrank it has answered."""
        for seat, kind in self.order:
            if seat not in self.responses:
                return
            answer = self.responses[seat]
            if answer.split(" ", 1)[0] != kind:
                continue
            self._note_passes(taken_by=seat if kind in ("peng", "chi") else -1)
            if kind == "hu":
                self._win(seat, self.wins[seat], events)
            elif kind == "peng":
                self._peng(seat, events)
            else:
                a, b = (parse_card(t) for t in answer.split()[1:])
                self._chi(seat, a, b, events)
            return
        self._note_passes(taken_by=-1)
        self._card_passes(events)

    def _note_passes(self, taken_by: int) -> None:
        for s, ans in self.responses.items():
            if ans == "pass" and s != taken_by and any(o == "peng" or o.startswith("chi") for o in self.options[s]):
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
        self.options, self.responses, self.order, self.wins = {}, {}, [], {}

    # ---- moves -----------------------------------------------------------------------------------------
    def _draw(self, seat: int, events: list[Event]) -> None:
        if not self.stock:
            self._chou(events)
            return
        card = self.stock.pop()
        self.last_card = not self.stock
        hand = self.hands[seat]
        if hand[card] >= 2:
            melds = [(k, cs) for k, cs, _ in self.melds[seat]]
            win = None
            if can_win_shape(hand, card, own_draw=True):
                win = best_win(hand, melds, card, own_draw=True, last_card=self.last_card, config=self.config,
                               counts=True)
            hand[card] -= 2
            self.melds[seat].append(("wei", (card, card, card), card))
            events.append({"type": "wei", "seat": seat, "stock": len(self.stock)})
            self.phase, self.turn, self.hu_option = "discard", seat, win
            return
        events.append({"type": "draw", "seat": seat, "card": alias(card), "stock": len(self.stock)})
        self._open_claim(card, "draw", seat, events)

    def _peng(self, seat: int, events: list[Event]) -> None:
        card = self.exposed
        self.hands[seat][card] -= 2
        self.melds[seat].append(("peng", (card, card, card), card))
        self.locked[seat].add(card)
        events.append({"type": "peng", "seat": seat, "card": alias(card), "from": self.source_seat})
        self._clear_exposed()
        self.phase, self.turn, self.hu_option = "discard", seat, None

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
        self.phase, self.turn, self.hu_option = "discard", seat, None

    def _discard(self, seat: int, card: Card, events: list[Event]) -> None:
        self.hands[seat][card] -= 1
        self.played[seat].add(card)
        self.hu_option = None
        events.append({"type": "discard", "seat": seat, "card": alias(card)})
        self._open_claim(card, "discard", seat, events)

    def _apply(self, seat: int, action: str) -> list[Event]:
        events: list[Event] = self.pending_events
        self.pending_events = []
        if self.phase == "claim":
            self.responses[seat] = action
            self._resolve(events)
        elif action == "hu":
            assert self.hu_option is not None
            self._win(seat, self.hu_option, events)
        else:
            self._discard(seat, parse_card(action.split()[1]), events)
        return events

    # ---- the end of a hand -----------------------------------------------------------------------------
    def _win(self, seat: int, win: Win, events: list[Event]) -> None:
        others = [s for s in self.players() if s != seat]
        t = float(win.total)
        share = t if self.config.payment == "each" else t / 2
        points = [0.0] * 4
        points[seat] = share * len(others)
        for s in others:
            points[s] = -share
        src = self.source_seat if self.phase == "claim" else seat
        if self.phase == "claim" and self.exposed >= 0:
            self.hands[seat][self.exposed] += 1  # the winning card joins the shown hand
            self.exposed = -1
        detail = win.to_dict()
        lines = [{"zh": f"{GROUP_ZH[ln['kind']]} {''.join(char(parse_card(c)) for c in ln['cards'])}"
                        f"{' ' + ln['note'] if ln['note'] else ''}: {ln['xi']} 息",
                  "en": f"{GROUP_EN[ln['kind']]} {' '.join(ln['cards'])}"
                        f"{' (' + ln['note'] + ')' if ln['note'] else ''}: {ln['xi']} xi",
                  "points": [0.0] * 4} for ln in detail["groups"]]
        lines.append({"zh": f"硬息 {win.hard_xi}", "en": f"hard xi {win.hard_xi}", "points": [0.0] * 4})
        for h in win.mingtang:
            sign = "×" if h.kind == "mult" else "+"
            lines.append({"zh": f"{h.zh} {sign}{h.value}", "en": f"{h.en} {sign}{h.value}", "points": [0.0] * 4})
        lines.append({"zh": f"总息 {win.total}", "en": f"total xi {win.total}", "points": points})
        result = {"title": _lbl(f"座位{seat}胡牌", f"seat {seat} wins"), "lines": lines, "scores": points,
                  "winner": seat, "drawn_by": src, "win": detail, "hand": self.hand_no}
        events.append({"type": "hu", "seat": seat, "card": alias(win.win_card), "drawn_by": src,
                       "hand": {"melds": [[k, [alias(c) for c in cs]] for k, cs, _ in self.melds[seat]],
                                "concealed": [alias(c) for c in cards_of(self.hands[seat])]}})
        self._end_hand(result, points, seat, events)

    def _chou(self, events: list[Event]) -> None:
        result = {"title": _lbl("臭(流局)", "drawn out (臭)"),
                  "lines": [{"zh": "无人胡牌", "en": "nobody won", "points": [0.0] * 4}],
                  "scores": [0.0] * 4, "winner": None, "hand": self.hand_no}
        events.append({"type": "chou"})
        self._end_hand(result, [0.0] * 4, None, events)

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
        next_dealer = self.dealer if winner == self.dealer else (self.dealer + 1) % 4
        if self.hand_no >= self.config.hands:
            self.match_over = True
            self.phase = "over"
            events.append({"type": "match_end", "totals": list(self.tally)})
            return
        hands, stock = self._shuffle_deal(next_dealer)
        self._start_hand(next_dealer, hands, stock)
        events.extend(self.pending_events)
        self.pending_events = []

    # ---- results ---------------------------------------------------------------------------------------
    def result(self) -> Result | None:
        if not self.match_over:
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

    # ---- copies ----------------------------------------------------------------------------------------
    def clone(self) -> Self:
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.history = list(self.history)
        g.tally = list(self.tally)
        g.results = list(self.results)
        g.pending_events = list(self.pending_events)
        g.hands = [list(h) for h in self.hands]
        g.stock = list(self.stock)
        g.melds = [list(m) for m in self.melds]
        g.discards = [list(d) for d in self.discards]
        g.played = [set(p) for p in self.played]
        g.locked = [set(p) for p in self.locked]
        g.guo = set(self.guo)
        g.passed = [set(p) for p in self.passed]
        g.options = {s: list(o) for s, o in self.options.items()}
        g.responses = dict(self.responses)
        g.order = list(self.order)
        g.wins = dict(self.wins)
        return g

    def _sees_hand(self, viewer: int, seat: int) -> bool:
        if viewer in (OMNISCIENT, seat):
            return True
        return viewer == self.watcher and seat != self.watcher

    def resample(self, viewer: int, rng: random.Random) -> Self:
        g = self.clone()
        if viewer == OMNISCIENT:
            return g
        hidden = [s for s in self.players() if not self._sees_hand(viewer, s)]
        pool: list[Card] = list(g.stock)
        for s in hidden:
            pool.extend(cards_of(g.hands[s]))
        wei_slots = [(s, i) for s in hidden for i, m in enumerate(g.melds[s]) if m[0] == "wei"]
        for s, i in wei_slots:
            pool.extend(g.melds[s][i][1])
        rng.shuffle(wei_slots)
        for s, i in wei_slots:
            counts = Counter(pool)
            kinds = sorted(k for k, n in counts.items() if n >= 3)
            k = kinds[rng.randrange(len(kinds))]
            for _ in range(3):
                pool.remove(k)
            g.melds[s][i] = ("wei", (k, k, k), k)
        rng.shuffle(pool)
        for s in hidden:
            n = sum(g.hands[s])
            g.hands[s] = counts_of(pool[:n])
            del pool[:n]
        g.stock = pool
        g._refresh_options(viewer)
        return g

    def _refresh_options(self, viewer: int) -> None:
        """After a resample, other seats' options follow their new hands (the deciding seats stay)."""
        if self.phase == "discard" and self.hu_option is not None and self.turn != viewer:
            seat = self.turn
            _, cs, _ = self.melds[seat][-1]
            hand = list(self.hands[seat])
            hand[cs[0]] += 2
            self.hu_option = best_win(hand, [(k, c) for k, c, _ in self.melds[seat][:-1]], cs[0], own_draw=True,
                                      last_card=not self.stock, config=self.config, counts=True)
        if self.phase == "claim":
            seats = list(self.options)
            mine = self.options.get(viewer)
            self._compute_options()
            fresh = self.options
            self.options = {s: fresh.get(s, []) for s in seats}
            if mine is not None:
                self.options[viewer] = mine
            self.order = [(s, k) for s, k in self.order if s in self.options]

    # ---- views -----------------------------------------------------------------------------------------
    def _role(self, seat: int) -> dict[str, str]:
        if seat == self.watcher:
            return ROLE_WATCHER
        return ROLE_DEALER if seat == self.dealer else ROLE_PLAYER

    def _meld_view(self, seat: int, viewer: int) -> list[dict[str, Any]]:
        out = []
        for kind, cs, taken in self.melds[seat]:
            face_down = kind == "wei" and not self._sees_hand(viewer, seat)
            out.append({"kind": kind, "label": _lbl(GROUP_ZH[kind], GROUP_EN[kind]),
                        "cards": ["??"] * 3 if face_down else [alias(c) for c in cs],
                        "claimed": None if kind == "wei" or taken < 0 else alias(taken)})
        return out

    def _phase_label(self) -> dict[str, str]:
        if self.match_over:
            return _lbl("终局", "match over")
        if self.phase == "claim":
            what = "揭牌" if self.source == "draw" else "出牌"
            return _lbl(f"{what}{char(self.exposed)}: 等待碰/吃/胡", f"{alias(self.exposed)} shown: claims")
        return _lbl(f"座位{self.turn}出牌", f"seat {self.turn} to discard")

    def _view(self, viewer: int) -> View:
        seats = []
        for s in range(4):
            visible = self._sees_hand(viewer, s) and s != self.watcher
            hand = [alias(c) for c in cards_of(self.hands[s])] if visible else None
            note = None
            if s == self.watcher:
                note = _lbl("守醒: 不出牌, 可看三家手牌", "watcher: plays no card, sees the three hands")
            seats.append({"seat": s, "role": self._role(s), "hand": hand, "hand_count": sum(self.hands[s]),
                          "groups": self._meld_view(s, viewer),
                          "discards": [alias(c) for c in self.discards[s]], "note": note})
        center = [{"label": _lbl("底牌", "stock"), "cards": ["??"] * len(self.stock)}]
        if self.exposed >= 0:
            label = _lbl("揭出", "drawn") if self.source == "draw" else _lbl("打出", "discarded")
            center.append({"label": label, "cards": [alias(self.exposed)]})
        info = [_lbl(f"第{self.hand_no}局 / 共{self.config.hands}局", f"hand {self.hand_no} of {self.config.hands}"),
                _lbl(f"庄家 座位{self.dealer}", f"dealer: seat {self.dealer}"),
                _lbl(f"守醒 座位{self.watcher}", f"watcher: seat {self.watcher}"),
                _lbl(f"底牌剩 {len(self.stock)} 张", f"{len(self.stock)} cards in the stock")]
        if self.config.guozhang == "global" and self.guo:
            info.append(_lbl("过张: " + "".join(char(c) for c in sorted(self.guo)),
                             "passed cards: " + " ".join(alias(c) for c in sorted(self.guo))))
        table = {"card_style": "paper", "phase": self._phase_label(), "info": info, "seats": seats,
                 "center": center, "select": None, "last_result": self.last_result}
        view: View = {
            "table": table,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "watcher": self.watcher,
            "players": list(self.players()),
            "phase": "over" if self.match_over else self.phase,
            "turn": self.turn if self.phase == "discard" and not self.match_over else None,
            "stock": len(self.stock),
            "last_card": self.last_card if self.exposed >= 0 else False,
            "exposed": None if self.exposed < 0 else {"card": alias(self.exposed), "source": self.source,
                                                      "seat": self.source_seat},
            "melds": [self._meld_view(s, viewer) for s in range(4)],
            "discards": [[alias(c) for c in d] for d in self.discards],
            "played": [sorted(alias(c) for c in p) for p in self.played],
            "locked": [sorted(alias(c) for c in p) for p in self.locked],
            "hand_counts": [sum(h) for h in self.hands],
            "guozhang": sorted(alias(c) for c in self.guo) if self.config.guozhang == "global" else
            (sorted(alias(c) for c in self.passed[viewer]) if 0 <= viewer < 4 else []),
        }
        if viewer == OMNISCIENT:
            view["stock_cards"] = [alias(c) for c in reversed(self.stock)]
        if viewer >= 0 and viewer != self.watcher:
            view["hand"] = [alias(c) for c in cards_of(self.hands[viewer])]
            view["kan"] = [alias(k) for k in range(NUM_KINDS) if self.hands[viewer][k] >= 3]
        elif viewer == self.watcher or viewer == OMNISCIENT:
            view["hands"] = {str(s): [alias(c) for c in cards_of(self.hands[s])] for s in self.players()}
        return view

    # ---- labels ----------------------------------------------------------------------------------------
    def describe(self, action: str, lang: str = "zh") -> str:
        zh = lang == "zh"
        parts = action.split()
        try:
            if parts[0] == "discard":
                c = parse_card(parts[1])
                return f"出 {char(c)}" if zh else f"discard {alias(c)}"
            if parts[0] == "chi":
                a, b = parse_card(parts[1]), parse_card(parts[2])
                return f"吃 (用{char(a)}{char(b)})" if zh else f"chi with {alias(a)} {alias(b)}"
        except (IndexError, NotationError):
            return action
        return {"hu": ("胡", "win (hu)"), "peng": ("碰", "pung (peng)"), "pass": ("过", "pass")}.get(
            action, (action, action))[0 if zh else 1]

    def why_illegal(self, seat: int, action: str) -> str:
        if seat == self.watcher:
            return "the 守醒 plays no card and never decides"
        parts = action.split() if isinstance(action, str) else []
        try:
            if self.phase == "discard" and parts[:1] == ["discard"] and len(parts) == 2:
                c = parse_card(parts[1])
                if not self.hands[seat][c]:
                    return f"you hold no {char(c)}"
                if self.hands[seat][c] >= 3:
                    return f"you hold three {char(c)} (砍): three of a kind cannot be discarded"
                if c in self.locked[seat]:
                    return f"you 碰'd or 吃'd {char(c)}: it cannot be discarded (自己吃过或碰过的字不能出)"
            if self.phase == "claim" and self.exposed >= 0:
                c = self.exposed
                if parts[:1] == ["hu"]:
                    if self.source != "draw":
                        return "only a drawn card can win; a discarded card never does (出的牌不能和牌)"
                    return "this card does not complete your hand with 10 硬息, a 麻雀 and six 话"
                if parts[:1] == ["peng"]:
                    why = self.peng_ok(seat, c)
                    if why:
                        return why
                if parts[:1] == ["chi"] and len(parts) == 3:
                    src = self.source_seat
                    allowed = (src, self.next_of(src)) if self.source == "draw" else (self.next_of(src),)
                    if seat not in allowed:
                        return "吃 only from the previous seat (下家出的或揭的牌不能吃)"
                    why = self.chi_ok(seat, c, parse_card(parts[1]), parse_card(parts[2]))
                    if why:
                        return why
            if self.phase == "discard" and parts[:1] == ["hu"]:
                return "you can win only on a drawn card that completes your hand"
            if self.phase == "discard" and parts[:1] in (["peng"], ["chi"], ["pass"]):
                return "no card is on offer: you must discard"
        except (NotationError, IndexError):
            return f"{action!r} is not an action: try 'discard x3', 'peng', 'chi x1 x2', 'hu' or 'pass'"
        return super().why_illegal(seat, action)
