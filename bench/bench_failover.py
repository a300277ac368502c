"""Failover under load (issue 36): how long after a worker's SIGKILL each of its tables is served again.

Starts two ``paiju serve --redis-url`` workers on a fresh PostgreSQL database (made on the server of
``--database-url`` and dropped at the end) and one Redis, makes ``--tables`` tables at them in turn (one
person, the client here, and three fast bots; no pauses), and lets every person act ``--think`` seconds after
each of its turns.  After ``--warmup`` seconds it SIGKILLs the first worker; each client of that worker's
tables then comes back to the survivor, either every 0.2 s (``fixed``) or as the browser does (``browser``:
the 4503 close's ``retry_after_ms`` with up to 25% jitter, else 400 ms doubling to 5 s).  Prints, per way of
retrying, the time from the kill to each table's first snapshot at the survivor: p50, p99 and max, and the
refusals the clients got by close code (a 403 would be a bug).  Loopback only; bounded in tables.

    .venv/bin/python bench/bench_failover.py --tables 1000 \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test --redis-url redis://127.0.0.1:6379/15
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from bench_server_load import fresh_database
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ROOT = Path(__file__).resolve().parent.parent
TABLES_PER_OWNER = 10
"""Settings.tables_per_minute_per_session: the tables are made by as many guests as that takes."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(ports: list[int], procs: list[subprocess.Popen[bytes]], data: Path) -> None:
    """Until each worker's ``/healthz`` answers 200 (30 s at most); a worker that exits ends the bench."""
    for port, proc in zip(ports, procs, strict=True):
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            if proc.poll() is not None:
                sys.exit(f"a worker exited: see {data}")
            time.sleep(0.1)


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


@dataclass
class Player:
    table: str
    token: str
    owner: int
    back: float | None = None


class Run:
    """One room of two workers, its tables and their clients, until the first worker is killed and its tables
    are back."""

    def __init__(self, args: argparse.Namespace, way: str, db_url: str) -> None:
        self.args, self.way, self.db_url = args, way, db_url
        self.ports = [free_port(), free_port()]
        self.port_of = list(self.ports)  # where the clients of each worker's tables connect
        self.killed: float | None = None
        self.codes: Counter[int] = Counter()
        self.stop = False

    def start(self, data: Path) -> list[subprocess.Popen[bytes]]:
        paiju = Path(sys.executable).with_name("paiju")
        env = {**os.environ, "PAIJU_SECRET_KEY": "bench-failover-key",
               "PAIJU_REDIS_PREFIX": f"paiju-failover-{secrets.token_hex(4)}"}
        procs = []
        for n, port in enumerate(self.ports):
            cmd = [str(paiju), "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data),
                   "--database-url", self.db_url, "--redis-url", self.args.redis_url, "--turn-seconds", "0",
                   "--claim-seconds", "0", "--claim-pause", "0", "--pace-seconds", "0", "--next-hand-seconds", "0",
                   "--bot-delay", "0", "--grace-seconds", "600", "--address-limit-factor", "100",
                   "--log-level", self.args.log_level]
            log = (data / f"worker-{n}-{self.way}.log").open("wb")
            procs.append(subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env))
        wait_healthy(self.ports, procs, data)
        return procs

    async def setup(self) -> list[Player]:
        limits = httpx.Limits(max_connections=32)
        https = [httpx.AsyncClient(base_url=f"http://127.0.0.1:{p}", timeout=60, limits=limits) for p in self.ports]
        sem = asyncio.Semaphore(32)
        owners = []
        for _ in range(-(-self.args.tables // TABLES_PER_OWNER)):
            r = await https[0].post("/api/session", json={"nickname": "故障"})
            r.raise_for_status()
            owners.append(r.json()["token"])

        async def one(i: int) -> Player:
            at, token = https[i % 2], owners[i // TABLES_PER_OWNER]
            auth = {"Authorization": f"Bearer {token}"}
            async with sem:
                r = await at.post("/api/tables", json={"game": "huashui", "config": {"hands": 64}}, headers=auth)
                r.raise_for_status()
                tid = r.json()["id"]
                (await at.post(f"/api/tables/{tid}/bots", headers=auth)).raise_for_status()
                (await at.post(f"/api/tables/{tid}/start", headers=auth)).raise_for_status()
            return Player(tid, token, i % 2)

        try:
            return list(await asyncio.gather(*(one(i) for i in range(self.args.tables))))
        finally:
            for h in https:
                await h.aclose()

    async def client(self, p: Player, rng: random.Random) -> None:
        retry = 0
        while not self.stop:
            hint: float | None = None
            url = f"ws://127.0.0.1:{self.port_of[p.owner]}/ws/tables/{p.table}?token={p.token}"
            try:
                async with connect(url, open_timeout=30, max_size=None) as ws:
                    retry = 0
                    async for raw in ws:
                        msg = json.loads(raw)
                        if msg["type"] == "snapshot" and self.killed is not None and p.back is None \
                                and p.owner == 0:
                            p.back = time.monotonic() - self.killed
                        if msg["type"] in ("snapshot", "update") and msg.get("legal"):
                            # beside the reading: a client thinking still hears its socket drop at once
                            acting = asyncio.create_task(self.act(ws, msg, rng))
                            acting.add_done_callback(lambda t: t.cancelled() or t.exception())
                        if self.stop:
                            return
            except InvalidStatus as e:
                self.codes[e.response.status_code] += 1
            except ConnectionClosed as e:
                if e.rcvd is not None:
                    self.codes[e.rcvd.code] += 1
                    if e.rcvd.code == 4503:
                        with contextlib.suppress(ValueError, KeyError, TypeError):
                            hint = json.loads(e.rcvd.reason)["retry_after_ms"] / 1000
                else:
                    self.codes[1006] += 1
            except (OSError, TimeoutError):
                self.codes[0] += 1
            if self.way == "fixed":
                await asyncio.sleep(0.2)
            elif hint is not None:
                await asyncio.sleep(hint * (1 + 0.25 * rng.random()))
            else:
                await asyncio.sleep(min(5.0, 0.4 * 2 ** retry))
                retry += 1

    async def act(self, ws: Any, msg: dict[str, Any], rng: random.Random) -> None:
        await asyncio.sleep(self.args.think * rng.uniform(0.5, 1.5))
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps({"type": "act", "action": msg["legal"][0]["action"], "seq": msg["seq"]}))

    async def play(self, procs: list[subprocess.Popen[bytes]]) -> dict[str, Any]:
        players = await self.setup()
        rng = random.Random(self.args.seed)
        tasks = [asyncio.create_task(self.client(p, random.Random(rng.random()))) for p in players]
        await asyncio.sleep(self.args.warmup)
        self.port_of[0] = self.ports[1]
        procs[0].send_signal(signal.SIGKILL)
        self.killed = time.monotonic()
        theirs = [p for p in players if p.owner == 0]
        end = self.killed + self.args.timeout
        while time.monotonic() < end and any(p.back is None for p in theirs):
            await asyncio.sleep(0.1)
        self.stop = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        backs = [p.back for p in theirs if p.back is not None]
        return {"way": self.way, "tables": len(players), "killed_tables": len(theirs),
                "back": len(backs), "p50_s": round(pct(backs, 50), 2), "p99_s": round(pct(backs, 99), 2),
                "max_s": round(max(backs), 2) if backs else None,
                "refusals": dict(sorted(self.codes.items()))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--database-url", required=True, help="a PostgreSQL URL: the bench makes its own databases")
    ap.add_argument("--redis-url", required=True)
    ap.add_argument("--way", choices=["fixed", "browser", "both"], default="both")
    ap.add_argument("--think", type=float, default=5.0, help="seconds a person takes per decision (±50%%)")
    ap.add_argument("--warmup", type=float, default=8.0, help="seconds of play before the kill")
    ap.add_argument("--timeout", type=float, default=60.0, help="give up on tables not back after this")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log-level", default="warning", help="the workers' (info: each table taken over, timed)")
    args = ap.parse_args()
    if not 2 <= args.tables <= 2000 or not args.database_url.startswith("postgresql"):
        sys.exit("keep it bounded: 2..2000 tables, on PostgreSQL")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * args.tables + 1024)), hard))
    results = []
    for way in (["fixed", "browser"] if args.way == "both" else [args.way]):
        data = Path(tempfile.mkdtemp(prefix="paiju-failover-"))
        with fresh_database(args.database_url) as db_url:
            assert db_url is not None
            run = Run(args, way, db_url)
            procs = run.start(data)
            try:
                results.append(asyncio.run(run.play(procs)))
            finally:
                for proc in procs:
                    if proc.poll() is None:
                        proc.send_signal(signal.SIGTERM)
                        try:
                            proc.wait(20)
                        except subprocess.TimeoutExpired:
                            proc.kill()
        print(json.dumps({**results[-1], "logs": str(data)}, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
