"""The fair benchmark harness (bench/bench_engines.py): its loop, its output's structure, its build hook.

Timings are not tested; tiny budgets only check that every side plays and every figure is reported.
"""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from paiju.bots import play_random
from paiju.core import game_names, get_game

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import bench_engines  # noqa: E402

RL_EXTRA = all(importlib.util.find_spec(m) is not None for m in ("numpy", "gymnasium", "pettingzoo"))


def harness(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH / "bench_engines.py"), *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("mode", ["bare", "view", "encoded"])
def test_paiju_loop_is_play_random(mode: str) -> None:
    """The harness's paiju loop draws the same random numbers as play_random: same hand, same decisions."""
    if mode == "encoded" and not RL_EXTRA:
        pytest.skip("the rl extra is not installed: pip install -e '.[rl]'")
    assert set(bench_engines.ONE_HAND) == set(game_names())
    for name in game_names():
        runner = bench_engines.PaijuRunner(name, mode)
        got = runner.run(0.0)  # one whole hand, seed 0
        rng = random.Random(1)
        cls = get_game(name)
        decisions = play_random(cls.new(cls.config_class.from_dict(bench_engines.ONE_HAND[name]), 0), rng)
        assert (got.hands, got.decisions) == (1, decisions), name
        assert runner.rng.getstate() == rng.getstate(), name


def test_compiled_build_needs_a_location() -> None:
    done = harness("--build", "compiled", "--games", "shuiyu")
    assert done.returncode != 0
    assert "--compiled-python" in done.stderr and "--compiled-path" in done.stderr


def peers_installed() -> None:
    pytest.importorskip("rlcard", reason="the bench extra is not installed: pip install -e '.[bench]'")
    pytest.importorskip("pyspiel", reason="the bench extra is not installed: pip install -e '.[bench]'")


def test_harness_reports_every_side_and_the_fair_figure_first() -> None:
    peers_installed()
    if shutil.which("git") is None or not (BENCH.parent / ".git").exists():
        pytest.skip("--against needs a git checkout")
    done = harness("--games", "shuiyu,shengji", "--seconds", "0.02", "--rounds", "2", "--warmup", "1",
                   "--against", "HEAD", "--json")
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    assert report["schema"] == bench_engines.SCHEMA
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=BENCH,
                          check=True).stdout.strip()
    builds = ["pure", f"rev:{head}"]
    assert report["settings"]["games"] == ["shuiyu", "shengji"] and report["settings"]["builds"] == builds
    encoded = {f"paiju:{g}:encoded@{b}" for g in ("shuiyu", "shengji") for b in builds}
    assert set(report["skipped"]) == (set() if RL_EXTRA else encoded)

    sides = {s["key"]: s for s in report["sides"]}
    expected = {f"paiju:{g}:{m}@{b}" for g in ("shuiyu", "shengji") for m in ("bare", "view") for b in builds}
    expected |= encoded if RL_EXTRA else set()
    expected |= {"rlcard:limit-holdem:view", "rlcard:limit-holdem:encoded", "rlcard:bridge:bare",
                 "rlcard:bridge:encoded", "rlcard:doudizhu:view", "rlcard:doudizhu:encoded"}
    expected |= {f"openspiel:{g}:{m}" for g in ("spades", "hearts", "python_team_dominoes")
                 for m in ("bare", "view", "encoded")}
    assert set(sides) == expected
    for key, side in sides.items():
        assert len(side["slices"]) == len(side["deal_slices"]) == 2, key
        assert all(s["hands"] >= 1 and s["cpu"] > 0 for s in side["slices"]), key
        assert side["decisions_per_hand"] > 1, key
        rate = side["decisions_per_cpu_s"]
        assert 0 < rate["min"] <= rate["median"] <= rate["max"], key
        assert side["deal_cpu_us"]["median"] > 0, key
        assert (side["chance_steps_per_hand"] > 0) == (side["engine"] == "openspiel"), key

    rows = report["comparisons"]
    assert [r["kind"] for r in rows][:12] == ["fair"] * 12  # one per peer of the two games and build, first
    fair = {(r["game"], r["peer"]) for r in rows if r["kind"] == "fair" and r["build"] == "pure"}
    assert fair == {("shuiyu", "rlcard:limit-holdem:view"), ("shengji", "rlcard:bridge:encoded"),
                    ("shengji", "rlcard:doudizhu:view"), ("shengji", "openspiel:spades:view"),
                    ("shengji", "openspiel:hearts:view"), ("shengji", "openspiel:python_team_dominoes:view")}
    assert {r["kind"] for r in rows} == {"fair", "bare", "encoded", "build"}
    ours = {"fair": ":view", "bare": ":bare", "encoded": ":encoded" if RL_EXTRA else ":view"}
    for r in rows:
        if r["kind"] == "build":  # the revision against this tree, mode by mode
            assert r["paiju"].endswith(f"@rev:{head}") and r["peer"] == r["paiju"].replace(f"rev:{head}", "pure")
        else:
            assert r["paiju"].endswith(f"{ours[r['kind']]}@{r['build']}")
        for figure in ("per_decision", "per_hand", "per_decision_without_deal"):
            cell = r[figure]
            assert 0 < cell["min"] <= cell["median"] <= cell["max"]
        for figure, rate in (("per_decision", "decisions_per_cpu_s"), ("per_hand", "hands_per_cpu_s")):
            assert r[figure]["paiju"] == sides[r["paiju"]][rate]["median"]
            assert r[figure]["peer"] == sides[r["peer"]][rate]["median"]
    assert len([r for r in rows if r["kind"] == "build"]) == len([k for k in expected if k.endswith("@pure")])
    assert set(report["differs"]) == {"all", "paiju", "rlcard:game", "rlcard:env", "openspiel"}

    text = bench_engines.render(report)
    assert text.index("THE FAIR FIGURE") < text.index("Without views") < text.index("Encoded for learning")
    assert "What differs between the sides" in text and "Why these peers" in text
