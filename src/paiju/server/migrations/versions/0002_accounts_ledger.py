"""Accounts, stored sessions, the ledger and standings, each table's scoring rule.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

Nothing existing is rewritten: two nullable columns join ``players`` and five tables are new.  Tables that
finished before this revision are booked into the ledger by the server at its next start (oldest first,
``scoring.book_pending``), so the players' history begins with their first match, not with the upgrade.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("deleted_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("revoked_before", sa.Float, nullable=True))
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("password_changed_at", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("card_tables.id"), nullable=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("points", sa.BigInteger, nullable=False),
        sa.Column("reason", sa.String(24), nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.Column("ref", sa.String(96), nullable=False),
        sa.Column("note", sa.Text, nullable=True),
        sa.UniqueConstraint("player_id", "game", "n", name="uq_ledger_player_game_n"),
        sa.UniqueConstraint("player_id", "ref", name="uq_ledger_player_ref"),
    )
    op.create_index("ix_ledger_player", "ledger", ["player_id", "id"])
    op.create_index("ix_ledger_table", "ledger", ["table_id"])
    op.create_table(
        "standings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("score", sa.BigInteger, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("entries", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_standings_game_score", "standings", ["game", "score"])
    op.create_table(
        "table_scoring",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("card_tables.id"), primary_key=True),
        sa.Column("escape", sa.String(16), nullable=True),
        sa.Column("booked_at", sa.Float, nullable=True),
        sa.Column("rematch_of", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("table_scoring")
    op.drop_index("ix_standings_game_score", "standings")
    op.drop_table("standings")
    op.drop_index("ix_ledger_table", "ledger")
    op.drop_index("ix_ledger_player", "ledger")
    op.drop_table("ledger")
    op.drop_index("ix_sessions_player", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("revoked_before")
        batch.drop_column("deleted_at")
