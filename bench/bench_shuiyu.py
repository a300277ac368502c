"""水鱼 benchmark and bot study.

    .venv/bin/python bench/bench_shuiyu.py                 # speed: decisions, rounds/s, odds vs a plain loop
    .venv/bin/python bench/bench_shuiyu.py --selfplay 1000 --study 1250
        # + what OddsBot's calls say in self-play, and the duplicate-deal study (1250 deals per opponent)

The study plays the default table (4 seats, 4 rounds, the bank passing round the table) once per rotation
of every deal: the hero (OddsBot) sits in seat r and three copies of the opponent in the others, for
r = 0..3, so the hero holds every seat's cards and banks once per match.  One deal = 4 matches = 16 rounds;
a sample is the hero's mean per round over the 4 rotations; the 95% intervals are over deals.  The same
deals are also played with the opponent in the hero's seat (the baseline row).  Writes nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from paiju.bots import Bot, RandomBot, play_out
from paiju.bots.study import DecisionClock, mean_ci95, percentile
from paiju.core.cards import parse_cards
from paiju.games.shuiyu import ShuiyuConfig, ShuiyuGame
from paiju.games.shuiyu.bots import BiggestHeadBot, OddsBot, model_split, odds_tables
from paiju.games.shuiyu.rules import GROUP_KEY, SPLIT_PATTERNS, keys_of, kind_of_cards, parse_arrangement

Maker = Callable[[int], Bot]


def plain_loop_odds(mine: list[int], h: int, t: int) -> tuple[int, int]:
    """The peer: the same exact count by looping over every opposing hand (what the index replaces)."""
    rest = [c for c in range(52) if c not in mine]
    below = above = 0
    for hand in combinations(rest, 4):
        if kind_of_cards(hand) != "plain":
            continue
        best = -9.0
        bh = bt = 0
        for i, j, k, m in SPLIT_PATTERNS:
            k1, k2 = GROUP_KEY[hand[i] * 52 + hand[j]], GROUP_KEY[hand[k] * 52 + hand[m]]
            v = model_split(k1, k2)
            if v > best:
                best, bh, bt = v, max(k1, k2), min(k1, k2)
        below += bh < h and bt < t
        above += bh > h and bt > t
    return below, above


def speed() -> None:
    start = time.perf_counter()
    odds_tables()
    build = time.perf_counter() - start
    print(f"odds tables built in {build:.2f} s (once per process)")

    mine = parse_cards("AS 8H KD 7C")
    h, t = keys_of(parse_arrangement("AS 8H | KD 7C"))
    idx = odds_tables().split
    reps = 200
    start = time.perf_counter()
    for _ in range(reps):
        mask = idx.avail(mine)
        fast = (idx.below(h, t, mask).bit_count(), idx.above(h, t, mask).bit_count())
    fast_s = (time.perf_counter() - start) / reps
    start = time.perf_counter()
    slow = plain_loop_odds(mine, h, t)
    slow_s = time.perf_counter() - start
    assert fast == slow, (fast, slow)
    print(f"exact odds of one split over C(48,4) hands: index {fast_s * 1e3:.3f} ms, "
          f"plain loop {slow_s * 1e3:.0f} ms — {slow_s / fast_s:,.0f}× faster, same counts {fast}")

    for label, maker in (("random", RandomBot), ("odds", OddsBot)):
        games = 300 if label == "random" else 150
        clocks: list[CpuClock] = []
        start = time.perf_counter()
        rounds = 0
        for seed in range(games):
            g = ShuiyuGame.new(ShuiyuConfig(), seed)
            bots = [CpuClock(maker(seed * 10 + s)) for s in range(g.num_seats)]
            clocks += bots
            play_out(g, bots)
            rounds += g.rounds_played
        seconds = time.perf_counter() - start
        times = [x for c in clocks for x in c.times]
        print(f"{label:>6} bots, 4 seats: {rounds / seconds:,.0f} rounds/s (wall); decision CPU time p50 "
              f"{percentile(times, 0.5) * 1e3:.3f} ms, p99 {percentile(times, 0.99) * 1e3:.3f} ms, "
              f"max {max(times) * 1e3:.2f} ms")


class CpuClock:
    """Times each decision in CPU time: on a shared machine wall time also counts other processes."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.needs_view = getattr(bot, "needs_view", True)

    def act(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        start = time.process_time()
        action = self.bot.act(view, legal)
        self.times.append(time.process_time() - start)
        return action


def _play(deal: int, hero_seat: int, hero: Maker, opponent: Maker, clocks: list[DecisionClock],
          heroes: list[Any]) -> tuple[float, float, list[tuple[str, float]]]:
    """One match; the hero's score and drinks per round, and its score per round by role."""
    g = ShuiyuGame.new(ShuiyuConfig(), 10_000 + deal)
    bots: list[Bot] = []
    for s in range(g.num_seats):
        if s == hero_seat:
            bot = hero(deal * 31 + s)
            heroes.append(bot)
            clock = DecisionClock(bot)
            clocks.append(clock)
            bots.append(clock)
        else:
            bots.append(opponent(deal * 31 + s + 7))
    seat = hero_seat
    roles: list[tuple[str, float]] = []

    def on_event(ev: dict[str, Any]) -> None:
        if ev["type"] == "settlement":
            roles.append(("banker" if ev["banker"] == seat else "player", ev["scores"][seat]))

    play_out(g, bots, on_event=on_event)
    rounds = g.rounds_played
    result = g.result()
    assert result is not None
    return result.scores[seat] / rounds, result.detail["drinks"][seat] / rounds, roles


def study(deals: int, name: str, opponent: Maker) -> None:
    odds_tables()                       # built before the clock starts: once per process
    clocks: list[DecisionClock] = []
    heroes: list[Any] = []
    rows: dict[str, list[float]] = {"score": [], "drinks": [], "base_drinks": [], "banker": [], "player": []}
    start = time.perf_counter()
    for d in range(deals):
        score: list[float] = []
        drinks: list[float] = []
        as_banker: list[float] = []
        as_player: list[float] = []
        for r in range(4):
            s, dr, roles = _play(d, r, OddsBot, opponent, clocks, heroes)
            score.append(s)
            drinks.append(dr)
            as_banker += [v for role, v in roles if role == "banker"]
            as_player += [v for role, v in roles if role == "player"]
        rows["score"].append(statistics.fmean(score))
        rows["drinks"].append(statistics.fmean(drinks))
        rows["base_drinks"].append(_baseline_drinks(d, opponent))
        rows["banker"].append(statistics.fmean(as_banker))
        rows["player"].append(statistics.fmean(as_player))
        if (d + 1) % 100 == 0:
            print(f"  … {name}: {d + 1}/{deals} deals", file=sys.stderr)
    seconds = time.perf_counter() - start
    times = [x for c in clocks for x in c.times]
    claims: dict[str, list[int]] = {}
    for bot in heroes:
        for kind, (n, bluffs) in bot.stats.by_kind.items():
            row = claims.setdefault(kind, [0, 0])
            row[0] += n
            row[1] += bluffs
    rounds = deals * 16
    print(f"\n### OddsBot against {name} ({deals} deals × 4 rotations × 4 rounds = {rounds:,} rounds, "
          f"{seconds:.0f} s)\n")
    print("| per round | mean | 95% CI |")
    print("|---|---|---|")
    labels = {"score": "OddsBot net score (zero-sum: drinks given − drinks taken)",
              "drinks": "OddsBot drinks taken", "base_drinks": f"{name} drinks taken in the same seats (baseline)",
              "banker": "OddsBot net score as banker (per banker round)",
              "player": "OddsBot net score as player (per player round)"}
    for key, label in labels.items():
        m, ci = mean_ci95(rows[key])
        print(f"| {label} | {m:+.3f} | ± {ci:.3f} |")
    total_claims = sum(n for n, _ in claims.values())
    total_bluffs = sum(b for _, b in claims.values())
    print(f"\nBluffs: {total_bluffs}/{total_claims} = {total_bluffs / max(1, total_claims):.1%} of OddsBot's "
          "claims were, by its own reckoning, more likely false than true:")
    for kind, (n, b) in sorted(claims.items()):
        print(f"- {kind}: {n} calls, {b} bluffs ({b / max(1, n):.1%})")
    print(f"\nOddsBot decisions: {len(times):,}; p50 {percentile(times, 0.5) * 1e3:.3f} ms, "
          f"p99 {percentile(times, 0.99) * 1e3:.3f} ms, max {max(times) * 1e3:.2f} ms")


def _baseline_drinks(deal: int, opponent: Maker) -> float:
    """The opponent bot in every seat of the same deal: its mean drinks per round per seat."""
    g = ShuiyuGame.new(ShuiyuConfig(), 10_000 + deal)
    play_out(g, [opponent(deal * 31 + s + 7) for s in range(g.num_seats)])
    result = g.result()
    assert result is not None
    return statistics.fmean(result.detail["drinks"]) / g.rounds_played


def selfplay(matches: int) -> None:
    """How much a call tells about the hand: P(call | strong) against P(call | weak) in OddsBot self-play."""
    odds_tables()
    heroes: list[OddsBot] = []
    for seed in range(matches):
        g = ShuiyuGame.new(ShuiyuConfig(), 20_000 + seed)
        bots = [OddsBot(seed * 4 + s) for s in range(g.num_seats)]
        heroes += bots
        play_out(g, bots)
    strong = sum(b.stats.hands[0] for b in heroes)
    weak = sum(b.stats.hands[1] for b in heroes)
    print(f"\n### OddsBot self-play: what a call says ({matches} matches, {strong + weak:,} calls; "
          f"strong = P(win both) ≥ 0.5: {strong:,} hands, weak: {weak:,})\n")
    print("| call | P(call | strong) | P(call | weak) | P(strong | call) |")
    print("|---|---|---|---|")
    for call in ("open", "cover", "force", "attack", "push"):
        n_s = sum(b.stats.calls.get(call, [0, 0])[0] for b in heroes)
        n_w = sum(b.stats.calls.get(call, [0, 0])[1] for b in heroes)
        print(f"| {call} | {n_s / max(1, strong):.3f} | {n_w / max(1, weak):.3f} | {n_s / max(1, n_s + n_w):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--study", type=int, default=0, metavar="DEALS", help="run the study with this many deals")
    parser.add_argument("--selfplay", type=int, default=0, metavar="MATCHES",
                        help="call frequencies of OddsBot in self-play")
    parser.add_argument("--no-speed", action="store_true", help="skip the speed figures")
    args = parser.parse_args()
    if not args.no_speed:
        speed()
    if args.selfplay:
        selfplay(args.selfplay)
    if args.study:
        study(args.study, "RandomBot", RandomBot)
        study(args.study, "BiggestHeadBot", BiggestHeadBot)


if __name__ == "__main__":
    main()
