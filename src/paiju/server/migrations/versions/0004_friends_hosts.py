"""Room numbers, bans, hosts, the hosts' log and reports (issue 14).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

Nothing existing is rewritten: ``card_tables.number`` and ``players.banned_at`` are new nullable columns (a
table made before this revision has no number: it is still reached by its id), and three tables are new.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("banned_at", sa.Float, nullable=True))
    with op.batch_alter_table("card_tables") as batch:
        batch.add_column(sa.Column("number", sa.String(6), nullable=True))
    op.create_index("ix_card_tables_number", "card_tables", ["number"])
    op.create_table(
        "hosts",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("granted_at", sa.Float, nullable=False),
        sa.Column("granted_by", sa.String(64), nullable=False),
    )
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("host_id", sa.String(32), nullable=True),
        sa.Column("host", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("detail", sa.Text, nullable=True),
    )
    op.create_index("ix_moderation_log_at", "moderation_log", ["at"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("reporter_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("handled_by", sa.String(64), nullable=True),
        sa.Column("handled_at", sa.Float, nullable=True),
    )
    op.create_index("ix_reports_status", "reports", ["status", "id"])


def downgrade() -> None:
    op.drop_index("ix_reports_status", "reports")
    op.drop_table("reports")
    op.drop_index("ix_moderation_log_at", "moderation_log")
    op.drop_table("moderation_log")
    op.drop_table("hosts")
    op.drop_index("ix_card_tables_number", "card_tables")
    with op.batch_alter_table("card_tables") as batch:
        batch.drop_column("number")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("banned_at")
