"""A client's side of a table: its websocket, who it is, and an outgoing queue no table ever waits on.

Also the JSON encoding every message goes through (the card room's hot path: one text per viewer per update).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from types import ModuleType
from typing import Any

from starlette.websockets import WebSocket

from paiju.core import Event

from ..storage import Player

log = logging.getLogger("paiju.server.room.conn")

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)

_orjson: ModuleType | None
try:  # optional: about ten times faster than the standard library's encoder on views
    import orjson as _orjson_module
    _orjson = _orjson_module
except ImportError:  # pragma: no cover - the standard library then does it all
    _orjson = None

# Only what the standard library would encode too: dataclasses and datetimes go to the fallback, which
# refuses them as before; non-string keys become strings as the standard library makes them, in a second try
# (orjson's option for them costs every message half as much again).
_ORJSON_STRICT = (_orjson.OPT_PASSTHROUGH_DATACLASS | _orjson.OPT_PASSTHROUGH_DATETIME) if _orjson is not None else 0
_ORJSON_OPTIONS = _ORJSON_STRICT | (_orjson.OPT_NON_STR_KEYS if _orjson is not None else 0)


def dumps(msg: Any) -> str:
    """Compact JSON text, non-ASCII kept as is.  JSON is the card room's hot path (four views per action),
    so orjson does it when installed; anything orjson refuses (integers beyond 64 bits, objects it would
    not encode) goes to the standard library, which gives the same text or the same error."""
    if _orjson is not None:
        try:  # string keys only, orjson's fast path (non-string keys cost every message half as much again)
            text: str = _orjson.dumps(msg, option=_ORJSON_STRICT).decode()
            return text
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            pass
        try:
            text = _orjson.dumps(msg, option=_ORJSON_OPTIONS).decode()
            return text
        except TypeError:
            pass
    return _ENCODER.encode(msg)


def dumps_events(events: list[Event]) -> str:
    return dumps(events)


class Conn:
    """One websocket client: who it is, and an outgoing queue drained by its own task so no table waits on it.

    The queue is a deque and a future the pump sleeps on, not an ``asyncio.Queue``: four sends per action
    make the queue's bookkeeping part of the hot path."""

    def __init__(self, ws: WebSocket, player: Player | None, limit: int) -> None:
        self.ws = ws
        self.player = player
        self.limit = limit
        self._out: deque[str | None] = deque()  # None: close after what is queued before it
        self._wake: asyncio.Future[None] | None = None
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""

    def send(self, text: str) -> None:
        if self.closed:
            return
        if len(self._out) >= self.limit:
            log.warning("client too slow (%d messages behind): disconnecting", len(self._out))
            self.close()
            return
        self._push(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after what is queued; ``code``: the websocket close code the client gets (``reason``: e.g. a
        4503's retry hint)."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.close_reason = reason
            self._push(None)

    def _push(self, item: str | None) -> None:
        self._out.append(item)
        wake, self._wake = self._wake, None
        if wake is not None and not wake.done():
            wake.set_result(None)

    async def pump(self) -> None:
        """Send queued messages in order until closed or the socket fails."""
        loop = asyncio.get_running_loop()
        out = self._out
        while True:
            while not out:
                self._wake = loop.create_future()
                await self._wake
            text = out.popleft()
            if text is None:
                break
            try:
                await self.ws.send_text(text)
            except Exception:  # the peer went away; the receive loop notices too
                break
        self.closed = True
        out.clear()
        with contextlib.suppress(Exception):
            await self.ws.close(code=self.close_code, reason=self.close_reason)
