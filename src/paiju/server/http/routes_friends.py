"""HTTP for playing with friends: room numbers, quick match, the phrases, the series sheet, reports, your data.

docs/protocol.md ("Playing with friends", "Reports and hosts") describes every call.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import ErrorCode, RoomError
from ..lobby.quick import QuickMatch
from ..people.accounts import accounts
from ..people.moderation import Moderation
from ..room import numbers
from ..room.chatfilter import line_is_real
from ..room.conn import dumps
from ..room.table import CardTable
from ..room.talk import Talk
from ..scores import ledger as lg
from ..scores import series
from ..scores.export import player_data
from ..storage import Player
from .handlers import address_of, api, body_of, current_player, limits_of, note_address, require_player, room_of

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
    """``GET /api/rooms/<number>``: the newest table with that number.  Without its invite a private table's
    number answers exactly as a free one (404 ``no_room``), and lookups are counted, so the numbers cannot be
    swept for the private rooms."""
    player = await current_player(request)
    await limits_of(request).room_lookup(player.id if player is not None else None, address_of(request))
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
    try:
        table.check_invite(player, request.query_params.get("invite"))
    except RoomError as e:
        if e.code is ErrorCode.INVITE_REQUIRED:  # the same answer as a number nobody holds
            raise numbers.no_room(number) from None
        raise
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


async def _may_report(request: Request, player: Player, table: CardTable) -> bool:
    """An account may report; a guest (free to make by the dozen) once it has played a whole hand: a hand
    settled at this table while it holds a seat here (seats are fixed from the start, so it sat through it),
    or a match of its booked in the ledger."""
    room = room_of(request)
    game = table.game
    if table.seat_of(player) is not None and table.status != "waiting" and (game.finished or game.hands_finished()):
        return True

    def job(c: Connection) -> bool:
        if c.execute(select(accounts.c.player_id).where(accounts.c.player_id == player.id)).first() is not None:
            return True
        return c.execute(select(lg.ledger.c.id).where(lg.ledger.c.player_id == player.id).limit(1)).first() is not None

    return await room.db.run(job)


def _quoted_line(request: Request, table_id: str, seat: int, target: str | None,
                 quoted: object) -> dict[str, Any] | None:
    """The chat line a report points at ({"text", "at", "sig"} as the chat message gave it), if its signature
    says it was said at this table by the player in that seat: 422 ``bad_chat_line`` otherwise."""
    if quoted is None:
        return None
    q = quoted if isinstance(quoted, dict) else {}
    if target is None or not line_is_real(request.app.state.talk.key, table_id, seat, target, q.get("at"),
                                          q.get("text"), q.get("sig")):
        raise RoomError(ErrorCode.BAD_CHAT_LINE, "that chat line was not said by this seat at this table", 422,
                        zh="引用的聊天内容不是这个座位在这张桌上说的")
    return {"text": q["text"], "at": q["at"]}


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
    if not await _may_report(request, player, table):
        raise RoomError(ErrorCode.PLAY_FIRST, "a guest reports once it has played a whole hand: finish a hand (or "
                        "register)", 403, zh="游客要先打完一整手牌才能举报（或先注册）")
    chat = _quoted_line(request, table.id, seat, target, data.get("chat"))
    out = await moderation_of(request).report(player.id, table.id, seat, target, data.get("reason"), chat)
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
