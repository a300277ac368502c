"""Several card-room processes ("workers") on one PostgreSQL and one Redis (docs/server.md, "Several workers").

The database stays the truth: a table is its stored record, and any worker can rebuild it by replay.  Redis
holds who owns what, and carries messages between workers:

- ``{p}:hb:{worker}``: the worker's lease, refreshed every ``heartbeat_seconds`` by a thread of its own (so
  the loop's lag does not count), gone ``lease_seconds`` after its last refresh.  A worker that cannot
  refresh it in time says it cannot serve (``/healthz``) and, once the lease is back, lets go of the tables
  another worker took meanwhile; until then the database's fence refuses its writes to those.
- ``{p}:own:{table}`` names the table's owner and ``{p}:tables:{worker}`` lists a worker's tables.  A table
  whose owner has no lease is taken over (a Lua script, so one worker wins), then fenced in PostgreSQL: the
  new owner bumps ``card_tables.owner_epoch`` and every write of the old one fails (storage.take_over, the
  trigger of migration 0005).  A dead worker's tables are shared by the live ones (_SHARE: each its share
  during a grace, ``{p}:split:{dead}`` and ``{p}:grace:{dead}``, then anyone the rest) and replayed in
  concurrent batches, those clients ask for first; their clients meanwhile hear 4503 with a retry hint.
- ``{p}:sock:{address}``: each worker's open websockets of that address (limits.Sockets), so the limit is
  the room's; ``{p}:socks:{worker}`` lists where a worker has a count, dropped when it is gone.
- ``{p}:inbox:{worker}``: each worker's pub/sub channel.  A client's websocket at a worker that does not own
  the table is relayed: the worker forwards the client's messages to the owner, and the owner treats the
  client as one more connection (a :class:`RemoteConn`), rendering its own view as for a local client and
  publishing the text back.  Lobby commands (sit, start, ...) are calls with a reply.
- ``{p}:lobby`` (a sorted set) and ``{p}:info`` (a hash): every worker's public tables for the lobby.

:class:`~paiju.server.room.ownership.Cluster` is the single process's no-op; :class:`RedisCluster` the real
one, assembled from its parts: base.py (the shared state), leases.py, relay.py and clients.py, shared.py and
scripts.py.  Without ``--redis-url`` nothing here runs and no table pays for it.
"""

from __future__ import annotations

from ..room.ownership import CLOSE_MOVED, Cluster, Command, Handle, moved_error
from .clients import Relayed, RemoteConn
from .leases import Leases
from .relay import Relay
from .shared import Shared

__all__ = ["CLOSE_MOVED", "Cluster", "Command", "Handle", "RedisCluster", "Relayed", "RemoteConn", "moved_error"]


class RedisCluster(Leases, Relay, Shared):
    """Workers sharing one room through Redis (leases, relay, lobby) and PostgreSQL (the record, fencing)."""
