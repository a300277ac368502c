"""The rule pages' platform scoring, applied by the card room when a match ends or a person escapes.

- 等级基础分: a match books each person's score × their base score (``ledger.base_score``).
- 逃跑: leaving a started match (or being replaced after the grace period and never coming back) books
  the leaver an ``escape`` entry and every other person still playing an ``escape_bonus`` entry; the
  leaver gets no ``match`` entry.  Rules, a table option (``escape``):
  ``page`` (升级 only, its default): the leaver −24 × base; the others are scored as if the hand ended
  on the points taken so far, × their base — only if the hand had run 3 minutes, else 0 — and that
  hand is left out of their match entry (it is scored once, as the page scores an abandoned hand).
  ``flat`` (every other game's default): the leaver −8, each other person +1 (points, not × base).
- 3分钟出完牌不记分 (升级): a hand that took under 3 minutes is left out of the match entry; a match all of
  whose hands were that short books 0 with reason ``under_3_minutes``.
- Bots book nothing.

Games differ only in a :class:`Platform` adapter; the engines know nothing of this (the rules that
need engine facts read them from views and the result's detail).  Everything below the adapters runs
inside one database transaction on the writer thread (``book_match``, ``book_escape``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select, update

from paiju.core import OMNISCIENT, Game, get_game

from ..room.store import StoreHooks
from ..storage import TableRow, actions, card_tables, departures
from ..writer import Database
from . import ledger as lg
from .ledger import Claim

log = logging.getLogger("paiju.server.scores.scoring")

ESCAPES = ("left", "disconnected")
"""Seat replacements that are escapes (逃跑).  Autoplay chosen by a person is not one."""


@dataclass(frozen=True)
class HandScore:
    hand: int
    first: int  # index of the hand's first action in the record (0-based)
    last: int  # index of its last action
    scores: tuple[float, ...]


class Platform:
    """The platform rules of a game whose page is silent: flat escapes, no hand timing."""

    escape_rules: tuple[str, ...] = ("flat",)
    min_hand_seconds: float = 0.0
    flat_penalty = -8
    flat_bonus = 1

    def hands(self, result: dict[str, Any]) -> list[HandScore] | None:
        """The match's hands with their per-seat scores, when the platform times hands; else None."""
        return None

    def escape_facts(self, game: Game[Any]) -> dict[str, Any]:
        """What an escape's scoring needs from the game at that moment (JSON-able)."""
        return {}

    def escape_scores(self, facts: dict[str, Any], num_seats: int) -> tuple[float, ...] | None:
        """Per seat, what the hand in progress would score if it ended now (the page rule); None: nothing."""
        return None


class ShengjiPlatform(Platform):
    """升级's page: 【逃跑】 and its special rules 1 (3分钟出完牌不记分) and 5 (逃跑扣分-24*基础分 …)."""

    escape_rules = ("page", "flat")
    min_hand_seconds = 180.0
    page_penalty = -24

    def hands(self, result: dict[str, Any]) -> list[HandScore]:
        out = []
        for h in (result.get("detail") or {}).get("hand_log", []):
            gained, team = int(h["gained"]), int(h["team"])
            scores = tuple(float(gained if seat % 2 == team else -gained) for seat in range(4))
            out.append(HandScore(int(h["hand"]), int(h["actions"][0]), int(h["actions"][1]), scores))
        return out

    def escape_facts(self, game: Game[Any]) -> dict[str, Any]:
        v = game.view(OMNISCIENT, copy=False)
        return {"hand": v["hands_played"] + 1, "hand_first_action": v["hand_first_action"], "phase": v["phase"],
                "dealer": v["dealer"], "points": v["points"], "penalties": list(v["penalties"]),
                "levels": list(v["levels"])}

    def escape_scores(self, facts: dict[str, Any], num_seats: int) -> tuple[float, ...] | None:
        from paiju.games.shengji.engine import TOP
        from paiju.games.shengji.rules import level_change

        dealer = facts.get("dealer")
        if dealer is None or facts.get("phase") == "over":  # no sides yet (still bidding): nothing to score
            return None
        defenders = dealer % 2
        attackers = 1 - defenders
        penalties = facts["penalties"]
        total = max(0, facts["points"] + penalties[defenders] - penalties[attackers])
        side, n = level_change(total)
        team = attackers if side == "attackers" else defenders
        old = facts["levels"][team]
        gained = min(old + n, TOP) - old
        return tuple(float(gained if seat % 2 == team else -gained) for seat in range(num_seats))


PLATFORMS: dict[str, Platform] = {"shengji": ShengjiPlatform()}
DEFAULT = Platform()


def platform_of(game: str) -> Platform:
    return PLATFORMS.get(game, DEFAULT)


def escape_rule(game: str, chosen: str | None) -> str:
    rules = platform_of(game).escape_rules
    return chosen if chosen in rules else rules[0]


# ---- the pure part: claims from facts ------------------------------------------------------------------

@dataclass
class SeatFacts:
    seat: int
    player_id: str | None
    bot: str | None
    replaced: str | None

    @property
    def playing(self) -> bool:
        """A person who holds the seat now: plays it, or has the bot play it for them (autoplay, 托管, is no
        escape: the match is theirs)."""
        return self.player_id is not None and self.replaced in (None, "autoplay")


def escape_claims(game: str, table_id: str, rule: str, leaver: SeatFacts, others: Sequence[SeatFacts],
                  facts: dict[str, Any], hand_seconds: float | None, num_seats: int, ref: str) -> list[Claim]:
    """The leaver's ``escape`` entry and each other person's ``escape_bonus`` entry."""
    p = platform_of(game)
    assert leaver.player_id is not None
    note = {"seat": leaver.seat}
    if rule != "page":
        out = [Claim(leaver.player_id, game, table_id, "escape", f"escape:{ref}", p.flat_penalty, False,
                     {**note, "rule": "flat"})]
        return out + [Claim(o.player_id, game, table_id, "escape_bonus", f"escape_bonus:{ref}", p.flat_bonus, False,
                            {"seat": o.seat, "rule": "flat", "leaver": leaver.seat})
                      for o in others if o.player_id is not None]
    out = [Claim(leaver.player_id, game, table_id, "escape", f"escape:{ref}", ShengjiPlatform.page_penalty, True,
                 {**note, "rule": "page", "hand": facts.get("hand")})]
    long_enough = hand_seconds is not None and hand_seconds >= p.min_hand_seconds
    scores = p.escape_scores(facts, num_seats) if long_enough else None
    for o in others:
        if o.player_id is None:
            continue
        extra: dict[str, Any] = {"seat": o.seat, "rule": "page", "leaver": leaver.seat, "hand": facts.get("hand"),
                                 "points_so_far": facts.get("points"),
                                 "hand_seconds": None if hand_seconds is None else round(hand_seconds, 3)}
        if not long_enough:
            extra["under_3_minutes"] = True
        out.append(Claim(o.player_id, game, table_id, "escape_bonus", f"escape_bonus:{ref}",
                         scores[o.seat] if scores else 0.0, True, extra))
    return out


def match_claims(game: str, table_id: str, result: dict[str, Any], finishers: Sequence[SeatFacts],
                 hand_seconds: dict[int, float], void: dict[int, str]) -> list[Claim]:
    """Each finishing person's ``match`` (or ``under_3_minutes``) entry: the match score less the hands that
    do not count, × their base."""
    p = platform_of(game)
    hands = p.hands(result)
    out = []
    for s in finishers:
        if s.player_id is None:
            continue
        if hands is None:
            score = float(result["scores"][s.seat])
            out.append(Claim(s.player_id, game, table_id, "match", f"match:{table_id}", score, True,
                             {"seat": s.seat}))
            continue
        counted = 0.0
        voided: list[dict[str, Any]] = []
        for h in hands:
            why = void.get(h.hand)
            secs = hand_seconds.get(h.hand)
            if why is None and secs is not None and secs < p.min_hand_seconds:
                why = "under_3_minutes"
            if why is None:
                counted += h.scores[s.seat]
            else:
                voided.append({"hand": h.hand, "why": why, "score": h.scores[s.seat],
                               "seconds": None if secs is None else round(secs, 3)})
        all_short = bool(hands) and all(v["why"] == "under_3_minutes" for v in voided) and len(voided) == len(hands)
        note: dict[str, Any] = {"seat": s.seat, "match_score": float(result["scores"][s.seat])}
        if voided:
            note["void"] = voided
        out.append(Claim(s.player_id, game, table_id, "under_3_minutes" if all_short else "match",
                         f"match:{table_id}", counted, True, note))
    return out


# ---- the database part: run inside the writer's transaction --------------------------------------------

def _times(conn: Connection, table_id: str) -> list[float]:
    return [r.at for r in conn.execute(select(actions.c.at).where(actions.c.table_id == table_id)
                                       .order_by(actions.c.n))]


def _hand_start(times: Sequence[float], started_at: float | None, first: int) -> float | None:
    if first <= 0:
        return started_at
    return times[first - 1] if first - 1 < len(times) else None


def _rule(conn: Connection, table_id: str, game: str) -> str:
    chosen = conn.execute(select(lg.table_scoring.c.escape).where(lg.table_scoring.c.table_id == table_id)).scalar()
    return escape_rule(game, chosen)


def set_rule(conn: Connection, table_id: str, rule: str | None, rematch_of: str | None = None) -> None:
    """A new table's escape rule (None: the game's default) and the match it is a rematch of."""
    conn.execute(lg.table_scoring.insert().values(table_id=table_id, escape=rule, booked_at=None,
                                                  rematch_of=rematch_of))


@dataclass
class EscapeFacts:
    """An escape as it happens, gathered on the event loop from the live table."""

    table_id: str
    game: str
    num_seats: int
    leaver: SeatFacts
    others: list[SeatFacts]
    move: int
    at: float
    started_at: float | None
    facts: dict[str, Any] = field(default_factory=dict)


def gather_escape(table_id: str, game: Game[Any], seats: Sequence[Any], seat: int, move: int, at: float,
                  started_at: float | None) -> EscapeFacts:
    """Facts for ``seat``'s escape from the live table (``seats``: its seat rows after the change)."""
    facts = [SeatFacts(s.seat, s.player_id, s.bot, s.replaced) for s in seats]
    return EscapeFacts(table_id, game.name, game.num_seats, facts[seat],
                       [f for f in facts if f.seat != seat and f.playing], move, at, started_at,
                       platform_of(game.name).escape_facts(game))


def _escape_claims(conn: Connection, e: EscapeFacts, times: list[float] | None = None) -> list[Claim]:
    rule = _rule(conn, e.table_id, e.game)
    hand_seconds = None
    if rule == "page":
        times = times if times is not None else _times(conn, e.table_id)
        start = _hand_start(times, e.started_at, int(e.facts.get("hand_first_action", 0)))
        hand_seconds = None if start is None else e.at - start
    return escape_claims(e.game, e.table_id, rule, e.leaver, e.others, e.facts, hand_seconds, e.num_seats,
                         f"{e.table_id}:{e.leaver.seat}:{e.move}")


def book_escape(conn: Connection, e: EscapeFacts) -> list[lg.Entry]:
    """Book one escape now (the match goes on with a bot in the seat)."""
    if e.leaver.player_id is None:
        return []
    return lg.book(conn, _escape_claims(conn, e), e.at)


@dataclass
class MatchFacts:
    """A finished match, gathered on the event loop."""

    table_id: str
    game: str
    num_seats: int
    record: dict[str, Any]
    result: dict[str, Any]
    seats: list[SeatFacts]
    started_at: float | None


def gather_match(table_id: str, game: Game[Any], seats: Sequence[Any], started_at: float | None) -> MatchFacts:
    result = game.result()
    assert result is not None
    return MatchFacts(table_id, game.name, game.num_seats, game.record().to_dict(), result.to_dict(),
                      [SeatFacts(s.seat, s.player_id, s.bot, s.replaced) for s in seats], started_at)


def _game_at(record: dict[str, Any], moves: int) -> Game[Any]:
    cls = get_game(record["game"])
    g = cls(cls.config_class.from_dict(record["config"]), record["seed"], record.get("deal"))
    for seat, action in record["actions"][:moves]:
        g.apply(seat, action)
    return g


def book_match(conn: Connection, m: MatchFacts, at: float) -> list[lg.Entry]:
    """Book a finished match once: its escapes not booked yet (people replaced who never came back), then
    every finishing person's match entry.  Marks the table booked; a second call books nothing."""
    row = conn.execute(select(lg.table_scoring.c.booked_at).where(lg.table_scoring.c.table_id == m.table_id)).first()
    if row is not None and row.booked_at is not None:
        return []
    times = _times(conn, m.table_id)
    finishers = [s for s in m.seats if s.playing]
    p = platform_of(m.game)
    rule = _rule(conn, m.table_id, m.game)
    claims: list[Claim] = []
    void: dict[int, str] = {}
    last_departure: dict[int, dict[str, Any]] = {}
    for d in conn.execute(select(departures).where(departures.c.table_id == m.table_id)
                          .order_by(departures.c.id)).mappings():
        last_departure[d["seat"]] = dict(d)
    for s in m.seats:
        if s.player_id is None or s.replaced not in ESCAPES:
            continue
        left = last_departure.get(s.seat)
        if left is None or left["player_id"] != s.player_id:
            continue
        game = _game_at(m.record, left["move"])
        e = EscapeFacts(m.table_id, m.game, m.num_seats, s, finishers, left["move"], left["at"], m.started_at,
                        p.escape_facts(game))
        claims.extend(_escape_claims(conn, e, times))
        if rule == "page" and "hand" in e.facts:
            void[int(e.facts["hand"])] = "escape"
    hand_seconds: dict[int, float] = {}
    for h in p.hands(m.result) or []:
        start = _hand_start(times, m.started_at, h.first)
        if start is not None and h.last < len(times):
            hand_seconds[h.hand] = times[h.last] - start
    claims.extend(match_claims(m.game, m.table_id, m.result, finishers, hand_seconds, void))
    entries = lg.book(conn, claims, at)
    if row is None:
        conn.execute(lg.table_scoring.insert().values(table_id=m.table_id, escape=None, booked_at=at))
    else:
        conn.execute(update(lg.table_scoring).where(lg.table_scoring.c.table_id == m.table_id).values(booked_at=at))
    return entries


def unbooked_tables(conn: Connection, limit: int = 100) -> list[str]:
    """Finished tables whose match is not booked yet (a crash between the end and the booking, or tables
    finished before the ledger existed), oldest first."""
    ts = lg.table_scoring
    q = (select(card_tables.c.id).select_from(card_tables.outerjoin(ts, ts.c.table_id == card_tables.c.id))
         .where(card_tables.c.status == "finished", ts.c.booked_at.is_(None))
         .order_by(card_tables.c.finished_at, card_tables.c.id).limit(limit))
    return [r.id for r in conn.execute(q)]


def match_facts_from_db(conn: Connection, table_id: str) -> MatchFacts | None:
    """A finished table's facts read back from the database (for bookings a crash left undone)."""
    from ..room.store import replay_game
    from ..storage import load_tables

    rows = load_tables(conn, table_id=table_id)
    if not rows or rows[0].status != "finished":
        return None
    row = rows[0]
    game = replay_game(row)
    if not game.finished:
        return None
    return gather_match(row.id, game, row.seats, row.started_at)


def book_pending(conn: Connection, at: float, limit: int = 100) -> int:
    """Book up to ``limit`` finished, unbooked matches; returns how many were looked at."""
    ids = unbooked_tables(conn, limit)
    for tid in ids:
        try:
            m = match_facts_from_db(conn, tid)
        except Exception:  # a record that no longer replays (a game removed): mark it, never retry forever
            log.exception("table %s: cannot replay to book its match; marked booked without entries", tid)
            m = None
        if m is None:
            ts = lg.table_scoring
            if conn.execute(select(ts.c.table_id).where(ts.c.table_id == tid)).first():
                conn.execute(update(ts).where(ts.c.table_id == tid).values(booked_at=at))
            else:
                conn.execute(ts.insert().values(table_id=tid, escape=None, booked_at=at))
            continue
        book_match(conn, m, at)
    return len(ids)


# ---- the hooks the table calls ----------------------------------------------------------------------------
# They take the table's facts, not the table: the table calls them (tables.py imports this module).

async def on_match_finished(db: Database, row: TableRow, game: Game[Any], clock: Callable[[], float]) -> None:
    """The match just ended (its final move is stored): book it, in a transaction of its own so a failure
    here never undoes the move; the next start books what a failure or a crash left undone."""
    facts = gather_match(row.id, game, row.seats, row.started_at)
    try:
        await db.run(lambda c: book_match(c, facts, clock()))
    except Exception:
        log.exception("table %s: booking the match failed; the next start books it", row.id)


async def on_escape(db: Database, row: TableRow, game: Game[Any], seat: int, move: int, at: float) -> None:
    """A person left a started match (a bot plays on): book the escape now; if that fails, the match's booking
    at the end books it."""
    facts = gather_escape(row.id, game, row.seats, seat, move, at, row.started_at)
    try:
        await db.run(lambda c: book_escape(c, facts))
    except Exception:
        log.exception("table %s: booking an escape failed; the match's booking will", row.id)


def hook_into(hooks: StoreHooks, db: Database, clock: Callable[[], float]) -> None:
    """Have the room's tables book through this ledger: the room calls these hooks and never imports scores."""

    async def finished(row: TableRow, game: Game[Any]) -> None:
        await on_match_finished(db, row, game, clock)

    async def escaped(row: TableRow, game: Game[Any], seat: int, move: int, at: float) -> None:
        await on_escape(db, row, game, seat, move, at)

    hooks.after_finish.append(finished)
    hooks.after_escape.append(escaped)
