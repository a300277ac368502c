"""The skill rating (issue 35): each game's result as a ranking, 升级's teams, escapes, ties, the provisional
flag, the update in the booking's transaction, two workers rating at once (PostgreSQL too), the rebuild to
the same values, and where it shows (profile, history, leaderboard, the table's changes, deletion, export)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import Engine, select, update
from typer.testing import CliRunner

from paiju.cli.main import app as main_app
from paiju.core import get_game
from paiju.server import Settings
from paiju.server import storage as st
from paiju.server.scores import rating as rt
from paiju.server.scores import scoring
from paiju.server.storage import Player as RoomPlayer

from .conftest import LiveServer, first_bot, ledger_of, register, toy_table, wait_for
from .test_server_ledger import _mid_hand, engine, play, shengji, store

__all__ = ["engine"]  # the fixture, shared with the ledger's tests


def places(ranked: list[rt.Ranked]) -> dict[int, tuple[int, int]]:
    return {r.seat: (r.team, r.rank) for r in ranked}


# ---- the mapping, game by game --------------------------------------------------------------------------

def test_shuiyu_ranks_every_seat_banker_included_by_match_score_with_ties() -> None:
    people = {s: f"p{s}" for s in range(6)}
    got = places(rt.ranking("shuiyu", [12, -3, 0, -3, -6, 0], people))
    assert got == {0: (0, 1), 1: (1, 4), 2: (2, 2), 3: (3, 4), 4: (4, 6), 5: (5, 2)}


def test_shuiyu_thirteen_seats_and_two() -> None:
    assert len(rt.ranking("shuiyu", list(range(13)), {s: f"p{s}" for s in range(13)})) == 13
    assert places(rt.ranking("shuiyu", [-5, 5], {0: "a", 1: "b"})) == {0: (0, 2), 1: (1, 1)}


def test_shengji_partners_are_one_team_sharing_the_result() -> None:
    got = places(rt.ranking("shengji", [3, -3, 3, -3], {s: f"p{s}" for s in range(4)}))
    assert got == {0: (0, 1), 2: (0, 1), 1: (1, 2), 3: (1, 2)}
    tie = places(rt.ranking("shengji", [0, 0, 0, 0], {s: f"p{s}" for s in range(4)}))
    assert {r for _, r in tie.values()} == {1} and {t for t, _ in tie.values()} == {0, 1}


def test_huashui_ranks_four_seats() -> None:
    got = places(rt.ranking("huashui", [-2, 6, -2, -2], {s: f"p{s}" for s in range(4)}))
    assert got == {0: (0, 2), 1: (1, 1), 2: (2, 2), 3: (3, 2)}


def test_weimaque_leaves_the_shouxing_out() -> None:
    got = places(rt.ranking("weimaque", [4, -2, 0, -2], {s: f"p{s}" for s in range(4)}, sat_out=frozenset({2})))
    assert got == {0: (0, 1), 1: (1, 2), 3: (3, 2)}


def test_weimaque_one_hand_match_names_the_seat_opposite_the_dealer() -> None:
    cls = get_game("weimaque")
    game = cls.new(cls.config_class.from_dict({"first_dealer": 1}), seed=4)
    play(game)
    assert scoring.weimaque_sat_out(game.record().to_dict()) == frozenset({3})


def test_an_escape_ranks_the_leaver_last_even_with_the_best_score() -> None:
    people = {s: f"p{s}" for s in range(4)}
    got = places(rt.ranking("huashui", [9, 1, -5, -5], people, leavers=[0]))
    assert got[0][1] == 4 and got[1][1] == 1
    two = places(rt.ranking("huashui", [9, 1, -5, -5], people, leavers=[2, 0]))  # 2 left first
    assert two[2][1] == 4 and two[0][1] == 3


def test_a_shengji_leaver_is_split_from_the_partner_and_ranked_last() -> None:
    got = places(rt.ranking("shengji", [2, -2, 2, -2], {s: f"p{s}" for s in range(4)}, leavers=[0]))
    assert got == {2: (0, 1), 1: (1, 2), 3: (1, 2), 0: (2, 3)}


def test_bots_take_no_place_and_one_side_alone_is_not_rated() -> None:
    assert places(rt.ranking("huashui", [5, -1, -2, -2], {1: "a", 3: "b"})) == {1: (1, 1), 3: (3, 2)}
    assert rt.ranking("huashui", [5, -1, -2, -2], {1: "a"}) == []
    assert rt.ranking("shengji", [2, -2, 2, -2], {0: "a", 2: "b"}) == []  # one team of people


def test_a_2v2_shengji_update_moves_partners_together_and_matches_openskill() -> None:
    ranked = rt.ranking("shengji", [1, -1, 1, -1], {s: f"p{s}" for s in range(4)})
    before = {0: (30.0, 4.0), 1: (25.0, 8.0), 2: (20.0, 6.0), 3: (25.0, 8.0)}
    after = rt.update_ratings(before, ranked)
    assert after[0][0] > 30.0 and after[2][0] > 20.0 and after[1][0] < 25.0 and after[3][0] < 25.0
    assert after[1] == after[3]  # equal partners stay equal
    m = PlackettLuce()
    want = m.rate([[m.rating(30.0, 4.0), m.rating(20.0, 6.0)], [m.rating(25.0, 8.0), m.rating(25.0, 8.0)]],
                  ranks=[1, 2])
    assert after[0] == pytest.approx((want[0][0].mu, want[0][0].sigma), abs=1e-12)
    assert after[3] == pytest.approx((want[1][1].mu, want[1][1].sigma), abs=1e-12)


def test_a_tie_moves_equal_players_nowhere() -> None:
    ranked = rt.ranking("huashui", [0, 0, 0, 0], {s: f"p{s}" for s in range(4)})
    after = rt.update_ratings({s: (rt.MU0, rt.SIGMA0) for s in range(4)}, ranked)
    assert all(abs(mu - rt.MU0) < 1e-9 and sg < rt.SIGMA0 for mu, sg in after.values())


# ---- in the booking's transaction ------------------------------------------------------------------------

def _rating(c: Any, pid: str, game: str) -> Any:
    return c.execute(select(st.ratings).where(st.ratings.c.player_id == pid, st.ratings.c.game == game)).first()


@pytest.mark.parametrize("name", ["shuiyu", "huashui", "weimaque", "shengji"])
def test_each_game_rates_its_people_when_the_match_is_booked(engine: Engine, name: str) -> None:
    cls = get_game(name)
    game = cls.new(cls.config_class(), seed=3)
    play(game)
    people = {s: f"{name}{s}" for s in range(game.num_seats)}
    with engine.begin() as c:
        tid = store(c, game, people)
        scoring.book_pending(c, 2e9)
        rows = {r.player_id: r for r in c.execute(select(st.rating_changes).where(
            st.rating_changes.c.table_id == tid))}
        result = game.result()
        assert result is not None
        out = scoring.weimaque_sat_out(game.record().to_dict()) if name == "weimaque" else frozenset()
        want = rt.ranking(name, result.scores, people, sat_out=out)
        assert {r.player_id: r.rank for r in want} == {p: r.rank for p, r in rows.items()}
        if name == "weimaque":
            assert len(rows) == 3 and len(out) == 1
        for pid, r in rows.items():
            assert (r.mu_before, r.sigma_before) == (rt.MU0, rt.SIGMA0)
            now = _rating(c, pid, name)
            assert (now.mu, now.sigma, now.matches) == (r.mu_after, r.sigma_after, 1)
        scoring.book_pending(c, 2e9)
        assert len(c.execute(select(st.rating_changes).where(st.rating_changes.c.table_id == tid)).all()) == len(rows)


def test_a_casual_match_is_not_rated(engine: Engine) -> None:
    cls = get_game("huashui")
    game = cls.new(cls.config_class(), seed=3)
    play(game)
    with engine.begin() as c:
        store(c, game, {s: f"cas{s}" for s in range(4)}, rated=False)
        scoring.book_pending(c, 2e9)
        assert c.execute(select(st.rating_changes)).all() == [] and _rating(c, "cas0", "huashui") is None


def test_an_escape_through_the_booking_rates_the_leaver_last(engine: Engine) -> None:
    game = shengji(max_hands=2)
    play(game, until=lambda g: g.hands_finished() >= 1 and _mid_hand(g))
    move = len(game.history)
    play(game)
    with engine.begin() as c:
        tid = store(c, game, {s: f"x{s}" for s in range(4)}, left={1: (move, "left")})
        scoring.book_pending(c, 2e9)
        rows = {r.player_id: r for r in c.execute(select(st.rating_changes).where(
            st.rating_changes.c.table_id == tid))}
        assert rows["x1"].rank == 3 and rows["x1"].team == 2 and rows["x3"].team == 1
        assert rows["x1"].mu_after < rows["x1"].mu_before
        assert max(r.rank for p, r in rows.items() if p != "x1") <= 2


def test_the_rating_is_provisional_until_ten_rated_matches(engine: Engine) -> None:
    with engine.begin() as c:
        for pid in ("pa", "pb"):
            st.add_player(c, RoomPlayer(pid, pid), 0)
        cls = get_game("huashui")
        game = cls.new(cls.config_class(), seed=1)
        play(game)
        seen, tids = [], []
        for i in range(10):
            tid = store(c, game, {0: "pa", 1: "pb"})
            tids.append(tid)
            got = rt.rate_match(c, "huashui", tid, rt.ranking("huashui", [1, 0, 0, 0], {0: "pa", 1: "pb"}), i)
            seen.append(got["pa"]["provisional"])
            assert rt.ratings_of(c, "pa")["huashui"]["provisional"] == (i + 1 < rt.PROVISIONAL)
        assert seen == [True] * 9 + [False]
        later = rt.changes_for(c, tids)  # read back: each change says what the rating was then
        assert [later[t]["pa"]["provisional"] for t in tids] == seen
        assert later[tids[-1]]["pb"]["delta"] < 0 < later[tids[-1]]["pa"]["delta"]
        r = rt.ratings_of(c, "pa")["huashui"]
        assert r["matches"] == 10 and r["rating"] == pytest.approx(r["mu"] - 3 * r["sigma"])


# ---- two workers at once, and the rebuild ----------------------------------------------------------------

def _snapshot(engine: Engine) -> tuple[dict[Any, Any], list[Any]]:
    with engine.connect() as c:
        now = {(r.player_id, r.game): (r.mu, r.sigma, r.matches) for r in c.execute(select(st.ratings))}
        hist = [(r.seq, r.player_id, r.mu_before, r.sigma_before, r.mu_after, r.sigma_after)
                for r in c.execute(select(st.rating_changes).order_by(st.rating_changes.c.seq, st.rating_changes.c.id))]
    return now, hist


def test_two_workers_rate_at_once_in_one_order_and_the_rebuild_finds_the_same(settings: Settings) -> None:
    """Two engines (two processes' pools) rate overlapping people's matches at the same moment; every
    person's chain of before → after follows the one ``seq`` order, and ``paiju admin rebuild-ratings``
    gives the same values within 1e-9."""
    engines = [st.make_engine(settings.db_url, settings.data_dir) for _ in range(2)]
    st.migrate(engines[0])
    cls = get_game("huashui")
    game = cls.new(cls.config_class(), seed=2)
    play(game)
    with engines[0].begin() as c:
        tids = [[store(c, game, {s: f"w{s}" for s in range(4)}) for _ in range(8)] for _k in range(2)]
    barrier = threading.Barrier(2, timeout=30)
    errors: list[BaseException] = []

    def worker(k: int) -> None:
        try:
            for i, tid in enumerate(tids[k]):
                barrier.wait()
                with engines[k].begin() as c:
                    scores = [(i + k + s) % 4 for s in range(4)]
                    rt.rate_match(c, "huashui", tid, rt.ranking("huashui", scores, {s: f"w{s}" for s in range(4)}),
                                  float(i))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    try:
        assert errors == []
        now, hist = _snapshot(engines[0])
        assert sorted({h[0] for h in hist}) == list(range(1, 17))  # one order, no gaps, no repeats
        last: dict[str, tuple[float, float]] = {}
        for _seq, pid, mb, sb, ma, sa in hist:
            assert (mb, sb) == last.get(pid, (rt.MU0, rt.SIGMA0))  # no update lost or read stale
            last[pid] = (ma, sa)
        assert {p: (m, s) for (p, _g), (m, s, _n) in now.items()} == last
        assert all(n == 16 for (_m, _s, n) in now.values())
        with engines[0].begin() as c:  # spoil the stored values, then rebuild them
            c.execute(update(st.ratings).values(mu=0.0, sigma=1.0, matches=0))
            c.execute(update(st.rating_changes).values(mu_after=0.0))
        out = CliRunner().invoke(main_app, ["admin", "rebuild-ratings", "--data-dir", str(settings.data_dir),
                                            "--database-url", settings.db_url])
        assert out.exit_code == 0, out.output
        assert "16 rated matches" in out.output
        again, hist2 = _snapshot(engines[0])
        assert again.keys() == now.keys() and len(hist2) == len(hist)
        for k, v in now.items():
            assert again[k][2] == v[2] and abs(again[k][0] - v[0]) < 1e-9 and abs(again[k][1] - v[1]) < 1e-9
        for a, b in zip(hist, hist2, strict=True):
            assert a[:2] == b[:2] and all(abs(x - y) < 1e-9 for x, y in zip(a[2:], b[2:], strict=True))
    finally:
        for e in engines:
            e.dispose()


# ---- where it shows --------------------------------------------------------------------------------------

def test_profile_history_leaderboard_table_changes_registration_export_and_deletion(settings: Settings) -> None:
    with LiveServer(settings.with_(rated_bots=1), bot_factory=first_bot) as s:
        a, b = s.client("甲"), s.client("乙")  # guests, rated like accounts
        deal = {"hands": [["1"], ["1"], ["3"]]}
        tables = []
        for _ in range(2):  # b takes a's card: b wins each match
            tid, socks = toy_table(s, [a, b], deal=deal, config={"hand_size": 1})
            socks[0].act("play 1")
            socks[1].until(lambda m: m["type"] == "update" and m["legal"])
            socks[1].act("take")
            socks[0].until(lambda m: m["type"] == "update" and m["view"]["finished"])
            tables.append(tid)
        wait_for(lambda: len(ledger_of(b)) == 2)
        anon = s.client()
        ch = wait_for(lambda: anon.http.get(f"/api/tables/{tables[-1]}/ratings").json())
        assert ch["booked"] and set(ch["changes"]) == {a.id, b.id}
        assert ch["changes"][b.id]["delta"] > 0 > ch["changes"][a.id]["delta"]
        assert ch["changes"][b.id]["provisional"] is True
        assert anon.http.get("/api/tables/nope/ratings").status_code == 404
        b = register(s, "yi_b", player=b)  # the guest registers: same player, same rating
        prof = anon.http.get(f"/api/players/{b.id}").json()
        r = prof["ratings"]["toy"]
        assert r["matches"] == 2 and r["provisional"] and r["rating"] == pytest.approx(r["mu"] - 3 * r["sigma"])
        assert [h["table"] for h in prof["rating_history"]] == tables
        assert prof["rating_history"][-1]["rating"] == pytest.approx(r["rating"])
        assert [e["rating"]["delta"] > 0 for e in prof["history"] if e["reason"] == "match"] == [True, True]
        board = anon.http.get("/api/leaderboard?game=toy&sort=rating").json()
        assert [x["player"]["id"] for x in board] == [b.id, a.id] and board[0]["rank"] == 1
        assert board[0]["rating"]["rating"] > board[1]["rating"]["rating"]
        page = anon.http.get("/api/leaderboard?game=toy&sort=rating&limit=1")
        nxt = page.headers["Link"].split(">")[0].lstrip("<")
        assert [x["player"]["id"] for x in anon.http.get(nxt).json()] == [a.id]
        bad = anon.http.get("/api/leaderboard?game=toy&sort=elo")
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_option"
        data = b.http.get("/api/me/data").json()
        assert data["ratings"]["toy"]["matches"] == 2 and len(data["rating_history"]) == 2
        assert b.http.request("DELETE", "/api/account", json={"password": "correct horse"}).status_code in (200, 204)
        with s.room.db.engine.connect() as c:
            assert c.execute(select(st.ratings).where(st.ratings.c.player_id == b.id)).all() == []
            mine = c.execute(select(st.rating_changes).where(st.rating_changes.c.player_id == b.id)).all()
            assert len(mine) == 2 and all(x.mu_after is None and x.mu_before is None for x in mine)
            before_a = _rating(c, a.id or "", "toy")
        with s.room.db.engine.begin() as c:  # the others still rebuild to the same values without b's history
            rt.rebuild(c, 0.0)
        with s.room.db.engine.connect() as c:
            after_a = _rating(c, a.id or "", "toy")
            assert abs(after_a.mu - before_a.mu) < 1e-9 and abs(after_a.sigma - before_a.sigma) < 1e-9
            assert c.execute(select(st.ratings).where(st.ratings.c.player_id == b.id)).all() == []
        assert [x["player"]["id"] for x in anon.http.get("/api/leaderboard?game=toy&sort=rating").json()] == [a.id]
