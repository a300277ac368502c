"""Strong bots beside people's tables: does a room with searching bots keep its latency?

Starts a card room (this script with ``--serve``, a subprocess) where 水鱼's strong bot is a test search bot
that spins for its whole budget (``SpinBot``: pure CPU, as a search is), then runs ``bench_server_load``'s
load — ``--tables`` tables of four people clients acting about once a second — while ``--bot-tables`` more
tables are played by four strong bots each.  ``--mode``:

- ``pool``: the room as it is (strong bots in worker processes, the fast bot when the room is busy);
- ``thread``: every strong decision searches on a thread of the room's process, as bots did before (no
  fallback) — what a search bot would cost without the pool;
- ``none``: no bot tables (the people's load alone).

Prints one JSON line: the people's action-to-update latency (p50, p99), the server's CPU, the searches'
outcomes and the workers' CPU.  Loopback only; bounded; stops the server when done.

    .venv/bin/python bench/bench_strong_bots.py --tables 100 --bot-tables 8 --duration 30 --mode pool
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


class SpinBot:
    """A stand-in search bot: burns its whole budget of CPU, then picks a legal action from its seed."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.budget_seconds = 0.7

    def act(self, view: Any, legal: Sequence[str]) -> str:
        end = time.monotonic() + self.budget_seconds
        n = 0
        while time.monotonic() < end:
            n += 1
        return legal[self.rng.randrange(len(legal))]


# ---- the server (a subprocess) -------------------------------------------------------------------------

def serve(port: int, data: Path, mode: str, workers: int, budget: float) -> None:
    import dataclasses

    import bench_strong_bots as me  # by this name, so the room's workers can import the bot's class
    import uvicorn

    from paiju.core import registry
    from paiju.server import Settings, create_app
    from paiju.server.room.search import SearchPool

    shuiyu = registry.entry("shuiyu")
    registry.register(dataclasses.replace(
        shuiyu, bots={**shuiyu.bot_factories(), "spin": me.SpinBot},
        strengths={"easy": "biggest_head", "normal": "best", "strong": "spin"}))
    if mode == "thread":
        async def on_a_thread(self: SearchPool, maker: Any, seed: int, view: dict[str, Any],
                              legal: list[str]) -> str | None:
            self.watch()
            bot = maker(seed)
            bot.budget_seconds = budget
            action: str = await asyncio.to_thread(bot.act, view, legal)
            self.stats["on_thread"] += 1
            return action

        SearchPool.decide = on_a_thread  # type: ignore[method-assign]
    # no pause between hands: the load's clients never press continue (as in bench_server_load)
    settings = Settings(data_dir=data, secret_key="bench", turn_seconds=0, claim_seconds=0, grace_seconds=600,
                        next_hand_seconds=0,
                        gc_full_every_seconds=600.0, address_limit_factor=100, strong_bot_workers=workers,
                        strong_bot_budget=budget, strong_bot_seconds=max(1.0, budget + 0.3))
    app = create_app(settings)

    def report() -> None:
        """Every second: the room's search counts, for the load generator to read at the end."""
        while True:
            time.sleep(1.0)
            room = getattr(app.state, "room", None)
            if room is not None:
                pool = room.search
                out = {"stats": dict(pool.stats), "cpu_seconds": pool.cpu_seconds, "lag_s": pool.lag,
                       "pids": sorted(pool.pids), "ready": pool.ready}
                (data / "search.json").write_text(json.dumps(out))

    threading.Thread(target=report, daemon=True).start()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=64 * 1024, proxy_headers=False)


# ---- the load generator --------------------------------------------------------------------------------

async def bot_tables(base: str, n: int) -> list[str]:
    """``n`` 水鱼 tables of four strong bots, started."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        r = await http.post("/api/session", json={"nickname": "botowner"})
        r.raise_for_status()
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
        tids = []
        for _ in range(n):
            r = await http.post("/api/tables", json={"game": "shuiyu", "config": {"rounds": 10000},
                                                     "turn_seconds": 0, "claim_seconds": 0,
                                                     "next_hand_seconds": 0}, headers=auth)
            r.raise_for_status()
            tid = r.json()["id"]
            seats = (await http.post(f"/api/tables/{tid}/bots", json={"strength": "strong"}, headers=auth)).json()
            assert all(s["strength"] == "strong" for s in seats["seats"]), seats
            (await http.post(f"/api/tables/{tid}/start", json={}, headers=auth)).raise_for_status()
            tids.append(tid)
        return tids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=100, help="tables of four people clients")
    ap.add_argument("--bot-tables", type=int, default=8, help="tables of four strong bots")
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--mode", choices=["pool", "thread", "none"], default="pool")
    ap.add_argument("--workers", type=int, default=1, help="the room's strong_bot_workers")
    ap.add_argument("--budget", type=float, default=0.7, help="the strong bots' search budget in seconds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--serve", nargs=2, metavar=("PORT", "DATA"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(int(args.serve[0]), Path(args.serve[1]), args.mode, args.workers, args.budget)
        return
    if not 1 <= args.tables <= 2000 or not 0 <= args.bot_tables <= 200 or not 1 <= args.duration <= 600:
        sys.exit("keep it bounded: 1..2000 tables, 0..200 bot tables, 1..600 seconds")
    import bench_server_load as load

    data = Path(tempfile.mkdtemp(prefix="paiju-strong-"))
    port = load.free_port()
    cmd = [sys.executable, str(Path(__file__).resolve()), "--serve", str(port), str(data), "--mode", args.mode,
           "--workers", str(args.workers), "--budget", str(args.budget)]
    log_path = data / "server.log"
    log_file = log_path.open("wb")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(HERE)]))
    server = subprocess.Popen(cmd, stdout=log_file, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                    break
            if server.poll() is not None:
                sys.exit(f"server exited: {log_path.read_text(errors='replace')[-3000:]}")
            time.sleep(0.1)
        tids, tokens = asyncio.run(load.setup([base], args.tables, [("shuiyu", {"rounds": 10000})]))
        if args.mode != "none" and args.bot_tables:
            asyncio.run(bot_tables(base, args.bot_tables))
            for _ in range(300):  # the workers start (thread mode has none), the bot tables get going
                with contextlib.suppress(OSError, ValueError):
                    if args.mode == "thread" or json.loads((data / "search.json").read_text())["ready"]:
                        break
                time.sleep(0.1)
            time.sleep(2.0)
        marks: dict[str, float] = {}

        def on_load() -> None:
            marks.update(server=load.cpu_seconds(server.pid), wall=time.perf_counter(), me=time.process_time())
            with contextlib.suppress(OSError, ValueError):
                marks["searched"] = json.loads((data / "search.json").read_text())["cpu_seconds"]

        res = asyncio.run(load.drive([port], tids, tokens, [base], args.duration, 1.0, args.seed, on_load))
        wall = time.perf_counter() - marks["wall"]
        cpu_server = load.cpu_seconds(server.pid) - marks["server"]
        cpu_self = time.process_time() - marks["me"]
        time.sleep(1.2)
        search: dict[str, Any] = {}
        with contextlib.suppress(OSError, ValueError):
            search = json.loads((data / "search.json").read_text())
    except BaseException:
        log_file.flush()
        print(f"server log (last lines):\n{log_path.read_text(errors='replace')[-3000:]}", file=sys.stderr)
        raise
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log_file.close()
        shutil.rmtree(data, ignore_errors=True)
    lat = res["latencies"]
    print(json.dumps({
        "mode": args.mode, "tables": args.tables, "bot_tables": args.bot_tables if args.mode != "none" else 0,
        "workers": args.workers, "budget_s": args.budget, "duration_s": round(res["elapsed"], 1),
        "actions": len(lat), "p50_ms": round(load.pct(lat, 50) * 1000, 2),
        "p99_ms": round(load.pct(lat, 99) * 1000, 2), "max_ms": round(max(lat) * 1000, 1) if lat else None,
        "timeouts_or_errors": res["failures"],
        "server_cpu_s": round(cpu_server, 1), "server_cpu_pct": round(100 * cpu_server / wall, 1),
        "loadgen_cpu_s": round(cpu_self, 1),
        "searches": search.get("stats", {}),
        "worker_search_cpu_s": round(search.get("cpu_seconds", 0.0) - marks.get("searched", 0.0), 1),
        "load_average_1m": round(os.getloadavg()[0], 1),
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
