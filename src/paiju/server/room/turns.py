"""A table's turns: who must decide by when, the windows held open, the pause between hands, and bots' turns.

:class:`TableTurns` is the part of a table (``CardTable``, table.py, is its only subclass) that keeps time and
answers for bots: a seat's answer is applied at once or held until its window ends (a paced step, a claim
window under the claim pause), a hand's end pauses the table until everyone is ready, a deadline that runs out
takes the game's default, and a bot decides from its seat's view only.  It is apart from table.py so that each
module does one job; the flows it hands moves to (``_apply``) and the messages it sends are the table's.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from paiju.core import SPECTATOR, Event, Game, Window

from ..errors import ErrorCode, RoomError
from ..settings import Settings
from ..storage import Player, TableRow
from .bots import TableBots
from .broadcast import Broadcaster
from .clock import NO_DEADLINES, Deadlines, Timers, Windows, next_deadlines
from .conn import Conn, dumps
from .seats import Seats
from .store import TableStore

log = logging.getLogger("paiju.server.room.turns")


@dataclass
class Pause:
    """Between two hands: the result stays in view and no clock runs until every person at the table has
    pressed *continue* (bots always have) or ``until`` has passed."""

    until: float
    ready: set[int] = field(default_factory=set)


class TableTurns:
    """A table's time and its bots' turns.  Every method that changes the table says whether its caller holds
    the lock; the public coroutines take it themselves."""

    settings: Settings
    game: Game[Any]
    lock: asyncio.Lock
    store: TableStore
    seats: Seats
    watchers: Broadcaster
    bots: TableBots
    timers: Timers
    deadlines: Deadlines
    held: dict[int, str]
    pause: Pause | None
    claim_until: float | None
    timeouts: dict[int, int]

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

    def viewer_of(self, conn: Conn) -> int:
        seat = self.seats.seat_of(conn.player)
        return SPECTATOR if seat is None else seat

    # ---- what the table does with a decision (table.py) ---------------------------------------------------
    async def _apply(self, moves: list[tuple[int, str]]) -> None:
        raise NotImplementedError

    async def _autoplay(self, seat: int, on: bool) -> None:
        raise NotImplementedError

    def _state(self, kind: str, viewer: int, events: list[Event] | None = None) -> dict[str, Any]:
        raise NotImplementedError

    def _broadcast_state(self, kind: str, events: list[Event] | None = None) -> None:
        raise NotImplementedError

    def _broadcast_table(self) -> None:
        raise NotImplementedError

    # ---- turns, windows and pauses --------------------------------------------------------------------
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

    def _settle_clock(self, now: float, hands: int) -> None:
        """After the game moved: the pause between hands if one just ended, a held claim window if one just
        opened, and the deadlines.  Caller holds the lock."""
        g = self.game
        if not g.finished and g.hands_finished() > hands and self.option("next_hand_seconds") > 0 \
                and self.seats.people():
            self._start_pause(now)
        self._open_windows(now)
        self.deadlines = self._next_deadlines(now, acted=self.game.history[-1][0] if self.game.history else None)

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
            if action is not None and not self.game.is_legal(seat, action):
                # the table has not moved since the bot was asked (just checked), so this is the rules refusing
                # its answer to the very state it saw: a bot's bug, never a stale answer.  A legal action the
                # capped legal list does not show (升级's own throws and burials) is no fault (Game.is_legal).
                log.error("table %s: bot at seat %d chose %r, which the rules refuse at move %d", self.id, seat,
                          action, seq)
                action = None
            if action is None:
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
