"""Simulations and studies split over processes (and Ray) give the same figures as one process; Ctrl-C stops
every worker and prints what finished."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from paiju.bots.executor import (
    Executor,
    ProcessExecutor,
    SerialExecutor,
    Work,
    WorkerError,
    execute,
    guided_chunks,
    make_executor,
    ranges,
    without_timing,
)
from paiju.bots.sim import play_match, sim_work
from paiju.bots.study import DealResult, StudyArgs
from paiju.cli.main import app
from paiju.core import get_game
from paiju.core.registry import entry

runner = CliRunner()
SIM_GAMES = ("huashui", "weimaque", "shengji")


def _sim(game: str, workers: int, *extra: str) -> dict[str, Any]:
    out = runner.invoke(app, ["sim", game, "--games", "8", "--seed", "5", "--no-progress", "--per-match",
                              "--workers", str(workers), *extra])
    assert out.exit_code == 0, out.output
    summary: dict[str, Any] = json.loads(out.stdout)
    return summary


@pytest.mark.parametrize("game", SIM_GAMES)
def test_sim_summary_is_the_same_on_1_2_and_4_workers(game: str) -> None:
    one, two, four = (_sim(game, n, *(["-o", "max_hands=1"] if game == "shengji" else [])) for n in (1, 2, 4))
    assert one["games"] == 8 and len(one["matches"]) == 8
    assert [m["seed"] for m in one["matches"]] == list(range(5, 13))
    assert any(any(m["scores"]) for m in one["matches"]), "the matches must score something to compare"
    assert without_timing(two) == without_timing(one)
    assert without_timing(four) == without_timing(one)
    assert two["seconds"] > 0 and "games_per_second" not in without_timing(two)


def test_spawned_workers_agree_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spawned workers share nothing with the parent (not even its hash seed): results still depend on seeds only."""
    monkeypatch.setenv("PAIJU_START_METHOD", "spawn")
    assert without_timing(_sim("weimaque", 2)) == without_timing(_sim("weimaque", 1))


def _study(game: str, args: StudyArgs, executor: Executor) -> tuple[dict[str, Any], list[Any]]:
    """The study's summary, and every job's own result (decision times left out), in job order."""
    work = entry(game).study_spec().plan(args)
    with executor as ex:
        outcome = execute(Work(work.play, work.jobs, lambda _, rs: list(rs), work.prepare), ex)
    assert not outcome.interrupted and outcome.done == len(work.jobs)
    per_job = [(r.sample, r.hands, r.measures) if isinstance(r, DealResult)
               else r._replace(wall=[], cpu=[]) if "wall" in r._fields else r for r in outcome.summary]
    return without_timing(work.merge(work.jobs, outcome.summary)), per_job


STUDIES = [("weimaque", StudyArgs(3, 100_000, ("random",), {"scale": False})),
           ("shengji", StudyArgs(2, 0, ("highest",))),
           ("huashui", StudyArgs(2, 0, ("greedy",)))]


@pytest.mark.parametrize(("game", "args"), STUDIES, ids=[g for g, _ in STUDIES])
def test_study_is_the_same_on_1_2_and_4_workers(game: str, args: StudyArgs) -> None:
    summary, per_job = _study(game, args, SerialExecutor())
    assert summary["rows"][0]["deals"] == args.deals
    for n in (2, 4):
        again, again_per_job = _study(game, args, ProcessExecutor(n))
        assert again_per_job == per_job
        assert again == summary


def test_shuiyu_study_with_prepared_tables_is_the_same_on_two_workers() -> None:
    args = StudyArgs(1, 0, ("biggest_head",), {"selfplay": 1})
    assert _study("shuiyu", args, SerialExecutor()) == _study("shuiyu", args, ProcessExecutor(2))


def test_shuiyu_probe_is_the_same_on_two_workers() -> None:
    """The exploitability probe alone (no opponent rows): two deals, split or not, give the same figures."""
    args = StudyArgs(1, 0, (), {"probe": 2})
    serial = _study("shuiyu", args, SerialExecutor())
    assert serial == _study("shuiyu", args, ProcessExecutor(2))
    assert serial[0]["rows"] == [] and serial[0]["probe"]["deals"] == 2 and len(serial[0]["probe"]["rows"]) == 17


def test_study_command_prints_rows_and_checks_its_options() -> None:
    out = runner.invoke(app, ["study", "weimaque", "-n", "2", "--against", "closest", "-o", "scale=false",
                              "--no-progress", "-w", "2"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert [(r["bot"], r["against"], r["deals"], r["hands"]) for r in summary["rows"]] == [("tuned", "closest", 2, 6)]
    assert summary["seconds"] > 0 and 0 <= summary["rows"][0]["win_rate"] <= 1
    bad = runner.invoke(app, ["study", "weimaque", "-o", "nosuch=1"])
    assert bad.exit_code != 0 and "scale" in bad.output
    bad = runner.invoke(app, ["study", "huashui", "--against", "nobody", "-n", "1"])
    assert bad.exit_code != 0 and "nobody" in bad.output


def test_ladder_plays_each_strength_against_the_same_field() -> None:
    """``paiju study GAME --ladder``: easy, normal and strong in the studied seats in turn, each against the
    three strengths' bots, random and the game's own opponents, on the same deals; a strength that plays the
    same bot as another says so."""
    from paiju.bots.base import STRENGTHS, strength_kinds

    kinds = strength_kinds("weimaque")
    out = runner.invoke(app, ["study", "weimaque", "--ladder", "-n", "2", "--against", "closest", "-o",
                              "scale=false", "--no-progress", "-w", "1"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    field = summary["field"]
    assert field[-2:] == ["random", "closest"] and len(field) == len(set(field))
    assert set(field) >= {kinds[s] for s in STRENGTHS}
    assert [(step["strength"], step["kind"]) for step in summary["steps"]] == [(s, kinds[s]) for s in STRENGTHS]
    for step in summary["steps"]:
        assert [r["deals"] for r in step["rows"]] == [2] * len(field)
        assert all(r["mean"] is not None for r in step["rows"])
        assert step["same_as"] == [s for s in STRENGTHS if s != step["strength"] and kinds[s] == step["kind"]]


def _fails_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three is not allowed")
    return x * x


def test_a_failing_job_reports_the_workers_traceback() -> None:
    work: Work[int, int, list[int]] = Work(_fails_on_three, list(range(6)), lambda _, rs: list(rs))
    with pytest.raises(WorkerError, match="three is not allowed"), ProcessExecutor(2) as ex:
        execute(work, ex)


def test_more_workers_than_jobs_and_no_jobs() -> None:
    with ProcessExecutor(4) as ex:
        square: Work[int, int, list[int]] = Work(_fails_on_three, [0, 1, 2], lambda _, rs: list(rs))
        assert execute(square, ex).summary == [0, 1, 4]
        empty: Work[int, int, list[int]] = Work(_fails_on_three, [], lambda _, rs: list(rs))
        assert execute(empty, ex).summary == []


def test_chunks_cover_every_job_once_and_shrink() -> None:
    for n, workers in ((1, 2), (10, 3), (1000, 2), (7, 16)):
        chunks = list(guided_chunks(n, workers))
        assert [i for a, b in chunks for i in range(a, b)] == list(range(n))
        sizes = [b - a for a, b in chunks]
        assert sizes == sorted(sizes, reverse=True)
    assert ranges([0, 1, 2, 5, 7, 8]) == [[0, 2], [5, 5], [7, 8]]


def test_ray_and_the_server_are_imported_only_when_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command (and every worker with spawn) starts faster without them; ``serve`` still works."""
    code = ("import sys, paiju.cli.main, paiju.bots.executor; "
            "assert not {'ray', 'paiju.server', 'sqlalchemy'} & set(sys.modules), 'imported too early'")
    subprocess.run([sys.executable, "-c", code], check=True)
    listed = runner.invoke(app, ["--help"])
    assert "serve" in listed.stdout and "study" in listed.stdout
    serve = runner.invoke(app, ["serve", "--help"])
    assert serve.exit_code == 0 and "--database-url" in serve.stdout
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the cluster extra were not installed
    out = runner.invoke(app, ["sim", "huashui", "-n", "1", "--ray", "--no-progress"])
    assert out.exit_code != 0 and "paiju[cluster]" in out.output


# -- Ray ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'paiju[cluster]'")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_gives_the_same_results(local_ray: Any) -> None:
    for game in SIM_GAMES[:2]:
        assert without_timing(_sim(game, 2, "--ray")) == without_timing(_sim(game, 1))
    game, args = STUDIES[0]
    assert _study(game, args, make_executor(2, ray=True)) == _study(game, args, SerialExecutor())
    cls = get_game("huashui")
    work = sim_work("huashui", cls.config_class(), ["random"] * 4, games=40, seed=3, per_match=True)
    with make_executor(None, ray=True) as ex:
        assert ex.workers == 2
        on_ray = execute(work, ex).summary
    assert on_ray["matches"][7]["scores"] == list(play_match("huashui", cls.config_class(), ["random"] * 4, 10)[1])
    with SerialExecutor() as ex:
        assert execute(work, ex).summary == on_ray


# -- Ctrl-C ------------------------------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(proc.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads worker processes from /proc")
@pytest.mark.parametrize("group", [False, True], ids=["kill -INT", "Ctrl-C in a terminal"])
def test_ctrl_c_stops_every_worker_and_prints_what_finished(group: bool) -> None:
    """SIGINT to the command alone, or to its whole process group as a terminal's Ctrl-C sends it."""
    cmd = [sys.executable, "-m", "paiju.cli.main", "sim", "huashui", "--games", "3000", "--workers", "2",
           "--per-match", "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"}, start_new_session=True)
    deadline = time.monotonic() + 30
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
        workers = _children(proc.pid)
    assert len(workers) == 2, "the simulation should start two worker processes"
    time.sleep(1.5)  # let some matches finish
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr
    summary = json.loads(stdout)
    assert summary["interrupted"] is True and summary["games_requested"] == 3000
    assert 0 < summary["games"] < 3000
    seeds = [m["seed"] for m in summary["matches"]]
    assert len(seeds) == summary["games"] == sum(b - a + 1 for a, b in summary["finished_seeds"])
    assert seeds == [s for a, b in summary["finished_seeds"] for s in range(a, b + 1)]
    totals = [sum(m["scores"][s] for m in summary["matches"]) for s in range(4)]
    assert totals == summary["totals"]
    cfg = get_game("huashui").config_class()
    last = summary["matches"][-1]
    assert list(play_match("huashui", cfg, ["best"] * 4, last["seed"]).scores) == last["scores"]
    assert not [pid for pid in workers if _running(pid)], "no worker may outlive an interrupted run"
