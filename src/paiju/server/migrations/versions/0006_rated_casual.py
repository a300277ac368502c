"""Rated and casual matches, the person's own decisions, the addresses for collusion signals (issue 34).

Revision ID: 0006
Revises: 0005
Create Date: 2027-01-15

- ``card_tables.rated``: True rated (books), False casual (books nothing), NULL while a table waits.
- ``actions.person``: the seat's person sent the move (NULL on moves stored before: unknown, taken as theirs).
- ``addresses``: the client address a person sat down from, kept at most 30 days.

Backfill: every table that has started counts as rated if the stored seating shows a person in every seat at
its first move — each seat row keeps the id of the person who sat there at the start (a bot that took their
seat later sits beside that id), so a seat with no player id was a bot's from the start — and as casual
otherwise.  The ledger is not touched: entries booked for matches now casual stay (append-only).
"""

from __future__ import annotations

from collections import defaultdict

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("card_tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=True))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("person", sa.Boolean, nullable=True))
    op.create_table(
        "addresses",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("card_tables.id"), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_addresses_player", "addresses", ["player_id"])
    op.create_index("ix_addresses_table", "addresses", ["table_id"])
    op.create_index("ix_addresses_at", "addresses", ["at"])
    backfill(op.get_bind())


def backfill(conn: sa.Connection) -> None:
    """Rated if a person held every seat at the start, else casual, for every table that has started."""
    tables = sa.table("card_tables", sa.column("id", sa.String), sa.column("status", sa.String),
                      sa.column("rated", sa.Boolean))
    seats = sa.table("seats", sa.column("table_id", sa.String), sa.column("player_id", sa.String))
    people: dict[str, bool] = defaultdict(lambda: True)
    started = sa.select(tables.c.id).where(tables.c.status.in_(("playing", "finished", "closed")))
    for r in conn.execute(sa.select(seats.c.table_id, seats.c.player_id).where(seats.c.table_id.in_(started))):
        people[r.table_id] = people[r.table_id] and r.player_id is not None
    for rated in (True, False):
        ids = sorted(t for t, ok in people.items() if ok == rated)
        for i in range(0, len(ids), 500):
            conn.execute(sa.update(tables).where(tables.c.id.in_(ids[i:i + 500])).values(rated=rated))


def downgrade() -> None:
    op.drop_table("addresses")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("person")
    with op.batch_alter_table("card_tables") as batch:
        batch.drop_column("rated")
