"""Playing with friends (issue 14): room numbers, quick match, quick phrases and chat, the series sheet, your data."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

import pytest

from paiju.bots.base import RandomBot
from paiju.core import OMNISCIENT, get_game
from paiju.server import storage as st
from paiju.server.errors import RoomError
from paiju.server.room import numbers
from paiju.server.scores import series
from paiju.server.storage import Player as RoomPlayer
from paiju.server.writer import Database

from .conftest import LiveServer, Socket, ToyGame, fast_settings, first_bot, register, toy_table
from .test_server_replay import finish_toy

# ---- room numbers ---------------------------------------------------------------------------------------


def test_every_table_has_a_number_that_finds_it(server: LiveServer) -> None:
    a, b = server.client("a"), server.client("b")
    t1 = a.ok("/api/tables", {"game": "toy"})
    t2 = a.ok("/api/tables", {"game": "toy"})
    assert numbers.NUMBER.fullmatch(t1["number"]) and numbers.NUMBER.fullmatch(t2["number"])
    assert t1["number"] != t2["number"]
    found = b.http.get(f"/api/rooms/{t1['number']}").json()
    assert found["id"] == t1["id"] and found["number"] == t1["number"]
    spaced = f"%23{t1['number'][:3]}%20{t1['number'][3:]}"  # "#123 456", as people type it
    assert b.http.get(f"/api/rooms/{spaced}").json()["id"] == t1["id"]
    for bad in ("12345", "abcdef", "012345", "9999999"):
        r = b.http.get(f"/api/rooms/{bad}")
        assert (r.status_code, r.json()["error"]["code"]) == (404, "no_room"), bad
    free = next(str(n) for n in range(100000, 100100) if str(n) not in (t1["number"], t2["number"]))
    r = b.http.get(f"/api/rooms/{free}")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "no_room")
    b.ok(f"/api/tables/{found['id']}/sit", {"seat": 1})  # the number's table is the one you sit at
    assert server.room.tables[t1["id"]].seats[1].player_id == b.id


def test_a_private_tables_number_still_needs_its_invite(server: LiveServer) -> None:
    a, b = server.client("a"), server.client("b")
    t = a.ok("/api/tables", {"game": "toy", "private": True})
    r = b.http.get(f"/api/rooms/{t['number']}")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "no_room")  # as a free number answers
    assert b.http.get(f"/api/rooms/{t['number']}?invite={t['invite']}").json()["id"] == t["id"]
    assert a.http.get(f"/api/rooms/{t['number']}").json()["invite"] == t["invite"]  # its owner gets in


@pytest.mark.asyncio
async def test_a_finished_tables_number_is_reused_only_after_a_day(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    engine = st.make_engine(f"sqlite:///{tmp_path / 'n.sqlite3'}", tmp_path)
    st.migrate(engine)
    db = Database(engine)
    db.start()
    now = 1_800_000_000.0
    try:
        with engine.begin() as c:
            st.add_player(c, RoomPlayer("p", "P"), now)
            for tid, finished in (("old", now - 3600), ("older", None)):
                st.add_table(c, st.TableRow(id=tid, game="toy", config={}, seed=1, deal=None, turn_seconds=0,
                                            claim_seconds=0, private=False, invite=None, owner_id="p",
                                            status="finished" if finished else "waiting", created_at=now - 7200,
                                            number="123456" if tid == "old" else "654321",
                                            seats=[st.SeatRow(0, "p")]))
            c.execute(st.card_tables.update().where(st.card_tables.c.id == "old").values(finished_at=now - 3600))
        draws = numbers.RoomNumbers(db, lambda: now)
        monkeypatch.setattr(secrets, "randbelow", lambda n: 23456)  # every draw is 123456
        with pytest.raises(RoomError) as e:
            await draws.allocate([])
        assert e.value.code == "server_error"  # finished an hour ago: still held
        later = numbers.RoomNumbers(db, lambda: now + 86400)
        assert await later.allocate([]) == "123456"  # a day after the end: free again
        assert "123456" in later._reserved  # reserved until its table is stored
        with pytest.raises(RoomError):
            await later.allocate([])  # a second new table cannot draw the same one meanwhile
        monkeypatch.setattr(secrets, "randbelow", lambda n: 554321)  # 654321: a table still waiting
        with pytest.raises(RoomError):
            await later.allocate([])
    finally:
        db.stop()
        engine.dispose()


# ---- quick match ----------------------------------------------------------------------------------------


@pytest.fixture
def quick_server(tmp_path: Path, toy_game: type[ToyGame]) -> Any:
    with LiveServer(fast_settings(tmp_path, quick_match_seconds=0.6), bot_factory=first_bot) as s:
        yield s


def test_quick_match_fills_the_fullest_table_then_bots_after_the_wait(quick_server: LiveServer) -> None:
    s = quick_server
    a, b, c = s.client("a"), s.client("b"), s.client("c")
    first = a.ok("/api/quick", {"game": "toy"})
    assert first["status"] == "waiting" and first["seats"][0]["player"]["id"] == a.id
    assert first["quick_deadline"] > time.time()
    assert a.ok("/api/quick", {"game": "toy"})["id"] == first["id"]  # pressing again: the same seat
    joined = b.ok("/api/quick", {"game": "toy"})
    assert joined["id"] == first["id"] and joined["seats"][1]["player"]["id"] == b.id
    hand_made = c.ok("/api/tables", {"game": "toy"})  # a table opened by hand is not quick match's
    end = time.monotonic() + 10
    while time.monotonic() < end and s.room.tables[first["id"]].status == "waiting":
        time.sleep(0.05)
    table = a.http.get(f"/api/tables/{first['id']}").json()
    assert table["status"] == "playing"
    assert [x["bot"] for x in table["seats"]] == [None, None, "best"]
    assert "quick_deadline" not in table
    assert s.room.tables[hand_made["id"]].status == "waiting"
    r = a.post("/api/quick", {"game": "nope"})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "unknown_game")
    r = s.client().post("/api/quick", {"game": "toy"})
    assert (r.status_code, r.json()["error"]["code"]) == (401, "no_session")


def test_a_quick_table_full_of_people_starts_at_once(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(fast_settings(tmp_path, quick_match_seconds=60), bot_factory=first_bot) as s:
        people = [s.client(n) for n in "abc"]
        ids = {p.ok("/api/quick", {"game": "toy"})["id"] for p in people}
        assert len(ids) == 1
        table = s.room.tables[ids.pop()]
        assert table.status == "playing" and all(x.bot is None for x in table.seats)
        assert not s.app.state.quick.waiting  # no timer left behind
        fresh = s.client("d").ok("/api/quick", {"game": "toy"})  # the full one is gone: a new table
        assert fresh["id"] != table.id and fresh["status"] == "waiting"


# ---- quick phrases and chat -------------------------------------------------------------------------------


def test_a_phrase_goes_to_everyone_at_the_table_and_is_rate_limited(server: LiveServer) -> None:
    a, b = server.client("a"), server.client("b")
    tid, (sa, sb) = toy_table(server, [a, b], start=False)
    watcher = server.client().socket(tid)
    watcher.recv()
    catalogue = a.http.get("/api/phrases").json()
    assert {"id": "again", "zh": "再来一局", "en": "One more game"} in catalogue["phrases"]
    assert catalogue["chat_max_length"] == 0
    sa.send({"type": "phrase", "phrase": "again"})
    for sock in (sa, sb, watcher):
        msg = sock.until(lambda m: m["type"] == "phrase")
        assert (msg["seat"], msg["phrase"], msg["zh"], msg["en"], msg["player"]["id"]) == \
            (0, "again", "再来一局", "One more game", a.id)
    sa.send({"type": "phrase", "phrase": "insult"})
    assert sa.until(lambda m: m["type"] == "error")["code"] == "unknown_phrase"
    watcher.send({"type": "phrase", "phrase": "nice"})
    assert watcher.until(lambda m: m["type"] == "error")["code"] == "not_seated"
    for _ in range(2):  # the burst is 3: this makes 3 with the first
        sa.send({"type": "phrase", "phrase": "hurry"})
    sa.send({"type": "phrase", "phrase": "hurry"})
    assert sa.until(lambda m: m["type"] == "error")["code"] == "slow_down"
    said = [m for m in sb.quiet(0.3) if m["type"] == "phrase"]
    assert len(said) == 2  # the refused ones reached nobody
    sa.send({"type": "chat", "text": "hello"})
    assert sa.until(lambda m: m["type"] == "error")["code"] == "chat_off"


def test_free_text_chat_when_a_host_turns_it_on(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(fast_settings(tmp_path, chat_max_length=10), bot_factory=first_bot) as s:
        a, b = s.client("a"), s.client("b")
        _tid, (sa, sb) = toy_table(s, [a, b], start=False)
        sa.send({"type": "chat", "text": "  good   game "})
        msg = sb.until(lambda m: m["type"] == "chat")
        assert (msg["seat"], msg["text"], msg["player"]["nickname"]) == (0, "good game", "a")
        sa.send({"type": "chat", "text": "x" * 11})
        assert sa.until(lambda m: m["type"] == "error")["code"] == "chat_too_long"
        sa.send({"type": "chat", "text": "   "})
        assert sa.until(lambda m: m["type"] == "error")["code"] == "bad_message"
        assert not [m for m in sb.quiet(0.2) if m["type"] == "chat"]


# ---- the series sheet -------------------------------------------------------------------------------------


def play_to_end(socks: list[Socket], timeout: float = 20) -> None:
    """Each person plays their first legal action until the match is over."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for sock in socks:
            for _ in sock.quiet(0.02):
                pass
            state = sock.last_state
            if state and state.get("view") and state["view"].get("finished"):
                return
            if state and state["legal"]:
                sock.act(state["legal"][0]["action"])
                sock.until(lambda m: m["type"] in ("update", "error"))
    raise AssertionError("the match did not end")


def test_the_series_sheet_follows_the_rematches(server: LiveServer) -> None:
    a, b = server.client("a"), server.client("b")
    first, _ = finish_toy(server, [a, b])
    one = a.http.get(f"/api/tables/{first}/series").json()
    assert [m["table"] for m in one["matches"]] == [first] and one["played"] == 1
    assert one["totals"] == one["matches"][0]["scores"] == server.room.tables[first].info()["result"]["scores"]
    a.ok(f"/api/tables/{first}/rematch")
    second = b.ok(f"/api/tables/{first}/rematch")["next"]
    assert server.room.tables[second].row.number == server.room.tables[first].row.number  # the same room
    socks = []
    for p in (a, b):
        sock = p.socket(second)
        sock.recv()
        socks.append(sock)
    mid = server.client().http.get(f"/api/tables/{second}/series").json()
    assert [m["status"] for m in mid["matches"]] == ["finished", "playing"]
    assert mid["matches"][1]["scores"] is None and mid["played"] == 1
    play_to_end(socks)
    end = time.monotonic() + 5
    while server.room.tables[second].status != "finished" and time.monotonic() < end:
        time.sleep(0.02)
    sheet = a.http.get(f"/api/tables/{first}/series").json()
    assert sheet == a.http.get(f"/api/tables/{second}/series").json() | {"table": first}
    scores = [m["scores"] for m in sheet["matches"]]
    assert len(scores) == 2 and sheet["played"] == 2
    assert sheet["totals"] == [x + y for x, y in zip(*scores, strict=True)]
    assert [s["player"]["id"] for s in sheet["seats"][:2]] == [a.id, b.id]
    r = a.http.get("/api/tables/nosuch/series")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "no_table")


def test_a_private_series_needs_what_its_table_needs(server: LiveServer) -> None:
    a, b = server.client("a"), server.client("b")
    t = a.ok("/api/tables", {"game": "toy", "private": True})
    r = b.http.get(f"/api/tables/{t['id']}/series")
    assert (r.status_code, r.json()["error"]["code"]) == (403, "invite_required")
    sheet = b.http.get(f"/api/tables/{t['id']}/series?invite={t['invite']}").json()
    assert [(m["table"], m["status"], m["scores"]) for m in sheet["matches"]] == [(t["id"], "waiting", None)]
    assert a.http.get(f"/api/tables/{t['id']}/series").status_code == 200  # its owner


def test_the_sheet_has_each_settled_hand_of_a_real_game() -> None:
    """A real game's hands: the sheet's are exactly the settlements its view showed while it was played."""
    cls = get_game("shuiyu")
    game = cls(cls.config_class.from_dict({}), 7)
    bots = [RandomBot(i) for i in range(game.num_seats)]
    seen: list[list[float]] = []
    last = None
    while not game.finished and len(seen) < 3:
        seat = game.to_move()[0]
        game.apply(seat, bots[seat].act(game.view(seat), game.legal_actions(seat)))
        shown = game.view(OMNISCIENT)["table"].get("last_result")
        if shown is not None and shown != last:
            seen.append(list(shown["scores"]))
        last = shown
    hands = series.hands_of(game.record())
    assert len(seen) >= 1
    assert [h["scores"] for h in hands] == seen
    assert [h["hand"] for h in hands] == list(range(1, len(seen) + 1))


# ---- your own data --------------------------------------------------------------------------------------


def test_a_player_downloads_their_own_data(server: LiveServer) -> None:
    a = register(server, "ada_data", nickname="阿达")
    b = server.client("b")
    tid, _ = finish_toy(server, [a, b])
    end = time.monotonic() + 5
    while not a.http.get(f"/api/players/{a.id}").json()["ledger"] and time.monotonic() < end:
        time.sleep(0.05)
    r = a.http.get("/api/me/data")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == f'attachment; filename="paiju-{a.id}.json"'
    data = r.json()
    assert data["player"]["id"] == a.id and data["player"]["nickname"] == "阿达"
    assert data["account"]["username"] == "ada_data"
    assert [t["table_id"] for t in data["tables"]] == [tid]
    assert [(e["table"], e["reason"]) for e in data["ledger"]] == [(tid, "match")]
    assert data["sessions"] and all(set(x) == {"kind", "created_at", "last_seen", "expires_at"}
                                    for x in data["sessions"])
    assert "password_hash" not in r.text and (a.token or "") not in r.text
    assert server.client().http.get("/api/me/data").status_code == 401
