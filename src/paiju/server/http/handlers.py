"""What every HTTP handler of the card room shares: JSON refusals, the room and the session of a request, a
request's JSON body, and the answer that hands out a session.

app.py and the route modules (routes_players.py, routes_history.py) all build on these; keeping them here, not
in app.py, keeps the imports one way (app -> routes -> handlers).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from ..errors import ErrorCode, RoomError
from ..limits import Limits, Malformed, Throttled, TooDeep, client_address, loads_limited
from ..people.accounts import AccountInfo, SessionStore
from ..people.auth import COOKIE, token_of
from ..room.room import Room
from ..settings import Settings
from ..storage import Player, note_address_row

Handler = Callable[[Request], Awaitable[Response]]


def _error(e: RoomError) -> JSONResponse:
    """A refusal's JSON body; a 429, and a 503 for a table moving between workers, also say when to come
    back (``Retry-After``: whole seconds, so the shortest there is)."""
    headers = {"Retry-After": str(e.retry_after)} if isinstance(e, Throttled) else \
        {"Retry-After": "1"} if e.code == ErrorCode.OWNER_UNAVAILABLE else None
    return JSONResponse({"error": e.to_dict()}, status_code=e.status, headers=headers)


def error_response(e: RoomError) -> JSONResponse:
    return _error(e)


def api(handler: Handler) -> Handler:
    """Turn a RoomError raised by a handler into its JSON error reply."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except RoomError as e:
            return _error(e)

    wrapped.__name__ = handler.__name__
    return wrapped


async def on_table(request: Request, name: str, player: Player | None, data: dict[str, Any]) -> dict[str, Any]:
    """Run the lobby command ``name`` on the path's table: here if the table is ours, else at the worker that
    owns it (cluster.py's calls; the same command, which checks the player's rights there); its reply.
    ``read:<name>`` is a read that needs no session (``app.state.reads``), named as the cluster names it."""
    room, tid = room_of(request), request.path_params["table_id"]
    if room.cluster.enabled and tid not in room.tables:
        reply: dict[str, Any] = await room.cluster.call(tid, name, player, data)  # type: ignore[attr-defined]
        return reply
    table = room.get(tid)
    if name.startswith("read:"):
        return request.app.state.reads[name.removeprefix("read:")](table)  # type: ignore[no-any-return]
    assert player is not None, "a command needs the session's player"
    return await request.app.state.commands[name](player, table, data)  # type: ignore[no-any-return]


def room_of(request: Request | WebSocket) -> Room:
    room: Room = request.app.state.room
    return room


def sessions_of(request: Request | WebSocket) -> SessionStore:
    sessions: SessionStore = request.app.state.sessions
    return sessions


async def current_player(request: Request | WebSocket) -> Player | None:
    return await room_of(request).player(await sessions_of(request).player_id(token_of(request)))


async def require_player(request: Request) -> Player:
    """The session's player; a banned one is refused everything a session is needed for (moderation.py)."""
    player = await current_player(request)
    if player is None:
        raise RoomError(ErrorCode.NO_SESSION, "pick a nickname first (POST /api/session)", 401,
                        zh="请先取个昵称（POST /api/session）")
    if player.id in getattr(request.app.state, "banned", ()):
        raise RoomError(ErrorCode.BANNED, "a host has banned this player", 403, zh="你已被管理员封禁")
    return player


async def body_of(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw:
        return {}
    settings: Settings = request.app.state.settings
    try:
        data = loads_limited(raw, settings.max_json_depth)
    except TooDeep as e:
        raise RoomError(ErrorCode.BAD_JSON, str(e), 400, zh=f"JSON 嵌套超过 {settings.max_json_depth} 层") from None
    except Malformed as e:
        raise RoomError(ErrorCode.BAD_JSON, f"the body is not JSON the room reads: {e}", 400,
                        zh=f"请求内容有无法读取的数字或字符：{e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RoomError(ErrorCode.BAD_JSON, f"the body is not JSON: {e}", 400, zh=f"请求内容不是 JSON：{e}") from e
    if not isinstance(data, dict):
        raise RoomError(ErrorCode.BAD_JSON, "the body must be a JSON object", 400, zh="请求内容应为一个 JSON 对象")
    return data


def settings_of(request: Request | WebSocket) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def limits_of(request: Request | WebSocket) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


def address_of(request: Request | WebSocket) -> str:
    """The client's address (``X-Forwarded-For`` only from a trusted proxy): what per-address limits count."""
    return client_address(request, settings_of(request).trusted_proxies)


async def note_address(request: Request, player: Player, table_id: str) -> None:
    """Keep the address a person sat down from: the hosts' collusion signals (at most 30 days, docs/server.md)."""
    room, address = room_of(request), address_of(request)
    now = room.settings.clock()
    await room.db.run(lambda c: note_address_row(c, player.id, table_id, address, now))


def session_response(request: Request, token: str, player: Player, account: AccountInfo | None,
                     status: int = 200) -> JSONResponse:
    """``{"token", "player"}`` and the same token as an HTTP-only cookie that lives as long as the session."""
    settings: Settings = request.app.state.settings
    body: dict[str, Any] = {"token": token, "player": {**player.to_dict(), "account": account is not None}}
    if account is not None:
        body["account"] = {"username": account.username, "created_at": account.created_at}
    response = JSONResponse(body, status_code=status)
    response.set_cookie(COOKIE, token, max_age=int(settings.session_days * 86400), httponly=True, samesite="lax",
                        secure=settings.cookie_secure)
    return response
