"""A skill rating per person per game, beside the page's score (issue 35); it never changes a booking.

openskill's Plackett–Luce model (Weng–Lin): several players and teams per match, ties as equal ranks.  Each
person keeps μ and σ per game; what is shown is the conservative μ − 3σ, provisional until ``PROVISIONAL``
rated matches.  Only rated matches (issue 34) are rated, inside the transaction that books them
(``scoring.book_match``): the step locks the one ``rating_clock`` row, takes the next ``seq`` and reads the
ratings only then, so two workers on PostgreSQL rate one after the other in ``seq`` order, and
``rebuild`` replays the stored rankings in that order to the same values.

How a result becomes a ranking (docs/server.md, "Skill rating"): ``ranking``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, and_, delete, insert, or_, select, tuple_, update

from ..storage import players, rating_changes, rating_clock, ratings

PROVISIONAL = 10
"""Rated matches below which a rating is marked provisional."""

MODEL = PlackettLuce()
MU0, SIGMA0 = float(MODEL.mu), float(MODEL.sigma)


@dataclass(frozen=True)
class Ranked:
    """One person's place in a match's ranking: ``team`` groups partners (升级), ``rank`` 1 is best."""

    seat: int
    player_id: str
    team: int
    rank: int


def shown(mu: float, sigma: float) -> float:
    """The conservative value shown: about 99.7 % sure the skill is at least this."""
    return mu - 3.0 * sigma


def _ranks(values: Sequence[float]) -> list[int]:
    """Competition ranks, highest value first: equal values share a rank (a tie)."""
    return [1 + sum(1 for w in values if w > v) for v in values]


def ranking(game: str, scores: Sequence[float], people: dict[int, str], leavers: Sequence[int] = (),
            sat_out: frozenset[int] = frozenset()) -> list[Ranked]:
    """The rated people of one match, ranked.

    ``people``: seat → person (bots are not rated and take no place); ``leavers``: seats whose person escaped,
    in the order they left — ranked below everyone who stayed, the later leaver above the earlier;
    ``sat_out``: seats left out (偎麻雀's 守醒).  升级's partners (seats 0/2 and 1/3) are one team sharing the
    result; a leaver is split off from their partner to be ranked last alone.  Every other game ranks each seat
    by its match score (水鱼's banker among them).  Fewer than two teams: nothing to rate."""
    left = [s for s in leavers if s in people and s not in sat_out]
    stay = [s for s in sorted(people) if s not in left and s not in sat_out]
    if game == "shengji":
        teams = sorted({s % 2 for s in stay})
        team_rank = dict(zip(teams, _ranks([float(scores[t]) for t in teams]), strict=True))
        out = [Ranked(s, people[s], s % 2, team_rank[s % 2]) for s in stay]
        next_team, last = 2, len(teams)
    else:
        rank = _ranks([float(scores[s]) for s in stay])
        out = [Ranked(s, people[s], s, r) for s, r in zip(stay, rank, strict=True)]
        next_team, last = len(out), len(out)
    for i, s in enumerate(reversed(left)):  # the last to leave ranks highest of the leavers
        out.append(Ranked(s, people[s], next_team + i if game == "shengji" else s, last + 1 + i))
    return out if len({r.team for r in out}) >= 2 else []


def update_ratings(before: dict[int, tuple[float, float]], ranked: Sequence[Ranked]
                   ) -> dict[int, tuple[float, float]]:
    """Seat → (μ, σ) after the match, from seat → (μ, σ) before: one openskill ``rate`` over the teams."""
    teams = sorted({r.team for r in ranked})
    members = {t: [r for r in ranked if r.team == t] for t in teams}
    rated = MODEL.rate([[MODEL.rating(mu=before[r.seat][0], sigma=before[r.seat][1]) for r in members[t]]
                        for t in teams], ranks=[float(members[t][0].rank) for t in teams])
    out: dict[int, tuple[float, float]] = {}
    for t, team in zip(teams, rated, strict=True):
        for r, new in zip(members[t], team, strict=True):
            out[r.seat] = (float(new.mu), float(new.sigma))
    return out


def _next_seq(conn: Connection) -> int:
    """The next place in the global order.  A write first: it locks the clock row until the transaction ends
    (PostgreSQL's row lock; SQLite takes its one write lock here, before any read), so every read after it
    sees the ratings the previous rating step left."""
    bumped = conn.execute(update(rating_clock).where(rating_clock.c.id == 1).values(seq=rating_clock.c.seq + 1))
    if bumped.rowcount == 0:
        conn.execute(insert(rating_clock).values(id=1, seq=1))
        return 1
    return int(conn.execute(select(rating_clock.c.seq).where(rating_clock.c.id == 1)).scalar_one())


def rate_match(conn: Connection, game: str, table_id: str, ranked: Sequence[Ranked], at: float
               ) -> dict[str, dict[str, float]]:
    """Rate one booked match inside the booking's transaction; person → change (``rating_changes``' shape).
    A match already rated (same table) is not rated again."""
    if not ranked or conn.execute(select(rating_changes.c.id).where(rating_changes.c.table_id == table_id)
                                  .limit(1)).first():
        return {}
    seq = _next_seq(conn)  # first: the lock, then the reads
    pids = sorted({r.player_id for r in ranked})
    have = {r.player_id: r for r in conn.execute(
        select(ratings).where(tuple_(ratings.c.player_id, ratings.c.game).in_([(p, game) for p in pids])))}
    before = {r.seat: ((float(have[r.player_id].mu), float(have[r.player_id].sigma)) if r.player_id in have
                       else (MU0, SIGMA0)) for r in ranked}
    after = update_ratings(before, ranked)
    out: dict[str, dict[str, float]] = {}
    rows = []
    for r in ranked:
        (mb, sb), (ma, sa) = before[r.seat], after[r.seat]
        rows.append({"seq": seq, "player_id": r.player_id, "game": game, "table_id": table_id, "team": r.team,
                     "rank": r.rank, "mu_before": mb, "sigma_before": sb, "mu_after": ma, "sigma_after": sa,
                     "at": at})
        n = int(have[r.player_id].matches) + 1 if r.player_id in have else 1
        if r.player_id in have:
            conn.execute(update(ratings).where(ratings.c.player_id == r.player_id, ratings.c.game == game)
                         .values(mu=ma, sigma=sa, matches=n, updated_at=at))
        else:
            conn.execute(insert(ratings).values(player_id=r.player_id, game=game, mu=ma, sigma=sa, matches=n,
                                                updated_at=at))
        out[r.player_id] = change_dict(mb, sb, ma, sa, n)
    conn.execute(insert(rating_changes), rows)
    return out


def change_dict(mb: float, sb: float, ma: float, sa: float, matches: int) -> dict[str, Any]:
    """A change as the API shows it (docs/protocol.md)."""
    return {"before": shown(mb, sb), "after": shown(ma, sa), "delta": shown(ma, sa) - shown(mb, sb),
            "mu": ma, "sigma": sa, "provisional": matches < PROVISIONAL}


def rating_dict(mu: float, sigma: float, matches: int) -> dict[str, Any]:
    return {"rating": shown(mu, sigma), "mu": mu, "sigma": sigma, "matches": matches,
            "provisional": matches < PROVISIONAL}


def ratings_of(conn: Connection, player_id: str) -> dict[str, dict[str, Any]]:
    """A person's current rating in each game they were rated in."""
    return {r.game: rating_dict(float(r.mu), float(r.sigma), int(r.matches))
            for r in conn.execute(select(ratings).where(ratings.c.player_id == player_id).order_by(ratings.c.game))}


def history_of(conn: Connection, player_id: str, game: str | None = None) -> list[dict[str, Any]]:
    """The person's rating after each rated match, oldest first (the profile's chart)."""
    q = select(rating_changes).where(rating_changes.c.player_id == player_id, rating_changes.c.mu_after.is_not(None))
    if game is not None:
        q = q.where(rating_changes.c.game == game)
    return [{"game": r.game, "table": r.table_id, "at": r.at, "seq": r.seq, "rank": r.rank,
             "rating": shown(r.mu_after, r.sigma_after), "mu": r.mu_after, "sigma": r.sigma_after,
             "delta": shown(r.mu_after, r.sigma_after) - shown(r.mu_before, r.sigma_before)}
            for r in conn.execute(q.order_by(rating_changes.c.seq))]


def changes_for(conn: Connection, table_ids: Sequence[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """Table → person → change, for the history and the result panel."""
    ids = sorted(set(table_ids))
    out: dict[str, dict[str, dict[str, Any]]] = {}
    if not ids:
        return out
    rows = list(conn.execute(select(rating_changes).where(rating_changes.c.table_id.in_(ids),
                                                          rating_changes.c.mu_after.is_not(None))))
    seqs: dict[tuple[str, str], list[int]] = {}
    if rows:  # each person's rated matches up to each change: whether it was provisional then
        keys = sorted({(r.player_id, r.game) for r in rows})
        for k in conn.execute(select(rating_changes.c.player_id, rating_changes.c.game, rating_changes.c.seq)
                              .where(tuple_(rating_changes.c.player_id, rating_changes.c.game).in_(keys))):
            seqs.setdefault((k.player_id, k.game), []).append(int(k.seq))
    for r in rows:
        n = sum(1 for q in seqs[(r.player_id, r.game)] if q <= r.seq)
        out.setdefault(r.table_id, {})[r.player_id] = change_dict(r.mu_before, r.sigma_before, r.mu_after,
                                                                  r.sigma_after, n)
    return out


def rebuild(conn: Connection, at: float) -> int:
    """Recompute every rating from the stored rankings in ``seq`` order; returns the matches replayed.  A
    deleted person is rated in memory (the others' updates need them) but nothing of theirs is written."""
    gone = {r.id for r in conn.execute(select(players.c.id).where(players.c.deleted_at.is_not(None)))}
    _next_seq(conn)  # the clock locked: no booking rates while this runs
    state: dict[tuple[str, str], tuple[float, float, int]] = {}
    rows = list(conn.execute(select(rating_changes).order_by(rating_changes.c.seq, rating_changes.c.id)))
    conn.execute(delete(ratings))
    matches = 0
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j].seq == rows[i].seq:
            j += 1
        group = rows[i:j]
        game = group[0].game
        ranked = [Ranked(k, r.player_id, r.team, r.rank) for k, r in enumerate(group)]
        before = {k: state.get((r.player_id, game), (MU0, SIGMA0, 0))[:2] for k, r in enumerate(group)}
        after = update_ratings(before, ranked)
        for k, r in enumerate(group):
            n = state.get((r.player_id, game), (MU0, SIGMA0, 0))[2] + 1
            state[(r.player_id, game)] = (*after[k], n)
            if r.player_id not in gone:
                conn.execute(update(rating_changes).where(rating_changes.c.id == r.id).values(
                    mu_before=before[k][0], sigma_before=before[k][1], mu_after=after[k][0],
                    sigma_after=after[k][1]))
        matches += 1
        i = j
    live = [{"player_id": p, "game": g, "mu": mu, "sigma": sg, "matches": n, "updated_at": at}
            for (p, g), (mu, sg, n) in sorted(state.items()) if p not in gone]
    if live:
        conn.execute(insert(ratings), live)
    return matches


def leaderboard_page(conn: Connection, game: str, *, after: list[Any] | None, limit: int
                     ) -> tuple[list[dict[str, Any]], list[Any] | None]:
    """Highest shown rating (μ − 3σ) first, ties by more rated matches then player id; deleted people out."""
    from ..people.accounts import accounts
    from .ledger import player_dict

    value = (ratings.c.mu - 3.0 * ratings.c.sigma).label("value")
    q = (select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.matches, value, players.c.nickname,
                accounts.c.player_id.label("account"))
         .select_from(ratings.join(players, ratings.c.player_id == players.c.id)
                      .outerjoin(accounts, accounts.c.player_id == players.c.id))
         .where(ratings.c.game == game, players.c.deleted_at.is_(None)))
    if after is not None:
        v, n, pid = after
        q = q.where(or_(value < v, and_(value == v, ratings.c.matches < n),
                        and_(value == v, ratings.c.matches == n, ratings.c.player_id > pid)))
    rows = list(conn.execute(q.order_by(value.desc(), ratings.c.matches.desc(), ratings.c.player_id)
                             .limit(limit + 1)))
    more = len(rows) > limit
    rows = rows[:limit]
    out = [{"player": player_dict(r.player_id, r.nickname, None, r.account is not None),
            "rating": rating_dict(float(r.mu), float(r.sigma), int(r.matches))} for r in rows]
    nxt = [float(rows[-1].value), int(rows[-1].matches), rows[-1].player_id] if more and rows else None
    return out, nxt


def add_changes(conn: Connection, player_id: str, items: list[dict[str, Any]]) -> None:
    """Each history item of a rated match gets the person's rating change there (``rating``; absent: none)."""
    changes = changes_for(conn, [e["table"] for e in items if e.get("table")])
    for e in items:
        ch = changes.get(e.get("table") or "", {}).get(player_id)
        if ch is not None and e.get("reason") in ("match", "under_3_minutes", "escape"):
            e["rating"] = ch
