"""The rule pages' platform scoring, applied by the card room when a match ends or a person escapes.

- Rated and casual: only a rated match books (``TableRow.rated``, decided at the start by the room: a person
  in every seat, or all but ``Settings.rated_bots``); a casual match books nothing at all.
- 等级基础分: a match books each person's score × their base score (``ledger.base_score``), hand by hand:
  every game's hands come from its :class:`Platform` (``hands``), so the rules below apply per hand.
- 逃跑: leaving a started match (or being replaced after the grace period and never coming back) books
  the leaver an ``escape`` entry and every other person still playing an ``escape_bonus`` entry; the
  leaver gets no ``match`` entry.  Rules, a table option (``escape``):
  ``page`` (升级 only, its default): the leaver −24 × base; the others are scored as if the hand ended
  on the points taken so far, × their base — only if the hand had run 3 minutes, else 0 — and that
  hand is left out of their match entry (it is scored once, as the page scores an abandoned hand).
  ``flat`` (every other game's default): the leaver −8, each other person +1 (points, not × base).
- 3分钟出完牌不记分 (升级): a hand that took under 3 minutes is left out of the match entry; a match all of
  whose hands were that short books 0 with reason ``under_3_minutes``.
- Leaving never pays more than staying and losing: at the match's end an ``escape_settle`` entry books
  min(0, the seat's final score) × base on top of the ``escape`` entry (the leaver's total is then
  min(−8, final − 8) under ``flat``, −24 × base + min(0, final levels) × base under ``page``).
- An escape bonus goes only to people who played a whole hand with the leaver (a hand finished before it).
- An idle hand — the seat's person sent none of its decisions (autoplay, timeouts) — books no gain; its
  losses stand.
- Bots book nothing.

Games differ only in a :class:`Platform` adapter; the engines know nothing of this (the rules that
need engine facts read them from views and the result's detail).  Everything below the adapters runs
inside one database transaction on the writer thread (``book_match``, ``book_escape``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import Connection, select, update

from paiju.core import OMNISCIENT, Game, get_game

from ..room.store import StoreHooks
from ..storage import TableRow, actions, card_tables, departures
from ..writer import Database
from . import ledger as lg
from . import rating as rt
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

    def hands(self, record: dict[str, Any], result: dict[str, Any]) -> list[HandScore]:
        """The match's hands with their per-seat scores: the record replayed, a hand ending where the game's
        ``hands_finished`` grows; what the scores moved after the last such end (a game without hands, a
        match that stops mid-hand) is one more hand, so the hands always add up to the match's score."""
        return replay_hands(record, result)

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

    def hands(self, record: dict[str, Any], result: dict[str, Any]) -> list[HandScore]:
        """The page's hands from the result's ``hand_log`` (levels gained by a side), no replay needed."""
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


def replay_hands(record: dict[str, Any], result: dict[str, Any]) -> list[HandScore]:
    """Every hand of a finished match with its per-seat scores (the totals' change over it), by replay."""
    g = new_game(record)
    actions = record["actions"]
    prev = tuple(float(x) for x in g.totals())
    out: list[HandScore] = []
    done, first = 0, 0
    for i, (seat, action) in enumerate(actions):
        g.apply(seat, action)
        if g.hands_finished() > done and i + 1 < len(actions):
            done = g.hands_finished()
            now = tuple(float(x) for x in g.totals())
            out.append(HandScore(len(out) + 1, first, i, tuple(b - a for a, b in zip(prev, now, strict=True))))
            prev, first = now, i + 1
    end = tuple(float(x) for x in result["scores"])
    rest = tuple(b - a for a, b in zip(prev, end, strict=True))
    if first < len(actions) or any(rest) or not out:
        out.append(HandScore(len(out) + 1, first, max(first, len(actions) - 1), rest))
    return out


def new_game(record: dict[str, Any]) -> Game[Any]:
    """A record's game before its first move."""
    cls = get_game(record["game"])
    return cls(cls.config_class.from_dict(record["config"]), record["seed"], record.get("deal"))


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
                  facts: dict[str, Any], hand_seconds: float | None, num_seats: int, ref: str,
                  shared_hands: int = 1) -> list[Claim]:
    """The leaver's ``escape`` entry and each other person's ``escape_bonus`` entry.  ``shared_hands``: the
    hands finished before the escape; with none, nobody played a whole hand with the leaver and the ``flat``
    bonus is not booked (the ``page`` bonus is booked as 0: its hand is still left out of the match)."""
    p = platform_of(game)
    assert leaver.player_id is not None
    note = {"seat": leaver.seat}
    if rule != "page":
        out = [Claim(leaver.player_id, game, table_id, "escape", f"escape:{ref}", p.flat_penalty, False,
                     {**note, "rule": "flat"})]
        if shared_hands < 1:
            return out
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
        if shared_hands < 1:
            extra["no_whole_hand"] = True
        score = scores[o.seat] if scores and shared_hands >= 1 else 0.0
        out.append(Claim(o.player_id, game, table_id, "escape_bonus", f"escape_bonus:{ref}", score, True, extra))
    return out


def counted_score(game: str, hands: Sequence[HandScore], seat: int, hand_seconds: dict[int, float],
                  void: dict[int, str], idle: frozenset[int] = frozenset()) -> tuple[float, list[dict[str, Any]]]:
    """A seat's match score as booked — the hands that count, summed — and the hands left out, each with
    why: ``void``'s reason (the 升级 escape hand), ``under_3_minutes``, or ``idle`` (a gain in a hand the
    person made none of their own decisions in; an idle hand's loss stands)."""
    p = platform_of(game)
    counted = 0.0
    voided: list[dict[str, Any]] = []
    for h in hands:
        why = void.get(h.hand)
        secs = hand_seconds.get(h.hand)
        if why is None and secs is not None and secs < p.min_hand_seconds:
            why = "under_3_minutes"
        score = h.scores[seat]
        if why is None and h.hand in idle and score > 0:
            why = "idle"
        if why is None:
            counted += score
        else:
            voided.append({"hand": h.hand, "why": why, "score": score,
                           "seconds": None if secs is None else round(secs, 3)})
    return counted, voided


def match_claims(game: str, table_id: str, result: dict[str, Any], finishers: Sequence[SeatFacts],
                 hand_seconds: dict[int, float], void: dict[int, str], hands: Sequence[HandScore],
                 idle: dict[int, frozenset[int]] | None = None) -> list[Claim]:
    """Each finishing person's ``match`` (or ``under_3_minutes``) entry: the match score less the hands that
    do not count, × their base.  ``idle``: per seat, the hands its person sent none of its decisions in."""
    idle = idle or {}
    out = []
    for s in finishers:
        if s.player_id is None:
            continue
        counted, voided = counted_score(game, hands, s.seat, hand_seconds, void, idle.get(s.seat, frozenset()))
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


def idle_hands(conn: Connection, table_id: str, hands: Sequence[HandScore]) -> dict[int, frozenset[int]]:
    """Per seat, the hands in which it moved but its person sent none of those moves (a move stored before
    the room kept who sent it counts as the person's)."""
    moves = [(r.seat, r.person) for r in conn.execute(select(actions.c.seat, actions.c.person)
                                                      .where(actions.c.table_id == table_id).order_by(actions.c.n))]
    out: dict[int, set[int]] = {}
    for h in hands:
        mine: dict[int, bool] = {}
        for seat, person in moves[h.first:h.last + 1]:
            mine[seat] = mine.get(seat, False) or person is None or bool(person)
        for seat, sent in mine.items():
            if not sent:
                out.setdefault(seat, set()).add(h.hand)
    return {seat: frozenset(hs) for seat, hs in out.items()}


def _hand_start(times: Sequence[float], started_at: float | None, first: int) -> float | None:
    if first <= 0:
        return started_at
    return times[first - 1] if first - 1 < len(times) else None


def _rule(conn: Connection, table_id: str, game: str) -> str:
    chosen = conn.execute(select(lg.table_scoring.c.escape).where(lg.table_scoring.c.table_id == table_id)).scalar()
    return escape_rule(game, chosen)


def escape_rule_of(conn: Connection, table_id: str, game: str) -> str:
    """The escape rule a table books by (its creator's choice, else the game's default): what the leave prompt
    tells a person before they leave."""
    return _rule(conn, table_id, game)


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
    rated: bool | None = True
    shared_hands: int = 0
    """Hands finished before the escape: a bonus needs one (a whole hand played with the leaver)."""


def gather_escape(table_id: str, game: Game[Any], seats: Sequence[Any], seat: int, move: int, at: float,
                  started_at: float | None, rated: bool | None = True) -> EscapeFacts:
    """Facts for ``seat``'s escape from the live table (``seats``: its seat rows after the change)."""
    facts = [SeatFacts(s.seat, s.player_id, s.bot, s.replaced) for s in seats]
    return EscapeFacts(table_id, game.name, game.num_seats, facts[seat],
                       [f for f in facts if f.seat != seat and f.playing], move, at, started_at,
                       platform_of(game.name).escape_facts(game), rated, game.hands_finished())


def _escape_claims(conn: Connection, e: EscapeFacts, times: list[float] | None = None) -> list[Claim]:
    rule = _rule(conn, e.table_id, e.game)
    hand_seconds = None
    if rule == "page":
        times = times if times is not None else _times(conn, e.table_id)
        start = _hand_start(times, e.started_at, int(e.facts.get("hand_first_action", 0)))
        hand_seconds = None if start is None else e.at - start
    return escape_claims(e.game, e.table_id, rule, e.leaver, e.others, e.facts, hand_seconds, e.num_seats,
                         _escape_ref(e), e.shared_hands)


def _escape_ref(e: EscapeFacts) -> str:
    return f"{e.table_id}:{e.leaver.seat}:{e.move}"


def book_escape(conn: Connection, e: EscapeFacts) -> list[lg.Entry]:
    """Book one escape now (the match goes on with a bot in the seat); a casual match books nothing."""
    if e.leaver.player_id is None or not e.rated:
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
    rated: bool | None = True
    hands: list[HandScore] = field(default_factory=list)


def gather_match(table_id: str, game: Game[Any], seats: Sequence[Any], started_at: float | None,
                 rated: bool | None = True) -> MatchFacts:
    """A finished match's facts, its hands replayed from the record (call it off the event loop: a long
    match's replay takes a moment)."""
    result = game.result()
    assert result is not None
    record, res = game.record().to_dict(), result.to_dict()
    return MatchFacts(table_id, game.name, game.num_seats, record, res,
                      [SeatFacts(s.seat, s.player_id, s.bot, s.replaced) for s in seats], started_at, rated,
                      platform_of(game.name).hands(record, res) if rated else [])


def _game_at(record: dict[str, Any], moves: int) -> Game[Any]:
    g = new_game(record)
    for seat, action in record["actions"][:moves]:
        g.apply(seat, action)
    return g


def book_match(conn: Connection, m: MatchFacts, at: float) -> list[lg.Entry]:
    """Book a finished match once: its escapes not booked yet (people replaced who never came back), then
    every finishing person's match entry.  Marks the table booked; a second call books nothing."""
    row = conn.execute(select(lg.table_scoring.c.booked_at).where(lg.table_scoring.c.table_id == m.table_id)).first()
    if row is not None and row.booked_at is not None:
        return []
    if not m.rated:  # casual: in the history and replays, never in the ledger
        _mark_booked(conn, m.table_id, at, row is not None)
        return []
    times = _times(conn, m.table_id)
    finishers = [s for s in m.seats if s.playing]
    p = platform_of(m.game)
    rule = _rule(conn, m.table_id, m.game)
    claims: list[Claim] = []
    void: dict[int, str] = {}
    escaped: list[EscapeFacts] = []
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
                        p.escape_facts(game), m.rated, game.hands_finished())
        claims.extend(_escape_claims(conn, e, times))
        escaped.append(e)
        if rule == "page" and "hand" in e.facts:
            void[int(e.facts["hand"])] = "escape"
    hands = m.hands
    hand_seconds: dict[int, float] = {}
    for h in hands:
        start = _hand_start(times, m.started_at, h.first)
        if start is not None and h.last < len(times):
            hand_seconds[h.hand] = times[h.last] - start
    for e in escaped:  # leaving never pays more than staying and losing: the seat's loss, played on by a bot
        assert e.leaver.player_id is not None
        final, _ = counted_score(m.game, hands, e.leaver.seat, hand_seconds, void)
        if final < 0:
            claims.append(Claim(e.leaver.player_id, m.game, m.table_id, "escape_settle",
                                f"escape_settle:{_escape_ref(e)}", final, True,
                                {"seat": e.leaver.seat, "rule": rule, "final": final,
                                 "match_score": float(m.result["scores"][e.leaver.seat])}))
    claims.extend(match_claims(m.game, m.table_id, m.result, finishers, hand_seconds, void, hands,
                               idle_hands(conn, m.table_id, hands)))
    entries = lg.book(conn, claims, at)
    _rate(conn, m, finishers, escaped, at)
    _mark_booked(conn, m.table_id, at, row is not None)
    return entries


def _rate(conn: Connection, m: MatchFacts, finishers: Sequence[SeatFacts], escaped: Sequence[EscapeFacts],
          at: float) -> None:
    """The match's rating step, in the booking's transaction (rating.py): who stayed by their score, the
    leavers last in the order they left."""
    people = {s.seat: s.player_id for s in finishers if s.player_id is not None}
    leavers = [e.leaver.seat for e in sorted(escaped, key=lambda e: e.move)]
    people.update({e.leaver.seat: e.leaver.player_id for e in escaped if e.leaver.player_id is not None})
    sat_out = weimaque_sat_out(m.record) if m.game == "weimaque" else frozenset()
    rt.rate_match(conn, m.game, m.table_id, rt.ranking(m.game, m.result["scores"], people, leavers, sat_out), at)


def weimaque_sat_out(record: dict[str, Any]) -> frozenset[int]:
    """The seats that were the 守醒 in every hand of a 偎麻雀 match, left out of its rating (they never played;
    a match of one hand: its 守醒).  The record is replayed to see each hand's 守醒."""
    g: Any = new_game(record)
    watchers = {int(g.watcher_seat())}
    done = g.hands_finished()
    for seat, action in record["actions"]:
        g.apply(seat, action)
        if g.hands_finished() > done and not g.finished:
            done = g.hands_finished()
            watchers.add(int(g.watcher_seat()))
    return frozenset(watchers) if len(watchers) == 1 else frozenset()


def _mark_booked(conn: Connection, table_id: str, at: float, exists: bool) -> None:
    if exists:
        conn.execute(update(lg.table_scoring).where(lg.table_scoring.c.table_id == table_id).values(booked_at=at))
    else:
        conn.execute(lg.table_scoring.insert().values(table_id=table_id, escape=None, booked_at=at))


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
    return gather_match(row.id, game, row.seats, row.started_at, row.rated)


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
    try:
        seats = [replace(s) for s in row.seats]  # copies: the thread reads them while the loop goes on
        facts = await asyncio.to_thread(gather_match, row.id, game, seats, row.started_at, row.rated)
        await db.run(lambda c: book_match(c, facts, clock()))
    except Exception:
        log.exception("table %s: booking the match failed; the next start books it", row.id)


async def on_escape(db: Database, row: TableRow, game: Game[Any], seat: int, move: int, at: float) -> None:
    """A person left a started match (a bot plays on): book the escape now; if that fails, the match's booking
    at the end books it."""
    facts = gather_escape(row.id, game, row.seats, seat, move, at, row.started_at, row.rated)
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
