"""Leases and ownership: each worker's heartbeat, who owns which table, and what happens when a worker dies.

A worker refreshes its lease every ``lease_seconds / 3``.  A table whose owner has no lease is taken over
(``scripts.CLAIM``: one worker wins), then fenced in PostgreSQL (``storage.take_over``), and rebuilt here by
replaying its record.  A dead worker's tables are shared among the live ones (``scripts.SHARE``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from .. import storage as st
from ..room.conn import dumps
from ..room.ownership import CLOSE_MOVED, Command, Handle, moved_error
from .base import ClusterBase, text_of

if TYPE_CHECKING:

    from ..room.room import Room
    from ..room.table import CardTable

log = logging.getLogger("paiju.server.cluster.leases")

class Leases(ClusterBase):
    """A worker's lease, the tables it owns, and taking over the tables of a worker whose lease ran out."""

    # ---- start and stop --------------------------------------------------------------------------------
    async def start(self, room: Room, handle: Handle, commands: dict[str, Command]) -> None:
        self.room, self.handle, self.commands = room, handle, commands
        await self._beat()
        await self.redis.sadd(self._key("workers"), self.worker_id)
        self.pubsub = self.redis.pubsub()
        await self.pubsub.subscribe(self.inbox, self._key("news"))
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read()), loop.create_task(self._keep())]
        await self.claim_orphans()
        log.info("worker %s: %d tables", self.worker_id, len(room.tables))

    async def stop(self) -> None:
        """Hand every table over: stop acting, give up the lease, tell the others to take over now."""
        self.stopping = True
        for r in list(self.relays.values()):
            r.moved()
        for timer in self._rechecks.values():
            timer.cancel()
        tasks = [*self._tasks, *self._background]
        for task in tasks:
            task.cancel()
        # not awaited to the end: a redis-py call cancelled mid-way can wait on its connection for ever
        await asyncio.wait(tasks, timeout=1.0)

    async def release(self) -> None:
        """After the last write has committed (the lifespan stops the database first): the lease goes, and the
        other workers hear it and take the tables over at once."""
        with contextlib.suppress(Exception):
            await self.redis.delete(self._key("hb", self.worker_id))
            await self.redis.publish(self._key("news"), b"G" + self.worker_id.encode())
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ---- the lease ------------------------------------------------------------------------------------
    async def _beat(self) -> None:
        sent = time.monotonic()
        await self.redis.set(self._key("hb", self.worker_id), b"1", px=int(self.lease * 1000))
        # Redis drops the key lease seconds after it got it, so no later than this: unhealthy before then
        self._live_until = sent + self.lease * 0.8
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = asyncio.get_running_loop().call_later(self._live_until - time.monotonic(), self._overdue)

    def _overdue(self) -> None:
        """The lease was not renewed in time: drop everything now, not at the next failed refresh."""
        self._deadline = None
        if time.monotonic() >= self._live_until and not self._fenced_off and not self.stopping:
            self._fence_off()

    async def _keep(self) -> None:
        """Refresh the lease; take over the tables of workers whose lease is gone; drop everything when our own
        could not be refreshed in time."""
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                await self._beat()
            except Exception as e:
                log.warning("worker %s: cannot refresh the lease: %s", self.worker_id, e)
                if time.monotonic() >= self._live_until and not self._fenced_off:
                    self._fence_off()
                continue
            try:
                if self._fenced_off:
                    await self._reconcile()
                await self._scan()
            except Exception:
                log.warning("worker %s: scanning the other workers failed", self.worker_id, exc_info=True)

    def _fence_off(self) -> None:
        """Our lease may be gone, so another worker may take our tables: say we cannot serve (``/healthz``) and
        stop relaying.  The tables stay: a move of ours is stored only under our owner epoch, so if one was
        taken over the database refuses our next write and we drop it (``lost``); the others we keep playing
        (a slow or starved process, or Redis away with nobody to take over, does not stop the game).  Relayed
        clients stay too: their owner's lease is not ours."""
        self._fenced_off = True
        log.warning("worker %s: lease overdue; not serving until it is renewed", self.worker_id)

    async def _reconcile(self) -> None:
        """The lease is back: drop what another worker took meanwhile, and take what nobody owns."""
        room = self.room
        assert room is not None
        tids = list(room.tables)
        if tids:
            async with self.redis.pipeline(transaction=False) as pipe:
                for tid in tids:
                    pipe.get(self._key("own", tid))
                owners = await pipe.execute()
            for tid, owner in zip(tids, owners, strict=True):
                if owner is not None and text_of(owner) != self.worker_id:
                    self.drop(tid)
        self._fenced_off = False
        await self.redis.sadd(self._key("workers"), self.worker_id)
        await self.claim_orphans()
        log.info("worker %s: lease renewed; %d tables", self.worker_id, len(room.tables))

    def drop(self, table_id: str) -> None:
        """Forget a table another worker owns (or will): its clients are told to connect again."""
        room = self.room
        assert room is not None
        table = room.tables.pop(table_id, None)
        if table is None:
            return
        room._unlisted(table)
        for conn in list(table.watchers.conns):
            conn.send(dumps({"type": "error", **moved_error().to_dict(), "retry": True}))
            conn.close(CLOSE_MOVED)
        table.timers.cancel_all()
        for cid, (_rc, t) in list(self.remotes.items()):
            if t is table:
                self.remotes.pop(cid, None)

    def lost(self, table: CardTable) -> None:
        log.warning("worker %s: table %s has a newer owner; dropping it", self.worker_id, table.id)
        self.drop(table.id)

    async def _scan(self) -> None:
        workers = [text_of(w) for w in await self.redis.smembers(self._key("workers"))]
        others = [w for w in workers if w != self.worker_id]
        if not others:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for w in others:
                pipe.exists(self._key("hb", w))
            alive = await pipe.execute()
        live = 1 + sum(1 for up in alive if up)
        for w, up in zip(others, alive, strict=True):
            if not up and w not in self._going:
                self._spawn(self._gone(w, live))  # not here: replaying tables must not hold up the lease

    async def _live(self) -> int:
        """How many workers hold a lease (ourselves included): a dead worker's tables are split between them."""
        workers = [text_of(w) for w in await self.redis.smembers(self._key("workers"))]
        async with self.redis.pipeline(transaction=False) as pipe:
            for w in workers:
                pipe.exists(self._key("hb", w))
            alive = await pipe.execute()
        return max(1, sum(1 for up in alive if up))

    async def _gone(self, worker: str, live: int | None = None) -> None:
        """A worker's lease has run out: its relayed clients connect again, and we take our share of its
        tables (scripts.SHARE), all that is left once the grace is over."""
        if worker in self._going:
            return
        self._going.add(worker)
        try:
            await self._gone_now(worker, live)
        finally:
            self._going.discard(worker)

    async def _gone_now(self, worker: str, live: int | None) -> None:
        for r in [r for r in self.relays.values() if r.owner == worker]:
            r.moved()
        room = self.room
        assert room is not None
        for cid, (rc, table) in list(self.remotes.items()):
            if rc.worker == worker:
                self.remotes.pop(cid, None)
                rc.closed = True
                rc.inbox.append(None)
                rc.wake.set()
                with contextlib.suppress(Exception):
                    await table.detach(rc)
        if self.healthy:
            got = await self._share(
                keys=[self._key("tables", worker), self._key("split", worker), self._key("grace", worker)],
                args=[self.worker_id, self.p, worker, live or await self._live(), int(self.lease * 500),
                      int(max(60.0, self.lease * 20) * 1000)])
            first, grace = int(got[0]), int(got[1])
            tids = [tid for tid in map(text_of, got[2:]) if tid not in self._claiming and tid not in room.tables]
            self._claiming.update(tids)
            if first:  # the others hear it now, not at their next scan, and take their shares within the grace
                await self.redis.publish(self._key("news"), b"G" + worker.encode())
            if grace > 0 and worker not in self._rechecks:  # then whatever a live worker left is taken
                self._rechecks[worker] = asyncio.get_running_loop().call_later(
                    grace / 1000 + 0.05, self._recheck, worker)
            if tids:
                log.info("worker %s: taking %d of gone worker %s's tables", self.worker_id, len(tids), worker)
            for tid in tids:
                try:
                    await self._replay(tid)
                except Exception:
                    log.exception("worker %s: cannot take table %s over; handing it back", self.worker_id, tid)
                    async with self.redis.pipeline(transaction=False) as pipe:  # whoever scans next tries again
                        pipe.set(self._key("own", tid), worker)
                        pipe.srem(self._key("tables", self.worker_id), tid)
                        pipe.sadd(self._key("tables", worker), tid)
                        await pipe.execute()
                finally:
                    self._claiming.discard(tid)
        if not await self.redis.scard(self._key("tables", worker)):
            await self._forget_sockets(worker)
            await self.redis.srem(self._key("workers"), worker)

    def _recheck(self, worker: str) -> None:
        self._rechecks.pop(worker, None)
        if not self.stopping:
            self._spawn(self._gone(worker))

    # ---- owning tables --------------------------------------------------------------------------------
    async def adopted(self, table: CardTable) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._key("own", table.id), self.worker_id)
            pipe.sadd(self._key("tables", self.worker_id), table.id)
            await pipe.execute()

    async def owner_of(self, table_id: str) -> str | None:
        """The worker that owns the table while its lease lives; None when none does."""
        owner = await self.redis.get(self._key("own", table_id))
        if owner is None:
            return None
        w = text_of(owner)
        if w == self.worker_id or await self.redis.exists(self._key("hb", w)):
            return w
        return None

    async def claim(self, table_id: str) -> bool:
        """Take the table over if its owner has no lease: replay its record under a new owner epoch."""
        room = self.room
        assert room is not None
        if table_id in room.tables:
            return True
        if table_id in self._claiming or not self.healthy:
            return False
        self._claiming.add(table_id)
        try:
            won = await self._claim(keys=[self._key("own", table_id), self._key("tables", self.worker_id)],
                                    args=[self.worker_id, self.p, table_id])
            return bool(won) and await self._replay(table_id)
        finally:
            self._claiming.discard(table_id)

    async def _replay(self, table_id: str) -> bool:
        """The table is ours in Redis now: fence its old owner out in PostgreSQL and rebuild it from its record."""
        room = self.room
        assert room is not None
        row = await room.db.run(lambda c: st.take_over(c, table_id))
        if row is None:  # finished meanwhile: nothing to own
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.delete(self._key("own", table_id))
                pipe.srem(self._key("tables", self.worker_id), table_id)
                await pipe.execute()
            return False
        await room.restore([row])
        log.info("worker %s: took table %s over (epoch %s, %d moves)", self.worker_id, table_id,
                 row.owner_epoch, len(row.actions))
        return table_id in room.tables

    async def claim_orphans(self) -> None:
        """Every unfinished table no live worker owns (a worker's first start, Redis restarted, ours back)."""
        room = self.room
        assert room is not None
        ids = await room.db.run(st.unfinished_ids)
        ids = [tid for tid in ids if tid not in room.tables]
        if not ids:
            return
        owners: list[Any] = []
        for i in range(0, len(ids), 500):
            async with self.redis.pipeline(transaction=False) as pipe:
                for tid in ids[i:i + 500]:
                    pipe.get(self._key("own", tid))
                owners.extend(await pipe.execute())
        live: dict[str, bool] = {}
        for tid, owner in zip(ids, owners, strict=True):
            w = None if owner is None else text_of(owner)
            if w is not None and w != self.worker_id:
                if w not in live:
                    live[w] = bool(await self.redis.exists(self._key("hb", w)))
                if live[w]:
                    continue
            await self.claim(tid)
