"""Before a match's first hand: 准备 (ready) and the creator's kick (issue 38).

At a table a person made (its row's options carry ``ready_seconds``), every person seated presses ready, and
the match starts by itself once the seats are full and all have.  The start button works once everyone but
the one who presses it is ready (pressing start is their ready), so a person alone with bots starts at once.
Someone seated who has not pressed ready ``ready_seconds`` after sitting down (60 by default, a table setting)
may be removed by the table's creator: a card room's answer to the friend who sat down and went to dinner.  A
person who has pressed ready cannot be kicked, and nobody can be once the match has started.  A kicked person
may not sit at that table again for ``kick_ban_seconds`` (10 minutes).  Quick tables and rematches carry no
``ready_seconds``: they start as before.

Ready marks and sitting times are kept in the table's memory only: a table rebuilt after a restart counts its
seated people as having sat down then, and unready.
"""

from __future__ import annotations

from typing import Any

from ..errors import ErrorCode, RoomError
from ..storage import Player, SeatRow
from .turns import TableTurns


class TableWaiting(TableTurns):
    """The waiting room's ready marks and kicks; the table (table.py) starts the match."""

    ready_seats: set[int]
    sat_at: dict[int, float]
    kicked_until: dict[str, float]

    def _init_waiting(self) -> None:
        self.ready_seats = set()
        now = self.settings.clock()
        self.sat_at = {s.seat: now for s in self.seats if s.player_id is not None and s.bot is None}
        self.kicked_until = {}

    # ---- what the table does (table.py) ------------------------------------------------------------------
    async def _save(self, seats: list[SeatRow]) -> None:
        raise NotImplementedError

    async def _begin(self) -> None:
        """Start the match now.  Caller holds the lock and has checked the table may start."""
        raise NotImplementedError

    def _snapshot(self, conn: Any) -> str:
        raise NotImplementedError

    # ---- facts ---------------------------------------------------------------------------------------------
    @property
    def needs_ready(self) -> bool:
        """Whether this table waits for every seated person's ready before it starts."""
        return self.status == "waiting" and self.row.options.get("ready_seconds") is not None

    def unready(self) -> list[int]:
        """Seats of people who have not pressed ready (bots and empty seats are never waited for)."""
        return [s.seat for s in self.seats if s.player_id is not None and s.bot is None
                and s.seat not in self.ready_seats]

    def waiting_info(self) -> dict[str, Any] | None:
        """The table object's ``ready`` block while it waits for ready: who has pressed, and since when each
        unready person has sat (the creator may kick them ``seconds`` after that)."""
        if not self.needs_ready:
            return None
        return {"seconds": float(self.row.options["ready_seconds"]), "seats": sorted(self.ready_seats),
                "sat_at": {str(s): t for s, t in sorted(self.sat_at.items()) if s not in self.ready_seats}}

    # ---- seats changing (table.py calls these with the lock held) -------------------------------------------
    def _check_not_kicked(self, player: Player) -> None:
        until = self.kicked_until.get(player.id)
        if until is not None and self.settings.clock() < until:
            minutes = max(1, round((until - self.settings.clock()) / 60))
            raise RoomError(ErrorCode.KICKED, f"the creator removed you from this table: you may sit here again in "
                            f"about {minutes} min", 403, zh=f"你被桌主请出了这张桌：约 {minutes} 分钟后才能再坐下")

    def _seated(self, changed: list[SeatRow]) -> None:
        """Seats changed hands: a seat newly taken starts its ready clock, and loses any ready mark."""
        now = self.settings.clock()
        for s in changed:
            self.ready_seats.discard(s.seat)
            if s.player_id is not None and s.bot is None:
                self.sat_at[s.seat] = now
            else:
                self.sat_at.pop(s.seat, None)

    # ---- the commands ----------------------------------------------------------------------------------------
    async def press_ready(self, player: Player, on: bool) -> None:
        """准备, or take it back; the match starts once every seat is taken and every person is ready."""
        async with self.lock:
            if self.status != "waiting":
                raise RoomError(ErrorCode.STARTED, "the game has started already", 409, zh="已经开局了")
            seat = self.seat_of(player)
            if seat is None:
                raise RoomError(ErrorCode.NOT_SEATED, "take a seat first", 409, zh="请先入座")
            if not self.needs_ready:
                raise RoomError(ErrorCode.BAD_OPTION, "this table does not wait for ready: it starts as it is",
                                409, zh="这张桌不用准备")
            (self.ready_seats.add if on else self.ready_seats.discard)(seat)
            if on and not self.unready() and not self.seats.empty():
                await self._begin()
            else:
                self._broadcast_table()

    async def kick_unready(self, player: Player, seat: int) -> None:
        """The creator removes a person who has not pressed ready within the table's ready time."""
        async with self.lock:
            if self.status != "waiting":
                raise RoomError(ErrorCode.STARTED, "no kicking once the match has started", 409,
                                zh="开局之后不能再请人离座")
            if player.id != self.row.owner_id:
                raise RoomError(ErrorCode.NOT_ALLOWED, "only the table's creator may ask someone to leave", 403,
                                zh="只有桌主可以请人离座")
            if not self.needs_ready:
                raise RoomError(ErrorCode.BAD_OPTION, "this table does not wait for ready", 409,
                                zh="这张桌不用准备")
            if not 0 <= seat < len(self.seats):
                raise RoomError(ErrorCode.BAD_SEAT, f"seat must be 0 to {len(self.seats) - 1}", 422,
                                zh=f"座位号应为 0 到 {len(self.seats) - 1}")
            s = self.seats[seat]
            if s.player_id is None or s.bot is not None or s.player_id == player.id:
                raise RoomError(ErrorCode.BAD_SEAT, f"nobody but you sits in seat {seat}", 422,
                                zh=f"{seat} 号位没有可以请走的人")
            if seat in self.ready_seats:
                raise RoomError(ErrorCode.IS_READY, "they have pressed ready", 409, zh="对方已经准备了")
            left = self.sat_at.get(seat, 0.0) + float(self.row.options["ready_seconds"]) - self.settings.clock()
            if left > 0:
                raise RoomError(ErrorCode.TOO_SOON, f"they have {left:.0f} s left to press ready", 409,
                                zh=f"对方还有 {left:.0f} 秒可以准备")
            pid = s.player_id
            self.kicked_until[pid] = self.settings.clock() + self.settings.kick_ban_seconds
            freed = self.seats.free(seat)
            self._seated([freed])
            await self._save([freed])
            self._broadcast_table()
            self.watchers.to_player(pid, self._snapshot)  # they watch now, and are told so
