"""The attack suite (issue 13): who may do what, limits, and the browser's side — each test an abuse the room
once let through.  Autoplay and its races are in test_attacks_autoplay.py."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from paiju.server import Settings

from .attack_kit import Browser, chunks, drain, errors_in, nested, raw_socket
from .conftest import LiveServer, ToyGame, fast_settings, first_bot, toy_table, wait_for

PEOPLE_SPEED = {"ws_messages_per_second": 20.0, "ws_message_burst": 40, "ws_messages_per_second_per_address": 200.0}
"""The websocket limit at its defaults (the shared test settings raise it for machine-speed clients)."""


def attack_settings(tmp_path: Path, **changes: Any) -> Settings:
    return fast_settings(tmp_path, **{**PEOPLE_SPEED, **changes})


@pytest.fixture
def room(tmp_path: Path, toy_game: type[ToyGame]) -> Iterator[LiveServer]:
    with LiveServer(attack_settings(tmp_path), bot_factory=first_bot) as s:
        yield s


def code_of(r: httpx.Response) -> str:
    code: str = r.json()["error"]["code"]
    return code


# ---- who may do what ---------------------------------------------------------------------------------------

def test_a_stranger_cannot_fill_or_strip_a_waiting_tables_bots(room: LiveServer) -> None:
    owner, seated, stranger = room.client("owner"), room.client("seated"), room.client("stranger")
    tid = owner.ok("/api/tables", {"game": "toy"})["id"]
    owner.ok(f"/api/tables/{tid}/leave")  # the creator gives up the seat a new table gives it: owner, not seated
    seated.ok(f"/api/tables/{tid}/sit", {"seat": 0})
    r = stranger.post(f"/api/tables/{tid}/bots")
    assert r.status_code == 403 and code_of(r) == "not_allowed"
    assert all(s["bot"] is None for s in owner.http.get(f"/api/tables/{tid}").json()["seats"])
    seats = seated.ok(f"/api/tables/{tid}/bots")["seats"]  # a seated player may
    assert [s["bot"] is not None for s in seats] == [False, True, True]
    r = stranger.post(f"/api/tables/{tid}/bots/remove", {"seat": 1})
    assert r.status_code == 403 and code_of(r) == "not_allowed"
    assert owner.http.get(f"/api/tables/{tid}").json()["seats"][1]["bot"] is not None
    assert owner.ok(f"/api/tables/{tid}/bots/remove", {"seat": 1})["seats"][1]["bot"] is None  # so may the owner


def test_the_websocket_refuses_unknown_tables_and_private_ones_without_their_invite(room: LiveServer) -> None:
    owner, guest = room.client("owner"), room.client("guest")
    private = owner.ok("/api/tables", {"game": "toy", "private": True})
    for tid, query in (("no-such-table", ""), (private["id"], ""), (private["id"], "invite=wrong")):
        with pytest.raises(InvalidStatus):
            guest.socket(tid, query)
    sock = guest.socket(private["id"], f"invite={private['invite']}")
    assert sock.recv()["type"] == "snapshot"


def test_an_expired_session_is_refused(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    clock = [1_800_000_000.0]
    with LiveServer(attack_settings(tmp_path, clock=lambda: clock[0], session_days=1.0,
                                    session_recheck_seconds=0.0)) as s:
        me = s.client("me")
        assert me.http.get("/api/session").status_code == 200
        clock[0] += 2 * 86400
        r = me.post("/api/tables", {"game": "toy"})
        assert r.status_code == 401 and code_of(r) == "no_session"


# ---- limits: bodies and JSON -------------------------------------------------------------------------------

def test_a_body_over_64_kb_is_a_413_whether_or_not_it_says_its_length(room: LiveServer) -> None:
    me = room.client("me")
    big = json.dumps({"game": "toy", "pad": "x" * 70_000})
    r = me.http.post("/api/tables", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and code_of(r) == "body_too_large"
    r = me.http.post("/api/tables", content=chunks(200_000), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and code_of(r) == "body_too_large"
    assert me.ok("/api/tables", {"game": "toy"})["status"] == "waiting"  # an ordinary body still goes through


def test_json_nested_too_deep_is_a_400_and_a_bad_message_with_no_traceback(
        room: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    me = room.client("me")
    _tid, [sock] = toy_table(room, [me])
    caplog.set_level(logging.INFO)
    for depth in (100, 30_000):  # 30,000 levels: 60 KB, under the body cap (a websocket message: 4,000, 8 KB)
        r = me.http.post("/api/tables", content='{"game": "toy", "config": ' + "[" * depth + "]" * depth + "}",
                         headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and code_of(r) == "bad_json", r.text
        sock.send(nested(min(depth, 4_000)))
        msg = sock.until(lambda m: m["type"] == "error")
        assert msg["code"] == "bad_message" and "nested" in msg["message"]
    sock.send({"type": "ping"})
    assert sock.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"  # the socket still works
    assert not [r for r in caplog.records if r.exc_info or "RecursionError" in r.getMessage()]


# ---- limits: rates -------------------------------------------------------------------------------------------

def test_new_sessions_per_address_are_limited_with_retry_after(room: LiveServer) -> None:
    http = room.resources.enter_context(httpx.Client(base_url=room.url, timeout=10))
    codes = [http.post("/api/session", json={"nickname": f"n{i}"}).status_code for i in range(20)]
    assert codes == [200] * 20
    r = http.post("/api/session", json={"nickname": "one too many"})
    assert r.status_code == 429 and code_of(r) == "rate_limited"
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    r = http.post("/api/accounts", json={"username": "newcomer", "password": "correct horse"})
    assert r.status_code == 429  # an account is a new session too
    # a forged X-Forwarded-For from a peer that is no trusted proxy changes nothing
    r = http.post("/api/session", json={"nickname": "forger"}, headers={"X-Forwarded-For": "203.0.113.9"})
    assert r.status_code == 429


def test_behind_a_trusted_proxy_each_forwarded_address_has_its_own_limit(
        tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(attack_settings(tmp_path, trusted_proxies=("127.0.0.1",))) as s:
        http = s.resources.enter_context(httpx.Client(base_url=s.url, timeout=10))

        def new(addr: str, forged: str = "") -> int:
            xff = f"{forged}, {addr}" if forged else addr
            return http.post("/api/session", json={"nickname": "x"}, headers={"X-Forwarded-For": xff}).status_code

        assert [new("198.51.100.1") for _ in range(20)] == [200] * 20
        assert new("198.51.100.1") == 429
        assert new("198.51.100.1", forged="10.9.9.9") == 429  # what the client wrote left of the proxy's entry
        assert new("198.51.100.2") == 200  # another player behind the same proxy still gets in


def test_tables_per_session_and_per_address_are_limited(room: LiveServer) -> None:
    players = [room.client(f"p{i}") for i in range(4)]
    for _i in range(10):
        players[0].ok("/api/tables", {"game": "toy"})
    r = players[0].post("/api/tables", {"game": "toy"})
    assert r.status_code == 429 and code_of(r) == "rate_limited" and "Retry-After" in r.headers
    assert players[0].post("/api/tables", {"game": "nope"}).status_code == 429  # refused before anything else
    for p in players[1:3]:  # others on the same address: 30 a minute between them all
        for _ in range(10):
            p.ok("/api/tables", {"game": "toy"})
    r = players[3].post("/api/tables", {"game": "toy"})
    assert r.status_code == 429
    # refused requests never counted: a bad option from a fresh session costs nothing
    assert len(room.room.tables) == 30


def test_lobby_reads_are_limited(room: LiveServer) -> None:
    me = room.client("me")
    assert all(me.http.get("/api/tables").status_code == 200 for _ in range(120))
    r = me.http.get("/api/tables")
    assert r.status_code == 429 and code_of(r) == "rate_limited" and "Retry-After" in r.headers


def test_a_websocket_flood_is_answered_with_errors_then_closed(room: LiveServer) -> None:
    me = room.client("me")
    _tid, [sock] = toy_table(room, [me], start=False)
    for _ in range(200):
        try:
            sock.send({"type": "ping"})
        except ConnectionClosed:
            break
    got = drain(sock, 1.0)
    assert 35 <= len([m for m in got if m["type"] == "pong"]) <= 45  # the burst, and what the window let by
    limited = errors_in(got, "rate_limited")
    assert limited and all(m["zh"] and m["en"] for m in limited)
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(5):
            sock.send({"type": "ping"})
            sock.ws.recv(timeout=1)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429


def test_many_sockets_of_one_address_share_its_message_limit(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(attack_settings(tmp_path, ws_messages_per_second_per_address=10.0)) as s:  # 20 per 2 s
        me = s.client("me")
        tid = me.ok("/api/tables", {"game": "toy"})["id"]
        socks = [me.socket(tid) for _ in range(3)]
        for sock in socks:
            sock.recv()
        for sock in socks:  # 15 each: within each socket's own burst of 40, not within the address's 20
            for _ in range(15):
                sock.send({"type": "ping"})
        got = [m for sock in socks for m in drain(sock, 0.5)]
        assert len([m for m in got if m["type"] == "pong"]) == 20
        assert len(errors_in(got, "rate_limited")) == 25


def test_a_person_playing_fast_never_meets_the_websocket_limit(room: LiveServer) -> None:
    me = room.client("me")
    _tid, [sock] = toy_table(room, [me], start=False)
    for _ in range(30):  # 15 messages a second for two seconds: faster than anyone clicks
        sock.send({"type": "ping"})
        time.sleep(1 / 15)
    got = drain(sock, 0.5)
    assert len([m for m in got if m["type"] == "pong"]) == 30 and not errors_in(got, "rate_limited")


# ---- limits: the lobby -------------------------------------------------------------------------------------

def test_the_lobby_is_paged_with_a_cursor(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(attack_settings(tmp_path, tables_per_minute_per_session=1000,
                                    tables_per_minute_per_address=1000)) as s:
        me = s.client("me")
        made = [me.ok("/api/tables", {"game": "toy"})["id"] for _ in range(110)]
        me.ok("/api/tables", {"game": "toy", "private": True})
        pages, cursor = [], None
        while True:
            r = me.http.get("/api/tables", params={"cursor": cursor} if cursor else {})
            assert r.status_code == 200
            body = r.json()
            pages.append([t["id"] for t in body["tables"]])
            cursor = body["next"]
            if cursor is None:
                break
        assert [len(p) for p in pages] == [50, 50, 10]
        assert [t for p in pages for t in p] == made[::-1]  # newest first, each once, no private table
        assert me.http.get("/api/tables", params={"limit": 51}).status_code == 422
        r = me.http.get("/api/tables", params={"cursor": "not a cursor!"})
        assert r.status_code == 422 and code_of(r) == "bad_cursor"


def test_waiting_tables_nobody_joins_expire_and_are_not_restored(settings: Settings) -> None:
    """On SQLite, and on PostgreSQL when PAIJU_TEST_POSTGRES_URL is set (the conftest's ``settings``)."""
    settings = settings.with_(**PEOPLE_SPEED, waiting_table_minutes=0.01)  # 0.6 s
    with LiveServer(settings) as s:
        me = s.client("me")
        idle = me.ok("/api/tables", {"game": "toy"})["id"]
        kept = me.ok("/api/tables", {"game": "toy"})["id"]
        watcher = me.socket(kept)  # someone is at the table: it stays
        watcher.recv()
        wait_for(lambda: idle not in s.room.tables, timeout=5)
        listed = [t["id"] for t in me.http.get("/api/tables").json()["tables"]]
        assert idle not in listed and kept in listed
        with pytest.raises(InvalidStatus):
            me.socket(idle)
        assert me.post(f"/api/tables/{idle}/sit", {"seat": 0}).status_code == 404
        later = me.ok("/api/tables", {"game": "toy"})["id"]
        watcher.close()
    time.sleep(0.8)  # the room is down while the other two go idle
    with LiveServer(settings) as s:
        assert {idle, kept, later}.isdisjoint(s.room.tables)  # the restart replays none of them
    with LiveServer(settings.with_(waiting_table_minutes=0)) as s:
        assert {idle, kept, later}.isdisjoint(s.room.tables)  # marked expired for good


def test_connections_per_address_and_watchers_per_table_are_capped(tmp_path: Path,
                                                                    toy_game: type[ToyGame]) -> None:
    with LiveServer(attack_settings(tmp_path, connections_per_address=4, watchers_per_table=2)) as s:
        owner = s.client("owner")
        tid = owner.ok("/api/tables", {"game": "toy"})["id"]
        owner.ok(f"/api/tables/{tid}/sit", {"seat": 0})
        watchers = [s.client(f"w{i}").socket(tid) for i in range(2)]
        for w in watchers:
            w.recv()
        third = s.client("w3").socket(tid)
        msg = third.recv()
        assert msg["type"] == "error" and msg["code"] == "too_many_watchers"
        with pytest.raises(ConnectionClosed):
            third.recv()
        seated = owner.socket(tid)  # a seated player always gets in
        assert seated.recv()["type"] == "snapshot"
        other = owner.ok("/api/tables", {"game": "toy"})["id"]
        fourth = owner.socket(other)  # the address's fourth
        assert fourth.recv()["type"] == "snapshot"
        fifth = owner.socket(other)
        msg = fifth.recv()
        assert msg["type"] == "error" and msg["code"] == "too_many_connections"
        fourth.close()
        wait_for(lambda: sum(s.app.state.sockets.open.values()) == 3)
        again = owner.socket(other)
        assert again.recv()["type"] == "snapshot"  # a closed socket frees its place


# ---- limits: the database ------------------------------------------------------------------------------------

def test_a_locked_database_is_a_json_503_and_never_stalls_the_event_loop(tmp_path: Path,
                                                                          toy_game: type[ToyGame]) -> None:
    with LiveServer(attack_settings(tmp_path, db_busy_seconds=1.0), bot_factory=first_bot) as s:
        me = s.client("me")
        _tid, [sock] = toy_table(s, [me], start=False)
        other = sqlite3.connect(tmp_path / "data" / "paiju.sqlite3", timeout=0.1, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")  # another process holds the file
        try:
            answer: dict[str, httpx.Response] = {}
            writer = threading.Thread(target=lambda: answer.update(r=s.client().http.post(
                "/api/session", json={"nickname": "late"})))
            started = time.monotonic()
            writer.start()
            time.sleep(0.2)  # the write is waiting for the lock now
            pings = []
            for _ in range(3):
                t0 = time.monotonic()
                sock.send({"type": "ping"})
                sock.until(lambda m: m["type"] == "pong")
                pings.append(time.monotonic() - t0)
            waited = time.monotonic() - started
            writer.join(10)
            r = answer["r"]
            assert r.status_code == 503 and r.headers["content-type"].startswith("application/json")
            assert code_of(r) == "db_unavailable" and r.json()["error"]["zh"]
            assert waited < 1.0 and max(pings) < 0.5  # pings answered while the write waited for the lock
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert s.client().http.post("/api/session", json={"nickname": "later"}).status_code == 200


def test_a_database_down_at_the_websocket_handshake_is_said_not_a_500(tmp_path: Path, toy_game: type[ToyGame],
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    with LiveServer(attack_settings(tmp_path), bot_factory=first_bot) as s:
        me = s.client("me")
        tid, _ = toy_table(s, [me], start=False)
        sessions = s.app.state.sessions
        real = sessions.player_id

        async def down(token: str | None) -> str | None:
            raise sqlite3.OperationalError("unable to open database file")

        sessions.player_id = down
        try:
            ws = raw_socket(s, tid, me.token)
            msg = ws.recv()
            assert msg["type"] == "error" and msg["code"] == "db_unavailable" and msg["zh"]
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503
        finally:
            sessions.player_id = real
        assert not [r for r in caplog.records if r.exc_info], "no traceback in the log"
        again = raw_socket(s, tid, me.token)  # the database is back: so is the table
        assert again.recv()["type"] == "snapshot"


# ---- the browser's side --------------------------------------------------------------------------------------

def test_a_foreign_or_null_origin_carrying_the_cookie_is_refused(room: LiveServer) -> None:
    served = room.url
    me = Browser(room, "me")
    for origin in ("http://evil.example", "null", "http://127.0.0.1:1"):
        r = me.post("/api/tables", {"game": "toy"}, origin=origin)
        assert r.status_code == 403 and code_of(r) == "bad_origin", origin
        with pytest.raises(InvalidStatus):
            me.socket("anything", origin=origin)
    assert len(room.room.tables) == 0
    tid = me.post("/api/tables", {"game": "toy"}, origin=served).json()["id"]  # our own page
    ws = me.socket(tid, origin=served)
    assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
    # a program: no Origin, the token named (Bearer or ?token=)
    r = me.http.post("/api/tables", json={"game": "toy"}, headers={"Authorization": f"Bearer {me.token}"})
    assert r.status_code == 201
    ws = me.socket(tid, cookie=False, query=f"token={me.token}")
    assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
    assert me.post("/api/tables", {"game": "toy"}).status_code == 201  # a cookie and no Origin: not a browser page


def test_an_allowed_origin_may_use_the_cookie(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(attack_settings(tmp_path, allowed_origins=("https://cards.example.org",))) as s:
        me = Browser(s, "me")
        assert me.post("/api/tables", {"game": "toy"}, origin="https://cards.example.org").status_code == 201
        assert me.post("/api/tables", {"game": "toy"}, origin="https://evil.example.org").status_code == 403


def test_every_page_carries_the_security_headers(room: LiveServer) -> None:
    http = room.resources.enter_context(httpx.Client(base_url=room.url, timeout=10))
    for path in ("/", "/api/games", "/api/tables", "/static/app.js", "/api/tables/nope"):
        r = http.get(path)
        csp = r.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert r.headers.get("x-content-type-options") == "nosniff", path
        assert r.headers.get("referrer-policy") == "no-referrer", path
        assert "strict-transport-security" not in r.headers
    r = http.post("/api/session", content=b"x" * 100_000)
    assert r.status_code == 413 and r.headers.get("x-content-type-options") == "nosniff"


def test_cookie_secure_sets_a_secure_cookie_and_hsts(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(attack_settings(tmp_path, cookie_secure=True)) as s:
        r = httpx.post(f"{s.url}/api/session", json={"nickname": "me"})
        assert "secure" in r.headers["set-cookie"].lower()
        assert r.headers["strict-transport-security"].startswith("max-age=")
