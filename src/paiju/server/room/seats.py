"""Who sits where at one table: the rules for taking, leaving and handing seats to bots.

:class:`Seats` changes the rows in memory and returns the rows it changed; the table stores them (through its
store) and tells the clients.  The table's status checks (nothing moves once the game has started) stay with
the table; what is checked here is the seat itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..errors import ErrorCode, RoomError
from ..storage import Player, SeatRow
from .bots import strength_of

LEFT = "left"
DISCONNECTED = "disconnected"
KICKED = "kicked"
AUTOPLAY = "autoplay"
"""Why a bot plays a person's seat (``SeatRow.replaced``).  Leaving and disconnecting are escapes
(scoring.ESCAPES); autoplay (托管) is the person's own choice, or the room's after repeated timeouts, and the
seat stays theirs."""


class Seats:
    """The seats of one table, in order; each :class:`SeatRow` is also the table's stored row."""

    def __init__(self, rows: list[SeatRow]) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[SeatRow]:
        return iter(self.rows)

    def __getitem__(self, seat: int) -> SeatRow:
        return self.rows[seat]

    def seat_of(self, player: Player | None) -> int | None:
        """The seat ``player`` holds (not one it left), if any."""
        if player is None:
            return None
        for s in self.rows:
            if s.player_id == player.id and s.replaced not in (LEFT, KICKED):
                return s.seat
        return None

    def empty(self) -> list[int]:
        return [s.seat for s in self.rows if s.player_id is None and s.bot is None]

    def people(self) -> list[SeatRow]:
        """Seats a person plays themselves (no bot in them)."""
        return [s for s in self.rows if s.bot is None]

    def is_bot(self, seat: int) -> bool:
        return self.rows[seat].bot is not None

    # ---- before the start ------------------------------------------------------------------------------
    def sit(self, player: Player, seat: int) -> list[SeatRow]:
        """``player`` takes ``seat``, freeing the one they held; the changed rows (none if already there)."""
        if not 0 <= seat < len(self.rows):
            raise RoomError(ErrorCode.BAD_SEAT, f"seat must be 0 to {len(self.rows) - 1}", 422,
                            zh=f"座位号应为 0 到 {len(self.rows) - 1}")
        s = self.rows[seat]
        if s.player_id == player.id:
            return []
        if s.player_id is not None or s.bot is not None:
            raise RoomError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken", 409, zh=f"{seat} 号位已经有人")
        changed = []
        old = self.seat_of(player)
        if old is not None:
            changed.append(self.free(old))
        s.player_id, s.nickname = player.id, player.nickname
        changed.append(s)
        return changed

    def free(self, seat: int) -> SeatRow:
        s = self.rows[seat]
        s.player_id = s.nickname = None
        return s

    def fill_bots(self, kind: str) -> list[SeatRow]:
        """A bot of ``kind`` in every empty seat."""
        changed = [s for s in self.rows if s.player_id is None and s.bot is None]
        for s in changed:
            s.bot = kind
        return changed

    def remove_bot(self, seat: int) -> SeatRow:
        if not 0 <= seat < len(self.rows) or self.rows[seat].bot is None:
            raise RoomError(ErrorCode.BAD_SEAT, f"seat {seat} has no bot", 422, zh=f"{seat} 号位没有机器人")
        s = self.rows[seat]
        s.bot = None
        return s

    # ---- during the game ---------------------------------------------------------------------------------
    def replace(self, seat: int, kind: str, reason: str) -> SeatRow:
        """A bot of ``kind`` plays the person's seat from now on (``reason``: why)."""
        s = self.rows[seat]
        s.bot, s.replaced = kind, reason
        return s

    def give_back(self, seat: int) -> SeatRow | None:
        """The disconnected person is back: the seat is theirs again (the row, or None if nothing changed)."""
        s = self.rows[seat]
        if s.bot is None or s.replaced != DISCONNECTED:
            return None
        s.bot, s.replaced = None, None
        return s

    def autoplay(self, seat: int, kind: str, on: bool) -> SeatRow | None:
        """Hand the person's seat to a bot of ``kind`` (托管), or take it back; the row, or None if nothing
        changed (already so, or the seat is a bot's or an escaped person's: autoplay never undoes those)."""
        s = self.rows[seat]
        if s.player_id is None or s.replaced in (LEFT, DISCONNECTED, KICKED) \
                or (s.bot is not None and s.replaced is None):
            return None
        if on == (s.replaced == AUTOPLAY):
            return None
        s.bot, s.replaced = (kind, AUTOPLAY) if on else (None, None)
        return s

    def on_autoplay(self, seat: int) -> bool:
        return self.rows[seat].replaced == AUTOPLAY

    def to_list(self, connected: Callable[[str | None], bool]) -> list[dict[str, Any]]:
        """The seats as a table object shows them (docs/protocol.md)."""
        return [{"seat": s.seat,
                 "player": None if s.player_id is None else {"id": s.player_id, "nickname": s.nickname},
                 "bot": s.bot, "strength": strength_of(s.bot), "replaced": s.replaced,
                 "connected": (s.bot is None or s.replaced == AUTOPLAY) and connected(s.player_id)}
                for s in self.rows]
