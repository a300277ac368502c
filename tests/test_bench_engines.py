"""The fair benchmark harness (bench/bench_engines.py): its loop, its output's structure, its build hook.

Timings are not tested; tiny budgets only check that every side plays and every figure is reported.  The
harness is driven as the docs run it, in subprocesses (its worker protocol, its command line), never imported:
its worker side must stay a self-contained script, since it also runs on other builds and revisions of paiju.
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
SCRIPT = BENCH / "bench_engines.py"

ONE_HAND: dict[str, dict[str, Any]] = {
    "huashui": {"hands": 1}, "weimaque": {"hands": 1}, "shengji": {"max_hands": 1}, "shuiyu": {"rounds": 1},
}
"""The harness's one-hand match of each game (its ``ONE_HAND``), stated again: a hand it plays otherwise fails."""

SCHEMA = 1
"""The harness's report ``schema``: a change of the report's shape bumps both."""

RL_EXTRA = all(importlib.util.find_spec(m) is not None for m in ("numpy", "gymnasium", "pettingzoo"))


def harness(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120)


def worker_slices(mode: str, hands: int) -> dict[str, list[dict[str, Any]]]:
    """Each game's paiju side in the harness's pure worker (its JSON-lines protocol): ``hands`` slices of no CPU
    time, each one whole hand."""
    sides = [{"key": f"paiju:{g}:{mode}@pure", "engine": "paiju", "game": g, "mode": mode} for g in game_names()]
    asks = [{"op": "setup", "sides": sides, "warmup": 0}]
    asks += [{"op": "run", "key": s["key"], "seconds": 0.0} for s in sides for _ in range(hands)]
    asks.append({"op": "stop"})
    done = subprocess.run([sys.executable, str(SCRIPT), "--worker", "pure"], capture_output=True, text=True,
                          timeout=120, input="".join(json.dumps(a) + "\n" for a in asks))
    assert done.returncode == 0, done.stderr
    setup, *answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert setup["error"] is None and setup["skipped"] == {}, setup
    assert len(answers) == len(sides) * hands, done.stderr
    return {g: answers[i * hands:(i + 1) * hands] for i, g in enumerate(game_names())}


@pytest.mark.parametrize("mode", ["bare", "view", "encoded"])
def test_paiju_loop_is_play_random(mode: str) -> None:
    """The harness's paiju loop draws the same random numbers as play_random: same hands, same decisions (the
    second hand, seed 1 on the same generator, matches only if the first drew exactly as play_random)."""
    if mode == "encoded" and not RL_EXTRA:
        pytest.skip("the rl extra is not installed: pip install -e '.[rl]'")
    assert set(ONE_HAND) == set(game_names())
    for name, slices in worker_slices(mode, hands=2).items():
        rng = random.Random(1)
        cls = get_game(name)
        config = cls.config_class.from_dict(ONE_HAND[name])
        expected = [play_random(cls.new(config, seed), rng) for seed in range(2)]
        assert [(s["hands"], s["decisions"], s["chance"]) for s in slices] == [(1, d, 0) for d in expected], name


def test_compiled_build_needs_a_location() -> None:
    done = harness("--build", "compiled", "--games", "shuiyu")
    assert done.returncode != 0
    assert "--compiled-python" in done.stderr and "--compiled-path" in done.stderr


def peers_installed() -> None:
    pytest.importorskip("rlcard", reason="the bench extra is not installed: pip install -e '.[bench]'")
    pytest.importorskip("pyspiel", reason="the bench extra is not installed: pip install -e '.[bench]'")


def test_harness_reports_every_side_and_the_fair_figure_first(tmp_path: Path) -> None:
    peers_installed()
    if shutil.which("git") is None or not (BENCH.parent / ".git").exists():
        pytest.skip("--against needs a git checkout")
    path = tmp_path / "engines.json"
    done = harness("--games", "shuiyu,shengji", "--seconds", "0.02", "--rounds", "2", "--warmup", "1",
                   "--against", "HEAD", "--json", str(path))  # the JSON to the file, the table on stdout
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert report["schema"] == SCHEMA
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

    text = done.stdout
    assert text.index("THE FAIR FIGURE") < text.index("Without views") < text.index("Encoded for learning")
    assert "What differs between the sides" in text and "Why these peers" in text
