"""Data out: finished games for researchers (``paiju export``), and a player's own data (``GET /api/me/data``).

``export_records`` writes one JSON object per finished match — the full record (game, config, seed, deal,
actions with their times), the seats, departures and result.  With ``anonymize`` no nickname is written and
every id becomes a pseudonym (an HMAC under the export's key, so nobody without it can go back):

- a public match is public anyway (its replay shows names, seed and moves): its seats' pseudonyms are the
  person's, the same in every public match of the export, and its times are exact;
- a private table's match gets a pseudonym per seat *per match* (HMAC of the table and the player), so no
  pseudonym leads from a public match, or from another private match, to it; its start and end are given as
  the day (UTC midnight) and its moves' and departures' times as seconds since its start;
- the key is new for every export unless one is given (``--key``): two exports can be joined on pseudonyms
  only when they were made with the same key, on purpose.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection, select

from .. import storage as st
from ..people.accounts import accounts, sessions
from ..people.moderation import reports
from .ledger import ledger_page, standing_of
from .rating import history_of, ratings_of


class Pseudonyms:
    """``p_<16 hex>`` for players, ``t_<16 hex>`` for tables: HMAC-SHA256 under ``key``."""

    def __init__(self, key: str) -> None:
        self.key = key.encode()

    def __call__(self, kind: str, value: str | None) -> str | None:
        if value is None:
            return None
        digest = hmac.new(self.key, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()
        return f"{kind}_{digest[:16]}"


def _day(at: float | None) -> float | None:
    """The UTC midnight before ``at``: a private match's day, not its moment."""
    return None if at is None else float(int(at // 86400) * 86400)


def _record(row: st.TableRow, departures: list[dict[str, Any]], anonymize: bool, name: Pseudonyms
            ) -> dict[str, Any]:
    """One finished match as the export writes it (the module's docstring says what is hidden how)."""
    hidden = anonymize and row.private
    start = row.started_at if row.started_at is not None else (row.actions[0][2] if row.actions else 0.0)

    def pseudonym(pid: str) -> str:
        return name("p", f"{row.id}/{pid}" if hidden else pid) or ""

    def when(at: float | None) -> float | None:
        """Exact for a public match; for a private one, seconds since its start."""
        return at if at is None or not hidden else round(at - start, 3)

    def who(pid: str | None, nickname: str | None) -> dict[str, Any] | None:
        if pid is None:
            return None
        return {"id": pseudonym(pid)} if anonymize else {"id": pid, "nickname": nickname}

    return {
        "table": name("t", row.id) if anonymize else row.id,
        "private": bool(row.private),
        "game": row.game, "config": row.config, "seed": row.seed, "deal": row.deal,
        "turn_seconds": row.turn_seconds, "claim_seconds": row.claim_seconds,
        "started_at": _day(row.started_at) if hidden else row.started_at,
        "finished_at": _day(row.finished_at) if hidden else row.finished_at,
        "actions": [[seat, action] for seat, action, _at in row.actions],
        "times": [when(at) for _seat, _action, at in row.actions],
        "seats": [{"seat": s.seat, "player": who(s.player_id, s.nickname), "bot": s.bot,
                   "replaced": s.replaced} for s in row.seats],
        "departures": [{"seat": d["seat"], "move": d["move"], "at": when(d["at"]), "reason": d["reason"],
                        "player": (pseudonym(d["player_id"]) if anonymize and d["player_id"] else
                                   d["player_id"])}
                       for d in departures],
        "result": row.result,
    }


def export_records(c: Connection, *, anonymize: bool, key: str, game: str | None = None) -> Iterator[dict[str, Any]]:
    """Every finished match, oldest first, as JSON-ready dicts."""
    name = Pseudonyms(key)
    q = select(st.card_tables.c.id).where(st.card_tables.c.status == "finished")
    if game is not None:
        q = q.where(st.card_tables.c.game == game)
    ids = [r.id for r in c.execute(q.order_by(st.card_tables.c.finished_at, st.card_tables.c.id))]
    for tid in ids:
        for row in st.load_tables(c, table_id=tid):
            departures = st.load_departures(c, tid)

            yield _record(row, departures, anonymize, name)


def write_jsonl(c: Connection, out: Any, **options: Any) -> int:
    """Write ``export_records`` to the text stream ``out``, one line each; how many were written."""
    n = 0
    for record in export_records(c, **options):
        out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
        n += 1
    return n


def player_data(c: Connection, player_id: str, at: float) -> dict[str, Any] | None:
    """Everything the room keeps about one player, for them to download (never a hash or a token)."""
    p = c.execute(select(st.players).where(st.players.c.id == player_id)).mappings().first()
    if p is None:
        return None
    account = c.execute(select(accounts.c.username, accounts.c.created_at, accounts.c.password_changed_at)
                        .where(accounts.c.player_id == player_id)).mappings().first()
    entries: list[dict[str, Any]] = []
    before: int | None = None
    while True:
        page, before = ledger_page(c, player_id, before=before, limit=500)
        entries.extend(page)
        if before is None:
            break
    seat_q = (select(st.seats.c.table_id, st.seats.c.seat, st.seats.c.replaced, st.card_tables.c.game,
                     st.card_tables.c.status, st.card_tables.c.created_at, st.card_tables.c.started_at,
                     st.card_tables.c.finished_at, st.card_tables.c.result, st.card_tables.c.number,
                     st.card_tables.c.rated)
              .select_from(st.seats.join(st.card_tables, st.card_tables.c.id == st.seats.c.table_id))
              .where(st.seats.c.player_id == player_id).order_by(st.card_tables.c.created_at))
    tables = [{**dict(r), "result": json.loads(r["result"]) if r["result"] else None}
              for r in c.execute(seat_q).mappings()]
    filed = [dict(r) for r in c.execute(
        select(reports.c.id, reports.c.at, reports.c.table_id, reports.c.seat, reports.c.reason, reports.c.status)
        .where(reports.c.reporter_id == player_id).order_by(reports.c.id)).mappings()]
    sess = [dict(r) for r in c.execute(
        select(sessions.c.kind, sessions.c.created_at, sessions.c.last_seen, sessions.c.expires_at)
        .where(sessions.c.player_id == player_id).order_by(sessions.c.created_at)).mappings()]
    return {"exported_at": at,
            "player": {"id": p["id"], "nickname": p["nickname"], "created_at": p["created_at"],
                       "banned_at": p["banned_at"], "deleted_at": p["deleted_at"]},
            "account": None if account is None else dict(account),
            "standing": standing_of(c, player_id), "ratings": ratings_of(c, player_id),
            "rating_history": history_of(c, player_id), "ledger": entries, "tables": tables,
            "reports_filed": filed, "sessions": sess, "addresses": [
                {"table": r.table_id, "address": r.address, "at": r.at} for r in c.execute(
                    select(st.addresses).where(st.addresses.c.player_id == player_id,
                                               st.addresses.c.at >= at - st.ADDRESS_DAYS * 86400.0)
                    .order_by(st.addresses.c.id))]}
