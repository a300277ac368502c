"""The room's pace: 升级's deal runs at a fixed pace that waits for nobody and ends no step early, and between two
hands the table holds until every person is ready or the pause runs out.

Real uvicorn, real websockets, real 升级 and 水鱼 engines; the bots take the first legal action (``pass`` in the
deal), so only the people's choices move the bidding.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from pathlib import Path
from typing import Any

from paiju.bots.base import Bot
from paiju.core import View
from paiju.games.shengji.state import DEALT

from .conftest import LiveServer, Player, Socket, fast_settings

STEPS = DEALT // 4  # 51 steps of a card to each seat


def first_bot(game: str, kind: str, seed: int) -> Bot:
    """The first legal action: ``pass`` whenever a pass is offered, so bots never bid."""

    class First:
        needs_view = False

        def act(self, view: View, legal: Any) -> str:
            return str(legal[0])

    return First()


def room_table(server: LiveServer, people: list[Player], game: str, seed: int, config: dict[str, Any],
               **options: Any) -> tuple[str, list[Socket]]:
    """A started table of ``game``: ``people`` in the first seats, bots in the rest, a socket each past its
    first message."""
    owner = people[0]
    tid = owner.ok("/api/tables", {"game": game, "seed": seed, "config": config, **options})["id"]
    for i, p in enumerate(people):
        p.ok(f"/api/tables/{tid}/sit", {"seat": i})
    if len(people) < 4:
        owner.ok(f"/api/tables/{tid}/bots")
    socks = [p.socket(tid) for p in people]
    for sk in socks:
        sk.recv()
    owner.ok(f"/api/tables/{tid}/start")
    return tid, socks


def shengji_table(server: LiveServer, people: list[Player], **options: Any) -> tuple[str, list[Socket]]:
    return room_table(server, people, "shengji", 11, {"max_hands": 1}, **options)


def shuiyu_table(server: LiveServer, people: list[Player], **options: Any) -> tuple[str, list[Socket]]:
    return room_table(server, people, "shuiyu", 5, {"seats": 4, "rounds": 2}, **options)


def huashui_table(server: LiveServer, people: list[Player], **options: Any) -> tuple[str, list[Socket]]:
    return room_table(server, people, "huashui", 4, {"hands": 1}, **options)


def dealt(server: LiveServer, tid: str) -> bool:
    return bool(server.room.tables[tid].game.trump_set)


def wait_dealt(server: LiveServer, tid: str, limit: float) -> float:
    start = time.monotonic()
    while not dealt(server, tid):
        assert time.monotonic() - start < limit, "the deal did not finish"
        time.sleep(0.02)
    return time.monotonic() - start


def test_a_paced_deal_waits_for_nobody(tmp_path: Path) -> None:
    """The person sends nothing at all: the deal still reaches its last card, one step per pace."""
    pace = 0.06
    with LiveServer(fast_settings(tmp_path, claim_seconds=0.2), bot_factory=first_bot) as s:
        me = s.client("me")
        tid, [_sock] = shengji_table(s, [me], pace_seconds=pace)
        seconds = wait_dealt(s, tid, 30)
        assert seconds >= STEPS * pace * 0.9, f"{STEPS} steps of {pace} s took only {seconds:.2f} s"


def test_no_step_ends_early_when_everyone_has_answered(tmp_path: Path) -> None:
    """The person passes the moment each step opens and the bots pass at once: a step still lasts its pace,
    so how long a step takes tells nobody whether anyone could bid.  Timed by the server's own clock: each
    step's deadline is its start plus the pace, so two steps' deadlines are at least a pace apart."""
    pace = 0.08
    with LiveServer(fast_settings(tmp_path, claim_seconds=0.2), bot_factory=first_bot) as s:
        me = s.client("me")
        tid, [sock] = shengji_table(s, [me], pace_seconds=pace)
        deadlines: list[float] = []
        while not dealt(s, tid):
            msg = sock.recv(5)
            if msg["type"] not in ("snapshot", "update") or msg.get("window") != "pace":
                continue
            deadlines.append(msg["deadline"])
            assert "pass" in sock.legal
            sock.act("pass")
        gaps = [b - a for a, b in itertools.pairwise(deadlines)]
        assert len(gaps) >= STEPS - 5, len(gaps)
        assert min(gaps) >= pace * 0.99, f"a step closed early: {min(gaps):.3f} s of {pace} s"


def test_every_step_asks_every_seat_with_one_deadline(tmp_path: Path) -> None:
    """Who holds a bid is not told by who is asked or when: each paced update asks every person, with the
    same deadline, and says nothing publicly about who decides."""
    with LiveServer(fast_settings(tmp_path, claim_seconds=0.2), bot_factory=first_bot) as s:
        people = [s.client(f"p{i}") for i in range(4)]
        tid, socks = shengji_table(s, people, pace_seconds=0.05)
        seen: dict[int, list[tuple[int, float | None]]] = {i: [] for i in range(4)}
        while not dealt(s, tid):
            for i, sock in enumerate(socks):
                try:
                    msg = sock.recv(0.05)
                except TimeoutError:
                    continue
                if msg["type"] == "update" and msg.get("window") == "pace":
                    assert msg["deadlines"] == {}, "a paced step named who decides"
                    seen[i].append((msg["seq"], msg["deadline"]))
        by_seq: dict[int, set[float | None]] = {}
        for rows in seen.values():
            for seq, deadline in rows:
                by_seq.setdefault(seq, set()).add(deadline)
        assert len(by_seq) >= STEPS - 5
        assert all(len(d) == 1 and None not in d for d in by_seq.values()), "seats were given different deadlines"
        asked = [{seq for seq, _ in rows} for rows in seen.values()]
        assert asked[0] == asked[1] == asked[2] == asked[3], "some seat was not asked at some step"


def test_a_seat_that_passed_may_bid_at_a_later_step(tmp_path: Path) -> None:
    """反主 at any moment of the deal: the person passes the step where the bid first becomes possible and
    bids it steps later; the bid is applied at once."""
    with LiveServer(fast_settings(tmp_path, claim_seconds=0.5), bot_factory=first_bot) as s:
        me = s.client("me")
        tid, [sock] = shengji_table(s, [me], pace_seconds=0.1)
        first: int | None = None
        while True:
            msg = sock.recv(10)
            if msg["type"] != "update" or msg.get("window") != "pace":
                continue
            bids = [a for a in sock.legal if a.startswith("bid")]
            if bids and first is None:
                first = msg["seq"]
                sock.act("pass")
            elif bids and msg["seq"] >= (first or 0) + 12:
                sock.act(bids[0])
                bid = sock.until(lambda m: any(e.get("type") == "bid" for e in m.get("events", [])), 5)
                assert any(e.get("seat") == 0 for e in bid["events"] if e.get("type") == "bid")
                break
            assert not dealt(s, tid), "the seed should give seat 0 a bid before the deal ends"


def test_a_table_of_bots_deals_without_pacing(tmp_path: Path) -> None:
    with LiveServer(fast_settings(tmp_path, claim_seconds=0.2), bot_factory=first_bot) as s:
        owner = s.client("owner")
        tid = owner.ok("/api/tables", {"game": "shengji", "seed": 3, "pace_seconds": 2.0})["id"]
        owner.ok(f"/api/tables/{tid}/leave")  # the seat a new table gives its creator: to a bot as well
        owner.ok(f"/api/tables/{tid}/bots")
        owner.ok(f"/api/tables/{tid}/start")
        assert wait_dealt(s, tid, 20) < 10, "51 steps of 2 s would take 102 s: the bots' deal was paced"


def test_the_pace_is_a_table_option_for_paced_games_only(tmp_path: Path) -> None:
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        games = {g["name"]: [o["name"] for o in g["table_options"]] for g in s.client().http.get("/api/games").json()}
        assert "pace_seconds" in games["shengji"] and "pace_seconds" not in games["huashui"]
        assert all("next_hand_seconds" in names for names in games.values())
        me = s.client("me")
        for bad in (-1, 99, "fast", True):
            r = me.post("/api/tables", {"game": "shengji", "pace_seconds": bad})
            assert r.status_code == 422 and r.json()["error"]["code"] == "bad_option", r.text


# ---- between hands ---------------------------------------------------------------------------------------

def play_until_pause(server: LiveServer, tid: str, socks: list[Socket]) -> dict[str, Any]:
    """Every person takes its first legal action until the first hand is over; the table's pause then."""
    table = server.room.tables[tid]
    end = time.monotonic() + 20
    while table.pause is None:
        assert time.monotonic() < end, "the first hand did not end"
        for sk in socks:
            with contextlib.suppress(TimeoutError):
                sk.recv(0.05)
            if sk.legal and table.pause is None:
                sk.act(sk.legal[0])
                sk.last_state = None
    info: dict[str, Any] = table.info()
    return info


def test_the_next_hand_waits_until_every_person_presses_continue(tmp_path: Path) -> None:
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        a, b = s.client("a"), s.client("b")
        tid, socks = shuiyu_table(s, [a, b], next_hand_seconds=60)
        info = play_until_pause(s, tid, socks)
        table = s.room.tables[tid]
        assert info["pause"]["waiting"] == [0, 1] and info["pause"]["ready"] == []
        seq = table.seq
        # nobody decides during the pause: no legal actions, no deadlines, the bots wait too
        socks[0].send({"type": "resume", "since": seq})
        state = socks[0].until(lambda m: m["type"] == "update")
        assert state["legal"] == [] and state["deadline"] is None
        socks[0].act("open")
        err = socks[0].until(lambda m: m["type"] == "error")
        assert err["code"] == "between_hands" and err["zh"] and err["en"]
        socks[0].send({"type": "continue"})
        shown = socks[1].until(lambda m: m["type"] == "table" and (m["table"]["pause"] or {}).get("ready") == [0])
        assert shown["table"]["pause"]["waiting"] == [1]
        time.sleep(0.3)
        assert table.seq == seq and table.pause is not None, "the table moved before everyone was ready"
        socks[1].send({"type": "continue"})
        socks[0].until(lambda m: m["type"] == "table" and m["table"]["pause"] is None)
        end = time.monotonic() + 5
        while not (table.seq > seq or any(sk.legal for sk in socks)):
            assert time.monotonic() < end, "the next hand did not start after everyone was ready"
            for sk in socks:
                with contextlib.suppress(TimeoutError):
                    sk.recv(0.05)


def test_the_pause_runs_out_by_itself(tmp_path: Path) -> None:
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        a = s.client("a")
        tid, socks = shuiyu_table(s, [a], next_hand_seconds=0.5)
        info = play_until_pause(s, tid, socks)
        until = info["pause"]["until"]
        msg = socks[0].until(lambda m: m["type"] == "table" and m["table"]["pause"] is None, 5)
        assert msg["table"]["pause"] is None and s.settings.clock() >= until - 0.05


def test_a_table_of_bots_does_not_pause(tmp_path: Path) -> None:
    with LiveServer(fast_settings(tmp_path, next_hand_seconds=60), bot_factory=first_bot) as s:
        owner = s.client("owner")
        tid = owner.ok("/api/tables", {"game": "shuiyu", "seed": 2, "config": {"seats": 4, "rounds": 3}})["id"]
        owner.ok(f"/api/tables/{tid}/leave")  # the seat a new table gives its creator: to a bot as well
        owner.ok(f"/api/tables/{tid}/bots")
        owner.ok(f"/api/tables/{tid}/start")
        end = time.monotonic() + 20
        while s.room.tables[tid].status != "finished":
            assert time.monotonic() < end, "bots alone waited between hands"
            assert s.room.tables[tid].pause is None
            time.sleep(0.02)


# ---- the claim pause -------------------------------------------------------------------------------------

def test_every_discard_waits_the_claim_pause_and_ends_with_one_update(tmp_path: Path) -> None:
    """After every discard the table waits the same pause whether or not anyone could claim, and the window
    ends with one update for all.  Timed by the server's clock: the moves as the room stores them."""
    pause = 0.4
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        a, b = s.client("a"), s.client("b")
        tid = a.ok("/api/tables", {"game": "huashui", "seed": 4, "config": {"hands": 1}, "claim_pause": pause})["id"]
        table = s.room.tables[tid]
        assert table.game.config.ask_everyone  # the rules ask all three after a discard
        stored: list[tuple[str, float]] = []
        record_move = table.store.record_move

        async def recording(move: Any, deadlines: Any) -> None:
            stored.append((move.action, move.at))
            await record_move(move, deadlines)

        table.store.record_move = recording
        for i, p in enumerate((a, b)):
            p.ok(f"/api/tables/{tid}/sit", {"seat": i})
        a.ok(f"/api/tables/{tid}/bots")
        socks = [p.socket(tid) for p in (a, b)]
        watcher = s.client().socket(tid)
        for sk in (*socks, watcher):
            sk.recv()
        a.ok(f"/api/tables/{tid}/start")
        discards = updates = 0
        end = time.monotonic() + 60
        while discards < 8 and table.status == "playing":
            assert time.monotonic() < end
            for sk in socks:  # the people play their first legal action at once, claims included
                with contextlib.suppress(TimeoutError):
                    sk.recv(0.01)
                if sk.legal:
                    sk.act(sk.legal[0])
                    sk.last_state = None
            with contextlib.suppress(TimeoutError):
                msg = watcher.recv(0.01)
                if msg["type"] == "update":
                    updates += 1
                    assert msg["deadlines"] == {} or not any(e.get("type") == "discard" for e in msg["events"])
                    discards += any(e.get("type") == "discard" for e in msg["events"])
        assert discards >= 4
        # each discard is followed by its window's answers, all stored at once and at least a pause later
        after = [(t1, t2) for (a1, t1), (_a2, t2) in itertools.pairwise(stored) if a1.startswith("discard")]
        assert len(after) >= 4
        assert min(t2 - t1 for t1, t2 in after) >= pause * 0.99, "a discard's window ended before the pause"
        answers = [t for act, t in stored if act == "pass"]
        assert answers and updates < len(stored), "every answer went out as an update of its own"


def test_a_seat_that_cannot_claim_is_not_asked_to_press_anything(tmp_path: Path) -> None:
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        people = [s.client("a"), s.client("b")]
        tid, socks = huashui_table(s, people, claim_pause=0.3)
        table = s.room.tables[tid]
        end = time.monotonic() + 30
        checked = 0
        while checked < 5 and time.monotonic() < end and table.status == "playing":
            for seat, sk in enumerate(socks):
                with contextlib.suppress(TimeoutError):
                    sk.recv(0.02)
                g = table.game
                if g.phase == "claim" and seat in g.to_move() and g.legal_actions(seat) == ["pass"]:
                    state = sk.last_state or {}
                    if state.get("seq") == table.seq:
                        assert state["legal"] == [], "a seat with nothing but pass was asked to press it"
                        checked += 1
                if sk.legal:
                    sk.act(sk.legal[0])
                    sk.last_state = None
        assert checked, "no claim window with a pass-only person came up"


def test_the_claim_pause_is_offered_where_the_rules_can_ask_everyone(tmp_path: Path) -> None:
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        games = {g["name"]: [o["name"] for o in g["table_options"]] for g in s.client().http.get("/api/games").json()}
        assert "claim_pause" in games["huashui"] and "claim_pause" in games["weimaque"]
        assert "claim_pause" not in games["shengji"] and "claim_pause" not in games["shuiyu"]
        me = s.client("me")
        off = me.ok("/api/tables", {"game": "huashui", "claim_pause": 0})
        assert off["config"]["ask_everyone"] is False
        on = me.ok("/api/tables", {"game": "huashui", "claim_pause": 1})
        assert on["config"]["ask_everyone"] is True
