"""A 偎麻雀 bot that looks ahead (issue 37): the tuned bot, with its close choices checked by sampled play-outs.

A whole hand played out by four tuned bots costs only a few milliseconds here (few decisions a hand, each under
a millisecond), so unlike 滑水 the search can afford real play-outs to the hand's end.  At every claim window
(碰 / 吃 / pass; and, with ``discards`` on, at a discard whose best two options the tuned valuation puts within
``gap`` of each other) the bot builds ``worlds`` games from its view with the hidden cards
dealt afresh (``Game.from_view``), plays each candidate in every world with tuned bots in all seats, and scores
the hand's 息 for its seat.  Every candidate meets the same worlds and the same rollout bots (common random
numbers), so the comparison is paired.  It leaves the tuned choice only when another beats it by ``margin`` 息
and by ``z`` standard errors of the world-by-world difference.
"""

from __future__ import annotations

import json
import random
import statistics
import time
import zlib
from collections.abc import Sequence
from typing import Any

from paiju.bots.base import WallClockCap
from paiju.core.game import Action, View

from .cards import parse_card
from .engine import WeimaqueGame

# bots.py registers this class in its BOTS, so the tuned bot is imported where it is used (a cycle otherwise)


class SearchBot(WallClockCap):
    """The 高手 candidate: the tuned bot, with close claims and discards decided by determinized play-outs.

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
        from .bots import TunedBot
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
        from .bots import _Seen
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
    from .bots import TunedBot
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
