"""Alembic environment: the card room passes its own connection; no alembic.ini is needed."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from paiju.server.people import accounts  # noqa: F401  (their tables join the metadata)
from paiju.server.storage import metadata

config = context.config
connection = config.attributes.get("connection")

if connection is not None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
else:  # `alembic -x url=...` from a shell, e.g. to write a new revision
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("give the database as: alembic -x url=sqlite:///data/paiju.sqlite3 ...")
    with create_engine(url).begin() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
