"""Watchers of one table must not slow the others: ping latency at a quiet table while ``--watchers``
spectators watch a busy one.

Starts ``paiju serve`` (a subprocess, fresh SQLite data directory) and makes two tables: a busy one where
four bots play 水鱼 (think delay ``--bot-delay``) with ``--watchers`` spectator sockets attached, and a quiet
waiting one with a single socket that sends a ``ping`` every 100 ms.  Reports the quiet socket's round trips
(p50/p99/max) over ``--duration`` seconds, and the time to attach the watchers.  ``--serve-arg`` passes
options to ``paiju serve`` (e.g. ``--watchers-per-table 2100 --address-limit-factor 100``: every spectator
shares the loopback address).  Loopback only; bounded; stops the server when done.

    .venv/bin/python bench/bench_watchers.py --watchers 2000 --duration 20 \\
        --serve-arg=--watchers-per-table=2100 --serve-arg=--address-limit-factor=100
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from bench_server_load import free_port
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent


async def run(port: int, watchers: int, duration: float) -> dict[str, float]:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        r = await http.post("/api/session", json={"nickname": "host"})
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
        busy = (await http.post("/api/tables", json={"game": "shuiyu", "turn_seconds": 0, "claim_seconds": 0},
                                headers=auth)).json()["id"]
        quiet = (await http.post("/api/tables", json={"game": "shuiyu"}, headers=auth)).json()["id"]
        (await http.post(f"/api/tables/{busy}/bots", json={}, headers=auth)).raise_for_status()
    sem = asyncio.Semaphore(64)
    sockets = []
    drains: list[asyncio.Task[None]] = []

    async def drain(ws: object) -> None:
        with contextlib.suppress(Exception):
            async for _ in ws:  # type: ignore[attr-defined]
                pass

    async def watch() -> None:
        async with sem:
            ws = await connect(f"ws://127.0.0.1:{port}/ws/tables/{busy}", open_timeout=60, ping_interval=None,
                               max_size=2**22)
        sockets.append(ws)
        drains.append(asyncio.create_task(drain(ws)))

    t0 = time.perf_counter()
    await asyncio.gather(*(watch() for _ in range(watchers)))
    attached = time.perf_counter() - t0
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        (await http.post(f"/api/tables/{busy}/start", json={}, headers=auth)).raise_for_status()
    rtts: list[float] = []
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{quiet}", ping_interval=None, max_size=2**22) as ws:
        await ws.recv()  # the snapshot
        end = time.perf_counter() + duration
        while time.perf_counter() < end:
            t = time.perf_counter()
            await ws.send(json.dumps({"type": "ping"}))
            while json.loads(await ws.recv())["type"] not in ("pong", "error"):
                pass
            rtts.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(0.1)  # ten a second: a person's pace, under the room's message limit
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    for task in drains:
        task.cancel()
    ms = sorted(rtts)
    return {"watchers": watchers, "attach_s": round(attached, 2), "pings": len(ms),
            "ping_p50_ms": round(statistics.median(ms), 2), "ping_p99_ms": round(ms[int(0.99 * len(ms))], 2),
            "ping_max_ms": round(ms[-1], 2), "load_average_1m": round(os.getloadavg()[0], 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--watchers", type=int, default=2000)
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--bot-delay", type=float, default=0.05)
    ap.add_argument("--serve-arg", action="append", default=[], help="an option for paiju serve (repeatable)")
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * args.watchers + 1024)), hard))
    data = Path(tempfile.mkdtemp(prefix="paiju-watchers-"))
    port = free_port()
    cmd = [str(ROOT / ".venv/bin/paiju"), "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir",
           str(data), "--bot-delay", str(args.bot_delay), "--log-level", "warning", *args.serve_arg]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        print(json.dumps(asyncio.run(run(port, args.watchers, args.duration))))
    finally:
        server.terminate()
        server.wait(30)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
