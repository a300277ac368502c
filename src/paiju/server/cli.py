"""``paiju serve``: the card room on one machine (SQLite in the data directory, or PostgreSQL)."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from paiju.server.settings import Settings

TOKEN = re.compile(r"(token=)[^&\s\"']+")


class RedactTokens(logging.Filter):
    """Keep session tokens (``/ws/tables/<id>?token=...``) out of the server's logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(TOKEN.sub(r"\1…", a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str) and "token=" in record.msg:
            record.msg = TOKEN.sub(r"\1…", record.msg)
        return True


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``paiju`` command (called by paiju.cli.main when the server extra is present)."""

    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
        data_dir: Annotated[Path, typer.Option(help="SQLite file and secret key live here")] = Path("./data"),
        database_url: Annotated[str | None, typer.Option(
            help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db (default: SQLite in the data dir)",
            envvar="PAIJU_DATABASE_URL")] = None,
        redis_url: Annotated[str | None, typer.Option(
            help="several workers serve one room: this Redis (redis://host:6379/0) with a PostgreSQL "
                 "--database-url and a shared PAIJU_SECRET_KEY (docs/server.md, \"Several workers\")",
            envvar="PAIJU_REDIS_URL")] = None,
        redis_prefix: Annotated[str, typer.Option(help="prefix of this room's Redis keys",
                                                  envvar="PAIJU_REDIS_PREFIX")] = "paiju",
        lease_seconds: Annotated[float, typer.Option(
            help="with --redis-url: a worker silent this long loses its tables to the others")] = 3.0,
        heartbeat_seconds: Annotated[float, typer.Option(
            help="with --redis-url: how often a worker renews its lease and checks the others'")] = 0.5,
        unheard_seconds: Annotated[float, typer.Option(
            help="with --redis-url: a worker whose Redis connections are gone this long loses its tables at once "
                 "(a killed process); 0 (default): only when its lease runs out (docs/server.md)")] = 0.0,
        turn_seconds: Annotated[float, typer.Option(help="default turn window")] = 20.0,
        ready_seconds: Annotated[float, typer.Option(
            help="准备: a table a person makes waits for everyone seated to press ready; someone not ready this "
                 "long may be removed by the creator (0: tables start as their creator says)")] = 60.0,
        claim_seconds: Annotated[float, typer.Option(help="default claim window")] = 10.0,
        grace_seconds: Annotated[float, typer.Option(help="disconnection allowed before a bot takes over")] = 60.0,
        pace_seconds: Annotated[float, typer.Option(help="default length of a paced step (升级's deal)")] = 0.2,
        next_hand_seconds: Annotated[float, typer.Option(
            help="default pause between hands, unless everyone presses continue sooner (0: none)")] = 15.0,
        claim_pause: Annotated[float, typer.Option(
            help="default wait after every discard, whether or not anyone can claim (0: off)")] = 1.0,
        bot_delay: Annotated[float, typer.Option(help="bots' think delay in seconds")] = 0.8,
        strong_bot_seconds: Annotated[float, typer.Option(
            help="the longest a strong (高手) bot may think before the fast bot moves for it")] = 1.0,
        strong_bot_workers: Annotated[int, typer.Option(
            help="worker processes for strong bots' searches (0: one per core)")] = 0,
        session_days: Annotated[float, typer.Option(help="a session unused this many days expires (sliding)")] = 30.0,
        ws_deflate: Annotated[bool, typer.Option(
            help="compress websocket messages (permessage-deflate): ~5x less bandwidth, but more CPU and "
                 "memory per socket")] = False,
        ws: Annotated[str, typer.Option(
            help="uvicorn's websocket implementation: auto, websockets-sansio, websockets or wsproto "
                 "(docs/performance/server.md compares them)")] = "auto",
        admin: Annotated[list[str] | None, typer.Option(
            "--admin", help="username of a host (repeat for several); `paiju admin grant` adds more")] = None,
        quick_match_seconds: Annotated[float, typer.Option(
            help="quick match: seconds before bots fill a table nobody else joined")] = 20.0,
        rated_bots: Annotated[int, typer.Option(
            min=0, help="a match is rated (it books scores) with at most this many bots at its start")] = 0,
        chat_length: Annotated[int, typer.Option(
            help="free-text chat at tables: longest message in characters (0: off, quick phrases only)")] = 0,
        log_level: Annotated[str, typer.Option(help="debug, info, warning")] = "info",
        cookie_secure: Annotated[bool, typer.Option(
            help="hosting behind TLS: the session cookie is Secure and pages send HSTS")] = False,
        allowed_origin: Annotated[list[str] | None, typer.Option(
            help="an origin besides the served one whose pages may use the session cookie, e.g. "
                 "https://cards.example.org (repeatable)")] = None,
        trusted_proxy: Annotated[list[str] | None, typer.Option(
            help="a reverse proxy's address or network whose X-Forwarded-For names the client (repeatable)")] = None,
        address_limit_factor: Annotated[float, typer.Option(
            help="multiply every per-address limit (many players behind one address; load tests)")] = 1.0,
        waiting_table_minutes: Annotated[float, typer.Option(
            help="drop a waiting table nobody joined for this long (0: never)")] = 30.0,
        autoplay_after_timeouts: Annotated[int, typer.Option(
            help="autoplay (托管) a person whose window ran out this many times in a row (0: never)")] = 2,
        watchers_per_table: Annotated[int, typer.Option(help="spectators a table takes")] = 200,
        connections_per_address: Annotated[int, typer.Option(help="open websockets per client address")] = 256,
        tcp_connections_per_address: Annotated[int, typer.Option(
            min=1, help="open TCP connections per client address in this process, counted before a byte is read "
                        "(--trusted-proxy peers are not capped)")] = 320,
        header_timeout: Annotated[float, typer.Option(
            min=0.0, help="seconds a request's head (request line and headers) may take to arrive (0: none)")] = 10.0,
        ws_max_message_bytes: Annotated[int, typer.Option(
            min=256, help="the largest websocket message a client may send; larger closes the socket (1009)")] = 8192,
        ws_bytes_per_second_per_address: Annotated[int, typer.Option(
            min=1024, help="JSON bytes one address may have parsed per second over its websockets")] = 65536,
        login_failures_per_user: Annotated[int, typer.Option(
            min=1, help="failed password checks per username in --login-window (then 429)")] = 10,
        login_failures_per_address: Annotated[int, typer.Option(
            min=1, help="failed password checks per client address in --login-window (then 429)")] = 50,
        login_window: Annotated[float, typer.Option(help="the window of the password limits, in seconds")] = 900.0,
        password_checks_per_address: Annotated[int, typer.Option(
            min=1, help="password checks of one address running at once (more: 429 before any hash)")] = 2,
        reports_per_day: Annotated[int, typer.Option(min=1, help="reports one player may file in 24 hours")] = 10,
        reports_per_target_per_day: Annotated[int, typer.Option(
            min=1, help="reports one player may file about one other player in 24 hours")] = 1,
        room_lookups_per_minute: Annotated[int, typer.Option(
            min=1, help="room-number lookups per client address a minute (a session: two thirds of it)")] = 30,
        gc_full_minutes: Annotated[float, typer.Option(
            min=0.0, help="minutes between full garbage collections, the only ones that walk every table and socket "
                 "(about 0.35 s at 1,000 tables); 0: Python's own schedule")] = 10.0,
    ) -> None:
        """Start the card room: open http://HOST:PORT/ in a browser."""
        import uvicorn

        from paiju.server import Settings, create_app
        logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        if log_level.lower() != "debug":
            logging.getLogger("alembic").setLevel(logging.WARNING)
        for name in ("uvicorn.error", "uvicorn.access"):
            logging.getLogger(name).addFilter(RedactTokens())
        if redis_url and not (database_url or "").startswith("postgresql"):
            raise typer.BadParameter("--redis-url needs a PostgreSQL --database-url (one SQLite file serves one "
                                     "process)", param_hint="--redis-url")
        if redis_url and not os.environ.get("PAIJU_SECRET_KEY"):
            raise typer.BadParameter("--redis-url needs PAIJU_SECRET_KEY, the same for every worker",
                                     param_hint="--redis-url")
        settings = Settings(data_dir=data_dir, database_url=database_url, redis_url=redis_url or None,
                            redis_prefix=redis_prefix, lease_seconds=lease_seconds,
                            heartbeat_seconds=heartbeat_seconds, unheard_seconds=unheard_seconds,
                            ready_seconds=ready_seconds,
                            secret_key=os.environ.get("PAIJU_SECRET_KEY") or None, turn_seconds=turn_seconds,
                            claim_seconds=claim_seconds, grace_seconds=grace_seconds,
                            pace_seconds=pace_seconds, next_hand_seconds=next_hand_seconds, claim_pause=claim_pause,
                            bot_delay_seconds=bot_delay, strong_bot_seconds=strong_bot_seconds,
                            strong_bot_budget=min(0.7, 0.7 * strong_bot_seconds),
                            strong_bot_workers=strong_bot_workers, session_days=session_days,
                            gc_full_every_seconds=gc_full_minutes * 60.0 or None,
                            cookie_secure=cookie_secure, allowed_origins=tuple(allowed_origin or ()),
                            trusted_proxies=tuple(trusted_proxy or ()), address_limit_factor=address_limit_factor,
                            waiting_table_minutes=waiting_table_minutes,
                            autoplay_after_timeouts=autoplay_after_timeouts, watchers_per_table=watchers_per_table,
                            connections_per_address=connections_per_address,
                            tcp_connections_per_address=tcp_connections_per_address,
                            header_timeout_seconds=header_timeout, ws_max_message_bytes=ws_max_message_bytes,
                            ws_bytes_per_second_per_address=ws_bytes_per_second_per_address,
                            login_failures_per_user=login_failures_per_user,
                            login_failures_per_address=login_failures_per_address, login_window_seconds=login_window,
                            password_checks_per_address=password_checks_per_address,
                            reports_per_day=reports_per_day, reports_per_target_per_day=reports_per_target_per_day,
                            room_lookups_per_minute_per_address=room_lookups_per_minute,
                            room_lookups_per_minute_per_session=max(1, room_lookups_per_minute * 2 // 3),
                            admins=tuple(admin or ()), quick_match_seconds=quick_match_seconds, rated_bots=rated_bots,
                            chat_max_length=chat_length)
        typer.echo(f"牌局 card room: http://{host}:{port}/  (data: {settings.database_url or data_dir})")
        from paiju.server.http.door import serve_options

        # uvicorn's own X-Forwarded-For handling is off (the room reads it, from trusted proxies only, limits.py);
        # its HTTP protocol counts connections per address and times each request's head (http/door.py)
        uvicorn.run(create_app(settings), host=host, port=port, log_level=log_level.lower(), ws=ws,
                    ws_per_message_deflate=ws_deflate, **serve_options(settings))


TOOLS = ("admin", "export")
"""The card room's offline commands (beside ``serve``), loaded as lazily as it is."""


def _engine(data_dir: Path, database_url: str | None) -> tuple[Engine, Settings]:
    """The migrated database of a data directory (or URL), and the Settings naming it."""
    from paiju.server import Settings
    from paiju.server import storage as st
    settings = Settings(data_dir=data_dir, database_url=database_url,
                        secret_key=os.environ.get("PAIJU_SECRET_KEY") or None)
    engine = st.make_engine(settings.db_url, settings.data_dir)
    st.migrate(engine)
    return engine, settings


DataDir = Annotated[Path, typer.Option(help="the server's data directory (SQLite file, secret key)")]
DatabaseUrl = Annotated[str | None, typer.Option(help="SQLAlchemy URL (default: SQLite in the data dir)",
                                                 envvar="PAIJU_DATABASE_URL")]


def register_tools(app: typer.Typer) -> None:
    """Add ``admin`` (hosts) and ``export`` (finished games as JSON lines) to the ``paiju`` command."""
    admin = typer.Typer(help="The room's hosts: create, grant, revoke, list (docs/server.md, \"Hosts\").",
                        no_args_is_help=True)

    def _grant(username: str, data_dir: Path, database_url: str | None, revoke: bool) -> None:
        import time

        from paiju.server.people.moderation import grant as grant_host

        engine, _settings = _engine(data_dir, database_url)
        try:
            with engine.begin() as c:
                pid = grant_host(c, username, time.time(), revoke=revoke)
        except LookupError as e:
            typer.echo(f"{e}: register the account first", err=True)
            raise typer.Exit(1) from None
        finally:
            engine.dispose()
        typer.echo(f"{'revoked' if revoke else 'granted'}: {username} (player {pid})")

    @admin.command("grant")
    def grant(username: str, data_dir: DataDir = Path("./data"), database_url: DatabaseUrl = None) -> None:
        """Make the account USERNAME a host (logged as done by 'cli')."""
        _grant(username, data_dir, database_url, revoke=False)

    @admin.command("revoke")
    def revoke(username: str, data_dir: DataDir = Path("./data"), database_url: DatabaseUrl = None) -> None:
        """USERNAME is no longer a host (one named by --admin stays one while the server is started so)."""
        _grant(username, data_dir, database_url, revoke=True)

    @admin.command("create")
    def create(
        username: str,
        password_stdin: Annotated[bool, typer.Option(
            "--password-stdin", help="read the password from the first line of standard input (scripts)")] = False,
        nickname: Annotated[str | None, typer.Option(help="the nickname shown at tables (default: USERNAME)")] = None,
        data_dir: DataDir = Path("./data"), database_url: DatabaseUrl = None,
    ) -> None:
        """Make a new account USERNAME that is a host, its password prompted (or read with --password-stdin)."""
        import sys
        import time

        from paiju.server.people.moderation import create_host

        if password_stdin:
            password = sys.stdin.readline().rstrip("\r\n")
        else:
            password = typer.prompt("password", hide_input=True, confirmation_prompt=True)
        engine, settings = _engine(data_dir, database_url)
        try:
            with engine.begin() as c:
                pid = create_host(c, settings, username, password, nickname, time.time())
        except ValueError as e:
            typer.echo(str(e), err=True)
            raise typer.Exit(1) from None
        finally:
            engine.dispose()
        typer.echo(f"created host: {username} (player {pid})")

    @admin.command("list")
    def list_(data_dir: DataDir = Path("./data"), database_url: DatabaseUrl = None) -> None:
        """The hosts granted in the database."""
        from paiju.server.people.moderation import list_hosts

        engine, _settings = _engine(data_dir, database_url)
        with engine.connect() as c:
            for h in list_hosts(c):
                typer.echo(f"{h['username']}\t{h['player_id']}\tgranted by {h['granted_by']}")
        engine.dispose()

    @admin.command("rebuild-ratings")
    def rebuild_ratings(data_dir: DataDir = Path("./data"), database_url: DatabaseUrl = None) -> None:
        """Recompute every skill rating from the stored rated matches, in their one global order (issue 35)."""
        import time

        from paiju.server.scores.rating import rebuild

        engine, _settings = _engine(data_dir, database_url)
        try:
            with engine.begin() as c:
                n = rebuild(c, time.time())
        finally:
            engine.dispose()
        typer.echo(f"rebuilt the ratings from {n} rated matches")

    app.add_typer(admin, name="admin")

    @app.command()
    def export(
        anonymize: Annotated[bool, typer.Option(help="players and tables as stable pseudonyms, no nicknames")] = False,
        out: Annotated[Path | None, typer.Option(help="write here instead of standard output")] = None,
        game: Annotated[str | None, typer.Option(help="only this game's matches")] = None,
        key: Annotated[str | None, typer.Option(
            help="key of the pseudonyms (default: a new random key, so two exports cannot be joined on them; "
                 "give the same key to make exports that can)", envvar="PAIJU_EXPORT_KEY")] = None,
        data_dir: DataDir = Path("./data"),
        database_url: DatabaseUrl = None,
    ) -> None:
        """Finished games' records as JSON lines, for researchers (docs/server.md, "Export")."""
        import secrets
        import sys

        from paiju.server.scores.export import write_jsonl

        engine, _settings = _engine(data_dir, database_url)
        secret = key or secrets.token_urlsafe(32)
        try:
            with engine.connect() as c:
                if out is None:
                    n = write_jsonl(c, sys.stdout, anonymize=anonymize, key=secret, game=game)
                else:
                    with out.open("w", encoding="utf-8") as f:
                        n = write_jsonl(c, f, anonymize=anonymize, key=secret, game=game)
        finally:
            engine.dispose()
        typer.echo(f"{n} matches exported{' (anonymized)' if anonymize else ''}", err=True)
