"""Scores people can trust (issue 34): rated and casual matches, and the rules that keep the ledger from being
farmed — each tried as a farmer would, with a scripted match.  On SQLite and on PostgreSQL (``settings``).

- rated only with a person in every seat at the start (``rated_bots`` allows N bots), casual otherwise or when
  the creator says so; a casual match books nothing; quick match's bots make its table casual;
- bad input: an unknown ``rated`` value is 422, asking ``rated`` at a table with bots is refused;
- leaving never pays more than staying and losing (``escape_settle``);
- an escape bonus only after a whole hand shared with the leaver;
- an idle hand (no decision of the person's own) books no gain, its loss stands;
- the backfill of revision 0006 from the stored seating, the ledger untouched;
- the addresses kept for collusion signals: in the person's data, deleted with the account, at most 30 days.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from paiju.core import Game, get_game
from paiju.server import Settings
from paiju.server import storage as st
from paiju.server.scores import ledger as lg
from paiju.server.scores import scoring
from paiju.server.storage import Player as RoomPlayer

from .conftest import FakeClock, LiveServer, first_bot, ledger_of, register, toy_table, wait_for
from .test_server_ledger import entries, play, play_people, store

NO_CLAIMS = {"hands": [["1", "2"], ["3", "4"], ["5", "6"]]}


@pytest.fixture
def engine(settings: Settings) -> Iterator[Engine]:
    e = st.make_engine(settings.db_url, settings.data_dir)
    st.migrate(e)
    try:
        yield e
    finally:
        e.dispose()


def strict(settings: Settings, **changes: Any) -> Settings:
    """The room's default: a match with any bot at its start is casual."""
    return settings.with_(**{"rated_bots": 0, **changes})


def finish(s: LiveServer, tid: str, socks: list[Any]) -> None:
    play_people(s, tid, dict(enumerate(socks)))
    wait_for(lambda: s.room.tables[tid].status == "finished")


# ---- rated and casual ----------------------------------------------------------------------------------------

def test_a_table_with_a_bot_from_the_start_is_casual_and_books_nothing(settings: Settings) -> None:
    with LiveServer(strict(settings), bot_factory=first_bot) as s:
        a, b = s.client("a"), s.client("b")
        info = a.ok("/api/tables", {"game": "toy", "deal": NO_CLAIMS, "config": {"hand_size": 2}})
        assert info["rated"] == "open"  # rated if people fill it
        a.ok(f"/api/tables/{info['id']}/sit", {"seat": 0})
        b.ok(f"/api/tables/{info['id']}/sit", {"seat": 1})
        assert a.ok(f"/api/tables/{info['id']}/bots")["rated"] == "casual"  # a bot now: casual unless taken out
        assert a.ok(f"/api/tables/{info['id']}/bots/remove", {"seat": 2})["rated"] == "open"
        a.ok(f"/api/tables/{info['id']}/bots")
        socks = [p.socket(info["id"]) for p in (a, b)]
        a.ok(f"/api/tables/{info['id']}/start")
        finish(s, info["id"], socks)
        table = a.http.get(f"/api/tables/{info['id']}").json()
        assert table["rated"] == "casual"
        time.sleep(0.3)
        assert ledger_of(a) == [] and ledger_of(b) == []
        with s.room.db.engine.connect() as c:  # looked at, and booked as nothing
            assert c.execute(select(lg.table_scoring.c.booked_at)
                             .where(lg.table_scoring.c.table_id == info["id"])).scalar() is not None
            assert c.execute(select(func.count()).select_from(lg.ledger)).scalar() == 0


def test_people_in_every_seat_make_a_rated_match_and_a_leaver_s_bot_keeps_it_rated(settings: Settings) -> None:
    with LiveServer(strict(settings), bot_factory=first_bot) as s:
        a, b, c = (s.client(n) for n in "abc")
        tid, socks = toy_table(s, [a, b, c], deal=NO_CLAIMS, config={"hand_size": 2}, start=False)
        assert a.http.get(f"/api/tables/{tid}").json()["rated"] == "rated"
        a.ok(f"/api/tables/{tid}/start")
        a.ok(f"/api/tables/{tid}/leave")  # a bot plays a's seat on: still rated
        finish(s, tid, [None, *socks[1:]])
        assert a.http.get(f"/api/tables/{tid}").json()["rated"] == "rated"
        wait_for(lambda: len(ledger_of(b)) == 1)
        assert [e["reason"] for e in ledger_of(a)] == ["escape"]
        assert [e["reason"] for e in ledger_of(c)] == ["match"]


def test_the_room_may_rate_matches_with_up_to_n_bots(settings: Settings) -> None:
    with LiveServer(strict(settings, rated_bots=1), bot_factory=first_bot) as s:
        a, b = s.client("a"), s.client("b")
        tid, socks = toy_table(s, [a, b], deal=NO_CLAIMS, config={"hand_size": 2})
        finish(s, tid, socks)
        assert a.http.get(f"/api/tables/{tid}").json()["rated"] == "rated"
        wait_for(lambda: len(ledger_of(a)) == 1 and len(ledger_of(b)) == 1)
        one = s.client("one")
        tid2, socks2 = toy_table(s, [one], deal=NO_CLAIMS, config={"hand_size": 2})  # two bots: one too many
        finish(s, tid2, socks2)
        assert one.http.get(f"/api/tables/{tid2}").json()["rated"] == "casual"
        time.sleep(0.3)
        assert ledger_of(one) == []


def test_the_creator_marks_a_table_casual_and_bad_rated_values_are_refused(settings: Settings) -> None:
    with LiveServer(strict(settings), bot_factory=first_bot) as s:
        a, b, c = (s.client(n) for n in "abc")
        for bad in ("yes", 1, None, [True]):
            r = a.post("/api/tables", {"game": "toy", "rated": bad})
            assert r.status_code == 422 and r.json()["error"]["code"] == "bad_option", (bad, r.text)
        tid, socks = toy_table(s, [a, b, c], deal=NO_CLAIMS, config={"hand_size": 2}, rated=False)
        assert a.http.get(f"/api/tables/{tid}").json()["rated"] == "casual"
        finish(s, tid, socks)
        time.sleep(0.3)
        assert ledger_of(a) == ledger_of(b) == ledger_of(c) == []
        # asking for rated at a table that already has bots is refused, with the reason
        other = a.ok("/api/tables", {"game": "toy"})["id"]
        a.ok(f"/api/tables/{other}/sit", {"seat": 0})
        b.ok(f"/api/tables/{other}/sit", {"seat": 1})
        assert a.ok(f"/api/tables/{other}/rated", {"rated": False})["rated"] == "casual"
        assert a.ok(f"/api/tables/{other}/rated", {"rated": True})["rated"] == "open"
        assert b.post(f"/api/tables/{other}/rated", {"rated": False}).status_code == 403  # not the creator
        a.ok(f"/api/tables/{other}/bots")
        r = a.post(f"/api/tables/{other}/rated", {"rated": True})
        assert r.status_code == 409 and r.json()["error"]["code"] == "has_bots" and "bots" in r.json()["error"]["en"]
        r = a.post(f"/api/tables/{other}/rated", {"rated": "maybe"})
        assert r.status_code == 422


def test_a_quick_table_filled_with_bots_becomes_casual(settings: Settings) -> None:
    with LiveServer(strict(settings, quick_match_seconds=0.3), bot_factory=first_bot) as s:
        a = s.client("a")
        first = a.ok("/api/quick", {"game": "toy"})
        assert first["rated"] == "open"
        wait_for(lambda: s.room.tables[first["id"]].status != "waiting")
        assert a.http.get(f"/api/tables/{first['id']}").json()["rated"] == "casual"


# ---- leaving, bonuses and idling, by the stored records ---------------------------------------------------------

def shuiyu(seed: int = 3) -> Game[Any]:
    cls = get_game("shuiyu")
    return cls.new(cls.config_class(), seed=seed)


def test_leaving_never_pays_more_than_staying_and_losing_flat(engine: Engine) -> None:
    """水鱼 (flat): the leaver's total is min(−8, the seat's final score − 8) at base 1."""
    game = shuiyu()
    play(game)
    result = game.result()
    assert result is not None
    loser = min(range(4), key=lambda seat: result.scores[seat])
    final = result.scores[loser]
    assert final < 0
    with engine.begin() as c:
        tid = store(c, game, {seat: f"s{seat}" for seat in range(4)}, left={loser: (3, "left")})
        scoring.book_pending(c, 2e9)
        got = entries(c, tid)
        assert got[(f"s{loser}", "escape")]["points"] == -8
        settle = got[(f"s{loser}", "escape_settle")]
        assert settle["points"] == round(final) and settle["note"]["final"] == final
        assert got[(f"s{loser}", "escape")]["points"] + settle["points"] == min(-8, round(final) - 8)
        assert (f"s{loser}", "match") not in got
        assert lg.check_balances(c) == []
    winner = max(range(4), key=lambda seat: result.scores[seat])
    with engine.begin() as c:  # a seat that ends above 0 settles nothing: the leaver keeps −8
        tid = store(c, game, {seat: f"w{seat}" for seat in range(4)}, left={winner: (3, "left")})
        scoring.book_pending(c, 2e9)
        got = entries(c, tid)
        assert (f"w{winner}", "escape_settle") not in got and got[(f"w{winner}", "escape")]["points"] == -8


def test_an_escape_bonus_needs_a_whole_hand_played_with_the_leaver(engine: Engine) -> None:
    game = shuiyu()
    play(game)
    hands = scoring.replay_hands(game.record().to_dict(), game.result().to_dict())  # type: ignore[union-attr]
    assert len(hands) >= 2
    early, late = hands[0].last, hands[1].first + 1  # during hand 1, and one move into hand 2
    with engine.begin() as c:
        tid = store(c, game, {seat: f"x{seat}" for seat in range(4)}, left={0: (early, "left")})
        scoring.book_pending(c, 2e9)
        assert not [k for k in entries(c, tid) if k[1] == "escape_bonus"]  # 13 guests leaving feed nobody
        tid = store(c, game, {seat: f"y{seat}" for seat in range(4)}, left={0: (late, "left")})
        scoring.book_pending(c, 2e9)
        got = entries(c, tid)
        assert {k for k in got if k[1] == "escape_bonus"} == {(f"y{seat}", "escape_bonus") for seat in (1, 2, 3)}
        assert all(got[(f"y{seat}", "escape_bonus")]["points"] == 1 for seat in (1, 2, 3))
        assert lg.check_balances(c) == []


def test_an_idle_hand_books_no_gain_and_its_loss_stands(engine: Engine) -> None:
    game = shuiyu()
    play(game)
    result = game.result()
    assert result is not None
    hands = scoring.replay_hands(game.record().to_dict(), result.to_dict())
    assert sum(h.scores[0] for h in hands) == result.scores[0]
    gain = next(h for h in hands if h.scores[0] > 0)
    loss = next(h for h in hands if h.scores[0] < 0)
    idle = {gain.hand, loss.hand}
    # seat 0's person sent nothing in those two hands (autoplay, timeouts): every other move was theirs
    person = [not (seat == 0 and any(h.first <= n <= h.last for h in hands if h.hand in idle))
              for n, (seat, _a) in enumerate(game.history)]
    with engine.begin() as c:
        tid = store(c, game, {seat: f"i{seat}" for seat in range(4)}, person=person)
        scoring.book_pending(c, 2e9)
        got = entries(c, tid)
        e = got[("i0", "match")]
        assert e["points"] == round(result.scores[0] - gain.scores[0])  # the gain is gone, the loss stands
        assert [(v["hand"], v["why"]) for v in e["note"]["void"]] == [(gain.hand, "idle")]
        for seat in (1, 2, 3):
            assert got[(f"i{seat}", "match")]["points"] == round(result.scores[seat])
        assert lg.check_balances(c) == []


def test_a_move_the_person_sends_is_marked_theirs_and_the_rooms_are_not(settings: Settings) -> None:
    """Through the room: the person's own moves are stored as theirs, a timeout's as the room's."""
    with LiveServer(settings.with_(turn_seconds=0.3, min_turn_seconds=0.05, autoplay_after_timeouts=0),
                    bot_factory=first_bot) as s:
        a, b, c = (s.client(n) for n in "abc")
        tid, socks = toy_table(s, [a, b, c], deal=NO_CLAIMS, config={"hand_size": 2}, turn_seconds=0.3)
        socks[0].act("play 1")  # a's own; b and c let their windows run out (the bot moves for them)
        wait_for(lambda: s.room.tables[tid].status == "finished", 20)
        with s.room.db.engine.connect() as conn:
            rows = conn.execute(select(st.actions.c.seat, st.actions.c.person)
                                .where(st.actions.c.table_id == tid).order_by(st.actions.c.n)).all()
        assert rows[0] == (0, True) and all(not p for seat, p in rows if seat != 0)
        wait_for(lambda: len(ledger_of(b)) == 1)
        assert ledger_of(b)[0]["points"] == 0  # idle: b books no gain (the toy's deal gives no points anyway)


# ---- the backfill ------------------------------------------------------------------------------------------------

def test_the_backfill_rates_old_matches_by_their_seating_and_keeps_the_ledger(settings: Settings) -> None:
    from alembic import command
    from alembic.config import Config

    e = st.make_engine(settings.db_url, settings.data_dir)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(st.__file__).with_name("migrations")))
    with e.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0005")
    with e.begin() as c:
        for pid in ("p0", "p1", "p2"):
            st.add_player(c, RoomPlayer(pid, pid.upper()), 1.0)
        people = [st.SeatRow(0, "p0"), st.SeatRow(1, "p1"), st.SeatRow(2, "p2")]
        botted = [st.SeatRow(0, "p0"), st.SeatRow(1, "p1"), st.SeatRow(2, bot="best")]
        left = [st.SeatRow(0, "p0"), st.SeatRow(1, "p1"), st.SeatRow(2, "p2", bot="best", replaced="left")]
        for tid, seats, status in (("all", people, "finished"), ("bot", botted, "finished"),
                                   ("gone", left, "finished"), ("wait", botted, "waiting")):
            st.add_table(c, st.TableRow(id=tid, game="toy", config={"hand_size": 1}, seed=1, deal=None,
                                        turn_seconds=0, claim_seconds=0, private=False, invite=None, owner_id="p0",
                                        status="waiting", created_at=2.0, seats=seats))
            if status == "finished":
                st.finish(c, tid, 7.0, {"scores": [1, 0, 0]})
        lg.book(c, [lg.Claim("p0", "toy", "bot", "match", "match:bot", 1)], 7.0)  # booked under the old rule
    st.migrate(e)
    with e.connect() as c:
        rated = {r.id: r.rated for r in c.execute(select(st.card_tables.c.id, st.card_tables.c.rated))}
        assert rated == {"all": True, "bot": False, "gone": True, "wait": None}
        assert [(r.reason, r.points) for r in c.execute(select(lg.ledger))] == [("match", 1)]  # append-only
        assert lg.check_balances(c) == []
    e.dispose()


# ---- the addresses behind the collusion signals ----------------------------------------------------------------

def test_addresses_are_the_persons_data_deleted_with_the_account_and_kept_30_days(settings: Settings) -> None:
    with LiveServer(settings, bot_factory=first_bot) as s:
        me = register(s, "addr_me", nickname="me")
        tid = me.ok("/api/tables", {"game": "toy"})["id"]
        me.ok(f"/api/tables/{tid}/sit", {"seat": 0})
        data = me.http.get("/api/me/data").json()
        assert [(x["table"], x["address"]) for x in data["addresses"]] == [(tid, "127.0.0.1")]
        now = s.settings.clock()
        with s.room.db.engine.begin() as c:  # an old row goes the next time an address is stored
            c.execute(st.addresses.insert().values(player_id=me.id, table_id=tid, address="10.0.0.9",
                                                   at=now - 31 * 86400))
        me.ok(f"/api/tables/{tid}/sit", {"seat": 1})
        assert {x["address"] for x in me.http.get("/api/me/data").json()["addresses"]} == {"127.0.0.1"}
        me.ok(f"/api/tables/{tid}/leave")
        r = me.http.request("DELETE", "/api/account", json={"password": "correct horse"})
        assert r.status_code in (200, 204), r.text
        with s.room.db.engine.connect() as c:
            assert c.execute(select(func.count()).select_from(st.addresses)
                             .where(st.addresses.c.player_id == me.id)).scalar() == 0


def test_addresses_past_30_days_go_on_a_timer_with_nobody_sitting_down(settings: Settings) -> None:
    """The room's purge runs by itself (``address_purge_seconds``): an address past its 30 days goes even when no
    one takes a seat or reads the signals; a younger one stays."""
    clock = FakeClock(time.time())
    with LiveServer(settings.with_(clock=clock, address_purge_seconds=0.05), bot_factory=first_bot) as s:
        me = s.client("me")
        tid = me.ok("/api/tables", {"game": "toy"})["id"]
        me.ok(f"/api/tables/{tid}/sit", {"seat": 0})

        def kept() -> int:
            with s.room.db.engine.connect() as c:
                return int(c.execute(select(func.count()).select_from(st.addresses)).scalar() or 0)

        assert kept() == 1
        clock.advance(29 * 86400)
        time.sleep(0.3)  # several rounds of the purge: 29 days old, still kept
        assert kept() == 1
        clock.advance(2 * 86400)
        wait_for(lambda: kept() == 0)


def test_collusion_signals_are_shown_to_hosts_only(settings: Settings) -> None:
    """Three people from one address meet at two rated tables: both signals show on the host's page; a casual
    table shows nothing; a player who is not a host is refused."""
    with LiveServer(settings, bot_factory=first_bot) as s:
        token = register(s, "boss").token
    with LiveServer(strict(settings, admins=("boss",), signal_meetings=2), bot_factory=first_bot) as s:
        boss = s.client()
        boss.token = token
        boss.http.headers["Authorization"] = f"Bearer {token}"
        a, b, c = (s.client(n) for n in "abc")
        rated = []
        for _ in range(2):
            tid, socks = toy_table(s, [a, b, c], deal=NO_CLAIMS, config={"hand_size": 2})
            finish(s, tid, socks)
            rated.append(tid)
        casual, socks = toy_table(s, [a, b, c], deal=NO_CLAIMS, config={"hand_size": 2}, rated=False)
        finish(s, casual, socks)
        assert a.http.get("/api/host/signals").status_code == 403
        got = boss.http.get("/api/host/signals").json()
        assert {x["table"] for x in got["same_address"]} == set(rated)  # not the casual one
        assert all("address" not in x for x in got["same_address"])  # hosts see who, never the address
        pairs = {tuple(sorted(p["id"] for p in x["players"])): x["tables"] for x in got["keep_meeting"]}
        ids = sorted(p.id or "" for p in (a, b, c))
        assert pairs == {(ids[0], ids[1]): 2, (ids[0], ids[2]): 2, (ids[1], ids[2]): 2}


# ---- casual matches in the players' history ---------------------------------------------------------------------

def test_casual_matches_are_in_the_history_marked_casual_and_paged_with_the_entries(settings: Settings) -> None:
    """The profile's history holds the ledger's entries and the casual matches (which book nothing), newest
    first, one cursor through both; a casual match is marked casual and its replay says so."""
    with LiveServer(strict(settings), bot_factory=first_bot) as s:
        a, b, c = (s.client(n) for n in "abc")
        made = []
        for rated in (True, False, True, False):
            tid, socks = toy_table(s, [a, b, c], deal=NO_CLAIMS, config={"hand_size": 2}, rated=rated)
            finish(s, tid, socks)
            made.append((tid, rated))
            if rated:
                wait_for(lambda: len(ledger_of(a)) == sum(1 for _t, r in made if r))
        assert [e["table"] for e in ledger_of(a)] == [t for t, r in made if r][::-1]  # the ledger as it was
        anon = s.client()
        prof = anon.http.get(f"/api/players/{a.id}?limit=3").json()
        pages = [prof["history"]]
        cursor = prof["history_next"]
        while cursor:
            page = anon.http.get(f"/api/players/{a.id}/history", params={"cursor": cursor, "limit": 3}).json()
            pages.append(page["history"])
            cursor = page["next"]
        got = [(x["table"], x["reason"]) for p in pages for x in p]
        assert got == [(t, "match" if r else "casual") for t, r in made][::-1] and [len(p) for p in pages] == [3, 1]
        casual = next(x for p in pages for x in p if x["reason"] == "casual")
        assert casual["casual"] is True and casual["points"] is None and casual["balance"] is None
        assert casual["match"]["rated"] is False and casual["match"]["seats"][0]["player"]["id"] == a.id
        assert anon.http.get(f"/api/tables/{casual['table']}/replay").json()["table"]["rated"] is False
        assert anon.http.get(f"/api/tables/{made[0][0]}/replay").json()["table"]["rated"] is True
        for bad in ("zzz", "WzEsMiwzXQ"):  # not a cursor; [1,2,3]
            r = anon.http.get(f"/api/players/{a.id}/history", params={"cursor": bad})
            assert r.status_code == 422 and r.json()["error"]["code"] == "bad_cursor"
        assert anon.http.get("/api/players/nobody/history").status_code == 404


# ---- a host-closed match ---------------------------------------------------------------------------------------

def test_a_host_closed_match_books_nothing_more_and_the_escape_before_it_stands(settings: Settings) -> None:
    """docs/server.md: a closed match has no final score — no ``match``, no ``escape_settle`` — and an ``escape``
    booked before the close stands as booked (even after the room's pending bookings ran)."""
    with LiveServer(settings, bot_factory=first_bot) as s:
        token = register(s, "boss").token
    with LiveServer(strict(settings, admins=("boss",)), bot_factory=first_bot) as s:
        boss = s.client()
        boss.token = token
        boss.http.headers["Authorization"] = f"Bearer {token}"
        a, b, c = (s.client(n) for n in "abc")
        tid, _socks = toy_table(s, [a, b, c], deal=NO_CLAIMS, config={"hand_size": 2})  # sockets kept open
        assert a.http.get(f"/api/tables/{tid}").json()["rated"] == "rated"
        a.ok(f"/api/tables/{tid}/leave")  # escape −8 at once; a bot plays a's seat on
        wait_for(lambda: len(ledger_of(a)) == 1)
        assert boss.ok(f"/api/host/tables/{tid}/close", {"reason": "farming"})["status"] == "closed"
        with s.room.db.engine.begin() as conn:  # whatever the room would book later, it books nothing here
            scoring.book_pending(conn, s.settings.clock() + 60)
        time.sleep(0.3)
        assert [(e["reason"], e["points"]) for e in ledger_of(a)] == [("escape", -8)]
        assert ledger_of(b) == [] and ledger_of(c) == []
        with s.room.db.engine.connect() as conn:
            reasons = {r.reason for r in conn.execute(select(lg.ledger.c.reason)
                                                      .where(lg.ledger.c.table_id == tid))}
            assert reasons == {"escape"} and lg.check_balances(conn) == []
