"""Tables: one owner per table, one change at a time, the view as the only door to hidden cards.

A :class:`CardTable` owns one table: its lock, the live game and the parts that run it (docs/server.md, "How
the room is built") — who sits where (seats.py), the clock (clock.py), the bots (bots.py), the writes
(store.py) and the clients watching (broadcast.py, conn.py).  Every change happens under the table's lock:
check with the engine, apply, store, then tell the clients.  Clients get only ``game.view(their viewer)``
and their own legal actions; events are public and go to everyone unchanged.  Bots and expiries act through
the same path as people.  :class:`Room` is every live table of this process.

The names tests and benchmarks import from here (``Conn``, ``dumps``, ``BotFactory``, ``replay_game``, ...)
are re-exported from the parts.
"""

from __future__ import annotations

import asyncio
import bisect
import dataclasses
import json
import logging
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection

from paiju.core import SPECTATOR, ActionError, ConfigError, Event, Game, Window, get_game

from ..errors import ErrorCode, RoomError, invite_required, no_table
from ..settings import Settings
from ..storage import Database, Player, SeatRow, TableRow, expire_table, is_fenced
from .bots import NORMAL, BotFactory, TableBots, default_bot_factory, seat_bot
from .broadcast import Broadcaster, with_text
from .clock import NO_DEADLINES, Deadlines, Timers, Windows, next_deadlines
from .conn import _ENCODER, Conn, dumps, dumps_events
from .numbers import RoomNumbers
from .ownership import Cluster, moved_error
from .search import SearchPool
from .seats import AUTOPLAY, DISCONNECTED, KICKED, LEFT, Seats
from .store import Move, RoomStore, StoreHooks, TableStore, replay_game

__all__ = ["_ENCODER", "BotFactory", "CardTable", "Conn", "Room", "default_bot_factory", "dumps", "dumps_events",
           "replay_game"]

log = logging.getLogger("paiju.server.room.table")


def _deadlines_of(row: TableRow, game: Game[Any]) -> Deadlines:
    return Deadlines(dict(row.deadlines), {s: game.window(s) for s in row.deadlines})


@dataclass
class Pause:
    """Between two hands: the result stays in view and no clock runs until every person at the table has
    pressed *continue* (bots always have) or ``until`` has passed."""

    until: float
    ready: set[int] = field(default_factory=set)


class CardTable:
    """A table: its stored row, the live game rebuilt from that row, and who is watching.

    Every public coroutine takes ``lock`` itself; no method needs its caller to hold it.  The public plain
    methods only read and never wait, so they need no lock (they may see a move applied but not yet stored,
    as the lobby always could).  Private methods that change the table say that their caller holds the lock.
    """

    def __init__(self, room: Room, row: TableRow, game: Game[Any]) -> None:
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

    # ---- facts ---------------------------------------------------------------------------------------
    @property
    def row(self) -> TableRow:
        """The table as stored (the store's copy: replaced when the table is rebuilt)."""
        return self.store.row

    @property
    def id(self) -> str:
        return self.store.row.id

    @property
    def seq(self) -> int:
        """Number of actions applied: update ``seq`` N is the state after the N-th action."""
        return len(self.game.history)

    @property
    def status(self) -> str:
        return self.store.row.status

    def seat_of(self, player: Player | None) -> int | None:
        """The seat ``player`` holds (not one it left), if any."""
        return self.seats.seat_of(player)

    def spectators(self) -> int:
        """Connections of people without a seat here (``watchers_per_table`` caps them)."""
        return len(self.watchers) - self.watchers.count_of({s.player_id for s in self.seats
                                                            if s.replaced not in (LEFT, KICKED)})

    def viewer_of(self, conn: Conn) -> int:
        seat = self.seats.seat_of(conn.player)
        return SPECTATOR if seat is None else seat

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
            **self.notes,
        }
        if for_player is not None and row.private and (
                for_player.id == row.owner_id or self.seat_of(for_player) is not None):
            out["invite"] = row.invite
        return out

    def check_invite(self, player: Player | None, invite: str | None) -> None:
        row = self.row
        if not row.private:
            return
        if player is not None and (player.id == row.owner_id or self.seat_of(player) is not None):
            return
        if invite is None or not secrets.compare_digest(invite, row.invite or ""):
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
            changed = self.seats.sit(player, seat)
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
                await self._save([self.seats.free(seat)])
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
            now = self.settings.clock()
            self.row.status = "playing"
            self.row.started_at = now
            self._open_windows(now)
            self.deadlines = self._next_deadlines(now, acted=None)
            await self.store.start(now, self.deadlines.at)
            self._broadcast_table()
            self._broadcast_state("snapshot")
            for s in self.seats.people():
                if not self.watchers.connected(s.player_id):
                    self._arm_grace(s.seat)
            self._schedule()
            if self.claim_until is not None:
                await self._window_check()

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

    async def _timed_out(self, seat: int) -> None:
        """A person's window ran out; ``autoplay_after_timeouts`` in a row turn autoplay on.  Caller holds
        the lock."""
        after = self.settings.autoplay_after_timeouts
        if after <= 0 or self.seats.is_bot(seat) or self.seats[seat].player_id is None or seat in self.held \
                or self.deadlines.windows.get(seat) == Window.PACE:  # a deal step passes for everyone alike
            return  # (a held answer is an answer: the window ran out on the others)
        self.timeouts[seat] = n = self.timeouts.get(seat, 0) + 1
        if n >= after:
            await self._autoplay(seat, True)

    async def ready(self, conn: Conn) -> None:
        """A seated person has read the hand's result and is ready for the next hand (``continue``)."""
        async with self.lock:
            seat = self.seat_of(conn.player)
            if seat is None:
                raise RoomError(ErrorCode.NOT_SEATED, "you have no seat at this table", zh="你没有坐在这张桌")
            if self.pause is None or seat in self.pause.ready:
                return  # nothing to wait for: a second press, or one that crossed the pause's end
            self.pause.ready.add(seat)
            if self._not_ready():
                self._broadcast_table()
            else:
                await self._end_pause()

    def option(self, name: str) -> float:
        """A room option of this table (``pace_seconds``, ``next_hand_seconds``): its own, else the default."""
        value = self.row.options.get(name)
        return float(getattr(self.settings, name)) if value is None else float(value)

    def _not_ready(self) -> list[int]:
        """People who have not pressed *continue* yet (bots are always ready)."""
        ready = self.pause.ready if self.pause is not None else set()
        return [s.seat for s in self.seats.people() if s.seat not in ready]

    async def _answer(self, seat: int, action: str) -> None:
        """One seat's decision, a person's or a bot's.  Caller holds the lock.

        In a paced step the default answer (pass) is held until the step ends, so the step lasts as long
        whatever anyone holds; any other answer (a bid) is public and applies at once.  In a claim window
        under the claim pause every answer is held until the window ends, and then all of them apply as one
        update: an answer applied alone would tell everyone that someone had something to answer."""
        g = self.game
        if seat in g.to_move() and seat not in self.held:
            window = g.window(seat)
            paced = window == Window.PACE and action == g.timeout_action(seat)
            if paced or (window == Window.CLAIM and self.claim_until is not None):
                if not g.is_legal(seat, action):
                    await self._apply([(seat, action)])  # refused with the rule's reason, nothing held
                    return
                self._hold(seat, action)
                await self._window_check()
                return
        if seat in self.held:
            return  # answered already in this window: the answer stands
        await self._apply([(seat, action)])

    def _hold(self, seat: int, action: str) -> None:
        """Keep ``seat``'s answer until its window ends; only the seat's own clients hear it was taken."""
        self.held[seat] = action
        self.watchers.to_player(self.seats[seat].player_id,
                                lambda conn: dumps(self._state("update", self.viewer_of(conn), [])))

    async def _window_check(self) -> None:
        """End the held window once every seat asked has answered — a paced step only where nobody is paced
        for, a claim window once its pause has passed too.  Caller holds the lock."""
        g = self.game
        if not g.to_move() or not all(s in self.held for s in g.to_move()):
            return
        if g.window(g.to_move()[0]) == Window.PACE:
            if self._windows().pace <= 0:
                await self._end_step()  # nobody to pace for: the step ends once every seat has answered
            return
        until = self.claim_until
        if until is None or self.settings.clock() >= until:
            await self._end_step()
        else:
            self.timers.later(until - self.settings.clock(), self._claim_due, self.seq)

    async def _claim_due(self, seq: int) -> None:
        async with self.lock:
            if self.seq == seq and self.status == "playing":
                await self._window_check()

    async def _end_step(self) -> None:
        """A held window is over: every seat asked gives its held answer, or the default, as one update.
        Caller holds the lock."""
        g = self.game
        moves = [(s, a) for s in g.to_move() if (a := self.held.get(s) or g.timeout_action(s)) is not None]
        await self._apply(moves)

    def _claim_pause(self) -> float:
        """How long a claim window stays open at least: the table's claim pause where an answer can take time
        (another person at the table, or bots that think), else none."""
        pause = self.option("claim_pause")
        people = len(self.seats.people())
        slow = people >= 2 or (people >= 1 and self.settings.bot_delay_seconds > 0)
        return pause if pause > 0 and slow else 0.0

    def _open_windows(self, now: float) -> None:
        """The game has just moved: if it opened a claim window under the claim pause, start the pause and take
        the only answer of every seat that has nothing else to say.  Caller holds the lock."""
        self.claim_until = None
        g = self.game
        seats = g.to_move()
        if self.pause is not None or not seats or g.window(seats[0]) != Window.CLAIM:
            return
        pause = self._claim_pause()
        if pause <= 0:
            return
        self.claim_until = now + pause
        for s in seats:
            legal = g.legal_actions(s)
            if len(legal) == 1 and legal[0] == g.timeout_action(s):
                self.held[s] = legal[0]

    async def _apply(self, moves: list[tuple[int, str]]) -> None:
        """Check and apply actions in order, store each, then tell everyone once.  Caller holds the lock.

        Only the first action can be refused (a person's or a bot's choice); the others are a paced step's
        passes, which the game has just offered."""
        g = self.game
        hands = g.hands_finished()
        events: list[Event] = []
        settled = False  # the deadlines (and pauses) follow the state after the last applied move
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
            await self._store(Move(self.seq, seat, action, now), new)
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

    def _settle_clock(self, now: float, hands: int) -> None:
        """After the game moved: the pause between hands if one just ended, a held claim window if one just
        opened, and the deadlines.  Caller holds the lock."""
        g = self.game
        if not g.finished and g.hands_finished() > hands and self.option("next_hand_seconds") > 0 \
                and self.seats.people():
            self._start_pause(now)
        self._open_windows(now)
        self.deadlines = self._next_deadlines(now, acted=self.game.history[-1][0] if self.game.history else None)

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

    def _start_pause(self, now: float) -> None:
        """A hand is over and another follows: hold the table (no clock, no bot) until everyone is ready."""
        pause = self.pause = Pause(now + self.option("next_hand_seconds"))
        self.timers.later(pause.until - now, self._pause_expired, pause)

    async def _pause_expired(self, pause: Pause) -> None:
        async with self.lock:
            if self.pause is pause:
                await self._end_pause()

    async def _end_pause(self) -> None:
        """The next hand's clock starts now.  Caller holds the lock."""
        self.pause = None
        now = self.settings.clock()
        self._open_windows(now)
        self.deadlines = self._next_deadlines(now, acted=None)
        await self.store.set_deadlines(self.deadlines.at)
        self._broadcast_table()
        self._broadcast_state("update", [])
        self._schedule()
        if self.claim_until is not None:
            await self._window_check()

    async def _apply_quietly(self, seat: int, action: str) -> None:
        """An automatic move (a bot's, an expiry's).  Caller holds the lock."""
        try:
            await self._answer(seat, action)
        except RoomError as e:
            log.error("table %s: automatic move %r for seat %d refused: %s", self.id, action, seat, e.message)

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

    # ---- time and bots -------------------------------------------------------------------------------
    def _windows(self) -> Windows:
        """The table's windows; a paced step is waited for only while a person plays at the table."""
        row = self.row
        pace = self.option("pace_seconds") if self.seats.people() else 0.0
        return Windows(row.turn_seconds, row.claim_seconds, pace)

    def _next_deadlines(self, now: float, acted: int | None) -> Deadlines:
        g = self.game
        if self.status != "playing" or g.finished or self.pause is not None:
            return NO_DEADLINES
        deciding = {s: g.window(s) for s in g.to_move()}
        return next_deadlines(self.deadlines, deciding, now, self._windows(), acted)

    def _schedule(self) -> None:
        """Arm a timer per deadline and a think delay per bot that must decide.  Caller holds the lock."""
        if self.status != "playing":
            self.timers.cancel_all()
            return
        self.timers.keep(self.deadlines.at, self._expire)
        if self.pause is not None:
            return
        g, seq = self.game, self.seq
        for seat in self.bots.to_ask([s for s in g.to_move() if self.seats.is_bot(s) and s not in self.held], seq):
            # a paced step does not wait for bots: they answer within it (a bid at once, a pass held)
            delay = 0.0 if g.window(seat) == Window.PACE else self.settings.bot_delay_seconds
            self.timers.later(delay, self._bot_decides, seat, seq)

    def _can_decide(self, seat: int, seq: int, *, bot_only: bool) -> bool:
        return (self.seq == seq and self.status == "playing" and self.pause is None and seat in self.game.to_move()
                and seat not in self.held and (not bot_only or self.seats.is_bot(seat)))

    async def _bot_decides(self, seat: int, seq: int, *, bot_only: bool = True) -> None:
        """The seat's bot chooses from the seat's view and legal list only, on a worker thread; its choice is
        applied only if the table has not moved meanwhile."""
        async with self.lock:
            if seat in self.bots.thinking or not self._can_decide(seat, seq, bot_only=bot_only):
                return
            name = self.seats[seat].bot or self.settings.bot_kind
            bot = await self.bots.caught_up(seat, name, self.game)
            legal = list(self.game.legal_actions(seat))
            # a private copy: the bot reads it on another thread (or process) while the game moves on
            view = json.loads(dumps(self.game.view(seat, copy=False))) if self.bots.needs_view(bot, name) else {}
            # a paced step (升级's deal, 0.2 s) is too short for a search: the seat's fast bot answers it
            paced = self.game.window(seat) == Window.PACE
        action = await self.bots.choose(bot, seat, seq, view, legal, None if paced else name)
        async with self.lock:
            if not self._can_decide(seat, seq, bot_only=bot_only):
                # the table moved on while the bot thought (a simultaneous decision); if the seat must still
                # decide, think again on the new state (the timer armed meanwhile skipped a thinking seat)
                if bot_only and self._can_decide(seat, self.seq, bot_only=True):
                    self.bots.asked(seat, self.seq)
                    self.timers.spawn(self._bot_decides, seat, self.seq)
                return
            if action is None or not self.game.is_legal(seat, action):
                fallback = self.game.timeout_action(seat)
                action = fallback if fallback is not None else legal[0]
            await self._apply_quietly(seat, action)

    async def _expire(self, seat: int, at: float) -> None:
        """The seat's window ran out: take the game's default, or the bot's choice where a move is compulsory."""
        async with self.lock:
            self.timers.fired(seat, at)
            if self.deadlines.at.get(seat) != at or seat not in self.game.to_move():
                return
            if self.game.window(seat) == Window.PACE:  # the step's time is up for every seat at once
                await self._end_step()
                return
            await self._timed_out(seat)
            action = self.game.timeout_action(seat)
            if action is not None and self.game.is_legal(seat, action):
                await self._apply_quietly(seat, action)
                return
            seq = self.seq
        await self._bot_decides(seat, seq, bot_only=False)

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
                await self._save([self.seats.free(seat)])
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


class Room:
    """Every live table of this process, the players it has met, and the database behind them."""

    def __init__(self, settings: Settings, db: Database, bot_factory: BotFactory = default_bot_factory) -> None:
        self.settings = settings
        self.db = db
        self.store = RoomStore(db)
        self.hooks = StoreHooks()
        """Work that commits with every table's writes (the ledger's bookings, issue 9)."""
        self.bot_factory = bot_factory
        self.search = SearchPool(settings)
        """Strong bots' worker processes (started on first use) and the loop's lag (search.py)."""
        self.tables: dict[str, CardTable] = {}
        self.numbers = RoomNumbers(db, settings.clock)
        self._players: dict[str, Player] = {}
        self._evictions: dict[str, asyncio.TimerHandle] = {}
        self.keep_finished_seconds = 600.0
        self._lobby: list[tuple[float, str]] = []
        """(created_at, id) of every public waiting or playing table, sorted: the lobby's pages."""
        self.cluster: Cluster = Cluster()
        """The other workers serving this room, if any (cluster.py; the app sets it)."""

    # ---- players -------------------------------------------------------------------------------------
    async def new_player(self, nickname: str) -> Player:
        player = Player(secrets.token_hex(8), nickname)
        await self.store.add_player(player, self.settings.clock())
        self._players[player.id] = player
        return player

    async def player(self, player_id: str | None) -> Player | None:
        if player_id is None:
            return None
        p = self._players.get(player_id)
        if p is None:
            p = await self.store.player(player_id)
            if p is not None:
                self._players[p.id] = p
        return p

    # ---- tables --------------------------------------------------------------------------------------
    def window_option(self, name: str, value: Any, default: float) -> float:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RoomError(ErrorCode.BAD_OPTION, f"option {name!r} must be a number of seconds", 422,
                            zh=f"选项 {name!r} 应为秒数")
        v = float(value)
        s = self.settings
        lo, hi = f"{s.min_window_seconds:g}", f"{s.max_window_seconds:g}"
        if v != 0 and not s.min_window_seconds <= v <= s.max_window_seconds:
            raise RoomError(ErrorCode.BAD_OPTION, f"option {name!r} must be 0 (untimed) or between {lo} and {hi} "
                            "seconds", 422, zh=f"选项 {name!r} 应为 0（不限时）或 {lo} 到 {hi} 秒")
        return v

    def room_option(self, name: str, value: Any) -> float:
        """A table's pace or pause between hands: seconds from 0 (none) to the server's bound."""
        bound = {"pace_seconds": self.settings.max_pace_seconds, "claim_pause": self.settings.max_pace_seconds,
                 "next_hand_seconds": self.settings.max_window_seconds}.get(name)
        if bound is None:
            raise RoomError(ErrorCode.BAD_OPTION, f"unknown table option {name!r}", 422, zh=f"没有桌面选项 {name!r}")
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= bound:
            raise RoomError(ErrorCode.BAD_OPTION, f"option {name!r} must be a number of seconds from 0 to {bound:g}",
                            422, zh=f"选项 {name!r} 应为 0 到 {bound:g} 秒")
        return float(value)

    async def create_table(self, owner: Player, game_name: str, config: Any, *, turn_seconds: Any = None,
                           claim_seconds: Any = None, private: bool = False, seed: int | None = None,
                           deal: Any = None, options: dict[str, Any] | None = None,
                           number: str | None = None) -> CardTable:
        """A new waiting table; ``number`` keeps a room number (a rematch's), else a free one is drawn."""
        try:
            cls = get_game(game_name)
        except (KeyError, ImportError) as e:
            raise RoomError(ErrorCode.UNKNOWN_GAME, f"unknown or unavailable game {game_name!r}", 422,
                            zh=f"没有游戏 {game_name!r}，或未安装") from e
        if config is not None and not isinstance(config, dict):
            raise RoomError(ErrorCode.BAD_OPTION, "config must be an object of rule options", 422,
                            zh="config 应为规则选项组成的对象")
        try:
            cfg = cls.config_class.from_dict(config or {})
        except ConfigError as e:
            raise RoomError(ErrorCode.BAD_OPTION, str(e), 422) from e
        turn = self.window_option("turn_seconds", turn_seconds, self.settings.turn_seconds)
        if 0 < turn < self.settings.min_turn_seconds:
            least = f"{self.settings.min_turn_seconds:g}"
            raise RoomError(ErrorCode.WINDOW_TOO_SHORT, f"option 'turn_seconds' must be 0 (untimed) or at least "
                            f"{least} seconds: people play at this table", 422,
                            zh=f"选项 'turn_seconds' 应为 0（不限时）或至少 {least} 秒：这张桌上有人在打")
        rule_claim = cfg.window_seconds(Window.CLAIM)  # a game whose rules time the claim window (滑水)
        if claim_seconds is None and rule_claim is not None:
            claim_seconds = rule_claim
        claim = self.window_option("claim_seconds", claim_seconds, self.settings.claim_seconds)
        kept = {name: self.room_option(name, value) for name, value in (options or {}).items()}
        asks_all = cls.config_class.asks_all_option()
        if asks_all is not None and kept.get("claim_pause", self.settings.claim_pause) > 0:
            cfg = dataclasses.replace(cfg, **{asks_all: True})  # the pause hides who can claim only if all are asked
        seed = secrets.randbits(62) if seed is None else seed
        try:
            game = cls(cfg, seed, deal)
        except Exception as e:
            raise RoomError(ErrorCode.BAD_OPTION, f"cannot set up {game_name} with these options: {e}", 422,
                            zh=f"这些选项开不了 {game_name}：{e}") from e
        tid = secrets.token_urlsafe(6)
        drawn = number is None
        if number is None:
            number = await self.numbers.allocate(t.row.number for t in self.tables.values())
        row = TableRow(id=tid, game=game_name, config=cfg.to_dict(), seed=seed, deal=deal, turn_seconds=turn,
                       claim_seconds=claim, private=bool(private),
                       invite=secrets.token_urlsafe(9) if private else None, owner_id=owner.id,
                       status="waiting", created_at=self.settings.clock(),
                       seats=[SeatRow(i) for i in range(game.num_seats)], options=kept, number=number,
                       owner_epoch=self.cluster.first_epoch)
        try:
            await self.store.add_table(row)
        finally:
            if drawn:
                self.numbers.release(number)
        table = self.tables[tid] = CardTable(self, row, game)
        await self.cluster.adopted(table)
        self._listed(table)
        return table

    # ---- the lobby -----------------------------------------------------------------------------------
    def _listed(self, table: CardTable) -> None:
        if not table.row.private and table.row.status in ("waiting", "playing"):
            bisect.insort(self._lobby, (table.row.created_at, table.id))
            self.cluster.changed(table)

    def _unlisted(self, table: CardTable) -> None:
        self.cluster.changed(table)
        key = (table.row.created_at, table.id)
        i = bisect.bisect_left(self._lobby, key)
        if i < len(self._lobby) and self._lobby[i] == key:
            del self._lobby[i]

    def lobby_page(self, after: tuple[float, str] | None, limit: int,
                   game: str | None = None) -> tuple[list[CardTable], tuple[float, str] | None]:
        """Up to ``limit`` public waiting or playing tables older than ``after``, newest first (the tables
        people can still join come first), and the key to ask the next page with (None: this was the last).
        A bisection into the sorted index, so a page costs the same with 10,000 tables as with ten."""
        lobby, tables = self._lobby, self.tables
        i = len(lobby) if after is None else bisect.bisect_left(lobby, after)
        out: list[CardTable] = []
        while i > 0 and len(out) < limit:
            i -= 1
            t = tables.get(lobby[i][1])
            if t is not None and t.row.status in ("waiting", "playing") and (game is None or t.row.game == game):
                out.append(t)
        full = len(out) == limit and i > 0
        return out, ((out[-1].row.created_at, out[-1].id) if full else None)

    async def expire_waiting(self) -> int:
        """Drop the waiting tables whose seats nobody changed for ``waiting_table_minutes`` and that nobody is
        connected to; returns how many."""
        ttl = self.settings.waiting_table_minutes * 60.0
        if ttl <= 0:
            return 0
        edge = self.settings.clock() - ttl
        idle = [t for t in self.tables.values()
                if t.row.status == "waiting" and t.active_at <= edge and not len(t.watchers)]
        for t in idle:
            async with t.lock:
                if t.row.status != "waiting" or t.active_at > edge or len(t.watchers):
                    continue
                await t.store.expire()
                t.row.status = "expired"
                self._unlisted(t)
                self.tables.pop(t.id, None)
                t.close()
        if idle:
            log.info("expired %d waiting tables nobody joined", len(idle))
        return len(idle)

    async def expire_forever(self) -> None:
        """Run :meth:`expire_waiting` every minute or so (the lifespan owns this task)."""
        every = max(0.05, min(60.0, self.settings.waiting_table_minutes * 60.0 / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.expire_waiting()
            except Exception:  # the database is away: try again next round
                log.warning("expiring waiting tables failed; trying again later", exc_info=True)

    def get(self, table_id: str) -> CardTable:
        table = self.tables.get(table_id)
        if table is None:
            raise no_table(table_id)
        return table

    async def get_or_load(self, table_id: str) -> CardTable:
        """A live table, or a finished one read back from the database (for its result and record)."""
        if table_id in self.tables:
            return self.tables[table_id]
        row = await self.store.table(table_id)
        if row is None:
            raise no_table(table_id)
        return CardTable(self, row, replay_game(row))

    def open_tables(self, game: str | None = None) -> list[CardTable]:
        return [t for t in self.tables.values()
                if not t.row.private and t.row.status in ("waiting", "playing")
                and (game is None or t.row.game == game)]

    def finished(self, table: CardTable) -> None:
        """Keep a finished table in memory a while (clients see the result), then drop it."""
        self._unlisted(table)
        loop = asyncio.get_running_loop()
        self._evictions[table.id] = loop.call_later(self.keep_finished_seconds, self._evict, table.id)

    def _evict(self, table_id: str) -> None:
        self._evictions.pop(table_id, None)
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.close()
            self.cluster.changed(table)  # the other workers no longer find it here

    async def restore(self, rows: list[TableRow]) -> None:
        """Rebuild every unfinished table by replaying its record; re-arm deadlines, bots and grace timers.
        A waiting table idle past ``waiting_table_minutes`` is marked expired instead."""
        ttl = self.settings.waiting_table_minutes * 60.0
        edge = self.settings.clock() - ttl
        expired: list[str] = []
        for row in rows:
            if ttl > 0 and row.status == "waiting" and max(row.created_at, row.last_seated or 0.0) <= edge:
                expired.append(row.id)
                continue
            try:
                game = replay_game(row)
            except Exception:
                log.exception("table %s (%s) could not be rebuilt; left in the database", row.id, row.game)
                continue
            table = CardTable(self, row, game)
            self.tables[row.id] = table
            self._listed(table)
            for s in row.seats:
                if s.player_id is not None and s.nickname is not None:
                    self._players.setdefault(s.player_id, Player(s.player_id, s.nickname))
            await table.rearm()
        if expired:
            def job(c: Connection) -> None:
                for tid in expired:
                    expire_table(c, tid)

            await self.db.run(job)
        log.info("restored %d unfinished tables (%d waiting tables expired)", len(self.tables), len(expired))

    def close(self) -> None:
        for h in self._evictions.values():
            h.cancel()
        for t in self.tables.values():
            t.close()
        self.search.close()
