"""The first schema: players, tables, seats and their history, actions, departures.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("nickname", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "card_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("deal", sa.Text, nullable=True),
        sa.Column("turn_seconds", sa.Float, nullable=False),
        sa.Column("claim_seconds", sa.Float, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("invite", sa.String(32), nullable=True),
        sa.Column("owner_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("deadlines", sa.Text, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
    )
    op.create_index("ix_card_tables_status", "card_tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("card_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("replaced", sa.String(16), nullable=True),
    )
    op.create_table(
        "seatings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("card_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("move", sa.Integer, nullable=False),
    )
    op.create_index("ix_seatings_table", "seatings", ["table_id"])
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("card_tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "departures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("card_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("move", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
    )
    op.create_index("ix_departures_table", "departures", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_departures_table", "departures")
    op.drop_table("departures")
    op.drop_table("actions")
    op.drop_index("ix_seatings_table", "seatings")
    op.drop_table("seatings")
    op.drop_table("seats")
    op.drop_index("ix_card_tables_status", "card_tables")
    op.drop_table("card_tables")
    op.drop_table("players")
