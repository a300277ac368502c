"""Everything that outlives a request lives here: players, tables, seats, actions, departures.

The schema is created by the Alembic migrations in ``migrations/`` (run at start-up); the ``Table``
objects below describe the same schema for queries, and a test checks the two agree.

All database work runs on one writer thread (writer.py's ``Database``) that commits queued jobs in
groups, so the event loop never waits on disk and a thousand tables' moves cost a few commits a second.
A table's state is never stored as such: it is rebuilt by replaying ``actions`` on (game, config,
seed, deal), which is what lets a later step move tables between processes.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)

log = logging.getLogger("paiju.server.storage")


@dataclass(frozen=True)
class Player:
    """Who sits at tables: a player row's id and nickname (a guest's or an account's)."""

    id: str
    nickname: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "nickname": self.nickname}

metadata = MetaData()

players = Table(
    "players", metadata,
    Column("id", String(32), primary_key=True),
    Column("nickname", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("deleted_at", Float, nullable=True),  # an account deleted: the nickname is anonymised (accounts.py)
    Column("revoked_before", Float, nullable=True),  # logout-all: older signed tokens stop working
    Column("banned_at", Float, nullable=True),  # a host banned the player: no sessions, no seats (moderation.py)
)

card_tables = Table(
    "card_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("config", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("deal", Text, nullable=True),
    Column("turn_seconds", Float, nullable=False),
    Column("claim_seconds", Float, nullable=False),
    Column("private", Boolean, nullable=False),
    Column("invite", String(32), nullable=True),
    Column("owner_id", String(32), ForeignKey("players.id"), nullable=True),
    Column("status", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("started_at", Float, nullable=True),
    Column("finished_at", Float, nullable=True),
    Column("deadlines", Text, nullable=False),
    Column("result", Text, nullable=True),
    Column("options", Text, nullable=True),  # the room's options for this table (pace, next hand), JSON
    Column("number", String(6), nullable=True),  # the room number (房号, numbers.py); a rematch keeps it
    Column("owner_epoch", Integer, nullable=True),  # several workers (cluster.py): bumped at each takeover
    Column("rated", Boolean, nullable=True),  # True rated, False casual, None: not decided yet (waiting)
    Index("ix_card_tables_status", "status"),
    Index("ix_card_tables_number", "number"),
)

seats = Table(
    "seats", metadata,
    Column("table_id", String(32), ForeignKey("card_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=True),
    Column("bot", String(32), nullable=True),
    Column("replaced", String(16), nullable=True),
)

seatings = Table(
    "seatings", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("card_tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=True),
    Column("bot", String(32), nullable=True),
    Column("at", Float, nullable=False),
    Column("move", Integer, nullable=False),
    Index("ix_seatings_table", "table_id"),
)

actions = Table(
    "actions", metadata,
    Column("table_id", String(32), ForeignKey("card_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("epoch", Integer, nullable=True),  # the writer's owner epoch: PostgreSQL refuses a stale one (0005)
    Column("person", Boolean, nullable=True),  # the seat's person sent it (None: stored before 0006, unknown)
)

departures = Table(
    "departures", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("card_tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=True),
    Column("at", Float, nullable=False),
    Column("move", Integer, nullable=False),
    Column("reason", String(16), nullable=False),
    Index("ix_departures_table", "table_id"),
)

addresses = Table(
    "addresses", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("table_id", String(32), ForeignKey("card_tables.id"), nullable=False),
    Column("address", String(64), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_addresses_player", "player_id"),
    Index("ix_addresses_table", "table_id"),
    Index("ix_addresses_at", "at"),
)

ratings = Table(  # issue 35: a skill rating per person per game (scores/rating.py), beside the ledger's score
    "ratings", metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),  # rated matches played: provisional below 10
    Column("updated_at", Float, nullable=False),
    Index("ix_ratings_game", "game"),
)

rating_changes = Table(  # one row per person per rated match, in the one global order ``seq``
    "rating_changes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("seq", BigInteger, nullable=False),  # the match's place in the global order (rating_clock)
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("game", String(32), nullable=False),
    Column("table_id", String(32), ForeignKey("card_tables.id"), nullable=False),
    Column("team", Integer, nullable=False),
    Column("rank", Integer, nullable=False),  # 1 best; equal ranks tie
    Column("mu_before", Float, nullable=True),  # NULL once the account is deleted (its history removed)
    Column("sigma_before", Float, nullable=True),
    Column("mu_after", Float, nullable=True),
    Column("sigma_after", Float, nullable=True),
    Column("at", Float, nullable=False),
    UniqueConstraint("player_id", "table_id", name="uq_rating_changes_player_table"),
    Index("ix_rating_changes_seq", "seq"),
    Index("ix_rating_changes_player", "player_id", "game", "seq"),
    Index("ix_rating_changes_table", "table_id"),
)

rating_clock = Table(  # one row: the last ``seq`` handed out; locking it serialises every rating step
    "rating_clock", metadata,
    Column("id", Integer, primary_key=True),
    Column("seq", BigInteger, nullable=False),
)
"""The client address a person took a seat from: personal data kept only for the hosts' collusion signals
(scores/signals.py), at most ``ADDRESS_DAYS`` days, in the person's own data and deleted with the account."""

ADDRESS_DAYS = 30


@dataclass
class SeatRow:
    seat: int
    player_id: str | None = None
    nickname: str | None = None
    bot: str | None = None
    replaced: str | None = None


@dataclass
class TableRow:
    """A table as stored: enough to rebuild it exactly."""

    id: str
    game: str
    config: dict[str, Any]
    seed: int
    deal: Any
    turn_seconds: float
    claim_seconds: float
    private: bool
    invite: str | None
    owner_id: str | None
    status: str
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None
    deadlines: dict[int, float] = field(default_factory=dict)
    result: Any = None
    seats: list[SeatRow] = field(default_factory=list)
    actions: list[tuple[int, str, float]] = field(default_factory=list)
    last_seated: float | None = None
    """When a seat last changed (read for waiting tables only: their expiry counts from it)."""
    options: dict[str, float] = field(default_factory=dict)
    """The room's options for this table beyond its two windows (``pace_seconds``, ``next_hand_seconds``);
    a missing one takes the server's default."""
    number: str | None = None
    """The room number people type to join (6 digits), or None for tables made before numbers existed."""
    owner_epoch: int | None = None
    """Which takeover of the table this is, when several workers serve the room (cluster.py); None for a
    table one process has always served: its writes are not fenced."""
    rated: bool | None = None
    """Rated (True: it books), casual (False: it books nothing), or not decided yet (None: a waiting table
    that is rated if people fill every seat; decided at the start, room/table.py)."""


def make_engine(url: str, data_dir: Path | None = None, busy_seconds: float = 5.0) -> Engine:
    """An engine for SQLite (WAL, one writer) or PostgreSQL (psycopg).  ``busy_seconds``: how long a SQLite
    write waits for a lock another process holds before it fails (on the writer thread: the loop never waits)."""
    if url.startswith("sqlite"):
        if data_dir is not None:
            data_dir.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": busy_seconds})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


MIGRATION_LOCK = 0x7061696A75  # "paiju": the advisory lock key workers migrate under


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision.  On PostgreSQL under a transaction-scoped advisory
    lock: when several workers start at once the first migrates, the others wait and then find nothing to do."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


# ---- queries (each takes a connection inside the caller's transaction) ---------------------------------

def add_player(conn: Connection, player: Player, at: float) -> None:
    conn.execute(insert(players).values(id=player.id, nickname=player.nickname, created_at=at))


def get_player(conn: Connection, player_id: str) -> Player | None:
    row = conn.execute(select(players.c.id, players.c.nickname).where(players.c.id == player_id)).first()
    return Player(row.id, row.nickname) if row else None


def _dump_deadlines(deadlines: dict[int, float]) -> str:
    return json.dumps({str(k): v for k, v in sorted(deadlines.items())})


def add_table(conn: Connection, t: TableRow) -> None:
    conn.execute(insert(card_tables).values(
        id=t.id, game=t.game, config=json.dumps(t.config, ensure_ascii=False), seed=t.seed,
        deal=None if t.deal is None else json.dumps(t.deal, ensure_ascii=False),
        turn_seconds=t.turn_seconds, claim_seconds=t.claim_seconds, private=t.private, invite=t.invite,
        owner_id=t.owner_id, status=t.status, created_at=t.created_at,
        deadlines=_dump_deadlines(t.deadlines), **({"options": json.dumps(t.options)} if t.options else {}),
        **({"number": t.number} if t.number is not None else {}),
        **({"owner_epoch": t.owner_epoch} if t.owner_epoch is not None else {}),
        **({"rated": t.rated} if t.rated is not None else {})))
    conn.execute(insert(seats), [{"table_id": t.id, "seat": s.seat, "player_id": s.player_id, "bot": s.bot,
                                  "replaced": s.replaced} for s in t.seats])


def set_seat(conn: Connection, table_id: str, s: SeatRow, at: float, move: int) -> None:
    """The seat's occupant now, and the same appended to the seating history."""
    conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == s.seat)
                 .values(player_id=s.player_id, bot=s.bot, replaced=s.replaced))
    conn.execute(insert(seatings).values(table_id=table_id, seat=s.seat, player_id=s.player_id, bot=s.bot,
                                         at=at, move=move))


def add_departure(conn: Connection, table_id: str, seat: int, player_id: str | None, at: float, move: int,
                  reason: str) -> None:
    conn.execute(insert(departures).values(table_id=table_id, seat=seat, player_id=player_id, at=at, move=move,
                                           reason=reason))


def set_status(conn: Connection, table_id: str, status: str, at: float, deadlines: dict[int, float],
               result: Any = None, rated: bool | None = None) -> None:
    values: dict[str, Any] = {"status": status, "deadlines": _dump_deadlines(deadlines)}
    if status == "playing":
        values["started_at"] = at
    if rated is not None:
        values["rated"] = rated
    if status == "finished":
        values["finished_at"] = at
        values["result"] = json.dumps(result, ensure_ascii=False)
    conn.execute(update(card_tables).where(card_tables.c.id == table_id).values(**values))


def action_row(table_id: str, n: int, seat: int, action: str, at: float, person: bool | None = None
               ) -> dict[str, Any]:
    """Move ``n`` (1-based) of a table, for :meth:`Database.insert` into ``actions``; ``person``: the seat's
    person sent it (not a bot, a timeout or the room)."""
    row = {"table_id": table_id, "n": n, "seat": seat, "action": action, "at": at}
    if person is not None:
        row["person"] = person
    return row


def set_rated(conn: Connection, table_id: str, rated: bool | None) -> None:
    """A waiting table's creator marks it casual (False) or back to rated if filled by people (None)."""
    conn.execute(update(card_tables).where(card_tables.c.id == table_id).values(rated=rated))


def note_address_row(conn: Connection, player_id: str, table_id: str, address: str, at: float) -> None:
    """The address a person took a seat from (for the hosts' collusion signals); rows past their days go."""
    conn.execute(insert(addresses).values(player_id=player_id, table_id=table_id, address=address[:64], at=at))
    purge_addresses(conn, at)


def purge_addresses(conn: Connection, now: float) -> int:
    """Forget every address older than ``ADDRESS_DAYS`` days; how many rows went."""
    return conn.execute(delete(addresses).where(addresses.c.at < now - ADDRESS_DAYS * 86400.0)).rowcount or 0


def add_action(conn: Connection, row: dict[str, Any]) -> None:
    conn.execute(insert(actions).values(**row))


def finish(conn: Connection, table_id: str, at: float, result: Any) -> None:
    conn.execute(update(card_tables).where(card_tables.c.id == table_id).values(
        status="finished", finished_at=at, deadlines="{}", result=json.dumps(result, ensure_ascii=False)))


def expire_table(conn: Connection, table_id: str) -> None:
    """A waiting table nobody joined: kept in the database (its id stays taken), never restored."""
    conn.execute(update(card_tables).where(card_tables.c.id == table_id, card_tables.c.status == "waiting")
                 .values(status="expired"))
def close(conn: Connection, table_id: str, at: float, why: dict[str, Any]) -> None:
    """A host closed the table: it stops where it is, never booked, never restored."""
    conn.execute(update(card_tables).where(card_tables.c.id == table_id).values(
        status="closed", finished_at=at, deadlines="{}", result=json.dumps({"closed": why}, ensure_ascii=False)))


def set_deadlines(conn: Connection, table_id: str, deadlines: dict[int, float]) -> None:
    conn.execute(update(card_tables).where(card_tables.c.id == table_id)
                 .values(deadlines=_dump_deadlines(deadlines)))


def load_tables(conn: Connection, *, table_id: str | None = None, unfinished: bool = False) -> list[TableRow]:
    """Tables with their seats (and nicknames) and every action, in order."""
    q = select(card_tables)
    if table_id is not None:
        q = q.where(card_tables.c.id == table_id)
    if unfinished:  # waiting or playing: neither finished nor closed by a host
        q = q.where(card_tables.c.status.in_(("waiting", "playing")))
    out: list[TableRow] = []
    for r in conn.execute(q.order_by(card_tables.c.created_at)).mappings():
        t = TableRow(
            id=r["id"], game=r["game"], config=json.loads(r["config"]), seed=int(r["seed"]),
            deal=None if r["deal"] is None else json.loads(r["deal"]), turn_seconds=r["turn_seconds"],
            claim_seconds=r["claim_seconds"], private=bool(r["private"]), invite=r["invite"],
            owner_id=r["owner_id"], status=r["status"], created_at=r["created_at"], started_at=r["started_at"],
            finished_at=r["finished_at"],
            deadlines={int(k): float(v) for k, v in json.loads(r["deadlines"]).items()},
            result=None if r["result"] is None else json.loads(r["result"]),
            options={} if r["options"] is None else json.loads(r["options"]), number=r["number"],
            owner_epoch=r["owner_epoch"], rated=r["rated"])
        seat_q = (select(seats.c.seat, seats.c.player_id, seats.c.bot, seats.c.replaced, players.c.nickname)
                  .select_from(seats.outerjoin(players, seats.c.player_id == players.c.id))
                  .where(seats.c.table_id == t.id).order_by(seats.c.seat))
        t.seats = [SeatRow(s.seat, s.player_id, s.nickname, s.bot, s.replaced) for s in conn.execute(seat_q)]
        if t.status == "waiting":
            t.last_seated = conn.execute(select(func.max(seatings.c.at)).where(seatings.c.table_id == t.id)).scalar()
        act_q = select(actions.c.seat, actions.c.action, actions.c.at).where(actions.c.table_id == t.id)
        t.actions = [(a.seat, a.action, a.at) for a in conn.execute(act_q.order_by(actions.c.n))]
        out.append(t)
    return out


FENCED = "paiju_fenced"
"""In the error a stale owner's write gets (the trigger of migration 0005, or :func:`check_epoch`)."""


class Fenced(Exception):
    """This worker's epoch for a table is no longer the table's: another worker has taken it over."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"{FENCED}: table {table_id} has a newer owner")


def is_fenced(e: BaseException) -> bool:
    return isinstance(e, Fenced) or FENCED in str(e)


def check_epoch(conn: Connection, table_id: str, epoch: int) -> None:
    """Fail unless ``epoch`` is still the table's, and hold the row shared until this transaction commits, so a
    takeover (an ``UPDATE`` of the row) waits for this write and every write after it fails."""
    q = select(card_tables.c.owner_epoch).where(card_tables.c.id == table_id)
    if conn.dialect.name == "postgresql":
        q = q.with_for_update(read=True)
    if conn.execute(q).scalar() != epoch:
        raise Fenced(table_id)


def take_over(conn: Connection, table_id: str) -> TableRow | None:
    """A new owner epoch for the table, then the table as stored under it: every write of the previous owner
    either committed before this (and is replayed) or fails after it."""
    epoch = conn.execute(update(card_tables).where(card_tables.c.id == table_id,
                                                   card_tables.c.status.in_(("waiting", "playing")))
                         .values(owner_epoch=func.coalesce(card_tables.c.owner_epoch, 0) + 1)
                         .returning(card_tables.c.owner_epoch)).scalar()
    if epoch is None:
        return None
    rows = load_tables(conn, table_id=table_id)
    return rows[0] if rows else None


def unfinished_ids(conn: Connection) -> list[str]:
    q = select(card_tables.c.id).where(card_tables.c.status.in_(("waiting", "playing")))
    return [r.id for r in conn.execute(q.order_by(card_tables.c.created_at))]


def load_departures(conn: Connection, table_id: str) -> list[dict[str, Any]]:
    q = select(departures).where(departures.c.table_id == table_id).order_by(departures.c.id)
    return [dict(r) for r in conn.execute(q).mappings()]
