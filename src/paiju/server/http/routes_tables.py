"""HTTP for the lobby and its tables: the pages, sessions, the games and their rules, listing, creating and
reading tables, and the seat commands (sit, leave, bots, start).

docs/protocol.md ("Lobby", "Tables") describes every call.  A seat command runs where the table lives: here,
or at its owner when several workers serve the room (handlers.on_table).
"""

from __future__ import annotations

import asyncio
import base64
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response

import paiju
from paiju.bots.base import STRENGTH_LABELS, STRENGTHS
from paiju.core import game_names, get_game

from ..cluster.redis_cluster import Command
from ..errors import ErrorCode, RoomError
from ..people.accounts import Accounts
from ..people.auth import clean_nickname
from ..room.bots import parse_strength, strengths_of
from ..room.conn import dumps
from ..room.table import CardTable
from ..scores import scoring
from ..settings import Settings
from ..storage import Player
from .handlers import (
    Handler,
    address_of,
    api,
    body_of,
    current_player,
    limits_of,
    note_address,
    on_table,
    require_player,
    room_of,
    session_response,
    sessions_of,
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
     "en": "deal pace (s per round of cards, bidding as shengji deals)", "choices": None},
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
    if not (raw_limit.isascii() and raw_limit.isdigit() and len(raw_limit) <= 4) \
            or not 1 <= int(raw_limit) <= LOBBY_PAGE:
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


def _ready_seconds(value: object, default: float) -> float:
    """A table's ready time: 0 (it does not wait for ready) or 10 to 600 seconds; the room's by default."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or not (value == 0 or 10 <= value <= 600):
        raise RoomError(ErrorCode.BAD_OPTION, "option 'ready_seconds' must be 0 (no ready) or 10 to 600", 422,
                        zh="选项 'ready_seconds' 应为 0（不用准备）或 10 到 600")
    return float(value)


def _ready(data: dict[str, Any]) -> bool:
    value = data.get("ready", True)
    if not isinstance(value, bool):
        raise RoomError(ErrorCode.BAD_OPTION, "ready must be true or false", 422, zh="ready 应为 true 或 false")
    return value


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
    rated = _rated(data, default=True)
    options = {name: data[name] for name in ROOM_OPTIONS if data.get(name) is not None}
    wait = _ready_seconds(data.get("ready_seconds"), settings.ready_seconds)
    if wait:
        options["ready_seconds"] = wait
    table = await room_of(request).create_table(
        player, game, data.get("config"), turn_seconds=data.get("turn_seconds"),
        claim_seconds=data.get("claim_seconds"), private=private, rated=None if rated else False,
        options=options, **fixed)
    await table.sit(player, 0)  # a table is made to play at: its creator sits in the first seat at once
    await limits.made_table(player.id, address)
    await room_of(request).db.run(lambda c: scoring.set_rule(c, table.id, escape))
    return JSONResponse(table.info(for_player=player), status_code=201)


@api
async def get_table(request: Request) -> Response:
    player = await current_player(request)
    room, tid = room_of(request), request.path_params["table_id"]
    if room.cluster.enabled and tid not in room.tables and await room.cluster.owner_of(tid):  # type: ignore[attr-defined]
        info = await room.cluster.call(tid, "info", player, {"invite": request.query_params.get("invite")})  # type: ignore[attr-defined]
        return JSONResponse(await _with_escape(request, info))
    table = await room.get_or_load(tid)
    table.check_invite(player, request.query_params.get("invite"))
    return JSONResponse(await _with_escape(request, table.info(for_player=player)))


async def _with_escape(request: Request, info: dict[str, Any]) -> dict[str, Any]:
    """The table with what leaving it mid-match costs (``escape``: the table's rule and its words), which the
    leave prompt states; the room itself never knows the ledger's rules."""
    tid, game = str(info["id"]), str(info["game"])
    rule = await room_of(request).db.run(lambda c: scoring.escape_rule_of(c, tid, game))
    return {**info, "escape": {"rule": rule, **ESCAPE_LABELS[rule]}}


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


def _rated(data: dict[str, Any], default: bool | None = None) -> bool:
    """``rated``: true (rated if people fill every seat) or false (casual); anything else is refused."""
    rated = data.get("rated", default)
    if not isinstance(rated, bool):
        raise RoomError(ErrorCode.BAD_OPTION, "rated must be true (rated if people fill every seat) or false "
                        "(casual)", 422, zh="rated 应为 true（坐满真人即计分）或 false（娱乐局）")
    return rated


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
        info = await on_table(request, name, player, data)  # here, or at the table's owner
        if name == "sit":
            await note_address(request, player, info["id"])
        return JSONResponse(info)

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
    "rated": _invited(lambda player, table, data: table.set_rated(player, _rated(data))),
    "ready": _invited(lambda player, table, data: table.press_ready(player, _ready(data))),
    "kick_unready": _invited(lambda player, table, data: table.kick_unready(player, _seat_number(data))),
}
"""The seat commands, the same whether the request reached the table's owner or another worker asked it
(cluster.py's calls)."""

sit, leave, add_bots, remove_bot, start, set_rated, ready, kick_unready = (
    seat_command(name) for name in ("sit", "leave", "add_bots", "remove_bot", "start", "rated", "ready",
                                    "kick_unready"))
