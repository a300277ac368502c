"""Scores: the ledger, the pages' platform scoring, the series sheet and the data export.

Owns: ``ledger.py`` (the append-only entries and standings), ``scoring.py`` (what a finished match or an
escape books), ``series.py`` (the score sheet over rematches) and ``export.py`` (records for researchers, a
person's own data).
May import: ``storage``, the base modules and the game core, and sideways ``room`` (a finished table's record
is replayed through ``room.store.replay_game``; the series reads live tables) and ``people`` (an entry names
an account; the export gathers a person's account and reports).  The room never imports scores: the app
hands it the bookings as ``StoreHooks``.
"""
