"""The door every TCP connection passes before a byte of it is read: a cap per client address, and a time limit
on each request's head.

A half-sent request never reaches the app (uvicorn holds it until its headers are complete), so neither the
Guard nor the per-address websocket count sees it; and uvicorn has no header timeout of its own (its
``timeout_keep_alive`` runs only between requests, and stops once a byte of the next arrives).  So the HTTP
protocol uvicorn runs is subclassed here: a connection is counted against its peer's address when it is made
(over ``tcp_connections_per_address``: a 429 and closed, unless the peer is a ``--trusted-proxy``, which carries
many clients), and its request's head must be complete within ``header_timeout_seconds`` of the connection or
of the previous answer.  ``serve_options`` is what ``paiju serve`` (and the tests' server) give uvicorn.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import ErrorCode, RoomError
from ..limits import trusted_peer
from ..room.conn import dumps
from ..settings import Settings

log = logging.getLogger("paiju.server.http.door")

try:  # uvicorn[standard]: what uvicorn's "auto" picks when it is there
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Fast
except ImportError:  # pragma: no cover - plain uvicorn: h11 only
    _Fast = H11Protocol  # type: ignore[assignment,misc]


class Door:
    """Open connections per peer address in this process.  A connection is forgotten once its transport is
    closing (checked when its address next asks, so nothing has to hear of every close)."""

    def __init__(self, cap: int, trusted: tuple[str, ...], header_seconds: float) -> None:
        self.cap = cap
        self.trusted = trusted
        self.header_seconds = header_seconds
        self.open: dict[str, set[asyncio.BaseTransport]] = {}
        self.refused = 0

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"
        if self.trusted and trusted_peer(address, self.trusted):
            return True
        held = self.open.setdefault(address, set())
        if len(held) >= self.cap:
            held.difference_update([t for t in held if t.is_closing()])
        if len(held) >= self.cap:
            self.refused += 1
            return False
        held.add(transport)
        if len(self.open) > 10_000:  # many addresses: drop the ones whose connections have all closed
            for a, ts in list(self.open.items()):
                ts.difference_update([t for t in ts if t.is_closing()])
                if not ts:
                    del self.open[a]
        return True

    def count(self, address: str) -> int:
        """Open connections of ``address`` now (tests, the bench)."""
        return sum(1 for t in self.open.get(address, ()) if not t.is_closing())


def _refusal() -> bytes:
    e = RoomError(ErrorCode.TOO_MANY_CONNECTIONS, "too many connections from your address", 429,
                  zh="来自你的地址的连接太多")
    body = dumps({"error": e.to_dict()}).encode()
    return (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: 5\r\n"
            b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


REFUSAL = _refusal()


class _Guarded:
    """What both HTTP protocols get: the count at the door and the head's timer."""

    door: Door
    transport: asyncio.Transport
    _head_timer: asyncio.TimerHandle | None = None

    def _door_open(self, transport: asyncio.Transport) -> bool:
        if not self.door.admit(transport):
            transport.write(REFUSAL)
            transport.close()
            return False
        self._arm_head()
        return True

    def _arm_head(self) -> None:
        self._stop_head()
        if self.door.header_seconds > 0:
            self._head_timer = asyncio.get_running_loop().call_later(self.door.header_seconds, self._head_late)

    def _stop_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        """The request line and headers did not all come in time: the connection is someone's slow loris."""
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.write(b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n")
            self.transport.close()


def guarded_protocols(door: Door) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's two HTTP protocols with ``door`` at the front: (httptools', h11's)."""

    class GuardedHttpTools(_Guarded, _Fast):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._door_open(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_head()
            super().connection_lost(exc)

        def on_headers_complete(self) -> None:
            self._stop_head()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm_head()

    class GuardedH11(_Guarded, H11Protocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._door_open(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_head()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self._head_timer is not None and self.conn.their_state is not h11.IDLE:  # the head has come in
                self._stop_head()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm_head()

    GuardedHttpTools.door = door
    GuardedH11.door = door
    return GuardedHttpTools, GuardedH11


def serve_options(settings: Settings, door: Door | None = None) -> dict[str, Any]:
    """What uvicorn is given for the room (``paiju serve`` and the tests alike): the websocket message cap
    (uvicorn closes 1009 before reading a larger frame), the guarded HTTP protocol, and no proxy headers
    (the room reads ``X-Forwarded-For`` itself, from trusted proxies only)."""
    door = door or Door(settings.per_address(settings.tcp_connections_per_address), settings.trusted_proxies,
                        settings.header_timeout_seconds)
    fast, _slow = guarded_protocols(door)
    return {"ws_max_size": settings.ws_max_message_bytes, "http": fast, "proxy_headers": False}
