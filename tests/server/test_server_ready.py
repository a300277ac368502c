"""准备 (ready) and the creator's kick before a match's first hand (issue 38), through HTTP and websockets.

Tried as the people at a table would: a match that starts before everyone is ready, a creator who kicks a
friend who has just sat down or has pressed ready, a kicked person who sits straight back down, a kick once the
match is under way.  Each must be refused; the one allowed kick frees the seat and keeps them away 10 minutes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import FakeClock, LiveServer, Player, ToyGame, fast_settings, first_bot


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def readied(tmp_path: Path, toy_game: type[ToyGame], clock: FakeClock) -> Any:
    """A room whose person-made tables wait 60 s for ready, on a clock the test moves."""
    with LiveServer(fast_settings(tmp_path, ready_seconds=60, clock=clock), bot_factory=first_bot) as s:
        yield s


def code_of(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def table_of(p: Player, tid: str) -> dict[str, Any]:
    out: dict[str, Any] = p.http.get(f"/api/tables/{tid}").json()
    return out


def test_the_match_starts_when_everyone_seated_is_ready(readied: LiveServer) -> None:
    a, b, c = readied.client("a"), readied.client("b"), readied.client("c")
    tid = a.ok("/api/tables", {"game": "toy"})["id"]
    b.ok(f"/api/tables/{tid}/sit", {"seat": 1})
    c.ok(f"/api/tables/{tid}/sit", {"seat": 2})
    sock = b.socket(tid)
    sock.recv()
    info = table_of(a, tid)
    assert info["ready"]["seconds"] == 60 and info["ready"]["seats"] == []
    assert code_of(a.post(f"/api/tables/{tid}/start")) == (409, "not_ready")  # b and c have not pressed
    b.ok(f"/api/tables/{tid}/ready", {"ready": True})
    sock.until(lambda m: m["type"] == "table" and m["table"]["ready"]["seats"] == [1])  # everyone is told
    assert code_of(a.post(f"/api/tables/{tid}/start")) == (409, "not_ready")  # c still has not
    b.ok(f"/api/tables/{tid}/ready", {"ready": False})  # taken back
    assert table_of(a, tid)["ready"]["seats"] == []
    for p in (a, b, c):
        p.ok(f"/api/tables/{tid}/ready", {})
    assert sock.until(lambda m: m["type"] == "snapshot")["view"] is not None  # the last ready started it
    info = table_of(a, tid)
    assert (info["status"], info["ready"]) == ("playing", None)
    assert code_of(a.post(f"/api/tables/{tid}/ready", {})) == (409, "started")


def test_the_starter_is_ready_by_starting_and_a_person_alone_with_bots_starts_at_once(readied: LiveServer) -> None:
    a, b = readied.client("a"), readied.client("b")
    tid = a.ok("/api/tables", {"game": "toy"})["id"]
    a.ok(f"/api/tables/{tid}/bots")
    assert a.ok(f"/api/tables/{tid}/start")["status"] == "playing"
    tid = a.ok("/api/tables", {"game": "toy"})["id"]
    b.ok(f"/api/tables/{tid}/sit", {"seat": 1})
    a.ok(f"/api/tables/{tid}/bots")
    b.ok(f"/api/tables/{tid}/ready", {})
    assert a.ok(f"/api/tables/{tid}/start")["status"] == "playing"  # everyone but the starter was ready


def test_a_table_may_choose_no_ready_and_bad_values_are_refused(readied: LiveServer) -> None:
    a, b = readied.client("a"), readied.client("b")
    tid = a.ok("/api/tables", {"game": "toy", "ready_seconds": 0})["id"]
    assert table_of(a, tid)["ready"] is None
    b.ok(f"/api/tables/{tid}/sit", {"seat": 1})
    a.ok(f"/api/tables/{tid}/bots")
    assert a.ok(f"/api/tables/{tid}/start")["status"] == "playing"  # as before: the creator says
    for bad in (5, 601, "60", True):
        assert code_of(a.post("/api/tables", {"game": "toy", "ready_seconds": bad})) == (422, "bad_option"), bad
    assert table_of(a, a.ok("/api/tables", {"game": "toy", "ready_seconds": 30})["id"])["ready"]["seconds"] == 30


def test_the_creator_kicks_only_someone_unready_past_the_ready_time(readied: LiveServer, clock: FakeClock) -> None:
    a, b, c = readied.client("a"), readied.client("b"), readied.client("c")
    tid = a.ok("/api/tables", {"game": "toy"})["id"]
    b.ok(f"/api/tables/{tid}/sit", {"seat": 1})
    c.ok(f"/api/tables/{tid}/sit", {"seat": 2})
    c.ok(f"/api/tables/{tid}/ready", {})
    clock.advance(30)
    assert code_of(a.post(f"/api/tables/{tid}/kick", {"seat": 1})) == (409, "too_soon")
    clock.advance(31)
    assert code_of(b.post(f"/api/tables/{tid}/kick", {"seat": 2})) == (403, "not_allowed")  # only the creator
    assert code_of(a.post(f"/api/tables/{tid}/kick", {"seat": 2})) == (409, "is_ready")
    assert code_of(a.post(f"/api/tables/{tid}/kick", {"seat": 0})) == (422, "bad_seat")  # not oneself
    sock = b.socket(tid)
    sock.recv()
    info = a.ok(f"/api/tables/{tid}/kick", {"seat": 1})
    assert info["seats"][1]["player"] is None
    assert sock.until(lambda m: m["type"] == "snapshot")["seat"] is None  # b watches now
    assert code_of(b.post(f"/api/tables/{tid}/sit", {"seat": 1})) == (403, "kicked")
    clock.advance(599)
    assert code_of(b.post(f"/api/tables/{tid}/sit", {"seat": 1})) == (403, "kicked")
    other = a.ok("/api/tables", {"game": "toy"})["id"]
    b.ok(f"/api/tables/{other}/sit", {"seat": 1})  # kicked from that table, not from the room
    clock.advance(2)
    b.ok(f"/api/tables/{tid}/sit", {"seat": 1})  # ten minutes on, welcome back
    assert table_of(a, tid)["ready"]["sat_at"]["1"] == clock.now  # a new ready clock


def test_no_kick_once_the_match_has_started_and_moving_seats_loses_ready(readied: LiveServer,
                                                                        clock: FakeClock) -> None:
    a, b = readied.client("a"), readied.client("b")
    tid = a.ok("/api/tables", {"game": "toy"})["id"]
    b.ok(f"/api/tables/{tid}/sit", {"seat": 1})
    b.ok(f"/api/tables/{tid}/ready", {})
    b.ok(f"/api/tables/{tid}/sit", {"seat": 2})  # moved: ready again, please
    assert table_of(a, tid)["ready"]["seats"] == []
    b.ok(f"/api/tables/{tid}/ready", {})
    a.ok(f"/api/tables/{tid}/bots")
    a.ok(f"/api/tables/{tid}/start")
    clock.advance(120)
    assert code_of(a.post(f"/api/tables/{tid}/kick", {"seat": 2})) == (409, "started")


def test_a_quick_table_does_not_wait_for_ready(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    settings = fast_settings(tmp_path, ready_seconds=60, quick_match_seconds=0.2)
    with LiveServer(settings, bot_factory=first_bot) as s:
        a = s.client("a")
        tid = a.ok("/api/quick", {"game": "toy"})["id"]
        sock = a.socket(tid)
        state = sock.until(lambda m: m["type"] == "snapshot" and m["view"] is not None, 10)
        assert state["view"] is not None and table_of(a, tid)["ready"] is None
