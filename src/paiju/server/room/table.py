"""Tables: one owner per table, one change at a time, the view as the only door to hidden cards.

A :class:`CardTable` owns one table: its lock, the live game and the parts that run it (docs/server.md, "How
the room is built") — who sits where (seats.py), the clock (clock.py), the bots (bots.py), the writes
(store.py) and the clients watching (broadcast.py, conn.py).  Every change happens under the table's lock:
check with the engine, apply, store, then tell the clients.  Clients get only ``game.view(their viewer)``
and their own legal actions; events are public and go to everyone unchanged.  Bots and expiries act through
the same path as people.  The table's turns — windows, pauses, bots' turns — are its base class
(turns.py); :class:`~paiju.server.room.room.Room` (room.py) is every live table of this process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import deque
from typing import Any, Protocol

from paiju.core import ActionError, Event, Game

from ..errors import ErrorCode, RoomError, invite_required
from ..settings import Settings
from ..storage import Player, SeatRow, TableRow, is_fenced
from ..writer import Database
from .bots import NORMAL, BotFactory, TableBots, seat_bot
from .broadcast import Broadcaster, with_text
from .clock import Deadlines, Timers
from .conn import Conn, dumps, dumps_events
from .ownership import Cluster, moved_error
from .search import SearchPool
from .seats import AUTOPLAY, DISCONNECTED, KICKED, LEFT, Seats
from .store import Move, StoreHooks, TableStore, replay_game
from .turns import Pause
from .waiting import TableWaiting

log = logging.getLogger("paiju.server.room.table")


class Host(Protocol):
    """What a table needs of the room that holds it (room.Room), so that table.py never imports room.py."""

    settings: Settings
    db: Database
    hooks: StoreHooks
    bot_factory: BotFactory
    search: SearchPool
    cluster: Cluster

    def finished(self, table: CardTable) -> None: ...


def _deadlines_of(row: TableRow, game: Game[Any]) -> Deadlines:
    return Deadlines(dict(row.deadlines), {s: game.window(s) for s in row.deadlines})


class CardTable(TableWaiting):
    """A table: its stored row, the live game rebuilt from that row, and who is watching.

    Every public coroutine takes ``lock`` itself; no method needs its caller to hold it.  The public plain
    methods only read and never wait, so they need no lock (they may see a move applied but not yet stored,
    as the lobby always could).  Private methods that change the table say that their caller holds the lock.
    """

    def __init__(self, room: Host, row: TableRow, game: Game[Any]) -> None:
        self.room = room
        self.settings = room.settings
        self.game = game
        self.lock = asyncio.Lock()
        self.store = TableStore(room.db, row, room.hooks)
        self.seats = Seats(row.seats)
        self.watchers = Broadcaster()
        self.bots = TableBots(room.bot_factory, row.id, row.game, row.seed, room.search)
        self.timers = Timers(room.settings.clock)
        self.deadlines = _deadlines_of(row, game)
        self.held: dict[int, str] = {}
        """A paced step's default answers (pass), kept by the room until the step ends: applying them at once
        would end the step early whenever nobody had anything to say, and so tell that nobody had."""
        self.pause: Pause | None = None
        self.claim_until: float | None = None
        """While a claim window is held open by the claim pause: the earliest it may end."""
        # (seq, that update's events as JSON text): text keeps thousands of small dicts out of the cyclic GC
        self.recent: deque[tuple[int, str]] = deque(maxlen=room.settings.resume_buffer)
        self.active_at = max(row.created_at, row.last_seated or 0.0)
        """When a seat last changed (a waiting table idle longer than ``waiting_table_minutes`` is dropped)."""
        self.timeouts: dict[int, int] = {}
        """Windows run out in a row per seat since its person last acted (``autoplay_after_timeouts``)."""
        self.notes: dict[str, Any] = {}
        """Facts other parts add to the table object (quick match's ``quick_deadline``)."""
        self.sent: dict[int, str] = {}
        """The answer each seat's person sent that has not been applied yet (held in a window, or about to be):
        the stored move says whether the person chose it (``Move.person``, the ledger's idle-hand rule)."""
        self._init_waiting()

    # ---- facts ---------------------------------------------------------------------------------------
    def spectators(self) -> int:
        """Connections of people without a seat here (``watchers_per_table`` caps them)."""
        return len(self.watchers) - self.watchers.count_of({s.player_id for s in self.seats
                                                            if s.replaced not in (LEFT, KICKED)})

    def info(self, *, for_player: Player | None = None) -> dict[str, Any]:
        """The table as the lobby and clients see it (never the seed: it would reveal every card)."""
        row = self.row
        out: dict[str, Any] = {
            "id": row.id,
            "game": row.game,
            "display": dict(type(self.game).display),
            "config": row.config,
            "turn_seconds": row.turn_seconds,
            "claim_seconds": row.claim_seconds,
            "pace_seconds": self.option("pace_seconds"),
            "next_hand_seconds": self.option("next_hand_seconds"),
            "private": row.private,
            "owner": row.owner_id,
            "status": row.status,
            "seq": self.seq,
            "created_at": row.created_at,
            "seats": self.seats.to_list(self.watchers.connected),
            "result": self.game.result().to_dict() if self.game.finished else None,  # type: ignore[union-attr]
            "pause": None if self.pause is None else {"until": self.pause.until, "ready": sorted(self.pause.ready),
                                                      "waiting": self._not_ready()},
            "number": row.number,
            "rated": self.rating(),
            "hints": self.offers_hints,
            "ready": self.waiting_info(),
            **self.notes,
        }
        if for_player is not None and row.private and (
                for_player.id == row.owner_id or self.seat_of(for_player) is not None):
            out["invite"] = row.invite
        return out

    def bots_at_start(self) -> int:
        """Seats a bot would play from the start (no person's id in them)."""
        return sum(1 for s in self.seats if s.player_id is None)

    def rating(self) -> str:
        """``rated`` or ``casual`` once decided (at the start, or the creator's casual), else ``open``: rated
        if people fill the seats (a waiting table with more bots than the room allows is ``casual`` already,
        until they are taken out)."""
        rated = self.row.rated
        if rated is not None:
            return "rated" if rated else "casual"
        if sum(1 for s in self.seats if s.bot is not None) > self.settings.rated_bots:
            return "casual"
        return "open" if self.seats.empty() else "rated"

    @property
    def offers_hints(self) -> bool:
        """提示 here (room/hints.py): never at a table that is, or would be, rated."""
        return self.settings.hints and self.rating() != "rated"

    def check_invite(self, player: Player | None, invite: str | None) -> None:
        row = self.row
        if not row.private:
            return
        if player is not None and (player.id == row.owner_id or self.seat_of(player) is not None):
            return
        if invite is None or not secrets.compare_digest(invite.encode(), (row.invite or "").encode()):
            raise invite_required()

    # ---- messages (what each viewer may see) ---------------------------------------------------------
    def _state(self, kind: str, viewer: int, events: list[Event] | None = None) -> dict[str, Any]:
        status = self.row.status
        g = self.game
        deciding = (viewer >= 0 and status == "playing" and self.pause is None and viewer in g.to_move()
                    and viewer not in self.held)
        deadlines = self.deadlines.at
        msg: dict[str, Any] = {"type": kind, "seq": self.seq}
        if events is not None:
            msg["events"] = events
        msg["view"] = g.view(viewer, copy=False) if status != "waiting" else None
        msg["legal"] = ([{"action": a, "zh": g.describe(a, "zh"), "en": g.describe(a, "en")}
                         for a in g.legal_actions(viewer)] if deciding else [])
        msg["deadline"] = deadlines.get(viewer) if deciding else None
        if deciding:
            msg["window"] = str(g.window(viewer))
        public = g.public_to_move() if status == "playing" and self.pause is None else ()
        msg["deadlines"] = {str(s): deadlines[s] for s in public if s in deadlines}
        msg["seat"] = viewer if viewer >= 0 else None
        return msg

    def _snapshot(self, conn: Conn) -> str:
        msg = self._state("snapshot", self.viewer_of(conn))
        msg["table"] = self.info(for_player=conn.player)
        return dumps(msg)

    def _broadcast_state(self, kind: str, events: list[Event] | None = None) -> None:
        def render(viewer: int) -> str:
            msg = self._state(kind, viewer, events)
            if kind == "snapshot":
                msg["table"] = self.info()
            return dumps(msg)

        self.watchers.to_viewers(self.viewer_of, render)

    def _broadcast_table(self) -> None:
        self.watchers.to_all(dumps({"type": "table", "table": self.info()}))
        self.room.cluster.changed(self)  # the lobby of the other workers

    async def resume(self, conn: Conn, since: int) -> None:
        """What ``conn`` missed after update ``since``: one update with every event since, or a snapshot."""
        async with self.lock:
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
            conn.send(self._snapshot(conn))

    # ---- connections ---------------------------------------------------------------------------------
    async def attach(self, conn: Conn) -> None:
        async with self.lock:
            self.watchers.add(conn)
            seat = self.seat_of(conn.player)
            if seat is not None:
                self.timers.cancel_grace(seat)
                back = self.seats.give_back(seat) if self.status == "playing" else None
                if back is not None:  # the player is back: the seat is theirs again
                    self.bots.forget(seat)
                    await self._save([back])
            conn.send(self._snapshot(conn))
            if seat is not None:
                self._broadcast_table()

    async def detach(self, conn: Conn) -> None:
        async with self.lock:
            self.watchers.discard(conn)
            seat = self.seat_of(conn.player)
            if seat is None or conn.player is None or self.watchers.connected(conn.player.id):
                return
            self._broadcast_table()
            if self.status == "playing" and (not self.seats.is_bot(seat) or self.seats.on_autoplay(seat)):
                self._arm_grace(seat)  # autoplay is no escape route: gone past the grace, it is a departure

    def _arm_grace(self, seat: int) -> None:
        self.timers.arm_grace(seat, self.settings.grace_seconds, self._grace_expired)

    async def _grace_expired(self, seat: int) -> None:
        async with self.lock:
            self.timers.graced(seat)
            s = self.seats[seat]
            if self.status != "playing" or (s.bot is not None and s.replaced != AUTOPLAY) \
                    or self.watchers.connected(s.player_id):
                return
            await self._replace_with_bot(seat, DISCONNECTED)

    # ---- lobby actions -------------------------------------------------------------------------------
    def _check_waiting(self, message: str, zh: str) -> None:
        if self.status != "waiting":
            raise RoomError(ErrorCode.STARTED, message, 409, zh=zh)

    async def sit(self, player: Player, seat: int) -> None:
        async with self.lock:
            self._check_waiting("the game has started; seats cannot change now", "已经开局，不能再换座位")
            self._check_not_kicked(player)
            changed = self.seats.sit(player, seat)
            self._seated(changed)
            if changed:
                self.active_at = self.settings.clock()
                await self._save(changed)
                self._broadcast_table()

    async def leave(self, player: Player) -> None:
        async with self.lock:
            seat = self.seat_of(player)
            if seat is None:
                raise RoomError(ErrorCode.NOT_SEATED, "you have no seat at this table", 409, zh="你没有坐在这张桌")
            if self.status == "waiting":
                self.active_at = self.settings.clock()
                freed = self.seats.free(seat)
                self._seated([freed])
                await self._save([freed])
                self._broadcast_table()
            elif self.status == "playing":
                await self._replace_with_bot(seat, LEFT)
            # a finished table keeps its seats as they were

    def _check_member(self, player: Player) -> None:
        """Only the owner or a seated player may change a table's bots (a stranger filled waiting tables)."""
        if player.id != self.row.owner_id and self.seat_of(player) is None:
            raise RoomError(ErrorCode.NOT_ALLOWED, "only the table's owner or a seated player can change its bots",
                            403, zh="只有桌主或入座的人才能增减机器人")

    async def fill_bots(self, player: Player, strength: str = NORMAL) -> None:
        async with self.lock:
            self._check_waiting("the game has started", "已经开局")
            self._check_member(player)
            await self._save(self.seats.fill_bots(seat_bot(strength, self.settings.bot_kind)))
            self.bots.prepare(seat_bot(strength, self.settings.bot_kind))
            self._broadcast_table()

    async def remove_bot(self, player: Player, seat: int) -> None:
        async with self.lock:
            self._check_waiting("the game has started", "已经开局")
            self._check_member(player)
            await self._save([self.seats.remove_bot(seat)])
            self._broadcast_table()

    async def start(self, player: Player) -> None:
        async with self.lock:
            self._check_waiting("the game has already started", "已经开局了")
            if player.id != self.row.owner_id and self.seat_of(player) is None:
                raise RoomError(ErrorCode.NOT_SEATED, "only the table's owner or a seated player can start it", 403,
                                zh="只有桌主或入座的人才能开局")
            empty = self.seats.empty()
            if empty:
                raise RoomError(ErrorCode.SEATS_EMPTY, f"seats {empty} are empty: take them or fill them with bots",
                                409, zh=f"{'、'.join(map(str, empty))} 号位还空着：请入座或加机器人")
            waiting = [s for s in self.unready() if s != self.seat_of(player)] if self.needs_ready else []
            if waiting:  # whoever starts is ready by starting; the others must have pressed it
                raise RoomError(ErrorCode.NOT_READY, f"seats {waiting} have not pressed ready", 409,
                                zh=f"{'、'.join(str(s + 1) for s in waiting)} 号位还没准备")
            await self._begin()

    async def _begin(self) -> None:
        """Start the match now (the lock is held: ``start``, or the last ready pressed)."""
        now = self.settings.clock()
        self.row.status = "playing"
        self.row.started_at = now
        # rated only with a person in every seat (or all but rated_bots) at the start; bots that take a
        # leaver's or a disconnected seat later change nothing (docs/server.md, "Rated and casual")
        self.row.rated = self.row.rated is not False and self.bots_at_start() <= self.settings.rated_bots
        self._open_windows(now)
        self.deadlines = self._next_deadlines(now, acted=None)
        await self.store.start(now, self.deadlines.at, self.row.rated)
        self._broadcast_table()
        self._broadcast_state("snapshot")
        for s in self.seats.people():
            if not self.watchers.connected(s.player_id):
                self._arm_grace(s.seat)
        self._schedule()
        if self.claim_until is not None:
            await self._window_check()

    async def set_rated(self, player: Player, rated: bool) -> None:
        """The creator marks a waiting table casual (``False``), or rated if people fill it (``True``): refused
        while more bots sit there than a rated match may have."""
        async with self.lock:
            self._check_waiting("the game has started: rated or casual was decided at the start",
                                "已经开局：计分与否在开局时已定")
            if player.id != self.row.owner_id:
                raise RoomError(ErrorCode.NOT_ALLOWED, "only the table's creator can make it rated or casual", 403,
                                zh="只有桌主可以设定计分或娱乐")
            if rated and sum(1 for s in self.seats if s.bot is not None) > self.settings.rated_bots:
                raise RoomError(ErrorCode.HAS_BOTS, "bots sit at this table, so its match is casual: take them "
                                "out before asking for a rated match", 409,
                                zh="这张桌有机器人，只能是娱乐局：先撤下机器人再设为计分局")
            value = None if rated else False
            if value != self.row.rated:
                await self.store.set_rated(value)
                self.row.rated = value
                self._broadcast_table()

    async def rearm(self) -> None:
        """After a restart: the deadlines kept, the bots' moves, and every seated person's grace to reconnect."""
        async with self.lock:
            if self.status != "playing":
                return
            if not self.deadlines.at:  # stopped between two hands (no clock ran then): the next hand's starts now
                self.deadlines = self._next_deadlines(self.settings.clock(), acted=None)
            self._schedule()
            for s in self.seats:
                if s.player_id is not None and (s.bot is None or s.replaced == AUTOPLAY):
                    self._arm_grace(s.seat)

    # ---- play ----------------------------------------------------------------------------------------
    async def act(self, conn: Conn, action: str, seq: int | None = None) -> None:
        """The person's move.  ``seq``: the state it was chosen on; when the seat itself has moved since (the
        bot's or a timeout's move for it got there first) it is refused, so exactly one of the two applies.
        Other seats' moves since (another claimer passing) do not make it stale."""
        async with self.lock:
            if self.status == "waiting":
                raise RoomError(ErrorCode.NOT_STARTED, "the game has not started", zh="还没开局")
            if self.status == "closed":
                raise RoomError(ErrorCode.TABLE_CLOSED, "a host has closed this table", zh="这张牌桌已被管理员关闭")
            seat = self.seat_of(conn.player)
            if seat is None:
                raise RoomError(ErrorCode.NOT_SEATED, "you have no seat at this table: spectators cannot act",
                                zh="你没有座位：旁观的人不能出牌")
            if self.seats.on_autoplay(seat):  # any move the person sends takes the seat back
                await self._autoplay(seat, False)
            if self.seats.is_bot(seat):
                raise RoomError(ErrorCode.NOT_SEATED, "a bot plays your seat now", zh="现在由机器人替你打")
            self.timeouts.pop(seat, None)
            if seq is not None and (seq > self.seq or any(s == seat for s, _a in self.game.history[max(0, seq):])):
                raise RoomError(ErrorCode.STALE, f"your seat has moved since state {seq} (now {self.seq})",
                                zh=f"第 {seq} 步之后你的座位已经出过牌（现在是第 {self.seq} 步）")
            if self.pause is not None:
                raise RoomError(ErrorCode.BETWEEN_HANDS, "the next hand has not started yet: press continue",
                                zh="下一局还没开始：请按“继续”")
            self.sent[seat] = action  # the person's own decision, whenever the room applies it
            await self._answer(seat, action)

    async def set_autoplay(self, conn: Conn, on: bool) -> None:
        """The person hands their seat to the room's bot (托管), or takes it back."""
        async with self.lock:
            if self.status != "playing":
                raise RoomError(ErrorCode.NOT_STARTED, "autoplay is for a game under way", zh="开局后才能托管")
            seat = self.seat_of(conn.player)
            if seat is None or (self.seats.is_bot(seat) and not self.seats.on_autoplay(seat)):
                raise RoomError(ErrorCode.NOT_SEATED, "you play no seat at this table", zh="你在这张桌没有座位")
            self.timeouts.pop(seat, None)
            await self._autoplay(seat, on)

    async def _autoplay(self, seat: int, on: bool) -> None:
        """Autoplay on or off for ``seat`` (no departure, no escape: the seat stays the person's).  Caller
        holds the lock."""
        changed = self.seats.autoplay(seat, self.settings.bot_kind, on)
        if changed is None:
            return
        self.bots.forget(seat)
        await self._save([changed])
        self._broadcast_table()
        if on:
            self._schedule()

    async def _apply(self, moves: list[tuple[int, str]]) -> None:
        """Check and apply actions in order, store each, then tell everyone once.  Caller holds the lock.

        Only the first action can be refused (a person's or a bot's choice); the others are a paced step's
        passes, which the game has just offered."""
        g = self.game
        hands = g.hands_finished()
        events: list[Event] = []
        settled = False  # the deadlines (and pauses) follow the state after the last applied move
        persons = [self.sent.get(seat) == action for seat, action in moves]
        self.sent.clear()  # whatever was not applied now is void: the game moves on, every seat answers afresh
        for i, (seat, action) in enumerate(moves):
            if i > 0 and seat not in g.to_move():
                continue  # the window was resolved by the answers before (the best claim was known)
            try:
                new = g.apply(seat, action)
            except ActionError as e:
                if i == 0:
                    raise RoomError.refused(e) from e
                log.error("table %s: held move %r for seat %d refused: %s", self.id, action, seat, e)
                continue
            except Exception:
                log.exception("table %s: engine failed on seat %d %r; rebuilding from the record", self.id, seat,
                              action)
                await self._rebuild()
                raise RoomError(ErrorCode.SERVER_ERROR, "the engine failed on that action; the table was rebuilt",
                                zh="引擎出错，牌桌已按记录重建") from None
            new = with_text(g, new)  # the words go with the room's events, not the engine's
            events.extend(new)
            self.held.clear()  # the game moved on: whoever it asks now answers afresh
            now = self.settings.clock()
            settled = g.finished or not any(s in g.to_move() for s, _ in moves[i + 1:])
            if settled:
                self._settle_clock(now, hands)
            await self._store(Move(self.seq, seat, action, now, persons[i]), new)
            if g.finished:
                break
        if not settled:  # a later held move was refused: the clock follows the state the others left
            self._settle_clock(self.settings.clock(), hands)
            await self.store.set_deadlines(self.deadlines.at)
        if g.finished:
            self.row.status = "finished"
            self.row.finished_at = self.settings.clock()
            self.room.finished(self)
        self._broadcast_state("update", events)
        if g.finished:
            self._broadcast_table()
            for booked in self.room.hooks.after_finish:  # the ledger (scores.scoring.hook_into)
                await booked(self.row, g)
        elif self.pause is not None:
            self._broadcast_table()
        self._schedule()
        if self.claim_until is not None:
            await self._window_check()  # a window where nobody has anything to decide still lasts its pause

    async def _store(self, move: Move, events: list[Event]) -> None:
        """Store one applied move (and the match's end); if it cannot be, the table is rebuilt from the record
        and the caller hears why.  Caller holds the lock."""
        try:
            if self.game.finished:
                await self.store.finish(move, self.game.result().to_dict())  # type: ignore[union-attr]
            else:
                await self.store.record_move(move, self.deadlines.at)
        except Exception as e:
            if is_fenced(e):  # another worker has taken the table over: it is no longer ours to play
                self.room.cluster.lost(self)
                raise moved_error() from None
            log.exception("table %s: could not store move %d; rebuilding from the record", self.id, move.n)
            await self._rebuild()
            raise RoomError(ErrorCode.SERVER_ERROR, "the move could not be stored; try again",
                            zh="这一步没能存下，请再试一次") from None
        self.recent.append((move.n, dumps_events(events)))

    async def _rebuild(self) -> None:
        """Throw the live game away and replay the stored record: the database is the truth.  Caller holds
        the lock."""
        row = await self.store.load()
        if row is not None:
            self.seats = Seats(row.seats)
            self.game = replay_game(row)
            self.deadlines = _deadlines_of(row, self.game)
        self.recent.clear()
        self.held.clear()
        self.claim_until = None
        self._broadcast_state("snapshot")
        self._schedule()

    # ---- seats ---------------------------------------------------------------------------------------
    async def _replace_with_bot(self, seat: int, reason: str) -> None:
        """A person leaves mid-game: a bot finishes for them, and the departure is kept for the ledger.
        Caller holds the lock."""
        s = self.seats.replace(seat, self.settings.bot_kind, reason)
        self.bots.forget(seat)
        self.timers.cancel_grace(seat)
        now, move = self.settings.clock(), self.seq
        await self.store.replace_seat(s, now, move, reason)
        if reason == LEFT:  # accounts: an escape is booked at once (one who disconnected: at the end)
            for booked in self.room.hooks.after_escape:
                await booked(self.row, self.game, seat, move, now)
        self._broadcast_table()
        if reason != DISCONNECTED:  # the leaver's (or the kicked person's) own clients now watch as spectators
            self.watchers.to_player(s.player_id, self._snapshot)
        self._schedule()

    # ---- hosts (moderation.py) ---------------------------------------------------------------------------
    async def kick(self, seat: int) -> str | None:
        """A host takes a person off a seat: before the start the seat is free again, during play a bot plays it
        (a departure ``kicked``, no escape booked).  The player id kicked, or None if nobody sat there."""
        async with self.lock:
            if not 0 <= seat < len(self.seats):
                raise RoomError(ErrorCode.BAD_SEAT, f"seat must be 0 to {len(self.seats) - 1}", 422,
                                zh=f"座位号应为 0 到 {len(self.seats) - 1}")
            s = self.seats[seat]
            pid = s.player_id
            if pid is None or s.replaced in (LEFT, KICKED):
                return None
            if self.status == "waiting":
                freed = self.seats.free(seat)
                self._seated([freed])
                await self._save([freed])
                self._broadcast_table()
                self.watchers.to_player(pid, self._snapshot)
            elif self.status == "playing":
                await self._replace_with_bot(seat, KICKED)
            else:
                return None
            return pid

    async def close_by_host(self, why: dict[str, Any]) -> bool:
        """A host closes the table: play stops where it is, nothing is booked, everyone sees it closed."""
        async with self.lock:
            if self.status in ("finished", "closed"):
                return False
            now = self.settings.clock()
            await self.store.close(now, why)
            self.row.status = "closed"
            self.row.finished_at = now
            self.row.result = {"closed": why}
            self.row.deadlines = {}
            self.deadlines = Deadlines({}, {})
            self.timers.cancel_all()
            self.pause = None
            self.held.clear()
            self.notes["closed"] = why
            self.room.finished(self)
            self._broadcast_table()
            self._broadcast_state("snapshot")
            return True

    async def rename(self, player_id: str, nickname: str) -> None:
        """A host renamed a player: the seats they hold show the new name."""
        async with self.lock:
            changed = False
            for s in self.seats:
                if s.player_id == player_id:
                    s.nickname, changed = nickname, True
            if changed:
                self._broadcast_table()

    async def _save(self, seats: list[SeatRow]) -> None:
        """Store seat changes.  Caller holds the lock."""
        await self.store.save_seats(seats, self.settings.clock(), self.seq)

    def close(self) -> None:
        """Stop the timers and let every client go (the process is stopping, or the table is evicted)."""
        self.timers.cancel_all()
        self.watchers.close()
