"""Alembic migrations of the card room's schema, run at start-up by ``storage.migrate``.

Owns: ``env.py`` and one revision per schema change (``versions/``).
May import: ``storage`` and, to gather the whole schema's metadata, ``people.accounts`` and ``scores.ledger``
(their tables live beside their rules).  Nothing imports it: Alembic loads it by path.
"""
