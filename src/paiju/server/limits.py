"""Limits on what one client may ask of the room: counts in a sliding window, and who the client is.

One :class:`Throttle` serves every limit — failed logins (accounts.py), new sessions and tables, lobby reads
and websocket messages (app.py) — so there is one rule for how hits are counted and forgotten.  With
several workers (cluster.py) the room-wide limits — failed logins, new sessions, new tables, lobby reads — are
counted in Redis by the same rule (:data:`Shared`, :func:`count`), and so are the open websockets per address
(:class:`Sockets`), so a client gets no more by spreading its requests over workers; a websocket's message
limit stays with its connection, which lives at one worker.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import math
import re
import secrets
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import Protocol

from starlette.requests import HTTPConnection

from .errors import ErrorCode, RoomError

log = logging.getLogger("paiju.server.limits")

Shared = Callable[[str, float, list[tuple[str, int, float]], str | None], Awaitable[float | None]]
"""Counts shared by every worker: ``(mode, now, [(key, limit, window)], member)`` → seconds to wait or None,
where mode ``check`` only looks, ``take`` counts one hit in every key if all allow it, ``hit`` counts
regardless, ``release`` takes back the hit named ``member`` (a reservation that turned out not to count),
``clear`` forgets the keys' hits (cluster.RedisCluster.limit)."""


class Throttled(RoomError):
    """A 429 with the seconds to wait (sent as ``Retry-After``)."""

    def __init__(self, code: ErrorCode, message: str, retry_after: float, *, zh: str | None = None) -> None:
        super().__init__(code, message, 429, zh=zh)
        self.retry_after = max(1, int(retry_after + 0.999))


class Throttle:
    """Hits per key in a sliding window: at most ``limit`` in any ``window`` seconds.

    A websocket's "20 a second with bursts of 40" is ``Throttle(40, 2.0)``: forty at once, then on average
    twenty a second."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float], name: str = "") -> None:
        self.limit = limit
        self.name = name
        """What it counts, where the counts are shared by several workers (``Limits``' keys in Redis)."""
        self.window = window
        self.clock = clock
        self._hits: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        hits = self._hits.get(key)
        if hits is None:
            return deque()
        edge = self.clock() - self.window
        while hits and hits[0] <= edge:
            hits.popleft()
        if not hits:
            del self._hits[key]
        return hits

    def retry_after(self, key: str) -> float | None:
        """Seconds until ``key`` may try again, or None when it may now."""
        hits = self._recent(key)
        if len(hits) < self.limit:
            return None
        return hits[len(hits) - self.limit] + self.window - self.clock()

    def hit(self, key: str, at: float | None = None) -> None:
        if len(self._hits) > 100_000:  # a flood of distinct keys: forget the quiet ones
            for k in list(self._hits):
                self._recent(k)
        self._hits.setdefault(key, deque()).append(self.clock() if at is None else at)

    def release(self, key: str, at: float) -> None:
        """Take back the hit counted at ``at`` (a reservation that did not count after all)."""
        hits = self._hits.get(key)
        if hits is not None and at in hits:
            hits.remove(at)
            if not hits:
                del self._hits[key]

    def take(self, key: str) -> float | None:
        """Count one request of ``key`` if the limit allows it (None), else the seconds to wait (not counted)."""
        wait = self.retry_after(key)
        if wait is None:
            self.hit(key)
        return wait

    def clear(self, key: str) -> None:
        self._hits.pop(key, None)


class Budget:
    """Units per key in a sliding window — the bytes of JSON an address has had parsed — where a message costs
    its size, not one: a wide message costs the CPU of many small ones."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._spent: dict[str, tuple[deque[tuple[float, int]], list[int]]] = {}

    def take(self, key: str, units: int) -> float | None:
        """Spend ``units`` of ``key``'s budget if it has them (None), else the seconds until it has (not spent)."""
        now = self.clock()
        entry = self._spent.get(key)
        if entry is None:
            if len(self._spent) > 100_000:  # a flood of distinct keys: forget the quiet ones
                edge = now - self.window
                for k, (q, _total) in list(self._spent.items()):
                    if not q or q[-1][0] <= edge:
                        del self._spent[k]
            entry = self._spent[key] = (deque(), [0])
        spent, total = entry
        edge = now - self.window
        while spent and spent[0][0] <= edge:
            total[0] -= spent.popleft()[1]
        if total[0] + units > self.limit and spent:
            freed, wait = total[0] + units - self.limit, 0.0
            for at, n in spent:
                freed -= n
                wait = at + self.window - now
                if freed <= 0:
                    break
            return max(wait, 0.001)
        spent.append((now, units))
        total[0] += units
        return None


async def count(shared: Shared | None, clock: Callable[[], float], mode: str, pairs: list[tuple[Throttle, str]],
                reservation: Reservation | None = None) -> float | None:
    """Check, count if allowed, count, take back or clear (:data:`Shared`'s modes) ``pairs``: the seconds to
    wait, or None.  ``reservation`` names the hit a ``take`` counts, so that ``release`` can take it back.

    With ``shared`` the counts are the room's; this process's throttles count only while it cannot be reached
    (the worker then limits on its own, as a single process does)."""
    if mode == "clear":
        for throttle, key in pairs:
            throttle.clear(key)
    now = reservation.at if reservation is not None else clock()
    if mode == "release":
        assert reservation is not None, "release names the hit it takes back"
        for throttle, key in pairs:
            throttle.release(key, reservation.at)
    if shared is not None:
        items = [(f"{t.name}:{key}", t.limit, t.window) for t, key in pairs]
        try:
            return await shared(mode, now, items, None if reservation is None else reservation.member)
        except Exception as e:  # Redis unreachable: this worker's own counts, as with one process
            log.warning("shared limits unavailable (%s): counting in this worker", str(e).splitlines()[0][:120])
    if mode in ("check", "take"):
        for throttle, key in pairs:
            wait = throttle.retry_after(key)
            if wait is not None:
                return wait
    if mode in ("take", "hit"):
        for throttle, key in pairs:
            throttle.hit(key, now)
    return None


@dataclass(frozen=True)
class Reservation:
    """One attempt counted before its outcome is known (a password check): when, and its name in Redis."""

    at: float
    member: str = field(default_factory=lambda: secrets.token_hex(8))


class Attempts:
    """Password checks, reserved before the hash is verified: an attempt is counted per username and per address
    *before* argon2 runs, so a burst sent at once gets no more guesses than the limit however many arrive
    together, in one process or over several workers (the reservation is one atomic ``take`` in Redis); a right
    password takes its reservation back, so only failures count.  At most ``concurrent`` checks of one address
    run at once in this process: the rest are refused before they cost a hash."""

    def __init__(self, clock: Callable[[], float], *, per_user: int, per_address: int, window: float,
                 concurrent: int, shared: Shared | None = None) -> None:
        self.by_user = Throttle(per_user, window, clock, "logins")
        self.by_address = Throttle(per_address, window, clock, "logins")
        self.concurrent = concurrent
        self.clock = clock
        self.shared = shared
        self.running: dict[str, int] = {}
        """Password checks running now per address (this process: the CPU they use is this process's)."""

    def _pairs(self, username: str, address: str) -> list[tuple[Throttle, str]]:
        return [(self.by_user, "u:" + username.lower()), (self.by_address, "a:" + address)]

    @contextlib.asynccontextmanager
    async def attempt(self, username: str, address: str) -> AsyncIterator[Reservation]:
        """Reserve one attempt (429 ``too_many_attempts`` when over a limit or too many run at once) and hold
        it while the caller verifies; ``release`` it when the password was right."""
        if self.running.get(address, 0) >= self.concurrent:
            raise Throttled(ErrorCode.TOO_MANY_ATTEMPTS, "too many password checks at once from your address: "
                            "wait for the others", 1.0, zh="你的地址同时在验证的密码太多：请等前面的完成")
        self.running[address] = self.running.get(address, 0) + 1
        try:
            reservation = Reservation(self.clock())
            wait = await count(self.shared, self.clock, "take", self._pairs(username, address), reservation)
            if wait is not None:
                raise Throttled(ErrorCode.TOO_MANY_ATTEMPTS, "too many failed password checks: wait and try again",
                                wait, zh="密码错误太多次：请稍后再试")
            yield reservation
        finally:
            left = self.running.get(address, 1) - 1
            if left > 0:
                self.running[address] = left
            else:
                self.running.pop(address, None)

    async def release(self, username: str, address: str, reservation: Reservation) -> None:
        """The password was right: the attempt does not count."""
        await count(self.shared, self.clock, "release", self._pairs(username, address), reservation)


def rate_limited(what: str, zh: str, wait: float) -> Throttled:
    return Throttled(ErrorCode.RATE_LIMITED, f"too many {what}: wait {max(1, int(wait + 0.999))} s and try again",
                     wait, zh=f"{zh}太频繁：请 {max(1, int(wait + 0.999))} 秒后再试")


class Limits:
    """The room's request limits, each keyed by session (``s:<player id>``) or by address (``a:<address>``).

    ``shared`` (several workers): the counts live there, and this process's throttles are only the fallback
    when it cannot be reached."""

    def __init__(self, clock: Callable[[], float], *, sessions_per_address: int, tables_per_session: int,
                 tables_per_address: int, reads_per_session: int, reads_per_address: int,
                 lookups_per_session: int = 20, lookups_per_address: int = 30, shared: Shared | None = None) -> None:
        self.sessions = Throttle(sessions_per_address, 60.0, clock, "sessions")
        self.tables_by_session = Throttle(tables_per_session, 60.0, clock, "tables")
        self.tables_by_address = Throttle(tables_per_address, 60.0, clock, "tables")
        self.reads_by_session = Throttle(reads_per_session, 60.0, clock, "reads")
        self.reads_by_address = Throttle(reads_per_address, 60.0, clock, "reads")
        self.lookups_by_session = Throttle(lookups_per_session, 60.0, clock, "rooms")
        self.lookups_by_address = Throttle(lookups_per_address, 60.0, clock, "rooms")
        self.clock = clock
        self.shared = shared

    async def _count(self, mode: str, what: str, zh: str, pairs: list[tuple[Throttle, str]]) -> None:
        """Check (``check``), count if allowed (``take``) or count (``hit``) ``pairs``; a refusal costs nothing."""
        wait = await count(self.shared, self.clock, mode, pairs)
        if wait is not None:
            raise rate_limited(what, zh, wait)

    async def new_session(self, address: str) -> None:
        await self._count("take", "new sessions", "新建会话", [(self.sessions, "a:" + address)])

    def _tables(self, player_id: str, address: str) -> list[tuple[Throttle, str]]:
        return [(self.tables_by_session, "s:" + player_id), (self.tables_by_address, "a:" + address)]

    async def may_make_table(self, player_id: str, address: str) -> None:
        """Refuse a new table over the limit; a table is counted only once it is made (``made_table``), so a
        request refused for a bad option costs nothing."""
        await self._count("check", "new tables", "开桌", self._tables(player_id, address))

    async def made_table(self, player_id: str, address: str) -> None:
        await self._count("hit", "new tables", "开桌", self._tables(player_id, address))

    async def room_lookup(self, player_id: str | None, address: str) -> None:
        """A room-number lookup: six digits are few enough to try them all, so each lookup counts."""
        pairs = [(self.lookups_by_address, "a:" + address)]
        if player_id is not None:
            pairs.append((self.lookups_by_session, "s:" + player_id))
        await self._count("take", "room-number lookups", "查房号", pairs)

    async def lobby_read(self, player_id: str | None, address: str) -> None:
        pairs = [(self.reads_by_address, "a:" + address)]
        if player_id is not None:
            pairs.append((self.reads_by_session, "s:" + player_id))
        await self._count("take", "lobby reads", "刷新大厅", pairs)


class SharedSockets(Protocol):
    """The open websockets per address of every worker (cluster.RedisCluster): each worker's own count is one
    part of the total, so a dead worker's part can be dropped by whoever sees it gone."""

    async def open_socket(self, address: str, mine: int, limit: int) -> bool:
        """Whether the room has room for one more socket of ``address``, ``mine`` (ours, with it) counted."""
        ...

    async def closed_socket(self, address: str, mine: int) -> None:
        """Our open sockets of ``address`` are now ``mine``."""
        ...


class Sockets:
    """Open websockets per client address: at most ``limit`` in the room, counted in ``shared`` (several
    workers) or here, and here alone while ``shared`` cannot be reached."""

    def __init__(self, limit: int, shared: SharedSockets | None = None) -> None:
        self.limit = limit
        self.shared = shared
        self.open: dict[str, int] = {}
        """This worker's open sockets per address (what it tells ``shared``, and the fallback's counts)."""
        self.unsaid: set[str] = set()
        """Addresses whose count ``shared`` could not be told: told again at the next socket."""

    async def take(self, address: str) -> bool:
        """Count one more socket of ``address`` if the limit allows it."""
        mine = self.open[address] = self.open.get(address, 0) + 1  # held while Redis is asked: two at once count
        allowed: bool | None = None
        if self.shared is not None:
            try:
                allowed = await self.shared.open_socket(address, mine, self.limit)
                self.unsaid.discard(address)
                for other in list(self.unsaid):  # Redis answers again: mend what it missed
                    await self.shared.closed_socket(other, self.open.get(other, 0))
                    self.unsaid.discard(other)
            except Exception as e:
                log.warning("shared socket counts unavailable (%s): counting in this worker",
                            str(e).splitlines()[0][:120])
        if allowed is None:
            allowed = self.open[address] <= self.limit
        if not allowed:
            self._drop(address)
        return allowed

    def _drop(self, address: str) -> int:
        left = self.open.get(address, 1) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)
        return left

    async def give_back(self, address: str) -> None:
        left = self._drop(address)
        if self.shared is not None:
            try:
                await self.shared.closed_socket(address, left)
            except Exception as e:  # told at the next socket here (or dropped with this worker's lease)
                self.unsaid.add(address)
                log.warning("shared socket counts unavailable (%s)", str(e).splitlines()[0][:120])


def trusted_peer(host: str, proxies: Collection[str]) -> bool:
    """Whether ``host`` is one of ``proxies`` (an address or a network such as ``10.0.0.0/8``)."""
    if host in proxies:
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    for p in proxies:
        if "/" in p:
            try:
                if ip in ipaddress.ip_network(p, strict=False):
                    return True
            except ValueError:
                continue
    return False


def client_address(conn: HTTPConnection, trusted_proxies: Collection[str]) -> str:
    """The client's address: the peer's, or — only when the peer is a trusted proxy — the last address in
    ``X-Forwarded-For`` that is not a trusted proxy itself (anything left of it could be made up)."""
    peer = conn.client.host if conn.client else "unknown"
    if not trusted_proxies or not trusted_peer(peer, trusted_proxies):
        return peer
    forwarded = [a.strip() for h in conn.headers.getlist("x-forwarded-for") for a in h.split(",") if a.strip()]
    for hop in reversed(forwarded):
        if not trusted_peer(hop, trusted_proxies):
            return hop
    return forwarded[0] if forwarded else peer


class TooDeep(ValueError):
    """JSON nested deeper than the room takes."""


class Malformed(ValueError):
    """JSON the standard decoder takes but the room does not: a number too long to convert (over Python's 4,300
    digits), ``NaN``/``Infinity`` or a float out of range, a lone surrogate in a string."""


def _no_constant(name: str) -> object:
    raise Malformed(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Malformed(f"the number {text[:20]}… is out of range")
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_lone_surrogates(node: object) -> None:
    """Refuse a string holding half of a UTF-16 pair (``"\\ud800"``): it cannot be stored or sent as UTF-8."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, str):
            if _SURROGATE.search(n):
                raise Malformed("a string holds a lone surrogate (\\ud800–\\udfff)")
        elif isinstance(n, dict):
            stack.extend(n.keys())
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)


def _decode(text: str | bytes) -> object:
    """The standard decoder with the room's checks on numbers; a number it cannot convert is :class:`Malformed`
    (the decoder's own ``ValueError`` for a 5,000-digit integer carries advice for programmers, not clients)."""
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except (json.JSONDecodeError, Malformed, RecursionError, UnicodeDecodeError):
        raise
    except ValueError as e:  # int('9' * 5000): past sys.get_int_max_str_digits()
        raise Malformed("a number has more digits than the room reads (4300)") from e


def loads_limited(text: str | bytes, max_depth: int) -> object:
    """``json.loads`` that refuses JSON nested deeper than ``max_depth`` with :class:`TooDeep`, never a
    ``RecursionError`` (the standard decoder recurses once per level), and malformed numbers and strings with
    :class:`Malformed`, never a bare ``ValueError``.  Texts with few brackets — every ordinary message — skip
    the depth walk; texts without a ``\\u`` escape skip the surrogate walk."""
    opened = text.count("[") + text.count("{") if isinstance(text, str) else text.count(b"[") + text.count(b"{")
    escaped = ("\\u" in text) if isinstance(text, str) else (b"\\u" in text)
    if opened <= max_depth:
        data = _decode(text)
        if escaped:
            _no_lone_surrogates(data)
        return data
    try:
        data = _decode(text)
    except RecursionError:
        raise TooDeep(f"JSON nested deeper than {max_depth} levels") from None
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > max_depth:
                raise TooDeep(f"JSON nested deeper than {max_depth} levels")
            children = node.values() if isinstance(node, dict) else node
            stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    if escaped:
        _no_lone_surrogates(data)
    return data
