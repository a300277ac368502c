"""What every request passes before the room sees it: the body cap, the browser's origin, the page headers,
and a JSON 503 (not a plain-text 500) when the database cannot be reached.

A plain ASGI middleware (no per-request objects on the websocket path): the card room's hot path is the
websocket, which it only looks at once, at the handshake.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.datastructures import Headers

from ..errors import ErrorCode, RoomError
from ..people.auth import COOKIE
from ..room.conn import dumps
from ..settings import Settings

log = logging.getLogger("paiju.server.http.guard")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""The browser client loads only its own modules and stylesheet (no inline script or style attribute, the
favicon is a data: image) and talks only to its own origin (websockets included)."""

CLOSE_FOREIGN = 4403
"""The websocket close code for a handshake refused for its origin (as for a private table without invite)."""

DB_ERRORS = (DBAPIError, PoolTimeout, sqlite3.OperationalError)
"""What the database driver raises when the database cannot be reached or stays locked."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class BodyTooLarge(Exception):
    """The body went past the cap while it was being read."""


def page_headers(settings: Settings) -> list[tuple[bytes, bytes]]:
    out = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"x-frame-options", b"DENY"), (b"referrer-policy", b"no-referrer")]
    if settings.cookie_secure:
        out.append((b"strict-transport-security", b"max-age=31536000"))
    return out


def origin_allowed(origin: str, host: str | None, allowed: tuple[str, ...]) -> bool:
    """The served origin (same host and port as the request), or one listed by ``--allowed-origin``;
    never ``null`` (sandboxed frames, file: pages, some redirects)."""
    origin = origin.strip().rstrip("/").lower()
    if not origin or origin == "null":
        return False
    if origin in allowed:
        return True
    return host is not None and urlsplit(origin).netloc == host.strip().lower()


def json_body(headers: Headers) -> bool:
    """Whether a state-changing request's body is declared JSON (``application/json`` or ``…+json``), or it
    has neither a body nor a type.  A page of another site can send a form's types (``text/plain``,
    ``application/x-www-form-urlencoded``, ``multipart/form-data``) without asking first; a JSON type makes
    the browser ask (a CORS preflight the room never grants)."""
    ctype = headers.get("content-type")
    if ctype is None:
        return headers.get("content-length", "0").strip() == "0" and "transfer-encoding" not in headers
    media = ctype.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def cookie_credential(headers: Headers, query: str) -> bool:
    """Whether the session comes from the cookie (a browser sends it by itself, from any page) rather than
    from a Bearer header or ``?token=`` (a program, or our own page, named it)."""
    if headers.get("authorization", "").lower().startswith("bearer "):
        return False
    if "token=" in query:
        return False
    return f"{COOKIE}=" in headers.get("cookie", "")


def _json(status: int, e: RoomError, extra: list[tuple[bytes, bytes]]) -> tuple[Message, Message]:
    body = dumps({"error": e.to_dict()}).encode()
    start = {"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                         *extra]}
    return start, {"type": "http.response.body", "body": body}


def db_unavailable() -> RoomError:
    return RoomError(ErrorCode.DB_UNAVAILABLE, "the database is unavailable; try again shortly", 503,
                     zh="数据库暂时不可用，请稍后再试")


class Guard:
    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.headers = page_headers(settings)
        self.allowed = tuple(o.strip().rstrip("/").lower() for o in settings.allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def _foreign(self, scope: Scope) -> bool:
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is None:
            return False
        if not cookie_credential(headers, scope.get("query_string", b"").decode("latin-1")):
            return False
        return not origin_allowed(origin, headers.get("host"), self.allowed)

    def _cross_site(self, headers: Headers) -> bool:
        """Whether a state-changing request comes from another site's page, with or without a session: its
        ``Origin`` is foreign (or ``null``), or it has none and the browser says ``Sec-Fetch-Site: cross-site``.
        A request with neither header is no browser page's (a program, curl): accepted."""
        origin = headers.get("origin")
        if origin is not None:
            return not origin_allowed(origin, headers.get("host"), self.allowed)
        return headers.get("sec-fetch-site", "").strip().lower() == "cross-site"

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._foreign(scope):
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": CLOSE_FOREIGN, "reason": "foreign origin"})
            return
        await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        extra = self.headers
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        async def refuse(e: RoomError) -> None:
            start, body = _json(e.status, e, extra)
            await send(start)
            await send(body)

        if scope["method"] not in SAFE_METHODS:
            headers = Headers(scope=scope)
            if self._cross_site(headers):
                await refuse(RoomError(ErrorCode.BAD_ORIGIN, "a page of another site may not change anything here",
                                       403, zh="其他网站的页面不能在这里做任何改动"))
                return
        cap = self.settings.max_body_bytes
        too_large = RoomError(ErrorCode.BODY_TOO_LARGE, f"the body is larger than {cap} bytes", 413,
                              zh=f"请求内容超过 {cap} 字节")
        length = Headers(scope=scope).get("content-length")
        if length is not None and length.isascii() and length.isdigit() and (len(length) > 15 or int(length) > cap):
            await refuse(too_large)
            return
        if scope["method"] not in SAFE_METHODS and not json_body(Headers(scope=scope)):
            await refuse(RoomError(ErrorCode.BAD_CONTENT_TYPE, "send the body as JSON (Content-Type: "
                                   "application/json)", 415, zh="请求内容须为 JSON（Content-Type: application/json）"))
            return
        seen = 0

        async def capped_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > cap:
                    raise BodyTooLarge
            return message

        try:
            await self.app(scope, capped_receive, send_with_headers)
        except BodyTooLarge:
            if not started:
                await refuse(too_large)
        except DB_ERRORS as e:
            if started:
                raise
            log.warning("database unavailable for %s %s: %s", scope["method"], scope["path"],
                        str(e).splitlines()[0][:200])
            await refuse(db_unavailable())
