"""Hosts (issue 14): every host action and its log entry, bans, reports, ``paiju admin`` and ``paiju export``."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed

from paiju.cli.main import app as main_app
from paiju.server import storage as st

from .conftest import LiveServer, Player, ToyGame, fast_settings, first_bot, register, toy_table
from .test_server_replay import finish_toy

HOST_CALLS = [
    ("GET", "/api/host", None),
    ("POST", "/api/host/players/{pid}/ban", {}),
    ("POST", "/api/host/players/{pid}/unban", {}),
    ("POST", "/api/host/players/{pid}/rename", {"nickname": "x"}),
    ("POST", "/api/host/tables/{tid}/kick", {"seat": 0}),
    ("POST", "/api/host/tables/{tid}/close", {}),
    ("GET", "/api/host/reports", None),
    ("POST", "/api/host/reports/1/close", {}),
    ("GET", "/api/host/log", None),
]


@pytest.fixture
def hosted(tmp_path: Path, toy_game: type[ToyGame]) -> Any:
    """A room started with ``--admin Boss``, whose account ``boss`` existed before (--admin binds it then)."""
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        register(s, "boss")
    with LiveServer(fast_settings(tmp_path, admins=("Boss",)), bot_factory=first_bot) as s:
        yield s


def boss_of(s: LiveServer, username: str = "boss") -> Player:
    """The host account made before the start, logged in."""
    p = s.client()
    r = p.post("/api/login", {"username": username, "password": "correct horse"})
    assert r.status_code == 200, r.text
    p.token, p.id = r.json()["token"], r.json()["player"]["id"]
    p.http.headers["Authorization"] = f"Bearer {p.token}"
    return p


def log_of(host: Player) -> list[dict[str, Any]]:
    r = host.http.get("/api/host/log")
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()
    return out


def test_only_hosts_may_call_the_host_api(hosted: LiveServer) -> None:
    guest = hosted.client("g")
    member = register(hosted, "member")
    boss = boss_of(hosted)  # named by --admin in any case
    tid = guest.ok("/api/tables", {"game": "toy"})["id"]
    nobody = hosted.client()
    for who, status, code in ((guest, 403, "not_host"), (member, 403, "not_host"), (nobody, 401, "no_session")):
        for method, path, body in HOST_CALLS:
            r = who.http.request(method, path.format(pid=guest.id, tid=tid), json=body)
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), (method, path)
    assert boss.http.get("/api/host").json() == {"host": {"id": boss.id, "name": "boss"}}
    assert log_of(boss) == []  # the refusals changed nothing
    assert hosted.room.tables[tid].status == "waiting"


def test_a_ban_ends_sessions_refuses_login_and_seats_and_is_logged(hosted: LiveServer, tmp_path: Path) -> None:
    boss = boss_of(hosted)
    bad = register(hosted, "rude_one", password="sekrit-pass")
    tid = boss.ok("/api/tables", {"game": "toy"})["id"]
    elsewhere = boss.ok("/api/tables", {"game": "toy"})["id"]
    bad.ok(f"/api/tables/{elsewhere}/sit", {"seat": 1})  # seat 0 is the creator's
    sock = bad.socket(elsewhere)
    sock.recv()
    before = time.time()
    assert boss.ok(f"/api/host/players/{bad.id}/ban", {"reason": "abuse at table 3"}) == \
        {"player": bad.id, "banned": True}
    assert sock.until(lambda m: m["type"] == "error")["code"] == "banned"
    with pytest.raises(ConnectionClosed):  # and the socket is closed
        sock.recv(5)
    r = bad.http.get("/api/session")
    assert (r.status_code, r.json()["error"]["code"]) == (401, "no_session")  # every session ended
    r = bad.post(f"/api/tables/{tid}/sit", {"seat": 1})
    assert r.status_code == 401 and hosted.room.tables[tid].seats[1].player_id is None
    again = hosted.client()
    r = again.post("/api/login", {"username": "rude_one", "password": "sekrit-pass"})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "banned")  # no new session either
    assert "token" not in r.json() and "set-cookie" not in r.headers
    r = again.post("/api/login", {"username": "rude_one", "password": "wrong-pass"})
    assert (r.status_code, r.json()["error"]["code"]) == (401, "bad_login")  # a wrong password says no more
    r = boss.post(f"/api/host/players/{boss.id}/ban")
    assert (r.status_code, r.json()["error"]["code"]) == (422, "bad_option")
    r = boss.post("/api/host/players/nosuch/ban")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "no_player")
    [entry] = log_of(boss)
    assert (entry["action"], entry["host"], entry["host_id"], entry["player_id"], entry["detail"]) == \
        ("ban", "boss", boss.id, bad.id, {"reason": "abuse at table 3"})
    assert before <= entry["at"] <= time.time()
    boss.ok(f"/api/host/players/{bad.id}/unban")
    assert [e["action"] for e in log_of(boss)] == ["unban", "ban"]
    back = hosted.client()
    r = back.post("/api/login", {"username": "rude_one", "password": "sekrit-pass"})
    assert r.status_code == 200
    back.http.headers["Authorization"] = f"Bearer {r.json()['token']}"
    back.ok(f"/api/tables/{tid}/sit", {"seat": 1})


def test_a_banned_players_live_session_cannot_sit_or_open_tables(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    """A session another process has not yet dropped (or one made before the ban) is refused by the ban itself."""
    settings = fast_settings(tmp_path, admins=("boss",))
    with LiveServer(settings.with_(admins=()), bot_factory=first_bot) as s:
        register(s, "boss")
    with LiveServer(settings, bot_factory=first_bot) as s:
        boss = boss_of(s)
        g = s.client("guest")
        tid = g.ok("/api/tables", {"game": "toy"})["id"]
        boss_token, guest_token = boss.token, g.token
        s.app.state.moderation.banned.add(g.id)  # as if banned by another process, sessions not yet rechecked
        r = g.post(f"/api/tables/{tid}/sit", {"seat": 0})
        assert (r.status_code, r.json()["error"]["code"]) == (403, "banned")
        r = g.post("/api/tables", {"game": "toy"})
        assert (r.status_code, r.json()["error"]["code"]) == (403, "banned")
        s.app.state.moderation.banned.discard(g.id)
        boss.ok(f"/api/host/players/{g.id}/ban")
        member = register(s, "member", password="member-pass")
        with s.app.state.moderation.db.engine.begin() as c:  # banned by another process on the same database
            c.execute(st.players.update().where(st.players.c.id == member.id).values(banned_at=1.0))
        r = s.client().post("/api/login", {"username": "member", "password": "member-pass"})
        assert (r.status_code, r.json()["error"]["code"]) == (403, "banned")
        assert member.id in s.app.state.banned  # and this process knows it now
    with LiveServer(settings, bot_factory=first_bot) as s:  # restarted: the ban is read back
        assert s.app.state.banned == {g.id, member.id}
        boss = s.client()
        boss.http.headers["Authorization"] = f"Bearer {boss_token}"
        assert boss.http.get("/api/host").status_code == 200
        ghost = s.client()
        ghost.http.headers["Authorization"] = f"Bearer {guest_token}"
        assert ghost.post(f"/api/tables/{tid}/sit", {"seat": 0}).status_code in (401, 403)


def test_kick_before_and_during_play(hosted: LiveServer) -> None:
    boss = boss_of(hosted)
    a, b = hosted.client("a"), hosted.client("b")
    tid, (_sa, sb) = toy_table(hosted, [a, b], start=False)
    info = boss.ok(f"/api/host/tables/{tid}/kick", {"seat": 1, "reason": "afk"})
    assert info["seats"][1]["player"] is None and info["seats"][1]["bot"] is None  # waiting: the seat is free
    r = boss.post(f"/api/host/tables/{tid}/kick", {"seat": 1})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "bad_seat")  # nobody there any more
    r = boss.post(f"/api/host/tables/{tid}/kick", {"seat": 9})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "bad_seat")
    b.ok(f"/api/tables/{tid}/sit", {"seat": 1})
    a.ok(f"/api/tables/{tid}/start")
    sb.until(lambda m: m["type"] == "snapshot" and m["view"] is not None)
    info = boss.ok(f"/api/host/tables/{tid}/kick", {"seat": 1})
    seat = info["seats"][1]
    assert (seat["player"]["id"], seat["bot"], seat["replaced"]) == (b.id, "best", "kicked")  # a bot plays on
    snap = sb.until(lambda m: m["type"] == "snapshot" and m.get("seat") is None)  # b watches now
    assert snap["legal"] == []
    deps = hosted.room.db.run_now(lambda c: st.load_departures(c, tid))
    assert [(d["seat"], d["reason"], d["player_id"]) for d in deps] == [(1, "kicked", b.id)]
    sb.act("play 1")  # a kicked person no longer plays the seat
    assert sb.until(lambda m: m["type"] == "error")["code"] == "not_seated"
    entries = log_of(boss)
    assert [(e["action"], e["table_id"], e["player_id"], e["detail"]["seat"], e["detail"]["status"])
            for e in entries] == [("kick", tid, b.id, 1, "playing"), ("kick", tid, b.id, 1, "waiting")]
    assert entries[1]["detail"]["reason"] == "afk"


def test_close_a_table(hosted: LiveServer) -> None:
    boss = boss_of(hosted)
    a, b = hosted.client("a"), hosted.client("b")
    tid, (sa, _sb) = toy_table(hosted, [a, b])
    info = boss.ok(f"/api/host/tables/{tid}/close", {"reason": "spam names"})
    assert info["status"] == "closed" and info["closed"] == {"by": "boss", "reason": "spam names"}
    sa.until(lambda m: m["type"] == "table" and m["table"]["status"] == "closed")
    sa.act(sa.legal[0] if sa.legal else "play 1")
    assert sa.until(lambda m: m["type"] == "error")["code"] == "table_closed"
    assert tid not in [t["id"] for t in a.http.get("/api/tables").json()["tables"]]
    r = boss.post(f"/api/host/tables/{tid}/close")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "game_over")
    [entry] = log_of(boss)
    assert (entry["action"], entry["table_id"], entry["detail"]) == ("close", tid, {"reason": "spam names"})
    rows = hosted.room.db.run_now(lambda c: st.load_tables(c, unfinished=True))
    assert tid not in [r.id for r in rows]  # never rebuilt at a restart
    assert a.http.get(f"/api/players/{a.id}").json()["ledger"] == []  # nothing booked


def test_rename_an_offensive_nickname(hosted: LiveServer) -> None:
    boss = boss_of(hosted)
    a, b = hosted.client("bad word"), hosted.client("b")
    _tid, (_sa, sb) = toy_table(hosted, [a, b], start=False)
    assert boss.ok(f"/api/host/players/{a.id}/rename", {"nickname": "  玩家 一 "}) == \
        {"player": a.id, "nickname": "玩家 一"}
    sb.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["player"]["nickname"] == "玩家 一")
    assert b.http.get(f"/api/players/{a.id}").json()["player"]["nickname"] == "玩家 一"
    assert a.http.get("/api/session").json()["player"]["nickname"] == "玩家 一"
    r = boss.post(f"/api/host/players/{a.id}/rename", {"nickname": ""})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "bad_nickname")
    [entry] = log_of(boss)
    assert (entry["action"], entry["player_id"], entry["detail"]) == ("rename", a.id, {"from": "bad word",
                                                                                         "to": "玩家 一"})


def test_reports_reach_the_hosts_list(hosted: LiveServer) -> None:
    boss = boss_of(hosted)
    a, b = hosted.client("a"), register(hosted, "bee", nickname="b")  # an account: a guest plays a hand first
    tid, _ = toy_table(hosted, [a, b])
    before = time.time()
    made = b.ok(f"/api/tables/{tid}/report", {"seat": 0, "reason": "  calls people names "})
    assert (made["table"], made["seat"], made["reason"], made["status"]) == (tid, 0, "calls people names", "open")
    for body, code in (({"seat": 0}, "bad_reason"), ({"seat": 0, "reason": "x" * 201}, "bad_reason"),
                       ({"seat": 7, "reason": "x"}, "bad_seat"), ({"reason": "x"}, "bad_seat")):
        r = b.post(f"/api/tables/{tid}/report", body)
        assert (r.status_code, r.json()["error"]["code"]) == (422, code)
    r = hosted.client().post(f"/api/tables/{tid}/report", {"seat": 0, "reason": "x"})
    assert r.status_code == 401
    [rep] = boss.http.get("/api/host/reports").json()
    assert (rep["id"], rep["reporter_id"], rep["reporter_nickname"], rep["table_id"], rep["seat"], rep["player_id"],
            rep["player_nickname"], rep["reason"], rep["status"]) == \
        (made["id"], b.id, "b", tid, 0, a.id, "a", "calls people names", "open")
    assert before <= rep["at"] <= time.time()
    boss.ok(f"/api/host/reports/{made['id']}/close", {"note": "warned"})
    assert boss.http.get("/api/host/reports").json() == []
    [closed] = boss.http.get("/api/host/reports?status=all").json()
    assert (closed["status"], closed["handled_by"]) == ("closed", "boss")
    r = boss.post("/api/host/reports/999/close")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "no_report")
    [entry] = log_of(boss)
    assert (entry["action"], entry["table_id"], entry["player_id"], entry["detail"]) == \
        ("report", tid, a.id, {"report": made["id"], "note": "warned"})


def test_paiju_admin_grants_and_revokes_a_host(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    settings = fast_settings(tmp_path)
    with LiveServer(settings, bot_factory=first_bot) as s:
        helper = register(s, "Helper")
        token = helper.token
        assert helper.http.get("/api/host").status_code == 403
    runner = CliRunner()
    args = ["--data-dir", str(settings.data_dir)]
    r = runner.invoke(main_app, ["admin", "grant", "nobody", *args])
    assert r.exit_code == 1 and "no account 'nobody'" in r.output
    r = runner.invoke(main_app, ["admin", "grant", "helper", *args])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main_app, ["admin", "list", *args])
    assert "Helper" in r.output and "granted by cli" in r.output
    with LiveServer(settings, bot_factory=first_bot) as s:
        me = s.client()
        me.http.headers["Authorization"] = f"Bearer {token}"
        assert me.http.get("/api/host").json()["host"]["name"] == "Helper"
        [entry] = log_of(me)
        assert (entry["action"], entry["host"], entry["host_id"], entry["detail"]) == \
            ("grant", "cli", None, {"username": "Helper"})
        r = runner.invoke(main_app, ["admin", "revoke", "helper", *args])  # while it serves
        assert r.exit_code == 0, r.output
        assert me.http.get("/api/host").status_code == 403


def test_paiju_export_anonymizes_with_stable_pseudonyms(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    settings = fast_settings(tmp_path)
    with LiveServer(settings, bot_factory=first_bot) as s:
        a, b = s.client("Alice Liddell"), s.client("Bob Dylan")
        done, _ = finish_toy(s, [a, b])
        actions = a.http.get(f"/api/tables/{done}/record").json()["record"]["actions"]
        live, _ = toy_table(s, [b, a])
        ids = (str(a.id), str(b.id))
    runner = CliRunner()
    base = ["export", "--data-dir", str(settings.data_dir)]
    out = tmp_path / "out.jsonl"
    r = runner.invoke(main_app, [*base, "--anonymize", "--out", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    [record] = [json.loads(line) for line in text.splitlines()]
    for secret in (*ids, "Alice", "Bob", done, live):
        assert secret not in text  # no player id, nickname or table id
    assert record["game"] == "toy" and record["actions"] == actions
    assert len(record["times"]) == len(record["actions"]) and record["seed"] is not None
    people = [x["player"]["id"] for x in record["seats"][:2]]
    assert all(p.startswith("p_") for p in people) and people[0] != people[1]
    assert record["seats"][2]["bot"] == "best" and record["seats"][2]["player"] is None
    again = runner.invoke(main_app, [*base, "--anonymize"])
    assert again.exit_code == 0
    assert json.loads(again.stdout.splitlines()[0])["seats"] != record["seats"]  # a new key each export
    keyed = [runner.invoke(main_app, [*base, "--anonymize", "--key", "k"]).stdout for _ in range(2)]
    assert keyed[0] == keyed[1]  # the same key given on purpose: the same pseudonyms
    other = runner.invoke(main_app, [*base, "--anonymize", "--key", "another"])
    assert json.loads(other.stdout.splitlines()[0])["seats"][0]["player"]["id"] != \
        json.loads(keyed[0].splitlines()[0])["seats"][0]["player"]["id"]
    plain = runner.invoke(main_app, base)
    seats = json.loads(plain.stdout.splitlines()[0])["seats"]
    assert [x["player"] for x in seats[:2]] == [{"id": a.id, "nickname": "Alice Liddell"},
                                                 {"id": b.id, "nickname": "Bob Dylan"}]
