"""Autoplay (托管): handing a seat to the room's bot and taking it back, the timeout rule that turns it on, the
race between a person's move and the bot's for the same seat, and the ledger that books none of it as an
escape (issues 13 and 14)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiju.bots.base import Bot
from paiju.core import View

from .conftest import LiveServer, Socket, ToyGame, fast_settings, first_bot, ledger_of, register, toy_table, wait_for

NO_CLAIMS = {"hands": [["1", "1", "1", "2", "2"], ["3", "3", "3", "4", "4"], ["5", "5", "5", "6", "6"]]}
"""Five turns each and no claim ever: seat 0, 1, 2, 0, 1, 2, ..."""


def seat_of(table: dict[str, Any], n: int) -> dict[str, Any]:
    out: dict[str, Any] = table["seats"][n]
    return out


def next_table(sock: Socket) -> dict[str, Any]:
    table: dict[str, Any] = sock.until(lambda m: m["type"] == "table")["table"]
    return table


def moves_by(server: LiveServer, tid: str, seat: int) -> int:
    return sum(1 for s, _a in server.room.tables[tid].game.history if s == seat)


@pytest.fixture
def slow_bots(tmp_path: Path, toy_game: type[ToyGame]) -> Iterator[LiveServer]:
    """Bots that think for 0.4 s, so a test can act between the handing over and the bot's move."""
    with LiveServer(fast_settings(tmp_path, bot_delay_seconds=0.4), bot_factory=first_bot) as s:
        yield s


def test_autoplay_on_and_off_by_message_the_seat_shows_it_and_an_action_takes_it_back(
        slow_bots: LiveServer) -> None:
    me, other = slow_bots.client("me"), slow_bots.client("other")
    tid, (mine, theirs) = toy_table(slow_bots, [me, other], deal=NO_CLAIMS, config={"hand_size": 5})
    mine.send({"type": "autoplay", "on": True})
    seen = next_table(theirs)  # everyone at the table sees it
    assert seat_of(seen, 0)["replaced"] == "autoplay" and seat_of(seen, 0)["bot"] and seat_of(seen, 0)["connected"]
    assert seat_of(next_table(mine), 0)["replaced"] == "autoplay"
    mine.until(lambda m: m["type"] == "update" and m["seq"] == 1)  # the bot played seat 0's turn
    assert moves_by(slow_bots, tid, 0) == 1
    mine.send({"type": "autoplay", "on": False})
    assert seat_of(next_table(theirs), 0)["replaced"] is None
    wait_for(lambda: slow_bots.room.tables[tid].seq == 1)
    theirs.act("play 3")  # seat 1 (a person); seat 2's bot follows, then seat 0 waits for its person
    mine.until(lambda m: m["type"] == "update" and m["seq"] == 3)
    assert not mine.quiet(0.7)  # taken back: no bot plays seat 0 any more
    mine.send({"type": "autoplay", "on": True})
    assert seat_of(next_table(mine), 0)["replaced"] == "autoplay"
    assert seat_of(next_table(theirs), 0)["replaced"] == "autoplay"
    mine.act("play 2")  # any action the person sends takes the seat back, and applies
    assert seat_of(next_table(theirs), 0)["replaced"] is None
    update = mine.until(lambda m: m["type"] == "update" and m["seq"] == 4)
    assert update["events"] == [{"type": "play", "seat": 0, "card": "2"}]
    assert slow_bots.room.tables[tid].row.seats[0].replaced is None


def test_autoplay_is_refused_to_spectators_and_before_the_start(slow_bots: LiveServer) -> None:
    me = slow_bots.client("me")
    tid, [sock] = toy_table(slow_bots, [me], start=False)
    sock.send({"type": "autoplay", "on": True})
    assert sock.until(lambda m: m["type"] == "error")["code"] == "not_started"
    me.ok(f"/api/tables/{tid}/start")
    watcher = slow_bots.client("watcher").socket(tid)
    watcher.recv()
    watcher.send({"type": "autoplay", "on": True})
    assert watcher.until(lambda m: m["type"] == "error")["code"] == "not_seated"
    watcher.send({"type": "autoplay", "on": "yes"})
    assert watcher.until(lambda m: m["type"] == "error")["code"] == "bad_message"


def test_two_timeouts_in_a_row_turn_autoplay_on_and_it_is_no_escape(tmp_path: Path,
                                                                     toy_game: type[ToyGame]) -> None:
    settings = fast_settings(tmp_path, turn_seconds=0.3, min_turn_seconds=0.05)
    with LiveServer(settings, bot_factory=first_bot) as s:
        me = register(s, "sleeper", nickname="sleeper")
        tid, [sock] = toy_table(s, [me], deal=NO_CLAIMS, config={"hand_size": 5}, turn_seconds=0.3)
        sock.until(lambda m: m["type"] == "update" and m["seq"] == 1)  # 1st timeout: the bot's move for me
        assert s.room.tables[tid].row.seats[0].replaced is None  # once is not yet autoplay
        table = next_table(sock)  # the 2nd timeout hands the seat over
        assert seat_of(table, 0)["replaced"] == "autoplay"
        assert [s_ for s_, _a in s.room.tables[tid].game.history].count(0) >= 1
        wait_for(lambda: s.room.tables[tid].status == "finished")
        assert me.http.get(f"/api/tables/{tid}/record").json()["departures"] == []
        assert [e["reason"] for e in ledger_of(me)] == ["match"]  # booked as a finisher, never an escape


def test_an_action_resets_the_timeout_count(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    settings = fast_settings(tmp_path, turn_seconds=0.3, min_turn_seconds=0.05)
    with LiveServer(settings, bot_factory=first_bot) as s:
        me = s.client("me")
        tid, [sock] = toy_table(s, [me], deal=NO_CLAIMS, config={"hand_size": 5}, turn_seconds=0.3)
        sock.until(lambda m: m["type"] == "update" and m["seq"] == 3)  # timed out once; back to me
        sock.act("play 2")
        sock.until(lambda m: m["type"] == "update" and m["seq"] == 6)  # my next turn: let it time out once more
        sock.until(lambda m: m["type"] == "update" and m["seq"] == 7)
        assert s.room.tables[tid].row.seats[0].replaced is None  # two timeouts, but not in a row


# ---- the race -------------------------------------------------------------------------------------------------

class Gate:
    """A bot that thinks until the test opens the gate: the person's move lands while it thinks."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.asked = threading.Event()

    def factory(self, game: str, kind: str, seed: int) -> Bot:
        gate = self

        class Gated:
            needs_view = False

            def act(self, view: View, legal: Any) -> str:
                gate.asked.set()
                gate.open.wait(10)
                return str(legal[-1])

        return Gated()


def test_the_persons_move_and_the_bots_move_for_one_seat_race_and_exactly_one_applies(
        tmp_path: Path, toy_game: type[ToyGame]) -> None:
    gate = Gate()
    with LiveServer(fast_settings(tmp_path), bot_factory=gate.factory) as s:
        people = [s.client(n) for n in ("a", "b", "c")]
        tid, socks = toy_table(s, people, deal=NO_CLAIMS, config={"hand_size": 5})
        a = socks[0]
        # 1. the person's move first, while the bot thinks: the bot's choice is dropped
        a.send({"type": "autoplay", "on": True})
        assert gate.asked.wait(5)
        a.send({"type": "act", "action": "play 1", "seq": 0})
        first = a.until(lambda m: m["type"] == "update")
        assert first["seq"] == 1 and first["events"] == [{"type": "play", "seat": 0, "card": "1"}]
        gate.open.set()
        assert not [m for m in a.quiet(0.5) if m["type"] == "update"]  # the bot's "play 2" never came
        assert moves_by(s, tid, 0) == 1
        assert s.room.tables[tid].row.seats[0].replaced is None
        # 2. the bot's move first: the person's move, chosen on the state before it, is refused
        socks[1].until(lambda m: m["type"] == "update" and m["seq"] == 1)
        socks[1].act("play 3")
        socks[2].until(lambda m: m["type"] == "update" and m["seq"] == 2)
        socks[2].act("play 5")
        a.until(lambda m: m["type"] == "update" and m["seq"] == 3)
        a.send({"type": "autoplay", "on": True})
        a.until(lambda m: m["type"] == "update" and m["seq"] == 4)  # the gate is open: the bot moved at once
        a.send({"type": "act", "action": "play 1", "seq": 3})
        refused = a.until(lambda m: m["type"] == "error")
        assert refused["code"] == "stale" and refused["seq"] == 4
        assert moves_by(s, tid, 0) == 2 and s.room.tables[tid].seq == 4
        # the act still took the seat back: the person is here
        assert s.room.tables[tid].row.seats[0].replaced is None


def test_the_persons_move_and_the_clocks_move_for_one_seat_race_and_exactly_one_applies(
        tmp_path: Path, toy_game: type[ToyGame]) -> None:
    """The window runs out on a compulsory move, so the room asks the seat's bot; the person's move lands while
    it thinks.  Then the other way round: the clock's move first, the person's (chosen before it) refused."""
    gate = Gate()
    settings = fast_settings(tmp_path, turn_seconds=0.3, min_turn_seconds=0.05, autoplay_after_timeouts=0)
    with LiveServer(settings, bot_factory=gate.factory) as s:
        people = [s.client(n) for n in ("a", "b", "c")]
        tid, socks = toy_table(s, people, deal=NO_CLAIMS, config={"hand_size": 5}, turn_seconds=0.3)
        a = socks[0]
        assert gate.asked.wait(5)  # seat 0's window ran out: its bot is choosing
        a.send({"type": "act", "action": "play 1", "seq": 0})
        assert a.until(lambda m: m["type"] == "update")["events"] == [{"type": "play", "seat": 0, "card": "1"}]
        gate.open.set()
        table = s.room.tables[tid]
        wait_for(lambda: table.seq >= 3)
        assert [seat for seat, _a in table.game.history[:3]] == [0, 1, 2]  # the bot's "play 2" was dropped
        # the other way round: seats 1 and 2 let their windows run out too; then seat 0's does, and the clock's
        # move (the bot's choice, at once now) comes before the person's, chosen on state 3
        wait_for(lambda: moves_by(s, tid, 0) == 2, timeout=10)
        assert table.game.history[3] == (0, "play 2")
        a.send({"type": "act", "action": "play 1", "seq": 3})
        refused = a.until(lambda m: m["type"] == "error")
        assert refused["code"] == "stale"
        assert [act for seat, act in table.game.history if seat == 0].count("play 1") == 1  # not applied
