"""Scripted 水鱼 deals: every line of the drinking table (page §六), the page's order, who sees what."""

from __future__ import annotations

import random
from typing import Any

import pytest
from resample_check import check_resample_is_sound

from paiju.core import OMNISCIENT, SPECTATOR, IllegalActionError, NotYourTurnError
from paiju.games.shuiyu import ShuiyuConfig, ShuiyuGame
from paiju.games.shuiyu.rules import arrangement_text, parse_arrangement


def new(hands: list[str], banker: int = 0, **options: Any) -> ShuiyuGame:
    """A one-round game dealt exactly ``hands`` (arrangement strings; '|' is ignored for the deal)."""
    cfg = ShuiyuConfig(seats=len(hands), rounds=options.pop("rounds", 1), first_banker=0, **options)
    deal = {"hands": [h.replace("|", " ") for h in hands], "banker": banker}
    return ShuiyuGame.from_deal(deal, cfg)


def arrange(g: ShuiyuGame, hands: list[str]) -> None:
    for seat, h in enumerate(hands):
        g.apply(seat, "split " + arrangement_text(parse_arrangement(h)))


def drinks(g: ShuiyuGame) -> list[int]:
    result = g.result()
    assert result is not None, "the round should be settled"
    return list(result.detail["drinks"])


B_BIG = "AS 8H | KD 7C"     # 9 (A♠) | 7
P_SMALL = "2S 3H | 4C 5D"   # 9 (5♦) | 5   → banker wins both
P_WALK = "2S 7H | 3C 5D"    # 9 (7♥) | 8   → 走过 against B_BIG
B_SMALL = "9S KD | 2C 3D"   # 9 (K♦) | 5
P_BIG = "AS 8H | KC 7C"     # 9 (A♠) | 7   → player wins both against B_SMALL
# 强奸: the banker splits the player's cards (page 一.7 "任由庄家组合自己的牌")
P_FORCE_WINS = "AS AH | AC 4S"    # every split is 保 | 5 (A): beats B_SMALL on both however it is split
P_FORCE_WALKS = "AH AC | AD 2S"   # every split is 保 | 3: a walk against B_BIG however it is split


# 一般规则 1–12: (page line, banker, player, call, banker's answer, player's response, drinks [banker, player])
GENERAL = [
    ("一.1", B_BIG, P_SMALL, "open", "kill", "believe", [0, 1]),
    ("一.1 bluff believed", B_SMALL, P_BIG, "open", "kill", "believe", [0, 1]),
    ("一.2", B_BIG, P_SMALL, "open", "kill", "doubt", [0, 2]),
    ("一.3 walk", B_BIG, P_WALK, "open", "kill", "doubt", [2, 0]),
    ("一.3 smaller", B_SMALL, P_BIG, "open", "kill", "doubt", [2, 0]),
    ("一.4", B_BIG, P_WALK, "open", "walk", "believe", [0, 0]),
    ("一.5", B_BIG, P_WALK, "open", "walk", "doubt", [0, 2]),
    ("一.6", B_SMALL, P_BIG, "open", "walk", "doubt", [2, 0]),
    ("一.5* banker bigger", B_BIG, P_SMALL, "open", "walk", "doubt", [0, 2]),
    ("一.7 player wins", B_SMALL, P_FORCE_WINS, "force", None, None, [3, 0]),
    ("一.7 banker wins", B_BIG, P_SMALL, "force", None, None, [0, 3]),
    ("一.7 banker wins a resplit", B_SMALL, P_BIG, "force", None, None, [0, 3]),
    ("一.7* walk", B_BIG, P_FORCE_WALKS, "force", None, None, [0, 3]),
    ("一.8 refused", B_BIG, P_SMALL, "attack", "refuse", None, [1, 0]),
    ("一.8 accepted, drinks", B_SMALL, P_BIG, "attack", "accept", "drink", [0, 1]),
    ("一.8 compared, attacker wins", B_SMALL, P_BIG, "attack", "accept", "compare", [2, 0]),
    ("一.8 compared, attacker loses", B_BIG, P_SMALL, "attack", "accept", "compare", [0, 2]),
    ("一.8* compared, walk", B_BIG, P_WALK, "attack", "accept", "compare", [0, 2]),
    ("一.9 allowed", B_SMALL, P_BIG, "push", "allow", None, [0, 0]),
    ("一.9 denied, drinks", B_SMALL, P_BIG, "push", "deny", "drink", [0, 1]),
    ("一.9 compared, banker wins both", B_BIG, P_SMALL, "push", "deny", "compare", [0, 2]),
    ("一.9 compared, walk", B_BIG, P_WALK, "push", "deny", "compare", [2, 0]),
    ("一.9 compared, player wins", B_SMALL, P_BIG, "push", "deny", "compare", [2, 0]),
    ("一.10", B_SMALL, P_BIG, "cover", "call", None, [2, 0]),
    ("一.11 smaller", B_BIG, P_SMALL, "cover", "call", None, [0, 2]),
    ("一.11 walk", B_BIG, P_WALK, "cover", "call", None, [0, 2]),
    ("一.12", B_BIG, P_SMALL, "cover", "concede", None, [1, 0]),
]


@pytest.mark.parametrize(("name", "banker", "player", "call", "answer", "response", "expected"), GENERAL,
                         ids=[row[0] for row in GENERAL])
def test_general_rules(name: str, banker: str, player: str, call: str, answer: str | None,
                       response: str | None, expected: list[int]) -> None:
    g = new([banker, player])
    arrange(g, [banker, player])
    assert g.to_move() == (1,)
    g.apply(1, call)
    if answer is not None:
        assert g.to_move() == (0,)
        g.apply(0, f"{answer} 1")
    if response is not None:
        assert g.to_move() == (1,)
        g.apply(1, response)
    assert g.finished
    assert drinks(g) == expected
    assert list(g.totals()) == [expected[1] - expected[0], expected[0] - expected[1]]  # zero-sum default
    line = g.view(SPECTATOR)["table"]["last_result"]["lines"][0]
    assert line["rule"] == name.split()[0]
    assert line["mult"] == max(expected)


FORCE = ["QH 7S | 10C 5S", "AS 8S | 4C 2D"]   # as placed the player wins both: 9 | 6 against 7 | 5


def test_force_lets_the_banker_split_the_players_cards() -> None:
    """一.7 强奸 "任由庄家组合自己的牌": 自己 is the player (一.8 contrasts 进攻 as 不任由庄家组牌), so the banker
    splits the player's four cards; AS 2D | 8S 4C (3 | 2) loses both to 7 | 5 and the player drinks ×3."""
    g = new(FORCE)
    arrange(g, FORCE)
    g.apply(1, "force")
    assert drinks(g) == [0, 3]
    line = g.view(SPECTATOR)["table"]["last_result"]["lines"][0]
    assert (line["rule"], line["case"], line["drinker"], line["mult"]) == ("一.7", "force_banker", "player", 3)
    assert line["resplit"] == {"whose": "player", "head": ["AS", "2D"], "tail": ["8S", "4C"]}
    assert "AS 2D | 8S 4C" in line["zh"] and "AS 2D | 8S 4C" in line["en"]
    assert g.view(1)["arrangement"][0] is not None, "a forcing player sees the banker's hand"


def test_force_banker_rearranges_its_own_cards_as_an_option() -> None:
    """``force_rearrange="banker"``: the banker re-splits its own cards instead; none of its three splits
    beats 9 | 6 on either group, so the banker drinks ×3."""
    g = new(FORCE, force_rearrange="banker")
    arrange(g, FORCE)
    g.apply(1, "force")
    assert drinks(g) == [3, 0]
    line = g.view(SPECTATOR)["table"]["last_result"]["lines"][0]
    assert (line["case"], line["resplit"]["whose"]) == ("force_player", "banker")
    # the banker may also turn a loss into a walk by re-splitting its own cards
    banker, player = "AS KD | 8H 7C", "3C 3D | 2S 4H"   # placed: 5 | 1 loses to 保 | 6 …
    g = new([banker, player], force_rearrange="banker")
    arrange(g, [banker, player])
    g.apply(1, "force")
    assert drinks(g) == [0, 3]                           # … but A8 | K7 (9 | 7) makes it a walk
    assert g.last_result is not None and g.last_result["lines"][0]["case"] == "force_walk"


def test_hole_options_change_the_drinker() -> None:
    g = new([B_BIG, P_SMALL], walk_doubted_banker_bigger="banker")
    arrange(g, [B_BIG, P_SMALL])
    g.apply(1, "open")
    g.apply(0, "walk 1")
    g.apply(1, "doubt")
    assert drinks(g) == [2, 0]
    g = new([B_BIG, P_FORCE_WALKS], force_walk="nobody")
    arrange(g, [B_BIG, P_FORCE_WALKS])
    g.apply(1, "force")
    assert drinks(g) == [0, 0]


def test_multipliers_are_options_and_zero_sum_is_optional() -> None:
    g = new([B_BIG, P_SMALL], mult_kill_believed=3, zero_sum=False)
    arrange(g, [B_BIG, P_SMALL])
    g.apply(1, "open")
    g.apply(0, "kill 1")
    g.apply(1, "believe")
    assert drinks(g) == [0, 3]
    assert list(g.totals()) == [0, -3]


# 有水鱼和至尊 1–6: (page line, banker, player, drinks [banker, player])
SPECIAL = [
    ("二.1", "AS 8H | KD 7C", "5S 5H | 9C 9D", [2, 0]),
    ("二.2 banker bigger", "KS KH | 3C 3D", "QS QH | 2C 2D", [0, 2]),
    ("二.2 player bigger", "QS QH | 2C 2D", "KS KH | 3C 3D", [2, 0]),
    ("二.2 walk", "KS KH | 2C 2D", "QS QH | 3C 3D", [0, 0]),
    ("二.3", "AS 8H | KD 6C", "7S 7H | 7C 7D", [4, 0]),
    ("二.3 over a 水鱼", "KS KH | 3C 3D", "7S 7H | 7C 7D", [4, 0]),
    ("二.4 player bigger", "2S 2H | 2C 2D", "3S 3H | 3C 3D", [4, 0]),
    ("二.4 banker bigger", "3S 3H | 3C 3D", "2S 2H | 2C 2D", [0, 4]),
    ("二.5", "KS KH | 3C 3D", "AS 8H | KD 7C", [0, 2]),
    ("二.6", "9S 9H | 9C 9D", "AS 8H | KD 7C", [0, 4]),
    ("二.6 over a 水鱼", "9S 9H | 9C 9D", "KS KH | 3C 3D", [0, 4]),
]


@pytest.mark.parametrize(("name", "banker", "player", "expected"), SPECIAL, ids=[row[0] for row in SPECIAL])
def test_special_hands(name: str, banker: str, player: str, expected: list[int]) -> None:
    g = new([banker, player])
    arrange(g, [banker, player])
    if not g.finished:                       # a plain banker: the player's 水鱼/至尊 can only be shown
        assert g.legal_actions(1) == ["show"]
        g.apply(1, "show")
    assert drinks(g) == expected
    rule = g.view(SPECTATOR)["table"]["last_result"]["lines"][0]["rule"]
    assert name.split()[0] in rule


def test_banker_shuiyu_settles_every_player_at_the_reveal() -> None:
    """二.5: a banker's 水鱼 is shown to all; plain players drink 2, a 水鱼 compares, a 至尊 wins ×4."""
    hands = ["KS KH | 3C 3D", "AS 8H | QD 7C", "AD AC | 2S 2H", "QS QH | 4C 5D", "9S 9H | 9C 9D"]
    g = new(hands)
    for seat, h in enumerate(hands):
        assert not g.finished
        g.apply(seat, "split " + arrangement_text(parse_arrangement(h)))
    assert g.finished, "nobody calls against a banker's 水鱼"
    # seat 1 plain: drinks 2; seat 2 水鱼 AA|22 vs KK|33: head player, tail banker → walk;
    # seat 3 plain (Q pair + 9): drinks 2; seat 4 至尊: banker drinks 4
    assert drinks(g) == [4, 2, 0, 2, 0]
    assert g.view(1)["hands"][0] is not None, "a banker's 水鱼 is shown to everyone"
    assert g.view(SPECTATOR)["hands"][0] is not None


def test_covering_a_shuiyu_is_refused() -> None:
    g = new(["AS 8H | KD 7C", "5S 5H | 9C 9D", "2S 3H | 4C 6D"])
    arrange(g, ["AS 8H | KD 7C", "5S 5H | 9C 9D", "2S 3H | 4C 6D"])
    with pytest.raises(IllegalActionError, match="must be shown"):
        g.apply(1, "cover")
    assert g.view(2)["hands"][1] == ["5S", "5H", "9C", "9D"], "a player's 水鱼 is face up at the reveal"
    with pytest.raises(IllegalActionError, match="two pairs"):
        ShuiyuGame.from_deal({"hands": ["5S 5H 9C 9D", "2S 3H 4C 6D"]}, ShuiyuConfig(seats=2)).apply(
            0, "split 9C 5S | 9D 5H")


def test_acting_for_another_seat_is_refused() -> None:
    hands = [B_BIG, P_SMALL, "10S 10H | 6C 2D"]
    g = new(hands)
    arrange(g, hands)
    with pytest.raises(NotYourTurnError):
        g.apply(0, "open")                   # the banker does not call
    g.apply(1, "open")
    with pytest.raises(NotYourTurnError):
        g.apply(1, "open")                   # seat 1 has called already
    g.apply(2, "cover")
    with pytest.raises(NotYourTurnError):
        g.apply(1, "kill 1")                 # only the banker answers
    with pytest.raises(IllegalActionError):
        g.apply(0, "kill 0")                 # the banker is not a player


def test_banker_answers_open_hands_before_covered_ones() -> None:
    """Page §五 6: 庄家必须首先选择判定开牌的闲家，然后再到盖牌的闲家."""
    hands = [B_BIG, P_SMALL, "10S 10H | 6C 2D", "JS 9H | 4S 5H"]
    g = new(hands)
    arrange(g, hands)
    g.apply(1, "cover")
    g.apply(2, "open")
    g.apply(3, "attack")
    assert g.legal_actions(0) == ["kill 2", "walk 2"]
    before = g.view(OMNISCIENT)
    with pytest.raises(IllegalActionError, match="open hands first"):
        g.apply(0, "call 1")
    with pytest.raises(IllegalActionError, match="open hands first"):
        g.apply(0, "accept 3")
    assert g.view(OMNISCIENT) == before, "a refused action changes nothing"
    g.apply(0, "kill 2")
    assert sorted(g.legal_actions(0)) == ["accept 3", "call 1", "concede 1", "refuse 3"]
    g.apply(0, "accept 3")
    g.apply(0, "call 1")
    assert set(g.to_move()) == {2, 3}        # 信/不信 and the 进攻 follow-up, all at once
    assert g.legal_actions(2) == ["believe", "doubt"]
    assert g.legal_actions(3) == ["drink", "compare"]
    g.apply(3, "compare")
    g.apply(2, "believe")
    # seat 1 covered, called, smaller: drinks 2 (一.11); seat 2 killed, believed: 1 (一.1);
    # seat 3: JS 9H = 9 (J♠), 4S 5H = 9 — head 9(J♠) vs 9(A♠): banker; tail 9 vs 7: player → walk → attacker 2
    assert drinks(g) == [0, 2, 1, 2]
    rules = [line["rule"] for line in g.view(SPECTATOR)["table"]["last_result"]["lines"]]
    assert rules == ["一.11", "一.1", "一.8*"]


def test_covered_hand_is_hidden_until_the_banker_calls_it() -> None:
    hands = [B_BIG, P_SMALL, "JS 9C | 4S 5H", "10S 10H | 6C 2D"]
    # seats: 0 banker; 1 covers and is called; 2 covers and is conceded; 3 opens and believes
    g = new(hands)
    arrange(g, hands)
    for viewer in (0, 2, 3, SPECTATOR):
        assert g.view(viewer)["hands"][1] is None
    g.apply(1, "cover")
    g.apply(2, "cover")
    g.apply(3, "open")
    assert g.view(0)["hands"][3] == ["10S", "10H", "6C", "2D"], "an open hand is face up for all"
    assert g.view(SPECTATOR)["hands"][3] is not None
    assert g.view(0)["hands"][1] is None and g.view(0)["hands"][2] is None
    assert g.view(0)["calls"] == [None, "cover", "cover", "open"]
    g.apply(0, "kill 3")
    g.apply(0, "call 1")
    assert g.view(0)["hands"][1] is None, "turned up at the settlement, not before"
    g.apply(0, "concede 2")
    g.apply(3, "believe")
    assert g.finished
    assert g.view(0)["hands"][1] is not None and g.view(SPECTATOR)["hands"][1] is not None
    assert g.view(0)["hands"][2] is None, "a conceded covered hand is never shown"
    assert g.view(1)["hands"][0] is not None, "the banker shows its hand to a called covered player"
    assert g.view(3)["hands"][0] is None, "a player who believed never sees the banker's hand"
    assert g.view(2)["hands"][0] is None
    assert g.view(SPECTATOR)["hands"][0] is None


def test_calls_stay_secret_until_everyone_has_called() -> None:
    hands = [B_BIG, P_SMALL, "10S 10H | 6C 2D"]
    g = new(hands)
    arrange(g, hands)
    g.apply(1, "cover")
    assert g.view(2)["calls"][1] is None and g.view(0)["calls"][1] is None
    assert g.view(1)["calls"][1] == "cover"
    assert g.view(2)["decided"][1] is True
    g.apply(2, "open")
    assert g.view(2)["calls"][1] == "cover"


def test_resample_draws_the_calls_it_has_not_seen() -> None:
    """Calls are secret until all have called: a resample for seat 2 or the banker draws seat 1's call afresh
    from the rng, a resample for seat 1 keeps it, and the game resamples alike whatever seat 1 called."""
    hands = [B_BIG, P_SMALL, "10S 10H | 6C 2D"]
    g = new(hands)
    arrange(g, hands)
    assert check_resample_is_sound(g, random.Random(1)) > 0   # seat 1 calls one thing or another, unseen
    g.apply(1, "cover")
    check_resample_is_sound(g, random.Random(2))  # seat 2 alone calls now: its call will be seen
    drawn = {g.resample(2, random.Random(seed)).calls[1] for seed in range(40)}
    assert drawn == set(g.legal_actions(2)) == {"open", "cover", "force", "attack", "push"}
    assert {g.resample(1, random.Random(seed)).calls[1] for seed in range(10)} == {"cover"}
    assert g.resample(2, random.Random(0)).history == [], "a resample has no record to tell the calls"


def test_resample_keeps_only_the_last_round_the_viewer_saw() -> None:
    hands = [B_BIG, P_SMALL, "10S 10H | 6C 2D"]
    g = new(hands, rounds=2)
    arrange(g, hands)
    for seat, action in ((1, "open"), (2, "open"), (0, "kill 1"), (0, "kill 2"), (1, "doubt"), (2, "believe")):
        g.apply(seat, action)
    assert g.view(OMNISCIENT)["last_round"]["arrangement"][0] is not None
    twin = g.resample(2, random.Random(0))                     # seat 2 believed: it never saw the banker's hand
    assert twin.view(2) == g.view(2)
    assert twin.view(OMNISCIENT)["last_round"]["arrangement"][0] is None
    assert twin.view(OMNISCIENT)["last_round"]["arrangement"][1:] == g.view(OMNISCIENT)["last_round"][
        "arrangement"][1:]
    assert g.resample(1, random.Random(0)).view(OMNISCIENT)["last_round"] == g.view(OMNISCIENT)["last_round"]


def test_banker_shows_to_all_option() -> None:
    hands = [B_BIG, P_SMALL, "10S 10H | 6C 2D"]
    g = new(hands, banker_shows="all")
    arrange(g, hands)
    g.apply(1, "open")
    g.apply(2, "open")
    g.apply(0, "kill 1")
    g.apply(0, "kill 2")
    g.apply(1, "doubt")
    g.apply(2, "believe")
    assert g.view(2)["hands"][0] is not None


def test_tally_and_next_banker_over_rounds() -> None:
    for rotation, expect in (("next", [0, 1, 2, 0, 1]), ("keep", [0, 0, 0, 0, 0])):
        g = ShuiyuGame.new(ShuiyuConfig(seats=3, rounds=5, banker_rotation=rotation), seed=11)  # type: ignore[arg-type]
        bankers = [g.banker]
        settled = [0.0, 0.0, 0.0]
        while not g.finished:
            seat = g.to_move()[0]
            action = g.timeout_action(seat)
            assert action is not None
            for ev in g.apply(seat, action):
                if ev["type"] == "settlement":
                    settled = [a + b for a, b in zip(settled, ev["scores"], strict=True)]
                if ev["type"] == "deal":
                    bankers.append(ev["banker"])
        assert bankers == expect
        assert list(g.totals()) == settled
        assert sum(g.totals()) == 0
        assert g.view(SPECTATOR)["round"] == 5


def test_winner_takes_the_bank() -> None:
    hands = [B_SMALL, P_SMALL.replace("5D", "6H"), P_BIG]
    g = new(hands, rounds=2, banker_rotation="winner")
    arrange(g, hands)
    g.apply(1, "cover")
    g.apply(2, "cover")
    g.apply(0, "concede 1")
    g.apply(0, "call 2")                     # seat 2 wins both: the banker drinks 2 to it
    assert g.banker == 2
    assert g.view(SPECTATOR)["last_round"]["banker"] == 0


def test_previous_round_shown_as_each_seat_saw_it() -> None:
    hands = [B_BIG, P_SMALL, "10S 10H | 6C 2D"]
    g = new(hands, rounds=2)
    arrange(g, hands)
    g.apply(1, "open")
    g.apply(2, "open")
    g.apply(0, "kill 1")
    g.apply(0, "kill 2")
    g.apply(1, "doubt")
    g.apply(2, "believe")
    assert not g.finished
    assert g.view(1)["last_round"]["arrangement"][0] == {"head": ["AS", "8H"], "tail": ["KD", "7C"]}
    assert g.view(2)["last_round"]["arrangement"][0] is None


def test_deal_validation() -> None:
    from paiju.core.errors import NotationError

    with pytest.raises(NotationError):
        ShuiyuGame.from_deal({"hands": ["AS 8H KD 7C", "AS 2H 3C 4D"]}, ShuiyuConfig(seats=2))
    with pytest.raises(NotationError):
        ShuiyuGame.from_deal({"hands": ["AS 8H KD 7C"]}, ShuiyuConfig(seats=2))


def test_describe_labels() -> None:
    g = ShuiyuGame.new(ShuiyuConfig(), 1)
    assert g.describe("cover", "zh") == "盖牌"
    assert g.describe("kill 2", "en") == "kill: {seat:2}", "a seat is named by each reader (docs/web.md)"
    assert g.describe("split AS 8H | KD 7C", "zh") == "头 AS 8H · 尾 KD 7C"


def test_cli_parses_words_and_splits() -> None:
    from paiju.games.shuiyu.cli import format_event, parse_input, render

    legal = ["split AS 8H | KD 7C", "split 8H 7C | AS KD", "split AS 7C | KD 8H"]
    assert parse_input("kd 7c | as 8h", legal) == "split AS 8H | KD 7C"
    assert parse_input("AS 2H | KD 7C", legal) == "split KD 7C | AS 2H", "read, though not this hand's split"
    assert parse_input("红桃8 黑桃A | 方块K 梅花7", legal) == "split AS 8H | KD 7C"
    assert parse_input("开牌", ["open", "cover", "force"]) == "open"
    assert parse_input("开牌 2", ["kill 1", "walk 1"]) == "open 2", "read; the rule says why not"
    assert parse_input("开牌 2", ["call 2", "concede 2"]) == "call 2"
    assert parse_input("杀", ["kill 3", "walk 3"]) == "kill 3"
    assert parse_input("不信", ["believe", "doubt"]) == "doubt"
    g = new([B_BIG, P_SMALL])
    arrange(g, [B_BIG, P_SMALL])
    g.apply(1, "open")
    text = render(g.view(1), "zh")
    assert "A♠" not in text and "开牌" in text and "open" not in text, "Chinese says nothing twice"
    assert "open" in render(g.view(1), "en")
    events = g.apply(0, "kill 1") + g.apply(1, "doubt")
    assert any("一.2" in format_event(ev, "zh") for ev in events)
