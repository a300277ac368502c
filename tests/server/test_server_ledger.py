"""The ledger and the pages' platform scoring: each game's match entries, 等级基础分 at every boundary, every
逃跑 case, 3分钟出完牌不记分 with injected times, bots booking nothing, balances that add up under concurrent
bookings (two threads, two server processes on one database) and that a rebuild from the stored records
finds equal.  On SQLite and on PostgreSQL (``settings``)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, select

from paiju.bots.base import RandomBot
from paiju.core import Game, Record, get_game
from paiju.server import Settings
from paiju.server import storage as st
from paiju.server.scores import ledger as lg
from paiju.server.scores import scoring
from paiju.server.storage import Player as RoomPlayer

from .conftest import LiveServer, first_bot, ledger_of, registered_games, toy_table, wait_for

# The page's 等级基础分 table, written out again here (not imported) so the test checks the code against it.
PAGE_TABLE = """X<20 1 | 20≤X<40 2 | 40≤X<80 3 | 80≤X<120 4 | 120≤X<200 5 | 200≤X<400 10 | 400≤X<800 15 |
800≤X<1200 18 | 1200≤X<2000 20 | 2000≤X<5000 50 | 5000≤X<8000 60 | 8000≤X<12000 70 | 12000≤X<16000 80 |
16000≤X<20000 100 | 20000≤X<50000 150 | X≥50000 200"""


def page_base(x: int) -> int:
    for cell in PAGE_TABLE.replace("\n", " ").split("|"):
        cond, base = cell.split()
        if "≤" in cond and "<" in cond.split("≤X")[1]:
            lo, hi = cond.split("≤X<")
            if int(lo) <= x < int(hi):
                return int(base)
        elif (cond.startswith("X<") and x < int(cond[2:])) or (cond.startswith("X≥") and x >= int(cond[2:])):
            return int(base)
    raise AssertionError(x)


@pytest.mark.parametrize("bound", [20, 40, 80, 120, 200, 400, 800, 1200, 2000, 5000, 8000, 12000, 16000, 20000,
                                   50000])
def test_the_base_score_follows_the_page_at_every_boundary(bound: int) -> None:
    for x in (bound - 1, bound, bound + 1):
        assert lg.base_score(x) == page_base(x), x
    assert lg.base_score(-100) == 1 and lg.base_score(10**9) == 200


# ---- a database and finished matches written straight into it -----------------------------------------

@pytest.fixture
def engine(settings: Settings) -> Iterator[Engine]:
    e = st.make_engine(settings.db_url, settings.data_dir)
    st.migrate(e)
    try:
        yield e
    finally:
        e.dispose()


def play(game: Game[Any], until: Callable[[Game[Any]], bool] | None = None, seed: int = 0) -> None:
    """Bots play ``game`` on (to the end, or until ``until`` holds)."""
    bots = [RandomBot(seed + i) for i in range(game.num_seats)]
    while not game.finished and not (until and until(game)):
        seat = game.to_move()[0]
        game.apply(seat, bots[seat].act(game.view(seat), game.legal_actions(seat)))


_count = [0]


def store(conn: Connection, game: Game[Any], people: dict[int, str], *, step: float = 10.0, start: float = 1e9,
          times: list[float] | None = None, left: dict[int, tuple[int, str]] | None = None,
          escape: str | None = None, rated: bool = True, person: Sequence[bool | None] | None = None) -> str:
    """A finished table as the card room stores it: ``people`` seat → player id (bots elsewhere), one action
    every ``step`` seconds from ``start`` (or at ``times``), ``left`` seat → (move, reason) for persons a bot
    replaced; rated (as a room with ``rated_bots`` for its bots would make it) unless ``rated=False``;
    ``person``: per move, whether the seat's person sent it."""
    _count[0] += 1
    tid = f"t{_count[0]}_{int(time.time() * 1000) % 100000}"
    for pid in people.values():
        if conn.execute(select(st.players.c.id).where(st.players.c.id == pid)).first() is None:
            st.add_player(conn, RoomPlayer(pid, pid.upper()), start)
    left = left or {}
    seats = [st.SeatRow(s, people.get(s), None, None if s in people and s not in left else "best",
                        left[s][1] if s in left else None) for s in range(game.num_seats)]
    st.add_table(conn, st.TableRow(id=tid, game=game.name, config=game.config.to_dict(), seed=game.seed,
                                   deal=game.deal, turn_seconds=0, claim_seconds=0, private=False, invite=None,
                                   owner_id=None, status="playing", created_at=start, started_at=start,
                                   seats=seats))
    st.set_status(conn, tid, "playing", start, {}, rated=rated)
    times = times or [start + step * (i + 1) for i in range(len(game.history))]
    for n, ((seat, action), at) in enumerate(zip(game.history, times, strict=True), start=1):
        st.add_action(conn, st.action_row(tid, n, seat, action, at, None if person is None else person[n - 1]))
    for seat, (move, reason) in left.items():
        st.add_departure(conn, tid, seat, people[seat], times[move - 1] if move else start, move, reason)
    result = game.result()
    assert result is not None
    st.finish(conn, tid, times[-1], result.to_dict())
    scoring.set_rule(conn, tid, escape)
    return tid


def entries(conn: Connection, table_id: str) -> dict[tuple[str, str], dict[str, Any]]:
    rows = conn.execute(select(lg.ledger).where(lg.ledger.c.table_id == table_id)).mappings()
    return {(r["player_id"], r["reason"]): {**r, "note": json.loads(r["note"])} for r in rows}


@pytest.mark.parametrize("name", registered_games())
def test_each_game_books_every_person_once_and_no_bot(engine: Engine, name: str) -> None:
    cls = get_game(name)
    game = cls.new(cls.config_class(), seed=3)
    play(game)
    people = {s: f"{name}{s}" for s in range(game.num_seats - 1)}  # the last seat is a bot
    with engine.begin() as c:
        tid = store(c, game, people)
        assert scoring.book_pending(c, 2e9) >= 1
        got = entries(c, tid)
        result = game.result()
        assert result is not None
        assert set(got) == {(pid, "match") for pid in people.values()}  # 0 points included, no bot
        for seat, pid in people.items():
            e = got[(pid, "match")]
            assert e["points"] == round(result.scores[seat]) and e["balance"] == e["points"]  # base 1 at X = 0
        standing = lg.standing_of(c, people[0])
        assert standing == {name: {"score": got[(people[0], "match")]["points"], "base": lg.base_score(
            got[(people[0], "match")]["points"]), "matches": 1}}
        assert scoring.book_pending(c, 2e9) == 0 and len(entries(c, tid)) == len(people)  # booked once
        assert lg.check_balances(c) == []


def test_a_match_books_its_score_times_the_base(engine: Engine) -> None:
    with engine.begin() as c:
        st.add_player(c, RoomPlayer("rich", "RICH"), 0)
        lg.book(c, [lg.Claim("rich", "shuiyu", None, "correction", "seed:1", 1999, by_base=False)], 1.0)
        cls = get_game("shuiyu")
        game = cls.new(cls.config_class(), seed=11)
        play(game)
        assert game.result() is not None
        tid = store(c, game, {0: "rich"})
        scoring.book_pending(c, 2e9)
        e = entries(c, tid)[("rich", "match")]
        score = game.result().scores[0]  # type: ignore[union-attr]
        assert e["points"] == round(score * 20) and e["note"]["base"] == 20 and e["balance"] == 1999 + e["points"]


def shengji(max_hands: int = 1, seed: int = 5) -> Game[Any]:
    cls = get_game("shengji")
    return cls.new(cls.config_class.from_dict({"max_hands": max_hands}), seed=seed)


def hand_spans(game: Game[Any]) -> list[tuple[int, int]]:
    result = game.result()
    assert result is not None
    return [(h["actions"][0], h["actions"][1]) for h in result.detail["hand_log"]]


def timed(spans: list[tuple[int, int]], seconds: list[float], start: float = 1e9) -> list[float]:
    """Action times making hand k last seconds[k] (its actions spread evenly)."""
    out: list[float] = []
    t = start
    for (first, last), secs in zip(spans, seconds, strict=True):
        n = last - first + 1
        out += [t + secs * (i + 1) / n for i in range(n)]
        t += secs
    return out


@pytest.mark.parametrize(("seconds", "reason", "counted"), [
    ([179.9], "under_3_minutes", []), ([180.0], "match", [0]),
    ([179.0, 200.0], "match", [1]), ([60.0, 60.0], "under_3_minutes", [])])
def test_shengji_hands_under_3_minutes_score_nothing(engine: Engine, seconds: list[float], reason: str,
                                                      counted: list[int]) -> None:
    game = shengji(max_hands=len(seconds))
    play(game)
    spans = hand_spans(game)
    result = game.result()
    assert result is not None and len(spans) == len(seconds)
    hands = result.detail["hand_log"]
    with engine.begin() as c:
        tid = store(c, game, {0: "p0", 1: "p1", 2: "p2", 3: "p3"}, times=timed(spans, seconds))
        scoring.book_pending(c, 2e9)
        got = entries(c, tid)
        for seat in range(4):
            e = got[(f"p{seat}", reason)]
            expect = sum((h["gained"] if seat % 2 == h["team"] else -h["gained"]) for k, h in enumerate(hands)
                         if k in counted)
            assert e["points"] == expect
            assert [v["hand"] for v in e["note"].get("void", [])] == [k + 1 for k in range(len(seconds))
                                                                     if k not in counted]


def _mid_hand(game: Game[Any]) -> bool:
    v = game.view(-2)
    return v["phase"] == "play" and v["points"] > 0 and len(v["tricks"]) >= 6


@pytest.mark.parametrize("seconds", [400.0, 100.0])
def test_shengji_escape_by_the_page(engine: Engine, seconds: float) -> None:
    """Seat 1 leaves mid-way through the second hand: −24 × base; the others are scored on the points taken so
    far when the hand has run 3 minutes (else 0), and that hand is left out of their match entries; at the
    end the leaver settles the seat's loss over the hands that count (the first)."""
    from paiju.games.shengji.rules import level_change

    game = shengji(max_hands=2)
    play(game, until=lambda g: g.hands_finished() >= 1 and _mid_hand(g))
    move = len(game.history)
    v = game.view(-2)
    defenders = v["dealer"] % 2
    total = max(0, v["points"] + v["penalties"][defenders] - v["penalties"][1 - defenders])
    side, n = level_change(total)
    team = 1 - defenders if side == "attackers" else defenders
    gained = min(v["levels"][team] + n, 14) - v["levels"][team]
    play(game)
    (_f1, l1), _second = hand_spans(game)
    result = game.result()
    assert result is not None
    first = result.detail["hand_log"][0]
    times = [1e9 + 200.0 * (i + 1) / (l1 + 1) for i in range(l1 + 1)]  # the first hand: 200 s, it counts
    n2 = move - (l1 + 1)
    times += [times[-1] + seconds * (i + 1) / n2 for i in range(n2)]  # the second, up to the escape
    times += [times[-1] + i + 1 for i in range(len(game.history) - move)]
    with engine.begin() as c:
        tid = store(c, game, {s: f"e{s}" for s in range(4)}, times=times, left={1: (move, "left")})
        scoring.book_pending(c, 2e9)
        got = entries(c, tid)
        assert got[("e1", "escape")]["points"] == -24 and ("e1", "match") not in got
        for seat in (0, 2, 3):
            bonus = got[(f"e{seat}", "escape_bonus")]
            want = (gained if seat % 2 == team else -gained) if seconds >= 180 else 0
            assert bonus["points"] == want and bonus["note"]["points_so_far"] == v["points"]
            assert bonus["note"].get("under_3_minutes", False) == (seconds < 180)
            match = got[(f"e{seat}", "match")]
            hand1 = first["gained"] if seat % 2 == first["team"] else -first["gained"]
            assert match["points"] == hand1 and [(x["hand"], x["why"]) for x in match["note"]["void"]] == [
                (2, "escape")]
        # leaving never pays more than staying and losing: −24 × base, then min(0, the seat's levels) × base
        lost = min(0, first["gained"] if first["team"] == 1 % 2 else -first["gained"])
        settle = got.get(("e1", "escape_settle"))
        assert (settle["points"] if settle else 0) == lost
        assert got[("e1", "escape")]["points"] + (settle["points"] if settle else 0) <= -24
        assert lg.check_balances(c) == []


def test_shengji_escape_by_the_flat_rule_when_the_table_says_so(engine: Engine) -> None:
    game = shengji()
    play(game, until=_mid_hand)
    move = len(game.history)
    play(game)
    with engine.begin() as c:
        tid = store(c, game, {s: f"f{s}" for s in range(4)}, step=5.0, left={2: (move, "disconnected")},
                    escape="flat")
        scoring.book_pending(c, 2e9)
        got = entries(c, tid)
        result = game.result()
        assert result is not None
        assert got[("f2", "escape")]["points"] == -8
        for seat in (0, 1, 3):  # no whole hand was played with the leaver: no bonus
            assert (f"f{seat}", "escape_bonus") not in got
            assert got[(f"f{seat}", "match")]["note"].get("void") is None
        lost = min(0.0, result.scores[2])
        assert entries(c, tid).get(("f2", "escape_settle"), {"points": 0})["points"] == round(lost)


# ---- through the card room --------------------------------------------------------------------------------

def test_leaving_a_started_match_books_the_escape_at_once(settings: Settings) -> None:
    with LiveServer(settings, bot_factory=first_bot) as s:
        a, b, c = (s.client(n) for n in "abc")
        tid, socks = toy_table(s, [a, b, c], deal={"hands": [["1", "2"], ["3", "4"], ["5", "6"]]},
                               config={"hand_size": 2})
        a.ok(f"/api/tables/{tid}/leave")
        assert [(e["reason"], e["points"], e["balance"]) for e in ledger_of(a)] == [("escape", -8, -8)]
        for p in (b, c):  # the toy match is one hand: nobody played a whole hand with a, so no bonus
            assert ledger_of(p) == []
        socks[1].until(lambda m: m["type"] == "update" and m["seq"] == 1)  # a's bot played for a
        socks[1].act("play 3")
        socks[2].until(lambda m: m["type"] == "update" and m["seq"] == 2)
        socks[2].act("play 5")
        socks[1].until(lambda m: m["type"] == "update" and m["seq"] == 4)
        socks[1].act("play 4")
        socks[2].until(lambda m: m["type"] == "update" and m["seq"] == 5)
        socks[2].act("play 6")
        wait_for(lambda: len(ledger_of(b)) == 1)
        assert [e["reason"] for e in ledger_of(a)] == ["escape"]  # no match entry; the seat scored 0: no settle
        for p in (b, c):
            assert [(e["reason"], e["points"], e["balance"]) for e in ledger_of(p)] == [("match", 0, 0)]
        board = s.client().http.get("/api/leaderboard?game=toy").json()
        assert [(r["player"]["id"], r["score"], r["matches"]) for r in board][-1] == (a.id, -8, 0)
        # leaving before the start books nothing
        tid2, _ = toy_table(s, [b], start=False)
        b.ok(f"/api/tables/{tid2}/leave")
        assert len(ledger_of(b)) == 1


def play_people(s: LiveServer, tid: str, socks: dict[int, Any], pick: int = 0) -> None:
    """The people at ``socks`` (seat → socket) play their turns (legal action ``pick``) until the end; bots
    play the rest."""
    table = s.room.tables[tid]
    while not table.game.finished:
        turn = table.game.to_move()[0]
        seq = table.seq
        if turn in socks and table.row.seats[turn].bot is None:
            legal = table.game.legal_actions(turn)
            socks[turn].act(legal[min(pick, len(legal) - 1)])

        def moved(seq: int = seq) -> bool:
            return bool(table.seq > seq or table.game.finished)

        wait_for(moved)


def test_a_person_replaced_after_the_grace_who_never_returns_escapes_at_the_end(settings: Settings) -> None:
    with LiveServer(settings.with_(grace_seconds=0.2), bot_factory=first_bot) as s:
        gone, back, stay = (s.client(n) for n in ("gone", "back", "stay"))
        tid, socks = toy_table(s, [gone, back, stay], deal={"hands": [["1", "2"], ["3", "4"], ["5", "6"]]},
                               config={"hand_size": 2})
        socks[0].close()
        socks[1].close()
        wait_for(lambda: all(x["replaced"] == "disconnected" for x in s.room.tables[tid].info()["seats"][:2]))
        assert ledger_of(stay) == []  # nothing yet: they may come back
        again = back.socket(tid)
        again.recv()
        wait_for(lambda: s.room.tables[tid].info()["seats"][1]["replaced"] is None)
        play_people(s, tid, {1: again, 2: socks[2]})
        wait_for(lambda: len(ledger_of(stay)) == 1)
        assert [e["reason"] for e in ledger_of(gone)] == ["escape"]
        for p in (back, stay):  # no whole hand shared with the one who went: no bonus
            assert [e["reason"] for e in ledger_of(p)] == ["match"]


# ---- concurrency -----------------------------------------------------------------------------------------

def test_bookings_at_once_lose_no_update(settings: Settings) -> None:
    """Two connections (as two processes would) book the same player's entries at the same moment."""
    engines = [st.make_engine(settings.db_url, settings.data_dir) for _ in range(2)]
    st.migrate(engines[0])
    with engines[0].begin() as c:
        st.add_player(c, RoomPlayer("both", "BOTH"), 0)
    rounds = 15
    barrier = threading.Barrier(2, timeout=30)
    errors: list[BaseException] = []

    def worker(k: int) -> None:
        try:
            for i in range(rounds):
                barrier.wait()
                with engines[k].begin() as c:
                    lg.book(c, [lg.Claim("both", "toy", None, "match", f"w{k}:{i}", 7 + k)], float(i))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert errors == []
        with engines[0].connect() as c:
            assert lg.check_balances(c) == []
            assert lg.standing_of(c, "both")["toy"]["matches"] == 2 * rounds
    finally:
        for e in engines:
            e.dispose()


def test_one_players_two_matches_ending_at_once_on_two_servers(settings: Settings) -> None:
    deal = {"hands": [["1"], ["2"], ["3"]]}
    settings = settings.with_(rated_bots=2)  # one person and two bots: rated in this room
    with LiveServer(settings, bot_factory=first_bot) as one, LiveServer(settings, bot_factory=first_bot) as two:
        me = one.client("me")
        me2 = two.client()
        me2.token, me2.id = me.token, me.id
        me2.http.headers["Authorization"] = f"Bearer {me.token}"
        _t1, [s1] = toy_table(one, [me], deal=deal, config={"hand_size": 1})
        _t2, [s2] = toy_table(two, [me2], deal=deal, config={"hand_size": 1})
        s1.act("play 1")
        s2.act("play 1")
        for sock in (s1, s2):
            sock.until(lambda m: m["type"] == "update" and m["view"]["finished"])
        wait_for(lambda: len(ledger_of(me)) == 2)
        with one.room.db.engine.connect() as c:
            assert lg.check_balances(c) == []
            assert lg.standing_of(c, me.id or "")["toy"]["matches"] == 2


# ---- reading back, and the rebuild -------------------------------------------------------------------------

def test_profile_pages_and_the_leaderboard(settings: Settings) -> None:
    with LiveServer(settings.with_(rated_bots=1), bot_factory=first_bot) as s:
        a, b = s.client("甲"), s.client("乙")
        deal = {"hands": [["1"], ["1"], ["3"]]}
        tables = []
        for _ in range(3):  # b takes a's card each time: b +1 a match, a 0
            tid, socks = toy_table(s, [a, b], deal=deal, config={"hand_size": 1})
            socks[0].act("play 1")
            socks[1].until(lambda m: m["type"] == "update" and m["legal"])
            socks[1].act("take")
            socks[0].until(lambda m: m["type"] == "update" and m["view"]["finished"])
            tables.append(tid)
        wait_for(lambda: len(ledger_of(b)) == 3)
        anon = s.client()
        prof = anon.http.get(f"/api/players/{b.id}?limit=2").json()
        assert prof["standing"] == {"toy": {"score": 3, "base": 1, "matches": 3}}
        assert [e["table"] for e in prof["ledger"]] == tables[::-1][:2] and prof["next"]
        assert [e["balance"] for e in prof["ledger"]] == [3, 2]
        rest = anon.http.get(f"/api/players/{b.id}?limit=2&cursor={prof['next']}").json()
        assert [e["table"] for e in rest["ledger"]] == [tables[0]] and rest["next"] is None
        first = prof["ledger"][0]
        assert first["match"]["scores"] == [0, 1, 0] and first["match"]["seats"][2]["bot"] == "best"
        assert anon.http.get("/api/players/nobody").status_code == 404
        assert anon.http.get(f"/api/players/{b.id}?cursor=zzz").json()["error"]["code"] == "bad_cursor"
        r = anon.http.get("/api/leaderboard?game=toy&limit=1")
        assert [(x["rank"], x["player"]["nickname"], x["score"]) for x in r.json()] == [(1, "乙", 3)]
        nxt = r.headers["Link"].split(">")[0].lstrip("<")
        assert [(x["rank"], x["player"]["nickname"], x["score"]) for x in anon.http.get(nxt).json()] == [
            (2, "甲", 0)]
        assert anon.http.get("/api/leaderboard?game=nope").status_code == 422
        assert anon.http.get("/api/leaderboard?game=shuiyu").json() == []


def test_every_balance_rebuilds_from_the_stored_records(settings: Settings) -> None:
    """Replay every booked match from its record, recompute each person's points with the page's base table
    from the entries' order, and find the stored entries and standings equal."""
    with LiveServer(settings, bot_factory=first_bot) as s:
        people = [s.client(n) for n in "xyz"]
        for k, deal in enumerate(({"hands": [["1"], ["1"], ["3"]]}, {"hands": [["2"], ["5"], ["2"]]},
                                  {"hands": [["4"], ["4"], ["4"]]})):
            tid, socks = toy_table(s, people, deal=deal, config={"hand_size": 1})
            play_people(s, tid, dict(enumerate(socks)), pick=k % 2)
        wait_for(lambda: s.room.db.run_now(lambda c: len(list(c.execute(select(lg.ledger.c.id))))) == 9)
        with s.room.db.engine.connect() as c:
            rebuilt: dict[str, int] = {}
            for e in c.execute(select(lg.ledger).order_by(lg.ledger.c.id)).mappings():
                row = st.load_tables(c, table_id=e["table_id"])[0]
                game = get_game(row.game).replay(
                    Record(row.game, row.config, row.seed, tuple((a[0], a[1]) for a in row.actions), row.deal))
                seat = next(x.seat for x in row.seats if x.player_id == e["player_id"])
                result = game.result()
                assert result is not None and e["reason"] == "match"
                before = rebuilt.get(e["player_id"], 0)
                points = round(result.scores[seat] * page_base(before))
                rebuilt[e["player_id"]] = before + points
                assert (e["points"], e["balance"]) == (points, before + points)
            for pid, balance in rebuilt.items():
                assert lg.standing_of(c, pid)["toy"]["score"] == balance


class TickingClock:
    """An injected clock that moves ``tick`` seconds every time the card room reads it."""

    def __init__(self, tick: float) -> None:
        self.now = 1_800_000_000.0
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def test_a_shengji_hand_through_the_room_is_timed_by_the_rooms_clock(tmp_path: Any, toy_game: Any) -> None:
    """A whole 升级 hand played through the room on an injected clock that makes it last well under 3 minutes
    (the storage-level tests above cover the boundary)."""
    from .conftest import fast_settings

    reason = "under_3_minutes"
    settings = fast_settings(tmp_path, clock=TickingClock(0.01), min_turn_seconds=0.05,  # sub-second turns
                             rated_bots=3)  # one person and three bots: rated in this room
    with LiveServer(settings, bot_factory=first_bot) as s:
        me = s.client("me")
        # the person sits and lets every turn time out: the room's bot takes the move (not an escape)
        info = me.ok("/api/tables", {"game": "shengji", "seed": 7, "turn_seconds": 0.05, "claim_seconds": 0.05,
                                     "pace_seconds": 0.05})
        tid = info["id"]
        me.ok(f"/api/tables/{tid}/sit", {"seat": 0})
        me.ok(f"/api/tables/{tid}/bots")
        me.ok(f"/api/tables/{tid}/start")
        [entry] = wait_for(lambda: ledger_of(me), 60)
        assert entry["reason"] == reason and entry["points"] == 0
        g = s.room.tables[tid].game
        # the hand did move levels (seed 7 does, whoever the room asks first), so the rule voided them
        assert g.result().scores[0] != 0, g.result().scores
