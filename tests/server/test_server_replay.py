"""Replays of finished matches (every step, every hand face up) and rematches (everyone seated confirms, bots
always do; same seats, same options)."""

from __future__ import annotations

from typing import Any

from paiju.core import get_game

from .conftest import LiveServer, toy_table


def finish_toy(server: LiveServer, players: list[Any], **options: Any) -> tuple[str, list[Any]]:
    deal = {"hands": [["1", "2"], ["1", "4"], ["5", "6"]]}
    tid, socks = toy_table(server, players, deal=deal, config={"hand_size": 2}, **options)
    socks[0].act("play 1")
    socks[1].until(lambda m: m["type"] == "update" and m["legal"])
    socks[1].act("take")
    socks[1].until(lambda m: m["type"] == "update" and m["legal"])
    socks[1].act("play 4")
    socks[0].until(lambda m: m["type"] == "update" and m["legal"])
    socks[0].act("play 2")
    socks[0].until(lambda m: m["type"] == "update" and m["view"]["finished"])
    return tid, socks


def test_a_finished_match_replays_step_by_step_with_every_hand_face_up(server: LiveServer) -> None:
    a, b = server.client("a"), server.client("b")
    deal = {"hands": [["1", "2"], ["1", "4"], ["5", "6"]]}
    early, _ = toy_table(server, [a, b], deal=deal, config={"hand_size": 2})
    r = a.http.get(f"/api/tables/{early}/replay")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "not_finished")  # the deal would leak
    tid, _ = finish_toy(server, [a, b])
    anon = server.client()
    index = anon.http.get(f"/api/tables/{tid}/replay").json()
    record = a.http.get(f"/api/tables/{tid}/record").json()["record"]
    assert index["total"] == len(record["actions"]) == 6
    assert [[s["seat"], s["action"]] for s in index["steps"]] == record["actions"]
    assert index["steps"][1]["zh"] == "吃" and index["steps"][0]["events"] == [{"type": "play", "seat": 0, "card": "1"}]
    assert index["table"]["seats"][2]["bot"] == "best" and index["table"]["result"]["scores"] == [0, 1, 0]
    assert [(h["first"], h["last"]) for h in index["hands"]] == [(1, 6)]
    views = anon.http.get(f"/api/tables/{tid}/replay/views?from=0&to=6").json()["views"]
    assert sorted(map(int, views)) == list(range(7))
    assert [s["hand"] for s in views["0"]["table"]["seats"]] == deal["hands"]  # every hand face up
    assert views["1"]["pile"] == ["1"] and views["6"]["finished"]
    for bad in ("from=0&to=7", "from=3&to=2", "from=x", "from=0&to=40"):
        assert anon.http.get(f"/api/tables/{tid}/replay/views?{bad}").status_code == 422, bad


def test_a_private_replay_needs_its_invite(server: LiveServer) -> None:
    a, b = server.client("a"), server.client("b")
    info = a.ok("/api/tables", {"game": "toy", "private": True, "config": {"hand_size": 1},
                                "deal": {"hands": [["1"], ["2"], ["3"]]}})
    tid, invite = info["id"], info["invite"]
    a.ok(f"/api/tables/{tid}/sit", {"seat": 0})
    a.ok(f"/api/tables/{tid}/bots")
    sock = a.socket(tid)
    sock.recv()
    a.ok(f"/api/tables/{tid}/start")
    sock.act("play 1")
    sock.until(lambda m: m["type"] == "update" and m["view"]["finished"])
    assert b.http.get(f"/api/tables/{tid}/replay").json()["error"]["code"] == "invite_required"
    assert b.http.get(f"/api/tables/{tid}/replay?invite={invite}").status_code == 200
    assert a.http.get(f"/api/tables/{tid}/replay/views?from=0&to=1").status_code == 200


def test_a_shengji_replay_splits_the_match_into_hands(server: LiveServer) -> None:
    a = server.client("a")
    info = a.ok("/api/tables", {"game": "shengji", "config": {"max_hands": 2}, "seed": 9})
    tid = info["id"]
    a.ok(f"/api/tables/{tid}/leave")  # the seat a new table gives its creator: to a bot as well
    a.ok(f"/api/tables/{tid}/bots")
    a.ok(f"/api/tables/{tid}/start")  # four bots play it out
    sock = a.socket(tid)
    sock.until(lambda m: m["type"] in ("update", "snapshot") and bool((m.get("view") or {}).get("finished")), 120)
    index = a.http.get(f"/api/tables/{tid}/replay").json()
    hands = index["hands"]
    assert len(hands) == 2 and hands[0]["first"] == 1 and hands[1]["first"] == hands[0]["last"] + 1
    assert hands[1]["last"] == index["total"]
    assert all(h["result"]["title"]["zh"] == f"第{k + 1}局结算" for k, h in enumerate(hands))
    cls = get_game("shengji")
    assert index["steps"][0]["en"] == cls.new(cls.config_class(), 0).describe(index["steps"][0]["action"], "en")


def test_a_rematch_starts_when_every_person_confirms(server: LiveServer) -> None:
    a, b, c = server.client("a"), server.client("b"), server.client("c")
    tid, socks = finish_toy(server, [a, b], turn_seconds=30)
    assert c.post(f"/api/tables/{tid}/rematch").json()["error"]["code"] == "not_seated"
    state = a.ok(f"/api/tables/{tid}/rematch")
    assert (state["confirmed"], state["waiting"], state["next"]) == ([0], [1], None)
    msg = socks[1].until(lambda m: m["type"] == "rematch")
    assert msg["waiting"] == [1]
    a.ok(f"/api/tables/{tid}/rematch", {"confirm": False})  # changed their mind
    assert a.http.get(f"/api/tables/{tid}/rematch").json()["confirmed"] == []
    a.ok(f"/api/tables/{tid}/rematch")
    done = b.ok(f"/api/tables/{tid}/rematch")
    new = done["next"]
    assert new and socks[0].until(lambda m: m["type"] == "rematch" and m["next"])["next"] == new
    old, fresh = a.http.get(f"/api/tables/{tid}").json(), a.http.get(f"/api/tables/{new}").json()
    assert fresh["status"] == "playing"
    assert [(s["player"] or {}).get("id") for s in fresh["seats"]] == [a.id, b.id, None]
    assert fresh["seats"][2]["bot"] == "best"
    for key in ("game", "config", "turn_seconds", "claim_seconds", "private"):
        assert fresh[key] == old[key], key
    assert b.ok(f"/api/tables/{tid}/rematch")["next"] == new  # asking again changes nothing
