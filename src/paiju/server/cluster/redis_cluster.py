"""Several card-room processes ("workers") on one PostgreSQL and one Redis (docs/server.md, "Several workers").

The database stays the truth: a table is its stored record, and any worker can rebuild it by replay.  Redis
holds who owns what, and carries messages between workers:

- ``{p}:hb:{worker}``: the worker's lease, refreshed every ``lease_seconds / 3``, gone ``lease_seconds``
  after its last refresh.  A worker that cannot refresh it in time says it cannot serve (``/healthz``) and,
  once the lease is back, lets go of the tables another worker took meanwhile; until then the database's
  fence refuses its writes to those.
- ``{p}:own:{table}`` names the table's owner and ``{p}:tables:{worker}`` lists a worker's tables.  A table
  whose owner has no lease is taken over (a Lua script, so one worker wins), then fenced in PostgreSQL: the
  new owner bumps ``card_tables.owner_epoch`` and every write of the old one fails (storage.take_over, the
  trigger of migration 0005).  A dead worker's tables are shared by the live ones (_SHARE: each its share
  during a grace, ``{p}:split:{dead}`` and ``{p}:grace:{dead}``, then anyone the rest).
- ``{p}:sock:{address}``: each worker's open websockets of that address (limits.Sockets), so the limit is
  the room's; ``{p}:socks:{worker}`` lists where a worker has a count, dropped when it is gone.
- ``{p}:inbox:{worker}``: each worker's pub/sub channel.  A client's websocket at a worker that does not own
  the table is relayed: the worker forwards the client's messages to the owner, and the owner treats the
  client as one more connection (a :class:`RemoteConn`), rendering its own view as for a local client and
  publishing the text back.  Lobby commands (sit, start, ...) are calls with a reply.
- ``{p}:lobby`` (a sorted set) and ``{p}:info`` (a hash): every worker's public tables for the lobby.

:class:`Cluster` is the single process's no-op; :class:`RedisCluster` the real one.  Without ``--redis-url``
nothing here runs and no table pays for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from .. import storage as st
from ..errors import ErrorCode, RoomError, no_table
from ..room.conn import Conn, dumps
from ..room.ownership import CLOSE_MOVED, Cluster, Command, Handle, moved_error
from ..storage import Player

__all__ = ["CLOSE_MOVED", "Cluster", "Command", "Handle", "RedisCluster", "Relayed", "moved_error"]

if TYPE_CHECKING:
    from ..room.table import CardTable, Room

log = logging.getLogger("paiju.server.cluster.redis_cluster")

QUICK_SEAT_SECONDS = 3600
"""How long the room remembers a player's quick seat (quick.py): far past any quick table's wait for bots."""


def _text(b: Any) -> str:
    """Redis answers bytes (the client does not decode: frames carry views as they are)."""
    return b.decode() if isinstance(b, bytes) else str(b)



_CLAIM = """
local cur = redis.call('GET', KEYS[1])
if cur then
  if cur == ARGV[1] then return 1 end
  if redis.call('EXISTS', ARGV[2] .. 'hb:' .. cur) == 1 then return 0 end
  redis.call('SREM', ARGV[2] .. 'tables:' .. cur, ARGV[3])
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[3])
return 1
"""
"""Take a table whose owner has no lease (or none): one worker wins, and it is listed under it."""

_LIMIT = """
if ARGV[1] == 'clear' then
  for _, k in ipairs(KEYS) do redis.call('DEL', k) end
  return 0
end
local now = tonumber(ARGV[2])
local wait = 0
if ARGV[1] ~= 'hit' then
  for i, k in ipairs(KEYS) do
    local limit, win = tonumber(ARGV[2 + 2 * i]), tonumber(ARGV[3 + 2 * i])
    redis.call('ZREMRANGEBYSCORE', k, '-inf', now - win)
    local n = redis.call('ZCARD', k)
    if n >= limit then
      local oldest = redis.call('ZRANGE', k, n - limit, n - limit, 'WITHSCORES')
      wait = math.max(wait, tonumber(oldest[2]) + win - now, 1)
    end
  end
  if wait > 0 then return wait end
end
if ARGV[1] ~= 'check' then
  for i, k in ipairs(KEYS) do
    redis.call('ZADD', k, now, ARGV[3])
    redis.call('PEXPIRE', k, tonumber(ARGV[3 + 2 * i]))
  end
end
return 0
"""
"""limits.Shared in one step for every key: the milliseconds to wait (the hit is then not counted), or 0."""

_SOCKETS = """
local others = 0
local parts = redis.call('HGETALL', KEYS[1])
for i = 1, #parts, 2 do
  local w = parts[i]
  if w ~= ARGV[1] then
    if redis.call('EXISTS', ARGV[2] .. 'hb:' .. w) == 1 then
      others = others + tonumber(parts[i + 1])
    else
      redis.call('HDEL', KEYS[1], w)
    end
  end
end
local mine = tonumber(ARGV[3])
local ok = 1
if ARGV[4] ~= '' and others + mine > tonumber(ARGV[4]) then
  ok = 0
  mine = mine - 1
end
if mine > 0 then
  redis.call('HSET', KEYS[1], ARGV[1], mine)
  redis.call('SADD', KEYS[2], KEYS[1])
else
  redis.call('HDEL', KEYS[1], ARGV[1])
  if redis.call('HLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], KEYS[1]) end
end
return ok
"""
"""Open websockets of one address: each worker's own count is a field (``{p}:sock:{address}``, listed in
``{p}:socks:{worker}``), written whole each time, so a lost write is mended by the next; the fields of
workers without a lease do not count and are dropped.  With a limit: 1 if ours (with the new one) fits, else
0 and ours stays as it was."""

_SHARE = """
if redis.call('EXISTS', ARGV[2] .. 'hb:' .. ARGV[3]) == 1 then return {0, 0} end
local left = redis.call('SCARD', KEYS[1])
if left == 0 then
  redis.call('DEL', KEYS[2], KEYS[3])
  return {0, 0}
end
local first = 0
if redis.call('EXISTS', KEYS[2]) == 0 then
  first = 1
  redis.call('HSET', KEYS[2], '#n', left)
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[6]))
  redis.call('SET', KEYS[3], 1, 'PX', tonumber(ARGV[5]))
end
local quota = left
local grace = redis.call('PTTL', KEYS[3])
if grace > 0 then
  local n = tonumber(redis.call('HGET', KEYS[2], '#n'))
  local taken = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
  quota = math.min(left, math.ceil(n / tonumber(ARGV[4])) - taken)
else
  grace = 0
end
local won = {first, grace}
if quota <= 0 then return won end
for _, tid in ipairs(redis.call('SPOP', KEYS[1], quota)) do
  local own = ARGV[2] .. 'own:' .. tid
  local cur = redis.call('GET', own)
  if not cur or cur == ARGV[3] or cur == ARGV[1] or redis.call('EXISTS', ARGV[2] .. 'hb:' .. cur) == 0 then
    redis.call('SET', own, ARGV[1])
    redis.call('SADD', ARGV[2] .. 'tables:' .. ARGV[1], tid)
    table.insert(won, tid)
  end
end
redis.call('HINCRBY', KEYS[2], ARGV[1], #won - 2)
return won
"""
"""A dead worker's tables shared by the live ones: while the grace (``{p}:grace:{dead}``, started by the first
to notice) runs, each takes at most ceil(its tables / live workers); after it, anyone takes what is left.
Taken here, as _CLAIM does (owner and list), so no table is given twice: {first to notice, grace left (ms),
the tables now ours...}."""


_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
"""Let a lock go only if it is still ours (it may have run out and been taken by another worker)."""


class RemoteConn(Conn):
    """A client connected to another worker, as the owner sees it: what it is sent is published back."""

    def __init__(self, cluster: RedisCluster, worker: str, cid: str, player: Player | None) -> None:
        # no websocket here: Conn's queue and pump are the relaying worker's
        self.player = player
        self.closed = False
        self.close_code = 1000
        self.cluster = cluster
        self.worker = worker
        self.cid = cid
        self.inbox: deque[str | None] = deque()
        self.wake = asyncio.Event()

    def send(self, text: str) -> None:
        if not self.closed:
            self.cluster.post(self.worker, "S", self.cid, text)

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.cluster.post(self.worker, "C", self.cid, str(code))

    async def pump(self) -> None:
        return None


class Relayed:
    """A client of ours at a table another worker owns: its messages go there, the owner's answers come back."""

    def __init__(self, cluster: RedisCluster, owner: str, table_id: str, conn: Conn) -> None:
        self.cluster = cluster
        self.owner = owner
        self.table_id = table_id
        self.conn = conn
        self.cid = secrets.token_hex(6)

    def attach(self, invite: str | None) -> None:
        self.cluster.relays[self.cid] = self
        player = self.conn.player
        self.cluster.post(self.owner, "A", self.cid, json.dumps({"w": self.cluster.worker_id, "t": self.table_id,
                                                                 "i": invite,
                                                                 "p": None if player is None else player.id}))

    def forward(self, text: str) -> None:
        self.cluster.post(self.owner, "M", self.cid, text)

    def detach(self) -> None:
        if self.cluster.relays.pop(self.cid, None) is not None:
            self.cluster.post(self.owner, "D", self.cid, "")

    def moved(self) -> None:
        """The owner is gone: say so (a code the client retries on), then let the client connect again."""
        self.cluster.relays.pop(self.cid, None)
        self.conn.send(dumps({"type": "error", **moved_error().to_dict(), "retry": True}))
        self.conn.close(CLOSE_MOVED)


class RedisCluster(Cluster):
    """Workers sharing one room through Redis (leases, relay, lobby) and PostgreSQL (the record, fencing)."""

    enabled = True
    first_epoch = 1

    def __init__(self, url: str, prefix: str = "paiju", lease_seconds: float = 5.0, call_seconds: float = 5.0
                 ) -> None:
        import redis.asyncio as aioredis  # the server extra

        self.url = url
        self.p = prefix + ":"
        self.lease = lease_seconds
        self.call_seconds = call_seconds
        # a slow answer is not a lost lease: the lease's own timer (_overdue) decides that, so a starved
        # process does not also give up its relayed clients on every pipeline that took a second
        self.redis = aioredis.from_url(url, socket_timeout=lease_seconds, socket_connect_timeout=lease_seconds)
        self.worker_id = secrets.token_hex(4)
        self.inbox = f"{self.p}inbox:{self.worker_id}"
        self.room: Room | None = None
        self.handle: Handle | None = None
        self.commands: dict[str, Command] = {}
        self.reads: dict[str, Callable[[Any], dict[str, Any]]] = {}
        """Reads of a table that need no session (``call(tid, "read:<name>", …)``), as at the owner itself:
        the rematch's state (routes_history.py)."""
        self.relays: dict[str, Relayed] = {}
        self.remotes: dict[str, tuple[RemoteConn, CardTable]] = {}
        self.calls: dict[str, asyncio.Future[Any]] = {}
        self._out: dict[str, list[bytes]] = {}
        self._flushing = False
        self._notes: dict[str, CardTable] = {}
        self._claiming: set[str] = set()
        self._live_until = 0.0
        self._deadline: asyncio.TimerHandle | None = None
        self._fenced_off = False
        self.stopping = False
        self._tasks: list[asyncio.Task[Any]] = []
        self._claim = self.redis.register_script(_CLAIM)
        self._limit = self.redis.register_script(_LIMIT)
        self._unlock = self.redis.register_script(_UNLOCK)
        self._sockets = self.redis.register_script(_SOCKETS)
        self._share = self.redis.register_script(_SHARE)
        self._going: set[str] = set()
        self._rechecks: dict[str, asyncio.TimerHandle] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._hits = 0
        self.relayed_frames = 0
        self.on_news: Callable[[str], None] = lambda _news: None

    async def limit(self, mode: str, now: float, items: list[tuple[str, int, float]]) -> float | None:
        """The room-wide rate limits (limits.Shared): one sliding window per key, shared by every worker."""
        self._hits += 1
        member = f"{self.worker_id}:{self._hits}"
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
        keys = [_text(k) for k in await self.redis.smembers(self._key("socks", worker))]
        async with self.redis.pipeline(transaction=False) as pipe:
            for k in keys:
                pipe.hdel(k, worker)
            pipe.delete(self._key("socks", worker))
            await pipe.execute()

    def _spawn(self, job: Any) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def announce(self, news: str) -> None:
        """Tell every worker (ourselves included: harmless) of a session revocation."""
        async def send() -> None:
            try:
                await self.redis.publish(self._key("news"), b"V" + news.encode())
            except Exception:  # the others recheck within session_recheck_seconds anyway
                log.warning("worker %s: cannot tell the others of a revocation", self.worker_id)

        asyncio.get_running_loop().create_task(send())

    # ---- facts -----------------------------------------------------------------------------------------
    @property
    def healthy(self) -> bool:
        """Whether this worker holds a live lease (a proxy sends players only to a healthy worker)."""
        return not self.stopping and not self._fenced_off and time.monotonic() < self._live_until

    def _key(self, *parts: str) -> str:
        return self.p + ":".join(parts)

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
                if owner is not None and _text(owner) != self.worker_id:
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
        workers = [_text(w) for w in await self.redis.smembers(self._key("workers"))]
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
        workers = [_text(w) for w in await self.redis.smembers(self._key("workers"))]
        async with self.redis.pipeline(transaction=False) as pipe:
            for w in workers:
                pipe.exists(self._key("hb", w))
            alive = await pipe.execute()
        return max(1, sum(1 for up in alive if up))

    async def _gone(self, worker: str, live: int | None = None) -> None:
        """A worker's lease has run out: its relayed clients connect again, and we take our share of its
        tables (_SHARE), all that is left once the grace is over."""
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
            tids = [tid for tid in map(_text, got[2:]) if tid not in self._claiming and tid not in room.tables]
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
        w = _text(owner)
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
            w = None if owner is None else _text(owner)
            if w is not None and w != self.worker_id:
                if w not in live:
                    live[w] = bool(await self.redis.exists(self._key("hb", w)))
                if live[w]:
                    continue
            await self.claim(tid)

    # ---- messages between workers ---------------------------------------------------------------------
    def post(self, worker: str, op: str, cid: str, payload: str) -> None:
        """Queue a frame for ``worker``; everything queued in one turn of the loop goes in one pipeline."""
        frames = self._out.get(worker)
        if frames is None:
            frames = self._out[worker] = []
        frames.append(f"{op}{cid}\n{payload}".encode())
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        await asyncio.sleep(0)
        out, self._out = self._out, {}
        self._flushing = False
        if not out:
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for worker, frames in out.items():
                    # one message per worker and turn of the loop: a pub/sub message costs both sides far more
                    # than the bytes in it
                    pipe.publish(self._key("inbox", worker),
                                 b"B" + b"".join(len(f).to_bytes(4, "big") + f for f in frames))
                heard = await pipe.execute()
        except Exception:
            log.warning("worker %s: cannot reach Redis to tell %s", self.worker_id, ", ".join(out))
            heard = [0] * len(out)
        for (worker, frames), listened in zip(out.items(), heard, strict=True):
            self.relayed_frames += len(frames)
            if not listened:  # nobody listens there: its clients here hear it, and connect again
                for r in [r for r in self.relays.values() if r.owner == worker]:
                    r.moved()
                for cid, frame in zip(self._call_ids(frames), frames, strict=True):
                    if cid is not None and frame[:1] == b"Q":
                        fut = self.calls.pop(cid, None)
                        if fut is not None and not fut.done():
                            fut.set_exception(moved_error("this table's worker is gone; try again"))

    @staticmethod
    def _call_ids(frames: list[bytes]) -> list[str | None]:
        return [f[1:f.index(b"\n")].decode() if f[:1] == b"Q" else None for f in frames]

    async def _read(self) -> None:
        while True:
            try:
                msg = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(0.2)  # Redis away: the lease keeper decides what that means
                continue
            if msg is None:
                continue
            data: bytes = msg["data"]
            frames = [data]
            if data[:1] == b"B":  # a batch: length-prefixed frames, in the order they were posted
                frames, i = [], 1
                while i < len(data):
                    n = int.from_bytes(data[i:i + 4], "big")
                    frames.append(data[i + 4:i + 4 + n])
                    i += 4 + n
            for frame in frames:
                try:
                    await self._on_frame(frame)
                except Exception:
                    log.exception("worker %s: frame %r failed", self.worker_id, frame[:80])

    async def _on_frame(self, data: bytes) -> None:
        op = data[:1]
        if op == b"G":  # a worker stopped and gave its lease up: take over now
            worker = data[1:].decode()
            if worker != self.worker_id:
                self._spawn(self._gone(worker))  # not here: the other frames must not wait on the replays
            return
        if op == b"V":  # sessions revoked at another worker (accounts.SessionStore.announce)
            self.on_news(data[1:].decode())
            return
        cut = data.index(b"\n")
        cid, payload = data[1:cut].decode(), data[cut + 1:]
        if op == b"S":
            r = self.relays.get(cid)
            if r is not None:
                r.conn.send(payload.decode())
        elif op == b"C":
            r = self.relays.pop(cid, None)
            if r is not None:
                r.conn.close(int(payload))
        elif op == b"M":
            entry = self.remotes.get(cid)
            if entry is not None:
                entry[0].inbox.append(payload.decode())
                entry[0].wake.set()
        elif op == b"A":
            await self._attach(cid, json.loads(payload))
        elif op == b"D":
            entry = self.remotes.get(cid)
            if entry is not None:
                entry[0].inbox.append(None)
                entry[0].wake.set()
        elif op == b"Q":
            asyncio.get_running_loop().create_task(self._answer_call(cid, json.loads(payload)))
        elif op == b"R":
            fut = self.calls.pop(cid, None)
            if fut is not None and not fut.done():
                fut.set_result(json.loads(payload))

    # ---- the owner's side of a relayed client ---------------------------------------------------------
    async def _attach(self, cid: str, msg: dict[str, Any]) -> None:
        room = self.room
        assert room is not None
        worker, table = str(msg["w"]), room.tables.get(msg["t"])
        if table is None or not self.healthy:
            rc = RemoteConn(self, worker, cid, None)
            rc.send(dumps({"type": "error", **moved_error().to_dict(), "retry": True}))
            rc.close(CLOSE_MOVED)
            return
        player = await room.player(msg.get("p"))
        rc = RemoteConn(self, worker, cid, player)
        try:
            table.check_invite(player, msg.get("i"))
            if table.seat_of(player) is None and table.spectators() >= room.settings.watchers_per_table:
                raise RoomError(ErrorCode.TOO_MANY_WATCHERS, "this table has as many spectators as it takes", 429,
                                zh="这张桌的旁观人数已满")
        except RoomError as e:
            rc.send(dumps({"type": "error", **e.to_dict()}))
            rc.close(4403 if e.status == 403 else 4429)
            return
        self.remotes[cid] = (rc, table)
        await table.attach(rc)
        asyncio.get_running_loop().create_task(self._serve_remote(rc, table))

    async def _serve_remote(self, rc: RemoteConn, table: CardTable) -> None:
        """One relayed client's messages, in order (as a local socket's receive loop)."""
        handle = self.handle
        assert handle is not None
        try:
            while True:
                while not rc.inbox:
                    rc.wake.clear()
                    await rc.wake.wait()
                text = rc.inbox.popleft()
                if text is None:
                    break
                if self.room is not None and table.id not in self.room.tables:
                    break  # dropped meanwhile
                await handle(table, rc, text)
        finally:
            self.remotes.pop(rc.cid, None)
            rc.closed = True
            with contextlib.suppress(Exception):
                await table.detach(rc)

    # ---- calls (lobby commands on a table another worker owns) ----------------------------------------
    async def call(self, table_id: str, command: str, player: Player | None, data: dict[str, Any]
                   ) -> dict[str, Any]:
        """Run a lobby command at the table's owner (taking the table over if nobody owns it); its reply."""
        room = self.room
        assert room is not None
        owner = await self.owner_of(table_id)
        if owner is None and await self.claim(table_id):
            owner = self.worker_id
        if owner is None:
            row = await room.store.table(table_id)
            if row is None or row.status not in ("waiting", "playing"):
                raise no_table(table_id)  # as the owner would say once it let a finished table go
            raise moved_error("no worker has this table right now; try again")
        if owner == self.worker_id:
            return await self._run(table_id, command, None if player is None else player.id, data)
        rid = secrets.token_hex(6)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.calls[rid] = fut
        self.post(owner, "Q", rid, json.dumps({"w": self.worker_id, "t": table_id, "c": command,
                                               "p": None if player is None else player.id, "d": data}))
        try:
            answer: dict[str, Any] = await asyncio.wait_for(fut, self.call_seconds)
        except TimeoutError:
            raise moved_error("the table's worker did not answer; try again") from None
        finally:
            self.calls.pop(rid, None)
        if "error" in answer:
            e = answer["error"]
            # the owner's refusal as it gave it (its code is a member already: ErrorCode() checks it again)
            relayed: type[RoomError] = RoomError
            raise relayed(ErrorCode(e["code"]), e["message"], answer["status"], zh=e.get("zh"))
        return dict(answer["info"])

    async def _run(self, table_id: str, command: str, player_id: str | None, data: dict[str, Any]
                   ) -> dict[str, Any]:
        room = self.room
        assert room is not None
        table = room.tables.get(table_id)
        if table is None:
            raise moved_error()
        player = await room.player(player_id)
        if command == "info":
            invite = data.get("invite")
            table.check_invite(player, invite if isinstance(invite, str) else None)
            return table.info(for_player=player)
        if command.startswith("read:"):
            return self.reads[command[5:]](table)
        if player is None:
            raise RoomError(ErrorCode.NO_SESSION, "pick a nickname first (POST /api/session)", 401,
                            zh="请先取个昵称（POST /api/session）")
        return await self.commands[command](player, table, data)  # each checks its own rights (invite, host)

    async def _answer_call(self, rid: str, msg: dict[str, Any]) -> None:
        try:
            answer: dict[str, Any] = {"info": await self._run(msg["t"], msg["c"], msg.get("p"), msg.get("d") or {})}
        except RoomError as e:
            answer = {"error": e.to_dict(), "status": e.status}
        except Exception:
            log.exception("worker %s: call %s failed", self.worker_id, msg.get("c"))
            answer = {"error": RoomError(ErrorCode.SERVER_ERROR, "the call failed").to_dict(), "status": 500}
        self.post(msg["w"], "R", rid, dumps(answer))

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
        mine = None if seated is None else _text(seated)
        tids = [_text(t) for t in listed]
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
            cands = [(float(score), _text(m)) for m, score in got]
            cands = [k for k in cands if after is None or k < after]
            infos: Any = await self.redis.hmget(self._key("info"), [tid for _at, tid in cands]) if cands else []
            for k, text in zip(cands, infos, strict=True):
                if text is None:
                    continue
                if game is not None and json.loads(text).get("game") != game:
                    continue
                out.append(_text(text))
                keys.append(k)
                if len(out) == limit:
                    break
            if len(got) < chunk:
                break
        full = len(out) == limit
        return out, (keys[-1] if full else None)
