"""HTTP for the room's hosts: ban, unban, kick, close a table, rename a nickname, read and close reports, the log.

Every call needs a host's session (403 ``not_host`` otherwise) and every act is logged with who and when
(moderation.py).  docs/protocol.md ("Reports and hosts") describes every call.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import ErrorCode, RoomError
from ..people.moderation import Host, Moderation, banned, read_log
from ..room.chatfilter import clean_words
from ..room.conn import dumps
from ..room.ownership import Command
from ..room.room import Room
from ..room.table import CardTable
from ..scores import signals as collusion
from ..storage import Player
from .handlers import Handler, api, body_of, on_table, require_player, room_of, sessions_of
from .routes_friends import moderation_of
from .routes_history import _limit


async def _host(request: Request) -> tuple[Host, Moderation]:
    player = await require_player(request)
    mod = moderation_of(request)
    return await mod.require_host(player.id), mod


def _text(data: dict[str, Any], name: str) -> str | None:
    v = data.get(name)
    if v is None:
        return None
    if not isinstance(v, str) or len(v) > 200:
        raise RoomError(ErrorCode.BAD_OPTION, f"{name} must be text of at most 200 characters", 422,
                        zh=f"{name} 应为不超过 200 字的文字")
    return v.strip() or None


@api
async def whoami(request: Request) -> Response:
    host, _mod = await _host(request)
    return JSONResponse({"host": {"id": host.id, "name": host.name}})


@api
async def signals(request: Request) -> Response:
    """Collusion signals, flagged for a host to look at (scores/signals.py): nothing is blocked by them."""
    await _host(request)
    room = room_of(request)
    now, meetings = room.settings.clock(), room.settings.signal_meetings
    return JSONResponse(await room.db.run(lambda c: collusion.signals(c, now, meetings)))


BANNED_NEWS = "X"
"""The news every worker hears of a ban (cluster.py's ``{prefix}:news``): the player id follows."""


def _drop_sockets(room: Room, player_id: str) -> None:
    """A banned player's open sockets at our tables are told and closed (in play, the grace period then hands
    the seat to a bot); reconnecting without a session, they could only watch.  A socket relayed from another
    worker is one of our table's connections too: closing it closes it there."""
    text = dumps({"type": "error", **banned().to_dict()})
    for table in list(room.tables.values()):
        for conn in list(table.watchers.conns):
            if conn.player is not None and conn.player.id == player_id:
                conn.send(text)
                conn.close()


def _ban(on: bool) -> Any:
    async def handler(request: Request) -> Response:
        host, mod = await _host(request)
        data = await body_of(request)
        pid = request.path_params["player_id"]
        if on and pid == host.id:
            raise RoomError(ErrorCode.BAD_OPTION, "a host cannot ban themselves", 422, zh="管理员不能封禁自己")
        await mod.set_ban(host, pid, on, _text(data, "reason"))
        if on:  # every session ends now, here and in every other worker; so do its sockets at every table
            room = room_of(request)
            _drop_sockets(room, pid)  # first: they hear "banned" before their session's end closes them
            room.cluster.announce(BANNED_NEWS + pid)  # the tables other workers own, before the sessions' end
            await sessions_of(request).revoke_all(pid)
        return JSONResponse({"player": pid, "banned": on})

    handler.__name__ = "ban" if on else "unban"
    return api(handler)


@api
async def rename(request: Request) -> Response:
    host, mod = await _host(request)
    data = await body_of(request)
    pid = request.path_params["player_id"]
    nickname = await mod.rename(host, pid, data.get("nickname"))
    room = room_of(request)
    room._players.pop(pid, None)  # the Room caches players by id; the next read has the new name
    for table in list(room.tables.values()):
        await table.rename(pid, nickname)
    return JSONResponse({"player": pid, "nickname": nickname})


def heard(room: Room, news: str) -> None:
    """Another worker banned a player: close its sockets at the tables we own."""
    if news.startswith(BANNED_NEWS):
        _drop_sockets(room, news[len(BANNED_NEWS):])


def table_commands(mod: Moderation) -> dict[str, Command]:
    """Kick and close as the table's owner runs them, whichever worker the host asked: the owner checks the
    host's rights itself (every worker reads them from the database), not trusting the asking worker."""

    async def kick_at(player: Player, table: CardTable, data: dict[str, Any]) -> dict[str, Any]:
        host = await mod.require_host(player.id)
        seat = data.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise RoomError(ErrorCode.BAD_SEAT, "say which seat: {\"seat\": 0}", 422,
                            zh="请说明是哪个座位：{\"seat\": 0}")
        pid = await table.kick(seat)
        if pid is None:
            raise RoomError(ErrorCode.BAD_SEAT, f"nobody sits in seat {seat} to be kicked", 422,
                            zh=f"{seat} 号位没有人可踢")
        await mod.log_table_act(host, "kick", table.id, player_id=pid,
                                detail={"seat": seat, "status": table.status, "reason": _text(data, "reason")})
        return table.info()

    async def close_at(player: Player, table: CardTable, data: dict[str, Any]) -> dict[str, Any]:
        host = await mod.require_host(player.id)
        reason = _text(data, "reason")
        if not await table.close_by_host({"by": host.name, "reason": reason}):
            raise RoomError(ErrorCode.GAME_OVER,
                            "the table is over already", 409, zh="这张牌桌已经结束了")
        await mod.log_table_act(host, "close", table.id, detail={"reason": reason})
        return table.info()

    return {"host_kick": kick_at, "host_close": close_at}


def _on_table(name: str, route: str) -> Handler:
    """A host's command on a table: refused here unless a host, then run where the table is."""

    async def handler(request: Request) -> Response:
        await _host(request)  # refused here already (the owner checks again)
        data = await body_of(request)
        return JSONResponse(await on_table(request, name, await require_player(request), data))

    handler.__name__ = route
    return api(handler)


kick, close_table = _on_table("host_kick", "kick"), _on_table("host_close", "close_table")


@api
async def list_reports(request: Request) -> Response:
    _, mod = await _host(request)
    status = request.query_params.get("status", "open")
    if status not in ("open", "closed", "all"):
        raise RoomError(ErrorCode.BAD_OPTION, "status is open, closed or all", 422,
                        zh="status 应为 open、closed 或 all")
    return JSONResponse(await mod.reports(None if status == "all" else status, _limit(request, 100)))


@api
async def close_report(request: Request) -> Response:
    host, mod = await _host(request)
    data = await body_of(request)
    try:
        rid = int(request.path_params["report_id"])
    except ValueError:
        raise RoomError(ErrorCode.NO_REPORT, "a report id is a number", 404, zh="举报编号应为数字") from None
    await mod.close_report(host, rid, _text(data, "note"))
    return JSONResponse({"id": rid, "status": "closed"})


@api
async def chat_filter(request: Request) -> Response:
    """``GET``: the words; ``POST {"words": [...]}``: replace them (each kept as its skeleton: chatfilter.py)."""
    host, mod = await _host(request)
    if request.method == "POST":
        data = await body_of(request)
        raw = data.get("words")
        try:
            if not isinstance(raw, list):
                raise ValueError('send {"words": ["...", ...]}')
            words = clean_words(raw)
        except ValueError as e:
            raise RoomError(ErrorCode.BAD_OPTION, f"chat filter: {e}", 422, zh=f"聊天过滤词有误：{e}") from None
        kept = await mod.set_chat_filter(host, words)
        request.app.state.talk.forget_words()
        return JSONResponse({"words": kept})
    return JSONResponse({"words": await mod.chat_filter()})


@api
async def get_log(request: Request) -> Response:
    await _host(request)
    raw = request.query_params.get("before")
    try:
        before = int(raw) if raw else None
    except ValueError:
        raise RoomError(ErrorCode.BAD_CURSOR, "before is a log entry id", 422, zh="before 应为日志编号") from None
    limit = _limit(request, 50)
    return JSONResponse(await room_of(request).db.run(lambda c: read_log(c, before=before, limit=limit)))


ROUTES = [
    Route("/api/host", whoami),
    Route("/api/host/signals", signals),
    Route("/api/host/players/{player_id}/ban", _ban(True), methods=["POST"]),
    Route("/api/host/players/{player_id}/unban", _ban(False), methods=["POST"]),
    Route("/api/host/players/{player_id}/rename", rename, methods=["POST"]),
    Route("/api/host/tables/{table_id}/kick", kick, methods=["POST"]),
    Route("/api/host/tables/{table_id}/close", close_table, methods=["POST"]),
    Route("/api/host/reports", list_reports),
    Route("/api/host/reports/{report_id}/close", close_report, methods=["POST"]),
    Route("/api/host/log", get_log),
    Route("/api/host/chat-filter", chat_filter, methods=["GET", "POST"]),
]
