"""Run many seeded jobs on every core, or on a Ray cluster, with the same result whatever the split.

Every simulation and bot study is a list of jobs (a match, a duplicate deal) each decided by its seed alone,
and a merge that folds the jobs' results into a summary.  An executor plays the jobs wherever it likes, in
whatever order; ``execute`` puts the results back in job order before merging, so the summary is the same
for one process, many, or a cluster — only timing differs.

    work = Work(play=play_one_match, jobs=list(range(1000)), merge=summarise)
    with make_executor(workers=None) as ex:          # every core; ray=True for a Ray cluster
        outcome = execute(work, ex, progress=bar_advance)

``play`` (and ``prepare``) must be importable functions (or ``functools.partial`` of them, or bound methods of
picklable objects) so that they can travel to other processes.  Ctrl-C stops every worker: ``execute`` then
merges what had finished and says so in ``Outcome.interrupted``.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import signal
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import connection, get_all_start_methods, get_context
from types import TracebackType
from typing import Any, Generic, Protocol, TypeVar

J = TypeVar("J")
R = TypeVar("R")
S = TypeVar("S")

Prepare = Callable[[], object] | None


@dataclass(frozen=True)
class Work(Generic[J, R, S]):
    """A list of seeded jobs, the function that plays one, and the merge of their results (in job order)."""

    play: Callable[[J], R]
    jobs: Sequence[J]
    merge: Callable[[Sequence[J], Sequence[R]], S]
    prepare: Prepare = None
    """Run in every worker process before its jobs (tables, caches); must be cheap when repeated."""


@dataclass(frozen=True)
class Outcome(Generic[S]):
    summary: S
    done: int
    total: int
    seconds: float
    interrupted: bool
    done_jobs: tuple[int, ...]
    """indices (into ``Work.jobs``) of the jobs merged into ``summary``"""


class WorkerError(RuntimeError):
    """A job raised in a worker, or a worker died; carries the worker's traceback."""


class Executor(Protocol):
    """Plays jobs somewhere and yields ``(job index, result)`` as each finishes, in any order."""

    workers: int
    name: str

    def imap(self, play: Callable[[J], R], jobs: Sequence[J], prepare: Prepare = None) -> Iterator[tuple[int, R]]: ...

    def stop(self) -> None:
        """Stop every worker now (after Ctrl-C); the executor is unusable afterwards."""

    def __enter__(self) -> Executor: ...

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...


def default_workers() -> int:
    """Every core this process may use."""
    count = getattr(os, "process_cpu_count", None)
    if count is not None:
        return int(count() or 1)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def guided_chunks(n: int, workers: int, *, divisor: int = 4, minimum: int = 1) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` chunks that shrink as the work runs out: few messages early, a short tail at the end."""
    start = 0
    while start < n:
        size = max(minimum, math.ceil((n - start) / (divisor * workers)))
        yield start, min(n, start + size)
        start += size


def _run_chunk(play: Callable[[J], R], prepare: Prepare, jobs: Sequence[J]) -> list[R]:
    if prepare is not None:
        prepare()
    return [play(job) for job in jobs]


# -- in this process ---------------------------------------------------------------------------------------


class SerialExecutor:
    """Plays every job in this process, in order: the reference the others must match."""

    workers = 1
    name = "serial"

    def imap(self, play: Callable[[J], R], jobs: Sequence[J], prepare: Prepare = None) -> Iterator[tuple[int, R]]:
        if prepare is not None:
            prepare()
        for i, job in enumerate(jobs):
            yield i, play(job)

    def stop(self) -> None:
        pass

    def __enter__(self) -> SerialExecutor:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        pass


# -- worker processes --------------------------------------------------------------------------------------


def _worker_main(conn: connection.Connection, others: Sequence[connection.Connection]) -> None:
    """A worker: receive ``(play, prepare, start, jobs)`` chunks, send each result as it is ready."""
    for other in others:  # the parent's ends of earlier workers' pipes, inherited by fork: keep EOF working
        other.close()
    try:
        while True:
            task = conn.recv()
            if task is None:
                return
            play, prepare, start, jobs = task
            try:
                if prepare is not None:
                    prepare()
                for k, job in enumerate(jobs):
                    conn.send(("result", start + k, play(job)))
            except Exception:
                conn.send(("error", start, traceback.format_exc()))
                return
            conn.send(("idle", start, None))
    except (EOFError, BrokenPipeError, KeyboardInterrupt):  # the parent is gone or stopping us
        return


def start_method() -> str:
    """``fork`` where it exists (workers inherit the imports and prepared tables: no start-up cost), else
    ``spawn``; ``PAIJU_START_METHOD`` overrides (the benchmark compares them)."""
    chosen = os.environ.get("PAIJU_START_METHOD")
    if chosen:
        return chosen
    return "fork" if "fork" in get_all_start_methods() and sys.platform != "darwin" else "spawn"


class ProcessExecutor:
    """``workers`` processes started once and fed chunks of jobs as they ask for them.

    Workers ignore SIGINT (a terminal's Ctrl-C reaches the whole process group): the parent stops them.
    Start the executor before any other thread (a progress bar's) so that forking is safe.
    """

    name = "processes"

    def __init__(self, workers: int | None = None, *, method: str | None = None, prepare: Prepare = None) -> None:
        self.workers = max(1, workers or default_workers())
        self.method = method or start_method()
        self.prepare = prepare
        self._procs: list[Any] = []
        self._conns: list[connection.Connection] = []
        self._broken = False

    def __enter__(self) -> ProcessExecutor:
        if self.method == "fork" and self.prepare is not None:
            self.prepare()  # once, here: the workers inherit what it built
        ctx: Any = get_context(self.method)
        previous = _ignore_sigint()
        try:
            for _ in range(self.workers):
                ours, theirs = ctx.Pipe()
                inherited = list(self._conns) if self.method == "fork" else []
                proc = ctx.Process(target=_worker_main, args=(theirs, inherited), daemon=True, name="paiju-worker")
                proc.start()
                theirs.close()
                self._procs.append(proc)
                self._conns.append(ours)
        finally:
            _restore_sigint(previous)
        return self

    def imap(self, play: Callable[[J], R], jobs: Sequence[J], prepare: Prepare = None) -> Iterator[tuple[int, R]]:
        if self._broken:
            raise WorkerError("the worker processes were stopped")
        chunks = deque(guided_chunks(len(jobs), self.workers))
        outstanding = len(jobs)
        by_conn = dict(zip(self._conns, self._procs, strict=True))

        def feed(conn: connection.Connection) -> None:
            """The next chunk to a worker that asks; with none left, it waits for the next ``imap``."""
            if chunks:
                start, stop = chunks.popleft()
                conn.send((play, prepare, start, list(jobs[start:stop])))

        try:
            for conn in self._conns:
                feed(conn)
            sentinels = {proc.sentinel: proc for proc in self._procs}
            while outstanding:
                for ready in connection.wait([*self._conns, *sentinels]):
                    if isinstance(ready, int):
                        proc = sentinels[ready]
                        if not any(c.poll() for c in self._conns if by_conn[c] is proc):
                            raise WorkerError(f"worker {proc.pid} died (exit code {proc.exitcode})")
                        continue
                    assert isinstance(ready, connection.Connection)
                    kind, index, payload = ready.recv()
                    if kind == "result":
                        outstanding -= 1
                        yield index, payload
                    elif kind == "idle":
                        feed(ready)
                    else:
                        raise WorkerError(f"job {index} failed in a worker:\n{payload}")
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Terminate every worker and reap it: nothing is left running."""
        self._broken = True
        for proc in self._procs:
            if proc.is_alive():
                proc.terminate()
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():  # pragma: no cover - a worker stuck in uninterruptible code
                proc.kill()
                proc.join()
        for conn in self._conns:
            conn.close()
        self._procs, self._conns = [], []

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if kind is not None or self._broken:
            self.stop()
            return
        for conn in self._conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        for proc in self._procs:
            proc.join(timeout=5)
        self.stop()


def _ignore_sigint() -> Any:
    try:
        return signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to handle
        return None


def _restore_sigint(previous: Any) -> None:
    if previous is not None:
        signal.signal(signal.SIGINT, previous)


# -- Ray ---------------------------------------------------------------------------------------------------


class RayExecutor:
    """The same chunks as Ray tasks, on a local Ray (``address=None``) or an existing cluster.

    Ray is imported here only (``pip install paiju[cluster]``).  ``workers`` is the number of CPUs the tasks
    may use (the cluster's CPUs by default); a local Ray is started with that many and shut down at the end.
    Chunks are at least 1/(16 × workers) of the work, so each task is long next to Ray's per-task cost.
    """

    name = "ray"

    def __init__(self, workers: int | None = None, *, address: str | None = None) -> None:
        try:
            import ray
        except ImportError as e:
            raise RuntimeError("--ray needs Ray: pip install 'paiju[cluster]'") from e
        self.ray = ray
        self.address = address
        self.requested = workers
        self.workers = workers or 0
        self._started = False
        self._inflight: list[Any] = []
        self._remote: Any = None

    def __enter__(self) -> RayExecutor:
        ray = self.ray
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "logging_level": logging.WARNING, "configure_logging": True}
            try:
                if self.address is not None:
                    ray.init(address=self.address, **kwargs)
                else:
                    ray.init(address="local", num_cpus=self.requested or default_workers(), **kwargs)
            except (ConnectionError, RuntimeError, ValueError) as e:
                where = f"the Ray cluster at {self.address}" if self.address else "a local Ray"
                raise RuntimeError(f"cannot start or reach {where}: {str(e).splitlines()[0]}") from e
            self._started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = min(self.requested, cpus) if self.requested else cpus
        self._remote = ray.remote(num_cpus=1, max_retries=0)(_run_chunk)
        return self

    def imap(self, play: Callable[[J], R], jobs: Sequence[J], prepare: Prepare = None) -> Iterator[tuple[int, R]]:
        ray = self.ray
        n = len(jobs)
        chunks = deque(guided_chunks(n, self.workers, minimum=max(1, n // (16 * self.workers))))
        play_ref = ray.put(play)
        prepare_ref = ray.put(prepare)
        starts: dict[Any, int] = {}

        def submit() -> None:
            start, stop = chunks.popleft()
            ref = self._remote.remote(play_ref, prepare_ref, list(jobs[start:stop]))
            starts[ref] = start
            self._inflight.append(ref)

        try:
            while chunks and len(self._inflight) < 2 * self.workers:
                submit()
            while self._inflight:
                ready, self._inflight = ray.wait(self._inflight, num_returns=1)
                for ref in ready:
                    start = starts.pop(ref)
                    try:
                        results = ray.get(ref)
                    except ray.exceptions.RayTaskError as e:
                        raise WorkerError(f"a chunk from job {start} failed on Ray:\n{e}") from e
                    if chunks:
                        submit()
                    for k, result in enumerate(results):
                        yield start + k, result
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        for ref in self._inflight:
            with contextlib.suppress(Exception):  # already finished or gone: nothing to stop
                self.ray.cancel(ref, force=True)
        self._inflight = []
        if self._started:
            self.ray.shutdown()
            self._started = False

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def make_executor(workers: int | None = None, *, ray: bool = False, ray_address: str | None = None,
                  prepare: Prepare = None) -> Executor:
    """Serial for one worker, processes for several (every core by default), Ray when asked."""
    if ray or ray_address is not None:
        return RayExecutor(workers, address=ray_address)
    n = workers or default_workers()
    if n <= 1:
        return SerialExecutor()
    return ProcessExecutor(n, prepare=prepare)


def execute(work: Work[J, R, S], executor: Executor, progress: Callable[[int], None] | None = None) -> Outcome[S]:
    """Play every job of ``work`` on ``executor`` and merge in job order; Ctrl-C merges what finished."""
    results: list[Any] = [None] * len(work.jobs)
    finished = [False] * len(work.jobs)
    interrupted = False
    start = time.perf_counter()
    try:
        for index, result in executor.imap(work.play, work.jobs, work.prepare):
            results[index] = result
            finished[index] = True
            if progress is not None:
                progress(1)
    except KeyboardInterrupt:
        executor.stop()
        interrupted = True
    seconds = time.perf_counter() - start
    done = tuple(i for i, ok in enumerate(finished) if ok)
    summary = work.merge([work.jobs[i] for i in done], [results[i] for i in done])
    return Outcome(summary=summary, done=len(done), total=len(work.jobs), seconds=seconds,
                   interrupted=interrupted, done_jobs=done)


def ranges(indices: Sequence[int]) -> list[list[int]]:
    """``[0, 1, 2, 5, 6]`` → ``[[0, 2], [5, 6]]``: what an interrupted run finished, short enough to print."""
    out: list[list[int]] = []
    for i in indices:
        if out and out[-1][1] == i - 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return out


TIMING_SUFFIXES = ("seconds", "_per_second", "_ms")


def without_timing(summary: Any) -> Any:
    """A summary with its timing fields (``seconds``, ``*_per_second``, ``*_ms``) left out, at any depth."""
    if isinstance(summary, dict):
        return {k: without_timing(v) for k, v in summary.items()
                if not (isinstance(k, str) and k.endswith(TIMING_SUFFIXES))}
    if isinstance(summary, list):
        return [without_timing(v) for v in summary]
    return summary
