"""A 滑水 bot that looks ahead (issue 37): the efficient bot's play, with discards chosen by short sampled futures.

Full play-outs cost about 68 ms each and need hundreds per candidate to tell half a point apart
(docs/bots.md), so the search here never runs the engine.  At a discard with several candidates of the best
shanten it deals the tiles its seat has not seen in a random order many times (the same orders for every
candidate, so the comparison is paired) and plays a few rounds of its own hand only: in each round three tiles
stand for the other seats' discards (a win on one when ready, a 碰 when it lowers shanten) and the fourth is its
own draw (a self-drawn win, else the greedy shanten discard).  A win is worth what the rules pay (5 on a discard,
4 from each of three self-drawn, ×3 for a 对胡), discounted by the chance the hand has ended by then; the
discard's danger (the efficient bot's read of the table) is subtracted.  It leaves the efficient choice only
when another candidate is better by ``margin`` points.  Claims, wins and kongs are the efficient bot's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from paiju.bots.base import WallClockCap
from paiju.core.game import Action, View

from .bots import _NEAR, EfficientBot, Hand, _tile
from .tables import POW, SUIT_OF, shanten
from .tiles import NUM_KINDS, TILE_TEXT


def _is_dui(counts: list[int]) -> bool:
    """A concealed 14-tile hand of pairs (a quad counts two): the 对胡 family."""
    return all(c % 2 == 0 for c in counts)


class SearchBot(WallClockCap):
    """The 高手 of the card room: the efficient bot, with its discard checked by sampled short futures.

    Honest and deterministic: it reads only its view and legal list, and each decision's random stream is seeded
    from the bot's seed and the position (wall size, hand), so the card room may run it in a worker process.
    Its budget is ``samples`` futures per candidate; ``max_seconds`` (the card room's ``budget_seconds``) caps
    the wall-clock time: past it the futures drawn so far decide, and with none the efficient choice stands.
    """

    samples = 48
    """Sampled futures per decision, shared by every candidate (common random numbers)."""
    rounds = 6
    """Rounds of the table simulated after the discard (most hands end within ten draws a player)."""
    hazard = 0.08
    """Chance a round ends the hand by another seat's win (measured ends: about ten draws a player)."""
    margin = 0.15
    """Points a candidate must beat the efficient choice by before the bot leaves it."""
    max_candidates = 4
    danger_weight = 1.0

    def __init__(self, seed: int = 0, samples: int | None = None, max_seconds: float | None = None, *,
                 rounds: int | None = None, margin: float | None = None, hazard: float | None = None,
                 danger_weight: float | None = None, max_candidates: int | None = None) -> None:
        self.seed = seed
        self.normal = EfficientBot(seed)
        if samples is not None:
            self.samples = samples
        if rounds is not None:
            self.rounds = rounds
        if margin is not None:
            self.margin = margin
        if hazard is not None:
            self.hazard = hazard
        if danger_weight is not None:
            self.danger_weight = danger_weight
        if max_candidates is not None:
            self.max_candidates = max_candidates
        self.max_seconds = max_seconds

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        choice = self.normal.act(view, legal)
        if not choice.startswith("discard") or view.get("claim"):
            return choice
        hand = Hand(view)
        hand.pair_weight = self.normal.pair_weight
        hand.honour_pair_weight = self.normal.honour_pair_weight
        options = hand.discard_options()
        best_s = min(o[0] for o in options)
        top = sorted((o for o in options if o[0] == best_s), key=lambda o: (-o[1], o[2]))
        efficient = _tile(choice)
        cands = [efficient] + [o[2] for o in top if o[2] != efficient]
        cands = cands[:self.max_candidates]
        if len(cands) < 2 or best_s < 0:
            return choice
        best = self._search(view, hand, cands)
        return f"discard {TILE_TEXT[best]}"

    # ---- the search ----------------------------------------------------------------------------------
    def _search(self, view: View, hand: Hand, cands: list[int]) -> int:
        start = time.perf_counter()
        key = (self.seed, view["wall"], tuple(hand.counts), hand.melds)
        rng = random.Random(_stable(key))
        danger = self.normal._danger(view, hand)
        pool = [t for t in range(NUM_KINDS) for _ in range(hand.unseen[t])]
        rounds = max(1, min(self.rounds, view["wall"] // 4))
        totals = [0.0] * len(cands)
        done = 0
        for _ in range(self.samples):
            if self.max_seconds is not None and time.perf_counter() - start > self.max_seconds:
                break
            order = pool[:]
            rng.shuffle(order)
            for i, c in enumerate(cands):
                totals[i] += self._future(hand, c, order, rounds)
            done += 1
        if done == 0:
            return cands[0]
        scores = [totals[i] / done - self.danger_weight * danger[c] for i, c in enumerate(cands)]
        best = max(range(len(cands)), key=lambda i: (scores[i], -i))
        if scores[best] - scores[0] > self.margin:
            return cands[best]
        return cands[0]

    def _future(self, hand: Hand, discard: int, order: list[int], rounds: int) -> float:
        """Points this future brings after ``discard``: a few rounds of the table with only our hand played."""
        counts = hand.counts[:]
        keys = hand.keys[:]
        melds = hand.melds
        counts[discard] -= 1
        keys[SUIT_OF[discard]] -= POW[discard]
        alive = 1.0
        pos = 0
        n = len(order)
        for _ in range(rounds):
            # three tiles the other seats throw
            skip_draw = False
            for _ in range(3):
                if pos >= n:
                    return 0.0
                t = order[pos]
                pos += 1
                su = SUIT_OF[t]
                keys[su] += POW[t]
                s = shanten(keys, melds)
                if s < 0:
                    counts[t] += 1
                    dui = melds == 0 and _is_dui(counts)
                    return alive * (15.0 if dui else 5.0)
                keys[su] -= POW[t]
                if counts[t] >= 2 and not skip_draw:
                    base = shanten(keys, melds)
                    counts[t] -= 2
                    keys[su] -= 2 * POW[t]
                    melds += 1
                    after, drop = _greedy_discard(counts, keys, melds)
                    if after < base:
                        counts[drop] -= 1
                        keys[SUIT_OF[drop]] -= POW[drop]
                        skip_draw = True
                    else:
                        melds -= 1
                        counts[t] += 2
                        keys[su] += 2 * POW[t]
            if pos >= n:
                return 0.0
            t = order[pos]
            pos += 1
            if skip_draw:
                alive *= 1.0 - self.hazard
                continue
            counts[t] += 1
            keys[SUIT_OF[t]] += POW[t]
            if shanten(keys, melds) < 0:
                dui = melds == 0 and _is_dui(counts)
                return alive * (36.0 if dui else 12.0)
            _, drop = _greedy_discard(counts, keys, melds)
            counts[drop] -= 1
            keys[SUIT_OF[drop]] -= POW[drop]
            alive *= 1.0 - self.hazard
        return 0.0


def _greedy_discard(counts: list[int], keys: list[int], melds: int) -> tuple[int, int]:
    """The rollout's discard: the lowest shanten, ties to the loneliest tile (fewest neighbours held)."""
    best: tuple[int, int, int] | None = None
    for t in range(NUM_KINDS):
        if not counts[t]:
            continue
        su = SUIT_OF[t]
        keys[su] -= POW[t]
        s = shanten(keys, melds)
        keys[su] += POW[t]
        near = sum(counts[u] for u in _NEAR[t])
        rank = (s, near, t)
        if best is None or rank < best:
            best = rank
    assert best is not None
    return best[0], best[2]


def _stable(key: tuple[object, ...]) -> int:
    """A seed from the position that is the same in every process (``hash`` of a str is salted)."""
    h = 2166136261
    for ch in repr(key):
        h = ((h ^ ord(ch)) * 16777619) & 0xFFFFFFFF
    return h
