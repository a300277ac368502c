"""Room numbers (房号): six digits people can read out or type into a phone, for every table.

A number is held by its table while the table waits or plays, and for a day after it finished (a link sent
to the group chat yesterday still opens yesterday's result, not a stranger's table); only then may a new
table draw it.  A rematch keeps its table's number: for the people at it, it is the same room.  ``/r/<n>``
opens the newest table that holds ``n``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable

from sqlalchemy import Connection, or_, select

from ..errors import ErrorCode, RoomError
from ..storage import card_tables
from ..writer import Database

NUMBER = re.compile(r"[1-9][0-9]{5}")
REUSE_AFTER_SECONDS = 86400.0
"""A finished table's number may go to a new table only this long after the end."""


def no_room(number: str) -> RoomError:
    return RoomError(ErrorCode.NO_ROOM, f"no table has the number {number!r}", 404, zh=f"没有房号为 {number!r} 的牌桌")


def clean(raw: str) -> str:
    """The number as typed (spaces and the '#' people add dropped), or a 404 ``no_room``."""
    n = re.sub(r"[\s#]", "", raw)
    if not NUMBER.fullmatch(n):
        raise no_room(raw[:12])
    return n


class RoomNumbers:
    """Draws free numbers; the ones being drawn right now are reserved, so two new tables never share one."""

    def __init__(self, db: Database, clock: Callable[[], float], tries: int = 64) -> None:
        self.db = db
        self.clock = clock
        self.tries = tries
        self._reserved: set[str] = set()

    async def allocate(self, live: Iterable[str | None]) -> str:
        taken = {n for n in live if n} | self._reserved
        since = self.clock() - REUSE_AFTER_SECONDS
        drawn = (str(100000 + secrets.randbelow(900000)) for _ in range(self.tries))
        candidates = list(dict.fromkeys(n for n in drawn if n not in taken))
        if not candidates:
            raise RoomError(ErrorCode.SERVER_ERROR, "no free room number; try again", 503,
                            zh="暂时没有空闲房号，请再试")

        def job(c: Connection) -> str | None:
            busy = {r.number for r in c.execute(
                select(card_tables.c.number).where(card_tables.c.number.in_(candidates),
                                                   or_(card_tables.c.finished_at.is_(None),
                                                       card_tables.c.finished_at > since)))}
            return next((n for n in candidates if n not in busy), None)

        number = await self.db.run(job)
        if number is None:  # 64 draws all held: the room holds most of 900 000 numbers
            raise RoomError(ErrorCode.SERVER_ERROR, "no free room number; try again", 503,
                            zh="暂时没有空闲房号，请再试")
        self._reserved.add(number)
        return number

    def release(self, number: str) -> None:
        """The table holding ``number`` is stored (its row now reserves it) or was never made."""
        self._reserved.discard(number)


def newest_table(c: Connection, number: str) -> str | None:
    """The id of the newest table that held ``number``."""
    return c.execute(select(card_tables.c.id).where(card_tables.c.number == number)
                     .order_by(card_tables.c.created_at.desc()).limit(1)).scalar()
