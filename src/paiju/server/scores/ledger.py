"""The ledger: an append-only list of score entries per player and game, with the running balance.

Nothing here is ever updated in place except ``standings``, the per-(player, game) running total that
serialises bookings: a booking locks its players' standings rows (``SELECT … FOR UPDATE`` on PostgreSQL;
SQLite's single writer does the same for free), reads each balance, and appends entries whose ``balance``
is the previous one plus ``points`` — all in one transaction, so two matches of one player ending at once,
in one process or two, are booked one after the other and no update is lost.  ``(player, game, n)`` is
unique, so even a booking that skipped the lock could not write a second entry number ``n``.

Every entry names its cause in ``ref`` (unique per player): booking the same match or the same escape twice
books it once, which is what lets a restarted process finish bookings a crash cut short.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    func,
    insert,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from ..storage import card_tables, metadata, players

ledger = Table(
    "ledger", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("game", String(32), nullable=False),
    Column("table_id", String(32), ForeignKey("card_tables.id"), nullable=True),
    Column("n", Integer, nullable=False),  # this player's n-th entry in this game, from 1
    Column("at", Float, nullable=False),
    Column("points", BigInteger, nullable=False),
    Column("reason", String(24), nullable=False),
    Column("balance", BigInteger, nullable=False),
    Column("ref", String(96), nullable=False),  # the cause: "match:<table>", "escape:<table>:<departure>", …
    Column("note", Text, nullable=True),  # JSON: the raw score, the base, voided hands, …
    UniqueConstraint("player_id", "game", "n", name="uq_ledger_player_game_n"),
    UniqueConstraint("player_id", "ref", name="uq_ledger_player_ref"),
    Index("ix_ledger_player", "player_id", "id"),
    Index("ix_ledger_table", "table_id"),
)

standings = Table(
    "standings", metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("score", BigInteger, nullable=False),  # X, the balance of the player's latest entry in the game
    Column("matches", Integer, nullable=False),
    Column("entries", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_standings_game_score", "game", "score"),
)

table_scoring = Table(
    "table_scoring", metadata,
    Column("table_id", String(32), ForeignKey("card_tables.id"), primary_key=True),
    Column("escape", String(16), nullable=True),  # the table's escape rule; None: the game's default
    Column("booked_at", Float, nullable=True),  # when the match's entries were booked (None: not yet)
    Column("rematch_of", String(32), nullable=True),  # the table whose players asked for this one
)

MATCH_REASONS = ("match", "under_3_minutes")
"""Entries that count as a match played (``standings.matches``)."""

BASE_TABLE: tuple[tuple[int, int], ...] = (
    (20, 1), (40, 2), (80, 3), (120, 4), (200, 5), (400, 10), (800, 15), (1200, 18),
    (2000, 20), (5000, 50), (8000, 60), (12000, 70), (16000, 80), (20000, 100), (50000, 150),
)
"""The 升级 page's 等级基础分: X below the bound → that base; X ≥ 50000 → 200."""
TOP_BASE = 200


def base_score(x: int) -> int:
    """等级基础分 for an accumulated score X (a negative X is below 20: base 1)."""
    for bound, base in BASE_TABLE:
        if x < bound:
            return base
    return TOP_BASE


@dataclass(frozen=True)
class Claim:
    """One entry to book: ``score`` × the player's base when ``by_base``, else ``score`` as it is."""

    player_id: str
    game: str
    table_id: str | None
    reason: str
    ref: str
    score: float
    by_base: bool = True
    note: dict[str, Any] = field(default_factory=dict)


@dataclass
class Entry:
    player_id: str
    game: str
    table_id: str | None
    n: int
    at: float
    points: int
    reason: str
    balance: int
    ref: str
    note: dict[str, Any]


def _insert_missing(conn: Connection, keys: list[tuple[str, str]], at: float) -> None:
    rows = [{"player_id": p, "game": g, "score": 0, "matches": 0, "entries": 0, "updated_at": at} for p, g in keys]
    name = conn.dialect.name
    if name == "postgresql":
        conn.execute(postgresql.insert(standings).on_conflict_do_nothing(), rows)
    elif name == "sqlite":
        conn.execute(sqlite.insert(standings).on_conflict_do_nothing(), rows)
    else:  # pragma: no cover - the card room runs on the two above
        have = {(r.player_id, r.game) for r in conn.execute(select(standings.c.player_id, standings.c.game))}
        missing = [r for r in rows if (r["player_id"], r["game"]) not in have]
        if missing:
            conn.execute(insert(standings), missing)


def book(conn: Connection, claims: Sequence[Claim], at: float) -> list[Entry]:
    """Append the claims' entries, in order, inside the caller's transaction; claims already booked (same
    player and ``ref``) are skipped.  Returns the entries written."""
    if not claims:
        return []
    keys = sorted({(c.player_id, c.game) for c in claims})
    _insert_missing(conn, keys, at)  # a write first: SQLite takes its write lock here, before any read
    q = (select(standings).where(tuple_(standings.c.player_id, standings.c.game).in_(keys))
         .order_by(standings.c.player_id, standings.c.game).with_for_update())
    rows = {(r.player_id, r.game): dict(r._mapping) for r in conn.execute(q)}
    pids = sorted({c.player_id for c in claims})
    refs = sorted({c.ref for c in claims})
    done = {(r.player_id, r.ref) for r in conn.execute(
        select(ledger.c.player_id, ledger.c.ref).where(ledger.c.player_id.in_(pids), ledger.c.ref.in_(refs)))}
    out: list[Entry] = []
    for c in claims:
        if (c.player_id, c.ref) in done:
            continue
        done.add((c.player_id, c.ref))
        s = rows[(c.player_id, c.game)]
        base = base_score(int(s["score"]))
        points = round(c.score * base) if c.by_base else round(c.score)
        s["score"] = int(s["score"]) + points
        s["entries"] = int(s["entries"]) + 1
        if c.reason in MATCH_REASONS:
            s["matches"] = int(s["matches"]) + 1
        s["updated_at"] = at
        s["dirty"] = True
        note = {"score": c.score, "base": base if c.by_base else None, **c.note}
        out.append(Entry(c.player_id, c.game, c.table_id, s["entries"], at, points, c.reason, s["score"], c.ref,
                         note))
    if out:
        conn.execute(insert(ledger), [
            {"player_id": e.player_id, "game": e.game, "table_id": e.table_id, "n": e.n, "at": e.at,
             "points": e.points, "reason": e.reason, "balance": e.balance, "ref": e.ref,
             "note": json.dumps(e.note, ensure_ascii=False)} for e in out])
        for (pid, game), s in rows.items():
            if s.pop("dirty", False):
                conn.execute(update(standings).where(standings.c.player_id == pid, standings.c.game == game)
                             .values(score=s["score"], matches=s["matches"], entries=s["entries"],
                                     updated_at=at))
    return out


# ---- reading back ----------------------------------------------------------------------------------------

def player_dict(pid: str, nickname: str, deleted_at: float | None, has_account: bool | None = None
                ) -> dict[str, Any]:
    out: dict[str, Any] = {"id": pid, "nickname": nickname}
    if deleted_at is not None:
        out["deleted"] = True
    if has_account is not None:
        out["account"] = has_account
    return out


def encode_cursor(data: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode().rstrip("=")


def decode_cursor(cursor: str | None) -> Any:
    if not cursor:
        return None
    try:
        return json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, UnicodeDecodeError):
        return None


def standing_of(conn: Connection, player_id: str) -> dict[str, dict[str, int]]:
    q = select(standings).where(standings.c.player_id == player_id, standings.c.entries > 0) \
        .order_by(standings.c.game)
    return {r.game: {"score": int(r.score), "base": base_score(int(r.score)), "matches": int(r.matches)}
            for r in conn.execute(q)}


def ledger_page(conn: Connection, player_id: str, *, before: int | None, limit: int,
                game: str | None = None) -> tuple[list[dict[str, Any]], int | None]:
    """Newest first; each entry with its match's seats and result when it names a table."""
    q = select(ledger).where(ledger.c.player_id == player_id)
    if game is not None:
        q = q.where(ledger.c.game == game)
    if before is not None:
        q = q.where(ledger.c.id < before)
    rows = list(conn.execute(q.order_by(ledger.c.id.desc()).limit(limit + 1)).mappings())
    more = len(rows) > limit
    rows = rows[:limit]
    matches = _matches(conn, {r["table_id"] for r in rows if r["table_id"]})
    out = []
    for r in rows:
        note = json.loads(r["note"]) if r["note"] else {}
        out.append({"id": r["id"], "table": r["table_id"], "game": r["game"], "at": r["at"], "points": r["points"],
                    "reason": r["reason"], "balance": r["balance"], "note": note,
                    "match": matches.get(r["table_id"]) if r["table_id"] else None})
    return out, (rows[-1]["id"] if more and rows else None)


def history_page(conn: Connection, player_id: str, *, before: list[Any] | None, limit: int,
                 game: str | None = None) -> tuple[list[dict[str, Any]], list[Any] | None]:
    """A player's history, newest first: the ledger's entries and the casual matches they played, which book
    nothing and so are in no entry (issue 34: casual matches go into the history, marked casual).

    One order over both, (time, kind, key) descending — an entry's time and id (kind 1), a casual match's end
    and table id (kind 0) — so one cursor, the last item's key, pages through both without gaps or repeats."""
    from ..storage import seats

    def after(at: Any, kind: int, key: Any) -> Any:
        """Items strictly after the cursor in the descending order (the cursor is the previous page's last)."""
        if before is None:
            return None
        c_at, c_kind, c_key = before
        tie = (kind < c_kind) if kind != c_kind else key < c_key
        return or_(at < c_at, and_(at == c_at, tie))

    q = select(ledger).where(ledger.c.player_id == player_id)
    if game is not None:
        q = q.where(ledger.c.game == game)
    if (cond := after(ledger.c.at, 1, ledger.c.id)) is not None:
        q = q.where(cond)
    booked = list(conn.execute(q.order_by(ledger.c.at.desc(), ledger.c.id.desc()).limit(limit + 1)).mappings())
    t = card_tables
    q2 = (select(t.c.id, t.c.game, t.c.finished_at).select_from(t.join(seats, seats.c.table_id == t.c.id))
          .where(seats.c.player_id == player_id, t.c.rated.is_(False), t.c.status == "finished",
                 t.c.finished_at.is_not(None)))
    if game is not None:
        q2 = q2.where(t.c.game == game)
    if (cond := after(t.c.finished_at, 0, t.c.id)) is not None:
        q2 = q2.where(cond)
    casual = list(conn.execute(q2.order_by(t.c.finished_at.desc(), t.c.id.desc()).limit(limit + 1)))
    items: list[tuple[tuple[float, int, Any], Any]] = [((r["at"], 1, r["id"]), r) for r in booked]
    items += [((r.finished_at, 0, r.id), r) for r in casual]
    items.sort(key=lambda x: x[0], reverse=True)
    page = items[:limit]
    matches = _matches(conn, {r["table_id"] for k, r in page if k[1] == 1 and r["table_id"]}
                       | {r.id for k, r in page if k[1] == 0})
    out: list[dict[str, Any]] = []
    for key, r in page:
        if key[1] == 1:
            note = json.loads(r["note"]) if r["note"] else {}
            out.append({"id": r["id"], "table": r["table_id"], "game": r["game"], "at": r["at"],
                        "points": r["points"], "reason": r["reason"], "balance": r["balance"], "note": note,
                        "match": matches.get(r["table_id"]) if r["table_id"] else None})
        else:  # books nothing: no points, no balance; the match as for an entry
            out.append({"id": None, "table": r.id, "game": r.game, "at": r.finished_at, "points": None,
                        "reason": "casual", "balance": None, "note": {}, "match": matches.get(r.id),
                        "casual": True})
    nxt = list(page[-1][0]) if len(items) > limit and page else None
    return out, nxt


def _matches(conn: Connection, table_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Each table's seats (who, bot or person) and final scores, for a history list."""
    from ..storage import seats

    ids = sorted(table_ids)
    if not ids:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for r in conn.execute(select(card_tables.c.id, card_tables.c.result, card_tables.c.private,
                                 card_tables.c.finished_at, card_tables.c.status, card_tables.c.rated)
                          .where(card_tables.c.id.in_(ids))):
        result = json.loads(r.result) if r.result else None
        out[r.id] = {"status": r.status, "private": bool(r.private), "finished_at": r.finished_at,
                     "rated": r.rated,
                     "scores": result.get("scores") if isinstance(result, dict) else None, "seats": []}
    q = (select(seats.c.table_id, seats.c.seat, seats.c.player_id, seats.c.bot, seats.c.replaced, players.c.nickname)
         .select_from(seats.outerjoin(players, seats.c.player_id == players.c.id))
         .where(seats.c.table_id.in_(ids)).order_by(seats.c.table_id, seats.c.seat))
    for s in conn.execute(q):
        if s.table_id in out:
            out[s.table_id]["seats"].append({
                "seat": s.seat, "player": None if s.player_id is None else {"id": s.player_id, "nickname": s.nickname},
                "bot": s.bot, "replaced": s.replaced})
    return out


def leaderboard_page(conn: Connection, game: str, *, after: list[Any] | None, limit: int
                     ) -> tuple[list[dict[str, Any]], list[Any] | None]:
    """Highest score first (ties: more matches, then player id), deleted players left out."""
    from ..people.accounts import accounts

    q = (select(standings.c.player_id, standings.c.score, standings.c.matches, players.c.nickname,
                accounts.c.player_id.label("account"))
         .select_from(standings.join(players, standings.c.player_id == players.c.id)
                      .outerjoin(accounts, accounts.c.player_id == players.c.id))
         .where(standings.c.game == game, standings.c.entries > 0, players.c.deleted_at.is_(None)))
    if after is not None:
        score, matches, pid = after
        q = q.where(or_(standings.c.score < score,
                        and_(standings.c.score == score, standings.c.matches < matches),
                        and_(standings.c.score == score, standings.c.matches == matches,
                             standings.c.player_id > pid)))
    q = q.order_by(standings.c.score.desc(), standings.c.matches.desc(), standings.c.player_id).limit(limit + 1)
    rows = list(conn.execute(q))
    more = len(rows) > limit
    rows = rows[:limit]
    out = [{"player": player_dict(r.player_id, r.nickname, None, r.account is not None), "score": int(r.score),
            "matches": int(r.matches), "base": base_score(int(r.score))} for r in rows]
    nxt = [int(rows[-1].score), int(rows[-1].matches), rows[-1].player_id] if more and rows else None
    return out, nxt


def count_ranked(conn: Connection, game: str) -> int:
    q = (select(func.count()).select_from(standings.join(players, standings.c.player_id == players.c.id))
         .where(standings.c.game == game, standings.c.entries > 0, players.c.deleted_at.is_(None)))
    return int(conn.execute(q).scalar() or 0)


def check_balances(conn: Connection) -> list[str]:
    """Every entry's balance is the previous balance plus its points, every standing is its last entry's
    balance, and every ``by_base`` entry's points are its score × the base of the balance before it.
    Returns the disagreements (empty: the ledger adds up)."""
    problems: list[str] = []
    last: dict[tuple[str, str], tuple[int, int]] = {}
    q = select(ledger).order_by(ledger.c.player_id, ledger.c.game, ledger.c.n)
    for r in conn.execute(q).mappings():
        key = (r["player_id"], r["game"])
        prev_n, prev_balance = last.get(key, (0, 0))
        if r["n"] != prev_n + 1:
            problems.append(f"{key}: entry {r['n']} follows {prev_n}")
        if r["balance"] != prev_balance + r["points"]:
            problems.append(f"{key} #{r['n']}: balance {r['balance']} != {prev_balance} + {r['points']}")
        note = json.loads(r["note"]) if r["note"] else {}
        if note.get("base") is not None:
            base = base_score(prev_balance)
            if note["base"] != base or r["points"] != round(note["score"] * base):
                problems.append(f"{key} #{r['n']}: {r['points']} points is not {note['score']} × base {base}")
        last[key] = (r["n"], r["balance"])
    for r in conn.execute(select(standings)).mappings():
        n, balance = last.get((r["player_id"], r["game"]), (0, 0))
        if (r["entries"], r["score"]) != (n, balance):
            problems.append(f"standing {r['player_id']}/{r['game']}: {r['score']} after {r['entries']} entries, "
                            f"the ledger says {balance} after {n}")
    return problems
