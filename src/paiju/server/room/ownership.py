"""What a table needs to know of the other workers, without knowing them: the single process's no-op
:class:`Cluster`, which cluster.RedisCluster extends.  Apart from cluster.py so that tables.py can hold one
without importing the relay (which imports tables.py); the table arguments are typed in cluster.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..errors import ErrorCode, RoomError
from ..storage import Player
from .conn import Conn, dumps

CLOSE_MOVED = 4503
"""The websocket close code for "this table moved to another worker (or none is up yet): connect again"."""

Handle = Callable[[Any, Conn, str], Awaitable[None]]
"""How the owner serves a relayed client's message: (table, connection, text)."""
Command = Callable[[Player, Any, dict[str, Any]], Awaitable[dict[str, Any]]]
"""A lobby command on a table (app.SEAT_COMMANDS, routes_host's, the rematch, quick match's seat): (player,
table, body) -> the JSON reply.  The same callable runs whether the request reached the table's owner or
another worker called it there (cluster.py), so each one checks its own rights (invite, host, seat)."""


def moved_error(message: str = "this table's worker is gone; connect again") -> RoomError:
    return RoomError(ErrorCode.OWNER_UNAVAILABLE, message, 503, zh="这张牌桌正在换服务器，请重新连接")


RETRY_SECONDS = 0.5
"""The default "try again in" of a moving table (``Settings.moving_retry_seconds`` sets the room's)."""


def moved_frame(retry: float = RETRY_SECONDS, message: str = "this table's worker is gone; connect again") -> str:
    """The error a client of a moving table gets before its socket closes with 4503: when to try again
    (``retry_after``, seconds), so that a storm of reconnections is spread, not a wall of them."""
    return dumps({"type": "error", **moved_error(message).to_dict(), "retry": True, "retry_after": round(retry, 3)})


def moved_reason(retry: float = RETRY_SECONDS) -> str:
    """The 4503 close's reason: the same hint, for a client that reads only the close (a browser's onclose)."""
    return dumps({"code": ErrorCode.OWNER_UNAVAILABLE.value, "retry_after_ms": int(retry * 1000)})


class Cluster:
    """One process serves every table: nothing to own, relay or tell."""

    enabled = False
    worker_id = "local"
    first_epoch: int | None = None
    """The owner epoch a new table is stored with (None: its writes are not fenced)."""

    @property
    def healthy(self) -> bool:
        return True

    async def start(self, room: Any, handle: Handle, commands: dict[str, Command]) -> None:
        return None

    async def stop(self) -> None:
        """Stop relaying and acting (before the tables close)."""
        return None

    async def release(self) -> None:
        """Give the tables up (after the last write has committed)."""
        return None

    async def adopted(self, table: Any) -> None:
        """A table made here is ours."""
        return None

    def announce(self, news: str) -> None:
        """Tell the other workers (none here) of a revocation or a ban."""
        return None

    def changed(self, table: Any) -> None:
        """The table's lobby entry may have changed."""
        return None

    def lost(self, table: Any) -> None:
        """A write was fenced: another worker owns the table now."""
        return None
