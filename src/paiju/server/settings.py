"""Card room settings: one frozen object built by the caller (CLI, tests), never read at import time."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Settings:
    """Everything the card room can be told.  Defaults suit one machine with a SQLite file."""

    data_dir: Path = Path("./data")
    database_url: str | None = None
    """SQLAlchemy URL; None means ``sqlite:///<data_dir>/paiju.sqlite3``."""
    secret_key: str | None = None
    """Signs session tokens; None means a key kept in ``<data_dir>/secret.key`` (made on first start).
    Several processes serving one database must share it."""
    turn_seconds: float = 20.0
    """Default window for an ordinary turn (a table option)."""
    claim_seconds: float = 10.0
    """Default window for a claim (a table option; the rule pages say 10 s)."""
    pace_seconds: float = 0.2
    """Default length of one paced step (升级's deal: a card to each seat): fixed, never closed early while a
    person sits at the table (a table option; bot-only tables do not wait)."""
    claim_pause: float = 1.0
    """Default claim pause: after every discard the table waits this long whether or not anyone can claim, and
    a claim window ends with one update for all (a table option, for games whose rules can ask every seat;
    it applies where an answer can take time: another person, or bots that think).  0: off."""
    max_pace_seconds: float = 5.0
    next_hand_seconds: float = 15.0
    """Default pause between two hands of a match with people at the table: the next hand starts when every
    person has pressed *continue*, or after this long (a table option; 0: no pause)."""
    min_window_seconds: float = 0.05
    max_window_seconds: float = 3600.0
    min_turn_seconds: float = 5.0
    """The shortest timed turn window a table accepts (0, untimed, is always allowed): people need time to
    decide.  Tests of the clock lower it."""
    grace_seconds: float = 60.0
    """How long a seated player may stay disconnected mid-game before a bot takes the seat."""
    bot_delay_seconds: float = 0.8
    """Think delay before a bot acts, so people can follow; 0 in tests."""
    bot_kind: str = "best"
    """The normal (普通) bot: filling seats without a strength, autoplay (托管) and replacing a leaver."""
    # ---- strong bots (docs/server.md, "Bot strengths") ----
    strong_bot_seconds: float = 1.0
    """The longest a strong (高手) bot's decision may take in the room: past it the fast bot's move is made."""
    strong_bot_budget: float = 0.7
    """The search budget a strong bot is given (its ``budget_seconds``), counted from when the room asks; the
    rest of ``strong_bot_seconds`` is for sending the position to a worker and the answer back."""
    strong_bot_workers: int = 0
    """Worker processes for strong bots' searches; 0: one per core this process may use."""
    strong_bot_queue: int | None = None
    """The most search decisions that may wait for a worker; past it the fast bot decides.  None: as many as
    there are workers."""
    strong_bot_lag_seconds: float = 0.05
    """While the event loop lags more than this, strong bots play the fast bot's move (the room is busy)."""
    strong_bot_lag_every: float = 0.1
    """How often the loop's lag is measured."""
    resume_buffer: int = 64
    """Updates kept per table for ``resume``; older gaps get a fresh snapshot."""
    send_queue_limit: int = 1000
    """A client this many messages behind is disconnected (it can reconnect and resume)."""
    cookie_secure: bool = False
    allow_fixed_deals: bool = False
    """Let table creation fix ``seed``/``deal`` (tests, prepared tournaments).  Never on an open server:
    whoever knows the seed knows every card."""
    gc_full_every_seconds: float | None = None
    """Collect only the young generation automatically and run one full collection every this many seconds
    (``paiju serve --gc-full-minutes``, 10): the older generations' collections stall the event loop for tens
    to hundreds of ms with thousands of sockets.  None leaves Python's GC as it is (tests and embedding,
    where the process is not ours alone)."""
    clock: Callable[[], float] = field(default=time.time, compare=False)
    """Unix time in seconds; deadlines are absolute times on this clock."""
    # ---- accounts and sessions (docs/server.md, "Accounts") ----
    session_days: float = 30.0
    """A session unused this long expires; every use pushes its end back (sliding)."""
    session_touch_seconds: float = 3600.0
    """A session's end is pushed back at most this often (one write per session per hour, not per request)."""
    session_recheck_seconds: float = 10.0
    """How long this process trusts a session it has checked: a logout in another process is honoured here
    within this time (the process that logs out forgets at once)."""
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
    """argon2id parameters (argon2-cffi's defaults, RFC 9106's second choice); tests lower them."""
    login_failures_per_user: int = 10
    login_failures_per_address: int = 50
    login_window_seconds: float = 900.0
    """Failed password checks allowed per username and per client address in a sliding window (logins,
    password changes and deletions alike; each attempt is reserved before the hash); past them: 429."""
    password_checks_per_address: int = 2
    """Password checks of one client address running at once in a process; more are refused (429) before they
    cost a hash."""
    # ---- friends and hosts (docs/server.md, "Playing with friends", "Hosts") ----
    admins: tuple[str, ...] = ()
    """Usernames of the room's hosts (``--admin``), besides those granted with ``paiju admin grant``."""
    quick_match_seconds: float = 20.0
    """Quick match: a table nobody else joins within this time starts with bots in its empty seats."""
    rated_bots: int = 0
    """A match is rated (it books) only if people hold every seat at its start, or all but this many
    (``--rated-bots``); bot seats never book.  docs/server.md, "Rated and casual"."""
    address_purge_seconds: float = 3600.0
    """How often the room deletes stored addresses older than ``ADDRESS_DAYS`` days (scores/signals.py): the
    30-day limit holds even when nobody sits down or reads the signals for a while."""
    signal_meetings: int = 10
    """Collusion signals: two players who met at this many rated tables within ``ADDRESS_DAYS`` are shown to
    the hosts (scores/signals.py)."""
    chat_max_length: int = 0
    """Free-text chat at tables: 0 is off (quick phrases only); otherwise the longest message, in characters."""
    ready_seconds: float = 60.0
    """准备: a table a person makes waits for every seated person's ready and starts when all have; someone
    not ready this long after sitting down may be removed by the creator (a table's own ``ready_seconds``
    wins; 0 here: no table waits for ready, the creator starts it as before).  Quick tables and rematches never
    wait (room/waiting.py)."""
    kick_ban_seconds: float = 600.0
    """A person the creator removed may not sit at that table again for this long."""
    hints: bool = True
    """提示: a hint button (the strong bot's choice for your seat) at tables that are not rated (issue 38)."""
    hint_burst: int = 5
    hint_every_seconds: float = 6.0
    """Hints per player, over all their sockets and workers: ``hint_burst`` in any ``hint_burst *
    hint_every_seconds`` seconds (5 in 30 s: a hint for most decisions of a careful learner, not a bot's feed)."""
    chat_filter_reload_seconds: float = 10.0
    """How old a worker's copy of the hosts' chat filter may be (the worker where it was changed reads it at
    once; the others within this)."""
    phrase_burst: int = 3
    phrase_every_seconds: float = 3.0
    """Quick phrases and chat per player, over all their sockets and workers: ``phrase_burst`` in any
    ``phrase_burst * phrase_every_seconds`` seconds (3 in 9 s: three at once, then one every 3 s on average)."""
    reports_per_day: int = 10
    """Reports one player may file in 24 hours."""
    reports_per_target_per_day: int = 1
    """Reports one player may file about one other player (or one bot's seat) in 24 hours."""
    room_lookups_per_minute_per_address: int = 30
    room_lookups_per_minute_per_session: int = 20
    """Room-number lookups (``GET /api/rooms/<n>``): a number is six digits, so they are counted."""

    # ---- limits (docs/server.md, "Security") ----
    max_body_bytes: int = 64 * 1024
    """An HTTP body larger than this is refused (413) before it is read whole."""
    max_json_depth: int = 32
    """JSON nested deeper than this is refused (HTTP 400 ``bad_json``, websocket ``bad_message``)."""
    sessions_per_minute_per_address: int = 20
    """New guest sessions and new accounts per client address per minute."""
    tables_per_minute_per_session: int = 10
    tables_per_minute_per_address: int = 30
    lobby_reads_per_minute_per_session: int = 120
    lobby_reads_per_minute_per_address: int = 600
    ws_messages_per_second: float = 20.0
    ws_message_burst: int = 40
    """A connection may send ``ws_message_burst`` messages at once and ``ws_messages_per_second`` on
    average; past that each message gets a ``rate_limited`` error, and ``ws_strikes`` of those close it."""
    ws_strikes: int = 40
    ws_messages_per_second_per_address: float = 200.0
    """All websockets of one client address together (a window of 2 s; raised by ``address_limit_factor``):
    256 sockets at 20 a second each would be 5,000 messages a second from one address."""
    connections_per_address: int = 256
    """Open websockets per client address (all tables together)."""
    ws_max_message_bytes: int = 8 * 1024
    """The largest websocket message a client may send (its messages are under 1 KB); larger closes the socket
    with 1009.  ``paiju serve`` gives it to uvicorn, which refuses the frame before reading it."""
    ws_bytes_per_second_per_address: int = 64 * 1024
    """JSON a client address may have parsed per second over all its websockets (a window of 2 s; raised by
    ``address_limit_factor``): past it each message is dropped with ``rate_limited``, as for the message count."""
    tcp_connections_per_address: int = 320
    """Open TCP connections per client address in one process (HTTP and websockets, counted before a byte is
    read); the next is answered 429 and closed.  Peers listed in ``trusted_proxies`` are not capped."""
    header_timeout_seconds: float = 10.0
    """An HTTP request's head (request line and headers) must arrive within this many seconds of the
    connection or of the previous answer; else the connection is closed."""
    watchers_per_table: int = 200
    """Spectators per table (seated players always get in)."""
    address_limit_factor: float = 1.0
    """Multiplies every per-address limit: a load test whose thousands of clients share one loopback address
    raises them with it; so may a room whose players mostly come through one carrier's address."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses of reverse proxies whose ``X-Forwarded-For`` names the client; anyone else's is ignored."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the served one whose pages may use the session cookie (``--allowed-origin``)."""
    waiting_table_minutes: float = 30.0
    """A waiting table whose seats nobody has changed for this long is dropped (0: never)."""
    autoplay_after_timeouts: int = 2
    """A person whose window runs out this many times in a row is played by the bot (托管) until they act
    again (0: never)."""
    db_busy_seconds: float = 5.0
    """How long a write waits for a SQLite file locked by another process before it fails (then 503)."""
    redis_url: str | None = None
    """Several workers serve one room through this Redis (cluster.py) and one PostgreSQL; None: one process."""
    redis_prefix: str = "paiju"
    """The Redis keys' prefix (two rooms on one Redis, or tests)."""
    lease_seconds: float = 3.0
    """A worker's lease on its tables: a worker silent this long loses them to the others.  Renewed from a
    thread of its own (cluster/leases.py), so loop lag does not count; a full garbage collection (it holds the
    interpreter, about 0.35 s at 1,000 tables, so some 1.1 s at 3,000) must fit in the lease minus one
    heartbeat, with room to spare: 3 s less 0.5 s leaves more than twice that."""
    heartbeat_seconds: float = 0.5
    """How often a worker renews its lease and looks for workers whose lease has gone: a dead worker is noticed
    between ``lease_seconds - heartbeat_seconds`` and ``lease_seconds + heartbeat_seconds`` after its death."""
    unheard_seconds: float = 0.0
    """A worker whose Redis inbox has had no subscriber this long has its lease ended at once: a killed process's
    connections close with it, so it is noticed in about this plus a heartbeat, not a lease.  A worker that is
    only slow (loop lag, a full garbage collection) or stopped keeps its connections, so it keeps its lease.
    0 (the default) leaves only the lease: with 1 s, a table taken over about a second after its owner's death
    sometimes stalls for its reconnected player (docs/server.md; not understood yet)."""
    moving_retry_seconds: float = 0.5
    """The "try again" hint sent with a refusal while a table moves between workers (4503, 503 ``Retry-After``)."""
    moving_refusals_per_second_per_address: float = 20.0
    """Refusals of a moving table per address and second (two-second bursts) before the next are refused at
    once, without a look at Redis or the database, with a longer hint (a reconnect storm stays cheap)."""

    def per_address(self, limit: float) -> int:
        """A per-address limit as raised by ``address_limit_factor``."""
        return max(1, int(limit * self.address_limit_factor))

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @property
    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'paiju.sqlite3').resolve()}"

    def signing_key(self) -> str:
        """The configured key, else the one in the data directory (created once, readable only by us)."""
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / "secret.key"
        if path.exists():
            return path.read_text(encoding="ascii").strip()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(32)
        path.write_text(key, encoding="ascii")
        path.chmod(0o600)
        return key
