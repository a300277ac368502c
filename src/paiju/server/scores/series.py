"""The series score sheet (战绩): every match played at one table across its rematches, hand by hand.

A rematch is a new table whose ``table_scoring.rematch_of`` names the one before (routes_history.Rematches),
so a series is that chain, followed back to its first table and forward to its newest.  Each match's hands are
the settlements its view showed (``last_result``, replayed from the record: public once shown), its scores the
match's result; the totals add up the finished matches, seat by seat (a rematch keeps people in their seats).
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import Connection, select

from paiju.core import OMNISCIENT, Record, get_game

from .. import storage as st
from ..room.room import Room
from ..room.store import replay_game
from ..room.table import CardTable
from .ledger import table_scoring

MAX_MATCHES = 200
CACHE_SIZE = 256
_hands_cache: dict[str, list[dict[str, Any]]] = {}
"""Finished tables' hands (they never change), by table id."""


def chain(c: Connection, table_id: str) -> list[str]:
    """The series' table ids, oldest first (at most ``MAX_MATCHES``)."""
    ts = table_scoring
    back: list[str] = []
    tid: str | None = table_id
    seen: set[str] = set()
    while tid is not None and tid not in seen and len(back) < MAX_MATCHES:
        seen.add(tid)
        back.append(tid)
        tid = c.execute(select(ts.c.rematch_of).where(ts.c.table_id == tid)).scalar()
    out = list(reversed(back))
    tid = table_id
    while len(out) < MAX_MATCHES:
        nxt = c.execute(select(ts.c.table_id).where(ts.c.rematch_of == tid).limit(1)).scalar()
        if nxt is None or nxt in seen:
            break
        seen.add(nxt)
        out.append(nxt)
        tid = nxt
    return out


def hands_of(record: Record) -> list[dict[str, Any]]:
    """Each settled hand of the game ``record`` holds: its title and scores per seat, replayed on a fresh game
    (so it may run on a worker thread while the live game moves on)."""
    cls = get_game(record.game)
    fresh = cls(cls.config_class.from_dict(record.config), record.seed, record.deal)
    out: list[dict[str, Any]] = []
    last = fresh.view(OMNISCIENT)["table"].get("last_result")
    for n, (seat, action) in enumerate(record.actions, start=1):
        fresh.apply(seat, action)
        result = fresh.view(OMNISCIENT)["table"].get("last_result")
        if result is not None and result != last:
            out.append({"hand": len(out) + 1, "move": n, "title": result.get("title"),
                        "scores": list(result.get("scores") or [])})
        last = result
    return out


def _seats(rows: list[st.SeatRow]) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "player": None if s.player_id is None else {"id": s.player_id, "nickname": s.nickname},
             "bot": s.bot} for s in rows]


async def match_of(row: st.TableRow, live: CardTable | None) -> dict[str, Any]:
    """One match of the sheet (a live table's from its game, a stored one's from its record); the replays run
    on a worker thread (a long match takes a while), never on the event loop."""
    game = live.game if live is not None else await asyncio.to_thread(replay_game, row)
    status = live.status if live is not None else row.status
    done = status in ("finished", "closed")
    hands = _hands_cache.get(row.id) if done else None
    if hands is None:
        hands = await asyncio.to_thread(hands_of, game.record())  # the record is a copy: the game may move on
        if done:
            _hands_cache[row.id] = hands
            while len(_hands_cache) > CACHE_SIZE:  # the oldest first (dicts keep their order)
                _hands_cache.pop(next(iter(_hands_cache)))
    result = game.result() if game.finished else None
    return {"table": row.id, "number": row.number, "status": status, "started_at": row.started_at,
            "finished_at": row.finished_at, "seats": _seats(live.seats.rows if live is not None else row.seats),
            "hands": hands, "scores": None if result is None else list(result.scores)}


async def sheet(room: Room, table_id: str) -> dict[str, Any] | None:
    """The whole sheet for the series ``table_id`` belongs to, or None for an unknown table."""
    ids = await room.db.run(lambda c: chain(c, table_id))
    stored_ids = [t for t in ids if t not in room.tables]
    rows = {r.id: r for r in await room.db.run(
        lambda c: [r for tid in stored_ids for r in st.load_tables(c, table_id=tid)])}
    matches = []
    first: st.TableRow | None = None
    for tid in ids:
        live = room.tables.get(tid)
        row = live.row if live is not None else rows.get(tid)
        if row is None:
            if tid == table_id:
                return None
            continue
        first = first or row
        matches.append(await match_of(row, live))
    if first is None:
        return None
    n = max(len(m["seats"]) for m in matches)
    totals = [0.0] * n
    for m in matches:
        for i, v in enumerate(m["scores"] or []):
            totals[i] += v
    cls = get_game(first.game)
    return {"table": table_id, "game": first.game, "display": dict(cls.display), "private": first.private,
            "number": matches[-1]["number"], "seats": matches[-1]["seats"], "matches": matches,
            "played": sum(1 for m in matches if m["scores"] is not None), "totals": totals}
