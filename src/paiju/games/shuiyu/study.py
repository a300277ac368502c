"""The bot study: duplicate deals, OddsBot in every seat of the same cards in turn.

    paiju study shuiyu --deals 1250 -o selfplay=1000        # every core

The default table (4 seats, 4 rounds, the bank passing round the table) is played once per rotation of every
deal: the hero (OddsBot) sits in seat r and three copies of the opponent in the others, for r = 0..3, so the hero
holds every seat's cards and banks once per match.  Deal d is seed 10000 + d; one deal = 4 matches = 16 rounds; a
sample is the hero's mean per round over the 4 rotations; the 95% intervals are over deals.  The same deals are
also played with the opponent in the hero's seat (the baseline drinks).  ``-o selfplay=N`` adds what OddsBot's
calls say about its hand in N matches of self-play.

``-o bot=KIND`` studies another bot in the hero's seat (e.g. ``-o bot=easy --against random``).

``-o probe=N`` adds the exploitability probe (``--against ''`` runs it alone): on N deals, every one-rule
deviation of :data:`DEVIATIONS` plays each seat against three default bots, scored against the default bot in
that seat on the same deal with the same bot seeds (docs/bots/shuiyu.md, *Exploitability probe*).

``-o ceilings=N`` plays N deals of every habit field (three copies of one probe deviation, ``-o habits=`` picks
them) with the odds bot and the oracle best response in each seat in turn: the best-response ceilings;
``-o exploit=N`` adds the exploiter, and the normal field; ``-o mixbr=1`` the best response to the mix's banker
(docs/bots/shuiyu.md, *Habit players' ceilings and the exploiter*).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from functools import partial
from typing import Any, NamedTuple

from paiju.bots.base import Bot, bot_maker, play_out
from paiju.bots.executor import Work
from paiju.bots.study import DecisionClock, StudyArgs, StudySpec, Summary, decision_times, interval

from .bots import OddsBot, odds_tables
from .config import ShuiyuConfig
from .engine import ShuiyuGame
from .exploit import HABITS, MIX, ExploitBot

DEAL_SEED = 10_000
SELFPLAY_SEED = 20_000
PROBE_SEED = 30_000
HABIT_SEED = 40_000
CALLS = ("open", "cover", "force", "attack", "push")


class ShuiyuDeal(NamedTuple):
    """One deal against one opponent: the hero's figures per round (means over the 4 rotations)."""

    score: float
    drinks: float
    base_drinks: float
    banker: float
    player: float
    claims: dict[str, tuple[int, int]]
    wall: list[float]
    cpu: list[float]


DEVIATIONS: dict[str, tuple[str, str]] = HABITS
"""Deviation name -> (the phase it overrides, the action word it always takes when that word is legal).

Player calls (``call`` phase): 开牌 open, 盖牌 cover, 强奸 force, 进攻 attack, 走水 push.  Responses (``respond``):
信 believe / 不信 doubt after an answered open hand, compare (比牌) / drink (认喝) after an accepted 进攻 or a denied
走水.  Banker answers (``answer``, ``WORD N`` for player N): kill 杀 / walk 走过 to an open hand, call 开牌 / concede
不看 to a covered one, accept / refuse 进攻, allow / deny 走水."""


class Deviant:
    """The default bot with one rule: in ``phase``, take ``word`` whenever it is legal.

    The default bot is asked every time, its answer thrown away where the rule applies, so that its random
    stream stays in step with the default bot's in the same seat (the probe compares the two on the same deal).
    A banker's rule answers the player the default bot would answer next.
    """

    def __init__(self, bot: Bot, phase: str, word: str) -> None:
        self.bot, self.phase, self.word = bot, phase, word

    def act(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        choice = self.bot.act(view, legal)
        if view["phase"] != self.phase:
            return choice
        want = f"{self.word} {choice.split()[1]}" if self.phase == "answer" else self.word
        return want if want in legal else choice


class ProbeDeal(NamedTuple):
    """One probe deal: per deviation, per seat, the deviant's score per round minus the default bot's."""

    gains: dict[str, tuple[float, ...]]


def _probe_match(deal: int, deviant: tuple[int, str] | None) -> tuple[float, ...]:
    """One match of default bots (one of them, ``(seat, deviation)``, deviant); every seat's score per round."""
    g = ShuiyuGame.new(ShuiyuConfig(), PROBE_SEED + deal)
    bots: list[Bot] = [OddsBot(deal * 31 + s) for s in range(g.num_seats)]
    if deviant is not None:
        seat, name = deviant
        bots[seat] = Deviant(bots[seat], *DEVIATIONS[name])
    play_out(g, bots)
    return tuple(t / g.rounds_played for t in g.totals())


def play_probe(deal: int, deviations: Sequence[str] = tuple(DEVIATIONS),
               seats: Sequence[int] | None = None) -> ProbeDeal:
    """Each deviation in each of ``seats`` (default: all) on one deal, minus the default bots' match."""
    base = _probe_match(deal, None)
    at = range(len(base)) if seats is None else seats
    return ProbeDeal({name: tuple(_probe_match(deal, (s, name))[s] - base[s] for s in at) for name in deviations})


def probe_summary(deals: Sequence[ProbeDeal]) -> Summary:
    """Per deviation: the gain in each seat and pooled over seats (a sample is one deal), and the worst seat."""
    rows = []
    for name, (phase, word) in DEVIATIONS.items():
        got = [d.gains[name] for d in deals if name in d.gains]
        if not got:
            continue
        seats = [interval([g[s] for g in got]) for s in range(len(got[0]))]
        worst = max(range(len(seats)), key=lambda s: seats[s]["mean"])
        rows.append({"deviation": name, "phase": phase, "action": word,
                     "pooled": interval([statistics.fmean(g) for g in got]), "seats": seats,
                     "max_seat": worst, "max": seats[worst]["mean"], "max_ci95": seats[worst]["ci95"]})
    top = max(rows, key=lambda r: r["max"]) if rows else None
    return {"deals": len(deals), "unit": "drinks per round gained over the default bot in the same seat",
            "rows": rows, "worst": None if top is None else {"deviation": top["deviation"], "seat": top["max_seat"],
                                                            "mean": top["max"], "ci95": top["max_ci95"]}}


class HabitDeal(NamedTuple):
    """One deal against habit fields: per field (a habit, or ``normal``), per hero kind, the hero's score per
    round (mean over the 4 seats it takes in turn), and the exploiter's replaced decisions."""

    scores: dict[str, dict[str, float]]
    exploited: dict[str, int]


HEROES = ("odds", "oracle", "exploit")
"""The heroes a habit field is played against: the odds bot, the oracle (the exploiter told the habit: the
best-response ceiling) and the exploiter (reading the habit from the table); ``-o mixbr=1`` adds ``mixbr``, the
best response to the mix's banker whatever the field (what the ceilings owe to the mix itself)."""


def _habit_match(deal: int, seat: int, habit: str | None, hero: str) -> tuple[float, int]:
    """One match: three odds bots with ``habit`` (None: the normal field) and ``hero`` in ``seat``; the hero's
    score per round.  Every seat's seed is the same whichever hero sits, so heroes are compared paired."""
    g = ShuiyuGame.new(ShuiyuConfig(), HABIT_SEED + deal)
    bots: list[Bot] = []
    me: OddsBot | None = None
    for s in range(g.num_seats):
        if s == seat:
            known = {"oracle": habit, "mixbr": MIX}.get(hero)
            me = OddsBot(deal * 31 + s) if hero == "odds" else ExploitBot(deal * 31 + s, known=known)
            bots.append(me)
        else:
            bot: Bot = OddsBot(deal * 31 + s)
            bots.append(bot if habit is None else Deviant(bot, *HABITS[habit]))
    play_out(g, bots)
    return g.totals()[seat] / g.rounds_played, me.exploited if isinstance(me, ExploitBot) else 0


def play_habits(deal: int, habits: Sequence[str], heroes: Sequence[str], normal: bool) -> HabitDeal:
    """Every hero against every habit field (and the normal field, odds against the exploiter) on one deal."""
    scores: dict[str, dict[str, float]] = {}
    exploited: dict[str, int] = {}
    fields: list[tuple[str, str | None, Sequence[str]]] = [(h, h, heroes) for h in habits]
    if normal:
        fields.append(("normal", None, ("odds", *(h for h in heroes if h != "oracle"))))
    for name, habit, kinds in fields:
        row = scores.setdefault(name, {})
        for hero in kinds:
            got = [_habit_match(deal, seat, habit, hero) for seat in range(4)]
            row[hero] = statistics.fmean(v for v, _ in got)
            if hero == "exploit":
                exploited[name] = sum(n for _, n in got)
    return HabitDeal(scores, exploited)


def habits_summary(deals: Sequence[HabitDeal]) -> Summary:
    """Per field: each hero's score, the ceiling (oracle − odds), the capture (exploit − odds), paired by deal."""
    rows = []
    names = list(deals[0].scores) if deals else []
    for name in names:
        got = [d.scores[name] for d in deals]
        row: Summary = {"field": name, "deals": len(got)}
        for hero in got[0]:
            row[hero] = interval([g[hero] for g in got])
        if "oracle" in got[0]:
            row["ceiling"] = interval([g["oracle"] - g["odds"] for g in got])
        if "exploit" in got[0]:
            row["capture"] = interval([g["exploit"] - g["odds"] for g in got])
            row["exploited_decisions"] = sum(d.exploited.get(name, 0) for d in deals)
            if "oracle" in got[0] and row["ceiling"]["mean"]:
                row["share"] = row["capture"]["mean"] / row["ceiling"]["mean"]
        if "mixbr" in got[0]:
            row["mixbr_gain"] = interval([g["mixbr"] - g["odds"] for g in got])
        rows.append(row)
    return {"deals": len(deals), "unit": "drinks per round, the hero's seat, paired by deal (4 seats a deal)",
            "rows": rows}


class SelfPlay(NamedTuple):
    hands: tuple[int, int]
    calls: dict[str, tuple[int, int]]


def _play(deal: int, hero_seat: int, opponent: str, clocks: list[DecisionClock],
          heroes: list[Bot], kind: str = "odds") -> tuple[float, float, list[tuple[str, float]]]:
    """One match; the hero's score and drinks per round, and its score per round by role."""
    g = ShuiyuGame.new(ShuiyuConfig(), DEAL_SEED + deal)
    make = bot_maker("shuiyu", opponent)
    bots: list[Bot] = []
    for s in range(g.num_seats):
        if s == hero_seat:
            hero = bot_maker("shuiyu", kind)(deal * 31 + s)
            heroes.append(hero)
            clock = DecisionClock(hero)
            clocks.append(clock)
            bots.append(clock)
        else:
            bots.append(make(deal * 31 + s + 7))
    roles: list[tuple[str, float]] = []

    def on_event(ev: dict[str, Any]) -> None:
        if ev["type"] == "settlement":
            roles.append(("banker" if ev["banker"] == hero_seat else "player", ev["scores"][hero_seat]))

    play_out(g, bots, on_event=on_event)
    rounds = g.rounds_played
    result = g.result()
    assert result is not None
    return result.scores[hero_seat] / rounds, result.detail["drinks"][hero_seat] / rounds, roles


def _baseline_drinks(deal: int, opponent: str) -> float:
    """The opponent bot in every seat of the same deal: its mean drinks per round per seat."""
    g = ShuiyuGame.new(ShuiyuConfig(), DEAL_SEED + deal)
    make = bot_maker("shuiyu", opponent)
    play_out(g, [make(deal * 31 + s + 7) for s in range(g.num_seats)])
    result = g.result()
    assert result is not None
    return statistics.fmean(result.detail["drinks"]) / g.rounds_played


def play_deal(opponent: str, deal: int, kind: str = "odds") -> ShuiyuDeal:
    """One deal, the studied bot (``kind``, OddsBot unless ``-o bot=``) in each seat in turn."""
    clocks: list[DecisionClock] = []
    heroes: list[Bot] = []
    score: list[float] = []
    drinks: list[float] = []
    as_banker: list[float] = []
    as_player: list[float] = []
    for r in range(4):
        s, dr, roles = _play(deal, r, opponent, clocks, heroes, kind)
        score.append(s)
        drinks.append(dr)
        as_banker += [v for role, v in roles if role == "banker"]
        as_player += [v for role, v in roles if role == "player"]
    claims: dict[str, tuple[int, int]] = {}
    for bot in heroes:
        if not isinstance(bot, OddsBot):
            continue
        for kind, (n, bluffs) in bot.stats.by_kind.items():
            made, bluffed = claims.get(kind, (0, 0))
            claims[kind] = (made + n, bluffed + bluffs)
    return ShuiyuDeal(statistics.fmean(score), statistics.fmean(drinks), _baseline_drinks(deal, opponent),
                      statistics.fmean(as_banker), statistics.fmean(as_player), claims,
                      [t for c in clocks for t in c.times], [t for c in clocks for t in c.cpu])


def play_selfplay(seed: int) -> SelfPlay:
    g = ShuiyuGame.new(ShuiyuConfig(), SELFPLAY_SEED + seed)
    bots = [OddsBot(seed * 4 + s) for s in range(g.num_seats)]
    play_out(g, bots)
    calls = {c: (sum(b.stats.calls.get(c, [0, 0])[0] for b in bots), sum(b.stats.calls.get(c, [0, 0])[1]
                                                                          for b in bots)) for c in CALLS}
    return SelfPlay((sum(b.stats.hands[0] for b in bots), sum(b.stats.hands[1] for b in bots)), calls)


def prepare_bots(kinds: Sequence[str]) -> None:
    """``paiju sim``'s warm-up: the odds tables, once, before the workers fork, when an OddsBot will play."""
    if any(bot_maker("shuiyu", k) is OddsBot for k in kinds):
        odds_tables()


Job = tuple[str, int]
"""("selfplay", match), ("probe", deal), ("habits", deal) or (opponent kind, deal)"""
Outcome = ShuiyuDeal | SelfPlay | ProbeDeal | HabitDeal


def play_job(job: Job, hero: str = "odds", habits: Sequence[str] = tuple(HABITS),
             heroes: Sequence[str] = ("odds", "oracle"), normal: bool = False) -> Outcome:
    kind, n = job
    if kind == "habits":
        return play_habits(n, habits, heroes, normal)
    if kind == "selfplay":
        return play_selfplay(n)
    return play_probe(n) if kind == "probe" else play_deal(kind, n, hero)


def _row(opponent: str, deals: Sequence[ShuiyuDeal], hero: str = "odds") -> Summary:
    row: Summary = {"bot": hero, "against": opponent, "unit": "net drinks per round", "deals": len(deals),
                    "hands": 16 * len(deals), **interval([d.score for d in deals])}
    for key in ("drinks", "base_drinks", "banker", "player"):
        figure = interval([getattr(d, key) for d in deals])
        row[key], row[f"{key}_ci95"] = figure["mean"], figure["ci95"]
    claims: dict[str, list[int]] = {}
    for d in deals:
        for kind, (n, b) in d.claims.items():
            got = claims.setdefault(kind, [0, 0])
            got[0] += n
            got[1] += b
    row["claims"] = {k: {"made": n, "bluffs": b} for k, (n, b) in sorted(claims.items())}
    row.update(decision_times([t for d in deals for t in d.wall], [t for d in deals for t in d.cpu]))
    return row


def plan(args: StudyArgs) -> Work[Job, Outcome, Summary]:
    matches = int(args.options.get("selfplay", 0))
    probes = int(args.options.get("probe", 0))
    ceilings = int(args.options.get("ceilings", 0))
    exploit = int(args.options.get("exploit", 0))
    habits = [h for h in str(args.options.get("habits", ",".join(HABITS))).split(",") if h]
    for h in habits:
        if h not in HABITS:
            raise KeyError(f"no habit {h!r}; known: {', '.join(HABITS)}")
    against = [opp for opp in args.against if opp]   # --against '' plays no opponent rows
    hero = str(args.options.get("bot", "odds"))
    bot_maker("shuiyu", hero)
    for opp in against:
        bot_maker("shuiyu", opp)  # an unknown kind fails here, with the known ones
    jobs: list[Job] = [("selfplay", m) for m in range(matches)]
    jobs += [("probe", args.seed + d) for d in range(probes)]
    jobs += [("habits", args.seed + d) for d in range(max(ceilings, exploit))]
    jobs += [(opp, args.seed + d) for opp in against for d in range(args.deals)]

    def merge(done: Sequence[Job], results: Sequence[Outcome]) -> Summary:
        summary: Summary = {"game": "shuiyu", "study": "duplicate deals", "deals": args.deals, "seed": args.seed,
                            "rows": [_row(opp, [r for j, r in zip(done, results, strict=True)
                                                if j[0] == opp and isinstance(r, ShuiyuDeal)], hero)
                                     for opp in against]}
        if ceilings or exploit:
            summary["habits"] = habits_summary([r for r in results if isinstance(r, HabitDeal)])
        if probes:
            summary["probe"] = probe_summary([r for r in results if isinstance(r, ProbeDeal)])
        plays = [r for r in results if isinstance(r, SelfPlay)]
        if matches:
            strong, weak = sum(p.hands[0] for p in plays), sum(p.hands[1] for p in plays)
            table = {}
            for c in CALLS:
                n_s, n_w = sum(p.calls[c][0] for p in plays), sum(p.calls[c][1] for p in plays)
                table[c] = {"p_call_strong": n_s / max(1, strong), "p_call_weak": n_w / max(1, weak),
                            "p_strong_call": n_s / max(1, n_s + n_w)}
            summary["selfplay"] = {"matches": len(plays), "strong_hands": strong, "weak_hands": weak,
                                   "calls": table}
        return summary

    heroes = HEROES if exploit else ("odds", "oracle")
    if args.options.get("mixbr"):
        heroes = (*heroes, "mixbr")
    play = partial(play_job, hero=hero, habits=habits, heroes=heroes, normal=bool(exploit or "mixbr" in heroes))
    return Work(play=play, jobs=jobs, merge=merge, prepare=odds_tables)


STUDY = StudySpec(deals=1250, seed=0, against=("random", "biggest_head"), plan=plan,
                  options={"bot": "the studied bot kind (default odds); its opponents are --against",
                           "selfplay": "also N matches of OddsBot self-play: what each call says about the hand",
                           "probe": "also N deals of the exploitability probe: every one-rule deviation in every "
                                    "seat against the default bot (--against '' for the probe alone)",
                           "ceilings": "also N deals (seed 40000 + d) of each habit field (three probe deviants): "
                                       "the odds bot and the oracle best response in each seat, paired",
                           "exploit": "as ceilings, with the exploiter too, and the exploiter against the normal "
                                      "field (three odds bots)",
                           "mixbr": "1: also the best response to the mix's banker in every field (and the normal one)",
                           "habits": "the habit fields for ceilings/exploit, comma-separated (default: all)"},
                  prepare_bots=prepare_bots)
