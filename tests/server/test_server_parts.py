"""The card room's parts on their own: seats, bots' bookkeeping, the store's intents and their hooks, and the
table's lock rule (every public coroutine takes the lock itself).

The table tests run a real Room on a real SQLite file in this test's event loop, with connections that only
queue what they are sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Literal, cast

import pytest
import pytest_asyncio
from sqlalchemy import Connection, func, select
from starlette.websockets import WebSocket

from paiju.server import storage as st
from paiju.server.errors import ErrorCode, RoomError
from paiju.server.room.bots import BotFactory, TableBots, default_bot_factory
from paiju.server.room.broadcast import Broadcaster
from paiju.server.room.conn import Conn
from paiju.server.room.room import Room
from paiju.server.room.seats import DISCONNECTED, LEFT, Seats
from paiju.server.room.store import Departure, MatchEnd
from paiju.server.room.table import CardTable
from paiju.server.storage import Player, SeatRow
from paiju.server.writer import Database

from .conftest import ToyGame, fast_settings, first_bot

A, B, C = Player("a", "阿甲"), Player("b", "阿乙"), Player("c", "阿丙")


class Recorder(Conn):
    """A connection with no socket behind it that keeps what it is sent."""

    def __init__(self, player: Player | None) -> None:
        super().__init__(cast(WebSocket, None), player, 1000)
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)


def conn_of(player: Player | None) -> Recorder:
    return Recorder(player)


def sent(conn: Recorder) -> list[dict[str, Any]]:
    out = [json.loads(text) for text in conn.texts]
    conn.texts.clear()
    return out


# ---- seats ------------------------------------------------------------------------------------------------

def three_seats() -> Seats:
    return Seats([SeatRow(i) for i in range(3)])


def test_sitting_moves_a_player_and_refuses_taken_or_missing_seats() -> None:
    seats = three_seats()
    assert [s.seat for s in seats.sit(A, 0)] == [0]
    assert seats.sit(A, 0) == []  # already there: nothing changes
    assert [(s.seat, s.player_id) for s in seats.sit(A, 2)] == [(0, None), (2, "a")]
    assert seats.seat_of(A) == 2 and seats.empty() == [0, 1]
    with pytest.raises(RoomError) as taken:
        seats.sit(B, 2)
    assert taken.value.code == ErrorCode.SEAT_TAKEN and taken.value.status == 409
    with pytest.raises(RoomError) as missing:
        seats.sit(B, 3)
    assert missing.value.code == ErrorCode.BAD_SEAT and "0 to 2" in missing.value.message


def test_bots_fill_empty_seats_only_and_come_out_again() -> None:
    seats = three_seats()
    seats.sit(A, 1)
    assert [s.seat for s in seats.fill_bots("best")] == [0, 2]
    assert seats.empty() == [] and [s.seat for s in seats.people()] == [1]
    assert seats.remove_bot(0).bot is None
    with pytest.raises(RoomError) as e:
        seats.remove_bot(1)  # a person, not a bot
    assert e.value.code == ErrorCode.BAD_SEAT


def test_a_seat_comes_back_only_after_a_disconnection() -> None:
    seats = three_seats()
    seats.sit(A, 0)
    seats.sit(B, 1)
    seats.replace(0, "best", DISCONNECTED)
    seats.replace(1, "best", LEFT)
    assert seats.seat_of(A) == 0 and seats.seat_of(B) is None  # a leaver holds no seat any more
    assert seats.give_back(1) is None and seats.is_bot(1)
    back = seats.give_back(0)
    assert back is not None and (back.bot, back.replaced) == (None, None)
    assert seats.give_back(0) is None


def test_a_bots_choice_depends_on_the_state_not_on_how_often_or_when_it_was_asked() -> None:
    """A re-ask for one state (the table moved while the bot thought, then came back) and a table rebuilt
    after a restart give the same choice: each decision is seeded by (table, seat, move)."""
    legal = [f"a{i}" for i in range(50)]

    async def choices(bots: TableBots, moves: range) -> list[str | None]:
        bot = bots.bot(1, "random")
        return [await bots.choose(bot, 1, m, {}, legal) for m in moves]

    async def run() -> None:
        played = TableBots(default_bot_factory, "t1", "huashui", 77)
        first = await choices(played, range(10))
        again = await choices(played, range(5, 10))  # asked again for moves it already answered
        rebuilt = await choices(TableBots(default_bot_factory, "t1", "huashui", 77), range(5, 10))
        assert again == first[5:] == rebuilt
        assert len(set(first)) > 3  # a seed per move, not one seed for every move
        other = await choices(TableBots(default_bot_factory, "t2", "huashui", 78), range(10))
        assert other != first  # and per table

    asyncio.run(run())


# ---- the broadcaster ----------------------------------------------------------------------------------------

def test_each_viewer_is_rendered_once_and_its_connections_get_the_same_text() -> None:
    out = Broadcaster()
    two_tabs, other, watchers = [Recorder(A), Recorder(A)], Recorder(B), [Recorder(None), Recorder(None)]
    for c in [*two_tabs, other, *watchers]:
        out.add(c)
    seat = {"a": 0, "b": 1}
    rendered: list[int] = []

    def render(viewer: int) -> str:
        rendered.append(viewer)
        return f"view of {viewer}"

    out.to_viewers(lambda c: seat[c.player.id] if c.player else -1, render)
    assert sorted(rendered) == [-1, 0, 1]
    assert [c.texts for c in two_tabs] == [["view of 0"]] * 2 and other.texts == ["view of 1"]
    assert [c.texts for c in watchers] == [["view of -1"]] * 2
    assert out.connected("a") and not out.connected("c") and not out.connected(None)
    out.to_player("a", lambda c: "yours")
    assert [c.texts[-1] for c in two_tabs] == ["yours", "yours"] and other.texts == ["view of 1"]


# ---- a live room in this event loop -------------------------------------------------------------------------

@pytest_asyncio.fixture
async def room(tmp_path: Path, toy_game: type[ToyGame]) -> AsyncIterator[Room]:
    settings = fast_settings(tmp_path)
    engine = st.make_engine(settings.db_url, settings.data_dir)
    st.migrate(engine)
    db = Database(engine)
    db.start()
    r = Room(settings, db, cast(BotFactory, first_bot))
    try:
        yield r
    finally:
        r.close()
        db.stop()
        engine.dispose()


async def people(room: Room) -> list[Player]:
    return [await room.new_player(n) for n in ("阿甲", "阿乙", "阿丙")]


async def started(room: Room, deal: Any = None) -> tuple[CardTable, list[Recorder]]:
    """A toy table with three people seated, each with a connection, started."""
    players = await people(room)
    table = await room.create_table(players[0], "toy", {}, seed=1, deal=deal)
    conns = []
    for i, p in enumerate(players):
        await table.sit(p, i)
        conns.append(conn_of(p))
        await table.attach(conns[-1])
    await table.start(players[0])
    return table, conns


async def play_out(table: CardTable, conns: list[Recorder]) -> None:
    while not table.game.finished:
        seat = table.game.to_move()[0]
        await table.act(conns[seat], table.game.legal_actions(seat)[0])


@pytest.mark.asyncio
async def test_a_finish_hook_books_inside_the_transaction_of_the_last_move(room: Room) -> None:
    seen: list[tuple[int, str, Any]] = []

    def book(c: Connection, end: MatchEnd) -> None:  # what a ledger would do: read and write in the same commit
        n = c.execute(select(func.count()).select_from(st.actions).where(st.actions.c.table_id == end.table.id))
        status = c.execute(select(st.card_tables.c.status).where(st.card_tables.c.id == end.table.id)).scalar()
        seen.append((int(n.scalar() or 0), str(status), [s.player_id for s in end.seats]))

    room.hooks.finished.append(book)
    table, conns = await started(room)
    await play_out(table, conns)
    assert seen == [(table.seq, "finished", [c.player.id for c in conns if c.player is not None])]


@pytest.mark.asyncio
async def test_a_failing_finish_hook_undoes_the_last_move(room: Room) -> None:
    """One transaction: if the booking fails, the match's end is not stored either, and the table is rebuilt."""

    def broken(c: Connection, end: MatchEnd) -> None:
        raise RuntimeError("the ledger is down")

    table, conns = await started(room, deal={"hands": [["1"], ["2"], ["3"]]})
    room.hooks.finished.append(broken)
    await table.act(conns[0], "play 1")
    await table.act(conns[1], "play 2")
    with pytest.raises(RoomError) as e:
        await table.act(conns[2], "play 3")
    assert e.value.code == ErrorCode.SERVER_ERROR
    assert table.seq == 2 and table.status == "playing" and not table.game.finished
    stored = await room.store.table(table.id)
    assert stored is not None and stored.status == "playing" and len(stored.actions) == 2
    room.hooks.finished.clear()
    await table.act(conns[2], "play 3")
    assert table.status == "finished"


@pytest.mark.asyncio
async def test_a_departure_hook_sees_the_departure_it_books_with(room: Room) -> None:
    seen: list[tuple[Departure, int]] = []

    def escape(c: Connection, gone: Departure) -> None:
        rows = c.execute(select(func.count()).select_from(st.departures)
                         .where(st.departures.c.table_id == gone.table.id)).scalar()
        seen.append((gone, int(rows or 0)))

    room.hooks.departed.append(escape)
    table, conns = await started(room)
    leaver = conns[1].player
    assert leaver is not None
    await table.leave(leaver)
    [(gone, rows)] = seen
    assert (gone.seat, gone.player_id, gone.reason, gone.move, rows) == (1, leaver.id, LEFT, 0, 1)
    assert table.seats[1].bot is not None


def public_coroutines() -> set[str]:
    return {name for name, fn in inspect.getmembers(CardTable, inspect.iscoroutinefunction)
            if not name.startswith("_")}


class CountingLock(asyncio.Lock):
    def __init__(self) -> None:
        super().__init__()
        self.taken = 0

    async def acquire(self) -> Literal[True]:
        self.taken += 1
        return await super().acquire()


@pytest.mark.asyncio
async def test_every_public_coroutine_of_a_table_takes_the_lock_itself(room: Room) -> None:
    [a, *_] = await people(room)
    table = await room.create_table(a, "toy", {}, seed=1)
    watcher = conn_of(None)
    calls: dict[str, Callable[[], Awaitable[object]]] = {
        "attach": lambda: table.attach(watcher),
        "sit": lambda: table.sit(a, 0),
        "leave": lambda: table.leave(a),
        "fill_bots": lambda: table.fill_bots(a),
        "remove_bot": lambda: table.remove_bot(a, 2),
        "start": lambda: table.start(a),
        "rearm": lambda: table.rearm(),
        "resume": lambda: table.resume(watcher, 0),
        "act": lambda: table.act(watcher, "play 1"),
        "set_autoplay": lambda: table.set_autoplay(watcher, True),
        "ready": lambda: table.ready(watcher),
        "detach": lambda: table.detach(watcher),
        "kick": lambda: table.kick(0),
        "rename": lambda: table.rename(a.id, "A2"),
        "close_by_host": lambda: table.close_by_host({"by": "test"}),
        "set_rated": lambda: table.set_rated(a, False),
        "press_ready": lambda: table.press_ready(a, True),
        "kick_unready": lambda: table.kick_unready(a, 1),
    }
    assert public_coroutines() == set(calls), "a new public coroutine: add it here"
    table.lock = lock = CountingLock()
    for name, call in calls.items():
        before = lock.taken
        with contextlib.suppress(RoomError):  # refused (a spectator acting): it still had to look under the lock
            await call()
        assert lock.taken == before + 1, f"{name} did not take the table's lock"
        assert not lock.locked()


@pytest.mark.asyncio
async def test_resume_waits_for_a_move_in_progress(room: Room) -> None:
    table, conns = await started(room)
    sent(conns[0])
    async with table.lock:  # a move is being applied and stored
        resume = asyncio.ensure_future(table.resume(conns[0], 0))
        for _ in range(5):
            await asyncio.sleep(0)
        assert not resume.done() and sent(conns[0]) == []
    await resume
    [msg] = sent(conns[0])
    assert msg["type"] == "update" and msg["seq"] == 0 and msg["events"] == []


def test_the_app_never_reaches_into_a_tables_lock() -> None:
    import paiju.server.http as http

    modules = sorted(Path(http.__file__).parent.glob("*.py"))
    assert len(modules) >= 8  # the app, the socket and the route modules
    for module in modules:
        assert ".lock" not in module.read_text(encoding="utf-8"), module.name
