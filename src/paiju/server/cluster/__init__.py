"""Several workers of one room on one PostgreSQL and one Redis: leases, ownership, the relay, shared counts.

Owns: ``RedisCluster`` and its parts (docs/server.md, "Several workers").
May import: ``storage``, the base modules, the game core, and sideways ``room`` — the cluster replays,
serves and relays tables.  The room knows the cluster only as ``room.ownership.Cluster``, the single
process's no-op that ``RedisCluster`` extends.
"""
