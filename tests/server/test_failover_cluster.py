"""A worker killed under load (issue 36): its tables come back at the survivor in seconds, the ones clients ask
for first; until then every client hears "try again" with a hint (4503), never 403; no confirmed move is lost and
every finished match is booked once, the one the dead worker left unbooked included.

Real processes and services, as test_server_cluster.py (whose fixtures and helpers this reuses).
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from .conftest import wait_for
from .test_server_cluster import Client, Worker, cluster, database, play_until, pytestmark  # noqa: F401  # noqa: F401  (the fixtures)

RETRY = 0.2
"""How often a client tries again, whatever the hint says (the issue's storm)."""


@dataclass
class Seen:
    """What one client of one table saw."""

    table: str
    token: str
    plays: bool
    last_seq: int = -1
    """The last state (snapshot or update) it was sent: every move up to it was confirmed."""
    seq_at_kill: int | None = None
    served_again: float | None = None
    back_seq: int | None = None
    refusals: list[tuple[int, str]] = field(default_factory=list)
    """(close code or HTTP status, reason) of every refused or dropped attempt after the kill."""
    hints: list[Any] = field(default_factory=list)
    finished: bool = False


async def _client(seen: Seen, port: list[int], killed: threading.Event, stop: threading.Event) -> None:
    """Connect, watch (or play: first legal action, 0.2 s after each turn comes), and come back every 0.2 s
    whenever the socket is refused or drops."""
    while not stop.is_set():
        url = f"ws://127.0.0.1:{port[0]}/ws/tables/{seen.table}?token={seen.token}"
        try:
            async with connect(url, open_timeout=10) as ws:
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] == "error" and msg.get("code") == "owner_unavailable":
                        seen.hints.append(msg.get("retry_after"))
                    if msg["type"] not in ("snapshot", "update"):
                        continue
                    if msg["type"] == "snapshot" and killed.is_set() and seen.served_again is None:
                        seen.served_again, seen.back_seq = time.monotonic(), msg["seq"]
                    seen.last_seq = msg["seq"]
                    view = msg.get("view")
                    if view is not None and view.get("finished"):
                        seen.finished = True
                    if seen.plays and msg.get("legal") and not seen.finished:
                        await asyncio.sleep(0.2)
                        await ws.send(json.dumps({"type": "act", "action": msg["legal"][0]["action"],
                                                  "seq": msg["seq"]}))
                    if stop.is_set():
                        return
                if killed.is_set() and ws.close_code is not None:
                    seen.refusals.append((ws.close_code, ws.close_reason or ""))
        except InvalidStatus as e:
            seen.refusals.append((e.response.status_code, ""))
        except ConnectionClosed as e:
            if killed.is_set() and e.rcvd is not None:
                seen.refusals.append((e.rcvd.code, e.rcvd.reason))
        except OSError:
            pass
        await asyncio.sleep(RETRY)


def _tables(client: Client, worker: Worker, n: int, body: dict[str, Any]) -> list[str]:
    return [client.ok(worker, "/api/tables", body)["id"] for _ in range(n)]


def test_a_killed_worker_under_load_comes_back_asked_for_tables_first(cluster: Any) -> None:  # noqa: F811
    a, b = cluster(2, None, "--bot-delay", "0", "--rated-bots", "3")
    # the load, all at a: 200 waiting tables nobody watches, 40 watched by their seated creator, and 16 matches
    # (one person, three bots, rated) played by their person, 0.2 s per decision
    quiet, watched, playing, people = [], [], [], []
    for i in range(20):
        quiet += _tables(Client(cluster, a, f"静{i}"), a, 10, {"game": "shuiyu"})
    for i in range(4):
        p = Client(cluster, a, f"看{i}")
        watched += [(tid, p.token) for tid in _tables(p, a, 10, {"game": "shuiyu"})]
    for i in range(16):
        p = Client(cluster, a, f"打{i}")
        (tid,) = _tables(p, a, 1, {"game": "huashui", "config": {"hands": 1}})
        p.ok(a, f"/api/tables/{tid}/bots")
        playing.append((tid, p.token))
        people.append(p)
    # a casual match a finished but did not book: the state a crash between its last move and its booking leaves
    c = Client(cluster, a, "账")
    (left,) = _tables(c, a, 1, {"game": "huashui", "config": {"hands": 1}, "rated": False})
    c.ok(a, f"/api/tables/{left}/bots")
    sock = c.socket(a, left)
    sock.state()
    c.ok(a, f"/api/tables/{left}/start")
    play_until(sock, lambda s: s["view"] is not None and s["view"]["finished"], 60)
    sock.close()
    engine = create_engine(cluster.database)

    def booked(tid: str) -> Any:
        with engine.connect() as conn:
            return conn.execute(text("SELECT booked_at FROM table_scoring WHERE table_id = :t"), {"t": tid}).scalar()

    wait_for(lambda: booked(left) is not None, 10)
    with engine.begin() as conn:
        conn.execute(text("UPDATE table_scoring SET booked_at = NULL WHERE table_id = :t"), {"t": left})

    seen = [Seen(tid, token, False) for tid, token in watched] + [Seen(tid, token, True) for tid, token in playing]
    port, killed, stop = [a.port], threading.Event(), threading.Event()
    loop = asyncio.new_event_loop()

    async def everyone() -> None:
        tasks = [asyncio.create_task(_client(s, port, killed, stop)) for s in seen]
        while not stop.is_set():
            await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    runner = threading.Thread(target=loop.run_until_complete, args=(everyone(),), daemon=True)
    runner.start()
    try:
        wait_for(lambda: all(s.last_seq >= 0 for s in seen), 20)
        for p, (tid, _token) in zip(people, playing, strict=True):
            p.ok(a, f"/api/tables/{tid}/start")
        wait_for(lambda: all(s.last_seq >= 3 for s in seen if s.plays), 20)  # the matches are under way
        for s in seen:
            s.seq_at_kill = s.last_seq
        port[0] = b.port  # from now on every client comes back to the survivor
        killed.set()
        a.stop(signal.SIGKILL)
        kill = time.monotonic()
        answers: list[tuple[int, str | None]] = []

        def ask_over_http() -> None:  # a lobby read of a table nobody serves yet: 503 and when to come back
            while not stop.is_set() and time.monotonic() - kill < 10:
                r = b.http.get(f"/api/tables/{quiet[-1]}/rematch")
                answers.append((r.status_code, r.headers.get("retry-after")))
                if r.status_code != 503:
                    return
                time.sleep(RETRY)

        asking = threading.Thread(target=ask_over_http, daemon=True)
        asking.start()
        total = len(quiet) + len(seen)
        wait_for(lambda: all(s.served_again is not None for s in seen), 30)
        # every table is back at b: each unfinished one under a new owner epoch
        with engine.connect() as conn:
            def back() -> bool:
                return conn.execute(text("SELECT count(*) FROM card_tables WHERE status IN ('waiting', 'playing') "
                                         "AND owner_epoch IS DISTINCT FROM 2")).scalar() == 0
            wait_for(back, 30)
        all_back = time.monotonic() - kill
        # the survivor books what a left unbooked, without a restart
        wait_for(lambda: booked(left) is not None, 10)
        wait_for(lambda: all(s.finished for s in seen if s.plays), 60)
    finally:
        stop.set()
        runner.join(15)
        loop.close()
    asking.join(10)
    assert answers[0][0] == 503 and all(int(after or 0) >= 1 for status, after in answers if status == 503), answers
    assert all(status != 403 for status, _after in answers), answers
    waits = sorted(s.served_again - kill for s in seen if s.served_again is not None)
    assert all_back < 20 and waits[-1] < 15, (all_back, waits[-5:])  # generous, on 2 busy cores
    # "try again" with a hint, never 403 (nor 404: the table is there)
    refusals = [r for s in seen for r in s.refusals]
    assert refusals, "nobody was refused: the kill was not under way"
    assert all(code == 4503 for code, _reason in refusals), \
        sorted({code for code, _ in refusals})
    moving = [reason for code, reason in refusals if code == 4503]
    assert moving and all(json.loads(r)["retry_after_ms"] > 0 for r in moving)
    assert all(h is not None and h > 0 for s in seen for h in s.hints)
    # no confirmed move lost: each table came back at least where its client last saw it
    for s in seen:
        assert s.back_seq is not None and s.seq_at_kill is not None and s.back_seq >= s.seq_at_kill, s
    # the asked-for tables were replayed before the ones nobody asked for
    order = [m.group(1) for m in re.finditer(r"took table (\S+) over", b.log.read_text())]
    place = {tid: i for i, tid in enumerate(order)}
    asked = sorted(place[s.table] for s in seen if s.table in place)
    unasked = sorted(place[tid] for tid in quiet if tid in place)
    assert len(asked) + len(unasked) >= total - 16  # all but the matches a finished first
    # (in the order of the survivor's replays; by chance, the asked-for ones would be spread over all of it)
    assert asked[len(asked) // 2] < unasked[len(unasked) // 4], (asked, unasked)
    assert asked[int(len(asked) * 0.9)] < unasked[len(unasked) * 3 // 4], (asked, unasked)
    # each finished match booked once: a's, b's and the one a left
    with engine.connect() as conn:
        finished = [r.id for r in conn.execute(text("SELECT id FROM card_tables WHERE status = 'finished'"))]
        assert left in finished and len(finished) == 17
        unbooked = conn.execute(text("SELECT count(*) FROM card_tables t LEFT JOIN table_scoring s ON "
                                     "s.table_id = t.id WHERE t.status = 'finished' AND s.booked_at IS NULL"))
        assert unbooked.scalar() == 0
        entries = conn.execute(text("SELECT table_id, player_id, count(*) AS n FROM ledger WHERE reason IN "
                                    "('match', 'under_3_minutes') GROUP BY table_id, player_id")).all()
        assert {r.table_id for r in entries} == {tid for tid, _ in playing} and all(r.n == 1 for r in entries)
        from paiju.server.scores import ledger as lg
        assert lg.check_balances(conn) == []
    engine.dispose()


def test_a_reconnect_storm_from_one_address_is_throttled(cluster: Any) -> None:  # noqa: F811
    """Until a dead worker's table is back, one address asking again and again gets "try again" at once with a
    longer hint once past its refusals a second (20, two-second bursts), never a 403."""
    from websockets.sync.client import connect as connect_sync

    a, b = cluster(2, None, "--address-limit-factor", "1")
    p = Client(cluster, a, "暴")
    tid = p.ok(a, "/api/tables", {"game": "shuiyu"})["id"]
    a.stop(signal.SIGKILL)
    hints: list[int] = []
    for _ in range(80):  # well before a's lease runs out (3 s)
        try:
            with connect_sync(f"ws://127.0.0.1:{b.port}/ws/tables/{tid}?token={p.token}", open_timeout=5) as ws:
                while True:
                    msg = json.loads(ws.recv(timeout=5))
                    assert msg["type"] == "error" and msg["code"] == "owner_unavailable", msg
        except ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == 4503, e
            hints.append(json.loads(e.rcvd.reason)["retry_after_ms"])
        if len(hints) >= 50:
            break
    assert len(hints) >= 50 and hints[:10] == [500] * 10, hints  # the room's hint at first
    assert max(hints[40:]) > 500, hints  # past 40 in two seconds: the wait for the address, longer
    # and the table still comes back
    wait_for(lambda: b.health()["tables"] == 1, 10)
