"""No false takeover (issue 36): a worker loaded past the knee keeps its tables.

Starts two ``paiju serve --redis-url`` workers with the default lease (3 s, renewed every 0.5 s from a thread
of its own) on a fresh PostgreSQL database (made on the server of ``--database-url``, dropped at the end) and
one Redis, makes ``--tables`` tables at the first worker only, each of four bots that answer at once (no
pauses, ``--bot-delay 0``), so its event loop never rests, and leaves the second idle.  Every half second it
asks the busy worker's ``/healthz`` and notes how long the answer took (its loop's lag).  After ``--seconds``
it counts the tables whose owner epoch moved past the first (a takeover: the idle worker judged the busy one
dead), the busy worker's "lease overdue" lines and the idle one's "taking … tables" lines.  All must be 0.

    .venv/bin/python bench/bench_lease.py --tables 3000 --seconds 60 \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test --redis-url redis://127.0.0.1:6379/15
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_failover import TABLES_PER_OWNER, free_port, pct, wait_healthy
from bench_server_load import fresh_database


def start(args: argparse.Namespace, db_url: str, data: Path) -> tuple[list[int], list[subprocess.Popen[bytes]]]:
    paiju = Path(sys.executable).with_name("paiju")
    env = {**os.environ, "PAIJU_SECRET_KEY": "bench-lease-key",
           "PAIJU_REDIS_PREFIX": f"paiju-lease-{secrets.token_hex(4)}"}
    ports = [free_port(), free_port()]
    procs = []
    for n, port in enumerate(ports):
        cmd = [str(paiju), "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data),
               "--database-url", db_url, "--redis-url", args.redis_url, "--turn-seconds", "0", "--claim-seconds", "0",
               "--claim-pause", "0", "--pace-seconds", "0", "--next-hand-seconds", "0", "--bot-delay", "0",
               "--address-limit-factor", "1000", "--log-level", "info"]
        log = (data / f"worker-{n}.log").open("wb")
        procs.append(subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env))
    wait_healthy(ports, procs, data)
    return ports, procs


async def load(port: int, tables: int) -> None:
    """``tables`` tables of four bots, long 滑水 matches, all started at the worker on ``port``."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120,
                                 limits=httpx.Limits(max_connections=16)) as http:
        owners = []
        for _ in range(-(-tables // TABLES_PER_OWNER)):
            r = await http.post("/api/session", json={"nickname": "租约"})
            r.raise_for_status()
            owners.append({"Authorization": f"Bearer {r.json()['token']}"})
        sem = asyncio.Semaphore(16)

        async def make(i: int) -> str:
            auth = owners[i // TABLES_PER_OWNER]
            async with sem:
                r = await http.post("/api/tables", json={"game": "huashui", "config": {"hands": 64}}, headers=auth)
                r.raise_for_status()
                tid: str = r.json()["id"]
                (await http.post(f"/api/tables/{tid}/leave", json={}, headers=auth)).raise_for_status()
                (await http.post(f"/api/tables/{tid}/bots", json={}, headers=auth)).raise_for_status()
                return tid

        async def start(i: int, tid: str) -> None:
            async with sem:
                r = await http.post(f"/api/tables/{tid}/start", json={}, headers=owners[i // TABLES_PER_OWNER])
                r.raise_for_status()

        # every table made first, then all started: a started table's bots play at once and slow the rest
        tids = await asyncio.gather(*(make(i) for i in range(tables)))
        await asyncio.gather(*(start(i, tid) for i, tid in enumerate(tids)))


def lags(port: int, seconds: float) -> list[float]:
    """Seconds each ``/healthz`` took, asked every half second (the loop's lag, plus a loopback request)."""
    out: list[float] = []
    end = time.monotonic() + seconds
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
        while time.monotonic() < end:
            t0 = time.monotonic()
            with contextlib.suppress(httpx.HTTPError):
                http.get("/healthz")
            out.append(time.monotonic() - t0)
            time.sleep(max(0.0, 0.5 - (time.monotonic() - t0)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=3000)
    ap.add_argument("--seconds", type=float, default=60.0, help="seconds of load after the tables have started")
    ap.add_argument("--database-url", required=True, help="a PostgreSQL URL: the bench makes its own database")
    ap.add_argument("--redis-url", required=True)
    args = ap.parse_args()
    if not 1 <= args.tables <= 5000 or not 1 <= args.seconds <= 600 or not args.database_url.startswith("postgresql"):
        sys.exit("keep it bounded: 1..5000 tables, 1..600 seconds, on PostgreSQL")
    data = Path(tempfile.mkdtemp(prefix="paiju-lease-"))
    with fresh_database(args.database_url) as db_url:
        assert db_url is not None
        ports, procs = start(args, db_url, data)
        try:
            t0 = time.monotonic()
            asyncio.run(load(ports[0], args.tables))
            setup_s = time.monotonic() - t0
            lag = lags(ports[0], args.seconds)
            engine = create_engine(db_url)
            with engine.connect() as c:
                moved = c.execute(text("SELECT count(*) FROM card_tables WHERE owner_epoch > 1")).scalar()
                moves = c.execute(text("SELECT count(*) FROM actions")).scalar()
            engine.dispose()
        finally:
            for proc in procs:
                proc.send_signal(signal.SIGTERM)
            for proc in procs:
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
    busy = (data / "worker-0.log").read_text(errors="replace")
    idle = (data / "worker-1.log").read_text(errors="replace")
    print(json.dumps({
        "tables": args.tables, "seconds": args.seconds, "setup_s": round(setup_s, 1),
        "moves_stored": moves, "moves_per_s": round((moves or 0) / (args.seconds + setup_s), 1),
        "busy_loop_lag_p50_ms": round(1000 * pct(lag, 50), 1), "busy_loop_lag_p99_ms": round(1000 * pct(lag, 99), 1),
        "busy_loop_lag_max_ms": round(1000 * max(lag), 1) if lag else None,
        "tables_taken_over": moved, "busy_lease_overdue_lines": busy.count("lease overdue"),
        "idle_takeover_lines": idle.count("taking "), "logs": str(data),
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
