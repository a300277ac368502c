"""The tables: one owner per table, its seats, clock, bots, clients and writes (docs/server.md, "How the room is
built").

Owns: ``Room`` (every live table of this process) and ``CardTable`` (one table's flows under its lock), and the
parts each table runs on — seats, clock, bots and their search workers, the broadcaster and connections, the
store of its writes, room numbers, table talk, and the ``Cluster`` interface a table holds.
May import: ``storage``, the base modules (``settings``, ``errors``, ``limits``) and the game core.  Never the
scores, people, cluster or HTTP layers: the ledger hears of a finished match or an escape through
``StoreHooks`` (store.py), which the app fills in; the other workers are reached through ``ownership.Cluster``.
"""
