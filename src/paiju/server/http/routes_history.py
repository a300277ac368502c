"""Reading it back: profiles with the ledger, leaderboards, replays of finished matches, and rematches.

docs/protocol.md ("Players and scores", "Replays", "Rematch") describes every call.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
from collections import OrderedDict
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import Connection, select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from paiju.core import OMNISCIENT, game_names, get_game

from .. import storage as st
from ..errors import ErrorCode, RoomError, invite_required, no_table
from ..people.accounts import accounts
from ..room.bots import NORMAL, strength_of
from ..room.broadcast import with_text
from ..room.conn import dumps
from ..room.ownership import Command
from ..room.room import Room
from ..room.table import CardTable
from ..scores import ledger as lg
from ..scores import rating as rt
from ..scores import scoring
from ..storage import Player
from .handlers import api, body_of, current_player, on_table, require_player, room_of

log = logging.getLogger("paiju.server.history")

PAGES = ["/login", "/me", "/players/{player_id}", "/leaderboard", "/replay/{table_id}"]
"""Browser pages served by the one-page client (index.html)."""

MAX_PAGE = 100
MAX_VIEWS = 40


def _number(value: object) -> bool:
    """A finite number (a rating cursor's first part)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value: object) -> bool:
    """A whole number a database column holds (a cursor made up by a client may hold anything)."""
    return isinstance(value, int) and not isinstance(value, bool) and -(2**62) < value < 2**62


def _limit(request: Request, default: int = 20) -> int:
    raw = request.query_params.get("limit")
    if raw is None:
        return default
    try:
        n = int(raw)
    except ValueError:
        raise RoomError(ErrorCode.BAD_OPTION, "limit must be a whole number", 422, zh="limit 应为整数") from None
    if not 1 <= n <= MAX_PAGE:
        raise RoomError(ErrorCode.BAD_OPTION, f"limit must be 1 to {MAX_PAGE}", 422, zh=f"limit 应为 1 到 {MAX_PAGE}")
    return n


# ---- profiles and the ledger --------------------------------------------------------------------------

@api
async def get_player(request: Request) -> Response:
    pid = request.path_params["player_id"]
    viewer = await current_player(request)
    cursor = lg.decode_cursor(request.query_params.get("cursor"))
    if request.query_params.get("cursor") and not _whole(cursor):
        raise RoomError(ErrorCode.BAD_CURSOR, "that cursor is not one this server gave", 422,
                        zh="这个 cursor 不是本服务器给的")
    limit = _limit(request)
    game = request.query_params.get("game")

    def job(c: Connection) -> dict[str, Any] | None:
        p = c.execute(select(st.players.c.id, st.players.c.nickname, st.players.c.created_at,
                             st.players.c.deleted_at, accounts.c.player_id.label("account"))
                      .select_from(st.players.outerjoin(accounts, accounts.c.player_id == st.players.c.id))
                      .where(st.players.c.id == pid)).first()
        if p is None or p.deleted_at is not None:
            return None
        entries, nxt = lg.ledger_page(c, pid, before=cursor, limit=limit, game=game)
        history, hnxt = lg.history_page(c, pid, before=None, limit=limit, game=game)
        rt.add_changes(c, pid, entries)
        rt.add_changes(c, pid, history)
        return {"player": {**lg.player_dict(p.id, p.nickname, None, p.account is not None),
                           "since": p.created_at},
                "standing": lg.standing_of(c, pid), "ratings": rt.ratings_of(c, pid),
                "rating_history": rt.history_of(c, pid, game), "ledger": entries,
                "next": None if nxt is None else lg.encode_cursor(nxt),
                "history": history, "history_next": None if hnxt is None else lg.encode_cursor(hnxt)}

    out = await room_of(request).db.run(job)
    if out is None:
        raise RoomError(ErrorCode.NO_PLAYER, f"no player {pid!r} here", 404, zh=f"这里没有玩家 {pid!r}")
    if viewer is None or viewer.id != pid:
        _hide_private(out["ledger"])
        _hide_private(out["history"])
    return JSONResponse(out)


def _hide_private(items: list[dict[str, Any]]) -> None:
    """Someone else's private tables in a profile: no names, no scores."""
    for e in items:
        m = e.get("match")
        if m and m.get("private"):
            e["match"] = {"private": True, "status": m["status"], "finished_at": m["finished_at"],
                          "rated": m.get("rated")}


def _history_cursor(raw: str | None) -> list[Any] | None:
    """A history cursor is the last item's (time, kind, key): an entry's id (kind 1) or a table id (kind 0)."""
    cursor = lg.decode_cursor(raw)
    if not raw:
        return None
    if (isinstance(cursor, list) and len(cursor) == 3 and isinstance(cursor[0], (int, float))
            and not isinstance(cursor[0], bool) and math.isfinite(cursor[0])
            and ((cursor[1] == 1 and _whole(cursor[2])) or (cursor[1] == 0 and isinstance(cursor[2], str)
                                                              and len(cursor[2]) <= 32))
            and not isinstance(cursor[1], bool)):
        return cursor
    raise RoomError(ErrorCode.BAD_CURSOR, "that cursor is not one this server gave", 422,
                    zh="这个 cursor 不是本服务器给的")


@api
async def get_history(request: Request) -> Response:
    """A player's history page by page: ledger entries and casual matches in one order (issue 34)."""
    pid = request.path_params["player_id"]
    viewer = await current_player(request)
    before = _history_cursor(request.query_params.get("cursor"))
    limit = _limit(request)
    game = request.query_params.get("game")

    def job(c: Connection) -> dict[str, Any] | None:
        gone = c.execute(select(st.players.c.deleted_at).where(st.players.c.id == pid)).first()
        if gone is None or gone.deleted_at is not None:
            return None
        items, nxt = lg.history_page(c, pid, before=before, limit=limit, game=game)
        rt.add_changes(c, pid, items)
        return {"history": items, "next": None if nxt is None else lg.encode_cursor(nxt)}

    out = await room_of(request).db.run(job)
    if out is None:
        raise RoomError(ErrorCode.NO_PLAYER, f"no player {pid!r} here", 404, zh=f"这里没有玩家 {pid!r}")
    if viewer is None or viewer.id != pid:
        _hide_private(out["history"])
    return JSONResponse(out)


@api
async def leaderboard(request: Request) -> Response:
    game = request.query_params.get("game")
    if game not in game_names():
        names = ", ".join(game_names())
        raise RoomError(ErrorCode.UNKNOWN_GAME, f"say which game: ?game= one of {names}", 422,
                        zh=f"请说明是哪个游戏：?game= 为 {names} 之一")
    sort = request.query_params.get("sort", "score")
    if sort not in ("score", "rating"):
        raise RoomError(ErrorCode.BAD_OPTION, "sort must be rating or score", 422,
                        zh="sort 应为 rating（等级分）或 score（积分 X）")
    raw = request.query_params.get("cursor")
    after = lg.decode_cursor(raw)
    first_ok = _number if sort == "rating" else _whole
    if raw and not (isinstance(after, list) and len(after) == 3 and first_ok(after[0]) and _whole(after[1])
                    and isinstance(after[2], str) and len(after[2]) <= 64):
        raise RoomError(ErrorCode.BAD_CURSOR, "that cursor is not one this server gave", 422,
                        zh="这个 cursor 不是本服务器给的")
    limit = _limit(request, 50)
    rank_raw = request.query_params.get("rank_from", "0") or "0"
    if not (rank_raw.isascii() and rank_raw.isdigit() and len(rank_raw) <= 9):
        raise RoomError(ErrorCode.BAD_CURSOR, "rank_from is the rank a page starts after", 422,
                        zh="rank_from 应为上一页最后的名次")
    rank_from = int(rank_raw) if raw else 0
    page = rt.leaderboard_page if sort == "rating" else lg.leaderboard_page
    rows, nxt = await room_of(request).db.run(lambda c: page(c, game, after=after, limit=limit))
    for i, r in enumerate(rows):
        r["rank"] = rank_from + i + 1
    headers = {}
    if nxt is not None:
        q = urlencode({"game": game, "sort": sort, "cursor": lg.encode_cursor(nxt), "limit": limit,
                       "rank_from": rank_from + len(rows)})
        headers["Link"] = f'</api/leaderboard?{q}>; rel="next"'
    return JSONResponse(rows, headers=headers)


# ---- replays ------------------------------------------------------------------------------------------

class ReplayCache:
    """Finished matches never change: keep the last few replay indexes."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._items: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def get(self, key: str) -> dict[str, Any] | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: str, value: dict[str, Any]) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


_rows = ReplayCache(64)
_replays = ReplayCache()


def _may_watch(row: st.TableRow, player: Player | None, invite: str | None) -> bool:
    """A private table's replay, like the table: its owner, its seated people, or the invite."""
    if not row.private:
        return True
    if player is not None and (player.id == row.owner_id or any(s.player_id == player.id for s in row.seats)):
        return True
    return invite is not None and secrets.compare_digest(invite, row.invite or "")


async def _finished_row(request: Request) -> st.TableRow:
    """The finished table's stored row (cached: it never changes), if the caller may watch it."""
    tid = request.path_params["table_id"]
    cached = _rows.get(tid)
    row: st.TableRow | None = cached["row"] if cached else None
    if row is None:
        rows = await room_of(request).db.run(lambda c: st.load_tables(c, table_id=tid))
        if not rows:
            raise no_table(tid)
        row = rows[0]
        if row.status == "finished":
            _rows.put(tid, {"row": row})
    if not _may_watch(row, await current_player(request), request.query_params.get("invite")):
        raise invite_required()
    if row.status != "finished":
        raise RoomError(ErrorCode.NOT_FINISHED, "a replay opens when the match is over", 409, zh="牌局结束后才能回放")
    return row


def replay_index(row: st.TableRow, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """Every step's text and events, and the hands (where each view's ``last_result`` changes)."""
    cls = get_game(row.game)
    game = cls(cls.config_class.from_dict(row.config), row.seed, row.deal)
    steps: list[dict[str, Any]] = []
    hands: list[dict[str, Any]] = []
    first = 1
    last_result = game.view(OMNISCIENT, copy=False)["table"].get("last_result")
    for n, (seat, action, at) in enumerate(row.actions, start=1):
        zh, en = game.describe(action, "zh"), game.describe(action, "en")
        events = with_text(game, game.apply(seat, action))
        steps.append({"n": n, "seat": seat, "action": action, "zh": zh, "en": en, "at": at, "events": events,
                      "hand": len(hands) + 1})
        result = game.view(OMNISCIENT, copy=False)["table"].get("last_result")
        if result is not None and result != last_result:
            hands.append({"hand": len(hands) + 1, "first": first, "last": n, "result": result})
            first = n + 1
        last_result = result
    if first <= len(steps):  # moves after the last settlement (a match that ends without one)
        hands.append({"hand": len(hands) + 1, "first": first, "last": len(steps), "result": None})
    final = game.result()
    return {"table": {"id": row.id, "game": row.game, "display": dict(cls.display), "config": row.config,
                      "private": row.private, "rated": row.rated, "seats": seats, "started_at": row.started_at,
                      "finished_at": row.finished_at, "result": None if final is None else final.to_dict()},
            "total": len(steps), "steps": steps, "hands": hands}


@api
async def get_replay(request: Request) -> Response:
    row = await _finished_row(request)
    cached = _replays.get(row.id)
    if cached is None:
        seats = [{"seat": s.seat, "player": None if s.player_id is None else {"id": s.player_id,
                                                                               "nickname": s.nickname},
                  "bot": s.bot, "replaced": s.replaced} for s in row.seats]
        departures = await room_of(request).db.run(lambda c: st.load_departures(c, row.id))
        cached = await asyncio.to_thread(replay_index, row, seats)
        cached["departures"] = [{"seat": d["seat"], "move": d["move"], "at": d["at"], "reason": d["reason"]}
                                for d in departures]
        _replays.put(row.id, cached)
    return JSONResponse(cached)


def replay_views(row: st.TableRow, lo: int, hi: int) -> dict[str, Any]:
    """The omniscient view after each step ``lo``..``hi`` (0: before the first move)."""
    cls = get_game(row.game)
    game = cls(cls.config_class.from_dict(row.config), row.seed, row.deal)
    out: dict[str, Any] = {}
    if lo == 0:
        out["0"] = game.view(OMNISCIENT, copy=False)
    for n, (seat, action, _at) in enumerate(row.actions[:hi], start=1):
        game.apply(seat, action)
        if n >= lo:
            out[str(n)] = game.view(OMNISCIENT, copy=False)
    return out


@api
async def get_replay_views(request: Request) -> Response:
    row = await _finished_row(request)
    try:
        lo = int(request.query_params.get("from", "0"))
        hi = int(request.query_params.get("to", str(lo)))
    except ValueError:
        raise RoomError(ErrorCode.BAD_OPTION, "from and to are step numbers", 422, zh="from 和 to 应为步数") from None
    total = len(row.actions)
    if not 0 <= lo <= hi <= total or hi - lo >= MAX_VIEWS:
        raise RoomError(ErrorCode.BAD_OPTION, f"steps run 0 to {total}; at most {MAX_VIEWS} a call", 422,
                        zh=f"步数为 0 到 {total}；每次最多 {MAX_VIEWS} 步")
    views = await asyncio.to_thread(replay_views, row, lo, hi)
    return Response(dumps({"views": views}), media_type="application/json")


# ---- rematch ------------------------------------------------------------------------------------------

class Rematches:
    """Who has asked for the next match at each finished table (in this process, while the table is kept)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.confirmed: dict[str, set[int]] = {}
        self.next: dict[str, str] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def needed(self, table: CardTable) -> list[int]:
        """Seats whose person must confirm: everyone still playing their seat (bots always agree; a seat whose
        person left or was replaced goes to a bot)."""
        return [s.seat for s in table.row.seats if s.player_id is not None and s.replaced is None]

    def state(self, table: CardTable) -> dict[str, Any]:
        confirmed = sorted(self.confirmed.get(table.id, set()))
        return {"type": "rematch", "table": table.id, "confirmed": confirmed,
                "waiting": [s for s in self.needed(table) if s not in confirmed], "next": self.next.get(table.id)}

    def _tell(self, table: CardTable) -> None:
        table.watchers.to_all(dumps(self.state(table)))

    async def answer(self, table: CardTable, player: Player, yes: bool) -> dict[str, Any]:
        if table.status != "finished":
            raise RoomError(ErrorCode.NOT_FINISHED, "a rematch is offered when the match is over", 409,
                            zh="牌局结束后才能再来一局")
        seat = table.seat_of(player)
        if seat is None or seat not in self.needed(table):
            raise RoomError(ErrorCode.NOT_SEATED, "only the people who played this match can ask for a rematch", 403,
                            zh="只有打这一局的人才能提出再来一局")
        lock = self._locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            if table.id in self.next:
                return self.state(table)
            mine = self.confirmed.setdefault(table.id, set())
            if yes:
                mine.add(seat)
            else:
                mine.discard(seat)
            if yes and all(s in mine for s in self.needed(table)):
                self.next[table.id] = await self._start(table)
        self._tell(table)
        return self.state(table)

    async def _start(self, old: CardTable) -> str:
        """The next match: same game, options, windows and privacy; people in the same seats, bots in the rest."""
        room = self.room
        row = old.row
        people: dict[int, Player] = {}
        for s in row.seats:
            if s.seat in self.needed(old):
                p = await room.player(s.player_id)
                if p is not None:
                    people[s.seat] = p
        owner = people.get(next((s for s, p in people.items() if p.id == row.owner_id), -1)) \
            or next(iter(people.values()))
        new = await room.create_table(owner, row.game, row.config, turn_seconds=row.turn_seconds,
                                      claim_seconds=row.claim_seconds, private=row.private,
                                      options=dict(row.options), rated=None if row.rated else False,
                                      number=row.number)  # the same room for the people at it
        rule = await room.db.run(lambda c: c.execute(select(lg.table_scoring.c.escape)
                                                     .where(lg.table_scoring.c.table_id == row.id)).scalar())
        await room.db.run(lambda c: scoring.set_rule(c, new.id, rule, rematch_of=row.id))
        for seat, p in sorted(people.items()):
            await new.sit(p, seat)
        # the bots that filled seats come back at their strength (one that took a person's seat was normal)
        filled = {strength_of(s.bot) or NORMAL for s in row.seats if s.player_id is None and s.bot is not None}
        await new.fill_bots(owner, filled.pop() if len(filled) == 1 else NORMAL)
        await new.start(owner)
        return new.id


def rematch_commands(rematches: Rematches) -> dict[str, Command]:
    """The rematch answer as the finished table's owner runs it (it alone keeps the table and who asked),
    whichever worker the request reached."""

    async def answer(player: Player, table: CardTable, data: dict[str, Any]) -> dict[str, Any]:
        yes = data.get("confirm", True)
        if not isinstance(yes, bool):
            raise RoomError(ErrorCode.BAD_OPTION, "confirm must be true or false", 422,
                            zh="confirm 应为 true 或 false")
        return await rematches.answer(table, player, yes)

    return {"rematch": answer}


@api
async def post_rematch(request: Request) -> Response:
    player = await require_player(request)
    data = await body_of(request)
    return JSONResponse(await on_table(request, "rematch", player, data))  # here, or at the table's owner


@api
async def get_rematch(request: Request) -> Response:
    return JSONResponse(await on_table(request, "read:rematch", None, {}))  # who asked is kept by the owner


# ---- bookings a crash left undone ---------------------------------------------------------------------

async def book_pending(room: Room, batch: int = 10) -> None:
    """At start-up: book finished matches that have no entries yet, oldest first, a small batch per
    transaction with pauses between, so the moves of the tables in play keep their turn on the writer."""
    try:
        while True:
            n = await room.db.run(lambda c: scoring.book_pending(c, room.settings.clock(), batch))
            if n < batch:
                return
            await asyncio.sleep(0.05)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("booking finished matches failed; the next start tries again")


@api
async def get_table_ratings(request: Request) -> Response:
    """A finished match's rating changes, person by person (the result panel asks after a rated match);
    ``booked`` false: not booked yet, ask again.  A private table's, like its replay: its people or the invite."""
    tid = (await _finished_row(request)).id

    def job(c: Connection) -> dict[str, Any]:
        booked = c.execute(select(lg.table_scoring.c.booked_at).where(lg.table_scoring.c.table_id == tid)).first()
        return {"table": tid, "booked": booked is not None and booked.booked_at is not None,
                "changes": rt.changes_for(c, [tid]).get(tid, {})}

    return JSONResponse(await room_of(request).db.run(job))


ROUTES = [
    Route("/api/tables/{table_id}/ratings", get_table_ratings),
    Route("/api/players/{player_id}", get_player),
    Route("/api/players/{player_id}/history", get_history),
    Route("/api/leaderboard", leaderboard),
    Route("/api/tables/{table_id}/replay", get_replay),
    Route("/api/tables/{table_id}/replay/views", get_replay_views),
    Route("/api/tables/{table_id}/rematch", post_rematch, methods=["POST"]),
    Route("/api/tables/{table_id}/rematch", get_rematch, methods=["GET"]),
]
