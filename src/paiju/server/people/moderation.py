"""Hosts keep a room civil: who is a host, bans, the log of every host's act, and the players' reports.

A *host* is an account named by ``--admin`` (``Settings.admins``) or granted with ``paiju admin grant``
(the ``hosts`` table, so every process on the database agrees).  Every act of a host — a ban, an unban, a
kick, a closed table, a renamed nickname, a report dealt with, a grant — is one row of ``moderation_log``
with who and when, written in the same transaction as the act itself.  Reports come from any seat's
report button (docs/protocol.md, "Reports and hosts").

Bans bind a player (an account, or a guest's id): its sessions end at once and it cannot log in, sit or
open a table while banned.  A guest can always come back as another guest; a room that must keep someone
out asks its players to register.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    func,
    insert,
    select,
    update,
)

from ..errors import ErrorCode, RoomError
from ..settings import Settings
from ..storage import metadata, players
from ..writer import Database
from .accounts import accounts
from .auth import clean_nickname

log = logging.getLogger("paiju.server.people.moderation")

hosts = Table(
    "hosts", metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("granted_at", Float, nullable=False),
    Column("granted_by", String(64), nullable=False),  # a host's username, or "cli"
)

moderation_log = Table(
    "moderation_log", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("host_id", String(32), nullable=True),  # the host's player id (None: the command line)
    Column("host", String(64), nullable=False),  # the host's username at the time, or "cli"
    Column("action", String(16), nullable=False),  # ban, unban, kick, close, rename, report, grant, revoke
    Column("player_id", String(32), nullable=True),  # whom it concerned
    Column("table_id", String(32), nullable=True),
    Column("detail", Text, nullable=True),  # JSON: the reason, the old and new nickname, the seat, ...
    Index("ix_moderation_log_at", "at"),
)

reports = Table(
    "reports", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("reporter_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", String(32), nullable=True),  # who sat in that seat then (None: a bot's seat)
    Column("reason", Text, nullable=False),
    Column("status", String(16), nullable=False),  # open, closed
    Column("handled_by", String(64), nullable=True),
    Column("handled_at", Float, nullable=True),
    Column("chat", Text, nullable=True),  # JSON: the chat line reported ({text, at}), checked by its signature
    Index("ix_reports_status", "status", "id"),
)

chat_filter = Table(
    "chat_filter", metadata,
    Column("word", String(64), primary_key=True),  # its skeleton (room/chatfilter.py): letters, case folded
    Column("added_at", Float, nullable=False),
    Column("added_by", String(64), nullable=False),
)

MAX_REASON = 200
OPEN_REPORTS_PER_PLAYER = 20
"""A player may have this many reports open at once: enough for any table, too few to flood the hosts."""
ACTIONS = ("ban", "unban", "kick", "close", "rename", "report", "grant", "revoke", "chat_filter")


def not_host() -> RoomError:
    return RoomError(ErrorCode.NOT_HOST, "only the room's hosts may do this", 403, zh="只有房主（管理员）才能这样做")


def banned() -> RoomError:
    return RoomError(ErrorCode.BANNED, "a host has banned this player", 403, zh="你已被管理员封禁")


@dataclass(frozen=True)
class Host:
    """A host acting: the player id (None for the command line) and the name the log keeps."""

    id: str | None
    name: str


CLI = Host(None, "cli")


def log_act(c: Connection, host: Host, action: str, at: float, *, player_id: str | None = None,
            table_id: str | None = None, detail: dict[str, Any] | None = None) -> int:
    """One row of the log, inside the act's own transaction."""
    assert action in ACTIONS, action
    r = c.execute(insert(moderation_log).values(
        at=at, host_id=host.id, host=host.name, action=action, player_id=player_id, table_id=table_id,
        detail=None if detail is None else json.dumps(detail, ensure_ascii=False)))
    return int(r.inserted_primary_key[0])  # type: ignore[index]


def read_log(c: Connection, *, before: int | None = None, limit: int = 50) -> list[dict[str, Any]]:
    q = select(moderation_log).order_by(moderation_log.c.id.desc()).limit(limit)
    if before is not None:
        q = q.where(moderation_log.c.id < before)
    return [{**dict(r), "detail": None if r["detail"] is None else json.loads(r["detail"])}
            for r in c.execute(q).mappings()]


def player_of_username(c: Connection, username: str) -> tuple[str, str] | None:
    """(player id, username) of an account, whatever the case it is typed in."""
    r = c.execute(select(accounts.c.player_id, accounts.c.username)
                  .where(accounts.c.username_key == username.lower())).first()
    return (r.player_id, r.username) if r else None


def grant(c: Connection, username: str, at: float, by: Host = CLI, *, revoke: bool = False) -> str:
    """Make an account a host (or no longer one); the player id.  ``paiju admin grant|revoke``."""
    found = player_of_username(c, username)
    if found is None:
        raise LookupError(f"no account {username!r}")
    pid, name = found
    held = c.execute(select(hosts.c.player_id).where(hosts.c.player_id == pid)).first() is not None
    if revoke and held:
        c.execute(hosts.delete().where(hosts.c.player_id == pid))
    elif not revoke and not held:
        c.execute(insert(hosts).values(player_id=pid, granted_at=at, granted_by=by.name))
    log_act(c, by, "revoke" if revoke else "grant", at, player_id=pid, detail={"username": name})
    return pid


def create_host(c: Connection, settings: Settings, username: str, password: str, nickname: str | None,
                at: float) -> str:
    """A new account that is a host (``paiju admin create``): the one way to make a host by name that nobody
    can have registered first.  ``ValueError`` with the reason when the name, password or nickname is refused or
    the name is taken."""
    import secrets

    from argon2 import PasswordHasher

    from .accounts import MAX_PASSWORD, MIN_PASSWORD, USERNAME

    if not USERNAME.fullmatch(username):
        raise ValueError("a username is 3 to 32 letters, digits, '_', '.' or '-'")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValueError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    shown = clean_nickname(nickname if nickname else username)
    if shown is None:
        raise ValueError("a nickname is 1 to 24 printable characters")
    if player_of_username(c, username) is not None:
        raise ValueError(f"the username {username!r} is taken: `paiju admin grant {username}` makes it a host")
    digest = PasswordHasher(time_cost=settings.argon2_time_cost, memory_cost=settings.argon2_memory_kib).hash(password)
    pid = secrets.token_hex(8)
    c.execute(insert(players).values(id=pid, nickname=shown, created_at=at))
    c.execute(insert(accounts).values(player_id=pid, username=username, username_key=username.lower(),
                                      password_hash=digest, created_at=at, password_changed_at=at))
    c.execute(insert(hosts).values(player_id=pid, granted_at=at, granted_by=CLI.name))
    log_act(c, CLI, "grant", at, player_id=pid, detail={"username": username, "created": True})
    return pid


def list_hosts(c: Connection) -> list[dict[str, Any]]:
    q = (select(hosts.c.player_id, hosts.c.granted_at, hosts.c.granted_by, accounts.c.username)
         .select_from(hosts.outerjoin(accounts, accounts.c.player_id == hosts.c.player_id))
         .order_by(hosts.c.granted_at))
    return [dict(r) for r in c.execute(q).mappings()]


def banned_ids(c: Connection) -> set[str]:
    return {r.id for r in c.execute(select(players.c.id).where(players.c.banned_at.is_not(None)))}


class Moderation:
    """This process's view of hosts and bans, and the acts that change them.

    ``banned`` is a set kept in memory (read at start-up, changed by this process's bans), so refusing a
    banned player costs nothing per request; a ban made by another process also ends the player's sessions,
    which every process honours within ``Settings.session_recheck_seconds``.
    """

    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.banned: set[str] = set()
        self.admin_ids: set[str] = set()
        """The player ids ``--admin`` named, bound once at start-up (``load``): a name registered later — or
        again, after its account was deleted — is no host."""

    async def load(self) -> None:
        self.banned.clear()
        self.banned.update(await self.db.run(banned_ids))
        names = self.settings.admins
        found = await self.db.run(lambda c: {n: player_of_username(c, n) for n in names})
        self.admin_ids = {hit[0] for hit in found.values() if hit is not None}
        for name, hit in found.items():
            if hit is None:
                log.warning("--admin %s: no such account, so no host; make it with `paiju admin create %s` (or "
                            "register it) and restart, or `paiju admin grant` it", name, name)

    async def banned_now(self, player_id: str) -> bool:
        """Whether the player is banned, read from the database (a ban made by another process counts), and
        kept in ``banned``: for logins, which are rare enough to ask."""
        at = await self.db.run(lambda c: c.execute(select(players.c.banned_at)
                                                   .where(players.c.id == player_id)).scalar())
        if at is None:
            self.banned.discard(player_id)
            return False
        self.banned.add(player_id)
        return True

    async def host(self, player_id: str) -> Host | None:
        """The host this player is (named as the log will name it), or None."""
        def job(c: Connection) -> Host | None:
            r = c.execute(select(accounts.c.username, hosts.c.player_id.label("granted"))
                          .select_from(accounts.outerjoin(hosts, hosts.c.player_id == accounts.c.player_id))
                          .where(accounts.c.player_id == player_id)).first()
            if r is None:  # hosts are accounts: a guest never is one
                return None
            if r.granted is not None or player_id in self.admin_ids:
                return Host(player_id, r.username)
            return None

        return await self.db.run(job)

    async def require_host(self, player_id: str) -> Host:
        h = await self.host(player_id)
        if h is None:
            raise not_host()
        return h

    # ---- bans ----------------------------------------------------------------------------------------
    async def set_ban(self, host: Host, player_id: str, on: bool, reason: str | None) -> None:
        now = self.settings.clock()

        def job(c: Connection) -> bool:
            if c.execute(select(players.c.id).where(players.c.id == player_id)).first() is None:
                return False
            c.execute(update(players).where(players.c.id == player_id).values(banned_at=now if on else None))
            log_act(c, host, "ban" if on else "unban", now, player_id=player_id,
                    detail={"reason": reason} if reason else None)
            return True

        if not await self.db.run(job):
            raise RoomError(ErrorCode.NO_PLAYER, f"no player {player_id!r} here", 404, zh=f"这里没有玩家 {player_id!r}")
        if on:
            self.banned.add(player_id)
        else:
            self.banned.discard(player_id)

    # ---- nicknames -----------------------------------------------------------------------------------
    async def rename(self, host: Host, player_id: str, raw: object) -> str:
        nickname = clean_nickname(raw)
        if nickname is None:
            raise RoomError(ErrorCode.BAD_NICKNAME, "a nickname is 1 to 24 printable characters", 422,
                            zh="昵称应为 1 到 24 个可显示的字符")
        now = self.settings.clock()

        def job(c: Connection) -> str | None:
            old = c.execute(select(players.c.nickname).where(players.c.id == player_id)).scalar()
            if old is None:
                return None
            c.execute(update(players).where(players.c.id == player_id).values(nickname=nickname))
            log_act(c, host, "rename", now, player_id=player_id, detail={"from": old, "to": nickname})
            return str(old)

        if await self.db.run(job) is None:
            raise RoomError(ErrorCode.NO_PLAYER, f"no player {player_id!r} here", 404, zh=f"这里没有玩家 {player_id!r}")
        return nickname

    # ---- reports -------------------------------------------------------------------------------------
    @staticmethod
    def check_reason(raw: object) -> str:
        reason = " ".join(raw.split()) if isinstance(raw, str) else ""
        if not reason or len(reason) > MAX_REASON:
            raise RoomError(ErrorCode.BAD_REASON, f"say why in 1 to {MAX_REASON} characters", 422,
                            zh=f"请用 1 到 {MAX_REASON} 个字说明原因")
        return reason

    async def report(self, reporter_id: str, table_id: str, seat: int, player_id: str | None,
                     raw_reason: object, chat: dict[str, Any] | None = None) -> dict[str, Any]:
        """File a report, within the reporter's caps: ``reports_per_day`` in any 24 hours, and
        ``reports_per_target_per_day`` about one player (a bot's seat: that seat of that table), counted in the
        insert's own transaction with the reporter's row locked, so two workers at once count one after the
        other.  ``chat``: the chat line the report points at ({text, at}), its signature checked by the caller."""
        reason = self.check_reason(raw_reason)
        now = self.settings.clock()
        per_day, per_target = self.settings.reports_per_day, self.settings.reports_per_target_per_day

        def job(c: Connection) -> int | str:
            if c.dialect.name == "postgresql":  # the reporter's reports are counted one request at a time
                c.execute(select(players.c.id).where(players.c.id == reporter_id).with_for_update())
            mine = reports.c.reporter_id == reporter_id
            held = c.execute(select(func.count()).select_from(reports).where(
                mine, reports.c.status == "open")).scalar() or 0
            if held >= OPEN_REPORTS_PER_PLAYER:
                return "open"
            recent = (mine, reports.c.at > now - 86400.0)
            if (c.execute(select(func.count()).select_from(reports).where(*recent)).scalar() or 0) >= per_day:
                return "day"
            about = (reports.c.player_id == player_id) if player_id is not None else \
                ((reports.c.table_id == table_id) & (reports.c.seat == seat) & reports.c.player_id.is_(None))
            if (c.execute(select(func.count()).select_from(reports).where(*recent, about)).scalar() or 0) \
                    >= per_target:
                return "target"
            r = c.execute(insert(reports).values(at=now, reporter_id=reporter_id, table_id=table_id, seat=seat,
                                                 player_id=player_id, reason=reason, status="open",
                                                 chat=None if chat is None else json.dumps(chat, ensure_ascii=False)))
            return int(r.inserted_primary_key[0])  # type: ignore[index]

        rid = await self.db.run(job)
        if rid == "open":
            raise RoomError(ErrorCode.TOO_MANY_REPORTS, f"you have {OPEN_REPORTS_PER_PLAYER} reports waiting for the "
                            "hosts already", 429, zh=f"你已有 {OPEN_REPORTS_PER_PLAYER} 条举报在等管理员处理")
        if rid == "day":
            raise RoomError(ErrorCode.TOO_MANY_REPORTS, f"at most {per_day} reports a day", 429,
                            zh=f"每天最多举报 {per_day} 次")
        if rid == "target":
            raise RoomError(ErrorCode.TOO_MANY_REPORTS, "you have reported this player today already", 429,
                            zh="你今天已经举报过这位玩家")
        return {"id": rid, "at": now, "table": table_id, "seat": seat, "reason": reason, "status": "open",
                **({"chat": chat} if chat is not None else {})}

    async def reports(self, status: str | None, limit: int = 100) -> list[dict[str, Any]]:
        def job(c: Connection) -> list[dict[str, Any]]:
            reporter = players.alias("reporter")
            target = players.alias("target")
            q = (select(reports, reporter.c.nickname.label("reporter_nickname"),
                        target.c.nickname.label("player_nickname"))
                 .select_from(reports.join(reporter, reporter.c.id == reports.c.reporter_id)
                              .outerjoin(target, target.c.id == reports.c.player_id))
                 .order_by(reports.c.id.desc()).limit(limit))
            if status is not None:
                q = q.where(reports.c.status == status)
            return [{**dict(r), "chat": None if r["chat"] is None else json.loads(r["chat"])}
                    for r in c.execute(q).mappings()]

        return await self.db.run(job)

    async def close_report(self, host: Host, report_id: int, note: str | None) -> None:
        now = self.settings.clock()

        def job(c: Connection) -> bool:
            r = c.execute(select(reports.c.table_id, reports.c.player_id).where(reports.c.id == report_id)).first()
            if r is None:
                return False
            c.execute(update(reports).where(reports.c.id == report_id)
                      .values(status="closed", handled_by=host.name, handled_at=now))
            log_act(c, host, "report", now, player_id=r.player_id, table_id=r.table_id,
                    detail={"report": report_id, **({"note": note} if note else {})})
            return True

        if not await self.db.run(job):
            raise RoomError(ErrorCode.NO_REPORT, f"no report {report_id} here", 404, zh=f"没有第 {report_id} 条举报")

    # ---- the chat filter ---------------------------------------------------------------------------------
    async def chat_filter(self) -> list[str]:
        """The hosts' filter list (room/chatfilter.py keeps each word's skeleton)."""
        return await self.db.run(lambda c: [str(r[0]) for r in c.execute(
            select(chat_filter.c.word).order_by(chat_filter.c.word))])

    async def set_chat_filter(self, host: Host, words: list[str]) -> list[str]:
        """Replace the list (already cleaned) in one transaction, logged with what was added and removed."""
        now = self.settings.clock()

        def job(c: Connection) -> list[str]:
            old = {str(r[0]) for r in c.execute(select(chat_filter.c.word))}
            new = set(words)
            if old - new:
                c.execute(chat_filter.delete().where(chat_filter.c.word.in_(sorted(old - new))))
            if new - old:
                c.execute(insert(chat_filter), [{"word": w, "added_at": now, "added_by": host.name}
                                                for w in sorted(new - old)])
            log_act(c, host, "chat_filter", now, detail={"added": len(new - old), "removed": len(old - new),
                                                         "words": len(new)})
            return sorted(new)

        return await self.db.run(job)

    async def log_table_act(self, host: Host, action: str, table_id: str, *, player_id: str | None = None,
                            detail: dict[str, Any] | None = None) -> None:
        now = self.settings.clock()
        await self.db.run(lambda c: log_act(c, host, action, now, player_id=player_id, table_id=table_id,
                                            detail=detail))
