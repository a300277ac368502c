"""What the room counts and lists across its workers: limits, sockets, locks, quick match and the lobby.

So a client gets no more by spreading its requests over workers (``limits.Shared``, ``limits.Sockets``), quick
match fills the fullest waiting table whichever worker holds it, and every worker's lobby lists every public
table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from ..room.conn import dumps
from ..room.ownership import moved_error
from .base import ClusterBase, text_of

if TYPE_CHECKING:

    from ..room.table import CardTable

log = logging.getLogger("paiju.server.cluster.shared")

QUICK_SEAT_SECONDS = 3600
"""How long the room remembers a player's quick seat (quick.py): far past any quick table's wait for bots."""


class Shared(ClusterBase):
    """What the workers count and list together: rate limits, websockets per address, named locks, quick
    match's waiting tables, and the lobby's public tables."""

    async def limit(self, mode: str, now: float, items: list[tuple[str, int, float]], member: str | None = None
                    ) -> float | None:
        """The room-wide rate limits (limits.Shared): one sliding window per key, shared by every worker.
        ``member`` names the hit (a reservation ``release`` may take back); else a name of its own."""
        self._hits += 1
        member = member or f"{self.worker_id}:{self._hits}"
        keys = [f"{self.p}lim:{key}" for key, _limit, _window in items]
        args: list[Any] = [mode, int(now * 1000), member]
        for _key, limit, window in items:
            args += [limit, int(window * 1000)]
        wait_ms = int(await self._limit(keys=keys, args=args))
        return wait_ms / 1000 if wait_ms > 0 else None

    async def open_socket(self, address: str, mine: int, limit: int) -> bool:
        """limits.SharedSockets: whether one more websocket of ``address`` fits the room's limit (ours counted
        as ``mine``, the new one included)."""
        return bool(await self._sockets(keys=[self._key("sock", address), self._key("socks", self.worker_id)],
                                        args=[self.worker_id, self.p, mine, limit]))

    async def closed_socket(self, address: str, mine: int) -> None:
        await self._sockets(keys=[self._key("sock", address), self._key("socks", self.worker_id)],
                            args=[self.worker_id, self.p, mine, ""])

    async def _forget_sockets(self, worker: str) -> None:
        """A gone worker's open websockets count no more (its parts of every address's count go)."""
        keys = [text_of(k) for k in await self.redis.smembers(self._key("socks", worker))]
        async with self.redis.pipeline(transaction=False) as pipe:
            for k in keys:
                pipe.hdel(k, worker)
            pipe.delete(self._key("socks", worker))
            await pipe.execute()

    # ---- quick match's shared waiting list (quick.py) -------------------------------------------------
    @contextlib.asynccontextmanager
    async def locked(self, name: str) -> AsyncIterator[None]:
        """A room-wide lock held by one worker at a time; it runs out by itself after three call timeouts,
        so a worker that dies holding it stops nobody for long."""
        key, token = self._key("lock", name), secrets.token_hex(8)
        hold = self.call_seconds * 3
        until = time.monotonic() + hold
        while not await self.redis.set(key, token, nx=True, px=int(hold * 1000)):
            if time.monotonic() > until:
                raise moved_error("the room is busy; try again")
            await asyncio.sleep(0.02)
        try:
            yield
        finally:
            with contextlib.suppress(Exception):
                await self._unlock(keys=[key], args=[token])

    async def quick_tables(self, game: str, player_id: str
                           ) -> tuple[list[tuple[str, dict[str, Any] | None]], str | None]:
        """The game's waiting quick tables, oldest first, each with its lobby entry if there is one (a hint
        of its seats: the owner decides); and the quick table the player was last seated at (it may have
        started since), read in the same round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrange(self._key("quick", game), 0, -1)
            pipe.get(self._key("quickseat", game, player_id))
            listed, seated = await pipe.execute()
        mine = None if seated is None else text_of(seated)
        tids = [text_of(t) for t in listed]
        if not tids:
            return [], mine
        infos: Any = await self.redis.hmget(self._key("info"), tids)
        return [(tid, None if text is None else json.loads(text))
                for tid, text in zip(tids, infos, strict=True)], mine

    async def quick_add(self, game: str, table: CardTable) -> None:
        await self.redis.zadd(self._key("quick", game), {table.id: table.row.created_at})

    async def quick_remove(self, game: str, table_id: str) -> None:
        with contextlib.suppress(Exception):  # a stale entry is dropped by the next join that finds it
            await self.redis.zrem(self._key("quick", game), table_id)

    async def quick_seated(self, game: str, player_id: str, table_id: str) -> None:
        """Remember the seat here, not only in the lobby hint: the hint is written 50 ms late, so an owner that
        dies just after seating someone may leave a hint that shows their seat empty."""
        await self.redis.set(self._key("quickseat", game, player_id), table_id, ex=QUICK_SEAT_SECONDS)

    # ---- the lobby ------------------------------------------------------------------------------------
    def changed(self, table: CardTable) -> None:
        self._notes[table.id] = table
        if len(self._notes) == 1:
            asyncio.get_running_loop().call_later(0.05, self._note_soon)

    def _note_soon(self) -> None:
        asyncio.get_running_loop().create_task(self._write_notes())

    async def _write_notes(self) -> None:
        notes, self._notes = self._notes, {}
        room = self.room
        assert room is not None
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for tid, t in notes.items():
                    if room.tables.get(tid) is t and not t.row.private and t.row.status in ("waiting", "playing"):
                        pipe.zadd(self._key("lobby"), {tid: t.row.created_at})
                        pipe.hset(self._key("info"), tid, dumps(t.info()))
                    elif tid not in room.tables or t.row.status not in ("waiting", "playing"):
                        pipe.zrem(self._key("lobby"), tid)
                        pipe.hdel(self._key("info"), tid)
                    # an ended table is ours while we keep it (its rematch, its result); then nobody's
                    if t.row.status in ("finished", "closed", "expired") and room.tables.get(tid) is not t:
                        pipe.delete(self._key("own", tid))
                        pipe.srem(self._key("tables", self.worker_id), tid)
                await pipe.execute()
        except Exception:
            log.warning("worker %s: cannot write the lobby to Redis", self.worker_id)

    async def lobby_page(self, after: tuple[float, str] | None, limit: int, game: str | None
                         ) -> tuple[list[str], tuple[float, str] | None]:
        """Every worker's public tables, newest first: (their info as JSON text, the next page's key)."""
        top: float | str = "+inf" if after is None else after[0]
        out: list[str] = []
        keys: list[tuple[float, str]] = []
        offset = 0
        chunk = max(limit * 2, 100)
        while len(out) < limit:
            got: Any = await self.redis.zrevrangebyscore(self._key("lobby"), top, "-inf", start=offset, num=chunk,
                                                    withscores=True)
            if not got:
                break
            offset += len(got)
            cands = [(float(score), text_of(m)) for m, score in got]
            cands = [k for k in cands if after is None or k < after]
            infos: Any = await self.redis.hmget(self._key("info"), [tid for _at, tid in cands]) if cands else []
            for k, text in zip(cands, infos, strict=True):
                if text is None:
                    continue
                if game is not None and json.loads(text).get("game") != game:
                    continue
                out.append(text_of(text))
                keys.append(k)
                if len(out) == limit:
                    break
            if len(got) < chunk:
                break
        full = len(out) == limit
        return out, (keys[-1] if full else None)
