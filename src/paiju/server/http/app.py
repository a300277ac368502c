"""The card room's ASGI app: the lifespan that wires the room together, and the routes.

``create_app(settings)`` builds everything; the lifespan owns the database, the writer thread and the
table registry (with its timers), so nothing is read or opened at import time.  It is where the layers meet:
the ledger's hooks go into the room (``scoring.hook_into``), the cluster is chosen, and every table command is
registered once for whichever worker runs it.  The handlers live in routes_tables.py (the lobby and the
tables), socket.py (the websocket) and the other route modules.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from paiju.core import registry

from .. import storage as st
from ..cluster.redis_cluster import Cluster, RedisCluster
from ..limits import Budget, Limits, Sockets, Throttle
from ..lobby.quick import QuickMatch
from ..people.accounts import Accounts, SessionStore
from ..people.moderation import Moderation
from ..room.bots import BotFactory, default_bot_factory, warm_bots
from ..room.hints import Hints
from ..room.room import Room
from ..room.talk import Talk
from ..scores import scoring, signals
from ..settings import Settings
from ..writer import Database
from . import routes_friends, routes_history, routes_host, routes_players
from .guard import Guard
from .routes_tables import (
    SEAT_COMMANDS,
    WEB_DIR,
    add_bots,
    create_table,
    game_rules,
    get_record,
    get_session,
    get_table,
    healthz,
    index,
    kick_unready,
    leave,
    list_games,
    list_tables,
    new_session,
    ready,
    remove_bot,
    set_rated,
    sit,
    start,
)
from .socket import SessionSockets, handle_message, table_socket

log = logging.getLogger("paiju.server")


# ---- garbage collection -------------------------------------------------------------------------------

async def _gc_policy(every: float, freeze_every: float = 1.0) -> None:
    """Keep Python's garbage collector out of the tail latency.

    A collection stalls the event loop while it walks every object of the generations it collects.  Measured
    at 1,000 tables (4,000 sockets): a full collection takes 300–380 ms; the middle generation's 20–140 ms,
    finding nothing, sixty times in a row (what outlives a young collection here is state that lives:
    records, seats, sockets); and even the young generation's took 40–50 ms, because its count is of
    allocations *net of deaths*: while old state is replaced as fast as new is made, the young list grows for
    seconds between collections.  So the older generations are never collected by themselves, and every
    ``freeze_every`` seconds everything is frozen (out of the collector's sight, without a look), which keeps
    a young collection to one second's objects at most; every ``every`` seconds everything is unfrozen and
    fully collected once, so cyclic garbage that outlives its first second is kept no longer than that.
    """
    young, middle, old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(max(young, 5_000), 1_000_000_000, 1_000_000_000)
    loop = asyncio.get_running_loop()
    last_full = loop.time()
    try:
        while True:
            await asyncio.sleep(freeze_every)
            if loop.time() - last_full >= every:
                gc.unfreeze()
                started = time.perf_counter()
                found = gc.collect()
                log.info("full garbage collection: %.0f ms, %d unreachable objects",
                         (time.perf_counter() - started) * 1000, found)
                last_full = loop.time()
            gc.freeze()
    finally:
        gc.set_threshold(young, middle, old)


# ---- the app -------------------------------------------------------------------------------------------

def create_app(settings: Settings | None = None, *, bot_factory: BotFactory | None = None) -> Starlette:
    """The card room for ``settings``; nothing is opened until the app starts."""
    settings = settings if settings is not None else Settings()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = st.make_engine(settings.db_url, settings.data_dir, settings.db_busy_seconds)
        await asyncio.to_thread(st.migrate, engine)
        db = Database(engine)
        room = Room(settings, db, bot_factory or default_bot_factory)
        scoring.hook_into(room.hooks, db, settings.clock)  # the ledger books every match and escape
        cluster = room.cluster = Cluster() if settings.redis_url is None else \
            RedisCluster(settings.redis_url, settings.redis_prefix, settings.lease_seconds,
                         heartbeat_seconds=settings.heartbeat_seconds, unheard_seconds=settings.unheard_seconds)
        # with other workers, a table is rebuilt by whoever takes it over (cluster.start), not by every worker
        rows = [] if cluster.enabled else \
            await asyncio.to_thread(db.run_now, lambda c: st.load_tables(c, unfinished=True))
        db.start()
        app.state.settings = settings
        app.state.limits = Limits(
            settings.clock, sessions_per_address=settings.per_address(settings.sessions_per_minute_per_address),
            tables_per_session=settings.tables_per_minute_per_session,
            tables_per_address=settings.per_address(settings.tables_per_minute_per_address),
            reads_per_session=settings.lobby_reads_per_minute_per_session,
            reads_per_address=settings.per_address(settings.lobby_reads_per_minute_per_address),
            lookups_per_session=settings.room_lookups_per_minute_per_session,
            lookups_per_address=settings.per_address(settings.room_lookups_per_minute_per_address),
            shared=cluster.limit if isinstance(cluster, RedisCluster) else None)
        app.state.sockets = Sockets(settings.per_address(settings.connections_per_address),
                                    cluster if isinstance(cluster, RedisCluster) else None)
        app.state.ws_by_address = Throttle(
            settings.per_address(settings.ws_messages_per_second_per_address * 2.0), 2.0, settings.clock)
        app.state.moving_by_address = Throttle(  # "try again" refusals while tables move (socket.py)
            settings.per_address(settings.moving_refusals_per_second_per_address * 2.0), 2.0, settings.clock)
        app.state.ws_bytes_by_address = Budget(
            settings.per_address(settings.ws_bytes_per_second_per_address * 2.0), 2.0, settings.clock)
        app.state.sessions = store = SessionStore(db, settings)
        app.state.session_sockets = opened = SessionSockets()
        store.on_revoked = opened.heard  # a session ended here closes its sockets here at once
        if isinstance(cluster, RedisCluster):  # a logout or ban at one worker holds at every worker at once
            def heard(news: str) -> None:
                """Another worker's news: a revoked session is forgotten and the sockets it opened here close;
                a ban closes the banned player's sockets at our tables (wherever the socket itself is: a
                relayed one closes at its worker)."""
                store.heard(news)
                opened.heard(news)
                routes_host.heard(room, news)

            store.announce, cluster.on_news = cluster.announce, heard
        app.state.accounts = accounts = Accounts(db, settings, store, routes_players.forgetter(room),
                                                 shared=cluster.limit if isinstance(cluster, RedisCluster) else None)
        await accounts.warm_up()
        app.state.room = room
        app.state.rematches = routes_history.Rematches(room)
        app.state.moderation = moderation = Moderation(db, settings)
        await moderation.load()
        app.state.banned = moderation.banned  # the same set: handlers refuse banned players by it
        app.state.quick = quick = QuickMatch(room)
        app.state.talk = Talk(settings, cluster.limit if isinstance(cluster, RedisCluster) else None,
                              words=moderation.chat_filter)
        app.state.hints = Hints(settings, cluster.limit if isinstance(cluster, RedisCluster) else None)
        # every lobby command on a table, run the same at its owner whichever worker the request reached
        app.state.commands = commands = {**SEAT_COMMANDS, **routes_host.table_commands(moderation),
                                         **routes_history.rematch_commands(app.state.rematches),
                                         **quick.commands()}
        app.state.reads = reads = {"rematch": app.state.rematches.state}  # reads that need no session
        if isinstance(cluster, RedisCluster):
            cluster.reads = reads
            cluster.after_takeover = lambda: routes_history.book_pending(room)  # as at a start, at a takeover
        await room.restore(rows)
        await cluster.start(room, lambda table, conn, text: handle_message(table, conn, text, app.state.talk,
                                                                    settings.max_json_depth, app.state.hints),
                            commands)
        booking = asyncio.get_running_loop().create_task(routes_history.book_pending(room))
        warming = asyncio.get_running_loop().create_task(  # bots' lazily built tables, off the loop (bots.py)
            asyncio.to_thread(warm_bots, registry.game_names()))
        expiring = asyncio.get_running_loop().create_task(room.expire_forever())
        purging = asyncio.get_running_loop().create_task(  # addresses kept at most 30 days (docs/server.md)
            signals.purge_forever(db, settings.clock, settings.address_purge_seconds))
        gc_task = asyncio.get_running_loop().create_task(_gc_policy(settings.gc_full_every_seconds)) \
            if settings.gc_full_every_seconds else None
        try:
            yield
        finally:
            for task in (booking, expiring, purging, warming):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if gc_task is not None:
                gc_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await gc_task
                gc.unfreeze()
            await cluster.stop()
            accounts.close()
            quick.close()
            room.close()
            await asyncio.to_thread(db.stop)
            await cluster.release()  # every write has committed: the others may take the tables now
            engine.dispose()

    routes: list[Route | WebSocketRoute | Mount] = [
        Route("/", index),
        Route("/healthz", healthz),
        Route("/t/{table_id}", index),
        *[Route(path, index) for path in routes_history.PAGES],
        *[Route(path, index) for path in routes_friends.PAGES],
        Route("/rules/{game}", index),
        Route("/api/rules/{game}", game_rules),
        Route("/api/session", new_session, methods=["POST"]),
        Route("/api/session", get_session, methods=["GET"]),
        Route("/api/games", list_games),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", get_table),
        Route("/api/tables/{table_id}/record", get_record),
        Route("/api/tables/{table_id}/sit", sit, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", leave, methods=["POST"]),
        Route("/api/tables/{table_id}/bots", add_bots, methods=["POST"]),
        Route("/api/tables/{table_id}/bots/remove", remove_bot, methods=["POST"]),
        Route("/api/tables/{table_id}/start", start, methods=["POST"]),
        Route("/api/tables/{table_id}/rated", set_rated, methods=["POST"]),
        Route("/api/tables/{table_id}/ready", ready, methods=["POST"]),
        Route("/api/tables/{table_id}/kick", kick_unready, methods=["POST"]),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        *routes_players.ROUTES,
        *routes_history.ROUTES,
        *routes_friends.ROUTES,
        *routes_host.ROUTES,
    ]
    if WEB_DIR.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=WEB_DIR), name="static"))
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Guard, settings=settings)])
