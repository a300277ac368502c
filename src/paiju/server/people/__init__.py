"""People who come back: accounts, sessions and their tokens, hosts, bans, reports.

Owns: ``accounts.py`` (registration, argon2 hashes, stored sessions), ``auth.py`` (the session cookie, signed
tokens of older versions, nicknames) and ``moderation.py`` (hosts, bans, the moderation log, reports).
May import: ``storage``, the base modules (``settings``, ``errors``, ``limits``) and the game core — nothing of
tables, scores, the cluster or HTTP, so who a person is never depends on where they sit.
"""
