"""Deadlines, defaults on expiry, leavers and the disconnected replaced by bots, bots at the table."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiju.server import storage

from .conftest import LiveServer, ToyGame, fast_settings, first_bot, toy_table

DEAL = {"hands": [["1", "2", "3"], ["1", "4", "5"], ["6", "7", "8"]]}


def record_of(server: LiveServer, tid: str) -> list[list[Any]]:
    return [list(a) for a in server.room.tables[tid].game.history]


@pytest.fixture
def timed(tmp_path: Path, toy_game: type[ToyGame]) -> Iterator[LiveServer]:
    settings = fast_settings(tmp_path, grace_seconds=0.3, min_turn_seconds=0.05)  # sub-second clocks
    with LiveServer(settings, bot_factory=first_bot) as s:
        yield s


def test_a_claim_window_expires_into_a_pass(timed: LiveServer) -> None:
    players = [timed.client(n) for n in "abc"]
    tid, socks = toy_table(timed, players, deal=DEAL, claim_seconds=0.3)
    assert socks[0].last_state is not None and socks[0].last_state["deadline"] is None  # turns are untimed
    socks[0].act("play 1")
    ups = [s.until(lambda m: m["type"] == "update") for s in socks]
    sent = time.time()
    deadline = ups[1]["deadline"]
    assert deadline is not None and sent - 1 < deadline <= sent + 0.31
    assert ups[0]["deadline"] is None and ups[2]["deadline"] is None
    assert all(u["deadlines"] == {} for u in ups)  # nobody learns who may claim
    expired = [s.until(lambda m: m["type"] == "update", timeout=5) for s in socks]
    assert expired[0]["seq"] == 2 and expired[0]["events"] == []
    assert record_of(timed, tid)[-1] == [1, "pass"]
    assert [a["action"] for a in expired[1]["legal"]] == ["play 1", "play 4", "play 5"]  # the turn moved on


def test_an_expired_turn_takes_the_bots_choice(timed: LiveServer) -> None:
    players = [timed.client(n) for n in "abc"]
    tid, socks = toy_table(timed, players, deal=DEAL, turn_seconds=0.3)
    snap = socks[0].last_state
    assert snap is not None and snap["deadline"] is not None
    assert snap["deadlines"] == {"0": snap["deadline"]}  # a turn's clock is public
    assert socks[1].last_state is not None and socks[1].last_state["deadlines"] == {"0": snap["deadline"]}
    up = socks[0].until(lambda m: m["type"] == "update", timeout=5)
    assert up["events"] == [{"type": "play", "seat": 0, "card": "1"}]  # the stand-in bot's choice
    assert record_of(timed, tid) == [[0, "play 1"]]


def test_a_leaver_is_replaced_by_a_bot_and_the_departure_is_kept(timed: LiveServer) -> None:
    players = [timed.client(n) for n in "abc"]
    tid, socks = toy_table(timed, players, deal=DEAL)
    socks[0].act("play 2")
    for s in socks:
        s.until(lambda m: m["type"] == "update")
    players[1].ok(f"/api/tables/{tid}/leave")
    table_msg = socks[2].until(lambda m: m["type"] == "table")
    assert table_msg["table"]["seats"][1]["bot"] == "best"
    assert table_msg["table"]["seats"][1]["replaced"] == "left"
    # the leaver now watches: no hand, no actions; and the bot plays seat 1's turn straight away
    as_spectator = socks[1].until(lambda m: m["type"] == "snapshot")
    assert as_spectator["seat"] is None and as_spectator["view"]["hand"] is None
    up, _ = (s.until(lambda m: m["type"] == "update") for s in (socks[0], socks[2]))
    assert up["events"] == [{"type": "play", "seat": 1, "card": "1"}]
    socks[1].act("play 4")
    assert socks[1].until(lambda m: m["type"] == "error")["code"] == "not_seated"
    while not up["view"]["finished"]:  # seat 0 holds the other 1: it may take; then play on
        mover = socks[0] if socks[0].legal else socks[2]
        if mover.legal:  # else the bot in seat 1 is deciding
            mover.act(mover.legal[0])
        up, _ = (s.until(lambda m: m["type"] == "update") for s in (socks[0], socks[2]))
    out = players[0].http.get(f"/api/tables/{tid}/record").json()
    assert [(d["seat"], d["player_id"], d["reason"], d["move"]) for d in out["departures"]] == \
        [(1, players[1].id, "left", 1)]


def test_a_player_gone_past_the_grace_period_is_replaced_and_can_come_back(timed: LiveServer) -> None:
    players = [timed.client(n) for n in "abc"]
    tid, socks = toy_table(timed, players, deal=DEAL)
    socks[0].act("play 2")
    for s in socks:
        s.until(lambda m: m["type"] == "update")
    socks[1].close()
    gone = socks[0].until(lambda m: m["type"] == "table" and not m["table"]["seats"][1]["connected"])
    assert gone["table"]["seats"][1]["bot"] is None
    replaced = socks[0].until(lambda m: m["type"] == "table" and m["table"]["seats"][1]["bot"] is not None,
                              timeout=5)
    assert replaced["table"]["seats"][1]["replaced"] == "disconnected"
    up = socks[0].until(lambda m: m["type"] == "update")  # the bot played seat 1's turn
    assert up["events"][0]["seat"] == 1
    back = players[1].socket(tid)
    snap = back.recv()
    assert snap["seat"] == 1 and snap["view"]["hand"] is not None
    mine = socks[0].until(lambda m: m["type"] == "table" and m["table"]["seats"][1]["bot"] is None)
    assert mine["table"]["seats"][1]["connected"]
    departures = timed.room.db.run_now(lambda c: storage.load_departures(c, tid))
    assert [(d["seat"], d["reason"]) for d in departures] == [(1, "disconnected")]


def test_a_person_finishes_a_match_against_bots(timed: LiveServer) -> None:
    me = timed.client("me")
    tid, [sock] = toy_table(timed, [me])
    table = timed.room.tables[tid]
    state: dict[str, Any] = sock.last_state or {}
    while not (state.get("view") or {}).get("finished"):
        if sock.legal:
            sock.act(sock.legal[0])
        state = sock.state()
    assert table.status == "finished" and len(table.game.history) == state["seq"]
    assert [m["seq"] for m in sock.received if m["type"] == "update"] == list(range(1, state["seq"] + 1))


def test_a_thinking_bot_does_not_hold_up_the_server(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    """The bot blocks until the test has had a pong: were bots run on the event loop, this would deadlock."""
    release = threading.Event()
    asked = threading.Event()

    class Slow:
        needs_view = True

        def act(self, view: dict[str, Any], legal: Any) -> str:
            assert view["hand"] is not None  # it sees its own seat's view
            asked.set()
            assert release.wait(10), "the server never answered the ping while the bot was thinking"
            return str(legal[0])

    with LiveServer(fast_settings(tmp_path), bot_factory=lambda game, kind, seed: Slow()) as s:
        me = s.client("me")
        tid, [sock] = toy_table(s, [me], deal=DEAL)
        sock.act("play 2")  # seat 1, a bot, must now play
        sock.until(lambda m: m["type"] == "update")
        assert asked.wait(10)
        sock.send({"type": "ping"})
        sock.until(lambda m: m["type"] == "pong")
        info = me.http.get(f"/api/tables/{tid}").json()  # HTTP is served too
        assert info["seq"] == 1
        release.set()
        up = sock.until(lambda m: m["type"] == "update")
        assert up["events"][0]["seat"] == 1


def test_a_bot_whose_thinking_was_overtaken_thinks_again(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    """Two bots may claim at once; one passes while the other is still thinking.  The slow bot's answer was for
    a state that is gone, so it must be asked again — or the table would wait for it forever."""
    release = threading.Event()
    calls: list[int] = []

    class Claimer:
        needs_view = True

        def act(self, view: dict[str, Any], legal: Any) -> str:
            if "take" not in legal:
                return str(legal[0])
            if "9" in view["hand"]:  # seat 2: passes at once
                return "pass"
            calls.append(len(calls))
            release.wait(10)
            return "take"

    deal = {"hands": [["1", "2", "3"], ["1", "4", "5"], ["1", "6", "9"]]}
    with LiveServer(fast_settings(tmp_path), bot_factory=lambda game, kind, seed: Claimer()) as s:
        me = s.client("me")
        _tid, [sock] = toy_table(s, [me], deal=deal)
        sock.act("play 1")
        assert sock.until(lambda m: m["type"] == "update")["seq"] == 1
        assert sock.until(lambda m: m["type"] == "update")["seq"] == 2  # seat 2 passed; seat 1 still thinking
        release.set()
        up = sock.until(lambda m: m["type"] == "update")
        assert up["seq"] == 3 and up["events"] == [{"type": "take", "seat": 1, "card": "1"}]
        assert len(calls) == 2  # asked again after seat 2's pass
