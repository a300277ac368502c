"""Load on one card-room process: many tables of four websocket clients, each table acting about once a second.

Starts ``paiju serve`` as a subprocess on a loopback port with a fresh SQLite data directory, then (in this
process) opens ``--tables`` tables of four clients each (no bots: the clients act, choosing a random legal
action), and for ``--duration`` seconds lets every table act about once a second, at a random phase.
Reports actions per second and the 50th/99th percentile from an action sent to its update received, plus
both processes' CPU use.  Loopback only; bounded in tables and time; stops the server when done.

    .venv/bin/python bench/bench_server_load.py --tables 100 --duration 30
    .venv/bin/python bench/bench_server_load.py --tables 1000 --duration 60

Several workers of one room (issue 17): ``--workers N`` starts N ``paiju serve --redis-url`` processes on one
PostgreSQL (``--database-url``, a database of its own: the bench's tables stay in it) and one Redis; table i
is made at worker i mod N and its four clients connect to workers i, i+1, ... mod N, so with two workers half
of the clients are relayed.  ``--mix``: the four games in turn (升级's large views included).  Per-worker CPU
per action and memory are reported.

    .venv/bin/python bench/bench_server_load.py --tables 1000 --mix --workers 2 \
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/load --redis-url redis://127.0.0.1:6379/15
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User+system CPU of a process from /proc (Linux)."""
    user, system = cpu_split(pid)
    return user + system


def cpu_split(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a process from /proc (Linux): loopback delivery is system time."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / ticks, int(fields[12]) / ticks


SEQ = re.compile(r'^\{"type":"(update|snapshot)","seq":(\d+),')


def thread_cpu(pid: int) -> dict[int, float]:
    """CPU seconds per thread (the main thread's id is the process id: it runs the event loop)."""
    ticks = os.sysconf("SC_CLK_TCK")
    out: dict[int, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            out[int(task.name)] = (int(fields[11]) + int(fields[12])) / ticks
    return out


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def runqueue_wait(pid: int) -> float:
    """Seconds the process's threads spent runnable but waiting for a CPU (Linux schedstat)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


class Client:
    """One seat's socket.  Keeps the newest state unparsed (only the acting client's is ever parsed, which keeps
    the load generator light) and wakes whoever waits for a given seq."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seq = -1
        self.raw: str | None = None
        self.waiters: dict[int, asyncio.Future[float]] = {}
        self.errors = 0
        self.received = 0
        self.finished = False

    def state(self) -> dict[str, Any]:
        return json.loads(self.raw) if self.raw is not None else {}

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                self.received += 1
                text = raw if isinstance(raw, str) else raw.decode()
                m = SEQ.match(text)
                if m is not None:
                    self.seq = int(m.group(2))
                    self.raw = text
                    self.finished = self.finished or '"finished":true' in text  # the view says the match is over
                    # the answer to an action is a later state (several moves may apply as one update: a
                    # window's held answers), or, where the room holds the answer until its window ends (a
                    # pass in a paced deal step, a claim under the claim pause), this seat's own state again
                    # with nothing left to decide
                    answered = self.seq + 1 if '"legal":[]' in text else self.seq
                    for want in [w for w in self.waiters if w <= answered]:
                        fut = self.waiters.pop(want)
                        if not fut.done():
                            fut.set_result(now)
                elif text.startswith('{"type":"error"'):
                    self.errors += 1
                    for fut in self.waiters.values():
                        if not fut.done():
                            fut.set_exception(RuntimeError(json.loads(text)["message"]))
                    self.waiters.clear()
        except Exception:
            pass


async def post(http: httpx.AsyncClient, path: str, body: Any, headers: dict[str, str]) -> httpx.Response:
    """POST with a few retries: a loaded server may drop an idle keep-alive connection as we reuse it."""
    for attempt in range(5):
        try:
            r = await http.post(path, json=body, headers=headers)
            r.raise_for_status()
            return r
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
    raise AssertionError("unreachable")


TABLES_PER_OWNER = 10
"""The room's default limit of new tables per session per minute (Settings.tables_per_minute_per_session):
the bench keeps every per-session limit on, so the tables are made by as many owners as that takes."""


LONG = {"shuiyu": {"rounds": 10000}, "huashui": {"hands": 64}, "shengji": {}, "weimaque": {}}
"""Rule options that keep a match going through the measured phase."""


async def setup(bases: list[str], n_tables: int, games: list[tuple[str, dict[str, Any]]]
                ) -> tuple[list[str], list[str]]:
    """Four players, ``n_tables`` tables with all four seated, started (made by ``TABLES_PER_OWNER`` each of
    further guest sessions); table i is made at ``bases[i % len(bases)]`` and is of ``games[i % len(games)]``."""
    limits = httpx.Limits(max_connections=32)
    base = bases[0]
    workers = [httpx.AsyncClient(base_url=b, timeout=60, limits=limits) for b in bases]
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        tokens = []
        for i in range(4):
            r = await http.post("/api/session", json={"nickname": f"load{i}"})
            r.raise_for_status()
            tokens.append(r.json()["token"])
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        owners = []
        for i in range(-(-n_tables // TABLES_PER_OWNER)):
            r = await http.post("/api/session", json={"nickname": f"owner{i}"})
            r.raise_for_status()
            owners.append({"Authorization": f"Bearer {r.json()['token']}"})
        sem = asyncio.Semaphore(32)

        async def one(i: int) -> str:
            at = workers[i % len(workers)]
            game, config = games[i % len(games)]
            async with sem:
                r = await post(at, "/api/tables", {"game": game, "config": config, "turn_seconds": 0,
                                                   "claim_seconds": 0, "ready_seconds": 0},  # no 准备 to wait on
                               owners[i // TABLES_PER_OWNER])
                tid: str = r.json()["id"]
                # a creator is seated at once (issue 33); an older revision's is not, and its leave is refused
                await at.post(f"/api/tables/{tid}/leave", json={}, headers=owners[i // TABLES_PER_OWNER])
                for seat in range(4):
                    await post(at, f"/api/tables/{tid}/sit", {"seat": seat}, auth[seat])
                return tid

        try:
            tids = await asyncio.gather(*(one(i) for i in range(n_tables)))
        finally:
            for w in workers:
                await w.aclose()
        return list(tids), tokens


async def drive(ports: list[int], tids: list[str], tokens: list[str], bases: list[str], duration: float,
                rate: float, seed: int, on_load: Callable[[], None]) -> dict[str, Any]:
    rng = random.Random(seed)
    tables: list[list[Client]] = []
    readers: list[asyncio.Task[None]] = []
    t_open = time.perf_counter()
    sem = asyncio.Semaphore(64)

    async def open_table(i: int, tid: str) -> list[Client]:
        out = []
        for seat in range(4):
            port = ports[(i + seat) % len(ports)]  # with several workers, some seats are relayed to the owner
            async with sem:
                ws = await connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}?token={tokens[seat]}",
                                   max_size=2**20, open_timeout=60, ping_interval=None)
            c = Client(ws)
            readers.append(asyncio.create_task(c.read()))
            out.append(c)
        return out

    tables = list(await asyncio.gather(*(open_table(i, t) for i, t in enumerate(tids))))
    opened = time.perf_counter() - t_open
    https = [httpx.AsyncClient(base_url=b, timeout=60, limits=httpx.Limits(max_connections=32)) for b in bases]
    try:
        sem2 = asyncio.Semaphore(32)

        async def start(i: int, tid: str) -> None:
            async with sem2:
                await post(https[i % len(https)], f"/api/tables/{tid}/start", {},
                           {"Authorization": f"Bearer {tokens[0]}"})

        await asyncio.gather(*(start(i, t) for i, t in enumerate(tids)))
    finally:
        for h in https:
            await h.aclose()
    await asyncio.sleep(1.0)  # let the start snapshots arrive
    # The load generator holds 4,000 sockets too: keep its own collections of the older generations (tens to
    # hundreds of ms with this many objects) out of the latencies it measures, as `paiju serve` does for itself.
    gc.collect()
    gc.freeze()
    gc.set_threshold(max(gc.get_threshold()[0], 5_000), 1_000_000_000, 1_000_000_000)

    async def freeze_every_second() -> None:
        while True:
            await asyncio.sleep(1.0)
            gc.freeze()

    freezer = asyncio.get_running_loop().create_task(freeze_every_second())
    on_load()

    latencies: list[float] = []
    sent_at: list[float] = []
    failures = 0
    finished_tables = 0
    closed_tables = 0
    stop_at = time.perf_counter() + duration

    async def table_loop(clients: list[Client], r: random.Random) -> None:
        nonlocal failures, finished_tables, closed_tables
        await asyncio.sleep(r.random() / rate)  # random phase
        next_at = time.perf_counter()
        while time.perf_counter() < stop_at:
            next_at += (0.5 + r.random()) / rate  # about `rate` actions a second, jittered
            newest = max(c.seq for c in clients)  # a client still behind would act on a stale state
            deciding = [c for c in clients
                        if c.seq == newest and c.raw is not None and '"legal":[]' not in c.raw]
            if not deciding and clients[0].finished:
                finished_tables += 1
                return
            if deciding:
                c = r.choice(deciding)
                action = r.choice(c.state()["legal"])["action"]
                want = c.seq + 1
                loop = asyncio.get_running_loop()
                fut: asyncio.Future[float] = loop.create_future()
                c.waiters[want] = fut
                c.raw = None
                t0 = time.perf_counter()
                try:
                    await c.ws.send(json.dumps({"type": "act", "action": action}))
                except Exception:  # closed by the server (4503: the table moved to another worker)
                    closed_tables += 1
                    return
                try:
                    t1 = await asyncio.wait_for(fut, 10)
                    latencies.append(t1 - t0)
                    sent_at.append(t0)
                except (TimeoutError, RuntimeError):
                    failures += 1
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))

    t_run = time.perf_counter()
    await asyncio.gather(*(table_loop(cl, random.Random(rng.random())) for cl in tables))
    elapsed = time.perf_counter() - t_run
    freezer.cancel()
    for cl in tables:
        for c in cl:
            await c.ws.close()
    for t in readers:
        t.cancel()
    received = sum(c.received for cl in tables for c in cl)
    errors = sum(c.errors for cl in tables for c in cl)
    return {"latencies": latencies, "sent_at": [t - t_run for t in sent_at], "failures": failures,
            "elapsed": elapsed, "open_seconds": opened, "received": received, "errors": errors,
            "finished_tables": finished_tables, "closed_tables": closed_tables}


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of measured load")
    ap.add_argument("--rate", type=float, default=1.0, help="actions per table per second")
    ap.add_argument("--game", default="shuiyu")
    ap.add_argument("--option", "-o", action="append", default=[], help="rule option key=JSON")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--database-url", default=None, help="default: SQLite in a temporary data dir")
    ap.add_argument("--deflate", action="store_true", help="serve with permessage-deflate (off by default)")
    ap.add_argument("--ws", default="auto", choices=["auto", "websockets-sansio", "websockets", "wsproto"],
                    help="the server's websocket implementation (uvicorn's --ws)")
    ap.add_argument("--py-spy", default=None, metavar="FILE",
                    help="profile the server with py-spy during the load (collapsed stacks to FILE)")
    ap.add_argument("--server-src", default=None, metavar="DIR",
                    help="serve from another checkout's src/ (an older revision's worktree) to compare revisions "
                         "under the same load, interleaved")
    ap.add_argument("--next-hand-seconds", type=float, default=0.0,
                    help="the room's pause between hands (default 0: these clients never press continue, and "
                         "the bench measures play, as it did before the pause existed)")
    ap.add_argument("--workers", type=int, default=1, help="card-room processes of one room (needs --redis-url)")
    ap.add_argument("--redis-url", default=None, help="serve through Redis (cluster.py); needs a PostgreSQL URL")
    ap.add_argument("--mix", action="store_true", help="the four games in turn instead of --game")
    ap.add_argument("--timeline", action="store_true",
                    help="also print, per second of the run, the actions and their p99 and max latency (to tell "
                         "steady queueing from stalls)")
    ap.add_argument("--against", default=None, metavar="REV",
                    help="also serve from git revision REV's src/, runs alternating, and print the ratios")
    ap.add_argument("--rounds", type=int, default=2, help="with --against or --knee: runs of each side")
    ap.add_argument("--knee", default=None, metavar="N,N,...",
                    help="table counts to sweep (with --against: for both sides); prints where p99 passes 50 ms")
    args = ap.parse_args()
    if args.against or args.knee:
        compare(args)
        return
    measure(args)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """One run: the servers, the load, the report (printed as a JSON line, and returned)."""
    if not 1 <= args.tables <= 2000 or not 1 <= args.duration <= 600 or not 1 <= args.workers <= 8:
        sys.exit("keep it bounded: 1..2000 tables, 1..600 seconds, 1..8 workers")
    if (args.workers > 1 or args.redis_url) and not (args.redis_url and (args.database_url or "").startswith(
            "postgresql")):
        sys.exit("--workers needs --redis-url and a PostgreSQL --database-url")
    options: dict[str, Any] = {}
    for item in args.option:
        k, _, v = item.partition("=")
        options[k] = json.loads(v)
    names = ["shuiyu", "huashui", "shengji", "weimaque"] if args.mix else [args.game]
    games = [(g, {**LONG.get(g, {}), **options}) for g in names]

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * args.tables + 1024)), hard))
    with fresh_database(args.database_url) as url:
        return _measure(args, games, url)


@contextlib.contextmanager
def fresh_database(url: str | None) -> Iterator[str | None]:
    """A PostgreSQL URL's server with a database of this run's own, dropped afterwards (a server restores every
    table left playing in its database: a second run on the same one would carry the first's tables)."""
    if not url or not url.startswith("postgresql"):
        yield url
        return
    from sqlalchemy import create_engine, text

    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    name = f"paiju_load_{os.getpid()}_{int(time.time() * 1000) % 10**9}"
    with admin.connect() as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as c:
            c.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def backend_counts(database_url: str | None, redis_url: str | None) -> dict[str, int]:
    """Counters of the shared services, read before and after the measured phase for the capacity model
    (docs/server.md): Redis commands processed, and PostgreSQL's commits and rows written in this database."""
    out: dict[str, int] = {}
    if redis_url:
        import redis

        client = redis.Redis.from_url(redis_url)
        out["redis_commands"] = sum(int(v["calls"]) for v in client.info("commandstats").values())
        client.close()
    if database_url and database_url.startswith("postgresql"):
        from sqlalchemy import create_engine, text

        engine = create_engine(database_url)
        with engine.connect() as c:
            c.execute(text("SELECT pg_stat_force_next_flush()"))
            row = c.execute(text("SELECT xact_commit, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database "
                                 "WHERE datname = current_database()")).one()
        engine.dispose()
        out.update(pg_commits=int(row[0]), pg_rows_written=int(row[1]) + int(row[2]) + int(row[3]))
    return out


def _measure(args: argparse.Namespace, games: list[tuple[str, dict[str, Any]]], database_url: str | None
             ) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="paiju-load-"))
    paiju = ROOT / ".venv/bin/paiju"
    if not paiju.exists():  # a worktree: the interpreter's own
        paiju = Path(sys.executable).with_name("paiju")
    env = dict(os.environ)
    if args.server_src:  # another checkout's server (e.g. a worktree of an older revision), same venv
        env["PYTHONPATH"] = str(Path(args.server_src).resolve())
    # the options this server knows (an older revision lacks some); wide, so Rich does not cut their names
    known = subprocess.run([str(paiju), "serve", "--help"], env={**env, "COLUMNS": "400", "TERM": "dumb"},
                           capture_output=True, text=True).stdout
    if args.redis_url:
        env.update(PAIJU_SECRET_KEY=env.get("PAIJU_SECRET_KEY") or "bench-load-key",
                   PAIJU_REDIS_PREFIX=f"paiju-load-{os.getpid()}")
    ports = [free_port() for _ in range(args.workers)]
    servers: list[subprocess.Popen[bytes]] = []
    log_files = []
    log_path = data / "server-0.log"
    for n, port in enumerate(ports):
        cmd = [str(paiju), "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir",
               str(data), "--turn-seconds", "0", "--claim-seconds", "0", "--grace-seconds", "600",
               "--log-level", "warning"]
        if "--address-limit-factor" in known:
            # every limit stays on, but this bench's 4,000 clients share one loopback address: the per-address
            # limits (sessions, tables, lobby reads, connections) are raised a hundredfold (docs/server.md)
            cmd += ["--address-limit-factor", "100"]
        if "--next-hand-seconds" in known:  # these clients never press continue: no pause between hands
            cmd += ["--next-hand-seconds", str(args.next_hand_seconds)]
        if args.mix:  # no pause the clients would wait out (the claim pause, the deal's pace)
            cmd += ["--claim-pause", "0", "--pace-seconds", "0"]
        if database_url:
            cmd += ["--database-url", database_url]
        if args.redis_url:
            cmd += ["--redis-url", args.redis_url]
        cmd.append("--ws-deflate" if args.deflate else "--no-ws-deflate")
        if args.ws != "auto":
            cmd += ["--ws", args.ws]
        log_files.append((data / f"server-{n}.log").open("wb"))
        servers.append(subprocess.Popen(cmd, stdout=log_files[-1], stderr=subprocess.STDOUT, env=env))
    server = servers[0]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    ready = "/healthz" if "--redis-url" in known else "/api/games"  # an older server has no /healthz
    try:
        for base, srv in zip(bases, servers, strict=True):
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + ready, timeout=1).status_code == 200:
                        break
                if srv.poll() is not None:
                    sys.exit(f"server exited: {log_path.read_text(errors='replace')[-3000:]}")
                time.sleep(0.1)
        t_setup = time.perf_counter()
        tids, tokens = asyncio.run(setup(bases, args.tables, games))
        setup_s = time.perf_counter() - t_setup
        marks: dict[str, float] = {}
        per_worker: dict[int, float] = {}
        spies: list[subprocess.Popen[bytes]] = []
        threads_at_start: dict[int, float] = {}
        counts_at_start: dict[str, int] = {}

        def on_load() -> None:
            """The measured phase starts: every socket open, every table started."""
            for srv in servers:  # each worker's event-loop thread (its id is the process id)
                threads_at_start[srv.pid] = thread_cpu(srv.pid).get(srv.pid, 0.0)
            per_worker.update({s.pid: cpu_seconds(s.pid) for s in servers})
            counts_at_start.update(backend_counts(database_url, args.redis_url))
            marks.update(server=sum(per_worker.values()), server_sys=sum(cpu_split(s.pid)[1] for s in servers),
                         me=time.process_time(), wall=time.perf_counter(),
                         server_wait=sum(runqueue_wait(s.pid) for s in servers),
                         me_wait=runqueue_wait(os.getpid()))
            if args.py_spy:
                spies.append(subprocess.Popen(
                    [str(ROOT / ".venv/bin/py-spy"), "record", "--nonblocking",
                     *(["--gil"] if os.environ.get("PYSPY_GIL") else []), "-p", str(server.pid), "-r", "50",
                     "-d", str(int(args.duration)), "-f", "raw", "-o", args.py_spy],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

        res = asyncio.run(drive(ports, tids, tokens, bases, args.duration, args.rate, args.seed, on_load))
        wall = time.perf_counter() - marks["wall"]
        worker_cpu = [cpu_seconds(s.pid) - per_worker[s.pid] for s in servers]
        cpu_server = sum(worker_cpu)
        sys_server = sum(cpu_split(s.pid)[1] for s in servers) - marks["server_sys"]
        loop_thread = sum(thread_cpu(srv.pid).get(srv.pid, 0.0) - threads_at_start.get(srv.pid, 0.0)
                          for srv in servers)
        cpu_self = time.process_time() - marks["me"]
        wait_server = sum(runqueue_wait(s.pid) for s in servers) - marks["server_wait"]
        wait_self = runqueue_wait(os.getpid()) - marks["me_wait"]
        worker_rss = [rss_mb(s.pid) for s in servers]
        server_rss = sum(worker_rss)
        counts = {k: v - counts_at_start.get(k, 0) for k, v in backend_counts(database_url, args.redis_url).items()}
        for spy in spies:
            spy.wait(60)
    except BaseException:
        for f in log_files:
            f.flush()
        print(f"server log (last lines):\n{log_path.read_text(errors='replace')[-3000:]}", file=sys.stderr)
        raise
    finally:
        for srv in servers:
            srv.terminate()
        for srv in servers:
            try:
                srv.wait(20)
            except subprocess.TimeoutExpired:
                srv.kill()
                srv.wait()
        for f in log_files:
            f.close()
        warnings = [sum(" WARNING " in line for line in (data / f"server-{n}.log").read_text(errors="replace")
                        .splitlines()) for n in range(len(servers))]
        for n in range(len(servers)):  # what the workers said, for the reader of the report
            shutil.copy(data / f"server-{n}.log", Path(tempfile.gettempdir()) / f"paiju-load-server-{n}.log")
        shutil.rmtree(data, ignore_errors=True)
    lat = res["latencies"]
    report = {
        "game": "mix" if args.mix else args.game, "workers": args.workers, "ws": args.ws, "deflate": args.deflate,
        "tables": args.tables, "sockets": 4 * args.tables,
        "rate_per_table": args.rate,
        "duration_s": round(res["elapsed"], 1), "actions": len(lat),
        "actions_per_s": round(len(lat) / res["elapsed"], 1),
        "p50_ms": round(pct(lat, 50) * 1000, 2), "p99_ms": round(pct(lat, 99) * 1000, 2),
        "max_ms": round(max(lat) * 1000, 1) if lat else None,
        "mean_ms": round(statistics.fmean(lat) * 1000, 2) if lat else None,
        "timeouts_or_errors": res["failures"], "error_messages": res["errors"],
        "messages_received": res["received"], "tables_finished": res["finished_tables"],
        "tables_closed_by_server": res["closed_tables"], "worker_warnings": warnings,
        "setup_s": round(setup_s, 1), "connect_s": round(res["open_seconds"], 1),
        "server_cpu_pct": round(100 * cpu_server / wall, 1),
        "server_cpu_ms_per_action": round(1000 * cpu_server / max(1, len(lat)), 3),
        "server_sys_ms_per_action": round(1000 * sys_server / max(1, len(lat)), 3),
        "server_loop_thread_cpu_pct": round(100 * loop_thread / wall, 1),
        "server_other_threads_cpu_pct": round(100 * (cpu_server - loop_thread) / wall, 1),
        "loadgen_cpu_pct": round(100 * cpu_self / wall, 1),
        "server_waiting_for_cpu_pct": round(100 * wait_server / wall, 1),
        "loadgen_waiting_for_cpu_pct": round(100 * wait_self / wall, 1),
        "server_rss_mb": round(server_rss),
        "worker_cpu_ms_per_action": [round(1000 * c / max(1, len(lat)) * len(servers), 3) for c in worker_cpu],
        "worker_cpu_pct": [round(100 * c / wall, 1) for c in worker_cpu],
        "worker_rss_mb": [round(r) for r in worker_rss],
        "load_average_1m": round(os.getloadavg()[0], 1),
        **{f"{k}_per_action": round(v / max(1, len(lat)), 3) for k, v in counts.items()},
    }
    print(json.dumps(report, ensure_ascii=False), flush=True)
    if args.timeline:
        per_second: dict[int, list[float]] = {}
        for t, x in zip(res["sent_at"], lat, strict=True):
            per_second.setdefault(int(t), []).append(x)
        for second in sorted(per_second):
            xs = per_second[second]
            print(f"t={second:4d}s actions={len(xs):5d} p99={pct(xs, 99) * 1000:7.1f} ms "
                  f"max={max(xs) * 1000:7.1f} ms", file=sys.stderr)
    return report


KNEE_MS = 50.0
"""The p99 past which a table count is past the knee (issue 36)."""


def compare(args: argparse.Namespace) -> None:
    """This tree against ``--against`` (and/or a sweep of table counts): each run a subprocess of this script,
    the sides alternating round by round so a busy moment of a shared machine falls on both; then the medians,
    the ratios of CPU per action, and the knee of each side."""
    from paiju.devtools.revision import export_src

    scratch = tempfile.TemporaryDirectory(prefix="paiju-load-rev-")
    sides: list[tuple[str, str | None]] = [("this tree", None)]
    if args.against:
        short = subprocess.run(["git", "rev-parse", "--short", args.against], capture_output=True, text=True,
                               cwd=ROOT).stdout.strip()
        sides.append((f"rev {short}", str(export_src(args.against, Path(scratch.name)))))
    counts = [int(n) for n in args.knee.split(",")] if args.knee else [args.tables]
    skip = {"--against", "--knee", "--rounds", "--tables", "--server-src"}
    base: list[str] = []
    argv = sys.argv[1:]
    i = 0
    while i < len(argv):
        word = argv[i]
        key = word.split("=", 1)[0]
        if key in skip:
            i += 1 if "=" in word else 2
            continue
        base.append(word)
        i += 1
    rows: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for n in counts:
        for r in range(args.rounds):
            for label, src in (sides if r % 2 == 0 else sides[::-1]):
                cmd = [sys.executable, __file__, *base, "--tables", str(n), *(["--server-src", src] if src else [])]
                out = subprocess.run(cmd, capture_output=True, text=True)
                lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
                if out.returncode != 0 or not lines:
                    sys.exit(f"{label}, {n} tables: the run failed:\n{out.stderr[-3000:]}")
                report = json.loads(lines[-1])
                rows.setdefault((label, n), []).append(report)
                print(f"{label:>12} {n:5d} tables, round {r + 1}: {report['server_cpu_ms_per_action']:.3f} ms CPU "
                      f"per action, p99 {report['p99_ms']:.1f} ms, {report['actions_per_s']:.0f} actions/s",
                      file=sys.stderr, flush=True)

    def med(label: str, n: int, key: str) -> float:
        return float(statistics.median(r[key] for r in rows[(label, n)]))

    print(f"\n{'tables':>6} " + " ".join(f"{label + ' CPU ms/action':>26} {label + ' p99 ms':>20}"
                                         for label, _ in sides) + ("  CPU ratio" if len(sides) > 1 else ""))
    for n in counts:
        cells = " ".join(f"{med(label, n, 'server_cpu_ms_per_action'):>26.3f} {med(label, n, 'p99_ms'):>20.1f}"
                         for label, _ in sides)
        ratio = ""
        if len(sides) > 1:
            per_round = [a["server_cpu_ms_per_action"] / b["server_cpu_ms_per_action"]
                         for a, b in zip(rows[(sides[0][0], n)], rows[(sides[1][0], n)], strict=True)]
            ratio = f"  ×{statistics.median(per_round):.2f} [{min(per_round):.2f}–{max(per_round):.2f}]"
        print(f"{n:>6} {cells}{ratio}")
    for label, _ in sides:
        past = [n for n in counts if med(label, n, "p99_ms") > KNEE_MS]
        print(f"knee of {label}: " + (f"p99 passes {KNEE_MS:.0f} ms at {past[0]} tables" if past
                                      else f"p99 stays under {KNEE_MS:.0f} ms up to {counts[-1]} tables"))
    print(json.dumps({"sides": [label for label, _ in sides], "runs": {f"{k[0]}@{k[1]}": v for k, v in rows.items()}},
                     ensure_ascii=False))
    scratch.cleanup()


if __name__ == "__main__":
    main()
