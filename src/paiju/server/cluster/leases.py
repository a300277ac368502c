"""Leases and ownership: each worker's heartbeat, who owns which table, and what happens when a worker dies.

A worker renews its lease every ``heartbeat_seconds`` from a thread of its own, so a busy event loop does not
cost it its tables, and checks the others' leases as often.  A killed worker is noticed sooner than its lease:
its connections close with it, so its inbox loses its subscriber, and a worker unheard for ``unheard_seconds``
has its lease ended (``scripts.REVOKE``).  A worker that is only slow or stopped keeps its connections, and so
its lease until it runs out; one cut off from Redis may lose it sooner, which the database's fence makes safe.

A table whose owner has no lease is taken over (``scripts.CLAIM``: one worker wins), then fenced in PostgreSQL
(``storage.take_over``), and rebuilt here by replaying its record.  A dead worker's tables are shared among the
live ones (``scripts.SHARE``) and replayed in concurrent batches, the ones clients ask for first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from .. import storage as st
from ..room.ownership import CLOSE_MOVED, Command, Handle, moved_frame, moved_reason
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
        self._beating = threading.Event()
        self._beater = threading.Thread(target=self._beat_forever, name="paiju-lease", daemon=True)
        self._beater.start()
        await self.claim_orphans()
        log.info("worker %s: %d tables", self.worker_id, len(room.tables))

    async def stop(self) -> None:
        """Hand every table over: stop acting, give up the lease, tell the others to take over now."""
        self.stopping = True
        if hasattr(self, "_beating"):  # started: the thread renews no more, release() deletes the lease
            self._beating.set()
        for r in list(self.relays.values()):
            r.moved(self.retry)
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
        if hasattr(self, "_beater"):
            await asyncio.to_thread(self._beater.join, self.lease)
        with contextlib.suppress(Exception):
            await self.redis.delete(self._key("hb", self.worker_id))
            await self.redis.publish(self._key("news"), b"G" + self.worker_id.encode())
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ---- the lease ------------------------------------------------------------------------------------
    async def _beat(self) -> None:
        """The first lease, before anything is served (the thread renews it from then on)."""
        sent = time.monotonic()
        await self.redis.set(self._key("hb", self.worker_id), b"1", px=int(self.lease * 1000))
        # Redis drops the key lease seconds after it got it, so no later than this: unhealthy before then
        self._live_until = sent + self.lease * 0.8

    def _beat_forever(self) -> None:
        """The heartbeat, on a thread: the event loop's lag (thousands of tables past the knee) does not delay
        it, only what holds the interpreter itself (a full garbage collection, some 0.35 s per 1,000 tables),
        which the lease outlasts with room to spare (Settings.lease_seconds).  A loop stuck for five leases
        is no worker any more: the thread then lets the lease run out, and the others take the tables."""
        import redis  # the server extra

        client = redis.Redis.from_url(self.url, socket_timeout=self.lease, socket_connect_timeout=self.lease)
        key, px = self._key("hb", self.worker_id), int(self.lease * 1000)
        try:
            while not self._beating.wait(self.beat):
                if time.monotonic() - self._loop_seen > 5 * self.lease:
                    continue
                sent = time.monotonic()
                try:
                    # only while it lives: a lease that ran out or was ended (unheard, below) is a lapse,
                    # whatever our clock says, and another worker may own our tables now
                    renewed = client.set(key, b"1", px=px, xx=True)
                    if not renewed:
                        client.set(key, b"1", px=px)
                except Exception as e:
                    log.warning("worker %s: cannot refresh the lease: %s", self.worker_id, e)
                    continue
                if not renewed or sent >= self._live_until:
                    self._lapsed = True
                self._live_until = sent + self.lease * 0.8
        finally:
            client.close()

    async def _keep(self) -> None:
        """Say whether we can serve, as the thread's lease says; take over the tables of workers whose lease is
        gone; once ours is back after a lapse, let go of what another worker took meanwhile."""
        while True:
            await asyncio.sleep(self.beat)
            self._loop_seen = time.monotonic()
            if time.monotonic() >= self._live_until:
                if not self._fenced_off and not self.stopping:
                    self._fence_off()
                continue
            try:
                if self._fenced_off or self._lapsed:
                    self._lapsed = False
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
            conn.send(moved_frame(self.retry))
            conn.close(CLOSE_MOVED, moved_reason(self.retry))
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
                pipe.pubsub_numsub(f"{self.p}inbox:{w}")
            got = await pipe.execute()
        alive = [bool(up) for up in got[0::2]]
        if self.unheard > 0:
            now = time.monotonic()
            for i, (w, listeners) in enumerate(zip(others, got[1::2], strict=True)):
                if not alive[i] or listeners[0][1]:
                    self._unheard_since.pop(w, None)
                elif now - self._unheard_since.setdefault(w, now) >= self.unheard and await self._revoke(
                        keys=[self._key("hb", w)], args=[f"{self.p}inbox:{w}"]):
                    log.warning("worker %s: nobody has listened at worker %s's inbox for %.1f s: its lease "
                                "is ended", self.worker_id, w, now - self._unheard_since.pop(w))
                    alive[i] = False
        live = 1 + sum(alive)
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
            r.moved(self.retry)
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
            waits = self._enqueue(tids, worker)  # before any await: a client's claim now finds them queued
            if first:  # the others hear it now, not at their next scan, and take their shares within the grace
                await self.redis.publish(self._key("news"), b"G" + worker.encode())
            if grace > 0 and worker not in self._rechecks:  # then whatever a live worker left is taken
                self._rechecks[worker] = asyncio.get_running_loop().call_later(
                    grace / 1000 + 0.05, self._recheck, worker)
            if tids:
                log.info("worker %s: taking %d of gone worker %s's tables", self.worker_id, len(tids), worker)
                await asyncio.gather(*waits)
            if self.after_takeover is not None:  # what it finished but had not booked yet
                self._spawn(self.after_takeover())
        if not await self.redis.scard(self._key("tables", worker)):
            await self._forget_sockets(worker)
            await self.redis.srem(self._key("workers"), worker)

    # ---- replaying a dead worker's tables ---------------------------------------------------------------
    def _enqueue(self, tids: list[str], worker: str) -> list[asyncio.Future[None]]:
        """Queue the tables to be replayed in concurrent batches; each one's future is settled once it is."""
        loop = asyncio.get_running_loop()
        waits = []
        for tid in tids:
            self._claiming.add(tid)
            self._queue[tid] = worker
            waits.append(self._done.setdefault(tid, loop.create_future()))
        while self._runners < self.takeover_runners and self._runners * self.takeover_batch < len(self._queue):
            self._runners += 1
            self._spawn(self._run_queue())
        return waits

    def coming(self, table_id: str) -> bool:
        self.wanted(table_id)
        return table_id in self._queue or table_id in self._claiming

    def wanted(self, table_id: str) -> None:
        """A client asked for a table we do not serve (yet): should it come to us, it is replayed first, even
        when it was asked for before its owner's death was noticed."""
        if len(self._asked) > 10_000:  # tables that went to other workers: forget them
            self._asked.clear()
        self._asked[table_id] = None

    def _next_batch(self) -> list[tuple[str, str]]:
        """Up to a batch of queued tables, those clients asked for first."""
        out: list[tuple[str, str]] = []
        for source in (self._asked, self._queue):
            while source and len(out) < self.takeover_batch:
                tid = next(iter(source))
                self._asked.pop(tid, None)
                worker = self._queue.pop(tid, None)  # None: an asked-for table already taken
                if worker is not None:
                    out.append((tid, worker))
        return out

    async def _run_queue(self) -> None:
        try:
            while batch := self._next_batch():
                # together: the writer thread fences and reads them in one commit
                await asyncio.gather(*(self._take(tid, worker) for tid, worker in batch))
        finally:
            self._runners -= 1
        if not self._runners:  # every table is served again: now their bots and clocks go on
            unarmed, self._unarmed = self._unarmed, []
            for table in unarmed:
                if self.room is not None and self.room.tables.get(table.id) is table:
                    with contextlib.suppress(Exception):
                        await table.rearm()

    async def _take(self, tid: str, worker: str) -> None:
        try:
            if not self.stopping and self.room is not None and tid not in self.room.tables:
                await self._replay(tid, later=True)
        except Exception:
            log.exception("worker %s: cannot take table %s over; handing it back", self.worker_id, tid)
            with contextlib.suppress(Exception):
                async with self.redis.pipeline(transaction=False) as pipe:  # whoever scans next tries again
                    pipe.set(self._key("own", tid), worker)
                    pipe.srem(self._key("tables", self.worker_id), tid)
                    pipe.sadd(self._key("tables", worker), tid)
                    await pipe.execute()
        finally:
            self._claiming.discard(tid)
            done = self._done.pop(tid, None)
            if done is not None and not done.done():
                done.set_result(None)

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
        if self.coming(table_id) or not self.healthy:  # queued here: it goes first now
            return False
        self._claiming.add(table_id)
        try:
            won = await self._claim(keys=[self._key("own", table_id), self._key("tables", self.worker_id)],
                                    args=[self.worker_id, self.p, table_id])
            if won and table_id in room.tables:  # taken meanwhile (ours already: CLAIM says so again)
                return True
            return bool(won) and await self._replay(table_id)
        finally:
            self._claiming.discard(table_id)

    async def _replay(self, table_id: str, later: bool = False) -> bool:
        """The table is ours in Redis now: fence its old owner out in PostgreSQL and rebuild it from its record.
        ``later``: its bots and clocks wait until the whole queue is replayed (the bots of tables already back,
        playing at once, would otherwise take the CPU from the replays of those not back yet)."""
        room = self.room
        assert room is not None
        row = await room.db.run(lambda c: st.take_over(c, table_id))
        if row is None:  # finished meanwhile: nothing to own
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.delete(self._key("own", table_id))
                pipe.srem(self._key("tables", self.worker_id), table_id)
                await pipe.execute()
            return False
        await room.restore([row], rearm=not later)
        if later and row.id in room.tables:
            self._unarmed.append(room.tables[row.id])
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
