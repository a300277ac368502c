"""The database is the truth: a restarted server (new app, same database) resumes every unfinished table
exactly where it was, deadlines included.  Runs on SQLite, and on PostgreSQL when PAIJU_TEST_POSTGRES_URL
is set (CI sets it)."""

from __future__ import annotations

import time
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from paiju.server import Settings, storage

from .conftest import LiveServer, ToyGame, fast_settings, first_bot, toy_table


def test_a_restarted_server_resumes_the_table_where_it_was(settings: Settings) -> None:
    deal = {"hands": [["1", "2", "3"], ["1", "4", "5"], ["2", "6", "7"]]}
    with LiveServer(settings.with_(turn_seconds=60), bot_factory=first_bot) as one:
        players = [one.client(n) for n in ("甲", "乙")]
        tid, socks = toy_table(one, players, deal=deal)  # seat 2 is a bot
        tokens = [p.token for p in players]
        socks[0].act("play 3")
        before = [s.until(lambda m: m["type"] == "update") for s in socks]
        assert before[1]["deadline"] is not None and before[1]["seq"] == 1
        record = one.room.tables[tid].game.record()
        unfinished = players[0].ok("/api/tables", {"game": "toy"})["id"]  # a waiting table survives too

    with LiveServer(settings.with_(turn_seconds=60), bot_factory=first_bot) as two:
        table = two.room.tables[tid]
        assert table.game.record() == record and table.status == "playing"
        assert two.room.tables[unfinished].status == "waiting"
        players = [two.client() for _ in tokens]
        for p, token in zip(players, tokens, strict=True):  # same key: the old sessions still work
            p.token = token
            p.http.headers["Authorization"] = f"Bearer {token}"
        socks = [p.socket(tid) for p in players]
        after = [s.recv() for s in socks]
        for b, a in zip(before, after, strict=True):
            assert a["type"] == "snapshot" and a["seq"] == b["seq"]
            assert a["view"] == b["view"] and a["legal"] == b["legal"]
            assert a["deadline"] == b["deadline"]  # the same absolute time, not a fresh window
        # resuming across the restart gets a snapshot (the update buffer is not kept)
        socks[1].send({"type": "resume", "since": 0})
        assert socks[1].until(lambda m: m["type"] in ("update", "snapshot"))["type"] == "snapshot"
        socks[1].act("play 1")
        up = socks[0].until(lambda m: m["type"] == "update")
        assert up["seq"] == 2 and up["events"] == [{"type": "play", "seat": 1, "card": "1"}]


def test_a_deadline_that_passed_while_the_server_was_down_is_taken_on_restart(settings: Settings) -> None:
    deal = {"hands": [["1", "2", "3"], ["1", "4", "5"], ["6", "7", "8"]]}
    with LiveServer(settings, bot_factory=first_bot) as one:
        players = [one.client(n) for n in "abc"]
        tid, socks = toy_table(one, players, deal=deal, claim_seconds=1.0)
        socks[0].act("play 1")  # seat 1 may take: a one-second claim window; the server stops inside it
        deadline = socks[1].until(lambda m: m["type"] == "update")["deadline"]
        assert deadline is not None
    time.sleep(max(0.0, deadline - time.time()) + 0.1)
    with LiveServer(settings, bot_factory=first_bot) as two:
        end = time.monotonic() + 5
        while time.monotonic() < end:
            row = two.room.db.run_now(lambda c: storage.load_tables(c, table_id=tid))[0]
            if len(row.actions) == 2:
                break
            time.sleep(0.02)
        assert [(s, a) for s, a, _at in row.actions] == [(0, "play 1"), (1, "pass")]
        assert row.actions[1][2] >= deadline


def test_a_restart_hands_bot_seats_back_to_their_bots(settings: Settings) -> None:
    with LiveServer(settings, bot_factory=first_bot) as one:
        me = one.client("me")
        tid, [sock] = toy_table(one, [me], deal={"hands": [["1", "2"], ["3", "4"], ["5", "6"]]},
                                config={"hand_size": 2})
        sock.act("play 1")
        sock.until(lambda m: m["type"] == "update" and m["seq"] == 3)  # both bots have played
    with LiveServer(settings, bot_factory=first_bot) as two:
        me2 = two.client()
        me2.token = me.token
        sock = me2.socket(tid)
        assert sock.recv()["seq"] == 3
        sock.act("play 2")
        last = sock.until(lambda m: m["type"] == "update" and m["view"]["finished"])
        assert last["seq"] == 6


def test_the_migrations_build_exactly_the_schema_the_code_uses(settings: Settings) -> None:
    engine = storage.make_engine(settings.db_url, settings.data_dir)
    try:
        storage.migrate(engine)
        storage.migrate(engine)  # idempotent
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), storage.metadata)
        assert diff == []
    finally:
        engine.dispose()


def test_a_move_that_cannot_be_stored_is_undone(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    """The database is the truth: if a move's write fails, the table is rebuilt from what was stored."""
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        players = [s.client(n) for n in "abc"]
        tid, socks = toy_table(s, players, deal={"hands": [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]]})
        db = s.room.db
        real_insert = db.insert

        async def broken(table: object, row: object) -> None:
            raise OSError("disk full")

        db.insert = broken
        socks[0].act("play 1")
        err = socks[0].until(lambda m: m["type"] == "error")
        assert err["code"] == "server_error"
        snap = socks[1].until(lambda m: m["type"] == "snapshot")  # everyone resynchronises
        assert snap["seq"] == 0 and snap["view"]["pile"] == []
        assert s.room.tables[tid].game.history == []
        db.insert = real_insert
        socks[0].act("play 1")
        assert socks[1].until(lambda m: m["type"] == "update")["seq"] == 1
