"""What the skill rating (issue 35) adds to booking a match: 1,000 rated 滑水 matches of four people booked on
PostgreSQL, each in its own transaction as the room books them, once with the rating step (``book_match`` as it
is) and once without (the step replaced by nothing), each run in a fresh schema; prints both times and the ratio.

The matches are one recorded match stored 1,000 times under new table ids, among 40 people (so ratings are read
and written, not only created); the two runs alternate ``--rounds`` times and the medians are compared.

    PAIJU_TEST_POSTGRES_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/bench_ratings.py [--matches 1000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import time
from dataclasses import replace
from typing import Any

from sqlalchemy import create_engine, text


def prepare(url: str, matches: int) -> tuple[Any, str, list[Any]]:
    """A fresh schema with ``matches`` finished, unbooked rated matches; (engine, schema, their facts)."""
    from paiju.bots.base import RandomBot
    from paiju.core import get_game
    from paiju.server import storage as st
    from paiju.server.scores import scoring

    schema = f"paiju_bench_{secrets.token_hex(4)}"
    admin = create_engine(url)
    with admin.begin() as c:
        c.execute(text(f"CREATE SCHEMA {schema}"))
    admin.dispose()
    sep = "&" if "?" in url else "?"
    engine = st.make_engine(f"{url}{sep}options=-csearch_path%3D{schema}")
    st.migrate(engine)
    cls = get_game("huashui")
    game = cls.new(cls.config_class(), seed=1)
    bots = [RandomBot(i) for i in range(4)]
    while not game.finished:
        seat = game.to_move()[0]
        game.apply(seat, bots[seat].act(game.view(seat), game.legal_actions(seat)))
    people = [f"p{i:02d}" for i in range(40)]
    rng = random.Random(7)
    facts = []
    with engine.begin() as c:
        for pid in people:
            st.add_player(c, st.Player(pid, pid), 0.0)
        for k in range(matches):
            tid = f"b{k:05d}"
            who = rng.sample(people, 4)
            seats = [st.SeatRow(s, who[s], who[s], None, None) for s in range(4)]
            st.add_table(c, st.TableRow(id=tid, game="huashui", config=game.config.to_dict(), seed=game.seed,
                                        deal=game.deal, turn_seconds=0, claim_seconds=0, private=False, invite=None,
                                        owner_id=None, status="playing", created_at=1e9, started_at=1e9,
                                        seats=seats))
            st.set_status(c, tid, "playing", 1e9, {}, rated=True)
            for n, (seat, action) in enumerate(game.history, start=1):
                st.add_action(c, st.action_row(tid, n, seat, action, 1e9 + n, True))
            result = game.result()
            assert result is not None
            st.finish(c, tid, 1e9 + len(game.history), result.to_dict())
            scoring.set_rule(c, tid, None)
    base = scoring.gather_match("x", game, [st.SeatRow(s, "x", "x", None, None) for s in range(4)], 1e9, True)
    with engine.connect() as c:
        for tid, in c.execute(text("SELECT id FROM card_tables ORDER BY id")):
            seat_rows = list(c.execute(text("SELECT seat, player_id FROM seats WHERE table_id = :t ORDER BY seat"),
                                       {"t": tid}))
            facts.append(replace(base, table_id=tid, seats=[scoring.SeatFacts(s.seat, s.player_id, None, None)
                                                           for s in seat_rows]))
    return engine, schema, facts


def book_all(engine: Any, facts: list[Any], rate: bool) -> float:
    """Seconds to book every match, one transaction each; ``rate`` False: the rating step does nothing."""
    from paiju.server.scores import scoring

    step = scoring._rate
    if not rate:
        scoring._rate = lambda *a, **k: None
    try:
        start = time.perf_counter()
        for m in facts:
            with engine.begin() as c:
                scoring.book_match(c, m, 2e9)
        return time.perf_counter() - start
    finally:
        scoring._rate = step


def drop(url: str, engine: Any, schema: str) -> None:
    engine.dispose()
    admin = create_engine(url)
    with admin.begin() as c:
        c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    admin.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    url = os.environ.get("PAIJU_TEST_POSTGRES_URL")
    if not url:
        sys.exit("set PAIJU_TEST_POSTGRES_URL (e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test)")
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.rounds):
        for rate in (False, True):
            engine, schema, facts = prepare(url, args.matches)
            try:
                times[rate].append(book_all(engine, facts, rate))
                if rate:
                    with engine.connect() as c:
                        n = c.execute(text("SELECT count(DISTINCT seq) FROM rating_changes")).scalar()
                    assert n == args.matches, n
            finally:
                drop(url, engine, schema)
    alone, rated = statistics.median(times[False]), statistics.median(times[True])
    print(f"{args.matches} matches on PostgreSQL, median of {args.rounds}: booking alone {alone:.2f} s "
          f"({alone / args.matches * 1000:.2f} ms a match), booking + rating {rated:.2f} s "
          f"({rated / args.matches * 1000:.2f} ms a match); ratio {rated / alone:.2f}")


if __name__ == "__main__":
    main()
