"""Collusion signals for the hosts: flagged, never blocked (docs/server.md, "Rated and casual").

- **One address at a rated table**: two people who sat down at the same rated table from the same client
  address (``storage.addresses``, kept at most ``ADDRESS_DAYS`` days).  A family or a café shares an address
  too: a host looks before acting.
- **Two players who keep meeting**: a pair seated together at ``Settings.signal_meetings`` or more rated
  tables started within the same days — friends do that, and so do a farmer's two accounts.

Only what hosts need is shown: the tables and the players, never the address itself.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, and_, func, select

from .. import storage as st
from ..writer import Database

log = logging.getLogger(__name__)


async def purge_forever(db: Database, clock: Callable[[], float], every: float) -> None:
    """Delete addresses older than ``ADDRESS_DAYS`` days every ``every`` seconds (the lifespan owns this task):
    a room where nobody sits down or reads the signals still keeps no address past its days."""
    while True:
        try:
            gone = await db.run(functools.partial(st.purge_addresses, now=clock()))
            if gone:
                log.info("deleted %d stored addresses older than %d days", gone, st.ADDRESS_DAYS)
        except Exception:  # the database is away: try again next round
            log.warning("purging old addresses failed; trying again later", exc_info=True)
        await asyncio.sleep(every)


def signals(conn: Connection, now: float, meetings: int, limit: int = 100) -> dict[str, list[dict[str, Any]]]:
    """The two lists a host's page shows, newest and most frequent first."""
    since = now - st.ADDRESS_DAYS * 86400.0
    st.purge_addresses(conn, now)
    a1, a2 = st.addresses.alias("a1"), st.addresses.alias("a2")
    t = st.card_tables
    shared = (select(a1.c.table_id, a1.c.player_id.label("one"), a2.c.player_id.label("other"),
                     func.max(a2.c.at).label("at"))
              .select_from(a1.join(a2, and_(a1.c.table_id == a2.c.table_id, a1.c.address == a2.c.address,
                                            a1.c.player_id < a2.c.player_id))
                           .join(t, t.c.id == a1.c.table_id))
              .where(t.c.rated.is_(True), a1.c.at >= since, a2.c.at >= since)
              .group_by(a1.c.table_id, a1.c.player_id, a2.c.player_id)
              .order_by(func.max(a2.c.at).desc()).limit(limit))
    s1, s2 = st.seats.alias("s1"), st.seats.alias("s2")
    pairs = (select(s1.c.player_id.label("one"), s2.c.player_id.label("other"), func.count().label("tables"))
             .select_from(s1.join(s2, and_(s1.c.table_id == s2.c.table_id, s1.c.player_id < s2.c.player_id))
                          .join(t, t.c.id == s1.c.table_id))
             .where(t.c.rated.is_(True), t.c.started_at >= since)
             .group_by(s1.c.player_id, s2.c.player_id).having(func.count() >= meetings)
             .order_by(func.count().desc()).limit(limit))
    names: dict[str, str] = {}
    out_shared = [{"table": r.table_id, "players": [r.one, r.other], "at": r.at} for r in conn.execute(shared)]
    out_pairs = [{"players": [r.one, r.other], "tables": int(r.tables)} for r in conn.execute(pairs)]
    ids = {p for x in out_shared + out_pairs for p in x["players"]}
    if ids:
        names = {r.id: r.nickname for r in conn.execute(select(st.players.c.id, st.players.c.nickname)
                                                        .where(st.players.c.id.in_(sorted(ids))))}
    for x in out_shared + out_pairs:
        x["players"] = [{"id": p, "nickname": names.get(p)} for p in x["players"]]
    return {"same_address": out_shared, "keep_meeting": out_pairs}
