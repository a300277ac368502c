"""Accounts and sessions over HTTP and websockets: registering, logging in (with its throttle and its
timing), tokens in every place a token goes, sliding expiry, logout everywhere (also in another process on
the same database), password change, deletion, guests who register, tokens signed before sessions were
stored.  On SQLite and on PostgreSQL (``settings``)."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from paiju.server import Settings
from paiju.server.people.auth import Sessions

from .conftest import FakeClock, LiveServer, ToyGame, fast_settings, first_bot, register, toy_table

DAY = 86400.0


def test_register_checks_its_fields_and_gives_a_working_token(settings: Settings) -> None:
    with LiveServer(settings, bot_factory=first_bot) as s:
        anon = s.client()
        cases = [({"username": "ab", "password": "x" * 8}, "bad_username"),
                 ({"username": "a" * 33, "password": "x" * 8}, "bad_username"),
                 ({"username": "名字abc", "password": "x" * 8}, "bad_username"),
                 ({"username": "has space", "password": "x" * 8}, "bad_username"),
                 ({"username": "abc", "password": "x" * 7}, "bad_password"),
                 ({"username": "abc", "password": "x" * 129}, "bad_password"),
                 ({"username": "abc", "password": 12345678}, "bad_password"),
                 ({"username": "abc", "password": "x" * 8, "nickname": " "}, "bad_nickname")]
        for body, code in cases:
            r = anon.post("/api/accounts", body)
            assert (r.status_code, r.json()["error"]["code"]) == (422, code), body
        r = anon.post("/api/accounts", {"username": "Ada_1.x-y", "password": "x" * 128, "nickname": "阿达"})
        assert r.status_code == 201
        body = r.json()
        assert body["player"]["nickname"] == "阿达" and body["player"]["account"] is True
        assert r.cookies.get("paiju_session") == body["token"]
        me = s.client()
        me.http.headers["Authorization"] = f"Bearer {body['token']}"
        got = me.http.get("/api/session").json()
        assert got["player"]["id"] == body["player"]["id"] and got["account"]["username"] == "Ada_1.x-y"
        # names are one name in any case
        r = s.client().post("/api/accounts", {"username": "ada_1.X-Y", "password": "y" * 8})
        assert (r.status_code, r.json()["error"]["code"]) == (409, "username_taken")
        ok = s.client().post("/api/accounts", {"username": "abc", "password": "x" * 8})
        assert ok.status_code == 201 and ok.json()["player"]["nickname"] == "abc"  # the username by default


def test_login_answers_alike_for_a_wrong_password_and_a_missing_user(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    # real argon2 cost here (16 MiB) so the hash, not the noise, is what the timing measures
    with LiveServer(fast_settings(tmp_path, argon2_memory_kib=16384, argon2_time_cost=2)) as s:
        register(s, "alice", "the right one")
        anon = s.client()
        good = anon.post("/api/login", {"username": "ALICE", "password": "the right one"})
        assert good.status_code == 200 and good.json()["player"]["nickname"] == "alice"

        def attempt(username: str) -> tuple[float, int, object]:
            t0 = time.perf_counter()
            r = anon.post("/api/login", {"username": username, "password": "not the one"})
            return time.perf_counter() - t0, r.status_code, r.json()

        wrong = [attempt("alice") for _ in range(4)]
        missing = [attempt("nobody") for _ in range(4)]
        assert {(code, str(body)) for _t, code, body in wrong + missing} == {
            (401, str({"error": {"code": "bad_login", "message": "wrong username or password",
                                 "zh": "用户名或密码不对", "en": "wrong username or password"}}))}
        a, b = statistics.median(t for t, *_ in wrong), statistics.median(t for t, *_ in missing)
        assert 0.33 < a / b < 3, (a, b)  # both pay one argon2 verification
        for bad in ({}, {"username": "alice"}, {"username": 5, "password": "x"}):
            assert anon.post("/api/login", bad).json()["error"]["code"] == "bad_login"


def test_failed_logins_are_throttled_per_username_and_per_address(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    clock = FakeClock()
    settings = fast_settings(tmp_path, clock=clock, login_failures_per_user=3, login_failures_per_address=8,
                             login_window_seconds=600)
    with LiveServer(settings) as s:
        register(s, "bob", "bobs password")
        anon = s.client()
        for _ in range(3):
            assert anon.post("/api/login", {"username": "bob", "password": "guess"}).status_code == 401
        r = anon.post("/api/login", {"username": "bob", "password": "bobs password"})  # even the right one
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
        assert 1 <= int(r.headers["Retry-After"]) <= 600
        # a name that does not exist is throttled the same way: the limit tells nothing about who exists
        for _ in range(3):
            assert anon.post("/api/login", {"username": "ghost", "password": "guess"}).status_code == 401
        assert anon.post("/api/login", {"username": "ghost", "password": "guess"}).status_code == 429
        # the address has failed 6 times: two more and every name is closed to it
        for name in ("carol", "dave"):
            assert anon.post("/api/login", {"username": name, "password": "guess"}).status_code == 401
        assert anon.post("/api/login", {"username": "erin", "password": "guess"}).status_code == 429
        clock.advance(601)
        assert anon.post("/api/login", {"username": "bob", "password": "bobs password"}).status_code == 200


def test_a_session_slides_for_30_days_of_disuse_then_expires(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    clock = FakeClock()
    with LiveServer(fast_settings(tmp_path, clock=clock), bot_factory=first_bot) as s:
        me = register(s, "carol")
        guest = s.client("访客")
        for _ in range(3):  # used every 20 days: alive after 60
            clock.advance(20 * DAY)
            assert me.http.get("/api/session").status_code == 200
            assert guest.http.get("/api/session").status_code == 200
        clock.advance(30 * DAY + 1)
        for p in (me, guest):
            r = p.http.get("/api/session")
            assert (r.status_code, r.json()["error"]["code"]) == (401, "no_session")
        tid = s.client("x").ok("/api/tables", {"game": "toy"})["id"]
        assert me.post(f"/api/tables/{tid}/sit", {"seat": 0}).status_code == 401
        fresh = s.client()
        r = fresh.post("/api/login", {"username": "carol", "password": "correct horse"})
        assert r.status_code == 200 and r.json()["player"]["id"] == me.id


def test_a_token_works_as_bearer_cookie_and_query_and_logout_ends_it(settings: Settings) -> None:
    with LiveServer(settings, bot_factory=first_bot) as s:
        me = register(s, "dora")
        other = register(s, "erik")
        tid, [sock] = toy_table(s, [me], start=False)
        assert sock.last_state is not None and sock.last_state["seat"] == 0  # ?token= on the websocket
        cookie_client = s.client()
        cookie_client.http.cookies.set("paiju_session", me.token or "")
        assert cookie_client.http.get("/api/session").json()["player"]["id"] == me.id
        r = me.post("/api/logout")
        assert r.status_code == 200 and "paiju_session" in r.headers.get("set-cookie", "")
        for client in (me, cookie_client):
            assert client.http.get("/api/session").status_code == 401
        assert other.http.get("/api/session").status_code == 200
        spectator = me.socket(tid)  # the dead token watches, it no longer sits
        assert spectator.recv()["seat"] is None


def test_logout_all_ends_every_session_also_in_another_process(settings: Settings) -> None:
    clock = FakeClock()
    settings = settings.with_(clock=clock, session_recheck_seconds=5)
    with LiveServer(settings, bot_factory=first_bot) as one, LiveServer(settings, bot_factory=first_bot) as two:
        me = register(one, "fay")
        phone = two.client()
        r = phone.post("/api/login", {"username": "fay", "password": "correct horse"})
        phone.http.headers["Authorization"] = f"Bearer {r.json()['token']}"
        # an old signed token of this player (before sessions were stored) works too, until logout-all
        legacy = Sessions("test-key").issue(me.id or "")
        old = two.client()
        old.http.headers["Authorization"] = f"Bearer {legacy}"
        for p in (me, phone, old):
            assert p.http.get("/api/session").json()["player"]["id"] == me.id
        assert phone.post("/api/logout-all").status_code == 200
        assert phone.http.get("/api/session").status_code == 401  # this process forgets at once
        assert old.http.get("/api/session").status_code == 401
        clock.advance(5)  # the other process rechecks within session_recheck_seconds
        assert me.http.get("/api/session").status_code == 401
        fresh = one.client()
        fresh.http.headers["Authorization"] = f"Bearer {legacy}"
        assert fresh.http.get("/api/session").status_code == 401  # signed tokens stay dead


def test_changing_the_password_keeps_this_session_and_ends_the_others(settings: Settings) -> None:
    with LiveServer(settings, bot_factory=first_bot) as s:
        me = register(s, "gus", "first password")
        laptop = s.client()
        laptop.http.headers["Authorization"] = "Bearer " + laptop.ok(
            "/api/login", {"username": "gus", "password": "first password"})["token"]
        r = me.post("/api/account/password", {"password": "wrong one!", "new_password": "second password"})
        assert (r.status_code, r.json()["error"]["code"]) == (401, "bad_login")
        r = me.post("/api/account/password", {"password": "first password", "new_password": "short"})
        assert (r.status_code, r.json()["error"]["code"]) == (422, "bad_password")
        assert me.ok("/api/account/password", {"password": "first password", "new_password": "second password"})
        assert me.http.get("/api/session").status_code == 200
        assert laptop.http.get("/api/session").status_code == 401
        anon = s.client()
        assert anon.post("/api/login", {"username": "gus", "password": "first password"}).status_code == 401
        assert anon.post("/api/login", {"username": "gus", "password": "second password"}).status_code == 200
        guest = s.client("访客")
        r = guest.post("/api/account/password", {"password": "x", "new_password": "y" * 8})
        assert (r.status_code, r.json()["error"]["code"]) == (409, "no_account")


def test_a_guest_registers_and_keeps_its_history(settings: Settings) -> None:
    with LiveServer(settings, bot_factory=first_bot) as s:
        guest = s.client("小明")
        pid = guest.id
        deal = {"hands": [["1"], ["2"], ["3"]]}
        tid, [sock] = toy_table(s, [guest], deal=deal, config={"hand_size": 1})
        sock.act("play 1")
        sock.until(lambda m: m["type"] == "update" and m["view"]["pile"] == ["1", "2", "3"])
        history = s.client().http.get(f"/api/players/{pid}").json()
        assert [e["table"] for e in history["ledger"]] == [tid]
        me = register(s, "xiaoming", player=guest)
        assert me.id == pid  # the same player: the history is still theirs
        profile = s.client().http.get(f"/api/players/{pid}").json()
        assert profile["player"] == {"id": pid, "nickname": "小明", "account": True,
                                     "since": profile["player"]["since"]}
        assert [e["table"] for e in profile["ledger"]] == [tid]
        r = me.post("/api/accounts", {"username": "another", "password": "x" * 8})
        assert (r.status_code, r.json()["error"]["code"]) == (409, "has_account")


def test_deleting_an_account_anonymises_it_and_keeps_the_ledger(settings: Settings) -> None:
    with LiveServer(settings, bot_factory=first_bot) as s:
        me = register(s, "hal", nickname="哈尔")
        friend = s.client("朋友")
        tid, socks = toy_table(s, [me, friend], deal={"hands": [["1"], ["1"], ["3"]]}, config={"hand_size": 1})
        r = me.http.request("DELETE", "/api/account", json={"password": "correct horse"})
        assert (r.status_code, r.json()["error"]["code"]) == (409, "at_table")  # mid-match: leave first
        socks[0].act("play 1")
        socks[1].until(lambda m: m["type"] == "update" and m["legal"])
        socks[1].act("take")
        socks[0].until(lambda m: m["type"] == "update" and m["view"]["pile"][-1] == "3")
        r = me.http.request("DELETE", "/api/account", json={"password": "wrong password"})
        assert (r.status_code, r.json()["error"]["code"]) == (401, "bad_login")
        assert me.http.request("DELETE", "/api/account", json={"password": "correct horse"}).status_code == 200
        assert me.http.get("/api/session").status_code == 401
        anon = s.client()
        assert anon.post("/api/login", {"username": "hal", "password": "correct horse"}).status_code == 401
        assert s.client().http.get(f"/api/players/{me.id}").status_code == 404
        board = anon.http.get("/api/leaderboard?game=toy").json()
        assert [row["player"]["id"] for row in board] == [friend.id]
        # the friend's history still names the match; the deleted seat shows no name
        [entry] = friend.http.get(f"/api/players/{friend.id}").json()["ledger"]
        assert entry["table"] == tid and entry["match"]["seats"][0]["player"]["nickname"] == "已注销"
        with s.room.db.engine.connect() as c:
            from paiju.server.scores.ledger import check_balances
            assert check_balances(c) == []
        register(s, "hal")  # the name is free again
