"""提示 (hints): the strong bot's choice for a person's own seat, at casual tables only (issue 38).

A hint is a bot playing the person's seat for one decision, so it sees exactly what a bot in that seat would:
the seat's view and legal list, nothing else (the hint for a seat is the same whatever the other seats hold;
tests/server/test_server_hints.py checks it).  A rated table never offers one: a hint there would be an
engine at the table.  Hints are the room's lowest priority: one goes to the strong bots' search pool only while
a worker there is free (the strong bots at tables come first); otherwise the normal bot answers at once, and the
hint says which bot it was.  Each player may ask ``hint_burst`` in any ``hint_burst * hint_every_seconds``
seconds, over all their sockets and workers.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from paiju.bots.base import bot_maker, reseed

from ..errors import ErrorCode, RoomError
from ..limits import Shared, Throttle, count
from ..settings import Settings
from .bots import NORMAL, STRONG, searches, strengths_of
from .conn import Conn, dumps
from .table import CardTable

HINT_SALT = 0x5EED_417
"""Mixed into the decision's seed: a hint is its own draw, not the one the seat's bot would make."""


class Hints:
    """Answers ``{"type": "hint"}``: checks, the per-player limit, and the choice."""

    def __init__(self, settings: Settings, shared: Shared | None = None) -> None:
        self.settings = settings
        self.shared = shared
        self.throttle = Throttle(settings.hint_burst, settings.hint_burst * settings.hint_every_seconds,
                                 settings.clock, "hint")

    async def hint(self, table: CardTable, conn: Conn) -> None:
        """Send the hint for the asker's decision now, to the asker only."""
        async with table.lock:
            seat = table.seat_of(conn.player)
            if conn.player is None or seat is None or table.seats.is_bot(seat):
                raise RoomError(ErrorCode.NOT_SEATED, "hints are for the person playing a seat",
                                zh="只有入座打牌的人才能要提示")
            if not table.offers_hints:
                raise RoomError(ErrorCode.HINTS_OFF, "no hints at a rated table", zh="计分局不提供提示")
            g = table.game
            if table.status != "playing" or table.pause is not None or seat not in g.to_move() \
                    or seat in table.held:
                raise RoomError(ErrorCode.NOT_YOUR_TURN, "a hint is for a decision of yours now",
                                zh="轮到你做决定时才能要提示")
            seq = table.seq
            legal = list(g.legal_actions(seat))
            view = json.loads(dumps(g.view(seat, copy=False)))  # the seat's own, copied: read off the lock
            seed = table.bots.decision_seed(seat, seq) ^ HINT_SALT
        wait = await count(self.shared, self.settings.clock, "take", [(self.throttle, "h:" + conn.player.id)])
        if wait is not None:
            raise RoomError(ErrorCode.SLOW_DOWN, f"too many hints: wait {wait:.1f} s",
                            zh=f"提示要得太快了：请等 {wait:.1f} 秒")
        action, by = await self.choose(table, seed, view, legal)
        async with table.lock:
            if table.seq != seq or action is None or not g.is_legal(seat, action):
                raise RoomError(ErrorCode.STALE, "the table moved on while the hint was thought of: ask again",
                                zh="想提示时牌局已经变了：请再要一次")
            out: dict[str, Any] = {"type": "hint", "seq": seq, "action": action, "zh": g.describe(action, "zh"),
                                   "en": g.describe(action, "en"), "by": by}
        conn.send(dumps(out))

    async def choose(self, table: CardTable, seed: int, view: dict[str, Any],
                     legal: list[str]) -> tuple[str | None, str]:
        """(action, which bot: ``strong`` or ``normal``).  The search pool only while a worker is free."""
        game, kinds = table.row.game, strengths_of(table.row.game)
        pool = table.bots.search
        if pool is not None and searches(game) and pool.ready and pool.busy() is None \
                and pool.in_flight < pool.workers:
            action = await pool.decide(bot_maker(game, kinds[STRONG]), seed, view, legal)
            if action is not None:
                return action, STRONG
        elif pool is not None and searches(game):
            pool.prepare()  # the next hint may find the workers up
        strong = not searches(game)  # a game whose strong bot is its normal one: the answer is the strong one
        bot = table.bots.factory(game, kinds[STRONG] if strong else kinds[NORMAL], seed)

        def ask() -> str:
            reseed(bot, seed)
            return bot.act(view, legal)

        return await asyncio.to_thread(ask), STRONG if strong else NORMAL
