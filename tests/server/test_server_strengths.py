"""Bot strengths in the card room (issue 16): every game offers 入门 / 普通 / 高手, a seat shows its strength,
and a strong bot thinks in a worker process within its time, or the fast bot moves instead."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiju.bots.base import STRENGTHS, get_bot, strength_kinds
from paiju.core import registry as core_registry
from paiju.core.registry import GameEntry
from paiju.server.room.search import FAILED, LAGGING, QUEUE_FULL, SEARCHED, STARTING, TIMED_OUT, SearchPool

from .conftest import LiveServer, Player, ToyGame, fast_settings, registered_games
from .strength_bots import BudgetBot, DyingBot, FirstBot, StuckBot


@pytest.fixture
def bot_server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(fast_settings(tmp_path, allow_fixed_deals=False)) as s:  # the games' own bots
        yield s


def test_the_games_list_offers_three_strengths(bot_server: LiveServer) -> None:
    games = bot_server.client().http.get("/api/games").json()
    assert {g["name"] for g in games} >= {"shuiyu", "huashui", "shengji", "weimaque"}
    for g in games:
        assert [(s["name"], s["zh"], s["en"]) for s in g["strengths"]] == \
            [("easy", "入门", "easy"), ("normal", "普通", "normal"), ("strong", "高手", "strong")]
        kinds = {s["name"]: s["bot"] for s in g["strengths"]}
        assert kinds == strength_kinds(g["name"])
        if g["name"] in ("shuiyu", "huashui", "shengji", "weimaque"):
            # easy is the game's baseline, a real bot and not the strongest one nor random
            assert kinds["easy"] not in ("best", "random") and kinds["normal"] == "best"
            assert type(get_bot(g["name"], kinds["easy"])) is not type(get_bot(g["name"], "best"))


@pytest.mark.parametrize("name", registered_games())
def test_each_strength_fills_the_seats_and_plays(bot_server: LiveServer, name: str) -> None:
    me = bot_server.client("me")
    for strength in STRENGTHS:
        tid = me.ok("/api/tables", {"game": name})["id"]
        me.ok(f"/api/tables/{tid}/sit", {"seat": 0})
        seats = me.ok(f"/api/tables/{tid}/bots", {"strength": strength})["seats"]
        assert seats[0]["bot"] is None and seats[0]["strength"] is None
        assert all(s["strength"] == strength and s["bot"] for s in seats[1:])
        assert [s["strength"] for s in me.http.get(f"/api/tables/{tid}").json()["seats"]] == \
            [None] + [strength] * (len(seats) - 1)
        sock = me.socket(tid)
        sock.recv()
        me.ok(f"/api/tables/{tid}/start")
        state = sock.until(lambda m: m["type"] == "snapshot" and m["view"] is not None)
        rng = random.Random(1)
        bot_moves = 0
        while bot_moves < 3 and not state["view"]["finished"]:
            if sock.legal:
                sock.act(rng.choice(sock.legal))
            state = sock.state(timeout=60)
            bot_moves += sum(1 for e in state.get("events", []) if e.get("seat") not in (None, 0))
        assert bot_moves >= 3 or state["view"]["finished"], f"{name} at {strength}: the bots did not play"
        sock.close()


def test_an_unknown_strength_is_refused(bot_server: LiveServer) -> None:
    me = bot_server.client("me")
    tid = me.ok("/api/tables", {"game": "shuiyu"})["id"]
    me.ok(f"/api/tables/{tid}/sit", {"seat": 0})
    for bad in ("godlike", 3, "", ["strong"], "STRONG", True):
        r = me.post(f"/api/tables/{tid}/bots", {"strength": bad})
        assert r.status_code == 422, (bad, r.text)
        err = r.json()["error"]
        assert err["code"] == "unknown_strength" and "easy" in err["message"] and "高手" in err["zh"]
    assert all(s["bot"] is None for s in me.http.get(f"/api/tables/{tid}").json()["seats"])
    stranger = bot_server.client("stranger")  # the permission check still comes first for a stranger
    r = stranger.post(f"/api/tables/{tid}/bots", {"strength": "strong"})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_allowed")
    assert me.ok(f"/api/tables/{tid}/bots", {})["seats"][1]["strength"] == "normal"  # {}: normal, as before
    assert me.ok(f"/api/tables/{tid}/bots", {})["seats"][1]["bot"] == "best"


# ---- a strong bot off the event loop --------------------------------------------------------------------

def _toy_with(monkeypatch: pytest.MonkeyPatch, strong: type) -> None:
    """The toy game with a fast bot and a test search bot as its strong one (the worker gets the class)."""
    entry = GameEntry("toy", engine=ToyGame, bots={"first": FirstBot, "search": strong},
                      strengths={"easy": "first", "normal": "first", "strong": "search"})
    monkeypatch.setitem(core_registry.GAMES, "toy", entry)


def _play_strong_toy(server: LiveServer, me: Player) -> tuple[dict[str, Any], list[float], str]:
    """A toy match, me in seat 0 and strong bots in the others; the final state, the waits between updates
    while only bots decided, and the table."""
    tid = me.ok("/api/tables", {"game": "toy", "config": {"hand_size": 2}})["id"]
    me.ok(f"/api/tables/{tid}/sit", {"seat": 0})
    seats = me.ok(f"/api/tables/{tid}/bots", {"strength": "strong"})["seats"]
    assert [(s["bot"], s["strength"]) for s in seats[1:]] == [("strong", "strong")] * 2
    end = time.monotonic() + 30  # filling strong seats started the workers; the first search need not wait
    while not server.room.search.ready:
        assert time.monotonic() < end, "the workers did not start"
        time.sleep(0.05)
    sock = me.socket(tid)
    sock.recv()
    me.ok(f"/api/tables/{tid}/start")
    state = sock.until(lambda m: m["type"] == "snapshot" and m["view"] is not None)
    waits = []
    while not state["view"]["finished"]:
        if sock.legal:
            sock.act(sock.legal[0])
        asked = time.monotonic()
        state = sock.state(timeout=30)
        if not sock.legal:
            waits.append(time.monotonic() - asked)
    return state, waits, tid


def _strong_settings(tmp_path: Path, **changes: Any) -> Any:
    return fast_settings(tmp_path, allow_fixed_deals=False, strong_bot_workers=1, **changes)


def test_a_strong_bot_thinks_in_another_process_within_its_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _toy_with(monkeypatch, BudgetBot)
    settings = _strong_settings(tmp_path, strong_bot_budget=0.15, strong_bot_seconds=5.0,
                                strong_bot_lag_seconds=10.0)  # this test is about the pool, not a busy machine
    with LiveServer(settings) as server:
        state, _, _ = _play_strong_toy(server, server.client("me"))
        pool = server.room.search
        assert pool.stats[SEARCHED] >= 2 and pool.stats[TIMED_OUT] == 0
        assert pool.pids and os.getpid() not in pool.pids  # the bots' act ran in a worker process
        # each search spent its budget, not more: CPU per decision within the budget (and a little to build)
        assert pool.cpu_seconds <= pool.stats[SEARCHED] * (0.15 + 0.1)
        assert state["view"]["finished"]


def test_a_strong_bot_that_overruns_is_replaced_by_the_fast_bot_within_the_cap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _toy_with(monkeypatch, StuckBot)  # sleeps 3 s whatever its budget
    settings = _strong_settings(tmp_path, strong_bot_budget=0.2, strong_bot_seconds=0.4, strong_bot_lag_seconds=10.0)
    with LiveServer(settings) as server:
        state, waits, _ = _play_strong_toy(server, server.client("me"))
        pool = server.room.search
        assert state["view"]["finished"]  # the game went on
        assert pool.stats[SEARCHED] == 0 and pool.stats[TIMED_OUT] >= 1
        # one worker, stuck for 3 s: the next decisions found the queue full and did not wait at all
        assert pool.stats[QUEUE_FULL] >= 1
        assert max(waits) < 0.4 + 1.5, waits  # never the stuck bot's 3 s: the cap, then the fast bot


def test_a_worker_that_dies_is_replaced_and_the_fast_bot_moves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _toy_with(monkeypatch, DyingBot)
    with LiveServer(_strong_settings(tmp_path, strong_bot_lag_seconds=10.0)) as server:
        state, _, _ = _play_strong_toy(server, server.client("me"))
        pool = server.room.search
        assert state["view"]["finished"]  # the game went on
        assert pool.stats[FAILED] >= 1 and pool.stats[SEARCHED] == 0
        assert pool.stats[FAILED] + pool.stats[STARTING] >= 2  # after a death, the next search starts new workers


def test_a_lagging_room_plays_the_fast_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _toy_with(monkeypatch, BudgetBot)
    # the watcher's first sample is an hour away: the lag set here stands for a busy event loop
    settings = _strong_settings(tmp_path, strong_bot_budget=0.2, strong_bot_lag_every=3600.0)
    with LiveServer(settings) as server:
        server.room.search.lag = 0.2
        me = server.client("me")
        state, _, tid = _play_strong_toy(server, me)
        pool = server.room.search
        assert state["view"]["finished"]
        assert pool.stats[LAGGING] >= 2 and pool.stats[SEARCHED] == 0 and not pool.pids
        # a rematch brings the bots back at the strength they were chosen at
        nxt = me.ok(f"/api/tables/{tid}/rematch", {"confirm": True})["next"]
        seats = me.http.get(f"/api/tables/{nxt}").json()["seats"]
        assert [s["strength"] for s in seats] == [None, "strong", "strong"]


def test_the_lag_watcher_sees_a_blocked_loop_and_a_full_queue_is_busy(tmp_path: Path) -> None:
    pool = SearchPool(fast_settings(tmp_path, strong_bot_lag_every=0.02, strong_bot_workers=2, strong_bot_queue=1))

    async def main() -> tuple[float, float]:
        pool.watch()
        await asyncio.sleep(0.1)
        quiet = pool.lag
        time.sleep(0.2)  # a callback that holds the loop, as a long GC pause or a search on the loop would
        await asyncio.sleep(0.05)
        return quiet, pool.lag

    try:
        quiet, blocked = asyncio.run(main())
    finally:
        pool.close()
    assert blocked >= 0.15 > quiet
    assert pool.busy() == LAGGING
    pool.lag = 0.0
    assert pool.busy() is None
    pool.in_flight = 3  # two running, one waiting: one more would make two waiting, more than the queue's one
    assert pool.busy() == QUEUE_FULL
    pool.in_flight = 2
    assert pool.busy() is None


def test_a_paced_step_is_answered_by_the_fast_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """升级's deal steps last 0.05 s here: a search could not answer within one, so strong seats answer them
    with their fast bot; only the last call for bids (a claim window) may search."""
    shengji = core_registry.entry("shengji")
    monkeypatch.setitem(core_registry.GAMES, "shengji", dataclasses.replace(
        shengji, bots={**shengji.bot_factories(), "search": BudgetBot},
        strengths={"easy": "highest", "normal": "best", "strong": "search"}))
    settings = _strong_settings(tmp_path, strong_bot_budget=0.1, claim_seconds=5.0, strong_bot_lag_seconds=10.0)
    with LiveServer(settings) as server:
        me = server.client("me")
        tid = me.ok("/api/tables", {"game": "shengji", "config": {"max_hands": 1}, "pace_seconds": 0.05})["id"]
        me.ok(f"/api/tables/{tid}/sit", {"seat": 0})
        me.ok(f"/api/tables/{tid}/bots", {"strength": "strong"})
        me.ok(f"/api/tables/{tid}/start")
        end = time.monotonic() + 60
        game = server.room.tables[tid].game
        while game.phase == "deal":
            assert time.monotonic() < end, "the deal did not finish"
            time.sleep(0.05)
        asked = sum(server.room.search.stats.values())
        # three seats asked at each of 51 steps would be 153; what is left is the last call (a claim window,
        # asked again after each bid)
        assert asked < 51, f"{asked} search decisions during a deal of 51 paced steps"
    # the strong seats' fast bot is the game's normal one (best), never a random stand-in
    assert not [r for r in caplog.records if "using a random bot" in r.getMessage()]


def test_strong_seats_survive_a_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _toy_with(monkeypatch, BudgetBot)
    settings = _strong_settings(tmp_path, strong_bot_budget=0.05, strong_bot_lag_seconds=10.0)
    with LiveServer(settings) as one:
        me = one.client("me")
        tid = me.ok("/api/tables", {"game": "toy"})["id"]
        me.ok(f"/api/tables/{tid}/sit", {"seat": 0})
        me.ok(f"/api/tables/{tid}/bots", {"strength": "strong"})
        sock = me.socket(tid)
        sock.recv()
        me.ok(f"/api/tables/{tid}/start")
        sock.until(lambda m: m["type"] == "snapshot" and m["view"] is not None)
        sock.act(sock.legal[0])
        sock.until(lambda m: m["type"] == "update")
        token = me.token
    with LiveServer(settings) as two:
        me2 = two.client()
        me2.token = token
        me2.http.headers["Authorization"] = f"Bearer {token}"
        info = me2.http.get(f"/api/tables/{tid}").json()
        assert [(s["bot"], s["strength"]) for s in info["seats"]] == [(None, None)] + [("strong", "strong")] * 2
        sock = me2.socket(tid)
        state = sock.recv()
        while not state["view"]["finished"]:
            if sock.legal:
                sock.act(sock.legal[0])
            state = sock.state(timeout=30)
        pool = two.room.search
        assert pool.stats[SEARCHED] + pool.stats[STARTING] >= 1  # the rebuilt strong seats still search


def test_autoplay_and_leavers_keep_the_normal_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _toy_with(monkeypatch, BudgetBot)
    with LiveServer(_strong_settings(tmp_path)) as server:
        a, b = server.client("a"), server.client("b")
        tid = a.ok("/api/tables", {"game": "toy"})["id"]
        a.ok(f"/api/tables/{tid}/sit", {"seat": 0})
        b.ok(f"/api/tables/{tid}/sit", {"seat": 1})
        a.ok(f"/api/tables/{tid}/bots", {"strength": "strong"})
        sock = a.socket(tid)
        sock.recv()
        a.ok(f"/api/tables/{tid}/start")
        sock.until(lambda m: m["type"] == "snapshot")
        sock.send({"type": "autoplay", "on": True})
        seat0 = sock.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["replaced"] == "autoplay")
        assert (seat0["table"]["seats"][0]["bot"], seat0["table"]["seats"][0]["strength"]) == ("best", "normal")
        b.ok(f"/api/tables/{tid}/leave")
        info = a.http.get(f"/api/tables/{tid}").json()
        assert [(s["bot"], s["strength"]) for s in info["seats"]] == \
            [("best", "normal"), ("best", "normal"), ("strong", "strong")]
