"""HTTP for playing with friends: room numbers, quick match, the phrases, the series sheet, reports, your data.

docs/protocol.md ("Playing with friends", "Reports and hosts") describes every call.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import ErrorCode, RoomError
from ..lobby.quick import QuickMatch
from ..people.moderation import Moderation
from ..room import numbers
from ..room.conn import dumps
from ..room.talk import Talk
from ..scores import series
from ..scores.export import player_data
from .handlers import api, body_of, current_player, note_address, require_player, room_of

PAGES = ["/r/{number}", "/series/{table_id}", "/host"]
"""Browser pages served by the one-page client (index.html)."""


def quick_of(request: Request) -> QuickMatch:
    q: QuickMatch = request.app.state.quick
    return q


def moderation_of(request: Request) -> Moderation:
    m: Moderation = request.app.state.moderation
    return m


@api
async def get_room(request: Request) -> Response:
    """``GET /api/rooms/<number>``: the newest table with that number (a private one still needs its invite)."""
    number = numbers.clean(request.path_params["number"])
    room = room_of(request)
    live = [t for t in room.tables.values() if t.row.number == number]
    if live:
        table = max(live, key=lambda t: t.row.created_at)
    else:
        tid = await room.db.run(lambda c: numbers.newest_table(c, number))
        if tid is None:
            raise numbers.no_room(number)
        table = await room.get_or_load(tid)
    player = await current_player(request)
    table.check_invite(player, request.query_params.get("invite"))
    return JSONResponse(table.info(for_player=player))


@api
async def quick_match(request: Request) -> Response:
    player = await require_player(request)
    data = await body_of(request)
    game = data.get("game")
    if not isinstance(game, str):
        raise RoomError(ErrorCode.UNKNOWN_GAME, "say which game: {\"game\": \"shuiyu\"}", 422,
                        zh="请说明是哪个游戏：{\"game\": \"shuiyu\"}")
    quick = quick_of(request)
    if room_of(request).cluster.enabled:  # the room's waiting list, shared by every worker
        info = await quick.join_shared(player, game)
    else:
        info = (await quick.join(player, game)).info(for_player=player)
    await note_address(request, player, info["id"])
    return JSONResponse(info)


async def phrases(request: Request) -> Response:
    talk: Talk = request.app.state.talk
    return JSONResponse(talk.catalogue())


@api
async def get_series(request: Request) -> Response:
    """The series sheet of the table's chain of rematches (a private table's needs what its table needs)."""
    tid = request.path_params["table_id"]
    room = room_of(request)
    table = await room.get_or_load(tid)
    table.check_invite(await current_player(request), request.query_params.get("invite"))
    out = await series.sheet(room, tid)
    if out is None:
        raise RoomError(ErrorCode.NO_TABLE, f"no table {tid!r} here", 404, zh=f"这里没有牌桌 {tid!r}")
    return Response(dumps(out), media_type="application/json")


@api
async def report(request: Request) -> Response:
    """A report on a seat: the reason, the table, the seat's player and the time go to the hosts' list."""
    player = await require_player(request)
    data = await body_of(request)
    room = room_of(request)
    table = await room.get_or_load(request.path_params["table_id"])
    invite = data.get("invite") or request.query_params.get("invite")
    table.check_invite(player, invite if isinstance(invite, str) else None)
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
        raise RoomError(ErrorCode.BAD_SEAT, f"say which seat: 0 to {len(table.seats) - 1}", 422,
                        zh=f"请说明是哪个座位：0 到 {len(table.seats) - 1}")
    target = table.seats[seat].player_id
    out = await moderation_of(request).report(player.id, table.id, seat, target, data.get("reason"))
    return JSONResponse(out, status_code=201)


@api
async def my_data(request: Request) -> Response:
    """Everything the room keeps about you, as a JSON file to keep."""
    player = await require_player(request)
    room = room_of(request)
    now = room.settings.clock()
    out: dict[str, Any] | None = await room.db.run(lambda c: player_data(c, player.id, now))
    if out is None:
        raise RoomError(ErrorCode.NO_PLAYER, "no such player", 404, zh="找不到这位玩家")
    return Response(dumps(out), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="paiju-{player.id}.json"'})


ROUTES = [
    Route("/api/rooms/{number}", get_room),
    Route("/api/quick", quick_match, methods=["POST"]),
    Route("/api/phrases", phrases),
    Route("/api/tables/{table_id}/series", get_series),
    Route("/api/tables/{table_id}/report", report, methods=["POST"]),
    Route("/api/me/data", my_data),
]
