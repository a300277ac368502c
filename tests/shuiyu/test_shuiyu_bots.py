"""水鱼 bots: the exact odds agree with brute force, bots play legal moves from their views alone."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any, Literal

from paiju.bots import Bot, RandomBot, play_out
from paiju.bots.base import catch_up, reseed
from paiju.core.cards import parse_cards
from paiju.games.shuiyu import ShuiyuConfig, ShuiyuGame
from paiju.games.shuiyu.bots import BOTS, BiggestHeadBot, OddsBot, model_split, odds_tables
from paiju.games.shuiyu.rules import (
    GROUP_KEY,
    SPLIT_PATTERNS,
    keys_of,
    kind_of_cards,
    parse_arrangement,
    split_cards,
)


def _model_keys(hand: tuple[int, ...]) -> tuple[int, int]:
    best = None
    for i, j, k, m in SPLIT_PATTERNS:
        k1, k2 = GROUP_KEY[hand[i] * 52 + hand[j]], GROUP_KEY[hand[k] * 52 + hand[m]]
        v = model_split(k1, k2)
        if best is None or v > best[0]:
            best = (v, max(k1, k2), min(k1, k2))
    assert best is not None
    return best[1], best[2]


def test_exact_odds_match_brute_force() -> None:
    """The bitset counts equal a plain loop over all C(48,4) = 194,580 opposing hands."""
    mine = parse_cards("AS 8H KD 7C")
    h, t = keys_of(parse_arrangement("AS 8H | KD 7C"))
    rest = [c for c in range(52) if c not in mine]
    # 强奸 under the page's reading wins only if every split of mine beats the banker on both groups
    force_h, force_t = (min(k) for k in zip(*(keys_of(a) for a in split_cards(mine)), strict=True))
    below = above = forced = total = 0
    for hand in combinations(rest, 4):
        if kind_of_cards(hand) != "plain":
            continue
        total += 1
        bh, bt = _model_keys(hand)
        below += bh < h and bt < t
        above += bh > h and bt > t
        forced += bh < force_h and bt < force_t
    idx = odds_tables().split
    mask = idx.avail(mine)
    assert total == mask.bit_count()
    assert idx.below(h, t, mask).bit_count() == below
    assert idx.above(h, t, mask).bit_count() == above
    assert 0 < below < total and 0 < above < total
    # the 强奸 odds the bot reads from the table's rules: the player's cards are split by the banker (default)
    view = {"rules": {}, "you": 0, "hands": [["AS", "8H", "KD", "7C"]]}
    assert round(OddsBot(0)._force_win(view, h, t, mine) * total) == forced
    assert 0 < forced < below


def test_odds_bot_forces_only_what_survives_the_bankers_split() -> None:
    """With the page's 强奸 a hand forces only if every split of it wins: 9S 9H | AS 8D (保 | 9) is strong as
    placed but split 9S AS | 9H 8D (0 | 7) it is not, so the bot covers instead; under
    ``force_rearrange="banker"`` (the banker re-splits its own cards) the same hand forces."""
    forced = {"player": 0, "banker": 0}
    whose: Literal["player", "banker"]
    for whose in ("player", "banker"):
        for seed in range(40):
            g = ShuiyuGame.from_deal({"hands": ["2C 3D 4S 6H", "9S 9H AS 8D"]},
                                     ShuiyuConfig(seats=2, force_rearrange=whose), seed)
            g.apply(0, g.legal_actions(0)[0])
            g.apply(1, "split 9S 9H | AS 8D")
            forced[whose] += OddsBot(seed).act(g.view(1), g.legal_actions(1)) == "force"
    assert forced["player"] == 0 and forced["banker"] >= 20


def test_bots_are_registered_strongest_first() -> None:
    assert list(BOTS) == ["odds", "biggest_head", "easy"]


def test_bots_play_legal_moves_to_the_end() -> None:
    for seed in range(12):
        cfg = ShuiyuConfig(seats=2 + seed % 6, rounds=2)
        g = ShuiyuGame.new(cfg, seed)
        bots: list[Bot] = [OddsBot(seed), BiggestHeadBot(seed), RandomBot(seed)] * 5
        play_out(g, bots[: g.num_seats])
        assert g.finished


def test_biggest_head_bot() -> None:
    g = ShuiyuGame.from_deal({"hands": ["AS 8H KD 7C", "2S 3H 4C 6D"]}, ShuiyuConfig(seats=2))
    bot = BiggestHeadBot(0)
    action = bot.act(g.view(0), g.legal_actions(0))
    assert action == "split AS 8H | KD 7C"


def test_odds_bot_splits_and_judges_open_hands() -> None:
    g = ShuiyuGame.from_deal({"hands": ["AS 8H KD 7C", "2S 3H 4C 5D"]}, ShuiyuConfig(seats=2))
    bot = OddsBot(1)
    g.apply(0, bot.act(g.view(0), g.legal_actions(0)))
    assert g.view(0)["arrangement"][0] == {"head": ["AS", "8H"], "tail": ["KD", "7C"]}
    g.apply(1, "split 5D 4C | 3H 2S")
    g.apply(1, "open")
    assert bot.act(g.view(0), g.legal_actions(0)) == "kill 1"    # it wins both: a true kill


def test_odds_bot_doubts_a_kill_with_a_strong_hand() -> None:
    """KS 9H | QD 8C (9 | 8) wins both groups far more often than it loses both: a kill is doubted."""
    g = ShuiyuGame.from_deal({"hands": ["2S 3H 4C 6D", "KS 9H QD 8C"]}, ShuiyuConfig(seats=2))
    g.apply(0, "split 3H 2S | 6D 4C")
    g.apply(1, "split KS 9H | QD 8C")
    g.apply(1, "open")
    g.apply(0, "kill 1")
    assert OddsBot(0).act(g.view(1), g.legal_actions(1)) == "doubt"


def test_odds_bot_mixes_where_the_equilibrium_does() -> None:
    """A weak open hand doubts a kill about a third of the time — what keeps a banker from gaining by killing a
    walk (a believed kill gains 1, a doubted one loses 2).  The mix never opens such a hand, so a banker facing
    it is off the equilibrium's path and kills the walk: against that doubt rate it costs nothing, and a player
    who believes everything drinks."""
    doubts = kills = 0
    rng = random.Random(3)
    for seed in range(300):
        g = ShuiyuGame.from_deal({"hands": ["AS 8H KD 7C", "2S 3H 4C 10D"]}, ShuiyuConfig(seats=2), seed)
        g.apply(0, "split AS 8H | KD 7C")
        g.apply(1, "split 3H 2S | 10D 4C")                        # 5 | 4: weak
        g.apply(1, "open")
        g.apply(0, "kill 1")
        doubts += OddsBot(rng.randrange(10**6)).act(g.view(1), g.legal_actions(1)) == "doubt"
        g = ShuiyuGame.from_deal({"hands": ["AS 2D KD 8C", "2S 3H 4C 10D"]}, ShuiyuConfig(seats=2), seed)
        g.apply(0, next(a for a in g.legal_actions(0) if "KD 8C" in a and "AS 2D" in a))   # 8 | 3 vs 5 | 4: a walk
        g.apply(1, "split 3H 2S | 10D 4C")
        g.apply(1, "open")
        kills += OddsBot(rng.randrange(10**6)).act(g.view(0), g.legal_actions(0)) == "kill 1"
    assert 60 < doubts < 140
    assert kills == 300


# ---- the exploitability probe (paiju study shuiyu -o probe=N) ----------------------------------------
def test_deviant_overrides_exactly_its_decision_kind() -> None:
    """A deviant differs from the default bot it wraps only in its phase, and there always takes its word."""
    from paiju.games.shuiyu.study import DEVIATIONS, Deviant

    class Spy:
        def __init__(self, bot: Bot) -> None:
            self.bot, self.last = bot, ""

        def act(self, view: dict[str, Any], legal: Sequence[str]) -> str:
            self.last = self.bot.act(view, legal)
            return self.last

    overridden = {name: 0 for name in DEVIATIONS}
    for name, (phase, word) in DEVIATIONS.items():
        for deal in range(6):
            g = ShuiyuGame.new(ShuiyuConfig(), 500 + deal)
            spy = Spy(OddsBot(deal))
            deviant = Deviant(spy, phase, word)
            seat = deal % 4
            bots: list[Bot] = [OddsBot(deal * 4 + s) for s in range(4)]
            while not g.finished:
                s = g.to_move()[0]
                legal = g.legal_actions(s)
                view = g.view(s)
                if s != seat:
                    g.apply(s, bots[s].act(view, legal))
                    continue
                action = deviant.act(view, legal)
                assert action in legal
                if view["phase"] != phase:
                    assert action == spy.last
                else:
                    want = f"{word} {spy.last.split()[1]}" if phase == "answer" else word
                    assert action == (want if want in legal else spy.last)
                    overridden[name] += action != spy.last
                g.apply(s, action)
    # every deviation but those the default bot already always makes changes something in these deals
    assert sum(1 for n in overridden.values() if n) >= 10, overridden


def test_probe_pairs_the_same_deals() -> None:
    """A deviation that never applies scores exactly zero in every seat: same cards, same bot seeds."""
    from paiju.games.shuiyu import study

    study.DEVIATIONS["never"] = ("arrange", "no such action")
    try:
        got = study.play_probe(3, ("never", "open"))
    finally:
        del study.DEVIATIONS["never"]
    assert got.gains["never"] == (0.0, 0.0, 0.0, 0.0)
    assert any(g != 0.0 for g in got.gains["open"])
    summary = study.probe_summary([study.play_probe(d, ("push",)) for d in range(3)])
    [row] = summary["rows"]
    assert row["deviation"] == "push" and len(row["seats"]) == 4 and summary["deals"] == 3


def test_shipped_bot_has_no_cheap_exploit() -> None:
    """The exploits of issue 16 (open every hand, doubt every kill: +0.36–0.40 a round) and two others gain
    little on 160 deals, one seat per deal in turn (a generous bound: the study measures it finely)."""
    from statistics import fmean

    from paiju.games.shuiyu.study import play_probe

    names = ("open", "doubt", "push", "kill")
    deals = [play_probe(d, names, seats=(d % 4,)) for d in range(160)]
    for name in names:
        gain = fmean(d.gains[name][0] for d in deals)
        assert gain < 0.15, (name, gain)


# ---- reading hand-blind habits (OddsBot.reads) -------------------------------------------------------
def _arrangement(text: str) -> dict[str, list[str]]:
    head, tail = text.split(" | ")
    return {"head": head.split(), "tail": tail.split()}


MINE = "7S KD | 4C 2H"
"""7 | 6 against a denied 走水: the mix drinks (its bucket compares 0.01 % of the time); against a random banker
hand comparing pays (it loses both to 31 % of hands, to 79 % of the hands the mix denies with)."""

BLIND_CASES: list[tuple[str, dict[str, Any] | None, list[tuple[str, str, str]], bool]] = [
    # (what seat 1 showed last round as a player, seats 2 and 3 this round, does seat 0 compare the deny)
    ("nothing seen (round 1), neighbours push", None, [("push", "", "deny"), ("push", "", "deny")], False),
    ("opened a weak hand and believed the kill", {"call": "open", "hand": "3H 2S | 10D 4C", "answer": "kill",
                                                   "response": "believe"}, [("push", "", "deny")] * 2, True),
    ("covered (the mix never covers)", {"call": "cover", "hand": None, "answer": "call", "response": None},
     [("push", "", "deny")] * 2, True),
    ("opened a strong hand and doubted the kill (the mix)", {"call": "open", "hand": "KS 9H | QD 8C",
                                                             "answer": "kill", "response": "doubt"},
     [("push", "", "deny")] * 2, False),
    ("pushed (the mix)", {"call": "push", "hand": None, "answer": "allow", "response": None},
     [("push", "", "deny")] * 2, False),
    ("nothing seen, but both neighbours open weak hands (a table of blind seats)", None,
     [("open", "5H 3C | 9D 6S", "kill"), ("open", "JC 4D | 8H 2S", "kill")], True),
]


def _respond_view(last: dict[str, Any] | None, now: list[tuple[str, str, str]]) -> dict[str, Any]:
    """Seat 0 pushed MINE and banker seat 1 denied; ``last``: seat 1 as a player last round (seat 0 banked)."""
    arrangement: list[dict[str, list[str]] | None] = [_arrangement(MINE), None, None, None]
    calls: list[str | None] = ["push", None]
    answers: list[str | None] = ["deny", None]
    for call, hand, answer in now:
        arrangement[len(calls)] = _arrangement(hand) if hand else None
        calls.append(call)
        answers.append(answer)
    hands = [[c for g in ("head", "tail") for c in a[g]] if a else None for a in arrangement]
    last_round = None
    if last is not None:
        last_round = {"round": 1, "banker": 0, "calls": [None, last["call"], "push", "push"],
                      "answers": [None, last["answer"], "allow", "allow"],
                      "responses": [None, last["response"], None, None],
                      "arrangement": [_arrangement("AH AD | QS JH"),
                                      _arrangement(last["hand"]) if last["hand"] else None, None, None]}
    return {"phase": "respond", "you": 0, "banker": 1, "round": 1 if last is None else 2, "rounds": 4,
            "rules": {}, "hands": hands, "arrangement": arrangement, "calls": calls, "answers": answers,
            "responses": [None] * 4, "last_round": last_round, "table": {"last_result": None}}


def test_a_deny_from_a_hand_blind_banker_is_compared() -> None:
    """The read fires where the banker's public play (as a player last round, or its neighbours' this round)
    looks hand-blind, and not where it looks like the mix's own."""
    for name, last, now, compares in BLIND_CASES:
        view = _respond_view(last, now)
        got = [OddsBot(seed).act(view, ["drink", "compare"]) for seed in range(5)]
        assert got == ["compare" if compares else "drink"] * 5, name


def test_the_mix_never_reads_itself_as_blind() -> None:
    """In self-play a deny the mix drinks after is never compared on the blind reading."""
    fired = []
    original = OddsBot._compare_denied

    def spy(bot: OddsBot, view: dict[str, Any]) -> bool:
        fired.append(original(bot, view))
        return fired[-1]

    OddsBot._compare_denied = spy  # type: ignore[method-assign,assignment]
    try:
        for m in range(60):
            play_out(ShuiyuGame.new(ShuiyuConfig(), 700 + m), [OddsBot(m * 4 + s) for s in range(4)])
    finally:
        OddsBot._compare_denied = original  # type: ignore[method-assign]
    assert len(fired) > 50 and not any(fired)


def test_reads_start_afresh_with_a_new_match() -> None:
    """A bot kept by the room for the next match forgets the seats' habits (the seats may change hands)."""
    bot = OddsBot(0)
    habit = _respond_view(BLIND_CASES[1][1], BLIND_CASES[1][2])
    assert bot.act(habit, ["drink", "compare"]) == "compare" and bot.reads
    bot.act(_respond_view(None, [("push", "", "deny")] * 2), ["drink", "compare"])
    assert bot.reads == {}


def _reading(bot: OddsBot) -> tuple[Any, ...]:
    return bot.read_round, bot.at_round, bot.reads, bot.believers, bot.habit_killers


def test_a_bot_taking_the_seat_mid_match_reads_the_match_so_far() -> None:
    """``catch_up`` (a table rebuilt after a restart, a person replaced): the new bot's reading of the other
    seats equals the reading of the bot that sat there from the start, and from there it chooses the same."""
    game = ShuiyuGame.new(ShuiyuConfig(rounds=12), 41)
    first = OddsBot(0)
    bots: list[Bot] = [first, RandomBot(1), RandomBot(2), RandomBot(3)]  # hand-blind seats: plenty to read
    while game.view(0)["round"] < 5:
        seat = game.to_move()[0]
        game.apply(seat, bots[seat].act(game.view(seat), game.legal_actions(seat)))
    late = OddsBot(99)
    catch_up(late, game.record(), 0)
    first.recall(game.view(0))  # the first bot reads the latest round at its next decision
    assert late.reads and late.read_round >= 3
    assert _reading(late) == _reading(first)
    decided = 0
    while not game.finished:
        seat = game.to_move()[0]
        view, legal = game.view(seat), game.legal_actions(seat)
        if seat == 0:
            reseed(first, decided)
            reseed(late, decided)
            action = first.act(view, legal)
            assert late.act(view, legal) == action
            decided += 1
        else:
            action = bots[seat].act(view, legal)
        game.apply(seat, action)
    assert decided > 10 and _reading(late) == _reading(first)
