"""Several workers on one database (issue 17): an owner epoch per table, and a fence on every stored move.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

``card_tables.owner_epoch`` is bumped by each worker that takes a table over (cluster.py); every move a
worker stores carries the epoch it holds (``actions.epoch``).  On PostgreSQL a trigger refuses a move whose
epoch is not the table's, holding the table's row shared until the move commits, so a takeover waits for the
moves already on their way and every later move of the old owner fails.  Both columns are nullable: a table
one process serves has no epoch and its moves are not checked (SQLite has no trigger: one process only).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None

FENCE = """
CREATE OR REPLACE FUNCTION paiju_fence() RETURNS trigger AS $$
BEGIN
    IF NEW.epoch IS NOT NULL THEN
        PERFORM 1 FROM card_tables WHERE id = NEW.table_id AND owner_epoch = NEW.epoch FOR SHARE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'paiju_fenced: table % has a newer owner than epoch %', NEW.table_id, NEW.epoch;
        END IF;
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
"""


def upgrade() -> None:
    with op.batch_alter_table("card_tables") as batch:
        batch.add_column(sa.Column("owner_epoch", sa.Integer, nullable=True))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute(FENCE)
        op.execute("CREATE TRIGGER actions_fence BEFORE INSERT ON actions FOR EACH ROW EXECUTE FUNCTION paiju_fence()")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS actions_fence ON actions")
        op.execute("DROP FUNCTION IF EXISTS paiju_fence()")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("epoch")
    with op.batch_alter_table("card_tables") as batch:
        batch.drop_column("owner_epoch")
