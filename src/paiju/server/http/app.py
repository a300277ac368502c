"""The card room's ASGI app: lobby over HTTP, play over one websocket per client per table.

``create_app(settings)`` builds everything; the lifespan owns the database, the writer thread and the
table registry (with its timers), so nothing is read or opened at import time.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import paiju
from paiju.bots.base import STRENGTH_LABELS, STRENGTHS
from paiju.core import game_names, get_game

from .. import storage as st
from ..cluster.redis_cluster import CLOSE_MOVED, Cluster, Command, RedisCluster, Relayed
from ..errors import ErrorCode, RoomError
from ..limits import Limits, Sockets, Throttle, TooDeep, loads_limited
from ..lobby.quick import QuickMatch
from ..people.accounts import Accounts, SessionStore
from ..people.auth import clean_nickname
from ..people.moderation import Moderation
from ..room.bots import parse_strength, strengths_of
from ..room.table import BotFactory, CardTable, Conn, Room, default_bot_factory, dumps
from ..room.talk import Talk
from ..scores import scoring
from ..settings import Settings
from ..storage import Player
from . import routes_friends, routes_history, routes_host, routes_players
from .guard import DB_ERRORS, Guard, db_unavailable
from .handlers import (
    Handler,
    address_of,
    api,
    body_of,
    current_player,
    limits_of,
    on_table,
    require_player,
    room_of,
    session_response,
    sessions_of,
    settings_of,
)

log = logging.getLogger("paiju.server")

WEB_DIR = Path(paiju.__file__).parent / "web"
RULES_DIR = Path(paiju.__file__).resolve().parents[2] / "docs" / "rules"
"""docs/rules of a source checkout: the rules pages the client shows (``<game>.md``, ``<game>.zh.md``)."""

PLACEHOLDER = """<!doctype html><html lang="zh"><meta charset="utf-8"><title>牌局 paiju</title>
<body><h1>牌局 paiju</h1><p>The browser client is not installed in this build (src/paiju/web/).
The card room's API is at <code>/api/games</code> and <code>/api/tables</code>.</p></body></html>"""

TABLE_OPTIONS = [
    {"name": "turn_seconds", "type": "float", "zh": "出牌时限（秒，0 为不限）", "en": "turn window (s, 0 = untimed)",
     "choices": None},
    {"name": "claim_seconds", "type": "float", "zh": "抢牌时限（秒，0 为不限）", "en": "claim window (s, 0 = untimed)",
     "choices": None},
    {"name": "pace_seconds", "type": "float", "zh": "发牌节奏（每轮秒数，升级边发边亮）",
     "en": "deal pace (s per round of cards, 升级's bidding deal)", "choices": None},
    {"name": "next_hand_seconds", "type": "float", "zh": "两局之间最多等待（秒，0 为不等）",
     "en": "pause between hands at most (s, 0 = none)", "choices": None},
    {"name": "claim_pause", "type": "float", "zh": "每次出牌后统一等待（秒，0 为不等；看不出谁能碰胡）",
     "en": "pause after every discard (s, 0 = none; nobody can tell who could claim)", "choices": None},
]
ROOM_OPTIONS = ("pace_seconds", "next_hand_seconds", "claim_pause")
"""Table options the room keeps beside the two windows (``TableRow.options``)."""
ESCAPE_LABELS = {"page": {"zh": "页面规则：逃跑扣24×基础分，其他家按抓分算",
                          "en": "the page: leaver −24 × base, the others scored on the points taken so far"},
                 "flat": {"zh": "逃跑扣8分，其他家各加1分", "en": "leaver −8, each other player +1"}}

# ---- pages ----------------------------------------------------------------------------------------------

async def index(request: Request) -> Response:
    page = WEB_DIR / "index.html"
    if page.is_file():
        return FileResponse(page, media_type="text/html")
    return HTMLResponse(PLACEHOLDER)


async def healthz(request: Request) -> Response:
    """Whether this worker can serve (a proxy's health check): 503 while it starts, stops or has lost its lease."""
    room = getattr(request.app.state, "room", None)
    if room is None:
        return JSONResponse({"ok": False, "why": "starting"}, status_code=503)
    cluster = room.cluster
    ok = cluster.healthy
    return JSONResponse({"ok": ok, "worker": cluster.worker_id, "tables": len(room.tables)},
                        status_code=200 if ok else 503)


# ---- players ---------------------------------------------------------------------------------------------

@api
async def new_session(request: Request) -> Response:
    data = await body_of(request)
    nickname = clean_nickname(data.get("nickname"))
    if nickname is None:
        raise RoomError(ErrorCode.BAD_NICKNAME, "a nickname is 1 to 24 printable characters", 422,
                        zh="昵称应为 1 到 24 个可显示的字符")
    await limits_of(request).new_session(address_of(request))
    player = await room_of(request).new_player(nickname)
    token = await sessions_of(request).issue(player.id, "guest")
    return session_response(request, token, player, account=None)


@api
async def get_session(request: Request) -> Response:
    player = await require_player(request)
    accounts: Accounts = request.app.state.accounts
    account = await accounts.account_of(player.id)
    return JSONResponse({"player": {**player.to_dict(), "account": account is not None},
                         "account": None if account is None else {"username": account.username,
                                                                  "created_at": account.created_at}})


# ---- lobby ---------------------------------------------------------------------------------------------

async def list_games(request: Request) -> Response:
    out = []
    for name in game_names():
        try:
            cls = get_game(name)
        except ImportError:  # a game registered but not installed yet
            continue
        out.append({"name": name, "display": dict(cls.display), "min_seats": cls.min_seats,
                    "max_seats": cls.max_seats, "options": cls.config_class.schema(),
                    "table_options": [*_table_options(request.app.state.settings, paced=cls.paced,
                                                      asks_all=cls.config_class.asks_all_option() is not None),
                                      _escape_option(name)],
                    "strengths": _strengths(name)})
    return JSONResponse(out)


def _strengths(game: str) -> list[dict[str, str]]:
    """The bot strengths a table of ``game`` offers, weakest first, with the bot kind each one is."""
    kinds = strengths_of(game)
    return [{"name": s, **STRENGTH_LABELS[s], "bot": kinds[s]} for s in STRENGTHS]


def _table_options(settings: Settings, *, paced: bool, asks_all: bool) -> list[dict[str, Any]]:
    """The decision windows with their defaults and bounds (0, untimed, is allowed besides), the pause between
    hands, the deal's pace where the game has paced steps, and the claim pause where its rules can ask every
    seat at a claim point."""
    turn = {"default": settings.turn_seconds, "min": settings.min_turn_seconds, "max": settings.max_window_seconds}
    claim = {"default": settings.claim_seconds, "min": settings.min_window_seconds,
             "max": settings.max_window_seconds}
    bounds = {"turn_seconds": turn, "claim_seconds": claim,
              "pace_seconds": {"default": settings.pace_seconds, "min": 0.0, "max": settings.max_pace_seconds},
              "next_hand_seconds": {"default": settings.next_hand_seconds, "min": 0.0,
                                    "max": settings.max_window_seconds},
              "claim_pause": {"default": settings.claim_pause, "min": 0.0, "max": settings.max_pace_seconds}}
    offered = {"pace_seconds": paced, "claim_pause": asks_all}
    return [dict(o, **bounds[str(o["name"])]) for o in TABLE_OPTIONS if offered.get(str(o["name"]), True)]


@api
async def game_rules(request: Request) -> Response:
    """A game's rules page as Markdown, in the language asked for when it is written in it, else in English."""
    game = request.path_params["game"]
    lang = request.query_params.get("lang", "en")
    if game not in game_names():
        raise RoomError(ErrorCode.NO_RULES, f"no game {game!r} here", 404, zh=f"这里没有游戏 {game!r}")
    tried = ([f"{game}.zh.md"] if lang == "zh" else []) + [f"{game}.md"]
    for name in tried:
        path = RULES_DIR / name
        if path.is_file():
            text = await asyncio.to_thread(path.read_text, encoding="utf-8")
            return JSONResponse({"game": game, "lang": "zh" if name.endswith(".zh.md") else "en", "markdown": text})
    raise RoomError(ErrorCode.NO_RULES, f"the rules of {game!r} are not installed with this server (docs/rules)",
                    404, zh=f"这个服务器没有装 {game!r} 的规则（docs/rules）")


def _escape_option(game: str) -> dict[str, Any]:
    rules = scoring.platform_of(game).escape_rules
    return {"name": "escape", "type": "str", "zh": "逃跑计分", "en": "escape scoring", "default": rules[0],
            "choices": list(rules), "choice_labels": [ESCAPE_LABELS[r] for r in rules]}


LOBBY_PAGE = 50


def _cursor(key: tuple[float, str]) -> str:
    return base64.urlsafe_b64encode(f"{key[0]!r}|{key[1]}".encode()).decode().rstrip("=")


def _after(cursor: str | None) -> tuple[float, str] | None:
    if not cursor:
        return None
    try:
        at, _, tid = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode().partition("|")
        return float(at), tid
    except (ValueError, UnicodeDecodeError):
        raise RoomError(ErrorCode.BAD_CURSOR, "cursor must be a lobby page's \"next\"", 422,
                        zh="cursor 应为上一页给出的 \"next\"") from None


@api
async def list_tables(request: Request) -> Response:
    """A page of public waiting and playing tables, newest first: ``{"tables": [...], "next": cursor|null}``."""
    player = await current_player(request)
    await limits_of(request).lobby_read(player.id if player else None, address_of(request))
    q = request.query_params
    after = _after(q.get("cursor"))
    raw_limit = q.get("limit", str(LOBBY_PAGE))
    if not raw_limit.isdigit() or not 1 <= int(raw_limit) <= LOBBY_PAGE:
        raise RoomError(ErrorCode.BAD_OPTION, f"limit must be 1 to {LOBBY_PAGE}", 422,
                        zh=f"limit 应为 1 到 {LOBBY_PAGE}")
    room = room_of(request)
    if room.cluster.enabled:  # every worker's tables, as their owners last wrote them
        texts, last = await room.cluster.lobby_page(after, int(raw_limit), q.get("game"))  # type: ignore[attr-defined]
        nxt = "null" if last is None else dumps(_cursor(last))
        return Response(f'{{"tables":[{",".join(texts)}],"next":{nxt}}}', media_type="application/json")
    tables, last = room.lobby_page(after, int(raw_limit), q.get("game"))
    body = dumps({"tables": [t.info() for t in tables], "next": None if last is None else _cursor(last)})
    return Response(body, media_type="application/json")  # orjson: a page of 50 tables is ~40 KB


@api
async def create_table(request: Request) -> Response:
    player = await require_player(request)
    data = await body_of(request)
    limits, address = limits_of(request), address_of(request)
    await limits.may_make_table(player.id, address)
    game = data.get("game")
    if not isinstance(game, str):
        raise RoomError(ErrorCode.UNKNOWN_GAME, "say which game: {\"game\": \"shuiyu\", ...}", 422,
                        zh="请说明是哪个游戏：{\"game\": \"shuiyu\", ...}")
    private = data.get("private", False)
    if not isinstance(private, bool):
        raise RoomError(ErrorCode.BAD_OPTION, "private must be true or false", 422, zh="private 应为 true 或 false")
    settings: Settings = request.app.state.settings
    fixed: dict[str, Any] = {}
    if settings.allow_fixed_deals:
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RoomError(ErrorCode.BAD_OPTION, "seed must be an integer", 422, zh="seed 应为整数")
        fixed = {"seed": seed, "deal": data.get("deal")}
    elif "seed" in data or "deal" in data:
        raise RoomError(ErrorCode.BAD_OPTION, "this server does not take fixed seeds or deals", 422,
                        zh="这个服务器不接受指定的种子或牌")
    escape = data.get("escape")
    rules = list(scoring.platform_of(game).escape_rules)
    if escape is not None and escape not in rules:
        raise RoomError(ErrorCode.BAD_OPTION, f"option 'escape' must be one of {rules}", 422,
                        zh=f"选项 'escape' 应为 {rules} 之一")
    table = await room_of(request).create_table(
        player, game, data.get("config"), turn_seconds=data.get("turn_seconds"),
        claim_seconds=data.get("claim_seconds"), private=private,
        options={name: data[name] for name in ROOM_OPTIONS if data.get(name) is not None}, **fixed)
    await limits.made_table(player.id, address)
    await room_of(request).db.run(lambda c: scoring.set_rule(c, table.id, escape))
    return JSONResponse(table.info(for_player=player), status_code=201)


@api
async def get_table(request: Request) -> Response:
    player = await current_player(request)
    room, tid = room_of(request), request.path_params["table_id"]
    if room.cluster.enabled and tid not in room.tables and await room.cluster.owner_of(tid):  # type: ignore[attr-defined]
        info = await room.cluster.call(tid, "info", player, {"invite": request.query_params.get("invite")})  # type: ignore[attr-defined]
        return JSONResponse(info)
    table = await room.get_or_load(tid)
    table.check_invite(player, request.query_params.get("invite"))
    return JSONResponse(table.info(for_player=player))


@api
async def get_record(request: Request) -> Response:
    """A finished table's full record (seed included: the game is over, nothing is hidden any more)."""
    table = await room_of(request).get_or_load(request.path_params["table_id"])
    table.check_invite(await current_player(request), request.query_params.get("invite"))
    if table.status != "finished":
        raise RoomError(ErrorCode.NOT_FINISHED, "the record is published when the game is over", 409,
                        zh="牌局结束后才公开记录")
    departures = await table.store.departures()
    return JSONResponse({"record": table.game.record().to_dict(),
                         "times": [at for _s, _a, at in table.row.actions] or None,
                         "seats": table.info()["seats"], "departures": departures})


def _seat_number(data: dict[str, Any]) -> int:
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RoomError(ErrorCode.BAD_SEAT, "say which seat: {\"seat\": 0}", 422, zh="请说明是哪个座位：{\"seat\": 0}")
    return seat


SeatCommand = Callable[[Player, CardTable, dict[str, Any]], Awaitable[None]]


def seat_command(name: str) -> Handler:
    """A lobby command on one table (``SEAT_COMMANDS[name]``): read the body, check the player, run it where the
    table is (which checks the invite), answer the table."""

    async def handler(request: Request) -> Response:
        data = await body_of(request)
        player = await require_player(request)
        if not data.get("invite") and request.query_params.get("invite"):
            data = {**data, "invite": request.query_params.get("invite")}
        return JSONResponse(await on_table(request, name, player, data))  # here, or at the table's owner

    handler.__name__ = name
    return api(handler)


def _invited(command: SeatCommand) -> Command:
    """A seat command as the table's owner runs it: the invite checked, the act, the table as the player sees it."""

    async def run(player: Player, table: CardTable, data: dict[str, Any]) -> dict[str, Any]:
        invite = data.get("invite")
        table.check_invite(player, invite if isinstance(invite, str) else None)
        await command(player, table, data)
        return table.info(for_player=player)

    return run


SEAT_COMMANDS: dict[str, Command] = {
    "sit": _invited(lambda player, table, data: table.sit(player, _seat_number(data))),
    "leave": _invited(lambda player, table, data: table.leave(player)),
    "add_bots": _invited(lambda player, table, data: table.fill_bots(player, parse_strength(data.get("strength")))),
    "remove_bot": _invited(lambda player, table, data: table.remove_bot(player, _seat_number(data))),
    "start": _invited(lambda player, table, data: table.start(player)),
}
"""The seat commands, the same whether the request reached the table's owner or another worker asked it
(cluster.py's calls)."""

sit, leave, add_bots, remove_bot, start = (seat_command(name) for name in ("sit", "leave", "add_bots", "remove_bot",
                                                                           "start"))


# ---- play ----------------------------------------------------------------------------------------------

def _ws_error(e: RoomError, **extra: Any) -> str:
    return dumps({"type": "error", **e.to_dict(), **extra})


def _bad_message(message: str, zh: str) -> str:
    return _ws_error(RoomError(ErrorCode.BAD_MESSAGE, message, zh=zh))


CLOSE_RATE_LIMITED = 4429
"""The websocket close code for a client over a limit (messages, connections, watchers)."""


async def _refuse_socket(ws: WebSocket, e: RoomError, code: int) -> None:
    """Accept only to say why, then close: a close before the handshake reaches the client as a bare 403."""
    await ws.accept()
    await ws.send_text(_ws_error(e))
    await ws.close(code=code, reason=e.message[:120])


CLOSE_UNAVAILABLE = CLOSE_MOVED
"""The websocket close code for "not now, connect again shortly": the database cannot be reached during the
handshake, as when the table is between workers (the client reconnects on it either way)."""


async def table_socket(ws: WebSocket) -> None:
    room = room_of(ws)
    try:
        player = await current_player(ws)
    except DB_ERRORS as e:  # the handshake reads the session: the client is told, as over HTTP, and may retry
        log.warning("database unavailable for websocket %s: %s", ws.url.path, str(e).splitlines()[0][:200])
        await _refuse_socket(ws, db_unavailable(), CLOSE_UNAVAILABLE)
        return
    tid = ws.path_params["table_id"]
    owner: str | None = None
    if room.cluster.enabled and tid not in room.tables:
        cluster: RedisCluster = room.cluster  # type: ignore[assignment]
        owner = await cluster.owner_of(tid)
        if owner is None and await cluster.claim(tid):  # nobody has it: it is ours now
            owner = cluster.worker_id
        if owner is None and tid not in room.tables and await room.store.table(tid) is not None:
            await _refuse_socket(ws, RoomError(ErrorCode.OWNER_UNAVAILABLE, "this table is moving to another "
                                               "worker; connect again", 503, zh="这张牌桌正在换服务器，请重新连接"),
                                 CLOSE_UNAVAILABLE)
            return
    try:
        table = room.get(tid) if owner is None or owner == room.cluster.worker_id else None
        if table is not None:
            table.check_invite(player, ws.query_params.get("invite"))
    except RoomError as e:
        await ws.close(code=4404 if e.status == 404 else 4403, reason=e.message[:120])
        return
    settings = settings_of(ws)
    address = address_of(ws)
    if table is not None and table.seat_of(player) is None and table.spectators() >= settings.watchers_per_table:
        await _refuse_socket(ws, RoomError(ErrorCode.TOO_MANY_WATCHERS, "this table has as many spectators as it "
                                           "takes", 429, zh="这张桌的旁观人数已满"), CLOSE_RATE_LIMITED)
        return
    sockets: Sockets = ws.app.state.sockets
    if not await sockets.take(address):  # counted last: a socket refused for another reason costs nothing
        await _refuse_socket(ws, RoomError(ErrorCode.TOO_MANY_CONNECTIONS, "too many connections from your address",
                                           429, zh="来自你的地址的连接太多"), CLOSE_RATE_LIMITED)
        return
    try:
        await _serve_socket(ws, table, player, settings, address,
                            None if owner is None or table is not None else (owner, tid))
    finally:
        await sockets.give_back(address)


async def _serve_socket(ws: WebSocket, table: CardTable | None, player: Player | None, settings: Settings,
                        address: str, remote: tuple[str, str] | None = None) -> None:
    """One client's socket: to a table of ours, or (``remote``: owner, table id) relayed to its owner."""
    await ws.accept()
    conn = Conn(ws, player, settings.send_queue_limit)
    pump = asyncio.get_running_loop().create_task(conn.pump())
    relay: Relayed | None = None
    if table is not None:
        await table.attach(conn)
    else:
        assert remote is not None
        relay = Relayed(room_of(ws).cluster, remote[0], remote[1], conn)  # type: ignore[arg-type]
        relay.attach(ws.query_params.get("invite"))
    # "ws_messages_per_second with bursts of ws_message_burst": a sliding window of burst / rate seconds
    budget = Throttle(settings.ws_message_burst, settings.ws_message_burst / settings.ws_messages_per_second,
                      settings.clock)
    by_address: Throttle = ws.app.state.ws_by_address
    strikes = 0
    try:
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            wait = budget.take("")
            if wait is None:
                wait = by_address.take(address)
            if wait is not None:
                strikes += 1
                if strikes >= settings.ws_strikes:  # it keeps on: let it go
                    conn.send(_ws_error(RoomError(ErrorCode.RATE_LIMITED, "too many messages: closing",
                                                  zh="消息太频繁：断开连接")))
                    conn.close(CLOSE_RATE_LIMITED)
                    break
                conn.send(_ws_error(RoomError(ErrorCode.RATE_LIMITED,
                                              f"too many messages: at most {settings.ws_messages_per_second:g} a "
                                              f"second; this one was dropped", zh="消息太频繁：这条没有处理"),
                                    retry_after=round(wait, 3)))
                continue
            strikes = 0
            text = message.get("text")
            if text is None:
                conn.send(_bad_message("send JSON text frames, not binary", "请发送 JSON 文本帧，不要发二进制"))
                continue
            if relay is not None:
                relay.forward(text)
            else:
                assert table is not None
                await _handle(table, conn, text, ws.app.state.talk, settings.max_json_depth)
    except WebSocketDisconnect:
        pass
    finally:
        if relay is not None:
            relay.detach()
        else:
            assert table is not None
            await table.detach(conn)
        conn.close()
        await pump


async def _handle(table: CardTable, conn: Conn, text: str, talk: Talk, max_depth: int = 32) -> None:
    try:
        msg = loads_limited(text, max_depth)
    except TooDeep as e:
        conn.send(_bad_message(str(e), f"JSON 嵌套超过 {max_depth} 层"))
        return
    except json.JSONDecodeError as e:
        conn.send(_bad_message(f"not JSON: {e}", f"不是 JSON：{e}"))
        return
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        conn.send(_bad_message('a message is a JSON object with a "type"', '消息应为带 "type" 的 JSON 对象'))
        return
    kind = msg["type"]
    if kind == "act":
        action = msg.get("action")
        if not isinstance(action, str) or not action:
            conn.send(_bad_message('"act" needs "action": a non-empty string', '"act" 需要 "action"：一个非空字符串'))
            return
        seq = msg.get("seq")
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
            conn.send(_bad_message('"seq" is the state the action was chosen on: an integer',
                                   '"seq" 是选这一步时的状态序号：一个整数'))
            return
        try:
            await table.act(conn, action, seq)
        except RoomError as e:
            conn.send(_ws_error(e, action=action, seq=table.seq))
    elif kind == "autoplay":
        on = msg.get("on")
        if not isinstance(on, bool):
            conn.send(_bad_message('"autoplay" needs "on": true or false', '"autoplay" 需要 "on"：true 或 false'))
            return
        try:
            await table.set_autoplay(conn, on)
        except RoomError as e:
            conn.send(_ws_error(e))
    elif kind == "resume":
        since = msg.get("since")
        if isinstance(since, bool) or not isinstance(since, int):
            conn.send(_bad_message('"resume" needs "since": the last seq you saw',
                                   '"resume" 需要 "since"：你收到的最后一个 seq'))
            return
        await table.resume(conn, since)
    elif kind == "ping":
        conn.send(dumps({"type": "pong", "time": table.room.settings.clock()}))
    elif kind == "continue":
        try:
            await table.ready(conn)
        except RoomError as e:
            conn.send(_ws_error(e))
    elif kind in ("phrase", "chat"):
        try:
            if kind == "phrase":
                talk.phrase(table, conn, msg.get("phrase"))
            else:
                talk.chat(table, conn, msg.get("text"))
        except RoomError as e:
            conn.send(_ws_error(e))
    else:
        conn.send(_ws_error(RoomError(ErrorCode.UNKNOWN_TYPE,
                                      f"unknown message type {kind!r}; known: act, autoplay, resume, ping, continue, "
                                      "phrase, chat",
                                      zh=f"不认识的消息类型 {kind!r}；可用的有 act、autoplay、resume、ping、"
                                         "continue、phrase、chat")))


# ---- garbage collection -------------------------------------------------------------------------------

async def _gc_policy(every: float, freeze_every: float = 1.0) -> None:
    """Keep Python's garbage collector out of the tail latency.

    A collection stalls the event loop while it walks every object of the generations it collects.  Measured
    at 1,000 tables (4,000 sockets): a full collection takes 300–380 ms; the middle generation's 20–140 ms,
    finding nothing, sixty times in a row (what outlives a young collection here is state that lives:
    records, seats, sockets); and even the young generation's took 40–50 ms, because its count is of
    allocations *net of deaths*: while old state is replaced as fast as new is made, the young list grows for
    seconds between collections.  So the older generations are never collected by themselves, and every
    ``freeze_every`` seconds everything is frozen (out of the collector's sight, without a look), which keeps
    a young collection to one second's objects at most; every ``every`` seconds everything is unfrozen and
    fully collected once, so cyclic garbage that outlives its first second is kept no longer than that.
    """
    young, middle, old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(max(young, 5_000), 1_000_000_000, 1_000_000_000)
    loop = asyncio.get_running_loop()
    last_full = loop.time()
    try:
        while True:
            await asyncio.sleep(freeze_every)
            if loop.time() - last_full >= every:
                gc.unfreeze()
                started = time.perf_counter()
                found = gc.collect()
                log.info("full garbage collection: %.0f ms, %d unreachable objects",
                         (time.perf_counter() - started) * 1000, found)
                last_full = loop.time()
            gc.freeze()
    finally:
        gc.set_threshold(young, middle, old)


# ---- the app -------------------------------------------------------------------------------------------

def create_app(settings: Settings | None = None, *, bot_factory: BotFactory | None = None) -> Starlette:
    """The card room for ``settings``; nothing is opened until the app starts."""
    settings = settings if settings is not None else Settings()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = st.make_engine(settings.db_url, settings.data_dir, settings.db_busy_seconds)
        await asyncio.to_thread(st.migrate, engine)
        db = st.Database(engine)
        room = Room(settings, db, bot_factory or default_bot_factory)
        scoring.hook_into(room.hooks, db, settings.clock)  # the ledger books every match and escape
        cluster = room.cluster = Cluster() if settings.redis_url is None else \
            RedisCluster(settings.redis_url, settings.redis_prefix, settings.lease_seconds)
        # with other workers, a table is rebuilt by whoever takes it over (cluster.start), not by every worker
        rows = [] if cluster.enabled else \
            await asyncio.to_thread(db.run_now, lambda c: st.load_tables(c, unfinished=True))
        db.start()
        app.state.settings = settings
        app.state.limits = Limits(
            settings.clock, sessions_per_address=settings.per_address(settings.sessions_per_minute_per_address),
            tables_per_session=settings.tables_per_minute_per_session,
            tables_per_address=settings.per_address(settings.tables_per_minute_per_address),
            reads_per_session=settings.lobby_reads_per_minute_per_session,
            reads_per_address=settings.per_address(settings.lobby_reads_per_minute_per_address),
            shared=cluster.limit if isinstance(cluster, RedisCluster) else None)
        app.state.sockets = Sockets(settings.per_address(settings.connections_per_address),
                                    cluster if isinstance(cluster, RedisCluster) else None)
        app.state.ws_by_address = Throttle(
            settings.per_address(settings.ws_messages_per_second_per_address * 2.0), 2.0, settings.clock)
        app.state.sessions = store = SessionStore(db, settings)
        if isinstance(cluster, RedisCluster):  # a logout or ban at one worker holds at every worker at once
            def heard(news: str) -> None:
                """Another worker's news: a revoked session is forgotten; a ban closes the banned player's
                sockets at our tables (wherever the socket itself is: a relayed one closes at its worker)."""
                store.heard(news)
                routes_host.heard(room, news)

            store.announce, cluster.on_news = cluster.announce, heard
        app.state.accounts = accounts = Accounts(db, settings, store, routes_players.forgetter(room),
                                                 shared=cluster.limit if isinstance(cluster, RedisCluster) else None)
        await accounts.warm_up()
        app.state.room = room
        app.state.rematches = routes_history.Rematches(room)
        app.state.moderation = moderation = Moderation(db, settings)
        await moderation.load()
        app.state.banned = moderation.banned  # the same set: handlers refuse banned players by it
        app.state.quick = quick = QuickMatch(room)
        app.state.talk = Talk(settings)
        # every lobby command on a table, run the same at its owner whichever worker the request reached
        app.state.commands = commands = {**SEAT_COMMANDS, **routes_host.table_commands(moderation),
                                         **routes_history.rematch_commands(app.state.rematches),
                                         **quick.commands()}
        app.state.reads = reads = {"rematch": app.state.rematches.state}  # reads that need no session
        if isinstance(cluster, RedisCluster):
            cluster.reads = reads
        await room.restore(rows)
        await cluster.start(room, lambda table, conn, text: _handle(table, conn, text, app.state.talk,
                                                                    settings.max_json_depth), commands)
        booking = asyncio.get_running_loop().create_task(routes_history.book_pending(room))
        expiring = asyncio.get_running_loop().create_task(room.expire_forever())
        gc_task = asyncio.get_running_loop().create_task(_gc_policy(settings.gc_full_every_seconds)) \
            if settings.gc_full_every_seconds else None
        try:
            yield
        finally:
            for task in (booking, expiring):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if gc_task is not None:
                gc_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await gc_task
                gc.unfreeze()
            await cluster.stop()
            quick.close()
            room.close()
            await asyncio.to_thread(db.stop)
            await cluster.release()  # every write has committed: the others may take the tables now
            engine.dispose()

    routes: list[Route | WebSocketRoute | Mount] = [
        Route("/", index),
        Route("/healthz", healthz),
        Route("/t/{table_id}", index),
        *[Route(path, index) for path in routes_history.PAGES],
        *[Route(path, index) for path in routes_friends.PAGES],
        Route("/rules/{game}", index),
        Route("/api/rules/{game}", game_rules),
        Route("/api/session", new_session, methods=["POST"]),
        Route("/api/session", get_session, methods=["GET"]),
        Route("/api/games", list_games),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", get_table),
        Route("/api/tables/{table_id}/record", get_record),
        Route("/api/tables/{table_id}/sit", sit, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", leave, methods=["POST"]),
        Route("/api/tables/{table_id}/bots", add_bots, methods=["POST"]),
        Route("/api/tables/{table_id}/bots/remove", remove_bot, methods=["POST"]),
        Route("/api/tables/{table_id}/start", start, methods=["POST"]),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        *routes_players.ROUTES,
        *routes_history.ROUTES,
        *routes_friends.ROUTES,
        *routes_host.ROUTES,
    ]
    if WEB_DIR.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=WEB_DIR), name="static"))
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Guard, settings=settings)])
