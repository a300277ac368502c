"""How people reach a table: quick match today.

Owns: ``quick.py`` (快速开始: the fullest waiting quick table, or a new one that bots fill after a while).
May import: ``room``, ``people``, ``scores``, ``cluster``, ``storage``, the base modules and the game core —
it opens tables (room), sets their escape rule (scores) and shares its waiting list across workers
(cluster).  Only the HTTP layer and the top (``cli``, the package) import it.
"""
