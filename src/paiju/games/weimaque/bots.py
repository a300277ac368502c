"""Bots for 偎麻雀.  Each reads only its seat's view and legal actions.

The hand never grows in this game: cards come in only as the third card of a 碰, 吃 or 煨, and each such
claim is paid for with a discard.  So a hand is judged by how well its cards already sit in 话 and in
partial 话 that can still be completed, which a small search over blocks measures, one size at a time
(small and big cards never mix), cached on the 10 counts of the size and the liveness of each card.

- :class:`ClosestToWinBot` counts structure only: every full 话 alike, pairs and two-card pieces alike.
- :class:`SmartBot` weighs the same structure by 息 (triples over runs, red over black), by what can still
  come (a pair whose other copies are all shown is only a 麻雀; a piece waiting on 过张 or dead cards is
  worth little), by 团圆 chances, and avoids discards the others could 碰 or 吃.
- :class:`TunedBot` is the same search with fitted weights and a ready-hand term (:func:`waits`): the block
  search cannot see which cards would win, nor the 10 硬息 a win needs.
- :class:`EasyBot` (the room's 入门) has a beginner's habits instead of a search: it claims whenever allowed and
  throws the card with the fewest neighbours.
- :class:`SearchBot` (issue 37) is the tuned bot with its claims decided by play-outs to the hand's end over
  worlds built from its view; not the room's 高手, since it did not beat the tuned bot by the issue's margin.
"""

from __future__ import annotations

import json
import random
import statistics
import time
import zlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from paiju.bots.base import WallClockCap
from paiju.core.game import Action, View

from .cards import IS_RED, NUM_KINDS, alias, parse_card
from .config import WeimaqueConfig
from .engine import WeimaqueGame
from .rules import best_win, is_complete

Weights = tuple[float, ...]
WEIGHT_NAMES = ("triple", "triple_xi", "run", "pair", "pair_live", "red_pair", "adjacent", "gap", "tuanyuan",
                "red_single",  # the first ten: block values of the search (``suit_value``)
                "feed_3", "feed_2",  # a discard others could 碰: three or more unseen copies, exactly two
                "red_card", "few_reds",  # each red card held; hand and melds with at most one red (点胡/乌胡)
                "claim",  # added to every 碰 / 吃 (below zero: claim less)
                "ready", "ready_xi")  # a ready hand: per winning card likely still in the stock, and per 10 息 of it
CLOSEST: Weights = (10.0, 0.0, 10.0, 4.0, 0.0, 0.0, 3.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
SMART: Weights = (11.0, 2.4, 8.0, 5.0, 2.0, 2.0, 2.6, 1.7, 0.8, 0.15, 1.6, 0.7, 0.0, 0.0, 0.0, 0.0, 0.0)
"""The hand-set weights of the first smart bot (``smart``), kept as the baseline the tuned bot is measured on"""
TUNED: Weights = (12.754, 2.453, 7.637, 7.87, 1.94, 1.809, 3.13, 1.7, 1.058, 0.598, 1.076, 0.889, -0.076, -3.484,
                   -0.718, 3.0, 12.0)
"""The first fifteen fitted by ``python -m paiju.games.weimaque.tune`` (the ES's mean after generation 10 of 20), the
ready-hand terms chosen on screening deals; a paired coordinate search then moved none (docs/bots/weimaque.md)"""


@lru_cache(maxsize=1 << 18)
def suit_value(suit: tuple[int, ...], live: tuple[int, ...], red_base: int, w: Weights) -> float:
    """Best sum of block values for one size: ``live[i]`` is 0 (dead), 1 (own draw only), 2 (claimable)."""
    i = next((j for j, n in enumerate(suit) if n), -1)
    if i < 0:
        return 0.0
    s = list(suit)
    red = IS_RED[red_base + i]
    best = -1e9

    def sub(delta: dict[int, int]) -> tuple[int, ...]:
        t = list(s)
        for k, d in delta.items():
            t[k] -= d
        return tuple(t)

    if s[i] >= 3:
        v = w[0] + w[1] * (4 if red else 3) + (w[8] * (1.5 if red else 1.0) if live[i] and s[i] == 3 else 0.0)
        best = max(best, v + suit_value(sub({i: 3}), live, red_base, w))
    if i <= 7 and s[i + 1] and s[i + 2]:
        best = max(best, w[2] + suit_value(sub({i: 1, i + 1: 1, i + 2: 1}), live, red_base, w))
    if s[i] >= 2:
        v = w[3] + (w[4] * live[i] / 2) + (w[5] if red else 0.0)
        if not live[i]:
            v *= 0.6
        best = max(best, v + suit_value(sub({i: 2}), live, red_base, w))
    if i <= 8 and s[i + 1]:
        need = [k for k in (i - 1, i + 2) if 0 <= k <= 9]
        liveness = max((live[k] for k in need), default=0)
        best = max(best, w[6] * liveness / 2 + suit_value(sub({i: 1, i + 1: 1}), live, red_base, w))
    if i <= 7 and s[i + 2]:
        best = max(best, w[7] * live[i + 1] / 2 + suit_value(sub({i: 1, i + 2: 1}), live, red_base, w))
    single = w[9] if red else 0.0
    best = max(best, single + suit_value(sub({i: 1}), live, red_base, w))
    return best


RED_KINDS = tuple(k for k in range(NUM_KINDS) if IS_RED[k])


def hand_value(hand: Sequence[int], live: Sequence[int], w: Weights, meld_reds: int = 0) -> float:
    """The block search of both sizes, plus the red-count terms (which no single size can see)."""
    v = (suit_value(tuple(hand[:10]), tuple(live[:10]), 0, w[:10])
         + suit_value(tuple(hand[10:]), tuple(live[10:]), 10, w[:10]))
    if w[12] or w[13]:
        reds = sum(hand[k] for k in RED_KINDS)
        v += w[12] * reds + (w[13] if reds + meld_reds <= 1 else 0.0)
    return v


Melds = tuple[tuple[str, tuple[int, ...]], ...]


DEFAULT_RULES = WeimaqueConfig()


@lru_cache(maxsize=64)
def rules_of(items: tuple[tuple[str, Any], ...]) -> WeimaqueConfig:
    """The table's rules from its view (a few tables' worth kept: every decision reads them)."""
    return WeimaqueConfig.from_dict(dict(items))


@lru_cache(maxsize=1 << 16)
def waits(hand: tuple[int, ...], melds: Melds, config: WeimaqueConfig = DEFAULT_RULES
          ) -> tuple[tuple[int, int], ...]:
    """(card, total 息) for every card that would win this hand if someone drew it (scored as another player's
    draw: a held pair completed is a 碰), only wins with the 硬息 the table's rules ask, valued by its 名堂
    table: what the block search cannot see."""
    out = []
    h = list(hand)
    for c in range(NUM_KINDS):
        if h[c] >= 4:
            continue
        h[c] += 1
        done = is_complete(h)
        h[c] -= 1
        if done:
            win = best_win(hand, melds, c, own_draw=False, config=config, counts=True)
            if win is not None:
                out.append((c, win.total))
    return tuple(out)


class _Seen:
    """What a seat knows from its view: its hand, every shown card, 过张, the seats around it."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.me: int = view["viewer"]
        self.rules = rules_of(tuple(sorted(view["rules"].items())))
        self.hand = [0] * NUM_KINDS
        for c in view.get("hand", []):
            self.hand[parse_card(c)] += 1
        shown = [0] * NUM_KINDS
        for melds in view["melds"]:
            for m in melds:
                for c in m["cards"]:
                    if c != "??":
                        shown[parse_card(c)] += 1
        for pile in view["discards"]:
            for c in pile:
                shown[parse_card(c)] += 1
        exp = view.get("exposed")
        self.exposed = parse_card(exp["card"]) if exp else -1
        if self.exposed >= 0:
            shown[self.exposed] += 1
        self.unseen = [max(0, 4 - shown[k] - self.hand[k]) for k in range(NUM_KINDS)]
        self.guo = {parse_card(c) for c in view.get("guozhang", [])}
        self.players: list[int] = view["players"]
        self.locked = {parse_card(c) for c in view["locked"][self.me]} if 0 <= self.me < 4 else set()
        mine = view["melds"][self.me] if 0 <= self.me < len(view["melds"]) else []
        self.meld_reds = sum(1 for m in mine for c in m["cards"] if c != "??" and IS_RED[parse_card(c)])
        self.melds: Melds = tuple((m["kind"], tuple(parse_card(c) for c in m["cards"])) for m in mine
                                  if "??" not in m["cards"])
        hidden = sum(n for s, n in enumerate(view.get("hand_counts", [])) if s != self.me)
        stock = view.get("stock", 0)
        self.in_stock = stock / (stock + hidden) if stock + hidden else 0.0
        """The chance that a card this seat has not seen lies in the stock (else it sits in another's hand)"""

    def live(self, exclude: int = -1) -> list[int]:
        out = []
        for k in range(NUM_KINDS):
            n = self.unseen[k] - (1 if k == exclude else 0)
            out.append(0 if n <= 0 else 1 if k in self.guo else 2)
        return out


class _HandBot:
    weights: Weights = CLOSEST

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        self.rng = random.Random(seed)
        if weights is not None:
            if len(weights) != len(WEIGHT_NAMES):
                raise ValueError(f"{len(WEIGHT_NAMES)} weights expected ({', '.join(WEIGHT_NAMES)})")
            self.weights = tuple(weights)

    def risk(self, seen: _Seen, k: int) -> float:
        if k in seen.guo:
            return 0.0
        u = seen.unseen[k]
        return self.weights[10] if u >= 3 else self.weights[11] if u == 2 else 0.0

    def ready(self, seen: _Seen, hand: list[int], melds: Melds) -> float:
        """A ready hand's worth: each winning card still unseen, by the chance it is in the stock, valued
        ``ready`` plus ``ready_xi`` per 10 息 of the win it makes."""
        w = self.weights
        if not (w[15] or w[16]) or seen.in_stock <= 0.0:
            return 0.0
        return seen.in_stock * sum(seen.unseen[c] * (w[15] + w[16] * total / 10.0)
                                   for c, total in waits(tuple(hand), melds, seen.rules))

    def best_discard(self, seen: _Seen, hand: list[int], allowed: Sequence[int],
                     meld_reds: int | None = None, melds: Melds | None = None) -> tuple[float, int]:
        live = seen.live()
        if meld_reds is None:
            meld_reds = seen.meld_reds
        if melds is None:
            melds = seen.melds
        best = (-1e9, allowed[0])
        for k in allowed:
            hand[k] -= 1
            v = hand_value(hand, live, self.weights, meld_reds) - self.risk(seen, k) + self.ready(seen, hand, melds)
            hand[k] += 1
            if v > best[0] + 1e-9 or (abs(v - best[0]) <= 1e-9 and self.rng.random() < 0.5):
                best = (v, k)
        return best

    def act(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        if "hu" in legal:
            return "hu"
        seen = _Seen(view)
        if view["phase"] == "discard":
            allowed = [parse_card(a.split()[1]) for a in legal if a.startswith("discard")]
            return f"discard {alias(self.best_discard(seen, seen.hand, allowed)[1])}"
        return self.claim(seen, legal)

    def claim(self, seen: _Seen, legal: Sequence[str]) -> str:
        card = seen.exposed
        live = seen.live()
        stay = hand_value(seen.hand, live, self.weights, seen.meld_reds) + self.ready(seen, seen.hand, seen.melds)
        best, choice = stay, "pass"
        for a in legal:
            if a == "pass":
                continue
            hand = list(seen.hand)
            if a == "peng":
                hand[card] -= 2
                meld = self.weights[0] + self.weights[1] * (3 if IS_RED[card] else 2)
                reds = 3 * IS_RED[card]
                group: tuple[str, tuple[int, ...]] = ("peng", (card, card, card))
            else:
                x, y = (parse_card(t) for t in a.split()[1:])
                hand[x] -= 1
                hand[y] -= 1
                meld = self.weights[2]
                reds = IS_RED[card] + IS_RED[x] + IS_RED[y]
                group = ("chi", tuple(sorted((card, x, y))))
            allowed = [k for k in range(NUM_KINDS) if 0 < hand[k] < 3 and k != card and k not in seen.locked]
            if not allowed:
                continue
            v = meld + self.weights[14] + self.best_discard(seen, hand, allowed, seen.meld_reds + reds,
                                                                         (*seen.melds, group))[0]
            if v > best + 1e-9:
                best, choice = v, a
        return choice


class ClosestToWinBot(_HandBot):
    """Plain 'closest to a win': structure only, no 息, no reading of the table beyond its own hand."""

    weights = CLOSEST


class SmartBot(_HandBot):
    """Close to a win with enough 息: triples and reds first, live cards counted, 碰 and 吃 not fed."""

    weights = SMART


class TunedBot(_HandBot):
    """The smart bot's search with weights fitted by duplicate self-play against it (``tune.py``)."""

    weights = TUNED


class EasyBot:
    """入门: a beginner's habits: it grabs every card it may and keeps the cards that touch.

    - **Wins whenever it can** (胡).
    - **Claims whenever allowed**: 碰 before 吃, the first 吃 offered; it never holds back to keep a pair or to
      hide its hand, since a claimed 话 looks like progress.
    - **Throws the card with the fewest neighbours**: other copies, cards of its size within two of its number,
      and the same number of the other size (大小 mixed groups); first in hand order on a tie.  It weighs no
      息, no red cards and no 过张, and never asks whether the others could 碰 or 吃 the card.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)     # unused: every habit is a fixed rule (the room reseeds it anyway)

    def act(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        if "hu" in legal:
            return "hu"
        discards = [parse_card(a.split()[1]) for a in legal if a.startswith("discard")]
        if not discards:
            return next((a for w in ("peng", "chi") for a in legal if a.startswith(w)), "pass")
        hand = [0] * NUM_KINDS
        for c in view.get("hand") or ():
            hand[parse_card(c)] += 1

        def neighbours(k: int) -> int:
            size = k - k % 10
            near = sum(hand[size + n] for n in range(max(0, k % 10 - 2), min(10, k % 10 + 3)))
            return near - 1 + hand[(k + 10) % 20]

        k = min(discards, key=lambda k: (neighbours(k), discards.index(k)))
        return f"discard {alias(k)}"


class SearchBot(WallClockCap):
    """The 高手 candidate (issue 37): the tuned bot, with its claims decided by determinized play-outs.

    A whole hand played out by four tuned bots costs a few milliseconds (few decisions a hand, each under a
    millisecond), so unlike 滑水 the search can afford real play-outs to the hand's end.  At every claim window
    (碰 / 吃 / pass; and, with ``discards`` on, at a discard whose best two options the tuned valuation puts
    within ``gap`` of each other) the bot builds ``worlds`` games from its view with the hidden cards dealt
    afresh (``Game.from_view``), plays each candidate in every world with tuned bots in all seats, and scores the
    hand's 息 for its seat.  Every candidate meets the same worlds and rollout bots (common random numbers), so
    the comparison is paired; it leaves the tuned choice only when another beats it by ``margin`` 息 and by ``z``
    standard errors of the world-by-world difference.

    Honest and stateless: it reads only its view and legal list, and each decision's random stream is seeded
    from the bot's seed and the view, so the card room may build it afresh in a worker process.  ``max_seconds``
    (the room's ``budget_seconds``) caps the wall-clock time: the worlds finished by then decide, and with
    fewer than ``min_worlds`` the tuned choice stands.
    """

    worlds = 16
    """Sampled worlds per decision, each played once per candidate (common random numbers)."""
    max_candidates = 3
    """The tuned choice and the tuned bot's next best options, at most this many in all."""
    gap = 3.0
    """A discard is searched only when the tuned valuation's best two options are this close (its units)."""
    margin = 0.5
    """息 a candidate must beat the tuned choice by, on the worlds' mean, before the bot leaves it."""
    z = 1.0
    """Standard errors of the paired world-by-world difference a candidate must also beat the tuned choice by."""
    min_worlds = 4
    claims = True
    """Whether claim windows (碰 / 吃 / pass) are searched."""
    discards = False
    """Whether close discards are searched too (off: on the tuning deals it cost twice the time and did worse)."""

    def __init__(self, seed: int = 0, worlds: int | None = None, max_seconds: float | None = 0.5, *,
                 max_candidates: int | None = None, gap: float | None = None, margin: float | None = None,
                 claims: bool | None = None, discards: bool | None = None, z: float | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.normal = TunedBot(seed)
        self.max_seconds = max_seconds
        if worlds is not None:
            self.worlds = worlds
        if max_candidates is not None:
            self.max_candidates = max_candidates
        if gap is not None:
            self.gap = gap
        if margin is not None:
            self.margin = margin
        if z is not None:
            self.z = z
        if claims is not None:
            self.claims = claims
        if discards is not None:
            self.discards = discards

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        key = _stable(self.seed, view)
        self.normal.rng.seed(key)
        choice = self.normal.act(view, legal)
        if "hu" in legal or len(legal) < 2:
            return choice
        if view["phase"] == "discard":
            if not self.discards:
                return choice
            cands = self._close_discards(view, legal, choice)
        else:
            if not self.claims:
                return choice
            rest = sorted((a for a in legal if a != choice), key=lambda a: (a != "pass", not a.startswith("peng")))
            cands = [choice, *rest]
        cands = cands[:self.max_candidates]
        if len(cands) < 2:
            return choice
        return self._search(view, cands, key, start)

    def _close_discards(self, view: View, legal: Sequence[Action], choice: Action) -> list[Action]:
        """The tuned choice, then the other discards the tuned valuation puts within ``gap`` of the best."""
        seen = _Seen(view)
        scored = []
        for a in legal:
            k = parse_card(a.split()[1])
            scored.append((self.normal.best_discard(seen, list(seen.hand), [k])[0], a))
        top = max(v for v, _ in scored)
        close = sorted(((v, a) for v, a in scored if a != choice and top - v <= self.gap), reverse=True)
        return [choice, *(a for _, a in close)]

    def _search(self, view: View, cands: list[Action], key: int, start: float) -> Action:
        """Each candidate's 息 over the same sampled worlds; the tuned choice (first) unless another beats it by
        ``margin`` on the mean and by ``z`` standard errors of the world-by-world difference."""
        me = int(view["viewer"])
        scores: list[list[float]] = [[] for _ in cands]
        spent = 0.0
        for w in range(self.worlds):
            done = len(scores[0])
            elapsed = time.perf_counter() - start
            if self.max_seconds is not None and done and elapsed + 2.0 * spent / done > self.max_seconds:
                break
            t0 = time.perf_counter()
            world_seed = (key * 1_000_003 + w) & 0xFFFFFFFFFFFF
            for i, a in enumerate(cands):
                scores[i].append(_play_out(view, me, a, world_seed))
            spent += time.perf_counter() - t0
        n = len(scores[0])
        if n < self.min_worlds:
            return cands[0]
        best, best_edge = 0, 0.0
        for i in range(1, len(cands)):
            diff = [x - y for x, y in zip(scores[i], scores[0], strict=True)]
            mean = statistics.fmean(diff)
            se = statistics.stdev(diff) / n ** 0.5
            if mean > self.margin and mean > self.z * se and mean > best_edge:
                best, best_edge = i, mean
        return cands[best]


def _play_out(view: View, me: int, action: Action, world_seed: int) -> float:
    """The seat's 息 from this hand in one world: ``action`` now, then four tuned bots to the hand's end."""
    game = WeimaqueGame.from_view(view, random.Random(world_seed))
    before = game.totals()[me]
    bots = [TunedBot(world_seed + s) for s in range(4)]
    hands = game.hands_finished()
    game.apply(me, action)
    while not game.finished and game.hands_finished() == hands:
        seat = game.to_move()[0]
        game.apply(seat, bots[seat].act(game.view(seat), game.legal_actions(seat)))
    return float(game.totals()[me] - before)


def _stable(seed: int, view: dict[str, Any]) -> int:
    """A seed from the bot's seed and the view, the same in every process (``hash`` of a str is salted)."""
    return zlib.crc32(json.dumps([seed, view], sort_keys=True, ensure_ascii=False, default=str).encode())


BOTS: dict[str, Callable[[int], Any]] = {"tuned": TunedBot, "smart": SmartBot, "closest": ClosestToWinBot,
                                       "easy": EasyBot, "search": SearchBot}

STRENGTHS: dict[str, str] = {"easy": "easy", "normal": "best", "strong": "best"}
"""The card room's 入门 / 普通 / 高手 (docs/bots.md, "In the card room"): 高手 and 普通 are both the tuned fast bot;
the search bot (``search``) did not beat it by the issue's margin on fresh deals (docs/bots/weimaque.md, "The search
bot"), so it is not wired here."""
