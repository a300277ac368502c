"""Accounts and sessions: people who come back.

A *player* is what sits at tables (``players``); a guest is a player with a nickname only.  An *account*
gives a player a username and an argon2id password hash, so the same player can log in from anywhere;
a guest turns into an account by registering while playing as that guest, keeping its id and so its
history.  A *session* is an opaque random token; the database keeps only its SHA-256, with a sliding
expiry, so any process on the same database honours it and a logout ends it everywhere.

Tokens signed by earlier versions (``auth.Sessions``, before sessions were stored) still work: the first
use stores them like any other session, and ``logout-all`` ends them for good (``players.revoked_before``).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Column, Connection, Float, ForeignKey, Index, String, Table, delete, insert, select, update

from ..errors import ErrorCode, RoomError
from ..limits import Attempts, Shared, Throttle, Throttled
from ..settings import Settings
from ..storage import Player, addresses, metadata, players, rating_changes, ratings
from ..writer import Database
from .auth import Sessions, clean_nickname

__all__ = ["AccountInfo", "Accounts", "SessionStore", "Throttle", "Throttled", "token_hash"]

PASSWORD_THREADS = max(1, (os.cpu_count() or 2) - 1)
"""Threads that run argon2 (each a core for tens of milliseconds): one fewer than the cores."""
USERNAME = re.compile(r"[A-Za-z0-9_.-]{3,32}")
MIN_PASSWORD, MAX_PASSWORD = 8, 128
DELETED_NICKNAME = "已注销"
"""What a deleted account's seats, history and ledger entries show instead of its nickname."""

accounts = Table(
    "accounts", metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("username", String(32), nullable=False),
    Column("username_key", String(32), nullable=False, unique=True),  # lower case: one name, any case
    Column("password_hash", String(256), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("password_changed_at", Float, nullable=False),
)

sessions = Table(
    "sessions", metadata,
    Column("id", String(64), primary_key=True),  # SHA-256 of the token, hex: the token itself is never stored
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("kind", String(16), nullable=False),  # guest, account, legacy
    Column("created_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("ix_sessions_player", "player_id"),
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class _Cached:
    player_id: str
    expires_at: float
    checked_at: float
    touched_at: float


class SessionStore:
    """Issues, checks and revokes session tokens; checks are cached for ``session_recheck_seconds``."""

    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.ttl = settings.session_days * 86400.0
        self.legacy = Sessions(settings.signing_key())
        self._cache: dict[str, _Cached] = {}
        self.announce: Callable[[str], None] = lambda _news: None
        """Tells the other workers of a revocation, so their caches forget it at once (cluster.py)."""
        self.on_revoked: Callable[[str], None] = lambda _news: None
        """Hears this process's own revocations, in the news's words (``K``/``R`` + a session key, ``P`` + a
        player and the key kept): the websockets those sessions opened here are closed (http.socket)."""

    def _now(self) -> float:
        return self.settings.clock()

    async def issue(self, player_id: str, kind: str) -> str:
        token = secrets.token_urlsafe(32)
        now = self._now()
        key, expires = token_hash(token), now + self.ttl
        await self.db.run(lambda c: c.execute(insert(sessions).values(
            id=key, player_id=player_id, kind=kind, created_at=now, last_seen=now, expires_at=expires)))
        self._cache[key] = _Cached(player_id, expires, now, now)
        return token

    async def player_id(self, token: str | None) -> str | None:
        """The player a live token names; None for a missing, unknown, expired or revoked one."""
        if not token or len(token) > 512:
            return None
        key = token_hash(token)
        now = self._now()
        hit = self._cache.get(key)
        if hit is not None and now - hit.checked_at < self.settings.session_recheck_seconds:
            if now >= hit.expires_at:
                self._cache.pop(key, None)
                return None
            if now - hit.touched_at >= self.settings.session_touch_seconds:
                await self._touch(key, hit, now)
            return hit.player_id
        legacy_pid = self.legacy.player_id(token) if "." in token else None
        found = await self.db.run(lambda c: self._load(c, key, legacy_pid, now))
        if found is None:
            self._cache.pop(key, None)
            return None
        pid, expires, last_seen = found
        cached = self._cache[key] = _Cached(pid, expires, now, last_seen)
        if len(self._cache) > 200_000:
            self._cache.clear()
            self._cache[key] = cached
        if now - last_seen >= self.settings.session_touch_seconds:
            await self._touch(key, cached, now)
        return pid

    def _load(self, c: Connection, key: str, legacy_pid: str | None, now: float) -> tuple[str, float, float] | None:
        row = c.execute(select(sessions.c.player_id, sessions.c.expires_at, sessions.c.last_seen)
                        .where(sessions.c.id == key)).first()
        if row is not None:
            return (row.player_id, row.expires_at, row.last_seen) if row.expires_at > now else None
        if legacy_pid is None:
            return None
        p = c.execute(select(players.c.deleted_at, players.c.revoked_before)
                      .where(players.c.id == legacy_pid)).first()
        if p is None or p.deleted_at is not None or p.revoked_before is not None:
            return None
        # a token from before stored sessions: keep it, from now on like any other session
        c.execute(insert(sessions).values(id=key, player_id=legacy_pid, kind="legacy", created_at=now,
                                          last_seen=now, expires_at=now + self.ttl))
        return legacy_pid, now + self.ttl, now

    async def _touch(self, key: str, hit: _Cached, now: float) -> None:
        hit.touched_at = now
        hit.expires_at = now + self.ttl
        expires = hit.expires_at
        await self.db.run(lambda c: c.execute(update(sessions).where(sessions.c.id == key)
                                              .values(last_seen=now, expires_at=expires)))

    async def revoke(self, token: str, *, replaced: bool = False) -> None:
        """End one session.  ``replaced``: a registration or login gave its person a new token, and the
        sockets the old one opened are told to come back with it (``R`` news rather than ``K``)."""
        key = token_hash(token)
        self._cache.pop(key, None)
        news = f"{'R' if replaced else 'K'}{key}"
        self.on_revoked(news)
        self.announce(news)
        legacy_pid = self.legacy.player_id(token) if "." in token else None
        now = self._now()

        def job(c: Connection) -> None:
            if legacy_pid is not None:  # a signed token has no row yet: store it as already expired
                self._load(c, key, legacy_pid, now)
            c.execute(update(sessions).where(sessions.c.id == key).values(expires_at=now))

        await self.db.run(job)

    async def revoke_all(self, player_id: str, keep: str | None = None) -> None:
        """End every session of the player (and its old signed tokens), except ``keep``'s."""
        keep_key = token_hash(keep) if keep else None
        self.forget(player_id, keep_key)
        now = self._now()

        def job(c: Connection) -> None:
            q = update(sessions).where(sessions.c.player_id == player_id, sessions.c.expires_at > now)
            if keep_key is not None:
                q = q.where(sessions.c.id != keep_key)
            c.execute(q.values(expires_at=now))
            c.execute(update(players).where(players.c.id == player_id).values(revoked_before=now))

        await self.db.run(job)
        news = f"P{player_id}\n{keep_key or ''}"
        self.on_revoked(news)
        self.announce(news)  # after the commit: a worker that rechecks sees it

    def forget(self, player_id: str, keep_key: str | None = None) -> None:
        """Drop the cached checks of the player's sessions (but ``keep_key``'s)."""
        for key, hit in list(self._cache.items()):
            if hit.player_id == player_id and key != keep_key:
                del self._cache[key]

    def heard(self, news: str) -> None:
        """Another worker revoked sessions: forget what we cached of them."""
        if news.startswith(("K", "R")):
            self._cache.pop(news[1:], None)
        elif news.startswith("P"):
            pid, _, keep = news[1:].partition("\n")
            self.forget(pid, keep or None)


@dataclass(frozen=True)
class AccountInfo:
    username: str
    created_at: float


class Accounts:
    """Registration, login, password change and deletion; hashing runs on a worker thread."""

    def __init__(self, db: Database, settings: Settings, store: SessionStore,
                 forget_player: Callable[[str], None], shared: Shared | None = None) -> None:
        self.db = db
        self.settings = settings
        self.store = store
        self.forget_player = forget_player
        self.hasher = PasswordHasher(time_cost=settings.argon2_time_cost, memory_cost=settings.argon2_memory_kib)
        self._dummy: str | None = None
        self.clock = settings.clock
        self.attempts = Attempts(settings.clock, per_user=settings.login_failures_per_user,
                                 per_address=settings.per_address(settings.login_failures_per_address),
                                 window=settings.login_window_seconds,
                                 concurrent=settings.per_address(settings.password_checks_per_address),
                                 shared=shared)
        """Every password check — login, password change, deletion — reserves an attempt here first: per
        username and per address, shared by every worker through ``shared`` (cluster.RedisCluster.limit)."""
        self.hashing = ThreadPoolExecutor(PASSWORD_THREADS, thread_name_prefix="argon2")
        """argon2 runs here, never on more threads than the cores less one: a flood of checks queues for the
        hashing threads, and the event loop keeps a core."""

    # ---- checks --------------------------------------------------------------------------------------
    @staticmethod
    def check_username(raw: object) -> str:
        if not isinstance(raw, str) or not USERNAME.fullmatch(raw):
            raise RoomError(ErrorCode.BAD_USERNAME, "a username is 3 to 32 letters, digits, '_', '.' or '-'", 422,
                            zh="用户名应为 3 到 32 个字母、数字、'_'、'.' 或 '-'")
        return raw

    @staticmethod
    def check_password(raw: object, field: str = "password") -> str:
        if not isinstance(raw, str) or not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
            raise RoomError(ErrorCode.BAD_PASSWORD, f"{field} must be {MIN_PASSWORD} to {MAX_PASSWORD} characters",
                            422, zh=f"{field} 应为 {MIN_PASSWORD} 到 {MAX_PASSWORD} 个字符")
        return raw

    async def _hash(self, password: str) -> str:
        return await asyncio.get_running_loop().run_in_executor(self.hashing, self.hasher.hash, password)

    async def _check(self, stored: str | None, password: str) -> bool:
        return await asyncio.get_running_loop().run_in_executor(self.hashing, self._verify, stored, password)

    def close(self) -> None:
        self.hashing.shutdown(wait=False, cancel_futures=True)

    def _verify(self, stored: str | None, password: str) -> bool:
        """Always does one argon2 verification, against a dummy hash when there is no account."""
        if stored is None:
            if self._dummy is None:
                self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
            stored = self._dummy
        real = stored is not self._dummy
        try:
            return self.hasher.verify(stored, password) and real
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    async def warm_up(self) -> None:
        """Make the dummy hash before the first login, so a missing user costs the same from the start."""
        if self._dummy is None:
            self._dummy = await self._hash(secrets.token_urlsafe(16))

    # ---- reading -------------------------------------------------------------------------------------
    async def account_of(self, player_id: str) -> AccountInfo | None:
        def job(c: Connection) -> AccountInfo | None:
            r = c.execute(select(accounts.c.username, accounts.c.created_at)
                          .where(accounts.c.player_id == player_id)).first()
            return AccountInfo(r.username, r.created_at) if r else None

        return await self.db.run(job)

    # ---- registering ---------------------------------------------------------------------------------
    async def register(self, data: dict[str, Any], guest: Player | None) -> tuple[str, Player]:
        """A new account; made from ``guest`` (same player id, same history) when the caller is a guest."""
        username = self.check_username(data.get("username"))
        password = self.check_password(data.get("password"))
        raw_nick = data.get("nickname")
        nickname = clean_nickname(raw_nick if raw_nick not in (None, "") else
                                  (guest.nickname if guest is not None else username))
        if nickname is None:
            raise RoomError(ErrorCode.BAD_NICKNAME, "a nickname is 1 to 24 printable characters", 422,
                            zh="昵称应为 1 到 24 个可显示的字符")
        digest = await self._hash(password)
        now = self.settings.clock()
        pid = guest.id if guest is not None else secrets.token_hex(8)

        def job(c: Connection) -> str | None:
            if c.execute(select(accounts.c.player_id).where(accounts.c.username_key == username.lower())).first():
                return "username_taken"
            if guest is not None:
                if c.execute(select(accounts.c.player_id).where(accounts.c.player_id == pid)).first():
                    return "has_account"
                c.execute(update(players).where(players.c.id == pid).values(nickname=nickname))
            else:
                c.execute(insert(players).values(id=pid, nickname=nickname, created_at=now))
            c.execute(insert(accounts).values(player_id=pid, username=username, username_key=username.lower(),
                                              password_hash=digest, created_at=now, password_changed_at=now))
            return None

        try:
            refused = await self.db.run(job)
        except Exception as e:  # two registrations of one name at once: the unique index decides
            if "unique" in str(e).lower() or "duplicate" in str(e).lower():
                refused = "username_taken"
            else:
                raise
        if refused == "username_taken":
            raise RoomError(ErrorCode.USERNAME_TAKEN, f"the username {username!r} is taken", 409,
                            zh=f"用户名 {username!r} 已有人用")
        if refused == "has_account":
            raise RoomError(ErrorCode.HAS_ACCOUNT, "you are logged in to an account already; log out first", 409,
                            zh="你已登录一个账号：请先退出")
        self.forget_player(pid)
        token = await self.store.issue(pid, "account")
        return token, Player(pid, nickname)

    # ---- logging in ----------------------------------------------------------------------------------
    async def login(self, data: dict[str, Any], address: str) -> tuple[str, Player]:
        """The same answer, in about the same time, for a wrong password and for a user who does not exist.
        The attempt is reserved before the hash (``Attempts``): a burst gets no more guesses than the limit."""
        username, password = data.get("username"), data.get("password")
        if not isinstance(username, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD \
                or len(username) > 64:
            raise RoomError(ErrorCode.BAD_LOGIN, "wrong username or password", 401, zh="用户名或密码不对")

        def job(c: Connection) -> tuple[str, str, str] | None:
            r = c.execute(select(accounts.c.player_id, accounts.c.password_hash, players.c.nickname)
                          .select_from(accounts.join(players, accounts.c.player_id == players.c.id))
                          .where(accounts.c.username_key == username.lower())).first()
            return (r.player_id, r.password_hash, r.nickname) if r else None

        async with self.attempts.attempt(username, address) as reservation:
            found = await self.db.run(job)
            ok = await self._check(found[1] if found else None, password)
            if not ok or found is None:
                raise RoomError(ErrorCode.BAD_LOGIN, "wrong username or password", 401, zh="用户名或密码不对")
            await self.attempts.release(username, address, reservation)
        pid, stored, nickname = found
        if self.hasher.check_needs_rehash(stored):  # stronger parameters since: upgrade the stored hash
            fresh = await self._hash(password)
            await self.db.run(lambda c: c.execute(update(accounts).where(accounts.c.player_id == pid)
                                                  .values(password_hash=fresh)))
        token = await self.store.issue(pid, "account")
        return token, Player(pid, nickname)

    async def _check_own(self, player: Player, stored: str, password: object, address: str, wrong: str,
                         wrong_zh: str) -> None:
        """The current password of a signed-in player, under the same reserved attempts as a login (their
        username's and the address's): a stolen session cannot guess it faster than a login could."""
        username = await self.db.run(lambda c: c.execute(
            select(accounts.c.username).where(accounts.c.player_id == player.id)).scalar()) or player.id
        async with self.attempts.attempt(username, address) as reservation:
            if not isinstance(password, str) or len(password) > MAX_PASSWORD or not await self._check(stored, password):
                raise RoomError(ErrorCode.BAD_LOGIN, wrong, 401, zh=wrong_zh)
            await self.attempts.release(username, address, reservation)

    async def _stored_hash(self, player_id: str) -> str | None:
        return await self.db.run(lambda c: c.execute(
            select(accounts.c.password_hash).where(accounts.c.player_id == player_id)).scalar())

    async def change_password(self, player: Player, data: dict[str, Any], token: str | None, address: str) -> None:
        """Check the old password, store the new one, and end every other session of the player."""
        new = self.check_password(data.get("new_password"), "new_password")
        stored = await self._stored_hash(player.id)
        if stored is None:
            raise RoomError(ErrorCode.NO_ACCOUNT, "a guest has no password: register first (POST /api/accounts)", 409,
                            zh="游客没有密码：请先注册（POST /api/accounts）")
        await self._check_own(player, stored, data.get("password"), address, "the current password is wrong",
                              "当前密码不对")
        digest = await self._hash(new)
        now = self.settings.clock()
        await self.db.run(lambda c: c.execute(update(accounts).where(accounts.c.player_id == player.id)
                                              .values(password_hash=digest, password_changed_at=now)))
        await self.store.revoke_all(player.id, keep=token)

    async def delete(self, player: Player, data: dict[str, Any], address: str) -> None:
        """Anonymise the player and drop the account, its sessions and its rating history; ledger entries stay
        (anonymised), so everyone else's balances still add up."""
        stored = await self._stored_hash(player.id)
        if stored is not None:
            await self._check_own(player, stored, data.get("password"), address, "the password is wrong", "密码不对")
        now = self.settings.clock()

        def job(c: Connection) -> None:
            c.execute(delete(accounts).where(accounts.c.player_id == player.id))
            c.execute(delete(sessions).where(sessions.c.player_id == player.id))
            c.execute(delete(addresses).where(addresses.c.player_id == player.id))  # collusion signals' data
            # the rating (issue 35): its values go; its place in each match's ranking stays, as the anonymised
            # seats do, so everyone else's ratings still rebuild to the same values
            c.execute(delete(ratings).where(ratings.c.player_id == player.id))
            c.execute(update(rating_changes).where(rating_changes.c.player_id == player.id)
                      .values(mu_before=None, sigma_before=None, mu_after=None, sigma_after=None))
            c.execute(update(players).where(players.c.id == player.id)
                      .values(nickname=DELETED_NICKNAME, deleted_at=now, revoked_before=now))

        await self.db.run(job)
        await self.store.revoke_all(player.id)
        self.forget_player(player.id)
