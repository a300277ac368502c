"""Tables: one owner per table, one action at a time, the view as the only door to hidden cards.

Every change to a table happens under its lock: check with the engine, apply, write to the database,
then tell the clients.  Clients get only ``game.view(their viewer)`` and their own legal actions;
events are public and go to everyone unchanged.  Deadlines are absolute times kept with the table
(in memory and in the database) and armed as event-loop timers; bots and expiries act through the
same path as people.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable, Coroutine
from types import ModuleType
from typing import Any

from starlette.websockets import WebSocket

from paiju.bots.base import Bot, RandomBot
from paiju.core import SPECTATOR, ActionError, ConfigError, Event, Game, Window, get_game

from . import scoring
from . import storage as st
from .auth import Player
from .errors import RoomError
from .settings import Settings
from .storage import Database, SeatRow, TableRow

log = logging.getLogger("paiju.server.tables")

BotFactory = Callable[[str, str, int], Bot]
"""(game, kind, seed) -> bot."""


def default_bot_factory(game: str, kind: str, seed: int) -> Bot:
    """The game's own bot; a random one when the game ships none yet."""
    from paiju.bots import get_bot

    try:
        return get_bot(game, kind, seed)
    except (ImportError, KeyError):
        log.warning("no %r bot for %s; using a random bot", kind, game)
        return RandomBot(seed)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)

_orjson: ModuleType | None
try:  # optional: about ten times faster than the standard library's encoder on views
    import orjson as _orjson_module
    _orjson = _orjson_module
except ImportError:  # pragma: no cover - the standard library then does it all
    _orjson = None

# Only what the standard library would encode too: dataclasses and datetimes go to the fallback, which
# refuses them as before; non-string keys become strings as the standard library makes them.
_ORJSON_OPTIONS = (_orjson.OPT_NON_STR_KEYS | _orjson.OPT_PASSTHROUGH_DATACLASS
                   | _orjson.OPT_PASSTHROUGH_DATETIME) if _orjson is not None else 0


def dumps(msg: Any) -> str:
    """Compact JSON text, non-ASCII kept as is.  JSON is the card room's hot path (four views per action),
    so orjson does it when installed; anything orjson refuses (integers beyond 64 bits, objects it would
    not encode) goes to the standard library, which gives the same text or the same error."""
    if _orjson is not None:
        try:
            text: str = _orjson.dumps(msg, option=_ORJSON_OPTIONS).decode()
            return text
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            pass
    return _ENCODER.encode(msg)


def dumps_events(events: list[Event]) -> str:
    return dumps(events)


class Conn:
    """One websocket client: who it is, and an outgoing queue drained by its own task so no table waits on it.

    The queue is a deque and a future the pump sleeps on, not an ``asyncio.Queue``: four sends per action
    make the queue's bookkeeping part of the hot path."""

    def __init__(self, ws: WebSocket, player: Player | None, limit: int) -> None:
        self.ws = ws
        self.player = player
        self.limit = limit
        self._out: deque[str | None] = deque()  # None: close after what is queued before it
        self._wake: asyncio.Future[None] | None = None
        self.closed = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        if len(self._out) >= self.limit:
            log.warning("client too slow (%d messages behind): disconnecting", len(self._out))
            self.close()
            return
        self._push(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._push(None)

    def _push(self, item: str | None) -> None:
        self._out.append(item)
        wake, self._wake = self._wake, None
        if wake is not None and not wake.done():
            wake.set_result(None)

    async def pump(self) -> None:
        """Send queued messages in order until closed or the socket fails."""
        loop = asyncio.get_running_loop()
        out = self._out
        while True:
            while not out:
                self._wake = loop.create_future()
                await self._wake
            text = out.popleft()
            if text is None:
                break
            try:
                await self.ws.send_text(text)
            except Exception:  # the peer went away; the receive loop notices too
                break
        self.closed = True
        out.clear()
        with contextlib.suppress(Exception):
            await self.ws.close()


class CardTable:
    """A table: its stored row, the live game rebuilt from that row, and who is watching."""

    def __init__(self, room: Room, row: TableRow, game: Game[Any]) -> None:
        self.room = room
        self.row = row
        self.game = game
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        # (seq, that update's events as JSON text): text keeps thousands of small dicts out of the cyclic GC
        self.recent: deque[tuple[int, str]] = deque(maxlen=room.settings.resume_buffer)
        self.deadlines: dict[int, float] = dict(row.deadlines)
        self._windows: dict[int, Window] = {s: game.window(s) for s in self.deadlines}
        self._stored_deadlines: dict[int, float] = dict(self.deadlines)
        self._timers: dict[int, tuple[float, asyncio.TimerHandle]] = {}
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._bot_pending: dict[int, int] = {}
        self._bots: dict[int, Bot] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._thinking: set[int] = set()

    # ---- facts ---------------------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seq(self) -> int:
        """Number of actions applied: update ``seq`` N is the state after the N-th action."""
        return len(self.game.history)

    @property
    def status(self) -> str:
        return self.row.status

    def seat_of(self, player: Player | None) -> int | None:
        """The seat ``player`` holds (not one it left), if any."""
        if player is None:
            return None
        for s in self.row.seats:
            if s.player_id == player.id and s.replaced != "left":
                return s.seat
        return None

    def viewer_of(self, conn: Conn) -> int:
        seat = self.seat_of(conn.player)
        return SPECTATOR if seat is None else seat

    def _connected(self, player_id: str | None) -> bool:
        return player_id is not None and any(c.player is not None and c.player.id == player_id
                                             for c in self.conns)

    def info(self, *, for_player: Player | None = None) -> dict[str, Any]:
        """The table as the lobby and clients see it (never the seed: it would reveal every card)."""
        out: dict[str, Any] = {
            "id": self.row.id,
            "game": self.row.game,
            "display": dict(type(self.game).display),
            "config": self.row.config,
            "turn_seconds": self.row.turn_seconds,
            "claim_seconds": self.row.claim_seconds,
            "private": self.row.private,
            "owner": self.row.owner_id,
            "status": self.row.status,
            "seq": self.seq,
            "created_at": self.row.created_at,
            "seats": [
                {"seat": s.seat,
                 "player": None if s.player_id is None else {"id": s.player_id, "nickname": s.nickname},
                 "bot": s.bot, "replaced": s.replaced,
                 "connected": s.bot is None and self._connected(s.player_id)}
                for s in self.row.seats
            ],
            "result": self.game.result().to_dict() if self.game.finished else None,  # type: ignore[union-attr]
        }
        if for_player is not None and self.row.private and (
                for_player.id == self.row.owner_id or self.seat_of(for_player) is not None):
            out["invite"] = self.row.invite
        return out

    # ---- messages ------------------------------------------------------------------------------------
    def _state(self, kind: str, viewer: int, events: list[Event] | None = None) -> dict[str, Any]:
        playing = self.row.status != "waiting"
        g = self.game
        deciding = viewer >= 0 and self.row.status == "playing" and viewer in g.to_move()
        msg: dict[str, Any] = {"type": kind, "seq": self.seq}
        if events is not None:
            msg["events"] = events
        msg["view"] = g.view(viewer) if playing else None
        msg["legal"] = ([{"action": a, "zh": g.describe(a, "zh"), "en": g.describe(a, "en")}
                         for a in g.legal_actions(viewer)] if deciding else [])
        msg["deadline"] = self.deadlines.get(viewer) if deciding else None
        public = g.public_to_move() if self.row.status == "playing" else ()
        msg["deadlines"] = {str(s): self.deadlines[s] for s in public if s in self.deadlines}
        msg["seat"] = viewer if viewer >= 0 else None
        return msg

    def snapshot(self, conn: Conn) -> dict[str, Any]:
        msg = self._state("snapshot", self.viewer_of(conn))
        msg["table"] = self.info(for_player=conn.player)
        return msg

    def _broadcast_state(self, kind: str, events: list[Event] | None = None) -> None:
        texts: dict[int, str] = {}
        for conn in list(self.conns):
            viewer = self.viewer_of(conn)
            text = texts.get(viewer)
            if text is None:
                msg = self._state(kind, viewer, events)
                if kind == "snapshot":
                    msg["table"] = self.info()
                text = texts[viewer] = dumps(msg)
            conn.send(text)

    def broadcast_table(self) -> None:
        text = dumps({"type": "table", "table": self.info()})
        for conn in list(self.conns):
            conn.send(text)

    def resume(self, conn: Conn, since: int) -> None:
        """What ``conn`` missed after update ``since``: one update with every event since, or a snapshot."""
        seq = self.seq
        if since == seq:
            conn.send(dumps(self._state("update", self.viewer_of(conn), [])))
            return
        held = [n for n, _ in self.recent]
        if 0 <= since < seq and held and held[0] <= since + 1 and held[-1] == seq:
            events = [e for n, text in self.recent if n > since for e in json.loads(text)]
            msg = self._state("update", self.viewer_of(conn), events)
            msg["since"] = since
            conn.send(dumps(msg))
            return
        conn.send(dumps(self.snapshot(conn)))

    # ---- connections ---------------------------------------------------------------------------------
    async def attach(self, conn: Conn) -> None:
        async with self.lock:
            self.conns.add(conn)
            seat = self.seat_of(conn.player)
            if seat is not None:
                self._cancel_grace(seat)
                s = self.row.seats[seat]
                if s.bot is not None and s.replaced == "disconnected" and self.row.status == "playing":
                    s.bot, s.replaced = None, None  # the player is back: the seat is theirs again
                    self._bots.pop(seat, None)
                    await self._save_seat(s)
            conn.send(dumps(self.snapshot(conn)))
            if seat is not None:
                self.broadcast_table()

    async def detach(self, conn: Conn) -> None:
        async with self.lock:
            self.conns.discard(conn)
            seat = self.seat_of(conn.player)
            if seat is None or conn.player is None or self._connected(conn.player.id):
                return
            self.broadcast_table()
            if self.row.status == "playing" and self.row.seats[seat].bot is None:
                self._arm_grace(seat)

    def _arm_grace(self, seat: int) -> None:
        self._cancel_grace(seat)
        loop = asyncio.get_running_loop()
        self._grace[seat] = loop.call_later(self.room.settings.grace_seconds, self._spawn,
                                            self._grace_expired, seat)

    def _cancel_grace(self, seat: int) -> None:
        h = self._grace.pop(seat, None)
        if h is not None:
            h.cancel()

    async def _grace_expired(self, seat: int) -> None:
        async with self.lock:
            self._grace.pop(seat, None)
            s = self.row.seats[seat]
            if self.row.status != "playing" or s.bot is not None or self._connected(s.player_id):
                return
            await self._replace_with_bot(s, "disconnected")

    # ---- lobby actions -------------------------------------------------------------------------------
    def check_invite(self, player: Player | None, invite: str | None) -> None:
        if not self.row.private:
            return
        if player is not None and (player.id == self.row.owner_id or self.seat_of(player) is not None):
            return
        if invite is None or not secrets.compare_digest(invite, self.row.invite or ""):
            raise RoomError("invite_required", "this table is private: open it with its invite link", 403)

    async def sit(self, player: Player, seat: int) -> None:
        async with self.lock:
            if self.row.status != "waiting":
                raise RoomError("started", "the game has started; seats cannot change now", 409)
            if not 0 <= seat < len(self.row.seats):
                raise RoomError("bad_seat", f"seat must be 0 to {len(self.row.seats) - 1}", 422)
            s = self.row.seats[seat]
            if s.player_id == player.id:
                return
            if s.player_id is not None or s.bot is not None:
                raise RoomError("seat_taken", f"seat {seat} is taken", 409)
            old = self.seat_of(player)
            if old is not None:
                o = self.row.seats[old]
                o.player_id = o.nickname = None
                await self._save_seat(o)
            s.player_id, s.nickname = player.id, player.nickname
            await self._save_seat(s)
            self.broadcast_table()

    async def leave(self, player: Player) -> None:
        async with self.lock:
            seat = self.seat_of(player)
            if seat is None:
                raise RoomError("not_seated", "you have no seat at this table", 409)
            s = self.row.seats[seat]
            if self.row.status == "waiting":
                s.player_id = s.nickname = None
                await self._save_seat(s)
                self.broadcast_table()
            elif self.row.status == "playing":
                await self._replace_with_bot(s, "left")
            # a finished table keeps its seats as they were

    async def fill_bots(self, player: Player) -> None:
        async with self.lock:
            if self.row.status != "waiting":
                raise RoomError("started", "the game has started", 409)
            kind = self.room.settings.bot_kind
            for s in self.row.seats:
                if s.player_id is None and s.bot is None:
                    s.bot = kind
                    await self._save_seat(s)
            self.broadcast_table()

    async def remove_bot(self, player: Player, seat: int) -> None:
        async with self.lock:
            if self.row.status != "waiting":
                raise RoomError("started", "the game has started", 409)
            if not 0 <= seat < len(self.row.seats) or self.row.seats[seat].bot is None:
                raise RoomError("bad_seat", f"seat {seat} has no bot", 422)
            s = self.row.seats[seat]
            s.bot = None
            await self._save_seat(s)
            self.broadcast_table()

    async def start(self, player: Player) -> None:
        async with self.lock:
            if self.row.status != "waiting":
                raise RoomError("started", "the game has already started", 409)
            if player.id != self.row.owner_id and self.seat_of(player) is None:
                raise RoomError("not_seated", "only the table's owner or a seated player can start it", 403)
            empty = [s.seat for s in self.row.seats if s.player_id is None and s.bot is None]
            if empty:
                raise RoomError("seats_empty", f"seats {empty} are empty: take them or fill them with bots", 409)
            now = self.room.settings.clock()
            self.row.status = "playing"
            self.row.started_at = now
            self._refresh_deadlines(now, acted=None)
            deadlines = dict(self.deadlines)
            await self.room.db.run(lambda c: st.set_status(c, self.id, "playing", now, deadlines))
            self._stored_deadlines = deadlines
            self.broadcast_table()
            self._broadcast_state("snapshot")
            for s in self.row.seats:
                if s.bot is None and not self._connected(s.player_id):
                    self._arm_grace(s.seat)
            self._schedule()

    # ---- play ----------------------------------------------------------------------------------------
    async def act(self, conn: Conn, action: str) -> None:
        async with self.lock:
            if self.row.status == "waiting":
                raise RoomError("not_started", "the game has not started")
            seat = self.seat_of(conn.player)
            if seat is None:
                raise RoomError("not_seated", "you have no seat at this table: spectators cannot act")
            if self.row.seats[seat].bot is not None:
                raise RoomError("not_seated", "a bot plays your seat now")
            await self._apply(seat, action)

    async def _apply(self, seat: int, action: str) -> None:
        """Check and apply one action, store it, then tell everyone.  Caller holds the lock."""
        try:
            events = self.game.apply(seat, action)
        except ActionError as e:
            raise RoomError(e.code, str(e)) from e
        except Exception:
            log.exception("table %s: engine failed on seat %d %r; rebuilding from the record", self.id, seat,
                          action)
            await self._rebuild()
            raise RoomError("server_error", "the engine failed on that action; the table was rebuilt") from None
        now = self.room.settings.clock()
        self._refresh_deadlines(now, acted=seat)
        n = self.seq
        finished = self.game.finished
        result = self.game.result().to_dict() if finished else None  # type: ignore[union-attr]
        deadlines = dict(self.deadlines)
        try:
            row = st.action_row(self.id, n, seat, action, now)
            if finished or deadlines != self._stored_deadlines:  # the move and the table's new state together
                def job(c: Any) -> None:
                    st.add_action(c, row)
                    if finished:
                        st.finish(c, self.id, now, result)
                    else:
                        st.set_deadlines(c, self.id, deadlines)

                await self.room.db.run(job)
            else:  # the common case: one row, batched with other tables' moves
                await self.room.db.insert(st.actions, row)
            self._stored_deadlines = deadlines
        except Exception:
            log.exception("table %s: could not store move %d; rebuilding from the record", self.id, n)
            await self._rebuild()
            raise RoomError("server_error", "the move could not be stored; try again") from None
        self.recent.append((n, dumps_events(events)))
        if finished:
            self.row.status = "finished"
            self.row.finished_at = now
            self.room.finished(self)
        self._broadcast_state("update", events)
        if finished:
            self.broadcast_table()
            await scoring.on_match_finished(self)  # accounts: the ledger books the match
        self._schedule()

    async def _rebuild(self) -> None:
        """Throw the live game away and replay the stored record: the database is the truth."""
        rows = await self.room.db.run(lambda c: st.load_tables(c, table_id=self.id))
        if rows:
            self.row = rows[0]
            self.game = replay_game(self.row)
            self.deadlines = dict(self.row.deadlines)
            self._stored_deadlines = dict(self.deadlines)
            self._windows = {s: self.game.window(s) for s in self.deadlines}
        self.recent.clear()
        self._broadcast_state("snapshot")
        self._schedule()

    def _window_seconds(self, window: Window) -> float:
        return self.row.claim_seconds if window == Window.CLAIM else self.row.turn_seconds

    def _refresh_deadlines(self, now: float, acted: int | None) -> None:
        """A seat still deciding in the same window keeps its deadline; a new decision gets a new one."""
        new: dict[int, float] = {}
        windows: dict[int, Window] = {}
        if self.row.status == "playing" and not self.game.finished:
            for s in self.game.to_move():
                w = self.game.window(s)
                seconds = self._window_seconds(w)
                if seconds <= 0:
                    continue
                windows[s] = w
                if s != acted and s in self.deadlines and self._windows.get(s) == w:
                    new[s] = self.deadlines[s]
                else:
                    new[s] = now + seconds
        self.deadlines, self._windows = new, windows

    def _schedule(self) -> None:
        """Arm a timer per deadline and a think delay per bot that must decide."""
        loop = asyncio.get_running_loop()
        for seat in list(self._timers):
            if self.deadlines.get(seat) != self._timers[seat][0]:
                self._timers.pop(seat)[1].cancel()
        if self.row.status != "playing":
            for _, h in self._timers.values():
                h.cancel()
            self._timers.clear()
            for g in self._grace.values():
                g.cancel()
            self._grace.clear()
            return
        clock = self.room.settings.clock
        for seat, at in self.deadlines.items():
            if seat not in self._timers:
                h = loop.call_later(max(0.0, at - clock()), self._spawn, self._expire, seat, at)
                self._timers[seat] = (at, h)
        seq = self.seq
        delay = self.room.settings.bot_delay_seconds
        for seat in self.game.to_move():
            if self.row.seats[seat].bot is not None and self._bot_pending.get(seat) != seq:
                self._bot_pending[seat] = seq
                loop.call_later(delay, self._spawn, self._bot_move, seat, seq)

    def _spawn(self, fn: Callable[..., Coroutine[Any, Any, None]], *args: Any) -> None:
        """Run ``fn(*args)`` as a task (timers call this; the coroutine exists only once it runs)."""
        task = asyncio.get_running_loop().create_task(fn(*args))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            kind = self.row.seats[seat].bot or self.room.settings.bot_kind
            bot = self._bots[seat] = self.room.bot_factory(self.row.game, kind, (self.row.seed * 31 + seat) % 2**62)
        return bot

    def _can_decide(self, seat: int, seq: int, *, bot_only: bool) -> bool:
        return (self.seq == seq and self.row.status == "playing" and seat in self.game.to_move()
                and (not bot_only or self.row.seats[seat].bot is not None))

    async def _bot_decides(self, seat: int, seq: int, *, bot_only: bool = True) -> None:
        """The seat's bot chooses from the seat's view and legal list only, on a worker thread (some bots think
        for seconds); its choice is applied only if the table has not moved meanwhile."""
        async with self.lock:
            if seat in self._thinking or not self._can_decide(seat, seq, bot_only=bot_only):
                return
            bot = self._bot(seat)
            legal = list(self.game.legal_actions(seat))
            # a private copy: the bot reads it on another thread while the game moves on
            view = json.loads(dumps(self.game.view(seat))) if getattr(bot, "needs_view", True) else {}
            self._thinking.add(seat)
        try:
            action = await asyncio.to_thread(self._ask, bot, view, legal, seat)
        finally:
            self._thinking.discard(seat)
        async with self.lock:
            if not self._can_decide(seat, seq, bot_only=bot_only):
                # the table moved on while the bot thought (a simultaneous decision); if the seat must still
                # decide, think again on the new state (the timer armed meanwhile skipped a thinking seat)
                if bot_only and self._can_decide(seat, self.seq, bot_only=True):
                    self._bot_pending[seat] = self.seq
                    self._spawn(self._bot_decides, seat, self.seq)
                return
            if action is None or not self.game.is_legal(seat, action):
                fallback = self.game.timeout_action(seat)
                action = fallback if fallback is not None else legal[0]
            await self._apply_quietly(seat, action)

    def _ask(self, bot: Bot, view: dict[str, Any], legal: list[str], seat: int) -> str | None:
        try:
            action = bot.act(view, legal)
        except Exception:
            log.exception("table %s: bot failed at seat %d", self.id, seat)
            return None
        if action not in legal:
            log.error("table %s: bot at seat %d chose %r, not in its legal list", self.id, seat, action)
        return action

    async def _bot_move(self, seat: int, seq: int) -> None:
        await self._bot_decides(seat, seq)

    async def _expire(self, seat: int, at: float) -> None:
        """The seat's window ran out: take the game's default, or the bot's choice where a move is compulsory."""
        async with self.lock:
            if self._timers.get(seat, (None,))[0] == at:
                self._timers.pop(seat)
            if self.deadlines.get(seat) != at or seat not in self.game.to_move():
                return
            action = self.game.timeout_action(seat)
            if action is not None and self.game.is_legal(seat, action):
                await self._apply_quietly(seat, action)
                return
            seq = self.seq
        await self._bot_decides(seat, seq, bot_only=False)

    async def _apply_quietly(self, seat: int, action: str) -> None:
        try:
            await self._apply(seat, action)
        except RoomError as e:
            log.error("table %s: automatic move %r for seat %d refused: %s", self.id, action, seat, e.message)

    async def _replace_with_bot(self, s: SeatRow, reason: str) -> None:
        """A person leaves mid-game: a bot finishes for them, and the departure is kept for the ledger."""
        now = self.room.settings.clock()
        s.bot, s.replaced = self.room.settings.bot_kind, reason
        self._bots.pop(s.seat, None)
        self._cancel_grace(s.seat)
        pid, n, seat = s.player_id, self.seq, s.seat

        def job(c: Any) -> None:
            st.set_seat(c, self.id, s, now, n)
            st.add_departure(c, self.id, seat, pid, now, n, reason)

        await self.room.db.run(job)
        if reason == "left":  # accounts: an escape is booked at once (one who disconnected: at the end)
            await scoring.on_escape(self, seat, n, now)
        self.broadcast_table()
        if reason == "left":  # the leaver's own clients now watch as spectators
            for conn in list(self.conns):
                if conn.player is not None and conn.player.id == pid:
                    conn.send(dumps(self.snapshot(conn)))
        self._schedule()

    async def _save_seat(self, s: SeatRow) -> None:
        now, n = self.room.settings.clock(), self.seq
        await self.room.db.run(lambda c: st.set_seat(c, self.id, s, now, n))

    def close(self) -> None:
        for _, h in self._timers.values():
            h.cancel()
        for g in self._grace.values():
            g.cancel()
        self._timers.clear()
        self._grace.clear()
        for conn in list(self.conns):
            conn.close()


def replay_game(row: TableRow) -> Game[Any]:
    cls = get_game(row.game)
    game = cls(cls.config_class.from_dict(row.config), row.seed, row.deal)
    for seat, action, _at in row.actions:
        game.apply(seat, action)
    return game


class Room:
    """Every live table of this process, the players it has met, and the database behind them."""

    def __init__(self, settings: Settings, db: Database, bot_factory: BotFactory = default_bot_factory) -> None:
        self.settings = settings
        self.db = db
        self.bot_factory = bot_factory
        self.tables: dict[str, CardTable] = {}
        self._players: dict[str, Player] = {}
        self._evictions: dict[str, asyncio.TimerHandle] = {}
        self.keep_finished_seconds = 600.0

    # ---- players -------------------------------------------------------------------------------------
    async def new_player(self, nickname: str) -> Player:
        player = Player(secrets.token_hex(8), nickname)
        now = self.settings.clock()
        await self.db.run(lambda c: st.add_player(c, player, now))
        self._players[player.id] = player
        return player

    async def player(self, player_id: str | None) -> Player | None:
        if player_id is None:
            return None
        p = self._players.get(player_id)
        if p is None:
            p = await self.db.run(lambda c: st.get_player(c, player_id))
            if p is not None:
                self._players[p.id] = p
        return p

    # ---- tables --------------------------------------------------------------------------------------
    def window_option(self, name: str, value: Any, default: float) -> float:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RoomError("bad_option", f"option {name!r} must be a number of seconds", 422)
        v = float(value)
        s = self.settings
        if v != 0 and not s.min_window_seconds <= v <= s.max_window_seconds:
            raise RoomError("bad_option", f"option {name!r} must be 0 (untimed) or between "
                            f"{s.min_window_seconds:g} and {s.max_window_seconds:g} seconds", 422)
        return v

    async def create_table(self, owner: Player, game_name: str, config: Any, *, turn_seconds: Any = None,
                           claim_seconds: Any = None, private: bool = False, seed: int | None = None,
                           deal: Any = None) -> CardTable:
        try:
            cls = get_game(game_name)
        except (KeyError, ImportError) as e:
            raise RoomError("unknown_game", f"unknown or unavailable game {game_name!r}", 422) from e
        if config is not None and not isinstance(config, dict):
            raise RoomError("bad_option", "config must be an object of rule options", 422)
        try:
            cfg = cls.config_class.from_dict(config or {})
        except ConfigError as e:
            raise RoomError("bad_option", str(e), 422) from e
        turn = self.window_option("turn_seconds", turn_seconds, self.settings.turn_seconds)
        if 0 < turn < self.settings.min_turn_seconds:
            raise RoomError("window_too_short", f"option 'turn_seconds' must be 0 (untimed) or at least "
                            f"{self.settings.min_turn_seconds:g} seconds: people play at this table", 422)
        rule_claim = cfg.to_dict().get("claim_seconds")  # a game whose rules name the claim window (滑水)
        if claim_seconds is None and isinstance(rule_claim, int | float) and not isinstance(rule_claim, bool):
            claim_seconds = rule_claim
        claim = self.window_option("claim_seconds", claim_seconds, self.settings.claim_seconds)
        seed = secrets.randbits(62) if seed is None else seed
        try:
            game = cls(cfg, seed, deal)
        except Exception as e:
            raise RoomError("bad_option", f"cannot set up {game_name} with these options: {e}", 422) from e
        tid = secrets.token_urlsafe(6)
        row = TableRow(id=tid, game=game_name, config=cfg.to_dict(), seed=seed, deal=deal, turn_seconds=turn,
                       claim_seconds=claim, private=bool(private),
                       invite=secrets.token_urlsafe(9) if private else None, owner_id=owner.id,
                       status="waiting", created_at=self.settings.clock(),
                       seats=[SeatRow(i) for i in range(game.num_seats)])
        await self.db.run(lambda c: st.add_table(c, row))
        table = self.tables[tid] = CardTable(self, row, game)
        return table

    def get(self, table_id: str) -> CardTable:
        table = self.tables.get(table_id)
        if table is None:
            raise RoomError("no_table", f"no table {table_id!r} here", 404)
        return table

    async def get_or_load(self, table_id: str) -> CardTable:
        """A live table, or a finished one read back from the database (for its result and record)."""
        if table_id in self.tables:
            return self.tables[table_id]
        rows = await self.db.run(lambda c: st.load_tables(c, table_id=table_id))
        if not rows:
            raise RoomError("no_table", f"no table {table_id!r} here", 404)
        return CardTable(self, rows[0], replay_game(rows[0]))

    def open_tables(self, game: str | None = None) -> list[CardTable]:
        return [t for t in self.tables.values()
                if not t.row.private and t.row.status != "finished" and (game is None or t.row.game == game)]

    def finished(self, table: CardTable) -> None:
        """Keep a finished table in memory a while (clients see the result), then drop it."""
        loop = asyncio.get_running_loop()
        self._evictions[table.id] = loop.call_later(self.keep_finished_seconds, self._evict, table.id)

    def _evict(self, table_id: str) -> None:
        self._evictions.pop(table_id, None)
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.close()

    def restore(self, rows: list[TableRow]) -> None:
        """Rebuild every unfinished table by replaying its record; re-arm deadlines, bots and grace timers."""
        for row in rows:
            try:
                game = replay_game(row)
            except Exception:
                log.exception("table %s (%s) could not be rebuilt; left in the database", row.id, row.game)
                continue
            table = CardTable(self, row, game)
            self.tables[row.id] = table
            for s in row.seats:
                if s.player_id is not None and s.nickname is not None:
                    self._players.setdefault(s.player_id, Player(s.player_id, s.nickname))
            if row.status == "playing":
                table._schedule()
                for s in row.seats:
                    if s.bot is None:
                        table._arm_grace(s.seat)
        log.info("restored %d unfinished tables", len(self.tables))

    def close(self) -> None:
        for h in self._evictions.values():
            h.cancel()
        for t in self.tables.values():
            t.close()
