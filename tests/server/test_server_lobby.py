"""Sessions and the lobby over HTTP: games, creating tables with validated options, seats, bots, start."""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import InvalidStatus

from paiju.core import game_names

from .conftest import LiveServer, ToyConfig


def test_a_nickname_gets_a_guest_session(server: LiveServer) -> None:
    anon = server.client()
    for bad in ("", "   ", "x" * 25, 42, None):
        r = anon.post("/api/session", {"nickname": bad})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_nickname"
    assert anon.http.post("/api/session", content=b"{oops",
                          headers={"Content-Type": "application/json"}).json()["error"]["code"] == "bad_json"
    me = server.client("  小明  ")
    assert me.http.get("/api/session").json()["player"] == {"id": me.id, "nickname": "小明", "account": False}
    # the cookie works too, and a forged token is nobody
    anon.http.cookies.set("paiju_session", me.token or "")
    assert anon.http.get("/api/session").json()["player"]["id"] == me.id
    forged = (me.token or "")[:-2] + "xx"
    r = anon.http.get("/api/session", headers={"Authorization": f"Bearer {forged}"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "no_session"


def test_games_list_every_option_and_the_windows(server: LiveServer) -> None:
    games = {g["name"]: g for g in server.client().http.get("/api/games").json()}
    assert "toy" in games
    toy = games["toy"]
    assert toy["display"] == {"zh": "玩具", "en": "toy"}
    assert toy["options"] == json.loads(json.dumps(ToyConfig.schema()))  # every option, as the config declares it
    [hand] = toy["options"]
    assert (hand["name"], hand["type"], hand["default"], hand["min"], hand["max"]) == ("hand_size", "int", 3, 1, 5)
    assert [o["name"] for o in toy["table_options"]] == ["turn_seconds", "claim_seconds", "next_hand_seconds",
                                                              "escape"]
    assert toy["table_options"][3]["choices"] == ["flat"]  # the 升级 page's flat 逃跑 rule by default
    turn, claim, pause, _ = toy["table_options"]
    assert (pause["default"], pause["min"]) == (0.0, 0.0)  # these tests' server; 0 = no pause between hands
    assert (turn["min"], turn["max"], claim["min"]) == (5.0, 3600.0, 0.05)  # and 0 = untimed
    assert set(games) <= {*game_names()}
    # Every choice of every real game's options has words in both languages (no raw "same_tile" in a form).
    for g in games.values():
        for o in g["options"]:
            if o["choices"]:
                assert o["choice_labels"] and all(lb["zh"] and lb["en"] for lb in o["choice_labels"]), (g, o)


def test_rules_pages_are_served_in_both_languages(server: LiveServer) -> None:
    http = server.client().http
    for game in [n for n in game_names() if n != "toy"]:
        zh, en = (http.get(f"/api/rules/{game}", params={"lang": lang}).json() for lang in ("zh", "en"))
        assert en["lang"] == "en" and en["markdown"].startswith("# ")
        assert zh["lang"] == "zh" and zh["markdown"].startswith("# ") and zh["markdown"] != en["markdown"]
    for bad in ("toy", "nope", "shengji.zh"):  # a game without a page, an unknown name, a file name
        r = http.get(f"/api/rules/{bad}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_rules"
    assert http.get("/rules/shengji").headers["content-type"].startswith("text/html")


def test_creating_tables_validates_every_option(server: LiveServer) -> None:
    me = server.client("owner")
    assert server.client().post("/api/tables", {"game": "toy"}).status_code == 401
    for body, code, needle in [
        ({"game": "nope"}, "unknown_game", "nope"),
        ({}, "unknown_game", "game"),
        ({"game": "toy", "config": {"hand_size": 9}}, "bad_option", "hand_size"),
        ({"game": "toy", "config": {"hand_size": "3"}}, "bad_option", "hand_size"),
        ({"game": "toy", "config": {"colour": 1}}, "bad_option", "colour"),
        ({"game": "toy", "config": [1]}, "bad_option", "config"),
        ({"game": "toy", "turn_seconds": -1}, "bad_option", "turn_seconds"),
        ({"game": "toy", "claim_seconds": 10**6}, "bad_option", "claim_seconds"),
        ({"game": "toy", "claim_seconds": "10"}, "bad_option", "claim_seconds"),
        ({"game": "toy", "private": "yes"}, "bad_option", "private"),
        ({"game": "toy", "turn_seconds": 4.9}, "window_too_short", "turn_seconds"),
        ({"game": "toy", "turn_seconds": 0.05}, "window_too_short", "turn_seconds"),
    ]:
        r = me.post("/api/tables", body)
        assert r.status_code == 422, body
        assert r.json()["error"]["code"] == code and needle in r.json()["error"]["message"], r.json()
    t = me.ok("/api/tables", {"game": "toy", "config": {"hand_size": 2}, "turn_seconds": 15, "claim_seconds": 5})
    assert t["config"] == {"hand_size": 2} and t["turn_seconds"] == 15 and t["claim_seconds"] == 5
    # the creator sits in seat 0 at once (issue 33: a newcomer who filled the seats with bots watched them play)
    assert t["status"] == "waiting" and [s["player"] for s in t["seats"]] == [{"id": me.id, "nickname": "owner"},
                                                                             None, None]
    assert "seed" not in t  # whoever knows the seed knows every card
    # 0 (untimed) and the 5-second minimum are accepted; a claim window may be shorter than a turn.
    assert me.ok("/api/tables", {"game": "toy", "turn_seconds": 0})["turn_seconds"] == 0
    assert me.ok("/api/tables", {"game": "toy", "turn_seconds": 5, "claim_seconds": 2})["turn_seconds"] == 5


def test_private_tables_need_their_invite(server: LiveServer) -> None:
    owner, guest = server.client("owner"), server.client("guest")
    public = owner.ok("/api/tables", {"game": "toy"})
    private = owner.ok("/api/tables", {"game": "toy", "private": True})
    invite = private["invite"]
    assert invite
    listed = [t["id"] for t in guest.http.get("/api/tables", params={"game": "toy"}).json()["tables"]]
    assert public["id"] in listed and private["id"] not in listed
    tid = private["id"]
    r = guest.http.get(f"/api/tables/{tid}")
    assert r.status_code == 403 and r.json()["error"]["code"] == "invite_required"
    assert guest.post(f"/api/tables/{tid}/sit", {"seat": 1}).status_code == 403
    assert guest.post(f"/api/tables/{tid}/sit", {"seat": 1, "invite": "wrong"}).status_code == 403
    with pytest.raises(InvalidStatus):
        guest.socket(tid)  # refused before the handshake completes
    seated = guest.ok(f"/api/tables/{tid}/sit", {"seat": 1, "invite": invite})
    assert seated["seats"][1]["player"]["nickname"] == "guest" and seated["invite"] == invite
    assert guest.http.get(f"/api/tables/{tid}").status_code == 200  # seated now: no invite needed
    assert guest.http.get(f"/api/tables/{public['id']}").json().get("invite") is None


def test_seats_bots_and_start(server: LiveServer) -> None:
    a, b, c = server.client("a"), server.client("b"), server.client("c")
    tid = a.ok("/api/tables", {"game": "toy"})["id"]
    a.ok(f"/api/tables/{tid}/sit", {"seat": 0})
    for body, status, code in [({"seat": 0}, 409, "seat_taken"), ({"seat": 3}, 422, "bad_seat"),
                               ({"seat": "1"}, 422, "bad_seat"), ({}, 422, "bad_seat")]:
        r = b.post(f"/api/tables/{tid}/sit", body)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code)
    b.ok(f"/api/tables/{tid}/sit", {"seat": 1})
    t = b.ok(f"/api/tables/{tid}/sit", {"seat": 2})  # moving seats frees the old one
    assert [s["player"] and s["player"]["nickname"] for s in t["seats"]] == ["a", None, "b"]
    r = c.post(f"/api/tables/{tid}/start")
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_seated")
    r = a.post(f"/api/tables/{tid}/start")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "seats_empty")
    assert c.post(f"/api/tables/{tid}/leave").json()["error"]["code"] == "not_seated"
    b.ok(f"/api/tables/{tid}/leave")
    t = a.ok(f"/api/tables/{tid}/bots")
    assert [s["bot"] for s in t["seats"]] == [None, "best", "best"]
    t = a.ok(f"/api/tables/{tid}/bots/remove", {"seat": 2})
    assert [s["bot"] for s in t["seats"]] == [None, "best", None]
    b.ok(f"/api/tables/{tid}/sit", {"seat": 2})
    assert a.ok(f"/api/tables/{tid}/start")["status"] == "playing"
    r = b.post(f"/api/tables/{tid}/sit", {"seat": 1})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "started")
    assert a.post(f"/api/tables/{tid}/start").json()["error"]["code"] == "started"
    assert a.post(f"/api/tables/{tid}/bots").json()["error"]["code"] == "started"
    assert a.http.get("/api/tables/nope").status_code == 404
    r = a.http.get(f"/api/tables/{tid}/record")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "not_finished")


def test_pages_are_served(server: LiveServer) -> None:
    http = server.client().http
    for path in ("/", "/t/abc"):
        r = http.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert "牌局" in r.text


def test_one_process_is_always_healthy_and_owns_every_table(server: LiveServer) -> None:
    """Without --redis-url the health check only says the process serves (cluster.py's no-op)."""
    p = server.client("健康")
    p.ok("/api/tables", {"game": "toy"})
    r = p.http.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"ok": True, "worker": "local", "tables": 1}
    assert server.room.tables and all(t.row.owner_epoch is None for t in server.room.tables.values())
