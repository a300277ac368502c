"""Quick match (快速开始): one button per game that seats you at once.

You sit at the fullest waiting quick-match table of the game; if there is none, a new public table opens
with you in seat 0, and if nobody fills it within ``Settings.quick_match_seconds`` (20 s), bots take the
empty seats and it starts.  A quick table that fills up with people starts at once.  Only tables opened by
quick match are joined this way: a table someone opened by hand waits for the people they invited.

The waiting tables and their timers live in this process only; after a restart a quick table still waiting
is an ordinary waiting table (anyone seated can add bots and start).
"""

from __future__ import annotations

import asyncio
import logging

from . import scoring
from .auth import Player
from .errors import ErrorCode, RoomError
from .tables import CardTable, Room

log = logging.getLogger("paiju.server.quick")


class QuickMatch:
    def __init__(self, room: Room) -> None:
        self.room = room
        self.waiting: dict[str, asyncio.TimerHandle] = {}
        """Quick tables still waiting for people, with the timer that starts them with bots."""
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def _live(self, game: str) -> list[CardTable]:
        out = []
        for tid in list(self.waiting):
            table = self.room.tables.get(tid)
            if table is None or table.status != "waiting":
                self.waiting.pop(tid).cancel()
                continue
            if table.row.game == game:
                out.append(table)
        return out

    async def join(self, player: Player, game: str) -> CardTable:
        """Seat ``player`` at a quick table of ``game`` (the one they sit at already, the fullest, or a new one)."""
        async with self._lock:  # two people pressing at once land at the same table
            tables = self._live(game)
            for table in tables:
                if table.seat_of(player) is not None:
                    return table
            for table in sorted(tables, key=lambda t: (len(t.seats.empty()), t.row.created_at)):
                for seat in table.seats.empty():
                    try:
                        await table.sit(player, seat)
                    except RoomError:  # someone took it by hand meanwhile
                        continue
                    if not table.seats.empty():
                        await self._start(table)
                    return table
            return await self._open(player, game)

    async def _open(self, owner: Player, game: str) -> CardTable:
        room = self.room
        table = await room.create_table(owner, game, None)
        await room.db.run(lambda c: scoring.set_rule(c, table.id, None))
        await table.sit(owner, 0)
        wait = room.settings.quick_match_seconds
        table.notes["quick_deadline"] = room.settings.clock() + wait
        loop = asyncio.get_running_loop()
        self.waiting[table.id] = loop.call_later(wait, self._spawn, table.id)
        return table

    def _spawn(self, table_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self._timed_out(table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _timed_out(self, table_id: str) -> None:
        async with self._lock:
            self.waiting.pop(table_id, None)
            table = self.room.tables.get(table_id)
            if table is None or table.status != "waiting":
                return
            if all(s.player_id is None for s in table.seats):
                table.notes.pop("quick_deadline", None)  # everyone left: an empty table, started by nobody
                return
            await self._start(table)

    async def _start(self, table: CardTable) -> None:
        """Bots in the empty seats, and the game on, as the first person seated."""
        self.waiting.pop(table.id, None)
        table.notes.pop("quick_deadline", None)
        starter = next((s for s in table.seats if s.player_id is not None), None)
        owner = await self.room.player(starter.player_id if starter else table.row.owner_id)
        if owner is None:
            return
        try:
            await table.fill_bots(owner)
            await table.start(owner)
        except RoomError as e:
            if e.code != ErrorCode.STARTED:
                log.warning("quick table %s could not start: %s", table.id, e.message)

    def close(self) -> None:
        for handle in self.waiting.values():
            handle.cancel()
        self.waiting.clear()
