"""Quick match (快速开始): one button per game that seats you at once.

You sit at the fullest waiting quick-match table of the game; if there is none, a new public table opens
with you in seat 0, and if nobody fills it within ``Settings.quick_match_seconds`` (20 s), bots take the
empty seats and it starts.  A quick table that fills up with people starts at once.  Only tables opened by
quick match are joined this way: a table someone opened by hand waits for the people they invited.

One process: the waiting tables and their timers live in it; after a restart a quick table still waiting
is an ordinary waiting table (anyone seated can add bots and start).

Several workers (cluster.py): the waiting list is the room's, a sorted set per game in Redis, joined under
a room-wide lock per game, so two people pressing at two workers land at the same table.  A seat is taken at
the table's owner (a call, ``quick_sit``), which alone keeps the table's bot timer: the bots come once.  A
table whose owner died is taken over by the next press that finds it (the call claims it), and its new owner
starts the timer again.  Each player's quick seat is remembered in Redis too: the lobby's hint of a table
is written 50 ms late, and a press must find its own seat even when the hint still shows it empty.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..cluster.redis_cluster import RedisCluster
from ..errors import ErrorCode, RoomError
from ..room.room import Room
from ..room.table import CardTable
from ..scores import scoring
from ..storage import Player

log = logging.getLogger("paiju.server.lobby.quick")


class QuickMatch:
    def __init__(self, room: Room) -> None:
        self.room = room
        self.waiting: dict[str, asyncio.TimerHandle] = {}
        """Quick tables still waiting for people, with the timer that starts them with bots."""
        self._lock = asyncio.Lock()
        self._joining = asyncio.Lock()
        """Several workers: this process's joins wait here, not all polling the room-wide lock at once."""
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

    async def join_shared(self, player: Player, game: str) -> dict[str, Any]:
        """Several workers: ``join`` over the room's waiting list in Redis; the table as ``player`` sees it."""
        cluster = self.room.cluster
        assert isinstance(cluster, RedisCluster)
        async with self._joining, cluster.locked(f"quick:{game}"):
            listed, seated = await cluster.quick_tables(game, player.id)

            def order(item: tuple[str, dict[str, Any] | None]) -> tuple[bool, int]:
                """Their own table first (as remembered, or by the lobby's hint), then the fullest (by the hint;
                oldest first among equals).  A table not in the lobby yet (its owner writes it 50 ms late) may be
                theirs: first too."""
                tid, info = item
                if info is None or tid == seated:
                    return False, 0
                seats = info.get("seats") or []
                mine = any((s.get("player") or {}).get("id") == player.id for s in seats)
                return not mine, sum(1 for s in seats if s.get("player") is None and s.get("bot") is None)

            for item in sorted(listed, key=order):
                tid = item[0]
                try:
                    info = await cluster.call(tid, "quick_sit", player, {})
                    await cluster.quick_seated(game, player.id, tid)
                    return info
                except RoomError as e:
                    if e.code == ErrorCode.OWNER_UNAVAILABLE:
                        if not order(item)[0]:  # their seat (maybe) is between owners: not a second one elsewhere
                            raise
                        continue  # another table may do
                    if e.code in (ErrorCode.NO_TABLE, ErrorCode.STARTED):  # no longer waiting for people
                        await cluster.quick_remove(game, tid)
                        continue
                    raise
            table = await self._open(player, game)
            await cluster.quick_add(game, table)
            await cluster.quick_seated(game, player.id, table.id)
            return table.info(for_player=player)

    async def sit_here(self, player: Player, table: CardTable, data: dict[str, Any]) -> dict[str, Any]:
        """At the table's owner, for a join at any worker: a seat for ``player`` (the one they hold already,
        or a free one), the start if that filled the table, else the bot timer kept here."""
        async with self._lock:
            if table.status != "waiting":
                raise RoomError(ErrorCode.STARTED, "this quick table has started", 409, zh="这张快速开始的牌桌已开局")
            if table.seat_of(player) is None:
                for seat in table.seats.empty():
                    try:
                        await table.sit(player, seat)
                        break
                    except RoomError:  # someone took it by hand meanwhile
                        continue
                else:
                    raise RoomError(ErrorCode.STARTED, "this quick table is full", 409, zh="这张快速开始的牌桌已满")
            if not table.seats.empty():
                await self._start(table)
            elif table.id not in self.waiting:  # its first owner is gone: the timer starts again here
                self._arm(table)
            return table.info(for_player=player)

    async def _open(self, owner: Player, game: str) -> CardTable:
        room = self.room
        table = await room.create_table(owner, game, None)
        await room.db.run(lambda c: scoring.set_rule(c, table.id, None))
        await table.sit(owner, 0)
        self._arm(table)
        return table

    def _arm(self, table: CardTable) -> None:
        """Bots in ``quick_match_seconds`` unless people fill the table first."""
        wait = self.room.settings.quick_match_seconds
        table.notes["quick_deadline"] = self.room.settings.clock() + wait
        self.waiting[table.id] = asyncio.get_running_loop().call_later(wait, self._spawn, table.id)

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
                await self._unlist(table)
                return
            await self._start(table)

    async def _unlist(self, table: CardTable) -> None:
        """Several workers: off the room's waiting list."""
        cluster = self.room.cluster
        if isinstance(cluster, RedisCluster):
            await cluster.quick_remove(table.row.game, table.id)

    async def _start(self, table: CardTable) -> None:
        """Bots in the empty seats, and the game on, as the first person seated."""
        self.waiting.pop(table.id, None)
        table.notes.pop("quick_deadline", None)
        await self._unlist(table)
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

    def commands(self) -> dict[str, Any]:
        """The call other workers make here (cluster.py): a quick seat at a table this worker owns."""
        return {"quick_sit": self.sit_here}

    def close(self) -> None:
        for handle in self.waiting.values():
            handle.cancel()
        self.waiting.clear()
