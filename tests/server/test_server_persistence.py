"""The database is the truth: a restarted server (new app, same database) resumes every unfinished table
exactly where it was, deadlines included.  Runs on SQLite, and on PostgreSQL when PAIJU_TEST_POSTGRES_URL
is set (CI sets it)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from typer.testing import CliRunner

from paiju.bots import Bot
from paiju.cli.main import app as main_app
from paiju.core.game import View
from paiju.server import Settings, storage

from .conftest import LiveServer, ToyGame, fast_settings, first_bot, register, toy_table


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


def test_a_table_keeps_the_rule_options_it_was_created_with(settings: Settings) -> None:
    """Every option is stored with the table, defaults included: a default changed later (issue 33: 偎麻雀's
    ``bapengtou_zhuo`` went from "stack" to "replace") changes new tables only, and one created under the old
    default plays on, after a restart too, with the option it was made with."""
    from paiju.games.weimaque.config import WeimaqueConfig

    with LiveServer(settings, bot_factory=first_bot) as one:
        a = one.client("甲")
        new = a.ok("/api/tables", {"game": "weimaque"})
        assert new["config"] == WeimaqueConfig().to_dict(), "the defaults are stored, each by name"
        old = a.ok("/api/tables", {"game": "weimaque", "config": {"bapengtou_zhuo": "stack"}})["id"]
    with LiveServer(settings, bot_factory=first_bot) as two:
        assert two.room.tables[old].game.config.bapengtou_zhuo == "stack"
        assert two.room.tables[new["id"]].game.config.bapengtou_zhuo == "replace"


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


class Remembering:
    """The toy game's first-legal bot with a memory: how many of its seat's views it was shown (``recall``)
    before each of its moves."""

    def __init__(self, log: list[int]) -> None:
        self.recalled = 0
        self.log = log

    def recall(self, view: View) -> None:
        self.recalled += 1

    def act(self, view: View, legal: Any) -> str:
        self.log.append(self.recalled)
        return str(legal[0])


def test_a_restart_hands_bot_seats_back_to_their_bots(settings: Settings) -> None:
    """The bots play on after a restart; a bot that remembers what its seat saw (``recall``, as 水鱼's) is
    shown the seat's view after every move so far before it first decides, on a rebuilt table as on a new one."""
    recalled_at_act: list[int] = []

    def factory(game: str, kind: str, seed: int) -> Bot:
        return Remembering(recalled_at_act) if game == "toy" else first_bot(game, kind, seed)

    with LiveServer(settings, bot_factory=factory) as one:
        me = one.client("me")
        tid, [sock] = toy_table(one, [me], deal={"hands": [["1", "2"], ["3", "4"], ["5", "6"]]},
                                config={"hand_size": 2})
        sock.act("play 1")
        sock.until(lambda m: m["type"] == "update" and m["seq"] == 3)  # both bots have played
    assert recalled_at_act == [1, 2]  # each bot made at its first move, after 1 and 2 moves
    with LiveServer(settings, bot_factory=factory) as two:
        me2 = two.client()
        me2.token = me.token
        sock = me2.socket(tid)
        assert sock.recv()["seq"] == 3
        sock.act("play 2")
        last = sock.until(lambda m: m["type"] == "update" and m["view"]["finished"])
        assert last["seq"] == 6
    assert recalled_at_act == [1, 2, 4, 5]  # rebuilt: each new bot read all 4 and 5 moves before its own


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


def test_the_accounts_migration_moves_an_existing_database_forward(settings: Settings) -> None:
    """A database at revision 0001 holding players, a finished match (with a departure) and a table in play is
    upgraded: every table and record is still there, old tokens still work, and the old match is looked at
    (casual since 0006: a bot sat in it from the start, so it books nothing)."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import func, select

    from paiju.core import get_game
    from paiju.server.people.auth import Sessions
    from paiju.server.scores import ledger
    from paiju.server.storage import Player as RoomPlayer

    engine = storage.make_engine(settings.db_url, settings.data_dir)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(storage.__file__).with_name("migrations")))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    game = get_game("toy")(ToyGame.config_class.from_dict({"hand_size": 1}), 1, {"hands": [["1"], ["1"], ["3"]]})
    for seat, action in ((0, "play 1"), (1, "take"), (2, "play 3")):
        game.apply(seat, action)
    with engine.begin() as c:
        for pid in ("old_a", "old_b"):
            storage.add_player(c, RoomPlayer(pid, pid.upper()), 1.0)
        seats = [storage.SeatRow(0, "old_a"), storage.SeatRow(1, "old_b"), storage.SeatRow(2, bot="best")]
        for tid in ("done", "live"):
            storage.add_table(c, storage.TableRow(
                id=tid, game="toy", config=game.config.to_dict(), seed=1, deal=game.deal, turn_seconds=0,
                claim_seconds=0, private=False, invite=None, owner_id="old_a", status="waiting", created_at=2.0,
                seats=seats))
            storage.set_status(c, tid, "playing", 3.0, {})
            storage.set_seat(c, tid, seats[2], 3.0, 0)
        for n, (seat, action) in enumerate(game.history, start=1):
            storage.add_action(c, storage.action_row("done", n, seat, action, 3.0 + n))
        storage.add_action(c, storage.action_row("live", 1, 0, "play 1", 4.0))
        storage.add_departure(c, "live", 1, "old_b", 4.5, 1, "disconnected")
        result = game.result()
        assert result is not None
        storage.finish(c, "done", 7.0, result.to_dict())
    counts: dict[str, int | None] = {}
    with engine.connect() as c:
        for t in ("players", "card_tables", "seats", "seatings", "actions", "departures"):
            counts[t] = c.execute(select(func.count()).select_from(storage.metadata.tables[t])).scalar()
    storage.migrate(engine)
    with engine.connect() as c:
        for t, count in counts.items():
            assert c.execute(select(func.count()).select_from(storage.metadata.tables[t])).scalar() == count, t
        assert compare_metadata(MigrationContext.configure(c), storage.metadata) == []
    engine.dispose()
    old_token = Sessions("test-key").issue("old_a")  # a token the old server gave
    with LiveServer(settings, bot_factory=first_bot) as s:
        me = s.client()
        me.http.headers["Authorization"] = f"Bearer {old_token}"
        assert me.http.get("/api/session").json()["player"]["id"] == "old_a"
        assert s.room.tables["live"].seq == 1
        assert me.http.get("/api/tables/done/record").json()["record"]["actions"] == [[0, "play 1"], [1, "take"],
                                                                                     [2, "play 3"]]
        # a bot held seat 2 from the start: revision 0006 made the old match casual, so it books nothing
        assert me.http.get("/api/tables/done").json()["rated"] == "casual"
        end = time.monotonic() + 10
        while time.monotonic() < end:
            with s.room.db.engine.connect() as c:
                booked = c.execute(select(ledger.table_scoring.c.booked_at)
                                   .where(ledger.table_scoring.c.table_id == "done")).scalar()
            if booked is not None:
                break
            time.sleep(0.05)
        assert booked is not None and me.http.get("/api/players/old_b").json()["ledger"] == []
        with s.room.db.engine.connect() as c:
            assert ledger.check_balances(c) == []


def test_the_friends_migration_moves_an_existing_database_forward(settings: Settings) -> None:
    """A database at revision 0003 with players, an account, a finished match and a waiting table is upgraded to
    0004: everything is still there, the old tables have no number (and are still reached by id), new ones
    get one, and the old players can be banned and report."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import func, insert, select

    from paiju.server.people.accounts import accounts
    from paiju.server.storage import Player as RoomPlayer

    engine = storage.make_engine(settings.db_url, settings.data_dir)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(storage.__file__).with_name("migrations")))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
    with engine.begin() as c:
        for pid in ("old_a", "old_b"):
            storage.add_player(c, RoomPlayer(pid, pid.upper()), 1.0)
        c.execute(insert(accounts).values(player_id="old_a", username="OldA", username_key="olda",
                                          password_hash="x", created_at=1.0, password_changed_at=1.0))
        seats = [storage.SeatRow(0, "old_a"), storage.SeatRow(1, "old_b"), storage.SeatRow(2, bot="best")]
        for tid in ("done", "wait"):
            storage.add_table(c, storage.TableRow(
                id=tid, game="toy", config={"hand_size": 1}, seed=1, deal=None, turn_seconds=0, claim_seconds=0,
                private=False, invite=None, owner_id="old_a", status="waiting", created_at=2.0, seats=seats))
        storage.finish(c, "done", 7.0, {"scores": [0, 0, 0]})
    counts: dict[str, int | None] = {}
    with engine.connect() as c:
        for t in ("players", "card_tables", "seats", "accounts"):
            counts[t] = c.execute(select(func.count()).select_from(storage.metadata.tables[t])).scalar()
    storage.migrate(engine)
    with engine.connect() as c:
        for t, count in counts.items():
            assert c.execute(select(func.count()).select_from(storage.metadata.tables[t])).scalar() == count, t
        assert c.execute(select(storage.card_tables.c.number)).scalars().all() == [None, None]
        assert compare_metadata(MigrationContext.configure(c), storage.metadata) == []
    engine.dispose()
    made = CliRunner().invoke(main_app, ["admin", "create", "boss", "--password-stdin", "--database-url",
                                         settings.db_url, "--data-dir", str(settings.data_dir)],
                              input="correct horse\n")
    assert made.exit_code == 0, made.output
    with LiveServer(settings.with_(admins=("boss",)), bot_factory=first_bot) as s:
        old = register(s, "xavier", nickname="x")  # an account: a guest reports once it has played a hand
        assert old.http.get("/api/tables/wait").json()["number"] is None
        new = old.ok("/api/tables", {"game": "toy"})
        assert old.http.get(f"/api/rooms/{new['number']}").json()["id"] == new["id"]
        old.ok("/api/tables/wait/report", {"seat": 1, "reason": "old seat"})
        boss = s.client()
        r = boss.post("/api/login", {"username": "boss", "password": "correct horse"})
        boss.http.headers["Authorization"] = f"Bearer {r.json()['token']}"
        boss.ok("/api/host/players/old_b/ban")
        assert [r["player_id"] for r in boss.http.get("/api/host/reports").json()] == ["old_b"]
        assert s.app.state.banned == {"old_b"}
