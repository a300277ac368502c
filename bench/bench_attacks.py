"""An honest player's latency while the room is attacked (issue 32, items 1, 3 and 11).

Starts ``paiju serve`` on a loopback port with a fresh SQLite data directory and every default limit, seats an
honest player at a table, and measures that player's websocket round trip (``ping`` → ``pong``) and an HTTP
``GET /api/games`` (a kept-alive connection), each about 15 times a second, from a process of its own at
127.0.0.1: first quiet, then during each attack, sent from other loopback addresses (127.0.0.2-4, so the
per-address limits treat the attacker as someone else, as on a real network):

1. ``logins``: a burst of ``--login-burst`` (80) wrong logins at once on one username, a new username every
   second (each burst alone would lock its username after ten): how many were checked (401) and refused (429).
3. ``wide``: ``--wide-sockets`` (12) anonymous sockets sending frames of ``--wide-lists`` (20,000) empty lists
   (60 KB) at ``--wide-rate`` (165) frames a second in all; each socket reconnects when it is closed (1009).
11. ``half-sent``: ``--half-sent`` (3,000) connections that send half an HTTP request head and hold it.

Prints p50/p99 per phase and each attack's p99 over the quiet one, as a ratio.  Loopback only; every phase is
``--seconds`` long and the server is stopped at the end.

    .venv/bin/python bench/bench_attacks.py --seconds 15
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

HONEST, LOGINS, WIDE, HALF, MAKER = "127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"
"""Source addresses: the honest player, one per attack, and the one that registers the login bench's victims."""

PROBES_PER_SECOND = 15.0
"""Under the room's 20 websocket messages a second per socket: the honest player is never rate-limited."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


# ---- the honest player, in a process of its own (the attackers' CPU in this one would skew its clock) --------

async def _probe(base: str, token: str, tid: str, seconds: float, pipe: Connection) -> dict[str, Any]:
    ws_ms: list[float] = []
    http_ms: list[float] = []
    failed: Counter[str] = Counter()
    url = base.replace("http", "ws", 1) + f"/ws/tables/{tid}?token={token}"
    transport = httpx.AsyncHTTPTransport(local_address=HONEST)
    async with connect(url, open_timeout=30, max_size=None) as ws, \
            httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        await ws.recv()  # the snapshot
        await http.get("/api/games")
        pipe.send("ready")
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # "go"
        end = time.monotonic() + seconds

        async def pings() -> None:
            while time.monotonic() < end:
                t0 = time.perf_counter()
                await ws.send('{"type": "ping"}')
                try:
                    while json.loads(await asyncio.wait_for(ws.recv(), 30)).get("type") != "pong":
                        pass
                except TimeoutError:
                    failed["ws timeout"] += 1
                ws_ms.append((time.perf_counter() - t0) * 1000)
                await asyncio.sleep(max(0.0, 1 / PROBES_PER_SECOND - (time.perf_counter() - t0)))

        async def gets() -> None:
            while time.monotonic() < end:
                t0 = time.perf_counter()
                try:
                    r = await http.get("/api/games")
                    if r.status_code != 200:
                        failed[f"http {r.status_code}"] += 1
                except httpx.HTTPError as e:
                    failed[f"http {type(e).__name__}"] += 1
                http_ms.append((time.perf_counter() - t0) * 1000)
                await asyncio.sleep(max(0.0, 1 / PROBES_PER_SECOND - (time.perf_counter() - t0)))

        await asyncio.gather(pings(), gets())
    return {"ws": ws_ms, "http": http_ms, "failed": dict(failed)}


def probe(base: str, token: str, tid: str, seconds: float, pipe: Connection) -> None:
    """The honest player's measurements for one phase, sent back through ``pipe``."""
    pipe.send(asyncio.run(_probe(base, token, tid, seconds, pipe)))


# ---- the attacks ------------------------------------------------------------------------------------------------

async def attack_logins(base: str, until: float, burst: int, victims: list[str], out: Counter[str]) -> None:
    """Item 1: ``burst`` wrong logins at once, each on its own connection, on one username; a new one a second."""
    limits = httpx.Limits(max_connections=burst, max_keepalive_connections=0)
    transport = httpx.AsyncHTTPTransport(local_address=LOGINS, limits=limits)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as http:
        for i, name in enumerate(victims):
            if time.monotonic() >= until:
                break
            started = time.monotonic()
            got = await asyncio.gather(*[http.post("/api/login", json={"username": name, "password": f"guess {k}"})
                                         for k in range(burst)], return_exceptions=True)
            codes = Counter(r.status_code if isinstance(r, httpx.Response) else type(r).__name__ for r in got)
            if i == 0:
                out.update({f"first burst {c}": n for c, n in codes.items()})
            out.update({f"{c}": n for c, n in codes.items()})
            out["bursts"] += 1
            await asyncio.sleep(max(0.0, started + 1.0 - time.monotonic()))


async def attack_wide(base: str, tid: str, until: float, sockets: int, rate: float, lists: int,
                      out: Counter[str]) -> None:
    """Item 3: anonymous sockets sending wide JSON; a socket the room closes comes back, as an attacker's would."""
    frame = '{"type": "ping", "x": [' + ",".join(["[]"] * lists) + "]}"
    every = sockets / rate
    url = base.replace("http", "ws", 1) + f"/ws/tables/{tid}"

    async def one() -> None:
        due = time.monotonic()  # this socket's next frame: the pace holds across reconnections

        async def paced() -> None:
            nonlocal due
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            due = max(due + every, time.monotonic() - every)

        while time.monotonic() < until:
            try:
                async with connect(url, open_timeout=10, max_size=None, local_addr=(WIDE, 0)) as ws:
                    out["connections"] += 1
                    while time.monotonic() < until:
                        await paced()
                        await ws.send(frame)
                        out["frames sent"] += 1
                        with contextlib.suppress(TimeoutError):
                            while True:  # read what came back (a refusal, a snapshot) without waiting long
                                await asyncio.wait_for(ws.recv(), 0.001)
            except ConnectionClosed as e:
                out[f"closed {e.rcvd.code if e.rcvd else 'without a code'}"] += 1
            except (OSError, TimeoutError) as e:
                out[f"refused {type(e).__name__}"] += 1
                await paced()

    await asyncio.gather(*[one() for _ in range(sockets)])


async def attack_half_sent(port: int, until: float, n: int, out: Counter[str]) -> None:
    """Item 11: ``n`` connections that each send half a request head and hold it; what became of them."""
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def open_one() -> None:
        try:
            r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(HALF, 0))
        except OSError as e:
            out[f"not connected ({type(e).__name__})"] += 1
            return
        w.write(b"GET /api/games HTTP/1.1\r\nHost: bench\r\n")  # never the blank line that ends the head
        held.append((r, w))

    for start in range(0, n, 200):
        await asyncio.gather(*[open_one() for _ in range(start, min(n, start + 200))])
    out["opened"] = len(held)
    await asyncio.sleep(max(0.0, until - time.monotonic()))
    for r, w in held:
        try:
            head = await asyncio.wait_for(r.read(64), 0.001)
        except TimeoutError:
            out["still open"] += 1
        except OSError:
            out["reset"] += 1
        else:
            out["answered " + head.split(b"\r\n")[0].decode(errors="replace") if head else "closed"] += 1
        w.close()


# ---- the run ------------------------------------------------------------------------------------------------------

def start_server(data: Path) -> tuple[subprocess.Popen[bytes], str, Any]:
    paiju = Path(sys.executable).with_name("paiju")
    port = free_port()
    log = (data / "server.log").open("wb")
    cmd = [str(paiju), "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data),
           "--log-level", "warning"]
    env = {**os.environ, "PAIJU_SECRET_KEY": "bench-attacks"}
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                return proc, base, log
        if proc.poll() is not None:
            sys.exit((data / "server.log").read_text(errors="replace")[-3000:])
        time.sleep(0.1)
    proc.kill()
    sys.exit("the card room did not start")


async def setup(base: str, victims: int) -> tuple[str, str, list[str]]:
    """The honest player's session and table, and the login bench's victims (registered from MAKER's
    addresses: one registration per address, under the sessions-per-address limit)."""
    async with httpx.AsyncClient(base_url=base, timeout=30,
                                 transport=httpx.AsyncHTTPTransport(local_address=HONEST)) as http:
        token = (await http.post("/api/session", json={"nickname": "honest"})).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        tid = (await http.post("/api/tables", json={"game": "shuiyu"}, headers=auth)).json()["id"]
        await http.post(f"/api/tables/{tid}/sit", json={"seat": 0}, headers=auth)
    names = []
    for i in range(victims):
        address = f"127.0.5.{i + 1}"
        async with httpx.AsyncClient(base_url=base, timeout=30,
                                     transport=httpx.AsyncHTTPTransport(local_address=address)) as http:
            r = await http.post("/api/accounts", json={"username": f"victim{i}", "password": "a long secret 42"})
            if r.status_code != 201:
                sys.exit(f"registering victim{i}: {r.status_code} {r.text}")
        names.append(f"victim{i}")
    return token, tid, names


def phase(name: str, base: str, token: str, tid: str, seconds: float,
          attack: Callable[[float], Awaitable[None]] | None) -> dict[str, Any]:
    """One phase: the honest player measures for ``seconds`` while ``attack(until)`` runs (None: quiet)."""
    ctx = multiprocessing.get_context("spawn")
    mine, theirs = ctx.Pipe()
    proc = ctx.Process(target=probe, args=(base, token, tid, seconds, theirs), daemon=True)
    proc.start()
    if not mine.poll(60) or mine.recv() != "ready":
        proc.kill()
        sys.exit(f"{name}: the honest player did not connect")

    async def run() -> None:
        until = time.monotonic() + seconds
        task = asyncio.ensure_future(attack(until)) if attack is not None else None
        mine.send("go")
        if task is not None:
            try:
                await asyncio.wait_for(task, seconds + 30)
            except TimeoutError:
                print(f"{name}: the attack outlived its phase by 30 s", file=sys.stderr)

    asyncio.run(run())
    if not mine.poll(seconds + 60):
        proc.kill()
        sys.exit(f"{name}: the honest player gave no result")
    got: dict[str, Any] = mine.recv()
    proc.join(10)
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=15.0, help="length of each phase (quiet, then each attack)")
    ap.add_argument("--login-burst", type=int, default=80)
    ap.add_argument("--wide-sockets", type=int, default=12)
    ap.add_argument("--wide-rate", type=float, default=165.0, help="frames a second over all the wide sockets")
    ap.add_argument("--wide-lists", type=int, default=20_000, help="empty lists in each wide frame")
    ap.add_argument("--half-sent", type=int, default=3000)
    ap.add_argument("--only", action="append", choices=["logins", "wide", "half-sent"], default=None)
    ap.add_argument("--pause", type=float, default=3.0, help="seconds between phases for the room to settle")
    ap.add_argument("--json", default=None, metavar="FILE", help="write the figures here too")
    args = ap.parse_args()
    if not 1 <= args.seconds <= 300 or args.half_sent > 20_000 or args.login_burst > 1000 or args.wide_sockets > 200:
        sys.exit("bounded: 1-300 s a phase, at most 20,000 half-sent, 1,000 logins a burst, 200 wide sockets")
    attacks = args.only or ["logins", "wide", "half-sent"]
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # 3,000 half-sent connections, and the room's
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    load_before = os.getloadavg()
    data = Path(tempfile.mkdtemp(prefix="paiju-attacks-"))
    server, base, log = start_server(data)
    results: dict[str, dict[str, Any]] = {}
    seen: dict[str, Counter[str]] = {}
    try:
        port = int(base.rsplit(":", 1)[1])
        token, tid, victims = asyncio.run(setup(base, int(args.seconds) + 1 if "logins" in attacks else 0))
        results["quiet"] = phase("quiet", base, token, tid, args.seconds, None)
        for name in attacks:
            time.sleep(args.pause)
            c: Counter[str] = Counter()
            seen[name] = c
            if name == "logins":
                def attack(until: float, c: Counter[str] = c) -> Awaitable[None]:
                    return attack_logins(base, until, args.login_burst, victims, c)
            elif name == "wide":
                def attack(until: float, c: Counter[str] = c) -> Awaitable[None]:
                    return attack_wide(base, tid, until, args.wide_sockets, args.wide_rate, args.wide_lists, c)
            else:
                def attack(until: float, c: Counter[str] = c) -> Awaitable[None]:
                    return attack_half_sent(port, until, args.half_sent, c)
            results[name] = phase(name, base, token, tid, args.seconds, attack)
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(data, ignore_errors=True)
    load_after = os.getloadavg()
    quiet = results["quiet"]
    print(f"{os.cpu_count()} cores; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; "
          f"{args.seconds:g} s a phase; probes {PROBES_PER_SECOND:g}/s each")
    print(f"{'phase':<10} {'ws p50':>8} {'ws p99':>8} {'http p50':>9} {'http p99':>9} {'ws p99 ×':>9} "
          f"{'http p99 ×':>10}  samples  failed")
    table = {}
    for name, r in results.items():
        row = {"ws_p50": pct(r["ws"], 50), "ws_p99": pct(r["ws"], 99), "http_p50": pct(r["http"], 50),
               "http_p99": pct(r["http"], 99), "samples": (len(r["ws"]), len(r["http"])), "failed": r["failed"]}
        row["ws_ratio"] = row["ws_p99"] / pct(quiet["ws"], 99)
        row["http_ratio"] = row["http_p99"] / pct(quiet["http"], 99)
        table[name] = row
        print(f"{name:<10} {row['ws_p50']:>6.1f}ms {row['ws_p99']:>6.1f}ms {row['http_p50']:>7.1f}ms "
              f"{row['http_p99']:>7.1f}ms {row['ws_ratio']:>9.2f} {row['http_ratio']:>10.2f}  "
              f"{len(r['ws'])}/{len(r['http'])}  {r['failed'] or '-'}")
    for name, c in seen.items():
        rate = f" ({c['frames sent'] / args.seconds:.0f} frames/s)" if name == "wide" else ""
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())) + rate)
    print(f"mean of the quiet ws round trip: {statistics.fmean(quiet['ws']):.1f} ms")
    if args.json:
        Path(args.json).write_text(json.dumps({"load": [load_before, load_after], "phases": table,
                                               "attacks": {k: dict(v) for k, v in seen.items()}}, indent=1))


if __name__ == "__main__":
    main()
