"""Strong bots beside people's tables: does a room with searching bots keep its latency?

Starts a card room (this script with ``--serve``, a subprocess) where 水鱼's strong bot is a test search bot
that spins for its whole budget (``SpinBot``: pure CPU, as a search is), then runs ``bench_server_load``'s
load — ``--tables`` tables of four people clients acting about once a second — while ``--bot-tables`` more
tables are played by four strong bots each.  ``--mode``:

- ``pool``: the room as it is (strong bots in worker processes, the fast bot when the room is busy);
- ``thread``: every strong decision searches on a thread of the room's process, as bots did before (no
  fallback) — what a search bot would cost without the pool;
- ``none``: no bot tables (the people's load alone).

With ``--game GAME`` the bot tables play that game with the room's own bots instead of the stand-in: half
of them four strong (高手) bots, half four normal (普通) ones, so the line also gives each strength's decision
time as a seat at the table waits for it (from the room asking to the answer, queueing and the pool's fallback
included): p50, p99 and max for normal and strong (issue 37: normal ≤ 50 ms, strong within its cap,
``strong_bot_seconds``).

Prints one JSON line: the people's action-to-update latency (p50, p99), the server's CPU, the searches'
outcomes and the workers' CPU.  Loopback only; bounded; stops the server when done.

    .venv/bin/python bench/bench_strong_bots.py --tables 100 --bot-tables 8 --duration 30 --mode pool
    .venv/bin/python bench/bench_strong_bots.py --tables 100 --bot-tables 8 --duration 60 --game shengji
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

DECISIONS: dict[str, list[float]] = {"normal": [], "strong": []}
"""Wall seconds of each bot decision at the bot tables (``--game``), by the seat's strength."""


def time_decisions() -> None:
    """Time every bot choice at a table, from the room asking to the answer (in the server process)."""
    from paiju.server.room.bots import TableBots, strength_of

    choose = TableBots.choose

    async def timed(self: TableBots, bot: Any, seat: int, move: int, view: dict[str, Any], legal: list[str],
                    name: str | None = None) -> str | None:
        start = time.perf_counter()
        try:
            return await choose(self, bot, seat, move, view, legal, name)
        finally:
            strength = strength_of(name)
            if strength in DECISIONS:
                DECISIONS[strength].append(time.perf_counter() - start)

    TableBots.choose = timed  # type: ignore[method-assign]


def spread(xs: list[float]) -> dict[str, Any]:
    """Decisions, p50, p99 and max in ms."""
    if not xs:
        return {"decisions": 0}
    ys = sorted(xs)
    return {"decisions": len(ys), "p50_ms": round(ys[len(ys) // 2] * 1000, 2),
            "p99_ms": round(ys[min(len(ys) - 1, int(len(ys) * 0.99))] * 1000, 2), "max_ms": round(ys[-1] * 1000, 1)}


def serve(port: int, data: Path, mode: str, workers: int, budget: float, game: str | None = None) -> None:
    import dataclasses

    import bench_strong_bots as me  # by this name, so the room's workers can import the bot's class
    import uvicorn

    from paiju.core import registry
    from paiju.server import Settings, create_app
    from paiju.server.room.search import SearchPool

    if game is None:
        shuiyu = registry.entry("shuiyu")
        registry.register(dataclasses.replace(
            shuiyu, bots={**shuiyu.bot_factories(), "spin": me.SpinBot},
            strengths={"easy": "biggest_head", "normal": "best", "strong": "spin"}))
    else:
        time_decisions()
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
                       "pids": sorted(pool.pids), "ready": pool.ready,
                       "decisions": {k: spread(list(v)) for k, v in DECISIONS.items()}}
                (data / "search.json").write_text(json.dumps(out))

    threading.Thread(target=report, daemon=True).start()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=64 * 1024, proxy_headers=False)


# ---- the load generator --------------------------------------------------------------------------------

LONG = {"shuiyu": {"rounds": 10000}, "huashui": {"hands": 64}, "shengji": {}, "weimaque": {"hands": 64}}
"""A long match of each game, so the bot tables play through the whole measurement."""


async def bot_tables(base: str, n: int, game: str | None = None) -> list[str]:
    """``n`` tables of four bots, started: 水鱼's stand-in strong bots, or ``game``'s own, half strong and half
    normal."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        r = await http.post("/api/session", json={"nickname": "botowner"})
        r.raise_for_status()
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
        tids = []
        for i in range(n):
            strength = "strong" if game is None or i % 2 == 0 else "normal"
            r = await http.post("/api/tables", json={"game": game or "shuiyu", "config": LONG[game or "shuiyu"],
                                                     "turn_seconds": 0, "claim_seconds": 0,
                                                     "next_hand_seconds": 0}, headers=auth)
            r.raise_for_status()
            tid = r.json()["id"]
            with contextlib.suppress(httpx.HTTPError):  # the creator sits at seat 0: the bots take all four
                await http.post(f"/api/tables/{tid}/leave", json={}, headers=auth)
            seats = (await http.post(f"/api/tables/{tid}/bots", json={"strength": strength},
                                     headers=auth)).json()
            assert all(s["strength"] == strength for s in seats["seats"]), seats
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
    ap.add_argument("--game", choices=["shuiyu", "huashui", "shengji", "weimaque"],
                    help="bot tables of this game with the room's own bots, half strong, half normal")
    ap.add_argument("--serve", nargs=2, metavar=("PORT", "DATA"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(int(args.serve[0]), Path(args.serve[1]), args.mode, args.workers, args.budget, args.game)
        return
    if not 1 <= args.tables <= 2000 or not 0 <= args.bot_tables <= 200 or not 1 <= args.duration <= 600:
        sys.exit("keep it bounded: 1..2000 tables, 0..200 bot tables, 1..600 seconds")
    import bench_server_load as load

    data = Path(tempfile.mkdtemp(prefix="paiju-strong-"))
    port = load.free_port()
    cmd = [sys.executable, str(Path(__file__).resolve()), "--serve", str(port), str(data), "--mode", args.mode,
           "--workers", str(args.workers), "--budget", str(args.budget), *(["--game", args.game] if args.game else [])]
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
            asyncio.run(bot_tables(base, args.bot_tables, args.game))
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
        **({"game": args.game, "bot_decisions": search.get("decisions", {})} if args.game else {}),
        "load_average_1m": round(os.getloadavg()[0], 1),
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
