"""A skill rating per person per game beside the score (issue 35).

Revision ID: 0007
Revises: 0006
Create Date: 2027-02-01

- ``ratings``: each person's μ and σ per game (openskill's Plackett–Luce) and how many rated matches made it.
- ``rating_changes``: per person per rated match, its ranking (team, rank) and μ/σ before and after, in one
  global order ``seq``; ``paiju admin rebuild-ratings`` replays them.
- ``rating_clock``: one row, the last ``seq``; a booking locks it, so two workers rate one after the other.

No backfill: matches booked before this revision were never rated (the rating starts now).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("card_tables.id"), nullable=False),
        sa.Column("team", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("sigma_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("sigma_after", sa.Float, nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("player_id", "table_id", name="uq_rating_changes_player_table"),
    )
    op.create_index("ix_rating_changes_seq", "rating_changes", ["seq"])
    op.create_index("ix_rating_changes_player", "rating_changes", ["player_id", "game", "seq"])
    op.create_index("ix_rating_changes_table", "rating_changes", ["table_id"])
    op.create_table(
        "rating_clock",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("seq", sa.BigInteger, nullable=False),
    )
    op.execute(sa.text("INSERT INTO rating_clock (id, seq) VALUES (1, 0)"))


def downgrade() -> None:
    op.drop_table("rating_clock")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
