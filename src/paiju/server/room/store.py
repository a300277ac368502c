"""What the card room writes, said as what happened: a table made, a seat taken, a move, the end of a match.

Tables and the room call these intent-level methods, never storage.py's queries: each intent is one
transaction (so a move and the match's end are stored together, or not at all), and each is the one place
where later work hooks in — the ledger books a finished match inside :meth:`TableStore.finish`'s
transaction and an escape inside :meth:`TableStore.replace_seat`'s (``StoreHooks``); a table owned by one
of several processes fences its writes here.  A table's state is rebuilt from its record
(:func:`replay_game`): the database is the truth.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from sqlalchemy import Connection

from paiju.core import Game, get_game

from .. import storage as st
from ..storage import Player, SeatRow, TableRow
from ..writer import Database


class Move(NamedTuple):
    """One applied action: the table's ``n``-th (1-based)."""

    n: int
    seat: int
    action: str
    at: float
    person: bool | None = None
    """The seat's person sent it (False: a bot, a timeout or the room chose it): the ledger's idle-hand rule."""


@dataclass(frozen=True)
class MatchEnd:
    """A match is over: handed to ``StoreHooks.finished`` inside the transaction that stores its last move."""

    table: TableRow
    """The table's row as it was before this end (its status still ``playing``): read it, do not change it."""
    seats: list[SeatRow]
    """Copies of who held each seat at the end."""
    at: float
    result: Any


@dataclass(frozen=True)
class Departure:
    """A person left a started match (or was replaced after the grace period); a bot plays on for them."""

    table: TableRow
    seat: int
    player_id: str | None
    at: float
    move: int
    reason: str


@dataclass
class StoreHooks:
    """Work that must commit or fail with the room's own writes, each called with the open transaction.

    Empty by default; e.g. the ledger (issue 9) books every seated person's entry in ``finished`` and the
    leaver's escape in ``departed``."""

    finished: list[Callable[[Connection, MatchEnd], None]] = field(default_factory=list)
    departed: list[Callable[[Connection, Departure], None]] = field(default_factory=list)
    after_finish: list[Callable[[TableRow, Game[Any]], Awaitable[None]]] = field(default_factory=list)
    """Awaited once a match's end has committed, outside its transaction: the ledger books the match in a
    transaction of its own (``scores.scoring.hook_into``), so a failed booking never undoes the last move."""
    after_escape: list[Callable[[TableRow, Game[Any], int, int, float], Awaitable[None]]] = field(
        default_factory=list)
    """Awaited once a leaver's departure has committed: (table, game, seat, move, time); the ledger books the
    escape at once."""


def replay_game(row: TableRow) -> Game[Any]:
    """The live game of a stored table: its rules, seed and deal, and every stored move applied in order."""
    cls = get_game(row.game)
    game = cls(cls.config_class.from_dict(row.config), row.seed, row.deal)
    for seat, action, _at in row.actions:
        game.apply(seat, action)
    return game


class TableStore:
    """One table's writes.  Every method returns once its transaction has committed (callers tell clients
    only then) and raises if it failed (the table then rebuilds itself from what was stored)."""

    def __init__(self, db: Database, row: TableRow, hooks: StoreHooks) -> None:
        self.db = db
        self.row = row
        self.hooks = hooks
        self._deadlines: Mapping[int, float] = dict(row.deadlines)  # as stored

    @property
    def id(self) -> str:
        return self.row.id

    def _fenced(self, job: Callable[[Connection], None]) -> Callable[[Connection], None]:
        """``job``, first checking that this worker still owns the table (a table no worker fences: as is)."""
        epoch, tid = self.row.owner_epoch, self.id
        if epoch is None:
            return job

        def fenced(c: Connection) -> None:
            st.check_epoch(c, tid, epoch)
            job(c)

        return fenced

    def _action_row(self, move: Move) -> dict[str, Any]:
        row = st.action_row(self.id, move.n, move.seat, move.action, move.at, move.person)
        if self.row.owner_epoch is not None:
            row["epoch"] = self.row.owner_epoch  # the database's trigger checks it (migration 0005)
        return row

    async def start(self, at: float, deadlines: Mapping[int, float], rated: bool | None = None) -> None:
        """The match is on, rated or casual as decided at this moment."""
        tid, stored = self.id, dict(deadlines)
        await self.db.run(self._fenced(lambda c: st.set_status(c, tid, "playing", at, stored, rated=rated)))
        self._deadlines = stored

    async def set_rated(self, rated: bool | None) -> None:
        """A waiting table marked casual (False) or rated if filled by people (None) by its creator."""
        tid = self.id
        await self.db.run(self._fenced(lambda c: st.set_rated(c, tid, rated)))

    async def record_move(self, move: Move, deadlines: Mapping[int, float]) -> None:
        """A move of a match that goes on, with the deadlines it leaves."""
        row = self._action_row(move)
        if deadlines == self._deadlines:  # the common case: one row, batched with other tables' moves
            await self.db.insert(st.actions, row)
            return
        tid, stored = self.id, dict(deadlines)

        def job(c: Connection) -> None:
            st.add_action(c, row)
            st.set_deadlines(c, tid, stored)

        await self.db.run(job)
        self._deadlines = stored

    async def set_deadlines(self, deadlines: Mapping[int, float]) -> None:
        """New deadlines without a move (the pause between hands is over)."""
        if deadlines == self._deadlines:
            return
        tid, stored = self.id, dict(deadlines)
        await self.db.run(self._fenced(lambda c: st.set_deadlines(c, tid, stored)))
        self._deadlines = stored

    async def finish(self, move: Move, result: Any) -> None:
        """The match's last move and its end, in one transaction with the ``finished`` hooks."""
        row = self._action_row(move)
        end = MatchEnd(self.row, [replace(s) for s in self.row.seats], move.at, result)
        hooks = list(self.hooks.finished)

        def job(c: Connection) -> None:
            st.add_action(c, row)
            st.finish(c, end.table.id, end.at, result)
            for hook in hooks:
                hook(c, end)

        await self.db.run(job)
        self._deadlines = {}

    async def close(self, at: float, why: dict[str, Any]) -> None:
        """A host closed the table (moderation.py): no result, no booking, never restored."""
        tid = self.id
        await self.db.run(self._fenced(lambda c: st.close(c, tid, at, why)))
        self._deadlines = {}

    async def save_seats(self, seats: list[SeatRow], at: float, move: int) -> None:
        """Who holds these seats now (appended to the seating history too)."""
        if not seats:
            return
        tid, rows = self.id, [replace(s) for s in seats]

        def job(c: Connection) -> None:
            for s in rows:
                st.set_seat(c, tid, s, at, move)

        await self.db.run(self._fenced(job))

    async def replace_seat(self, seat: SeatRow, at: float, move: int, reason: str) -> None:
        """A bot now plays a person's seat: the seat and the departure, with the ``departed`` hooks."""
        s, tid = replace(seat), self.id
        gone = Departure(self.row, s.seat, s.player_id, at, move, reason)
        hooks = list(self.hooks.departed)

        def job(c: Connection) -> None:
            st.set_seat(c, tid, s, at, move)
            st.add_departure(c, tid, s.seat, s.player_id, at, move, reason)
            for hook in hooks:
                hook(c, gone)

        await self.db.run(self._fenced(job))

    async def expire(self) -> None:
        """Nobody joined this waiting table: it is no longer offered, nor restored after a restart."""
        tid = self.id
        await self.db.run(self._fenced(lambda c: st.expire_table(c, tid)))

    async def load(self) -> TableRow | None:
        """The table as stored (to rebuild from it)."""
        tid = self.id
        rows = await self.db.run(lambda c: st.load_tables(c, table_id=tid))
        if rows:
            rows[0].owner_epoch = self.row.owner_epoch  # ours: a newer one is another worker's
            self.row = rows[0]
            self._deadlines = dict(self.row.deadlines)
        return rows[0] if rows else None

    async def departures(self) -> list[dict[str, Any]]:
        tid = self.id
        return await self.db.run(lambda c: st.load_departures(c, tid))


class RoomStore:
    """The room's own writes and reads: players, new tables, tables read back."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add_player(self, player: Player, at: float) -> None:
        await self.db.run(lambda c: st.add_player(c, player, at))

    async def player(self, player_id: str) -> Player | None:
        return await self.db.run(lambda c: st.get_player(c, player_id))

    async def add_table(self, row: TableRow) -> None:
        await self.db.run(lambda c: st.add_table(c, row))

    async def table(self, table_id: str) -> TableRow | None:
        rows = await self.db.run(lambda c: st.load_tables(c, table_id=table_id))
        return rows[0] if rows else None
