"""Alembic migrations of the card room's schema, run at start-up by ``storage.migrate``."""
