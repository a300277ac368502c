"""Speed-up of ``paiju sim`` and ``paiju study`` on 1 and 2 worker processes and on Ray, on this machine.

    .venv/bin/python bench/bench_parallel.py [--rounds 3] [--study-deals 400] [--study-rounds 2] [--no-ray]

Every figure is a whole command run as a user runs it (interpreter start-up, imports, workers, Ray's start-up
for ``--ray``), timed in wall-clock seconds — the speed-up is what a user waits less.  The configurations run
interleaved, round after round, and each reports its median and its best run (the one least disturbed by other
jobs on a shared machine), so a change of load hits all of them alike.  Also printed: the CPU seconds of the
whole process tree (what the split costs in extra work: start-up, messages, a second copy of caches), and the
``seconds`` each command prints (from starting its workers to the summary: no interpreter start-up).  Every run
of a command must print the same summary (timing fields apart), or the benchmark stops.  Then, in this process,
Ray's cost per task against plain processes once both are warm.

Measured: the short command ``paiju sim huashui --games 120`` (a few seconds: start-up matters) and a study of
about a CPU-minute, ``paiju study huashui --deals 400 --against greedy``; first, the start-up costs themselves
(importing the CLI, starting two workers with fork, forkserver and spawn).  Needs ``pip install -e '.[cluster]'``
for the Ray rows (they are skipped otherwise).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paiju.bots.executor import ProcessExecutor, Work, execute, without_timing


def _command() -> list[str]:
    script = Path(sys.executable).parent / "paiju"
    return [str(script)] if script.exists() else [sys.executable, "-m", "paiju.cli.main"]


@dataclass
class Config:
    label: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    work: list[float] = field(default_factory=list)
    summary: Any = None
    cpu_counted: bool = True
    """False where the workers are not the command's own children (forkserver's, Ray's): their CPU is not seen"""


def run_once(cfg: Config, base: list[str]) -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*_command(), *base, *cfg.args], capture_output=True, text=True,
                          env={**os.environ, **cfg.env}, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{cfg.label}: exit {done.returncode}\n{done.stderr[-2000:]}")
    summary = json.loads(done.stdout)
    cfg.wall.append(wall)
    cfg.cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    cfg.work.append(float(summary["seconds"]))
    if cfg.summary is None:
        cfg.summary = without_timing(summary)
    elif cfg.summary != without_timing(summary):
        raise SystemExit(f"{cfg.label}: two runs printed different summaries")


def measure(title: str, base: list[str], configs: list[Config], rounds: int) -> None:
    print(f"\n### {title}\n\n    paiju {' '.join(base)} [--workers N | --ray]\n", flush=True)
    load = os.getloadavg()[0]
    for r in range(rounds):
        for cfg in configs if r % 2 == 0 else reversed(configs):
            run_once(cfg, base)
    reference = configs[0].summary
    for cfg in configs:
        if cfg.summary != reference:
            raise SystemExit(f"{cfg.label} printed a different summary from {configs[0].label}")
    one, one_best = statistics.median(configs[0].wall), min(configs[0].wall)
    print("| run | wall s: median | speed-up | wall s: best | speed-up (best) | CPU s, whole tree | "
          "`seconds` printed | runs |")
    print("|---|---|---|---|---|---|---|---|")
    for cfg in configs:
        wall, best = statistics.median(cfg.wall), min(cfg.wall)
        cpu = f"{statistics.median(cfg.cpu):.2f}" if cfg.cpu_counted else "—"
        print(f"| {cfg.label} | {wall:.2f} | **{one / wall:.2f}×** | {best:.2f} | {one_best / best:.2f}× | {cpu} | "
              f"{statistics.median(cfg.work):.2f} | {len(cfg.wall)} |")
    print(f"\nsame summary on every run: yes; load average before: {load:.2f}, after: {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} cores", flush=True)


def _square(x: int) -> int:
    return x * x


def startup(repeats: int = 5) -> None:
    print("### start-up\n")
    imports = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import paiju.cli.main"], check=True)
        imports.append(time.perf_counter() - start)
    bare = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - start)
    print(f"- python start-up alone {statistics.median(bare) * 1000:.0f} ms; with `import paiju.cli.main` "
          f"{statistics.median(imports) * 1000:.0f} ms (median of {repeats})")
    work: Work[int, int, list[int]] = Work(_square, list(range(2)), lambda _, rs: list(rs))
    for method in ("fork", "forkserver", "spawn"):
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            with ProcessExecutor(2, method=method) as ex:
                execute(work, ex)
            times.append(time.perf_counter() - start)
        print(f"- two workers started, given a job each and stopped, `{method}`: "
              f"{statistics.median(times) * 1000:.0f} ms")


def ray_overhead(rounds: int, games: int) -> None:
    """The same work on two warm worker processes and on a warm local Ray with 2 CPUs, in this process,
    interleaved: what Ray's tasks cost over plain processes once both are running (start-up apart)."""
    import ray

    from paiju.bots.executor import RayExecutor
    from paiju.bots.sim import sim_work
    from paiju.core import get_game

    work = sim_work("huashui", get_game("huashui").config_class(), ["best"] * 4, games=games)
    times: dict[str, list[float]] = {"processes": [], "ray": []}
    with ProcessExecutor(2) as px:  # forked before Ray starts its threads
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
        try:
            with RayExecutor(2) as rx:
                first = {name: execute(work, ex).summary for name, ex in (("processes", px), ("ray", rx))}
                assert first["processes"] == first["ray"], "Ray and processes disagree"
                for r in range(rounds):
                    for name, ex in (("processes", px), ("ray", rx)) if r % 2 == 0 else (("ray", rx),
                                                                                        ("processes", px)):
                        times[name].append(execute(work, ex).seconds)
        finally:
            ray.shutdown()
    proc, on_ray = statistics.median(times["processes"]), statistics.median(times["ray"])
    print(f"\n### Ray's cost per task, both warm: {games} 滑水 matches, {rounds} interleaved rounds\n\n"
          f"2 worker processes {proc:.2f} s, Ray with 2 CPUs {on_ray:.2f} s (medians): Ray takes "
          f"**{on_ray / proc - 1:+.1%}** (goal: under +10%)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the short command (0: skip it)")
    ap.add_argument("--games", type=int, default=120, help="matches of the short command")
    ap.add_argument("--study-deals", type=int, default=400, help="deals of the study (about a CPU-minute)")
    ap.add_argument("--study-rounds", type=int, default=2, help="interleaved rounds of the study (0: skip it)")
    ap.add_argument("--no-ray", action="store_true", help="leave Ray out")
    ap.add_argument("--no-start-methods", action="store_true", help="leave out the forkserver and spawn rows")
    args = ap.parse_args()
    ray = not args.no_ray and importlib.util.find_spec("ray") is not None
    if not ray and not args.no_ray:
        print("Ray is not installed (pip install -e '.[cluster]'): its rows are left out")
    startup()

    def configs(methods: bool) -> list[Config]:
        out = [Config("1 worker (in process)", ["--workers", "1"]), Config("2 workers (fork)", ["--workers", "2"])]
        if methods:
            out += [Config("2 workers (forkserver)", ["--workers", "2"], {"PAIJU_START_METHOD": "forkserver"},
                           cpu_counted=False),
                    Config("2 workers (spawn)", ["--workers", "2"], {"PAIJU_START_METHOD": "spawn"})]
        if ray:
            out.append(Config("Ray, local ray.init(num_cpus=2)", ["--ray", "--workers", "2"], cpu_counted=False))
        return out

    if args.rounds:
        measure(f"the short command: {args.games} 滑水 matches, best bots",
                ["sim", "huashui", "--games", str(args.games), "--no-progress"], configs(not args.no_start_methods),
                args.rounds)
        if ray:
            ray_overhead(args.rounds + 2, args.games)
    if args.study_rounds:
        measure(f"a study of about a CPU-minute: {args.study_deals} 滑水 duplicate deals",
                ["study", "huashui", "--deals", str(args.study_deals), "--against", "greedy", "--no-progress"],
                configs(False), args.study_rounds)


if __name__ == "__main__":
    main()
