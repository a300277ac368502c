"""Play over websockets on the toy game: a whole match, every kind of bad input, reconnect and resume."""

from __future__ import annotations

from typing import Any

from .conftest import LiveServer, Socket, toy_table

DEAL = {"hands": [["1", "2", "3"], ["1", "4", "5"], ["6", "7", "8"]]}


def updates(sockets: list[Socket]) -> list[dict[str, Any]]:
    """The next update on every socket (each action sends exactly one to each client)."""
    return [s.until(lambda m: m["type"] == "update") for s in sockets]


def test_a_whole_match_is_played_and_every_client_sees_the_same_events(server: LiveServer) -> None:
    players = [server.client(n) for n in ("甲", "乙", "丙")]
    tid, socks = toy_table(server, players, deal=DEAL)
    first = socks[0].last_state
    assert first is not None and first["seq"] == 0 and first["seat"] == 0
    assert first["view"]["hand"] == ["1", "2", "3"]
    assert [a["action"] for a in first["legal"]] == ["play 1", "play 2", "play 3"]
    assert first["legal"][0]["zh"] == "出 1" and first["legal"][0]["en"] == "play 1"
    assert socks[1].last_state is not None and socks[1].last_state["legal"] == []

    socks[0].act("play 1")
    ups = updates(socks)
    assert [u["seq"] for u in ups] == [1, 1, 1]
    assert all(u["events"] == [{"type": "play", "seat": 0, "card": "1"}] for u in ups)
    # seat 1 may take; nobody else learns that anyone may
    assert [a["action"] for a in ups[1]["legal"]] == ["take", "pass"]
    assert ups[0]["legal"] == [] and ups[2]["legal"] == []
    assert all(u["view"]["deciding"] == [] for u in ups)

    socks[1].act("take")
    ups = updates(socks)
    assert ups[2]["events"] == [{"type": "take", "seat": 1, "card": "1"}]
    assert ups[1]["view"]["hand"] == ["4", "5"]

    steps = 0
    while not ups[0]["view"]["finished"]:
        mover = next(i for i, s in enumerate(socks) if s.legal)
        socks[mover].act(socks[mover].legal[-1])
        ups = updates(socks)
        steps += 1
        assert steps < 50
    assert ups[0]["view"]["points"] == [0, 1, 0]
    info = players[0].http.get(f"/api/tables/{tid}").json()
    assert info["status"] == "finished" and info["result"]["scores"] == [0.0, 1.0, 0.0]
    record = players[0].http.get(f"/api/tables/{tid}/record").json()["record"]
    assert record["deal"] == DEAL and record["actions"][:2] == [[0, "play 1"], [1, "take"]]
    for s in socks:
        s.close()


def test_bad_input_gets_an_error_and_leaves_the_table_untouched(server: LiveServer) -> None:
    players = [server.client(n) for n in ("a", "b", "c")]
    watcher = server.client("watcher")
    tid, socks = toy_table(server, players, deal=DEAL)
    spectator = watcher.socket(tid)
    snap = spectator.recv()
    assert snap["type"] == "snapshot" and snap["seat"] is None and snap["view"]["hand"] is None
    table = server.room.tables[tid]
    before = (table.seq, table.game.view(-2))

    def error_for(sock: Socket, payload: Any) -> dict[str, Any]:
        sock.send(payload)
        return sock.until(lambda m: m["type"] == "error")

    cases = [
        (socks[0], {"type": "act", "action": "play 9"}, "illegal"),          # not in hand
        (socks[0], {"type": "act", "action": "take"}, "illegal"),            # not now
        (socks[1], {"type": "act", "action": "play 4"}, "not_your_turn"),    # out of turn
        (socks[1], {"type": "act", "action": "play 1"}, "not_your_turn"),    # seat 0's move, sent by seat 1
        (socks[0], "{not json", "bad_message"),
        (socks[0], '["act", "play 1"]', "bad_message"),
        (socks[0], {"action": "play 1"}, "bad_message"),                     # no type
        (socks[0], {"type": "act"}, "bad_message"),                          # no action
        (socks[0], {"type": "act", "action": 7}, "bad_message"),
        (socks[0], {"type": "resume", "since": "x"}, "bad_message"),
        (socks[0], b"\x00binary", "bad_message"),
        (socks[0], {"type": "shout", "text": "hi"}, "unknown_type"),
        (spectator, {"type": "act", "action": "play 1"}, "not_seated"),
    ]
    for sock, payload, code in cases:
        err = error_for(sock, payload)
        assert err["code"] == code, (payload, err)
        assert err["message"]
    assert (table.seq, table.game.view(-2)) == before
    for s in [*socks, spectator]:
        assert [m for m in s.quiet(0.1) if m["type"] == "update"] == []

    # the table still works, and the spectator only ever sees the public view
    socks[0].act("play 2")
    ups = updates([*socks, spectator])
    assert all(u["seq"] == 1 for u in ups)
    assert ups[3]["view"]["hand"] is None and ups[3]["legal"] == []
    assert all(seat["hand"] is None for seat in ups[3]["view"]["table"]["seats"])


def test_acting_before_the_start_or_after_the_end_is_refused(server: LiveServer) -> None:
    players = [server.client(n) for n in ("a", "b", "c")]
    tid, socks = toy_table(server, players, deal={"hands": [["1"], ["2"], ["3"]]}, start=False)
    socks[0].act("play 1")
    assert socks[0].until(lambda m: m["type"] == "error")["code"] == "not_started"
    assert socks[0].last_state is not None and socks[0].last_state["view"] is None  # no cards before the start
    players[0].ok(f"/api/tables/{tid}/start")
    for s in socks:
        s.until(lambda m: m["type"] == "snapshot")
    for i, card in enumerate("123"):
        socks[i].act(f"play {card}")
        updates(socks)
    socks[0].act("play 1")
    assert socks[0].until(lambda m: m["type"] == "error")["code"] == "game_over"


def test_reconnect_and_resume_gets_what_was_missed(server: LiveServer) -> None:
    players = [server.client(n) for n in ("a", "b", "c")]
    deal = {"hands": [["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "5", "6", "7"]]}
    tid, socks = toy_table(server, players, deal=deal, config={"hand_size": 4})
    socks[2].close()
    socks[0].act("play 1")
    first = updates(socks[:2])[0]
    socks[1].act("play 5")
    claim = updates(socks[:2])
    # seat 2 holds a 5: the claim window waits for it; it comes back and resumes from seq 0
    back = players[2].socket(tid)
    assert back.recv()["type"] == "snapshot"
    back.send({"type": "resume", "since": 0})
    missed = back.until(lambda m: m["type"] == "update")
    assert missed["seq"] == 2 and missed["since"] == 0
    assert missed["events"] == first["events"] + claim[0]["events"]
    assert [a["action"] for a in missed["legal"]] == ["take", "pass"]
    assert missed["view"]["hand"] == ["9", "5", "6", "7"]
    # resuming from the present gives an empty update; from a far past (beyond the buffer) a snapshot
    back.send({"type": "resume", "since": 2})
    now = back.until(lambda m: m["type"] == "update")
    assert now["events"] == [] and now["seq"] == 2
    back.send({"type": "resume", "since": 99})
    assert back.until(lambda m: m["type"] in ("update", "snapshot"))["type"] == "snapshot"
    back.act("take")
    assert updates([socks[0], socks[1], back])[0]["events"][0] == {"type": "take", "seat": 2, "card": "5"}


def test_resume_beyond_the_kept_updates_gets_a_snapshot(server: LiveServer) -> None:
    players = [server.client(n) for n in ("a", "b", "c")]
    deal = {"hands": [["1", "2", "3", "4", "5"], ["1", "2", "3", "4", "5"], ["6", "7", "8", "9", "6"]]}
    _tid, socks = toy_table(server, players, deal=deal, config={"hand_size": 5})
    # 10 passes and plays: more than the 8 updates the test server keeps
    for _ in range(10):
        mover = next(i for i, s in enumerate(socks) if s.legal)
        socks[mover].act("pass" if "pass" in socks[mover].legal else socks[mover].legal[0])
        updates(socks)
    socks[0].send({"type": "resume", "since": 1})
    snap = socks[0].until(lambda m: m["type"] in ("update", "snapshot"))
    assert snap["type"] == "snapshot" and snap["seq"] == 10
    socks[0].send({"type": "ping"})
    assert socks[0].until(lambda m: m["type"] == "pong")["time"] > 0
