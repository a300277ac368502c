"""The attacks of issue 32 that a second worker could reopen, tried on two ``paiju serve`` workers of one room
(PostgreSQL and Redis): a burst of guesses split over both, a session ended at one worker whose sockets live at
the other, and reports spread over both.  One worker's own counts or its own sockets would let each of these
through; the single-process versions are in test_attacks_accounts.py."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from . import test_server_cluster as two
from .attack_kit import errors_in
from .conftest import wait_for
from .test_attacks_accounts import closed_with
from .test_server_cluster import PG_URL, REDIS_URL, SHORT, Client, Worker, _account

cluster, database = two.cluster, two.database
"""The two-worker room's fixtures (test_server_cluster.py): ``cluster(n)`` starts n workers on a database of
the test's own."""

pytestmark = [pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.skipif(not PG_URL or not REDIS_URL,
                                 reason="the multi-worker tests need PAIJU_TEST_POSTGRES_URL and PAIJU_TEST_REDIS_URL "
                                        "(.ci/run sets both)")]

PER_USER = 10
"""Settings.login_failures_per_user (the workers run with the default)."""


def at_once(calls: list[tuple[Worker, Callable[[httpx.Client], httpx.Response]]]) -> list[httpx.Response]:
    """Each call on a connection of its own to its worker, all released together by a barrier: the requests
    arrive while the others are still being checked, as a burst does."""
    out: list[httpx.Response | None] = [None] * len(calls)
    gate = threading.Barrier(len(calls))

    def one(i: int) -> None:
        worker, call = calls[i]
        with httpx.Client(base_url=f"http://127.0.0.1:{worker.port}", timeout=60) as http:
            http.get("/healthz")  # connected before the gate opens
            gate.wait()
            out[i] = call(http)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    got = [r for r in out if r is not None]
    assert len(got) == len(calls)
    return got


def code_of(r: httpx.Response) -> str:
    code: str = r.json()["error"]["code"]
    return code


def statuses(got: list[httpx.Response]) -> list[int]:
    return sorted(r.status_code for r in got)


# ---- 1 and 6. login attempts, reserved in Redis before the hash -------------------------------------------------

def test_a_burst_of_wrong_logins_split_over_two_workers_gets_no_more_guesses_than_the_limit(cluster: Any) -> None:
    """40 guesses at once, half at each worker: a check before the hash (counted after it) let all 40 through,
    and counts kept per worker would let 10 through at each."""
    a, b = cluster(2)
    _account(cluster, a, "ren")
    def guess(http: httpx.Client) -> httpx.Response:
        return http.post("/api/login", json={"username": "ren", "password": "a guess"})

    got = at_once([(a if i % 2 else b, guess) for i in range(40)])
    checked = [r for r in got if r.status_code == 401]
    assert len(checked) <= PER_USER, statuses(got)
    assert all(r.status_code == 429 and code_of(r) == "too_many_attempts" for r in got if r.status_code != 401)
    more = 0
    while (a if more % 2 else b).http.post("/api/login", json={"username": "ren", "password": "again"}
                                           ).status_code == 401:
        more += 1
        assert len(checked) + more <= PER_USER
    assert len(checked) + more == PER_USER  # ten guesses in all, over both workers, never more
    for w in (a, b):  # the right password sent now is refused with the rest, at either worker
        r = w.http.post("/api/login", json={"username": "ren", "password": "correct horse"})
        assert r.status_code == 429 and code_of(r) == "too_many_attempts", r.text


def test_right_passwords_at_either_worker_give_their_reservation_back(cluster: Any) -> None:
    """A right password's reservation is taken back in Redis, wherever it was made: only failures count."""
    a, b = cluster(2)
    _account(cluster, a, "mao")
    for i in range(PER_USER + 2):
        r = (a if i % 2 else b).http.post("/api/login", json={"username": "mao", "password": "correct horse"})
        assert r.status_code == 200, r.text
    def right(http: httpx.Client) -> httpx.Response:
        return http.post("/api/login", json={"username": "mao", "password": "correct horse"})

    assert statuses(at_once([(a if i % 2 else b, right) for i in range(6)])) == [200] * 6
    for i in range(PER_USER):
        assert (a if i % 2 else b).http.post("/api/login", json={"username": "mao", "password": "no"}
                                             ).status_code == 401
    assert b.http.post("/api/login", json={"username": "mao", "password": "no"}).status_code == 429


def test_password_changes_split_over_two_workers_share_the_login_limit(cluster: Any) -> None:
    """A stolen session guessing the current password at both workers at once gets the login's ten guesses in
    all, and the guesses count against logins and deletion at either worker."""
    a, b = cluster(2)
    me = _account(cluster, a, "mei")
    auth = {"Authorization": f"Bearer {me.token}"}

    def change(i: int) -> Callable[[httpx.Client], httpx.Response]:
        return lambda http: http.post("/api/account/password",
                                      json={"password": f"guess {i}", "new_password": "a new password"}, headers=auth)

    got = at_once([(a if i % 2 else b, change(i)) for i in range(24)])
    assert len([r for r in got if r.status_code == 401]) == PER_USER, statuses(got)  # reserved in Redis, exactly
    assert all(code_of(r) == "too_many_attempts" for r in got if r.status_code == 429)
    assert {r.status_code for r in got} <= {401, 429}
    r = b.http.post("/api/login", json={"username": "mei", "password": "correct horse"})
    assert r.status_code == 429 and code_of(r) == "too_many_attempts"  # the same count as a login's
    r = a.http.request("DELETE", "/api/account", json={"password": "correct horse"}, headers=auth)
    assert r.status_code == 429 and code_of(r) == "too_many_attempts"


# ---- 4 and 12. sessions that end at one worker close their sockets at the other ----------------------------------

def test_registering_at_one_worker_sends_the_guests_socket_at_the_other_back_to_its_seat(cluster: Any) -> None:
    a, b = cluster(2)
    guest = Client(cluster, a, "甲")
    old = guest.token
    tid = guest.ok(a, "/api/tables", {"game": "shuiyu", "config": SHORT})["id"]
    guest.ok(a, f"/api/tables/{tid}/sit", {"seat": 0})
    guest.ok(a, f"/api/tables/{tid}/bots")
    sock = guest.socket(b, tid)  # at b, relayed to a, the table's owner
    assert sock.state()["type"] == "snapshot"
    guest.ok(a, f"/api/tables/{tid}/start")
    sock.state()
    made = guest.ok(a, "/api/accounts", {"username": "jia", "password": "correct horse"})
    guest.token = made["token"]
    assert guest.token != old and made["player"]["id"] == guest.id
    code, got = closed_with(sock)  # b heard of it at once: 4409, come back with the new token
    assert code == 4409 and errors_in(got, "session_replaced"), (code, got)
    stale = b.http.get("/api/session", headers={"Authorization": f"Bearer {old}"})
    assert stale.status_code == 401  # the old token names nobody, at b either
    again = guest.socket(b, tid)
    state = again.state()
    assert state["type"] == "snapshot" and state["seat"] == 0 and state["view"] is not None, state


def test_a_login_at_one_worker_closes_the_replaced_sessions_socket_at_the_other(cluster: Any) -> None:
    a, b = cluster(2)
    _account(cluster, a, "yiyi")
    planted = Client(cluster, b, "乙")  # a token someone else knows, with a socket open at b
    tid = planted.ok(b, "/api/tables", {"game": "shuiyu", "config": SHORT})["id"]
    sock = planted.socket(b, tid)
    assert sock.state()["type"] == "snapshot"
    r = planted.post(a, "/api/login", {"username": "yiyi", "password": "correct horse"})
    assert r.status_code == 200, r.text
    code, got = closed_with(sock)
    assert code == 4409 and errors_in(got, "session_replaced"), (code, got)


def test_a_password_change_and_logout_all_at_one_worker_close_sockets_at_the_other(cluster: Any) -> None:
    """A stolen token's sockets at the other worker close at once (4401) when the owner changes the password;
    the owner's own session's socket stays until logout-all, which closes it too."""
    a, b = cluster(2)
    me = _account(cluster, a, "bing")
    thief = Client(cluster, b, "贼")
    thief.token, thief.id = thief.ok(b, "/api/login", {"username": "bing", "password": "correct horse"})["token"], me.id
    tid = me.ok(a, "/api/tables", {"game": "shuiyu", "config": SHORT})["id"]
    me.ok(a, f"/api/tables/{tid}/sit", {"seat": 0})
    mine, stolen_b, stolen_a = me.socket(b, tid), thief.socket(b, tid), thief.socket(a, tid)
    for s in (mine, stolen_b, stolen_a):
        assert s.state()["type"] == "snapshot"
    me.ok(a, "/api/account/password", {"password": "correct horse", "new_password": "a better password"})
    for s in (stolen_b, stolen_a):  # the other worker's as well as the one that changed it
        code, got = closed_with(s)
        assert code == 4401 and errors_in(got, "session_ended"), (code, got)
    mine.send({"type": "ping"})
    assert mine.until(lambda m: m["type"] == "pong")  # this session's socket stays
    assert b.http.get("/api/session", headers={"Authorization": f"Bearer {thief.token}"}).status_code == 401
    me.ok(a, "/api/logout-all")
    code, got = closed_with(mine)
    assert code == 4401 and errors_in(got, "session_ended"), (code, got)


# ---- 9. reports -------------------------------------------------------------------------------------------------

def held_inserts(database: str, waiting: int, send: Callable[[], list[httpx.Response]]) -> list[httpx.Response]:
    """``send()``'s answers, sent while the test holds every insert into ``reports`` (a slow database): released
    once ``waiting`` of the workers' transactions wait on a lock, counted and about to insert.  Each worker's
    count then runs while the other's insert is not committed yet, every time: without the reporter's row locked
    while counting, both get in."""
    engine = create_engine(database)
    out: list[list[httpx.Response]] = []
    try:
        with engine.connect() as held:
            held.execute(text("LOCK TABLE reports IN SHARE MODE"))  # reads go on, inserts wait
            sender = threading.Thread(target=lambda: out.append(send()))
            sender.start()
            try:
                wait_for(lambda: (held.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock'")).scalar() or 0) >= waiting, 15)
            finally:
                held.rollback()  # the lock goes
            sender.join(60)
    finally:
        engine.dispose()
    assert len(out) == 1
    return out[0]


def test_report_caps_hold_when_one_reporter_spreads_reports_over_two_workers(cluster: Any) -> None:
    """Reports sent at once to both workers, while the database is slow to insert: the per-target and per-day
    caps are counted one worker after the other (the reporter's row is locked while counting)."""
    per_day = 3
    a, b = cluster(2, None, "--reports-per-day", str(per_day))
    reporter = _account(cluster, a, "ding")
    auth = {"Authorization": f"Bearer {reporter.token}"}
    target = Client(cluster, a, "靶")
    seated = target.ok(a, "/api/tables", {"game": "shuiyu"})["id"]
    target.ok(a, f"/api/tables/{seated}/sit", {"seat": 0})

    def report(tid: str, seat: int) -> Callable[[httpx.Client], httpx.Response]:
        return lambda http: http.post(f"/api/tables/{tid}/report", json={"seat": seat, "reason": "spam"},
                                      headers=auth)

    got = held_inserts(cluster.database, 2, lambda: at_once([(a, report(seated, 0)), (b, report(seated, 0))]))
    assert statuses(got) == [201, 429]  # one a day about one player, however many workers
    assert all(code_of(r) == "too_many_reports" for r in got if r.status_code == 429)
    owner = Client(cluster, b, "东")
    tables = [owner.ok(b, "/api/tables", {"game": "shuiyu"})["id"] for _ in range(4)]  # a seat of each: 4 targets
    got = held_inserts(cluster.database, 2, lambda: at_once([(a if i % 2 else b, report(t, 1))
                                                              for i, t in enumerate(tables)]))
    assert statuses(got) == [201] * (per_day - 1) + [429] * (4 - per_day + 1), statuses(got)  # one filed already
    assert all(code_of(r) == "too_many_reports" for r in got if r.status_code == 429)
    r = reporter.post(b, f"/api/tables/{tables[0]}/report", {"seat": 2, "reason": "one more"})
    assert r.status_code == 429 and code_of(r) == "too_many_reports"  # the day's count, read at either worker
