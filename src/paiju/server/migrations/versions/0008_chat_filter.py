"""The hosts' chat filter and reports that point at a chat line (issue 38).

Revision ID: 0008
Revises: 0007
Create Date: 2027-03-01

- ``chat_filter``: the words hosts filter out of free-text chat, each kept as its skeleton (letters and
  digits, NFKC, case folded: room/chatfilter.py), with who added it and when.
- ``reports.chat``: the chat line a report points at ({text, at} as JSON), its signature checked when filed.

No backfill: earlier reports point at no line.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "chat_filter",
        sa.Column("word", sa.String(64), primary_key=True),
        sa.Column("added_at", sa.Float, nullable=False),
        sa.Column("added_by", sa.String(64), nullable=False),
    )
    with op.batch_alter_table("reports") as batch:
        batch.add_column(sa.Column("chat", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("reports") as batch:
        batch.drop_column("chat")
    op.drop_table("chat_filter")
