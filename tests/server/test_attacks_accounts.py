"""The attack suite, continued (issue 32): accounts, limits and the export as an attacker tries them — burst
guessing, a squatted host name, wide JSON, session fixation, huge numbers, cross-site posts, the room-number
oracle, report and phrase spam, half-open connections and a re-identifiable export.  Each test is an abuse the
room once let through; the multi-worker ones are in test_attacks_cluster.py."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed

from paiju.cli.main import app as main_app
from paiju.server import Settings

from .attack_kit import drain, errors_in, raw_socket
from .conftest import LiveServer, ToyGame, fast_settings, first_bot, register, toy_table, wait_for
from .test_server_replay import finish_toy


@pytest.fixture
def room(tmp_path: Path, toy_game: type[ToyGame]) -> Iterator[LiveServer]:
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        yield s


def code_of(r: httpx.Response) -> str:
    code: str = r.json()["error"]["code"]
    return code


def burst(url: str, n: int, body: Any, headers: dict[str, str] | None = None,
          last: Any = None) -> list[httpx.Response]:
    """``n`` logins sent at once, each on its own connection (``last``: the body of the final one)."""
    out: list[httpx.Response | None] = [None] * n
    gate = threading.Barrier(n)

    def one(i: int) -> None:
        with httpx.Client(base_url=url, timeout=60) as c:
            gate.wait()
            out[i] = c.post("/api/login", json=last if last is not None and i == n - 1 else body,
                            headers=headers or {})

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return [r for r in out if r is not None]


# ---- 1. burst login guessing ---------------------------------------------------------------------------------

def test_a_burst_of_wrong_logins_gets_no_more_guesses_than_the_limit(room: LiveServer) -> None:
    register(room, "bob", "bobs password")
    got = burst(room.url, 40, {"username": "bob", "password": "guess"})
    checked = [r for r in got if r.status_code == 401]
    assert len(got) == 40 and len(checked) <= 10, [r.status_code for r in got]  # login_failures_per_user
    assert all(r.status_code == 429 and code_of(r) == "too_many_attempts" for r in got if r.status_code != 401)
    anon = room.client()
    while anon.post("/api/login", {"username": "bob", "password": "guess"}).status_code == 401:
        checked.append(got[0])
    assert len(checked) == 10  # the burst and these: ten guesses in all, never more
    # the right password sent last in a burst of 80 is refused with the rest: the guesses are used up
    got = burst(room.url, 80, {"username": "bob", "password": "guess"},
                last={"username": "bob", "password": "bobs password"})
    assert not [r for r in got if r.status_code == 200] and not [r for r in got if r.status_code == 401]


def test_password_checks_of_one_address_run_two_at_a_time(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    slow = fast_settings(tmp_path, argon2_time_cost=3, argon2_memory_kib=65536, login_failures_per_user=1000,
                         login_failures_per_address=1000)  # the real hash's cost, and no count to stop at
    with LiveServer(slow) as s:
        register(s, "bob", "bobs password")
        got = burst(s.url, 12, {"username": "bob", "password": "guess"})
        at_once = [r for r in got if r.status_code == 429]
        assert at_once and all(code_of(r) == "too_many_attempts" and "at once" in r.json()["error"]["message"]
                               for r in at_once)
        assert s.app.state.accounts.attempts.running == {}  # every reservation let go


def test_a_right_password_does_not_count_against_the_limit(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(fast_settings(tmp_path, login_failures_per_user=3)) as s:
        register(s, "bob", "bobs password")
        anon = s.client()
        for _ in range(5):  # five right logins: none is a failure
            assert anon.post("/api/login", {"username": "bob", "password": "bobs password"}).status_code == 200
        for _ in range(3):
            assert anon.post("/api/login", {"username": "bob", "password": "guess"}).status_code == 401
        assert anon.post("/api/login", {"username": "bob", "password": "guess"}).status_code == 429


# ---- 6. password change and deletion use the login limits ----------------------------------------------------

def test_password_change_and_deletion_are_limited_like_logins(room: LiveServer) -> None:
    bob = register(room, "bob", "bobs password")
    codes = [bob.post("/api/account/password", {"password": f"guess {i}", "new_password": "new password"})
             .status_code for i in range(25)]
    assert codes[:10] == [401] * 10 and set(codes[10:]) == {429}, codes
    r = bob.http.request("DELETE", "/api/account", json={"password": "bobs password"})  # even the right one now
    assert r.status_code == 429 and code_of(r) == "too_many_attempts"
    r = room.client().post("/api/login", {"username": "bob", "password": "bobs password"})
    assert r.status_code == 429  # the same count as a login's


# ---- 2. the --admin name ------------------------------------------------------------------------------------

def test_the_admin_name_binds_the_account_at_start_up_and_cannot_be_squatted(
        tmp_path: Path, toy_game: type[ToyGame], caplog: pytest.LogCaptureFixture) -> None:
    settings = fast_settings(tmp_path, admins=("boss",))
    caplog.set_level(logging.WARNING)
    with LiveServer(settings) as s:
        assert any("--admin boss" in r.getMessage() for r in caplog.records)  # no such account: said, not granted
        squatter = register(s, "boss")  # first to register the name
        assert squatter.http.get("/api/host").status_code == 403
    runner = CliRunner()
    args = ["--data-dir", str(settings.data_dir)]
    r = runner.invoke(main_app, ["admin", "create", "chief", "--password-stdin", *args], input="chief's secret\n")
    assert r.exit_code == 0, r.output
    r = runner.invoke(main_app, ["admin", "create", "boss", "--password-stdin", *args], input="whatever pw\n")
    assert r.exit_code == 1 and "taken" in r.output
    with LiveServer(settings.with_(admins=("boss", "chief"))) as s:
        chief = s.client()
        token = chief.ok("/api/login", {"username": "chief", "password": "chief's secret"})["token"]
        chief.http.headers["Authorization"] = f"Bearer {token}"
        assert chief.http.get("/api/host").json()["host"]["name"] == "chief"
        squatter = s.client()
        token = squatter.ok("/api/login", {"username": "boss", "password": "correct horse"})["token"]
        squatter.http.headers["Authorization"] = f"Bearer {token}"
        assert squatter.http.get("/api/host").status_code == 200  # bound at this start: the account that exists
        gone = squatter.http.request("DELETE", "/api/account", json={"password": "correct horse"})
        assert gone.status_code == 200
        again = register(s, "boss")  # the name again, a new account: never a host by its name
        assert again.http.get("/api/host").status_code == 403


# ---- 4 and 12. session rotation --------------------------------------------------------------------------------

def closed_with(sock: Any, timeout: float = 5) -> tuple[int, list[dict[str, Any]]]:
    """The close code a socket gets, and what it received before."""
    got: list[dict[str, Any]] = []
    with pytest.raises(ConnectionClosed) as closed:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got.append(sock.recv(max(0.05, end - time.monotonic())))
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, got


def test_registering_replaces_the_guests_token_and_its_socket_comes_back_to_the_seat(room: LiveServer) -> None:
    guest = room.client("guest")
    old = guest.token
    _tid, [sock] = toy_table(room, [guest])
    register(room, "newbie", player=guest)
    assert guest.token != old
    code, got = closed_with(sock)
    assert code == 4409 and errors_in(got, "session_replaced")
    stale = room.client()
    stale.http.headers["Authorization"] = f"Bearer {old}"
    assert stale.http.get("/api/session").status_code == 401  # the old token names nobody now
    again = guest.socket(_tid)
    state = again.until(lambda m: m["type"] == "snapshot")
    assert state["view"]["hand"] is not None and state["legal"]  # the seat is still theirs: it may act
    again.act(state["legal"][0]["action"])
    assert again.until(lambda m: m["type"] in ("update", "error"))["type"] == "update"


def test_login_replaces_the_session_it_came_with(room: LiveServer) -> None:
    register(room, "bob", "bobs password")
    planted = room.client("planted")  # a token someone else knows
    old = planted.token
    new = planted.ok("/api/login", {"username": "bob", "password": "bobs password"})["token"]
    other = room.client()
    other.http.headers["Authorization"] = f"Bearer {old}"
    assert other.http.get("/api/session").status_code == 401
    other.http.headers["Authorization"] = f"Bearer {new}"
    assert other.http.get("/api/session").status_code == 200


def test_logout_all_and_a_password_change_close_the_sockets_of_the_ended_sessions(room: LiveServer) -> None:
    me = register(room, "mine", "my password")
    thief = room.client()
    thief.token = thief.ok("/api/login", {"username": "mine", "password": "my password"})["token"]
    tid, [mine] = toy_table(room, [me], start=False)
    stolen = raw_socket(room, tid, thief.token)
    stolen.recv()
    me.ok("/api/account/password", {"password": "my password", "new_password": "better password"})
    code, got = closed_with(stolen)
    assert code == 4401 and errors_in(got, "session_ended")
    mine.send({"type": "ping"})
    assert mine.until(lambda m: m["type"] == "pong")  # this session's socket stays
    me.ok("/api/logout-all")
    assert closed_with(mine)[0] == 4401


# ---- 5. malformed numbers ------------------------------------------------------------------------------------

def test_malformed_numbers_and_strings_are_a_400_and_a_bad_message_with_no_traceback(
        room: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    me = room.client("me")
    _tid, [sock] = toy_table(room, [me])
    caplog.set_level(logging.INFO)
    for number in ("9" * 5000, "NaN", "1e999", '"\\ud800"'):
        bad = '{"game": "toy", "config": {"hand_size": ' + number + "}}"
        r = me.http.post("/api/tables", content=bad, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and code_of(r) == "bad_json", r.text
        r = httpx.post(f"{room.url}/api/session", content=bad, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and code_of(r) == "bad_json"  # no session needed to try
        sock.send('{"type": "act", "action": "x", "seq": ' + number + "}")
        assert sock.until(lambda m: m["type"] == "error")["code"] == "bad_message"
    for path in ("/api/tables?limit=" + "9" * 5000, "/api/tables?limit=٣",
                 "/api/leaderboard?game=toy&cursor=WzEsMiwiYSJd&rank_from=" + "9" * 5000):
        r = me.http.get(path)
        assert r.status_code == 422, (path[:40], r.text)
    sock.send({"type": "ping"})
    assert sock.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]


# ---- 7. cross-site requests ----------------------------------------------------------------------------------

def test_a_cross_site_form_or_page_cannot_log_in_or_post(room: LiveServer) -> None:
    register(room, "bob", "bobs password")
    body = json.dumps({"username": "bob", "password": "bobs password"})
    http = room.resources.enter_context(httpx.Client(base_url=room.url, timeout=10))
    r = http.post("/api/login", content=body, headers={"Content-Type": "text/plain", "Origin": "http://evil.example"})
    assert r.status_code == 403 and code_of(r) == "bad_origin" and "set-cookie" not in r.headers
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        r = http.post("/api/login", content=body, headers={"Content-Type": ctype})
        assert r.status_code == 415 and code_of(r) == "bad_content_type", ctype
    r = http.post("/api/login", content=body,
                  headers={"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403 and code_of(r) == "bad_origin"
    r = http.post("/api/session", json={"nickname": "x"}, headers={"Origin": "null"})
    assert r.status_code == 403
    # our own page, and a program (neither header) go through as before
    assert http.post("/api/login", content=body, headers={"Content-Type": "application/json", "Origin": room.url,
                                                          "Sec-Fetch-Site": "same-origin"}).status_code == 200
    me = room.client("me")
    assert me.post("/api/tables", {"game": "toy"}).status_code == 201
    tid = me.ok("/api/tables", {"game": "toy"})["id"]
    assert me.http.post(f"/api/tables/{tid}/sit", json={"seat": 0}).status_code == 200
    assert me.http.post(f"/api/tables/{tid}/leave").status_code == 200  # no body and no type: nothing to forge


# ---- 8. the room-number oracle --------------------------------------------------------------------------------

def test_a_private_rooms_number_answers_as_a_free_one_and_lookups_are_counted(room: LiveServer) -> None:
    owner, snoop = room.client("owner"), room.client("snoop")
    private = owner.ok("/api/tables", {"game": "toy", "private": True})
    free = next(str(n) for n in range(100000, 100100) if str(n) != private["number"])
    held, nothing = snoop.http.get(f"/api/rooms/{private['number']}"), snoop.http.get(f"/api/rooms/{free}")
    assert held.status_code == nothing.status_code == 404
    assert code_of(held) == code_of(nothing) == "no_room"
    assert held.json()["error"]["message"].replace(private["number"], "N") == \
        nothing.json()["error"]["message"].replace(free, "N")
    assert snoop.http.get(f"/api/rooms/{private['number']}?invite={private['invite']}").json()["id"] == private["id"]
    codes = [snoop.http.get(f"/api/rooms/{100200 + i}").status_code for i in range(20)]
    assert codes.count(429) >= 1 and codes[:17] == [404] * 17  # 20 a minute per session, this one's 21st on
    r = snoop.http.get(f"/api/rooms/{free}")
    assert r.status_code == 429 and code_of(r) == "rate_limited" and "Retry-After" in r.headers


# ---- 9. reports -------------------------------------------------------------------------------------------------

def test_reports_are_capped_and_a_fresh_guest_must_play_a_hand_first(tmp_path: Path,
                                                                       toy_game: type[ToyGame]) -> None:
    with LiveServer(fast_settings(tmp_path, reports_per_day=3), bot_factory=first_bot) as room:
        reports_capped(room)


def reports_capped(room: LiveServer) -> None:
    target = room.client("target")
    spammers = [room.client(f"s{i}") for i in range(6)]
    tid, _ = toy_table(room, [target])
    for s in spammers:  # fresh guests: nothing played
        r = s.post(f"/api/tables/{tid}/report", {"seat": 0, "reason": "spam"})
        assert r.status_code == 403 and code_of(r) == "play_first"
    a, b = room.client("a"), room.client("b")
    done, _ = finish_toy(room, [a, b])  # a whole match: a hand at least
    assert a.post(f"/api/tables/{done}/report", {"seat": 1, "reason": "rude"}).status_code == 201
    r = a.post(f"/api/tables/{done}/report", {"seat": 1, "reason": "rude again"})
    assert r.status_code == 429 and code_of(r) == "too_many_reports"  # one a day about one player
    member = register(room, "member")  # an account may report at once, up to reports_per_day
    owner = room.client("owner")
    tables = [toy_table(room, [owner], start=False)[0] for _ in range(4)]
    codes = [member.post(f"/api/tables/{t}/report", {"seat": 1, "reason": "x"}).status_code for t in tables]
    assert codes == [201, 201, 201, 429]  # a bot's seat at each table: four targets, three a day


# ---- 10. quick phrases per player ------------------------------------------------------------------------------

def test_quick_phrases_are_limited_per_player_over_all_their_sockets(room: LiveServer) -> None:
    me, other = room.client("me"), room.client("other")
    tid, socks = toy_table(room, [me, other], start=False)
    extra = [me.socket(tid) for _ in range(8)]
    for x in extra:
        x.recv()
    for sock in [socks[0], *extra]:  # nine sockets, two phrases each
        for _ in range(2):
            sock.send({"type": "phrase", "phrase": "nice"})
    bubbles = [m for m in drain(socks[1], 1.0) if m["type"] == "phrase"]
    assert len(bubbles) == 3  # phrase_burst, however many sockets


# ---- 3. wide JSON -----------------------------------------------------------------------------------------------

def test_a_message_over_the_cap_closes_1009_and_wide_json_spends_the_address_budget(
        tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(fast_settings(tmp_path, ws_bytes_per_second_per_address=8192)) as s:  # 16 KB per 2 s
        me = s.client("me")
        tid, [sock] = toy_table(s, [me], start=False)
        wide = '{"type": "ping", "x": [' + ",".join(["[]"] * 2600) + "]}"  # 7.8 KB: under the cap
        for _ in range(6):
            sock.send(wide)
        got = drain(sock, 0.5)
        assert len([m for m in got if m["type"] == "pong"]) == 2 and len(errors_in(got, "rate_limited")) == 4
        big = raw_socket(s, tid, me.token)
        big.recv()
        big.send('{"type": "ping", "x": "' + "x" * 9000 + '"}')
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(5):
                big.recv(2)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


# ---- 11. raw connections -----------------------------------------------------------------------------------------

def half_sent(port: int, n: int) -> list[socket.socket]:
    out = []
    for _ in range(n):
        c = socket.create_connection(("127.0.0.1", port), timeout=5)
        c.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # never the blank line that ends the head
        out.append(c)
    return out


def answer(c: socket.socket, timeout: float = 5) -> bytes:
    c.settimeout(timeout)
    try:
        return c.recv(4096)
    except TimeoutError:
        return b"(nothing)"


def test_half_sent_requests_are_capped_per_address_and_timed_out(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(fast_settings(tmp_path, tcp_connections_per_address=5, header_timeout_seconds=1.0)) as s:
        held = half_sent(s.port, 5)
        [sixth] = half_sent(s.port, 1)
        refused = answer(sixth)
        assert refused.startswith(b"HTTP/1.1 429") and b"too_many_connections" in refused
        started = time.monotonic()
        timed_out = answer(held[0])
        assert timed_out.startswith(b"HTTP/1.1 408") and time.monotonic() - started < 3
        wait_for(lambda: s.app.state.room is not None and httpx.get(f"{s.url}/api/games").status_code == 200)
        for c in [*held, sixth]:
            c.close()


def test_a_trusted_proxys_connections_are_not_capped(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(fast_settings(tmp_path, tcp_connections_per_address=3, trusted_proxies=("127.0.0.1",))) as s:
        held = half_sent(s.port, 8)
        assert httpx.get(f"{s.url}/api/games", timeout=5).status_code == 200
        for c in held:
            c.close()


# ---- 13. the export ----------------------------------------------------------------------------------------------

def finish_private(s: LiveServer, a: Any, b: Any) -> str:
    """finish_toy's match at a private table, b joining by its invite."""
    made = a.ok("/api/tables", {"game": "toy", "private": True, "config": {"hand_size": 2},
                                "deal": {"hands": [["1", "2"], ["1", "4"], ["5", "6"]]}})
    tid, invite = str(made["id"]), str(made["invite"])
    a.ok(f"/api/tables/{tid}/sit", {"seat": 0})
    b.ok(f"/api/tables/{tid}/sit", {"seat": 1, "invite": invite})
    a.ok(f"/api/tables/{tid}/bots")
    socks = [a.socket(tid), b.socket(tid, f"invite={invite}")]
    for sock in socks:
        sock.recv()
    a.ok(f"/api/tables/{tid}/start")
    for seat, action in ((0, "play 1"), (1, "take"), (1, "play 4"), (0, "play 2")):
        socks[seat].until(lambda m: m["type"] in ("snapshot", "update") and bool(m["legal"]))
        socks[seat].act(action)
    socks[0].until(lambda m: m["type"] == "update" and m["view"]["finished"])
    return tid


def public_answers(s: LiveServer, people: list[Any], tables: list[str]) -> str:
    """Everything anyone may read without an invite: profiles, leaderboards, the replays of public matches."""
    anon = s.client()
    texts = [anon.http.get(f"/api/players/{p.id}").text for p in people]
    texts.append(anon.http.get("/api/leaderboard?game=toy").text)
    for t in tables:
        r = anon.http.get(f"/api/tables/{t}/replay")
        if r.status_code == 200:
            texts.append(r.text)
            texts.append(anon.http.get(f"/api/tables/{t}/record").text)
    return "\n".join(texts)


def test_the_export_does_not_follow_a_player_from_public_matches_into_private_ones(
        tmp_path: Path, toy_game: type[ToyGame]) -> None:
    settings = fast_settings(tmp_path)
    with LiveServer(settings, bot_factory=first_bot) as s:
        a, b = register(s, "alice"), register(s, "bobby")
        public = [finish_toy(s, [a, b])[0] for _ in range(2)]
        private = [finish_private(s, a, b) for _ in range(2)]
        answers = public_answers(s, [a, b], public + private)
    runner = CliRunner()
    base = ["export", "--anonymize", "--data-dir", str(settings.data_dir)]
    records = [json.loads(line) for line in runner.invoke(main_app, base).stdout.splitlines()]
    assert len(records) == 4
    pub = [r for r in records if not r["private"]]
    priv = [r for r in records if r["private"]]
    assert len(pub) == len(priv) == 2
    seats = {id(r): {x["player"]["id"] for x in r["seats"] if x["player"]} for r in records}
    public_names = set().union(*(seats[id(r)] for r in pub))
    assert len(public_names) == 2  # a public match's people keep one pseudonym each: its replay names them
    for r in priv:
        assert not seats[id(r)] & public_names  # no pseudonym leads from a public match here
        assert all(not seats[id(r)] & seats[id(o)] for o in priv if o is not r)  # nor from the other private one
        for at in (r["started_at"], r["finished_at"]):
            assert at % 86400 == 0 and repr(at) not in answers  # the day, not the moment
        assert all(t < 3600 for t in r["times"]) and not any(repr(t) in answers for t in r["times"] if t > 1)
        assert str(r["seed"]) not in answers  # a private seed is in no public answer
    for r in pub:  # a public one joins its replay exactly (public by design), on seed, moves and times
        assert str(r["seed"]) in answers and repr(r["finished_at"]) in answers
    again = [json.loads(line) for line in runner.invoke(main_app, base).stdout.splitlines()]
    assert not public_names & {x["player"]["id"] for r in again for x in r["seats"] if x["player"]}  # new key
    keyed = [runner.invoke(main_app, [*base, "--key", "k1"]).stdout for _ in range(2)]
    assert keyed[0] == keyed[1]  # the same key, on purpose: the same pseudonyms


def test_settings_for_the_new_rules_have_their_defaults() -> None:
    s = Settings()
    assert (s.ws_max_message_bytes, s.ws_bytes_per_second_per_address, s.tcp_connections_per_address,
            s.header_timeout_seconds, s.password_checks_per_address, s.reports_per_day,
            s.reports_per_target_per_day, s.room_lookups_per_minute_per_address) == \
        (8192, 65536, 320, 10.0, 2, 10, 1, 30)
