"""Players and sessions: a nickname gets a signed token naming a player id.

The token carries only the player id, signed with the server's key.  Accounts with passwords later
issue the same token after checking a password; nothing else in the card room changes.
"""

from __future__ import annotations

from itsdangerous import BadSignature, URLSafeSerializer
from starlette.requests import HTTPConnection

COOKIE = "paiju_session"
MAX_NICKNAME = 24


class Sessions:
    """Issues and checks session tokens."""

    def __init__(self, key: str) -> None:
        self._s = URLSafeSerializer(key, salt="paiju-session")

    def issue(self, player_id: str) -> str:
        return self._s.dumps({"p": player_id})

    def player_id(self, token: str | None) -> str | None:
        """The player id a token names, or None when it is missing or forged."""
        if not token:
            return None
        try:
            data = self._s.loads(token)
        except BadSignature:
            return None
        pid = data.get("p") if isinstance(data, dict) else None
        return pid if isinstance(pid, str) else None


def token_of(conn: HTTPConnection) -> str | None:
    """Bearer header first, then the ``token`` query parameter (websockets), then the cookie."""
    header = conn.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return conn.query_params.get("token") or conn.cookies.get(COOKIE)


def clean_nickname(raw: object) -> str | None:
    """A usable nickname (trimmed, 1–24 printable characters) or None."""
    if not isinstance(raw, str):
        return None
    name = " ".join(raw.split())
    if not name or len(name) > MAX_NICKNAME or not name.isprintable():
        return None
    return name
