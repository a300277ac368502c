"""Play over one websocket per client per table: the handshake's checks, the receive loop, each message.

A client's message is parsed under the size and depth limits, checked against its own rate limit, and handed to
its table (``handle_message``), which refuses what is illegal with a reason and changes nothing; the same
function serves a client relayed from another worker (cluster.relay).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..cluster.redis_cluster import CLOSE_MOVED, RedisCluster, Relayed
from ..errors import ErrorCode, RoomError
from ..limits import Budget, Malformed, Sockets, Throttle, TooDeep, loads_limited
from ..people.accounts import token_hash
from ..people.auth import token_of
from ..room.conn import Conn, dumps
from ..room.hints import Hints
from ..room.ownership import moved_frame, moved_reason
from ..room.table import CardTable
from ..room.talk import Talk
from ..settings import Settings
from ..storage import Player
from .guard import DB_ERRORS, db_unavailable
from .handlers import (
    address_of,
    current_player,
    room_of,
    settings_of,
)

log = logging.getLogger("paiju.server")


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


CLOSE_TOO_BIG = 1009
"""The websocket close code for a message over ``Settings.ws_max_message_bytes`` (RFC 6455's "too big")."""

CLOSE_SESSION_ENDED = 4401
"""The websocket close code for a socket whose session has ended (logout, logout-all, a password change made
by another session, a ban, a deleted account): coming back with the same token only watches."""

CLOSE_SESSION_REPLACED = 4409
"""The websocket close code for a socket whose session was replaced by a registration or a login: its person
holds a new token (the answer to that request), and connects again with it, keeping the seat."""


class SessionSockets:
    """The websockets this worker accepted, by the session that opened them, so that a session's end closes
    them at once: at this worker for its own revocations (``SessionStore.on_revoked``), at every other through
    the cluster's news.  A relayed socket is closed here, where its client is; its relay ends with it."""

    def __init__(self) -> None:
        self.by_key: dict[str, set[Conn]] = {}
        self.by_player: dict[str, dict[Conn, str]] = {}

    def add(self, key: str, conn: Conn) -> None:
        self.by_key.setdefault(key, set()).add(conn)
        if conn.player is not None:
            self.by_player.setdefault(conn.player.id, {})[conn] = key

    def remove(self, key: str, conn: Conn) -> None:
        conns = self.by_key.get(key)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.by_key[key]
        if conn.player is not None:
            mine = self.by_player.get(conn.player.id)
            if mine is not None:
                mine.pop(conn, None)
                if not mine:
                    del self.by_player[conn.player.id]

    def heard(self, news: str) -> None:
        """A revocation (SessionStore's news): ``K``/``R`` + a session key, ``P`` + player + newline + kept key."""
        if news.startswith(("K", "R")):
            code = CLOSE_SESSION_REPLACED if news[0] == "R" else CLOSE_SESSION_ENDED
            for conn in list(self.by_key.get(news[1:], ())):
                _end(conn, code)
        elif news.startswith("P"):
            pid, _, keep = news[1:].partition("\n")
            for conn, key in list(self.by_player.get(pid, {}).items()):
                if key != keep:
                    _end(conn, CLOSE_SESSION_ENDED)


def _end(conn: Conn, code: int) -> None:
    if code == CLOSE_SESSION_REPLACED:
        text = RoomError(ErrorCode.SESSION_REPLACED, "your session was replaced: connect again with the token "
                         "your registration or login gave", zh="你的会话已更换：请用注册或登录得到的新令牌重新连接")
    else:
        text = RoomError(ErrorCode.SESSION_ENDED, "your session has ended", zh="你的会话已结束")
    conn.send(_ws_error(text))
    conn.close(code)


CLOSE_UNAVAILABLE = CLOSE_MOVED
"""The websocket close code for "not now, connect again shortly": the database cannot be reached during the
handshake, as when the table is between workers (the client reconnects on it either way)."""


def _redis_errors() -> tuple[type[Exception], ...]:
    try:
        from redis.exceptions import RedisError  # the server extra, there whenever a cluster is
    except ImportError:  # pragma: no cover
        return ()
    return (RedisError,)


REDIS_ERRORS = _redis_errors()
"""What the Redis client raises when Redis cannot answer in time (a handshake then hears "try again")."""


async def _moving(ws: WebSocket, retry: float) -> None:
    """The table is between workers: "try again" (4503) and when, in the error and in the close's reason."""
    await ws.accept()
    await ws.send_text(moved_frame(retry, "this table is moving to another worker; connect again"))
    await ws.close(code=CLOSE_UNAVAILABLE, reason=moved_reason(retry))


async def table_socket(ws: WebSocket) -> None:
    room = room_of(ws)
    tid = ws.path_params["table_id"]
    cluster: RedisCluster | None = room.cluster if room.cluster.enabled else None  # type: ignore[assignment]
    refusals: Throttle | None = getattr(ws.app.state, "moving_by_address", None)
    address = address_of(ws)
    if cluster is not None and refusals is not None and tid not in room.tables:
        wait = refusals.retry_after(address)
        if wait is not None:  # a reconnect storm from this address: no session, Redis or database to ask
            await _moving(ws, max(wait, cluster.retry))
            return
    try:
        player = await current_player(ws)
    except DB_ERRORS as e:  # the handshake reads the session: the client is told, as over HTTP, and may retry
        log.warning("database unavailable for websocket %s: %s", ws.url.path, str(e).splitlines()[0][:200])
        await _refuse_socket(ws, db_unavailable(), CLOSE_UNAVAILABLE)
        return
    owner: str | None = None
    if cluster is not None and tid not in room.tables:
        try:
            owner = await cluster.owner_of(tid)
            if owner is None and await cluster.claim(tid):  # nobody has it: it is ours now
                owner = cluster.worker_id
        except REDIS_ERRORS as e:  # Redis slow or away: "try again", as for a table between workers
            log.warning("redis unavailable for websocket %s: %s", ws.url.path, e)
            await _moving(ws, cluster.retry)
            return
        # its owner found deaf a moment ago (likely dead, its lease not out yet): no relay that would find
        # nobody either; and should the table come to us, it goes first
        quiet = owner is not None and owner != cluster.worker_id and cluster.gone_quiet(owner)
        if quiet:
            cluster.wanted(tid)
        mine_or_nobodys = owner is None or owner == cluster.worker_id
        if tid not in room.tables and (quiet or (mine_or_nobodys and (
                cluster.coming(tid) or await room.store.table(tid) is not None))):
            # ours but not replayed yet (and now first in line), or nobody's yet: never a 403, "try again"
            if refusals is not None:
                refusals.hit(address)
            await _moving(ws, cluster.retry)
            return
    try:
        table = room.get(tid) if owner is None or owner == room.cluster.worker_id else None
        if table is not None:
            table.check_invite(player, ws.query_params.get("invite"))
    except RoomError as e:
        await ws.close(code=4404 if e.status == 404 else 4403, reason=e.message[:120])
        return
    settings = settings_of(ws)
    if table is not None and table.seat_of(player) is None and table.spectators() >= settings.watchers_per_table:
        await _refuse_socket(ws, RoomError(ErrorCode.TOO_MANY_WATCHERS, "this table has as many spectators as it "
                                           "takes", 429, zh="这张桌的旁观人数已满"), CLOSE_RATE_LIMITED)
        return
    sockets: Sockets = ws.app.state.sockets
    if not await sockets.take(address):  # counted last: a socket refused for another reason costs nothing
        await _refuse_socket(ws, RoomError(ErrorCode.TOO_MANY_CONNECTIONS, "too many connections from your address",
                                           429, zh="来自你的地址的连接太多"), CLOSE_RATE_LIMITED)
        return
    token = token_of(ws)
    try:
        await _serve_socket(ws, table, player, settings, address,
                            None if owner is None or table is not None else (owner, tid),
                            token_hash(token) if token and player is not None else None)
    finally:
        await sockets.give_back(address)


async def _serve_socket(ws: WebSocket, table: CardTable | None, player: Player | None, settings: Settings,
                        address: str, remote: tuple[str, str] | None = None, session: str | None = None) -> None:
    """One client's socket: to a table of ours, or (``remote``: owner, table id) relayed to its owner.
    ``session``: the key of the session that opened it (its end closes the socket)."""
    await ws.accept()
    conn = Conn(ws, player, settings.send_queue_limit)
    opened: SessionSockets = ws.app.state.session_sockets
    if session is not None:
        opened.add(session, conn)
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
    bytes_by_address: Budget = ws.app.state.ws_bytes_by_address
    strikes = 0
    try:
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            size = len(text) if text is not None else len(message.get("bytes") or b"")
            if size > settings.ws_max_message_bytes:  # uvicorn refuses these first when it is told the cap
                conn.close(CLOSE_TOO_BIG)
                break
            wait = budget.take("")
            if wait is None:
                wait = by_address.take(address)
            if wait is None:  # a wide message costs its size: the parsing is what takes the CPU
                wait = bytes_by_address.take(address, size)
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
            if text is None:
                conn.send(_bad_message("send JSON text frames, not binary", "请发送 JSON 文本帧，不要发二进制"))
                continue
            if relay is not None:
                relay.forward(text)
            else:
                assert table is not None
                await handle_message(table, conn, text, ws.app.state.talk, settings.max_json_depth,
                                     ws.app.state.hints)
    except WebSocketDisconnect:
        pass
    finally:
        if session is not None:
            opened.remove(session, conn)
        if relay is not None:
            relay.detach()
        else:
            assert table is not None
            await table.detach(conn)
        conn.close()
        await pump


async def handle_message(table: CardTable, conn: Conn, text: str, talk: Talk, max_depth: int = 32,
                         hints: Hints | None = None) -> None:
    try:
        msg = loads_limited(text, max_depth)
    except TooDeep as e:
        conn.send(_bad_message(str(e), f"JSON 嵌套超过 {max_depth} 层"))
        return
    except Malformed as e:
        conn.send(_bad_message(f"not JSON the room reads: {e}", f"消息里有无法读取的数字或字符：{e}"))
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
    elif kind == "hint" and hints is not None:
        try:
            await hints.hint(table, conn)
        except RoomError as e:
            conn.send(_ws_error(e))
    elif kind in ("phrase", "chat"):
        try:
            if kind == "phrase":
                await talk.phrase(table, conn, msg.get("phrase"))
            else:
                await talk.chat(table, conn, msg.get("text"))
        except RoomError as e:
            conn.send(_ws_error(e))
    else:
        conn.send(_ws_error(RoomError(ErrorCode.UNKNOWN_TYPE,
                                      f"unknown message type {kind!r}; known: act, autoplay, resume, ping, continue, "
                                      "phrase, chat, hint",
                                      zh=f"不认识的消息类型 {kind!r}；可用的有 act、autoplay、resume、ping、"
                                         "continue、phrase、chat、hint")))
