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
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar, Self

from paiju.core.errors import NotationError
from paiju.core.game import OMNISCIENT, Action, Event, Game, Result, Seat, View, Window

from .config import HuashuiConfig
from .rules import break_wall, deal_hands
from .tables import POW, SUIT_OF, is_even_keys, is_standard_keys, keys_of
from .tiles import NUM_KINDS, TILE_TEXT, Tile, counts_of, parse_tiles, tile_zh

TURN, CLAIM, ROB, OVER = "turn", "claim", "rob", "over"

PUNG, KONG_EXPOSED, KONG_ADDED, KONG_CONCEALED = "pung", "kong_exposed", "kong_added", "kong_concealed"
MELD_LABEL = {
    PUNG: {"zh": "碰", "en": "pung"},
    KONG_EXPOSED: {"zh": "放杠", "en": "kong (discard)"},
    KONG_ADDED: {"zh": "过路杠", "en": "kong (added)"},
    KONG_CONCEALED: {"zh": "暗杠", "en": "kong (concealed)"},
}

HU, PASS = "hu", "pass"
DISCARD_ACT = tuple(f"discard {t}" for t in TILE_TEXT)
KONG_ACT = tuple(f"kong {t}" for t in TILE_TEXT)
PUNG_ACT = tuple(f"pung {t}" for t in TILE_TEXT)
ACTIONS: dict[str, tuple[str, int]] = {HU: (HU, -1), PASS: (PASS, -1)}
for _t in range(NUM_KINDS):
    ACTIONS[DISCARD_ACT[_t]] = ("discard", _t)
    ACTIONS[KONG_ACT[_t]] = ("kong", _t)
    ACTIONS[PUNG_ACT[_t]] = ("pung", _t)

_REPEAT = tuple(tuple((text,) * n for n in range(5)) for text in TILE_TEXT)

Meld = tuple[str, Tile, Seat]
"""(kind, tile, seat it came from — the owner for a concealed kong or a self-made added kong's pung source)."""

PHASE_LABEL = {
    TURN: {"zh": "出牌", "en": "turn"},
    CLAIM: {"zh": "吃碰胡决定中", "en": "claim window"},
    ROB: {"zh": "抢杠决定中", "en": "robbing window"},
    OVER: {"zh": "终局", "en": "match over"},
}


def _line(zh: str, en: str, points: list[int]) -> dict[str, Any]:
    return {"zh": zh, "en": en, "points": points}


class HuashuiGame(Game[HuashuiConfig]):
    """A match of 宁夏滑水麻将: ``config.hands`` hands with a running tally, four seats."""

    name = "huashui"
    config_class = HuashuiConfig
    display: ClassVar[dict[str, str]] = {"zh": "宁夏滑水麻将", "en": "Ningxia Huashui mahjong"}
    min_seats = 4
    max_seats = 4

    # ---- setup -------------------------------------------------------------------------------------
    def _setup(self, deal: Any) -> None:
        self._totals = [0, 0, 0, 0]
        self.hand_no = 0
        self.results: list[dict[str, Any]] = []
        self.last_result: dict[str, Any] | None = None
        self._events: list[Event] = []
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
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.discards: list[list[Tile]] = [[], [], [], []]
        self.locks: list[set[Tile]] = [set(), set(), set(), set()]
        self.lock_all = [False, False, False, False]
        self.hand_lines: list[dict[str, Any]] = []
        self.phase = TURN
        self.current = dealer
        self.drew = True
        self.after_kong = False
        self.last_drawn: Tile | None = hands[dealer][-1]
        self.last_discard: tuple[Seat, Tile] | None = None
        self.claim_tile = -1
        self.claim_from = -1
        self.claim_opts: dict[Seat, list[Action]] = {}
        self.choices: dict[Seat, Action] = {}
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

    @property
    def finished(self) -> bool:
        return bool(self.phase == OVER)

    def to_move(self) -> tuple[Seat, ...]:
        if self.phase == TURN:
            return (self.current,)
        if self.phase == OVER:
            return ()
        return tuple(s for s in self.claim_opts if s not in self.choices)

    def public_to_move(self) -> tuple[Seat, ...]:
        return (self.current,) if self.phase == TURN else ()

    def window(self, seat: Seat) -> Window:
        return Window.CLAIM if self.phase in (CLAIM, ROB) else Window.TURN

    def timeout_action(self, seat: Seat) -> Action | None:
        return PASS if self.phase in (CLAIM, ROB) and seat in self.claim_opts else None

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
                    if kind == PUNG and counts[t]:
                        acts.append(KONG_ACT[t])
            acts.extend([DISCARD_ACT[t] for t, c in enumerate(counts) if c])
            return acts
        if self.phase in (CLAIM, ROB) and seat not in self.choices:
            return list(self.claim_opts.get(seat, ()))
        return []

    def why_illegal(self, seat: Seat, action: Action) -> str:
        verb, tile = ACTIONS.get(action, ("", -1))
        if action.startswith("chi") or action.startswith("chow"):
            return "no chow in 滑水麻将: 只可碰，可杠，不可吃牌 (pung and kong only)"
        if not verb:
            return (f"{action!r} is not an action: use 'discard 5m', 'kong 5m', 'pung 5m', 'hu' or 'pass'")
        if self.phase == TURN:
            if verb == HU:
                return "hu: your hand is not complete (four sets and a pair, or the 对胡 pairs)" if self.drew \
                    else "hu: after a 碰 you must discard; a self-drawn win needs a drawn tile"
            if verb == "kong":
                if self.back <= self.front:
                    return "kong: the wall is empty, there is no replacement tile"
                return f"kong {TILE_TEXT[tile]}: you need four in hand or a pung of it plus the fourth"
            if verb == "discard":
                return f"discard {TILE_TEXT[tile]}: that tile is not in your hand"
            return f"{action}: nothing to claim now, it is a turn (discard, kong or hu)"
        if verb == HU and (self.lock_all[seat] or self.claim_tile in self.locks[seat]):
            return "hu: pass lock (special rule 4) — you declined this win earlier in the go-around"
        return super().why_illegal(seat, action)

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
        self.claim_opts = {}
        self.choices = {}

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
            self.choices[seat] = action
            if len(self.choices) == len(self.claim_opts):
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
        if opts:
            self.phase = CLAIM
            self.claim_tile = tile
            self.claim_from = seat
            self.claim_opts = opts
            self.choices = {}
        else:
            self._next_turn((seat + 1) % 4, events)

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
                pts = [amount] * 4
                pts[self.dealer] = -3 * amount
                self.hand_lines.append(_line(f"跟庄 {tile_zh(tile)}: 庄家付每家 {amount}",
                                             f"follow the dealer ({TILE_TEXT[tile]}): dealer pays each {amount}",
                                             pts))
            events.append({"type": "follow_dealer", "tile": TILE_TEXT[tile], "dealer": self.dealer,
                           "amount": amount})

    def _self_kong(self, seat: Seat, tile: Tile, events: list[Event]) -> None:
        self.gen_active = False
        if self.counts[seat][tile] == 4:
            self._add(seat, tile, -4)
            self.melds[seat].append((KONG_CONCEALED, tile, seat))
            amount = self.config.kong_concealed
            pts = [-amount] * 4
            pts[seat] = 3 * amount
            self.hand_lines.append(_line(f"暗杠 {tile_zh(tile)}: 每家付 {amount}",
                                         f"concealed kong {TILE_TEXT[tile]}: each other pays {amount}", pts))
            events.append({"type": "kong", "kind": KONG_CONCEALED, "seat": seat, "tile": TILE_TEXT[tile]})
            self._draw(seat, True, events)
            return
        # added kong (过路杠): the pung becomes a kong at once; others may rob it (抢杠)
        self._add(seat, tile, -1)
        idx = next(i for i, m in enumerate(self.melds[seat]) if m[0] == PUNG and m[1] == tile)
        self.melds[seat][idx] = (KONG_ADDED, tile, self.melds[seat][idx][2])
        self.last_drawn = None
        events.append({"type": "kong", "kind": KONG_ADDED, "seat": seat, "tile": TILE_TEXT[tile]})
        opts: dict[Seat, list[Action]] = {}
        for i in (1, 2, 3):
            s = (seat + i) % 4
            if not self._locked(s, tile) and self._wins_with(s, tile):
                opts[s] = [HU, PASS]
        if opts:
            self.phase = ROB
            self.claim_tile = tile
            self.claim_from = seat
            self.claim_opts = opts
            self.choices = {}
        else:
            self._finish_added_kong(seat, tile, events)

    def _finish_added_kong(self, seat: Seat, tile: Tile, events: list[Event]) -> None:
        amount = self.config.kong_added
        pts = [-amount] * 4
        pts[seat] = 3 * amount
        self.hand_lines.append(_line(f"过路杠 {tile_zh(tile)}: 每家付 {amount}",
                                     f"added kong {TILE_TEXT[tile]}: each other pays {amount}", pts))
        self._draw(seat, True, events)

    def _winners_in_order(self) -> list[Seat]:
        order = [(self.claim_from + i) % 4 for i in (1, 2, 3)]
        winners = [s for s in order if self.choices.get(s) == HU]
        if winners and self.config.multi_win == "first":
            winners = winners[:1]
        return winners

    def _resolve_claims(self, events: list[Event]) -> None:
        tile, src = self.claim_tile, self.claim_from
        winners = self._winners_in_order()
        if winners:
            self._end_win(winners, "discard", src, tile, events)
            return
        for s, o in self.claim_opts.items():
            if o[0] == HU:
                self._lock(s, tile)
        taker = next((s for s, a in self.choices.items() if a != PASS), None)
        if taker is None:
            self._next_turn((src + 1) % 4, events)
            return
        self.gen_active = False
        self.discards[src].pop()
        kind = ACTIONS[self.choices[taker]][0]
        if kind == "pung":
            self._add(taker, tile, -2)
            self.melds[taker].append((PUNG, tile, src))
            events.append({"type": "pung", "seat": taker, "tile": TILE_TEXT[tile], "from": src})
            self._begin_turn(taker, drew=False, after_kong=False)
        else:
            self._add(taker, tile, -3)
            self.melds[taker].append((KONG_EXPOSED, tile, src))
            amount = self.config.kong_exposed
            pts = [0, 0, 0, 0]
            pts[src] = -amount
            pts[taker] = amount
            self.hand_lines.append(_line(f"放杠 {tile_zh(tile)}: 放杠者付 {amount}",
                                         f"kong on a discard {TILE_TEXT[tile]}: the discarder pays {amount}", pts))
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
        for s in self.claim_opts:
            self._lock(s, tile)
        self._finish_added_kong(src, tile, events)

    def _win_self(self, seat: Seat, events: list[Event]) -> None:
        self._end_win([seat], "self", seat, -1, events)

    # ---- settlement --------------------------------------------------------------------------------
    @staticmethod
    def _amount(base: int, mults: list[tuple[str, str, int]]) -> int:
        """Base × the special's multiplier.  At most one applies: 杠开 and 抢杠 both involve a kong, and a hand
        with a kong laid down (or robbed: all four copies are then out) can never be a 对胡."""
        for m in mults:
            base *= m[2]
        return base

    def _end_win(self, winners: list[Seat], how: str, payer: Seat, tile: Tile, events: list[Event]) -> None:
        cfg = self.config
        lines = list(self.hand_lines)
        detail = []
        for w in winners:
            # a discarded or robbed winning tile stays in the discarder's river (several may win on it)
            if tile >= 0:
                self._add(w, tile)
            dui = self._is_dui(w)
            shown = [TILE_TEXT[t] for t, n in enumerate(self.counts[w]) for _ in range(n)]
            if tile >= 0:
                self._add(w, tile, -1)
            mults: list[tuple[str, str, int]] = []
            if dui:
                mults.append(("对胡", "seven pairs", cfg.dui_hu_multiplier))
            pts = [0, 0, 0, 0]
            if how == "self":
                if self.after_kong:
                    mults.append(("杠开", "win on a kong replacement", cfg.kong_draw_multiplier))
                amount = self._amount(cfg.self_draw, mults)
                for s in range(4):
                    if s != w:
                        pts[s] = -amount
                pts[w] = 3 * amount
                zh, en = f"自摸 {cfg.self_draw}", f"self-drawn win {cfg.self_draw}"
                zh_pay, en_pay = f"每家付 {amount}", f"each other pays {amount}"
            else:
                if how == "rob":
                    mults.insert(0, ("抢杠", "robbing the kong", cfg.robbing_multiplier))
                amount = self._amount(cfg.discard_win, mults)
                pts[payer] = -amount
                pts[w] = amount
                zh = f"{'抢杠' if how == 'rob' else '点炮'} {cfg.discard_win}"
                en = f"{'robbing a kong' if how == 'rob' else 'win on a discard'} {cfg.discard_win}"
                zh_pay = f"座位{payer}付 {amount}"
                en_pay = f"seat {payer} pays {amount}"
            mult_zh = "".join(f" ×{m[2]}({m[0]})" for m in mults)
            mult_en = "".join(f" ×{m[2]} ({m[1]})" for m in mults)
            lines.append(_line(f"座位{w} 胡: {zh}{mult_zh} → {zh_pay}", f"seat {w} wins: {en}{mult_en} → {en_pay}",
                               pts))
            detail.append({"seat": w, "how": how, "dui_hu": dui, "kong_draw": how == "self" and self.after_kong,
                           "amount": amount, "hand": shown,
                           "melds": [TILE_TEXT[m[1]][0] * (3 if m[0] == PUNG else 4) + TILE_TEXT[m[1]][1]
                                     for m in self.melds[w]]})
        won_on = tile if tile >= 0 else self.last_drawn
        events.append({"type": "win", "seats": winners, "how": how,
                       "tile": TILE_TEXT[won_on] if won_on is not None else None,
                       "from": payer if how != "self" else None,
                       "hands": {str(d["seat"]): d["hand"] for d in detail}})
        next_dealer = winners[0] if len(winners) == 1 else payer
        title = {"zh": f"第{self.hand_no + 1}局 胡牌", "en": f"hand {self.hand_no + 1}: won"}
        self._settle(lines, title, "win", winners, detail, next_dealer, events)

    def _end_drawn(self, events: list[Event]) -> None:
        lines = list(self.hand_lines) if self.config.draw_keeps_payments else []
        if not lines:
            lines.append(_line("流局 (黄牌): 不得分也不失分", "drawn hand: nobody gains or loses", [0, 0, 0, 0]))
        title = {"zh": f"第{self.hand_no + 1}局 流局", "en": f"hand {self.hand_no + 1}: drawn"}
        events.append({"type": "drawn_hand"})
        self._settle(lines, title, "drawn", [], [], self.dealer, events)

    def _settle(self, lines: list[dict[str, Any]], title: dict[str, str], outcome: str, winners: list[Seat],
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
        self.claim_opts = {}
        self.choices = {}
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

    # ---- views -------------------------------------------------------------------------------------
    def _hand_text(self, seat: Seat) -> list[str]:
        if self._text_at != self._version:
            self._text = {}
            self._text_at = self._version
        got = self._text.get(seat)
        if got is None:
            got = []
            for t, n in enumerate(self.counts[seat]):
                if n:
                    got.extend(_REPEAT[t][n])
            self._text[seat] = got
        return list(got)

    def _meld_view(self, seat: Seat, viewer: int) -> list[dict[str, Any]]:
        out = []
        for kind, t, src in self.melds[seat]:
            text = TILE_TEXT[t]
            n = 3 if kind == PUNG else 4
            if kind == KONG_CONCEALED and viewer not in (seat, OMNISCIENT):
                cards = [text, "??", "??", "??"]  # the page: one tile of a 暗杠 is turned up for all to see
            else:
                cards = [text] * n
            out.append({"type": kind, "tile": text, "from": src, "cards": cards})
        return out

    def _view(self, viewer: int) -> View:
        omni = viewer == OMNISCIENT
        seats = []
        melds = [self._meld_view(s, viewer) for s in range(4)]
        for s in range(4):
            show = omni or viewer == s
            count = sum(self.counts[s])
            note = None
            if self.phase == TURN and s == self.current:
                note = {"zh": "出牌中", "en": "to play"}
            seats.append({
                "seat": s,
                "role": {"zh": "庄", "en": "dealer"} if s == self.dealer else {"zh": "闲", "en": "player"},
                "hand": self._hand_text(s) if show else None,
                "hand_count": count,
                "groups": [{"label": MELD_LABEL[m["type"]], "cards": m["cards"]} for m in melds[s]],
                "discards": [TILE_TEXT[t] for t in self.discards[s]],
                "note": note,
            })
        wall_left = self.back - self.front
        info = [
            {"zh": f"第{min(self.hand_no + 1, self.config.hands)}局 / 共{self.config.hands}局",
             "en": f"hand {min(self.hand_no + 1, self.config.hands)} of {self.config.hands}"},
            {"zh": f"骰子 {self.dice[0]}+{self.dice[1]}", "en": f"dice {self.dice[0]}+{self.dice[1]}"},
            {"zh": f"余牌 {wall_left}", "en": f"wall {wall_left} left"},
        ]
        center = []
        if self.phase in (CLAIM, ROB):
            label = {"zh": "打出", "en": "discard"} if self.phase == CLAIM else {"zh": "补杠", "en": "added kong"}
            center.append({"label": label, "cards": [TILE_TEXT[self.claim_tile]]})
        view: View = {
            "hand_no": self.hand_no + 1 if self.phase != OVER else self.hand_no,
            "hands": self.config.hands,
            "dealer": self.dealer,
            "dice": list(self.dice),
            "wall": wall_left,
            "phase": self.phase,
            "current": self.current if self.phase == TURN else self.claim_from if self.phase != OVER else None,
            "hand": self._hand_text(viewer) if 0 <= viewer < 4 else None,
            "drawn": (TILE_TEXT[self.last_drawn] if 0 <= viewer < 4 and viewer == self.current
                      and self.phase == TURN and self.drew and self.last_drawn is not None else None),
            "melds": melds,
            "discards": [[TILE_TEXT[t] for t in d] for d in self.discards],
            "hand_counts": [sum(c) for c in self.counts],
            "last_discard": ({"seat": self.last_discard[0], "tile": TILE_TEXT[self.last_discard[1]]}
                             if self.last_discard is not None else None),
            "claim": ({"tile": TILE_TEXT[self.claim_tile], "from": self.claim_from,
                       "robbing": self.phase == ROB, "options": list(self.claim_opts[viewer])}
                      if self.phase in (CLAIM, ROB) and viewer in self.claim_opts and viewer not in self.choices
                      else None),
            "locked": (("all" if self.lock_all[viewer] else sorted(TILE_TEXT[t] for t in self.locks[viewer]))
                       if 0 <= viewer < 4 else None),
            "pending_lines": self.hand_lines,
            "gen_zhuang": {"active": self.gen_active, "tile": TILE_TEXT[self.gen_tile] if self.gen_tile >= 0
                           else None, "count": self.first_discards},
            "last_result": self.last_result,
            "table": {
                "card_style": "tile",
                "phase": PHASE_LABEL[self.phase],
                "info": info,
                "seats": seats,
                "center": center,
                "select": None,
                "last_result": self.last_result,
            },
        }
        if omni:
            view["all_hands"] = [self._hand_text(s) for s in range(4)]
            view["wall_tiles"] = [TILE_TEXT[t] for t in self.wall[self.front:self.back]]
        return view

    def describe(self, action: Action, lang: str = "zh") -> str:
        verb, tile = ACTIONS.get(action, ("", -1))
        zh = lang == "zh"
        if verb == HU:
            return "胡 (win)" if zh else "win (hu)"
        if verb == PASS:
            return "过 (pass)" if zh else "pass"
        if verb == "discard":
            return f"打 {tile_zh(tile)}" if zh else f"discard {TILE_TEXT[tile]}"
        if verb == "pung":
            return f"碰 {tile_zh(tile)}" if zh else f"pung {TILE_TEXT[tile]}"
        if verb == "kong":
            return f"杠 {tile_zh(tile)}" if zh else f"kong {TILE_TEXT[tile]}"
        return action

    # ---- copies ------------------------------------------------------------------------------------
    def clone(self) -> Self:
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g.rng = random.Random.__new__(random.Random)  # no fresh seeding: the state is copied next
        g.rng.setstate(self.rng.getstate())
        g.history = list(self.history)
        g._totals = list(self._totals)
        g.results = list(self.results)
        g._events = list(self._events)
        g.wall = list(self.wall)
        g.counts = [list(c) for c in self.counts]
        g.keys = [list(k) for k in self.keys]
        g.melds = [list(m) for m in self.melds]
        g.discards = [list(d) for d in self.discards]
        g.locks = [set(x) for x in self.locks]
        g.lock_all = list(self.lock_all)
        g.hand_lines = list(self.hand_lines)
        g.claim_opts = {s: list(o) for s, o in self.claim_opts.items()}
        g.choices = dict(self.choices)
        g._legal = {}
        g._legal_at = -1
        g._text = {}
        g._text_at = -1
        return g

    def resample(self, viewer: int, rng: random.Random) -> Self:
        g = self.clone()
        if viewer == OMNISCIENT:
            return g
        hidden = [s for s in range(4) if s != viewer]
        pool = list(g.wall[g.front:g.back])
        sizes = []
        for s in hidden:
            tiles = [t for t in range(NUM_KINDS) for _ in range(g.counts[s][t])]
            sizes.append(len(tiles))
            pool.extend(tiles)
        rng.shuffle(pool)
        n_wall = g.back - g.front
        g.wall[g.front:g.back] = pool[:n_wall]
        pos = n_wall
        for s, n in zip(hidden, sizes, strict=True):
            g.counts[s] = counts_of(pool[pos:pos + n])
            g.keys[s] = keys_of(g.counts[s])
            pos += n
            if g.phase == TURN and s == g.current and g.last_drawn is not None:
                g.last_drawn = pool[pos - 1]
        g._version += 1
        return g
