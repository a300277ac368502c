"""The room's options of each table beyond its two windows: the deal's pace and the pause between hands.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

One nullable column: tables made before this revision take the server's defaults.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("card_tables") as batch:
        batch.add_column(sa.Column("options", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("card_tables") as batch:
        batch.drop_column("options")
