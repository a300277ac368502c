"""Strong bots' decisions in worker processes, and when the room is too busy for them.

A search bot thinks for most of a second; on a thread it would hold the GIL and every table's updates would
wait for it.  So a strong seat's decision goes to a small process pool (one worker per core, started on first
use, shut down with the room): the worker gets what the seat's bot would get — the bot's factory, its seed,
the seat's view and legal list — plus a budget and a deadline, builds the bot, and sends the action back.
Search bots are stateless across decisions and deterministic for a seed, so a bot built per decision plays as
one kept for the game.

The room stays the fast bot's whenever search would cost other tables their latency: when the event loop's
lag (a watcher compares when it wakes with when it asked to) is over ``strong_bot_lag_seconds``, when more
decisions already wait for a worker than there are workers, or when the pool does not answer within
``strong_bot_seconds``.  Then :meth:`SearchPool.decide` says None and the table asks the seat's fast bot as
for any other seat.  ``stats`` counts each outcome.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..settings import Settings

log = logging.getLogger("paiju.server.room.search")

SEARCHED, TIMED_OUT, LAGGING, QUEUE_FULL, STARTING, FAILED, LATE = \
    "searched", "timed_out", "lagging", "queue_full", "starting", "failed", "late"
"""The outcomes ``SearchPool.stats`` counts: a search's action used; the cap passed (the fast bot moved); the
loop lagging, the queue full or the workers still starting (the fast bot moved without asking the pool); the
worker failed; the worker found the deadline gone before it started (it answered at once, nothing searched).
Whether the action is legal is the table's to judge (the legal list may be capped: ``Game.is_legal`` is the
authority, and only the table holds the game)."""


def _warm() -> None:
    """Each worker imports the bots' common code once, not in its first decision's time."""
    import paiju.bots.base  # noqa: F401


def decide_in_worker(maker: Callable[[int], Any], seed: int, view: dict[str, Any], legal: Sequence[str],
                     budget: float, deadline: float) -> tuple[str | None, int, float]:
    """Runs in a worker: build the bot, give it what is left of its budget, and ask it.

    Returns (action or None, this worker's pid, CPU seconds).  A decision that waited in the queue past its
    deadline answers None at once: the room has moved on with the fast bot's move."""
    left = min(budget, deadline - time.time())
    if left <= 0.0:
        return None, os.getpid(), 0.0
    start = time.process_time()
    bot = maker(seed)
    if hasattr(bot, "budget_seconds"):
        bot.budget_seconds = left
    action = bot.act(view, legal)
    return action, os.getpid(), time.process_time() - start


def _soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    """``callback`` on ``loop`` from the pool's thread; nothing once the loop is closed (the room stopped)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback)


def _cores() -> int:
    """The cores this process may run on (a container's share, not the machine's)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class SearchPool:
    """The room's worker processes for strong bots, and the measures that keep the room responsive."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.workers = settings.strong_bot_workers or _cores()
        self.max_queued = self.workers if settings.strong_bot_queue is None else settings.strong_bot_queue
        self.lag = 0.0
        """The event loop's lag in seconds: the largest of the last few wake-ups' delays."""
        self.in_flight = 0
        """Decisions sent to the pool whose worker has not answered yet (running or waiting for a worker)."""
        self.stats: Counter[str] = Counter()
        self.pids: set[int] = set()
        """The workers that answered (tests check that the bots ran outside the room's process)."""
        self.cpu_seconds = 0.0
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._starting: asyncio.Task[None] | None = None
        self._closed = False
        self._watch: asyncio.Task[None] | None = None
        self._samples: deque[float] = deque(maxlen=5)

    # ---- the event loop's lag --------------------------------------------------------------------------
    def watch(self) -> None:
        """Start measuring the loop's lag (idempotent; needs a running loop)."""
        if self._watch is None or self._watch.done():
            self._watch = asyncio.get_running_loop().create_task(self._watch_lag())

    async def _watch_lag(self) -> None:
        loop = asyncio.get_running_loop()
        every = self.settings.strong_bot_lag_every
        while True:
            asked = loop.time() + every
            await asyncio.sleep(every)
            self._samples.append(max(0.0, loop.time() - asked))
            self.lag = max(self._samples)

    def busy(self) -> str | None:
        """Why a search should not start now (LAGGING, QUEUE_FULL), or None."""
        if self.lag > self.settings.strong_bot_lag_seconds:
            return LAGGING
        if self.in_flight + 1 - self.workers > self.max_queued:
            return QUEUE_FULL
        return None

    # ---- the workers -----------------------------------------------------------------------------------
    @property
    def ready(self) -> bool:
        """The workers are up (searches are sent to them)."""
        return self._pool is not None

    def prepare(self) -> None:
        """Start the workers in the background (a strong seat was filled, or a search was asked for before they
        were up); idempotent.  Starting them takes a second or so, on a thread: never on the event loop."""
        self.watch()
        if self._pool is None and self._starting is None and not self._closed:
            self._starting = asyncio.get_running_loop().create_task(self._start())

    async def _start(self) -> None:
        try:
            pool = await asyncio.to_thread(self._build)
        finally:
            self._starting = None
        if pool is not None and self._closed:
            pool.shutdown(wait=False, cancel_futures=True)
        elif pool is not None:
            self._pool = pool

    def _build(self) -> concurrent.futures.ProcessPoolExecutor | None:
        """The pool with every worker up (None if they would not start: the next search tries again)."""
        # forkserver, not fork: the room's process has threads (the database writer, bots' threads), and a
        # fork copies whatever lock one of them held
        method = "forkserver" if sys.platform.startswith("linux") else "spawn"
        pool = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context(method),
                                                      initializer=_warm)
        try:
            for f in concurrent.futures.as_completed([pool.submit(_warm) for _ in range(self.workers)], timeout=60):
                f.result()
        except Exception:
            log.exception("the strong bots' workers did not start")
            pool.shutdown(wait=False, cancel_futures=True)
            return None
        return pool

    def _broken(self) -> None:
        """A worker died (killed, out of memory): this pool takes no more work; the next search starts another."""
        log.error("a strong bots' worker process died; starting new workers")
        if self._pool is not None:
            with contextlib.suppress(Exception):
                self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None

    # ---- decisions -------------------------------------------------------------------------------------

    async def decide(self, maker: Callable[[int], Any], seed: int, view: dict[str, Any],
                     legal: list[str]) -> str | None:
        """A strong bot's action, or None: the room was busy, the worker failed, or the cap passed (the caller
        then asks the fast bot).  The action may be one the capped ``legal`` list does not show."""
        self.watch()
        why = self.busy() or (None if self._pool is not None else STARTING)
        if why is not None:
            if why == STARTING:
                self.prepare()
            self.stats[why] += 1
            return None
        pool = self._pool
        assert pool is not None
        cap = self.settings.strong_bot_seconds
        budget = min(self.settings.strong_bot_budget, cap)
        try:
            future = pool.submit(decide_in_worker, maker, seed, view, legal, budget, time.time() + budget)
        except BrokenProcessPool:
            self._broken()
            self.stats[FAILED] += 1
            return None
        self.in_flight += 1
        loop = asyncio.get_running_loop()
        future.add_done_callback(lambda _f: _soon(loop, self._answered))
        try:
            action, pid, cpu = await asyncio.wait_for(asyncio.wrap_future(future), cap)
        except TimeoutError:
            self.stats[TIMED_OUT] += 1
            return None
        except BrokenProcessPool:
            if self._pool is pool:
                self._broken()
            self.stats[FAILED] += 1
            return None
        except Exception:  # the bot raised, or could not be sent to another process
            log.exception("a strong bot failed in its worker")
            self.stats[FAILED] += 1
            return None
        self.pids.add(pid)
        self.cpu_seconds += cpu
        if action is None:
            self.stats[LATE] += 1
            return None
        self.stats[SEARCHED] += 1
        return action

    def _answered(self) -> None:
        """A worker is done with a decision (in time or not): on the loop, which alone counts."""
        self.in_flight -= 1

    def close(self) -> None:
        """Stop the watcher and the workers (the room is closing); a decision still out is dropped."""
        self._closed = True
        if self._watch is not None:
            self._watch.cancel()
        if self._pool is not None:
            with contextlib.suppress(Exception):
                self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
