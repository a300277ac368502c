"""A worker's shared state: the Redis client, its keys, the room it serves, and the Lua scripts it runs.

Apart from the three parts of :class:`~paiju.server.cluster.redis_cluster.RedisCluster` (leases.py,
relay.py, shared.py), so each part reads the same fields and none imports another.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..room.ownership import RETRY_SECONDS, Cluster, Command, Handle
from . import scripts
from .clients import Relayed, RemoteConn

if TYPE_CHECKING:
    from redis.asyncio.client import PubSub

    from ..room.room import Room
    from ..room.table import CardTable

log = logging.getLogger("paiju.server.cluster.base")


def text_of(b: Any) -> str:
    """Redis answers bytes (the client does not decode: frames carry views as they are)."""
    return b.decode() if isinstance(b, bytes) else str(b)


class ClusterBase(Cluster):
    """What every part of a worker shares: the Redis client, the keys, the room and the worker's own state.

    :class:`~paiju.server.cluster.redis_cluster.RedisCluster` is this with its three parts mixed in — the
    leases and ownership (leases.py), the relay (relay.py) and the room-wide counts and lists (shared.py)."""

    enabled = True
    first_epoch = 1
    pubsub: PubSub
    """This worker's inbox and the news channel (subscribed in ``start``)."""

    takeover_batch = 24
    """Tables replayed together at a takeover: their fences and records go to the database writer as one group
    (one commit), and the loop rebuilds them between two of the live tables' turns."""
    takeover_runners = 3
    """Batches in flight at once: while one batch's rows are read, the one before is being rebuilt."""

    def __init__(self, url: str, prefix: str = "paiju", lease_seconds: float = 3.0, call_seconds: float = 5.0,
                 heartbeat_seconds: float | None = None, unheard_seconds: float = 0.0) -> None:
        import redis.asyncio as aioredis  # the server extra

        self.url = url
        self.p = prefix + ":"
        self.lease = lease_seconds
        self.beat = heartbeat_seconds if heartbeat_seconds else lease_seconds / 3
        """How often the lease is renewed (by a thread) and the others' leases are checked (leases.py)."""
        self.unheard = unheard_seconds
        """A worker whose inbox has had no subscriber this long loses its lease before it runs out; 0: never."""
        self._unheard_since: dict[str, float] = {}
        self.call_seconds = call_seconds
        # a slow answer is not a lost lease: the lease's own thread decides that (leases.py), so a starved
        # process does not also give up its relayed clients on every pipeline that took a second
        # a reconnect storm asks Redis for hundreds of owners at once: they wait for one of a bounded set of
        # connections (redis-py's plain pool refuses the 101st outright, and the handshake then failed)
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=256, timeout=lease_seconds,
                                                        socket_timeout=lease_seconds,
                                                        socket_connect_timeout=lease_seconds)
        self.redis = aioredis.Redis(connection_pool=pool)
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
        """Tables being taken over here: replayed now or queued (``_queue``)."""
        self._queue: dict[str, str] = {}
        """Tables of dead workers ours to replay, in order (table -> its dead owner); leases.py."""
        self._asked: dict[str, None] = {}
        """Queued tables a client asked for: they go first."""
        self._done: dict[str, asyncio.Future[None]] = {}
        self._runners = 0
        self.deaf: dict[str, float] = {}
        """When a publish to each worker last found nobody listening (it is likely dead, its lease not out yet)."""
        self._unarmed: list[CardTable] = []
        """Tables replayed from the queue whose bots and clocks start once the queue is empty."""
        self._lapsed = False
        """The heartbeat thread renewed a lease that may have run out meanwhile: check what we still own."""
        self._loop_seen = time.monotonic()
        self.after_takeover: Callable[[], Awaitable[None]] | None = None
        """Run once a dead worker's tables are ours: book what it finished and left unbooked (app.py sets
        it to the same booking a start runs)."""
        self._live_until = 0.0
        self._fenced_off = False
        self.stopping = False
        self._tasks: list[asyncio.Task[Any]] = []
        self._claim = self.redis.register_script(scripts.CLAIM)
        self._limit = self.redis.register_script(scripts.LIMIT)
        self._unlock = self.redis.register_script(scripts.UNLOCK)
        self._sockets = self.redis.register_script(scripts.SOCKETS)
        self._share = self.redis.register_script(scripts.SHARE)
        self._revoke = self.redis.register_script(scripts.REVOKE)
        self._going: set[str] = set()
        self._rechecks: dict[str, asyncio.TimerHandle] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._hits = 0
        self.relayed_frames = 0
        self.on_news: Callable[[str], None] = lambda _news: None

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

    @property
    def retry(self) -> float:
        """Seconds a client of a moving table is told to wait before it tries again."""
        return self.room.settings.moving_retry_seconds if self.room is not None else RETRY_SECONDS

    def gone_quiet(self, worker: str) -> bool:
        """Whether nobody listened at the worker's inbox a moment ago: a client of its tables is told "try
        again" at once, without a relay that would find nobody either."""
        return time.monotonic() - self.deaf.get(worker, -1e9) < self.beat

    def coming(self, table_id: str) -> bool:
        """Whether the table is being taken over here; a queued one is moved to the front (leases.py)."""
        raise NotImplementedError

    def wanted(self, table_id: str) -> None:
        """A client asked for the table: replay it first should it come to us (leases.py)."""
        raise NotImplementedError

    # ---- what the parts call of each other ------------------------------------------------------------------
    async def _read(self) -> None:
        """Read this worker's inbox (relay.py)."""
        raise NotImplementedError

    async def _forget_sockets(self, worker: str) -> None:
        """A gone worker's websockets count no more (shared.py)."""
        raise NotImplementedError

    async def _gone(self, worker: str, live: int | None = None) -> None:
        """A worker's lease ran out: take our share of its tables (leases.py)."""
        raise NotImplementedError

    async def owner_of(self, table_id: str) -> str | None:
        """The worker that owns the table (leases.py)."""
        raise NotImplementedError

    async def claim(self, table_id: str) -> bool:
        """Take an ownerless table over (leases.py)."""
        raise NotImplementedError
