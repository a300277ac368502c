"""Bots for 滑水麻将: a shanten-greedy baseline, an efficient bot that also defends, and an easy bot with a
beginner's habits (the room's 入门).

Both read only their seat's view and legal actions.  Hand evaluation is shanten over both families of
shapes (four sets and a pair; the 对胡 pairs) from the per-suit tables, and "useful tiles" (ukeire): the
unseen copies of every kind that lowers shanten.  A tile can only be useful if the hand holds it or a
neighbour within two of it, so at most a few dozen shanten look-ups decide a discard.

The efficient bot adds what the page's tips that fit a game without chow say: read the discards, keep
safe tiles, throw lone honours early; and it prices danger by the rules of this game, where only the
discarder pays for a win on a discard (5, or 15 for a 对胡) and a self-drawn win costs every other player 4.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from paiju.bots.base import Bot
from paiju.core.game import Action, View

from .defence import DUI_PAY, TILE_OF, deal_in, deal_in_read, fresh_tiles, win_chance
from .tables import POW, SUIT_OF, blocks, is_even_keys, is_standard_keys, rest_table, shanten
from .tiles import NUM_KINDS, TILE_TEXT, parse_tile

_NEAR: tuple[tuple[int, ...], ...] = tuple(
    tuple(u for u in range(t - 2, t + 3) if 0 <= u < 27 and SUIT_OF[u] == SUIT_OF[t]) if t < 27 else (t,)
    for t in range(NUM_KINDS)
)
"""Kinds that can make ``t`` useful: itself and, for numbers, neighbours within two in its suit."""


class Hand:
    """A seat's hand and what it can see, read from its view."""

    def __init__(self, view: View) -> None:
        self.seat: int = view["viewer"]
        self.counts = [0] * NUM_KINDS
        for text in view["hand"] or ():
            self.counts[TILE_OF[text]] += 1
        self.keys = [0, 0, 0, 0]
        for t in range(NUM_KINDS):
            if self.counts[t]:
                self.keys[SUIT_OF[t]] += self.counts[t] * POW[t]
        self.melds = len(view["melds"][self.seat])
        seen = self.counts[:]
        for seat_melds in view["melds"]:
            for m in seat_melds:
                seen[TILE_OF[m["tile"]]] += 3 if m["type"] == "pung" else 4
        for river in view["discards"]:
            for text in river:
                seen[TILE_OF[text]] += 1
        self.unseen = [max(0, 4 - c) for c in seen]
        self.wall: int = view["wall"]
        self.pair_weight = 1.0
        self.honour_pair_weight: float | None = None
        """The same for honours, if different (None: ``pair_weight``)."""
        """Weight of a useful tile that would turn a held pair into a set: anyone's discard brings it (碰)."""

    def add(self, t: int, n: int = 1) -> None:
        self.counts[t] += n
        self.keys[SUIT_OF[t]] += n * POW[t]

    def shanten(self, melds: int | None = None) -> int:
        return shanten(self.keys, self.melds if melds is None else melds)

    def candidates(self) -> list[list[int]]:
        """Per suit, the unseen kinds that could lower shanten: held kinds and their neighbours within two."""
        by_suit: list[set[int]] = [set(), set(), set(), set()]
        unseen = self.unseen
        for t in range(NUM_KINDS):
            if self.counts[t]:
                for u in _NEAR[t]:
                    if unseen[u]:
                        by_suit[SUIT_OF[u]].add(u)
        return [sorted(c) for c in by_suit]

    def useful(self, base: int, melds: int | None = None, cand: list[list[int]] | None = None) -> float:
        """Unseen copies of the kinds that lower shanten below ``base`` (the hand has 13-equivalent tiles).

        Only one suit changes per trial tile, so the other three suits are looked up once per suit."""
        n_melds = self.melds if melds is None else melds
        need = 4 - n_melds
        counts, keys, unseen = self.counts, self.keys, self.unseen
        if cand is None:
            cand = self.candidates()
        pairs = sum(c >> 1 for c in counts) if n_melds == 0 else 0
        total = 0.0
        pw = self.pair_weight if base >= 1 else 1.0
        pwh = (pw if self.honour_pair_weight is None else self.honour_pair_weight) if base >= 1 else 1.0
        for su in range(4):
            if not cand[su]:
                continue
            table = rest_table(keys, su, need)
            key, honour = keys[su], su == 3
            for t in cand[su]:
                s = min([table[b] for b in blocks(key + POW[t], honour)])
                if n_melds == 0:
                    d = 6 - min(7, pairs + (counts[t] & 1))
                    if d < s:
                        s = d
                if s < base:
                    total += unseen[t] * ((pwh if honour else pw) if counts[t] >= 2 else 1.0)
        return total

    def useful_split(self, base: int, cand: list[list[int]] | None = None) -> tuple[int, int]:
        """Unseen copies that lower shanten below ``base``, as (those turning a held pair into a set, the rest):
        anyone's discard brings the first kind (碰), only our own draw the second (no chow)."""
        need = 4 - self.melds
        counts, keys, unseen = self.counts, self.keys, self.unseen
        if cand is None:
            cand = self.candidates()
        pairs = sum(c >> 1 for c in counts) if self.melds == 0 else 0
        by_pair = other = 0
        for su in range(4):
            if not cand[su]:
                continue
            table = rest_table(keys, su, need)
            key, honour = keys[su], su == 3
            for t in cand[su]:
                s = min([table[b] for b in blocks(key + POW[t], honour)])
                if self.melds == 0:
                    d = 6 - min(7, pairs + (counts[t] & 1))
                    if d < s:
                        s = d
                if s < base:
                    if counts[t] >= 2:
                        by_pair += unseen[t]
                    else:
                        other += unseen[t]
        return by_pair, other

    def discard_options(self) -> list[tuple[int, float, int]]:
        """(shanten, useful tiles, kind) for each kind that could be discarded."""
        cand = self.candidates()
        out = []
        for t in range(NUM_KINDS):
            if not self.counts[t]:
                continue
            self.add(t, -1)
            s = self.shanten()
            out.append((s, self.useful(s, cand=cand), t))
            self.add(t, 1)
        return out


def _tile(action: str) -> int:
    return parse_tile(action.split()[1])


class ShantenGreedyBot:
    """Plain baseline: wins whenever it can, discards to the lowest shanten (ties: most useful tiles), claims a
    碰/杠 only when it lowers shanten (or keeps it, for a kong), never defends."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if "hu" in legal:
            return "hu"
        hand = Hand(view)
        if view.get("claim"):
            return self._claim(hand, legal)
        kongs = [a for a in legal if a.startswith("kong")]
        base = hand.shanten()
        for a in kongs:
            t = _tile(a)
            n = 4 if hand.counts[t] == 4 else 1
            hand.add(t, -n)
            after = hand.shanten(hand.melds + (1 if n == 4 else 0))
            hand.add(t, n)
            if after <= base:
                return a
        options = hand.discard_options()
        best = min(options, key=lambda o: (o[0], -o[1], o[2]))
        return f"discard {TILE_TEXT[best[2]]}"

    def _claim(self, hand: Hand, legal: Sequence[Action]) -> Action:
        base = hand.shanten()
        kong = _kong_claim(hand, base, legal)
        if kong is not None:
            return kong
        for a in legal:
            if a.startswith("pung"):
                t = _tile(a)
                hand.add(t, -2)
                hand.melds += 1
                best = min(o[0] for o in hand.discard_options())
                hand.melds -= 1
                hand.add(t, 2)
                if best < base:
                    return a
        return "pass"


def _kong_claim(hand: Hand, base: int, legal: Sequence[Action]) -> Action | None:
    """A 放杠 on the discard when it leaves the hand no further from a win; both bots take it."""
    for a in legal:
        if a.startswith("kong"):
            t = _tile(a)
            hand.add(t, -3)
            after = hand.shanten(hand.melds + 1)
            hand.add(t, 3)
            if after <= base:
                return a
    return None


# ---- the efficient bot ----------------------------------------------------------------------------------
class EfficientBot:
    """Tile efficiency tuned to a game without chow, with claim judgement and a read of danger.

    Discards keep the lowest shanten and the most useful tiles, where a tile that turns a held pair into a set
    counts ``pair_weight`` times (anyone's discard brings it, by 碰; a run partial waits on our own draw only);
    exact ties go to the least dangerous tile.  Danger is the expected payment: how close each opponent looks
    (sets laid down, how long it has played) times how likely the tile is one of its waits.

    Options (defaults are the measured best; the others are the variants in docs/bots/huashui.md): ``fold``
    (throw the safest tile when far from ready against a likely-ready seat, thresholds ``fold_far`` /
    ``fold_near``, ``fold_on``), ``keep_share`` (share of the best useful count kept while choosing by safety),
    ``pung_gain`` and ``pung_upto`` (碰 that keeps shanten needs this many times the useful tiles; no 碰 leaving
    more than ``pung_upto`` from ready), ``decline`` / ``decline_ratio`` (pass a 5-point win for a near 对胡),
    ``hold_wall`` / ``hold_live`` (pass discard wins while the wall is long, hoping to self-draw), ``ready_value``
    and ``edge_feed`` (choose the ready shape by weighted waits), ``feed`` (avoid throwing tiles an opponent may
    pung), ``fresh_safe`` (tiles thrown since an opponent's last discard count as safe against it),
    ``honour_bonus`` (push lone honours out first), ``honour_pair_weight`` (a different weight for honour pairs),
    ``defence`` / ``danger_scale`` / ``win_value`` / ``dealt_relief`` (trade the efficient discard for a safer one
    by the fitted models of :mod:`.defence`; off by default: it lowers deal-in but costs points,
    docs/bots/huashui.md), ``pung_model`` (碰 by the fitted win chance, off), ``read`` (``"fit"``: the one-part
    fitted read of waits; ``"split"``: P(ready) × P(wait | ready), :func:`.deal_in_read`; ``"cross"``: the same
    with the tile part crossed with the seat's melds and turns).
    """

    def __init__(self, seed: int = 0, *, pair_weight: float = 3.0, honour_pair_weight: float | None = None,
                 fold: bool = False, fold_far: float = 0.6, fold_near: float = 0.85, fold_on: str = "max",
                 keep_share: float = 1.0, pung_gain: float = 1.5, pung_upto: int = 9, decline: bool = True,
                 decline_ratio: float = 3.0, hold_wall: int = 999, hold_live: int = 4, ready_value: bool = False,
                 edge_feed: float = 1.0, feed: float = 0.0, fresh_safe: bool = False,
                 honour_bonus: float = 0.0, defence: bool = False, win_value: float = 9.5,
                 dealt_relief: float = 2.0, danger_scale: float = 2.0, pung_model: float | None = None,
                 read: str = "fit") -> None:
        self.rng = random.Random(seed)
        self.read = read
        self.pung_model = pung_model
        self.defence = defence
        self.win_value = win_value
        self.dealt_relief = dealt_relief
        self.danger_scale = danger_scale
        self.pair_weight = pair_weight
        self.honour_pair_weight = pair_weight if honour_pair_weight is None else honour_pair_weight
        self.fold = fold
        self.fold_far = fold_far
        self.fold_near = fold_near
        self.fold_on = fold_on
        self.keep_share = keep_share
        self.pung_gain = pung_gain
        self.pung_upto = pung_upto
        self.decline = decline
        self.decline_ratio = decline_ratio
        self.hold_wall = hold_wall
        self.hold_live = hold_live
        self.ready_value = ready_value
        self.edge_feed = edge_feed
        self.feed = feed
        self.fresh_safe = fresh_safe
        self.honour_bonus = honour_bonus

    # ---- reading the table ---------------------------------------------------------------------------
    # Measured on shanten-greedy play (150 deals, omniscient): how often a seat is ready by sets laid down
    # and by its turns (in threes), and how often a tile from our hand is one of a ready seat's waits.
    READY = (
        (0.0, 0.03, 0.11, 0.25, 0.34, 0.34),    # no meld
        (0.06, 0.06, 0.16, 0.35, 0.45, 0.49),   # one pung or kong
        (0.1, 0.3, 0.3, 0.5, 0.72, 0.95),       # two
        (0.5, 0.6, 0.7, 0.8, 0.9, 0.95),        # three or four
    )
    HIT_NUMBER = (0.011, 0.058, 0.062, 0.103)  # by unseen copies 0..3, a tile the seat has not thrown
    HIT_HONOUR = (0.0, 0.0, 0.082, 0.014)      # honours: two unseen means a pair could be waiting
    HIT_THROWN = 0.005                         # a kind the seat has thrown before: it rarely waits on it
    DUI_RATIO = 3.0                            # a 对胡 pays three times a plain win (the page's ×3)

    @classmethod
    def _threat(cls, view: View, seat: int) -> float:
        """How likely ``seat`` is ready to win."""
        melds = len(view["melds"][seat])
        turns = len(view["discards"][seat]) + melds
        return cls.READY[min(melds, 3)][min(turns // 3, 5)]

    def _danger(self, view: View, hand: Hand) -> list[float]:
        """Expected points lost per kind if discarded now: the discarder alone pays 5 (15 for a 对胡)."""
        me = hand.seat
        danger = [0.0] * NUM_KINDS
        unseen = hand.unseen
        for o in range(4):
            if o == me:
                continue
            threat = self._threat(view, o)
            if threat <= 0.0:
                continue
            thrown = {TILE_OF[x] for x in view["discards"][o]}
            if self.fresh_safe:
                # Whoever played after o's last discard threw tiles o did not win on, and o's hand has not
                # changed since: those tiles are not its waits (players who can win take it).
                thrown |= fresh_tiles(view, me, o)
            pay = 6.5 if not view["melds"][o] else 5.0
            for t in range(NUM_KINDS):
                if hand.counts[t]:
                    if t in thrown:
                        hit = self.HIT_THROWN
                    elif t >= 27:
                        hit = self.HIT_HONOUR[min(unseen[t], 3)]
                    else:
                        hit = self.HIT_NUMBER[min(unseen[t], 3)]
                    danger[t] += threat * hit * pay
        return danger

    # ---- decisions -------------------------------------------------------------------------------------
    def act(self, view: View, legal: Sequence[Action]) -> Action:
        hand = Hand(view)
        hand.pair_weight = self.pair_weight
        hand.honour_pair_weight = self.honour_pair_weight
        claim = view.get("claim")
        if "hu" in legal:
            if claim and self.decline and self._decline_small_win(view, hand, claim):
                return "pass"
            return "hu"
        if claim:
            return self._claim(view, hand, legal)
        return self._turn(view, hand, legal)

    def _decline_small_win(self, view: View, hand: Hand, claim: dict[str, Any]) -> bool:
        """Pass a plain 5-point win on a discard only when a 对胡 (×3, or ×3 self-drawn from everyone) is a
        likely draw away: several unseen copies of another wait that makes the pairs shape, and a long wall."""
        if claim.get("robbing"):
            return False
        t = TILE_OF[claim["tile"]]
        if view["wall"] >= self.hold_wall:
            hand.add(t)
            dui_now = hand.melds == 0 and is_even_keys(hand.keys)
            hand.add(t, -1)
            if not dui_now and self._live_waits(hand) >= self.hold_live:
                return True
        if hand.melds or view["wall"] < 40:
            return False
        hand.add(t)
        dui_now = all(c % 2 == 0 for c in hand.counts)
        hand.add(t, -1)
        if dui_now:
            return False
        big_outs = 0
        for w in range(NUM_KINDS):
            if w == t or hand.counts[w] % 2 == 0:
                continue
            hand.add(w)
            if all(c % 2 == 0 for c in hand.counts):
                big_outs += hand.unseen[w]
            hand.add(w, -1)
        return big_outs >= 3 and self.decline_ratio <= self.DUI_RATIO

    @staticmethod
    def _live_waits(hand: Hand) -> int:
        """Unseen copies of every kind that completes the 13-tile hand."""
        keys, live = hand.keys, 0
        for w in range(NUM_KINDS):
            if not hand.unseen[w]:
                continue
            su = SUIT_OF[w]
            keys[su] += POW[w]
            if is_standard_keys(keys) or (hand.melds == 0 and is_even_keys(keys)):
                live += hand.unseen[w]
            keys[su] -= POW[w]
        return live

    def _wait_value(self, hand: Hand) -> float:
        """What a ready 13-tile hand is worth waiting on: unseen copies of each wait, ×3 where it makes a 对胡,
        and more for honours and terminals (players throw them first)."""
        keys, value = hand.keys, 0.0
        concealed = hand.melds == 0
        for w in range(NUM_KINDS):
            if not hand.unseen[w]:
                continue
            su = SUIT_OF[w]
            keys[su] += POW[w]
            dui = concealed and is_even_keys(keys)
            if dui or is_standard_keys(keys):
                edge = w >= 27 or w % 9 in (0, 8)
                value += hand.unseen[w] * (3.0 if dui else 1.0) * (self.edge_feed if edge else 1.0)
            keys[su] -= POW[w]
        return value

    def _turn(self, view: View, hand: Hand, legal: Sequence[Action]) -> Action:
        base = hand.shanten()
        for a in legal:
            if a.startswith("kong"):
                t = _tile(a)
                n = 4 if hand.counts[t] == 4 else 1
                hand.add(t, -n)
                after = hand.shanten(hand.melds + (1 if n == 4 else 0))
                hand.add(t, n)
                if after <= base and (n == 4 or self._safe_to_add(view, hand, t)):
                    return a
        return f"discard {TILE_TEXT[self._choose_discard(view, hand)]}"

    def _safe_to_add(self, view: View, hand: Hand, t: int) -> bool:
        """An added kong can be robbed for 15: skip it late against a likely-ready opponent on a live tile."""
        if hand.unseen[t] > 0:
            return True
        worst = max(self._threat(view, o) for o in range(4) if o != hand.seat)
        return worst < 0.6 or view["wall"] > 30

    def _defending(self, view: View, shanten_now: int) -> bool:
        """Fold when far from ready while someone is likely ready (the discarder alone pays 5 or 15)."""
        if not self.fold:
            return False
        calm = 1.0
        for o in range(4):
            if o != view["viewer"]:
                calm *= 1.0 - self._threat(view, o)
        if self.fold_on == "max":
            risk = max(self._threat(view, o) for o in range(4) if o != view["viewer"])
        else:
            risk = 1.0 - calm
        return (shanten_now >= 2 and risk >= self.fold_far) or (shanten_now >= 1 and risk >= self.fold_near)

    def _choose_discard(self, view: View, hand: Hand) -> int:
        options = hand.discard_options()
        danger = self._danger(view, hand)
        best_s = min(o[0] for o in options)
        if self._defending(view, best_s):
            return min(options, key=lambda o: (round(danger[o[2]], 3), o[0], -o[1], o[2]))[2]
        top = [o for o in options if o[0] == best_s]
        if best_s == 0 and self.ready_value:
            def ready_rank(o: tuple[int, float, int]) -> tuple[float, float, int]:
                hand.add(o[2], -1)
                v = self._wait_value(hand)
                hand.add(o[2], 1)
                return (-v, danger[o[2]], o[2])
            return min(top, key=ready_rank)[2]
        best_u = max(o[1] for o in top)
        good = [o for o in top if o[1] >= self.keep_share * best_u]

        feed = self.feed
        unseen = hand.unseen

        def rank(o: tuple[int, float, int]) -> tuple[float, float, int]:
            lone_honour = o[2] >= 27 and hand.counts[o[2]] == 1
            u = unseen[o[2]]
            fed = feed * (u * (u - 1) / 6.0)
            return (danger[o[2]] + fed - (self.honour_bonus if lone_honour else 0.0), -o[1], o[2])

        choice = min(good, key=rank)[2]
        if self.defence:
            return self._defend(view, hand, options, choice)
        return choice

    def _deal_in(self, view: View, me: int, kinds: list[int], unseen: list[int]) -> list[list[float]]:
        """Per opponent, the chance each kind is one of its waits (a hook: the fit script's oracle knows)."""
        if self.read in ("split", "cross"):
            return deal_in_read(view, me, kinds, unseen, cross=self.read == "cross")
        return deal_in(view, me, kinds, unseen)

    def _defend(self, view: View, hand: Hand, options: list[tuple[int, float, int]], choice: int) -> int:
        """Trade speed for safety where it pays: leave the efficient choice for a safer tile when the points
        its danger costs (the fitted chance it is a wait × the payment) exceed the points of winning chance
        given up (the fitted chance to win × what a win is worth).  Never leave it for speed alone: the
        efficient order (pair-weighted outs) is the measured best."""
        me = hand.seat
        kinds = [o[2] for o in options]
        hit = self._deal_in(view, me, kinds, hand.unseen)
        pay = [0.0 if o == me else (DUI_PAY if not view["melds"][o] else 5.0) - self.dealt_relief
               for o in range(4)]

        def cost(t: int) -> float:
            return self.danger_scale * sum(hit[o][t] * pay[o] for o in range(4) if o != me)

        base_cost = cost(choice)
        if base_cost < 0.01:
            return choice
        wall = view["wall"]
        opp = sum(len(view["melds"][o]) for o in range(4) if o != me)

        def chance(s: int, t: int) -> float:
            hand.add(t, -1)
            pair, other = hand.useful_split(s)
            hand.add(t, 1)
            return win_chance(s, pair, other, wall, hand.melds, opp)

        by_kind = {o[2]: o[0] for o in options}
        base_win = chance(by_kind[choice], choice)
        best, best_gain = choice, 0.0
        for s, _, t in options:
            saved = base_cost - cost(t)
            if saved <= best_gain:
                continue
            gain = saved - self.win_value * max(0.0, base_win - chance(s, t))
            if gain > best_gain:
                best, best_gain = t, gain
        return best

    def _claim(self, view: View, hand: Hand, legal: Sequence[Action]) -> Action:
        base = hand.shanten()
        if self._defending(view, base):
            return "pass"
        kong = _kong_claim(hand, base, legal)
        if kong is not None:
            return kong
        for a in legal:
            if a.startswith("pung"):
                t = _tile(a)
                useful_now = hand.useful(base)
                hand.add(t, -2)
                hand.melds += 1
                opts = hand.discard_options()
                hand.melds -= 1
                hand.add(t, 2)
                s_after = min(o[0] for o in opts)
                u_after = max(o[1] for o in opts if o[0] == s_after)
                if s_after > self.pung_upto:
                    continue
                if self.pung_model is not None:
                    if self._pung_pays(view, hand, t, base, opts, s_after):
                        return a
                    continue
                if s_after < base or (s_after == base and u_after > self.pung_gain * useful_now):
                    return a
        return "pass"


    def _pung_pays(self, view: View, hand: Hand, t: int, base: int, opts: list[tuple[int, float, int]],
                   s_after: int) -> bool:
        """碰 when the fitted chance to win after it (and its best discard) beats passing by ``pung_model``."""
        me = hand.seat
        wall = view["wall"]
        opp = sum(len(view["melds"][o]) for o in range(4) if o != me)
        pair, other = hand.useful_split(base)
        now = win_chance(base, pair, other, wall, hand.melds, opp)
        hand.add(t, -2)
        hand.melds += 1
        best = 0.0
        for s, _, k in opts:
            if s != s_after:
                continue
            hand.add(k, -1)
            pair, other = hand.useful_split(s)
            hand.add(k, 1)
            best = max(best, win_chance(s, pair, other, wall, hand.melds, opp))
        hand.melds -= 1
        hand.add(t, 2)
        return best > (self.pung_model or 1.0) * now


class EasyBot:
    """入门: a beginner's habits: it plays its own hand tile by tile and never looks at the table.

    - **Wins whenever it can** (胡 on any tile, any hand).
    - **Claims every 杠 and 碰 offered**, on a discard or from its own hand: a new player takes every meld it
      is allowed, since a meld looks like progress, even when it breaks a better shape or shows its hand.
    - **Throws the loneliest tile first**: the tile with the fewest neighbours in its hand (other copies, and
      for numbers the tiles of its suit within two); honours go first on a tie, then the first in hand order.
      It counts no useful tiles and no shanten: it only sees which tiles touch.
    - **Never defends**: it never looks at the discards or at who is close to a win.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)     # unused: every habit is a fixed rule (the room reseeds it anyway)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if "hu" in legal:
            return "hu"
        for word in ("kong", "pung"):
            for a in legal:
                if a.startswith(word):
                    return a
        discards = [a for a in legal if a.startswith("discard")]
        if not discards:
            return "pass" if "pass" in legal else legal[0]
        counts = [0] * NUM_KINDS
        for text in view["hand"] or ():
            counts[TILE_OF[text]] += 1

        def lonely(i: int) -> tuple[int, bool, int]:
            t = _tile(discards[i])
            near = sum(counts[u] for u in _NEAR[t]) - 1      # _NEAR[t] holds t itself: its other copies
            return near, t < 27, i

        return discards[min(range(len(discards)), key=lonely)]


BOTS: dict[str, Callable[[int], Bot]] = {
    "efficient": EfficientBot,
    "greedy": ShantenGreedyBot,
    "easy": EasyBot,
}

STRENGTHS: dict[str, str] = {"easy": "easy", "normal": "best", "strong": "best"}
"""The card room's 入门 / 普通 / 高手 (docs/bots.md, "In the card room"); strong is the fast bot until a search
bot is wired here (one line: its kind)."""
