"""Clients written for the attack suite: an HTTP client that sends what a browser would (a cookie, an
``Origin``) or what nobody should (huge, endless or deeply nested bodies, forged ``X-Forwarded-For``), and a
websocket client that sets the handshake's headers itself.

The ordinary test kit (conftest.py) behaves like a well-mannered program: a Bearer token, no Origin, small
JSON.  These do not.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from .conftest import LiveServer, Socket, ledger_of, wait_for

__all__ = ["ledger_of", "wait_for"]  # the attack tests import them from here too


class Browser:
    """A browser's requests: the session in the cookie only (never a Bearer header), and the ``Origin`` of
    the page that makes them (None: a request with no Origin header)."""

    def __init__(self, server: LiveServer, nickname: str, origin: str | None = None) -> None:
        self.server = server
        self.http = server.resources.enter_context(httpx.Client(base_url=server.url, timeout=10))
        r = self.http.post("/api/session", json={"nickname": nickname})
        assert r.status_code == 200, r.text
        self.token: str = r.json()["token"]
        self.id: str = r.json()["player"]["id"]
        assert self.http.cookies.get("paiju_session") == self.token  # the cookie the server set
        self.origin = origin

    def headers(self, origin: str | None = None) -> dict[str, str]:
        o = origin if origin is not None else self.origin
        return {"Origin": o} if o is not None else {}

    def post(self, path: str, body: Any = None, origin: str | None = None) -> httpx.Response:
        return self.http.post(path, json=body, headers=self.headers(origin))

    def socket(self, table_id: str, origin: str | None = None, *, cookie: bool = True,
               query: str = "") -> ClientConnection:
        """A websocket with the session cookie (as a browser sends it, from any page) and the given Origin."""
        headers = self.headers(origin)
        if cookie:
            headers["Cookie"] = f"paiju_session={self.token}"
        url = f"ws://127.0.0.1:{self.server.port}/ws/tables/{table_id}" + (f"?{query}" if query else "")
        return self.server.resources.enter_context(connect(url, additional_headers=headers, open_timeout=10))


def raw_socket(server: LiveServer, table_id: str, token: str | None = None,
               headers: dict[str, str] | None = None) -> Socket:
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}" + (f"?token={token}" if token else "")
    ws = server.resources.enter_context(connect(url, additional_headers=headers or {}, open_timeout=10))
    return Socket(ws)


def chunks(total: int, size: int = 8192) -> Iterator[bytes]:
    """A body sent in chunks with no Content-Length: the server learns its size only by reading it."""
    sent = 0
    while sent < total:
        n = min(size, total - sent)
        sent += n
        yield b" " * n


def nested(depth: int) -> str:
    """JSON nested ``depth`` levels deep: ``{"type": [[[...]]]}``."""
    return '{"type": "act", "action": ' + "[" * depth + "]" * depth + "}"


def errors_in(messages: list[dict[str, Any]], code: str) -> list[dict[str, Any]]:
    return [m for m in messages if m.get("type") == "error" and m.get("code") == code]


def drain(sock: Socket, wait: float = 0.3) -> list[dict[str, Any]]:
    """Everything received until ``wait`` seconds pass without a message (or the socket closes)."""
    out: list[dict[str, Any]] = []
    while True:
        try:
            out.append(json.loads(sock.ws.recv(timeout=wait)))
        except TimeoutError:
            return out
        except Exception:  # closed
            return out
