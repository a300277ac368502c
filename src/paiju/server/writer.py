"""The database's one writer thread: every write of the room, committed in groups off the event loop.

All database work runs on one thread (:class:`Database`) that commits queued jobs in groups, so the event loop
never waits on disk and a thousand tables' moves cost a few commits a second.  Apart from storage.py (the
schema and its queries), which knows nothing of threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from typing import Any, TypeVar

import sqlalchemy.exc
from sqlalchemy import (
    Connection,
    Engine,
    Table,
    insert,
)

log = logging.getLogger("paiju.server.storage")

T = TypeVar("T")


# ---- the writer thread ----------------------------------------------------------------------------------

_STOP = object()


@dataclass
class _Insert:
    table: Table
    row: dict[str, Any]


class Database:
    """Runs database jobs on one thread, committing whatever is queued as one transaction.

    ``await db.run(job)`` returns once the job's transaction has committed: callers send messages only
    after their write is durable.  A failing job is retried alone so it cannot sink its neighbours.

    Jobs submitted during one turn of the event loop are handed to the writer thread together, and the
    writer settles a whole commit's futures with one wake-up of the loop: under load a thread hand-off per
    move (a lock release, a GIL switch, a self-pipe write back) cost more than the move's SQL.
    """

    def __init__(self, engine: Engine, max_batch: int = 512, min_interval: float = 0.004) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self.min_interval = min_interval
        """Seconds between the starts of two commits: under load every commit carries several moves (a
        commit and its thread hand-offs cost far more than a row); a lone move waits for nothing."""
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._pending: list[tuple[Any, asyncio.Future[Any], asyncio.AbstractEventLoop]] = []
        self._compiled: dict[tuple[Table, tuple[str, ...]], tuple[str, tuple[str, ...] | None] | None] = {}
        self._conn: Connection | None = None
        """The writer's kept connection, opened on first use: checking one out of the pool for each commit (and
        the pool's ping on PostgreSQL, a round trip) cost as much as the commit's own SQL under load."""
        self._used_at = float("-inf")
        self.idle_ping = 1.0
        """Seconds idle after which the kept connection is pinged before use (a database restarted meanwhile
        is reconnected to, as the pool's ping did; under load the connection is never idle that long)."""
        self.commits = 0
        self.jobs = 0
        self.handoffs = 0

    def start(self) -> None:
        self._thread = threading.Thread(target=self._work, name="paiju-db", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._hand_off()
            self._queue.put(_STOP)
            self._thread.join()
            self._thread = None
            self._drop()
            log.info("database: %d jobs in %d commits (%d hand-offs)", self.jobs, self.commits, self.handoffs)

    def run_now(self, job: Callable[[Connection], T]) -> T:
        """Run a job on the calling thread (start-up and shutdown only)."""
        with self.engine.begin() as conn:
            return job(conn)

    def _submit(self, job: Any) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        if not self._pending:
            loop.call_soon(self._hand_off)  # once this turn of the loop is over
        self._pending.append((job, fut, loop))
        return fut

    def _hand_off(self) -> None:
        if self._pending:
            batch, self._pending = self._pending, []
            self.handoffs += 1
            self._queue.put(batch)

    async def run(self, job: Callable[[Connection], T]) -> T:
        result: T = await self._submit(job)
        return result

    async def insert(self, table: Table, row: dict[str, Any]) -> None:
        """Insert one row; rows queued together for the same table go in one ``executemany``."""
        await self._submit(_Insert(table, row))

    def _work(self) -> None:
        stopping = False
        last = float("-inf")
        while not stopping:
            batch: list[Any] = []
            item = self._queue.get()
            wait = last + self.min_interval - time.monotonic()
            if wait > 0 and item is not _STOP:  # the last commit was just now: let more moves join this one
                time.sleep(wait)
            last = time.monotonic()
            while True:
                if item is _STOP:
                    stopping = True
                else:
                    batch.extend(item)
                if len(batch) >= self.max_batch:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            if batch:
                self._commit(batch)

    def _sql_for(self, table: Table, keys: tuple[str, ...]) -> tuple[str, tuple[str, ...] | None] | None:
        """``INSERT`` of these columns compiled once for the engine's driver: (SQL, column order when the
        driver takes positional parameters); None when a column's values need SQLAlchemy's conversion."""
        if (table, keys) not in self._compiled:
            dialect = self.engine.dialect
            plain = all(table.c[k].type.bind_processor(dialect) is None for k in keys)
            c = insert(table).compile(dialect=dialect, column_keys=list(keys))
            self._compiled[(table, keys)] = (c.string, tuple(c.positiontup or ()) if c.positional else None) \
                if plain else None
        return self._compiled[(table, keys)]

    def _connection(self) -> Connection:
        """The kept connection, pinged first if it sat idle (a dead one is replaced)."""
        conn = self._conn
        now = time.monotonic()
        if conn is not None and now - self._used_at > self.idle_ping:
            try:
                conn.exec_driver_sql("SELECT 1")
                conn.rollback()
            except Exception:
                self._drop()
                conn = None
        if conn is None:
            conn = self._conn = self.engine.connect()
        self._used_at = now
        return conn

    def _drop(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.invalidate()
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None

    def _plan(self, jobs: list[_Insert]) -> list[tuple[str, list[Any]]] | None:
        """Inserts as (precompiled SQL, parameter rows) runs for the driver's ``executemany``, or None when a
        column needs SQLAlchemy's conversion: SQLAlchemy's per-statement Python work cost more than the SQL, and
        it runs under the GIL the event loop needs."""
        plans: list[tuple[str, list[Any]]] = []
        for job in jobs:
            keys = tuple(job.row)
            compiled = self._sql_for(job.table, keys)
            if compiled is None:
                return None
            sql, positions = compiled
            params = tuple(job.row[k] for k in positions) if positions is not None else job.row
            if plans and plans[-1][0] == sql:
                plans[-1][1].append(params)
            else:
                plans.append((sql, [params]))
        return plans

    def _insert_rows(self, conn: Connection, jobs: list[_Insert]) -> None:
        """Rows inserted on ``conn``'s transaction, through the driver where the SQL allows it."""
        plans = self._plan(jobs)
        if plans is None:
            for table, run in groupby(jobs, key=lambda job: job.table):
                conn.execute(insert(table), [job.row for job in run])
            return
        cur = conn.connection.cursor()
        try:
            for sql, params_list in plans:
                cur.executemany(sql, params_list)
        finally:
            cur.close()

    def _commit(self, batch: list[Any], *, settle: bool = True) -> list[tuple[bool, Any]]:
        results: list[tuple[bool, Any]] = []
        try:
            results = self._commit_jobs(batch)
        except Exception as e:
            if len(batch) == 1 or _unavailable(e):
                # a database that cannot be reached (or a file locked by another process) fails the whole batch
                # at once: retrying each job alone would hold the writer for one busy timeout per job
                if _unavailable(e):
                    log.warning("database unavailable (%d jobs failed): %s", len(batch), str(e).splitlines()[0][:200])
                else:
                    log.exception("database job failed")
                results = [(False, e)] * len(batch)
            else:  # retry one by one, so only the failing job fails
                results = [r for item in batch for r in self._commit([item], settle=False)]
        else:
            self.commits += 1
            self.jobs += len(batch)
        if settle:
            by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
            for (ok, value), (_job, fut, loop) in zip(results, batch, strict=True):
                by_loop.setdefault(loop, []).append((fut, ok, value))
            for loop, settled in by_loop.items():
                # a closed loop means nobody is waiting any more
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle_all, settled)
        return results

    def _commit_jobs(self, batch: list[Any]) -> list[tuple[bool, Any]]:
        """Any jobs, in order, in one transaction on the kept connection; a run of inserts as one
        ``executemany`` per statement.  A connection the failure broke is dropped (the next batch opens another)."""
        results: list[tuple[bool, Any]] = []
        conn = self._connection()
        try:
            with conn.begin():
                for inserts, run in groupby((item[0] for item in batch), key=lambda job: isinstance(job, _Insert)):
                    jobs = list(run)
                    if inserts:
                        self._insert_rows(conn, jobs)
                        results.extend((True, None) for _ in jobs)
                    else:
                        results.extend((True, job(conn)) for job in jobs)
        except Exception as e:
            if conn.invalidated or _unavailable(e):  # a job's own failure leaves the connection as good as new
                self._drop()
            raise
        return results


def _unavailable(e: BaseException) -> bool:
    """The database could not be reached or is locked by another process, as opposed to one job's own failure."""
    if isinstance(e, sqlalchemy.exc.TimeoutError | sqlalchemy.exc.InterfaceError):
        return True
    if isinstance(e, sqlalchemy.exc.DBAPIError) and e.connection_invalidated:
        return True
    if isinstance(e, sqlalchemy.exc.OperationalError | sqlite3.OperationalError):
        text = str(e).lower()
        return any(w in text for w in ("locked", "busy", "unable to open", "connect", "server closed",
                                       "terminating connection"))
    return False


def _settle_all(settled: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for fut, ok, value in settled:
        if fut.done():
            continue
        if ok:
            fut.set_result(value)
        else:
            fut.set_exception(value)
