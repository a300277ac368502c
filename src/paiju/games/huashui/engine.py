"""The 滑水麻将 state machine: deal, draw, discard, 碰/杠, claims, wins, settlement, the match tally.

Tiles live in count vectors with one key per suit beside them (tables.py), so a win check is four dict
look-ups and is only made for the seats that could win now: the player who just drew, the others on a
discard, the others on an added kong.

Flow of one hand: the dealer holds 14 tiles and acts first; a turn is "hu" (self-drawn win), "kong X"
(concealed, or adding to a pung when the wall still has a tile) or "discard X".  After a discard every seat
with a claim decides at once in one claim window (all who can win, plus the one who can 碰/杠); wins take
precedence and several winners all win (一炮多响); a 碰/杠 happens only when every possible winner declined.
An added kong opens the same kind of window for robbing (抢杠).  Nobody claims → the next seat draws;
an empty wall then ends the hand drawn.

The state is declared in :mod:`.state`, the view and every word in :mod:`.view`, the payments of the page's
table are pure functions in :mod:`.rules`; a claim window is the core's :class:`~paiju.core.claims.ClaimWindow`.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import compress
from typing import Any, ClassVar

from paiju.core.claims import ClaimWindow
from paiju.core.display import GameView
from paiju.core.errors import NotationError
from paiju.core.fromview import Unseen, parse_all
from paiju.core.game import Result
from paiju.core.terms import Action, Event, Seat, Text, Window

from . import view
from .config import HuashuiConfig
from .rules import WinKind, break_wall, deal_hands, dealer_pays_each, each_other_pays, one_pays, win_payment
from .state import (
    ACTIONS,
    CLAIM,
    DISCARD_ACT,
    HU,
    KONG_ACT,
    KONG_ADDED,
    KONG_CONCEALED,
    KONG_EXPOSED,
    OVER,
    PASS,
    PUNG,
    PUNG_ACT,
    ROB,
    TURN,
    HuashuiState,
    Meld,
    Phase,
)
from .tables import POW, SUIT_OF, is_even_keys, is_standard_keys, keys_of
from .tiles import NUM_KINDS, TILE_TEXT, Tile, counts_of, parse_tiles, tiles_of
from .view import MELD_LABEL, PHASE_LABEL

__all__ = ["ACTIONS", "CLAIM", "DISCARD_ACT", "HU", "KONG_ACT", "KONG_ADDED", "KONG_CONCEALED", "KONG_EXPOSED",
           "MELD_LABEL", "OVER", "PASS", "PHASE_LABEL", "PUNG", "PUNG_ACT", "ROB", "TURN", "HuashuiGame", "Meld",
           "Phase"]

_TILE: dict[str, Tile] = {t: i for i, t in enumerate(TILE_TEXT)}
"""A tile's text back to the tile (a view's notation)."""


class HuashuiGame(HuashuiState):
    """A match of 宁夏滑水麻将: ``config.hands`` hands with a running tally, four seats."""

    name = "huashui"
    config_class = HuashuiConfig
    display: ClassVar[dict[str, str]] = {"zh": "宁夏滑水麻将", "en": "Ningxia Huashui mahjong"}
    display_code: ClassVar[GameView] = view  # the view, action labels, refusal reasons, event text
    min_seats = 4
    max_seats = 4

    # ---- setup -------------------------------------------------------------------------------------
    def _setup(self, deal: Any) -> None:
        self._totals = [0, 0, 0, 0]
        self.rules = self.config.to_dict()
        self.hand_no = 0
        self.results = []
        self.last_result = None
        self._events = []
        self._version = 0
        self._legal_at = -1
        self._legal: dict[Seat, list[Action]] = {}
        self._text_at = -1
        self._text: dict[Seat, list[str]] = {}
        if deal is not None:
            dealer = int(deal.get("dealer", 0))
            if not 0 <= dealer < 4:
                raise ValueError(f"deal: dealer must be 0..3, not {dealer}")
        else:
            dealer = self.rng.randrange(4)
        self._start_hand(dealer, deal)
        self._events = []  # the first hand's dice are in the view; later hands announce theirs in events

    def _start_hand(self, dealer: Seat, deal: Any = None) -> None:
        self.dealer = dealer
        if deal is not None:
            hands, wall, dice = self._parse_deal(deal)
        else:
            tiles = [t for t in range(NUM_KINDS) for _ in range(4)]
            self.rng.shuffle(tiles)
            dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
            hands, wall = deal_hands(break_wall(tiles, dealer, dice), dealer)
        self.dice = dice
        self.wall = wall
        self.front = 0
        self.back = len(wall)
        self.counts = [counts_of(h) for h in hands]
        self.keys = [keys_of(c) for c in self.counts]
        self.melds = [[], [], [], []]
        self.discards = [[], [], [], []]
        self.locks = [set(), set(), set(), set()]
        self.held_fourth = [set(), set(), set(), set()]
        self.lock_all = [False, False, False, False]
        self.hand_lines = []
        self.phase = TURN
        self.current = dealer
        self.drew = True
        self.after_kong = False
        self.last_drawn = hands[dealer][-1]
        self.last_discard = None
        self.claim_tile = -1
        self.claim_from = -1
        self.claim = ClaimWindow()
        self.gen_active = True
        self.gen_tile = -1
        self.first_discards = 0
        self._events.append({"type": "hand_start", "hand": self.hand_no + 1, "dealer": dealer,
                             "dice": list(dice), "wall": self.back - self.front})
        self._version += 1

    @staticmethod
    def _parse_deal(deal: Any) -> tuple[list[list[Tile]], list[Tile], tuple[int, int]]:
        """Deal JSON: {"dealer": 0, "hands": [4 × notation, dealer's 14], "wall": draws in order,
        "replacements": kong replacement draws in order, "dice": [a, b]}.  Unnamed tiles fill the middle."""
        try:
            dealer = int(deal.get("dealer", 0))
            hands = [parse_tiles(h) for h in deal["hands"]]
            front = parse_tiles(deal.get("wall", ""))
            tail = parse_tiles(deal.get("replacements", ""))
            dice_raw = deal.get("dice", (1, 1))
            dice = (int(dice_raw[0]), int(dice_raw[1]))
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise NotationError(f"bad huashui deal: {e!r}") from e
        if len(hands) != 4:
            raise ValueError("deal: four hands")
        for s, h in enumerate(hands):
            want = 14 if s == dealer else 13
            if len(h) != want:
                raise ValueError(f"deal: seat {s} needs {want} tiles, has {len(h)}")
        used = Counter([t for h in hands for t in h] + front + tail)
        over = [TILE_TEXT[t] for t, n in used.items() if n > 4]
        if over:
            raise ValueError(f"deal: more than four of {', '.join(over)}")
        rest = [t for t in range(NUM_KINDS) for _ in range(4 - used[t])]
        rest_rng = random.Random(len(rest))
        rest_rng.shuffle(rest)
        return hands, front + rest + tail[::-1], dice

    # ---- protocol: whose move, what is legal --------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return 4

    def to_move(self) -> tuple[Seat, ...]:
        if self.phase == TURN:
            return (self.current,)
        if self.phase == OVER:
            return ()
        return self.claim.waiting()

    def public_to_move(self) -> tuple[Seat, ...]:
        return (self.current,) if self.phase == TURN else ()

    def window(self, seat: Seat) -> Window:
        return Window.CLAIM if self.phase in (CLAIM, ROB) else Window.TURN

    def hands_finished(self) -> int:
        return self.hand_no

    def timeout_action(self, seat: Seat) -> Action | None:
        return PASS if self.phase in (CLAIM, ROB) and seat in self.claim.options else None

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self._legal_at != self._version:
            self._legal = {}
            self._legal_at = self._version
        got = self._legal.get(seat)
        if got is None:
            got = self._compute_legal(seat)
            self._legal[seat] = got
        return list(got)

    def is_legal(self, seat: Seat, action: Action) -> bool:
        if self._legal_at != self._version or seat not in self._legal:
            self.legal_actions(seat)
        return action in self._legal[seat]

    def _compute_legal(self, seat: Seat) -> list[Action]:
        if self.phase == TURN:
            if seat != self.current:
                return []
            counts = self.counts[seat]
            acts: list[Action] = [HU] if self.drew and self._complete(seat) else []
            if self.back > self.front:
                if 4 in counts:
                    acts.extend(KONG_ACT[t] for t, c in enumerate(counts) if c == 4)
                for kind, t, _src in self.melds[seat]:
                    if kind == PUNG and counts[t] and t not in self.held_fourth[seat]:
                        acts.append(KONG_ACT[t])
            acts.extend(compress(DISCARD_ACT, counts))  # a discard per kind held, in tile order
            return acts
        if self.phase in (CLAIM, ROB):
            return list(self.claim.may_answer(seat))
        return []

    # ---- helpers -----------------------------------------------------------------------------------
    def _complete(self, seat: Seat) -> bool:
        keys = self.keys[seat]
        return is_standard_keys(keys) or (not self.melds[seat] and is_even_keys(keys))

    def _wins_with(self, seat: Seat, tile: Tile) -> bool:
        keys = self.keys[seat]
        su = SUIT_OF[tile]
        keys[su] += POW[tile]
        ok = is_standard_keys(keys) or (not self.melds[seat] and is_even_keys(keys))
        keys[su] -= POW[tile]
        return ok

    def _is_dui(self, seat: Seat) -> bool:
        return not self.melds[seat] and is_even_keys(self.keys[seat])

    def _add(self, seat: Seat, tile: Tile, n: int = 1) -> None:
        self.counts[seat][tile] += n
        self.keys[seat][SUIT_OF[tile]] += n * POW[tile]

    def _locked(self, seat: Seat, tile: Tile) -> bool:
        return self.lock_all[seat] or tile in self.locks[seat]

    def _lock(self, seat: Seat, tile: Tile) -> None:
        mode = self.config.pass_lock
        if mode == "same_tile":
            self.locks[seat].add(tile)
        elif mode == "any_tile":
            self.lock_all[seat] = True

    def _draw(self, seat: Seat, replacement: bool, events: list[Event]) -> None:
        if replacement:
            self.back -= 1
            tile = self.wall[self.back]
        else:
            tile = self.wall[self.front]
            self.front += 1
        self._add(seat, tile)
        self.last_drawn = tile
        self._begin_turn(seat, drew=True, after_kong=replacement)
        events.append({"type": "draw", "seat": seat, "replacement": replacement, "wall": self.back - self.front})

    def _begin_turn(self, seat: Seat, *, drew: bool, after_kong: bool) -> None:
        self.phase = TURN
        self.current = seat
        self.drew = drew
        self.after_kong = after_kong
        self.locks[seat].clear()
        self.lock_all[seat] = False
        self.claim = ClaimWindow()

    def _next_turn(self, seat: Seat, events: list[Event]) -> None:
        if self.back <= self.front:
            self._end_drawn(events)
        else:
            self._draw(seat, False, events)

    # ---- apply -------------------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        self._version += 1
        verb, tile = ACTIONS[action]
        events: list[Event] = []
        if self.phase == TURN:
            if verb == "discard":
                self._discard(seat, tile, events)
            elif verb == "kong":
                self._self_kong(seat, tile, events)
            else:
                self._win_self(seat, events)
        else:
            self.claim.answer(seat, action)
            if self.claim.complete():
                if self.phase == CLAIM:
                    self._resolve_claims(events)
                else:
                    self._resolve_rob(events)
        if self._events:
            events.extend(self._events)
            self._events = []
        return events

    def _discard(self, seat: Seat, tile: Tile, events: list[Event]) -> None:
        self._add(seat, tile, -1)
        self.discards[seat].append(tile)
        self.last_discard = (seat, tile)
        self.last_drawn = None
        events.append({"type": "discard", "seat": seat, "tile": TILE_TEXT[tile]})
        if self.gen_active:
            self._follow_dealer(tile, events)
        if not self._open_window(CLAIM, seat, tile, self._discard_options(seat, tile)):
            self._next_turn((seat + 1) % 4, events)

    def _open_window(self, phase: Phase, seat: Seat, tile: Tile, opts: dict[Seat, list[Action]]) -> bool:
        """Open a claim window on ``seat``'s ``tile`` if anyone may claim it, or always with ``ask_everyone``;
        say whether one opened."""
        opts = self._asked(seat, opts)
        if not opts:
            return False
        self.phase = phase
        self.claim_tile = tile
        self.claim_from = seat
        self.claim = self._claim_window(opts)
        return True

    def _asked(self, seat: Seat, opts: dict[Seat, list[Action]]) -> dict[Seat, list[Action]]:
        """Who a window on ``seat``'s tile asks: the seats that may claim, or with ``ask_everyone`` the other
        three, pass the only answer of a seat that cannot claim (then the window tells nobody who could)."""
        if not self.config.ask_everyone:
            return opts
        return {s: opts.get(s, [PASS]) for s in ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)}

    def _discard_options(self, seat: Seat, tile: Tile) -> dict[Seat, list[Action]]:
        """Who may claim ``seat``'s discard ``tile`` and how (win, 碰, 杠, always with pass), in play order."""
        opts: dict[Seat, list[Action]] = {}
        wall_left = self.back > self.front
        su, pw = SUIT_OF[tile], POW[tile]
        for i in (1, 2, 3):
            s = (seat + i) % 4
            o: list[Action] = []
            if not self.lock_all[s] and tile not in self.locks[s]:
                keys = self.keys[s]
                keys[su] += pw
                if is_standard_keys(keys) or (not self.melds[s] and is_even_keys(keys)):
                    o.append(HU)
                keys[su] -= pw
            c = self.counts[s][tile]
            if c >= 2:
                o.append(PUNG_ACT[tile])
                if c == 3 and wall_left:
                    o.append(KONG_ACT[tile])
            if o:
                o.append(PASS)
                opts[s] = o
        return opts

    def _rob_options(self, seat: Seat, tile: Tile) -> dict[Seat, list[Action]]:
        """Who may rob ``seat``'s added kong of ``tile`` (抢杠): every seat that wins on it and is not locked."""
        opts: dict[Seat, list[Action]] = {}
        for i in (1, 2, 3):
            s = (seat + i) % 4
            if not self._locked(s, tile) and self._wins_with(s, tile):
                opts[s] = [HU, PASS]
        return opts

    @staticmethod
    def _claim_window(opts: dict[Seat, list[Action]]) -> ClaimWindow:
        """Wins first (every winner wins), then the 碰 or 杠."""
        return ClaimWindow(opts, [(s, HU) for s in opts if opts[s][0] == HU]
                           + [(s, ACTIONS[a][0]) for s in opts for a in opts[s][:-1] if a != HU])

    def _follow_dealer(self, tile: Tile, events: list[Event]) -> None:
        """跟庄: the dealer's first discard, then the other three's first discards all the same tile."""
        if self.first_discards == 0:
            self.gen_tile = tile
        elif tile != self.gen_tile:
            self.gen_active = False
            return
        self.first_discards += 1
        if self.first_discards == 4:
            self.gen_active = False
            amount = self.config.gen_zhuang
            if amount:
                self.hand_lines.append(view.follow_line(tile, amount, dealer_pays_each(self.dealer, amount)))
            events.append({"type": "follow_dealer", "tile": TILE_TEXT[tile], "dealer": self.dealer,
                           "amount": amount})

    def _self_kong(self, seat: Seat, tile: Tile, events: list[Event]) -> None:
        if seat != self.dealer or self.first_discards or self.config.dealer_kong_breaks_follow:
            self.gen_active = False  # the dealer's own 暗杠 before its first discard leaves 跟庄 possible
        if self.counts[seat][tile] == 4:
            self._add(seat, tile, -4)
            self.melds[seat].append((KONG_CONCEALED, tile, seat))
            amount = self.config.kong_concealed
            self.hand_lines.append(view.kong_line(KONG_CONCEALED, tile, amount, each_other_pays(seat, amount)))
            events.append({"type": "kong", "kind": KONG_CONCEALED, "seat": seat, "tile": TILE_TEXT[tile]})
            self._draw(seat, True, events)
            return
        # added kong (过路杠): the pung becomes a kong at once; others may rob it (抢杠)
        self._add(seat, tile, -1)
        idx = next(i for i, m in enumerate(self.melds[seat]) if m[0] == PUNG and m[1] == tile)
        self.melds[seat][idx] = (KONG_ADDED, tile, self.melds[seat][idx][2])
        self.last_drawn = None
        events.append({"type": "kong", "kind": KONG_ADDED, "seat": seat, "tile": TILE_TEXT[tile]})
        if not self._open_window(ROB, seat, tile, self._rob_options(seat, tile)):
            self._finish_added_kong(seat, tile, events)

    def _finish_added_kong(self, seat: Seat, tile: Tile, events: list[Event]) -> None:
        amount = self.config.kong_added
        self.hand_lines.append(view.kong_line(KONG_ADDED, tile, amount, each_other_pays(seat, amount)))
        self._draw(seat, True, events)

    def _winners_in_order(self) -> list[Seat]:
        """Every seat that claimed the win, in play order from the discarder (一炮多响), or the first only."""
        winners = self.claim.claimed(HU)
        if winners and self.config.multi_win == "first":
            winners = winners[:1]
        return winners

    def _resolve_claims(self, events: list[Event]) -> None:
        tile, src = self.claim_tile, self.claim_from
        winners = self._winners_in_order()
        if winners:
            self._end_win(winners, "discard", src, tile, events)
            return
        for s, o in self.claim.options.items():
            if o[0] == HU:
                self._lock(s, tile)
        best = self.claim.best()
        if not isinstance(best, tuple):  # every claim was passed
            self._next_turn((src + 1) % 4, events)
            return
        taker, claimed = best
        self.gen_active = False
        self.discards[src].pop()
        kind = ACTIONS[claimed][0]
        if kind == "pung":
            self._add(taker, tile, -2)
            if self.counts[taker][tile]:
                self.held_fourth[taker].add(tile)  # punged holding the fourth: no 过路杠 with it
            self.melds[taker].append((PUNG, tile, src))
            events.append({"type": "pung", "seat": taker, "tile": TILE_TEXT[tile], "from": src})
            self._begin_turn(taker, drew=False, after_kong=False)
        else:
            self._add(taker, tile, -3)
            self.melds[taker].append((KONG_EXPOSED, tile, src))
            amount = self.config.kong_exposed
            self.hand_lines.append(view.kong_line(KONG_EXPOSED, tile, amount, one_pays(src, taker, amount)))
            events.append({"type": "kong", "kind": KONG_EXPOSED, "seat": taker, "tile": TILE_TEXT[tile],
                           "from": src})
            self._draw(taker, True, events)

    def _resolve_rob(self, events: list[Event]) -> None:
        tile, src = self.claim_tile, self.claim_from
        winners = self._winners_in_order()
        if winners:
            idx = next(i for i, m in enumerate(self.melds[src]) if m[0] == KONG_ADDED and m[1] == tile)
            self.melds[src][idx] = (PUNG, tile, self.melds[src][idx][2])
            self.discards[src].append(tile)  # the robbed tile lies open before the kong-maker
            self._end_win(winners, "rob", src, tile, events)
            return
        for s in self.claim.options:
            self._lock(s, tile)
        self._finish_added_kong(src, tile, events)

    def _win_self(self, seat: Seat, events: list[Event]) -> None:
        self._end_win([seat], "self", seat, -1, events)

    # ---- settlement --------------------------------------------------------------------------------
    def _end_win(self, winners: list[Seat], how: WinKind, payer: Seat, tile: Tile, events: list[Event]) -> None:
        """Each winner is paid by the page's table (:func:`.rules.win_payment`); the hand's payments stand."""
        lines = list(self.hand_lines)
        detail = []
        won_on = tile if tile >= 0 else self.last_drawn
        for w in winners:
            # a discarded or robbed winning tile stays in the discarder's river (several may win on it)
            if tile >= 0:
                self._add(w, tile)
            dui = self._is_dui(w)
            shown = [TILE_TEXT[t] for t, n in enumerate(self.counts[w]) for _ in range(n)]
            if tile >= 0:
                self._add(w, tile, -1)
            kong_draw = how == "self" and self.after_kong
            pay = win_payment(how, w, payer, dui_hu=dui, kong_draw=kong_draw, config=self.config)
            lines.append(view.win_line(w, payer, pay))
            detail.append({"seat": w, "how": how, "dui_hu": dui, "kong_draw": kong_draw, "amount": pay.amount,
                           "hand": shown, "tile": TILE_TEXT[won_on] if won_on is not None else None,
                           "melds": [TILE_TEXT[m[1]][0] * (3 if m[0] == PUNG else 4) + TILE_TEXT[m[1]][1]
                                     for m in self.melds[w]]})
        events.append({"type": "win", "seats": winners, "how": how,
                       "tile": TILE_TEXT[won_on] if won_on is not None else None,
                       "from": payer if how != "self" else None,
                       "hands": {str(d["seat"]): d["hand"] for d in detail}})
        next_dealer = winners[0] if len(winners) == 1 else payer
        self._settle(lines, view.hand_title(self.hand_no + 1, True), "win", winners, detail, next_dealer, events)

    def _end_drawn(self, events: list[Event]) -> None:
        lines = list(self.hand_lines) if self.config.draw_keeps_payments else []
        if not lines:
            lines.append(view.drawn_line())
        events.append({"type": "drawn_hand"})
        self._settle(lines, view.hand_title(self.hand_no + 1, False), "drawn", [], [], self.dealer, events)

    def _settle(self, lines: list[dict[str, Any]], title: Text, outcome: str, winners: list[Seat],
                detail: list[dict[str, Any]], next_dealer: Seat, events: list[Event]) -> None:
        scores = [sum(line["points"][s] for line in lines) for s in range(4)]
        for s in range(4):
            self._totals[s] += scores[s]
        self.last_result = {"title": title, "lines": lines, "scores": scores, "outcome": outcome,
                            "winners": winners, "wins": detail, "dealer": self.dealer, "next_dealer": next_dealer}
        self.results.append({"hand": self.hand_no + 1, "dealer": self.dealer, "outcome": outcome,
                             "winners": winners, "scores": scores})
        events.append({"type": "settlement", **self.last_result, "totals": list(self._totals)})
        self.hand_no += 1
        self.claim = ClaimWindow()
        if self.hand_no >= self.config.hands:
            self.phase = OVER
            events.append({"type": "match_over", "totals": list(self._totals)})
        else:
            self._start_hand(next_dealer)

    # ---- results -----------------------------------------------------------------------------------
    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        return Result(tuple(float(t) for t in self._totals), {"hands": self.results})

    def totals(self) -> tuple[float, ...]:
        return tuple(float(t) for t in self._totals)

    def inventory(self) -> Counter[Any]:
        a, b, c, d = self.counts
        total = [w + x + y + z for w, x, y, z in zip(a, b, c, d, strict=True)]
        for s in range(4):
            for kind, t, _src in self.melds[s]:
                total[t] += 3 if kind == PUNG else 4
            for t in self.discards[s]:
                total[t] += 1
        for t in self.wall[self.front:self.back]:
            total[t] += 1
        return Counter({t: n for t, n in enumerate(total) if n})

    # ---- a game from a seat's view (issue 37) ------------------------------------------------------
    @classmethod
    def _from_view(cls, view: dict[str, Any]) -> HuashuiGame:
        """The hand as ``view`` shows it.  Other seats' tiles and the wall get unseen tiles (the resample deals
        them afresh; a hidden current seat's drawn tile is one of its new tiles); a claim window is opened afresh
        from the tiles, with the viewer's own answer.  What only other seats knew (their pass locks, a fourth tile
        held when punging) starts empty, as in a resample.  Not in any view, so not rebuilt: the earlier hands'
        summaries (``results`` holds the last one and placeholders, so the count of hands played is right)."""
        g = cls(HuashuiConfig.from_dict(view["rules"]), 0)
        viewer = int(view["viewer"])
        own = 0 <= viewer < 4
        g.phase = Phase(view["phase"])
        g.hand_no = int(view["hand_no"]) - (0 if g.phase == OVER else 1)
        g._totals = [int(t) for t in view["totals"]]
        g.last_result = view["last_result"]
        last = g.last_result
        g.results = [{"hand": h + 1} for h in range(g.hand_no - 1)] + (
            [{"hand": g.hand_no, "dealer": last["dealer"], "outcome": last["outcome"], "winners": last["winners"],
              "scores": last["scores"]}] if g.hand_no and last is not None else [])
        g._events = []
        g._version = 0
        g.dealer = int(view["dealer"])
        g.dice = (int(view["dice"][0]), int(view["dice"][1]))
        g.melds = [[(m["type"], _TILE[m["tile"]], int(m["from"])) for m in ms] for ms in view["melds"]]
        g.discards = [parse_all(d, _TILE.__getitem__) for d in view["discards"]]
        mine = counts_of(parse_all(view["hand"], _TILE.__getitem__)) if own else None
        seen = [t for d in g.discards for t in d] + [m[1] for ms in g.melds for m in ms for _ in range(
            3 if m[0] == PUNG else 4)] + (tiles_of(mine) if mine is not None else [])
        unseen = Unseen([t for t in range(NUM_KINDS) for _ in range(4)], seen)
        g.counts = [mine if s == viewer and mine is not None
                    else unseen.take_counts(int(view["hand_counts"][s]), NUM_KINDS) for s in range(4)]
        g.keys = [keys_of(c) for c in g.counts]
        g.wall = unseen.take(int(view["wall"]))
        if unseen.rest():
            raise ValueError("the view's counts do not account for every tile")
        g.front, g.back = 0, len(g.wall)
        locked = view["locked"] if own else None
        g.lock_all = [s == viewer and locked == "all" for s in range(4)]
        g.locks = [{_TILE[t] for t in locked} if s == viewer and isinstance(locked, list) else set() for s in range(4)]
        g.held_fourth = [{_TILE[t] for t in view["held_fourth"] or ()} if s == viewer else set() for s in range(4)]
        g.hand_lines = list(view["pending_lines"])
        start = view["turn_start"]
        g.drew, g.after_kong = start in ("draw", "replacement"), start == "replacement"
        g.current = int(view["current"]) if view["current"] is not None else g.dealer
        if g.phase == TURN and g.drew:  # the current seat's drawn tile: the viewer's own as shown, else any held
            drawn = view["drawn"] if g.current == viewer else None
            g.last_drawn = _TILE[drawn] if drawn else next(t for t, n in enumerate(g.counts[g.current]) if n)
        else:
            g.last_drawn = None
        ld = view["last_discard"]
        g.last_discard = (int(ld["seat"]), _TILE[ld["tile"]]) if ld is not None else None
        gen = view["gen_zhuang"]
        g.gen_active, g.first_discards = bool(gen["active"]), int(gen["count"])
        g.gen_tile = _TILE[gen["tile"]] if gen["tile"] else -1
        g.claim = ClaimWindow()
        g.claim_tile, g.claim_from = -1, -1
        if g.phase in (CLAIM, ROB):
            g.claim_tile = _TILE[view["table"]["center"][0]["cards"][0]]
            g.claim_from = g.current
            g.claim = g._claim_window(g._window_options())
            if view["answered"] is not None:
                g.claim.answer(viewer, view["answered"])
        g._legal_at, g._legal, g._text_at, g._text = -1, {}, -1, {}
        return g

    # ---- resampling: what the declaration cannot say ------------------------------------------------
    def _redealt(self, viewer: int) -> list[Seat]:
        """The seats whose tiles a resample redealt: each gets its keys again, and loses what only it knew of
        its past (pass locks, a fourth tile held when punging), which followed from tiles it no longer has."""
        hidden = [s for s in range(4) if not self.sees("counts", viewer, s)]
        for s in hidden:
            self.keys[s] = keys_of(self.counts[s])
            self.locks[s] = set()
            self.lock_all[s] = False
            self.held_fourth[s] = set()
        return hidden

    def _window_options(self) -> dict[Seat, list[Action]]:
        """The claim window's options as the tiles now stand."""
        if self.phase == CLAIM:
            opts = self._discard_options(self.claim_from, self.claim_tile)
        else:
            opts = self._rob_options(self.claim_from, self.claim_tile)
        return self._asked(self.claim_from, opts)

    def _resample_ok(self, viewer: int) -> bool:
        """A claim window the viewer is not answering is open, so some redealt seat must be able to claim."""
        if self.phase not in (CLAIM, ROB) or self.claim.may_answer(viewer):
            return True
        self._redealt(viewer)
        return any(s != viewer for s in self._window_options())

    def _rederive(self, viewer: int, rng: random.Random) -> None:
        """A redealt hand has its own keys; a redealt current seat drew one of its new tiles; a claim window
        is opened afresh from the new hands (who may claim, and nobody but the viewer has answered); the wall
        keeps only its undrawn part (the drawn tiles are in the hands)."""
        self._redealt(viewer)
        if self.phase == TURN and self.last_drawn is not None and not self.sees("last_drawn", viewer):
            held = [t for t, n in enumerate(self.counts[self.current]) if n]
            self.last_drawn = held[rng.randrange(len(held))]
        if self.phase in (CLAIM, ROB):
            mine = self.claim.answers.get(viewer)
            self.claim = self._claim_window(self._window_options())
            if mine is not None:
                self.claim.answer(viewer, mine)
        self.wall = self.wall[self.front:self.back]
        self.back -= self.front
        self.front = 0
