"""The lobby's pages with many tables: ``GET /api/tables?cursor=…`` latency with ``--tables`` open tables.

Starts the card room in a process of its own (SQLite in a temporary directory), makes
``--tables`` public waiting tables over HTTP, walks every page once to collect the cursors, then asks
``--reads`` pages at random cursors (and the first page, and one game's pages) one at a time, timing each
request from send to the last byte.  The per-session and per-address limits are raised for the bench (one
client makes every table and reads every page); nothing else is changed.  Loopback only.

    .venv/bin/python bench/bench_lobby.py --tables 10000 --reads 2000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

SERVER = """
import sys, uvicorn
from pathlib import Path
from paiju.server import Settings, create_app
settings = Settings(data_dir=Path(sys.argv[1]), secret_key="bench", bot_delay_seconds=0,
                    tables_per_minute_per_session=10**9, lobby_reads_per_minute_per_session=10**9,
                    address_limit_factor=10**6, gc_full_every_seconds=600.0)
uvicorn.run(create_app(settings), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning", proxy_headers=False)
"""
"""The room in a process of its own (as ``paiju serve`` runs it), with the bench's limits raised."""


def serve(data: Path) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(data), str(port)])
    for _ in range(600):
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc, port
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the card room did not start")


async def make_tables(base: str, n: int) -> str:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        r = await http.post("/api/session", json={"nickname": "lobby-bench"})
        token = r.json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        sem = asyncio.Semaphore(16)
        games = ["shuiyu", "huashui", "weimaque", "shengji"]

        async def one(i: int) -> None:
            async with sem:
                for attempt in range(5):  # a loaded server may drop a kept-alive connection as we reuse it
                    try:
                        r = await http.post("/api/tables", json={"game": games[i % len(games)]}, headers=auth)
                        r.raise_for_status()
                        return
                    except httpx.TransportError:
                        if attempt == 4:
                            raise
                        await asyncio.sleep(0.2 * (attempt + 1))

        await asyncio.gather(*(one(i) for i in range(n)))
        return str(token)


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=10_000)
    ap.add_argument("--reads", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    data = Path(tempfile.mkdtemp(prefix="paiju-lobby-"))
    server, port = serve(data)
    base = f"http://127.0.0.1:{port}"
    t0 = time.perf_counter()
    token = asyncio.run(make_tables(base, args.tables))
    made = time.perf_counter() - t0
    rng = random.Random(args.seed)
    with httpx.Client(base_url=base, timeout=30, headers={"Authorization": f"Bearer {token}"}) as http:
        cursors: list[str | None] = [None]
        seen = 0
        while True:
            body = http.get("/api/tables", params={"cursor": cursors[-1]} if cursors[-1] else {}).json()
            seen += len(body["tables"])
            if body["next"] is None:
                break
            cursors.append(body["next"])
        assert seen == args.tables, (seen, args.tables)
        times: list[float] = []
        for i in range(args.reads):
            params: dict[str, str] = {}
            c = rng.choice(cursors)
            if c:
                params["cursor"] = c
            if i % 4 == 3:
                params["game"] = "shengji"
            t = time.perf_counter()
            r = http.get("/api/tables", params=params)
            times.append(time.perf_counter() - t)
            assert r.status_code == 200 and len(r.json()["tables"]) <= 50
    server.terminate()
    server.wait(30)
    shutil.rmtree(data, ignore_errors=True)
    ms = [x * 1000 for x in times]
    print(f"tables {args.tables} (made in {made:.1f} s), pages {len(cursors)}, reads {args.reads}")
    print(f"GET /api/tables: p50 {statistics.median(ms):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms, "
          f"max {max(ms):.2f} ms  (load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
