"""Scripted deals through every scoring line of the page, the claim window, the pass lock and the dealer rules.

Each deal fixes the four hands and the wall order (``wall`` = the draws in order, ``replacements`` = the kong
replacement draws in order), so every payment below is the page's table applied to a known hand.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from resample_check import check_resample_is_sound

from paiju.core import OMNISCIENT, SPECTATOR, IllegalActionError, Window
from paiju.games.huashui import HuashuiConfig, HuashuiGame
from paiju.games.huashui.rules import break_wall, deal_hands

# Junk hands: thirteen single tiles each, far from ready, holding no pair (so they can never 碰).
JUNK_S1 = "2z3z4z5z6z7z1s4s7s2p5p8p9s"


def start(tiles: list[str], wall: str = "", replacements: str = "", dealer: int = 0, **options: Any) -> HuashuiGame:
    deal = {"dealer": dealer, "hands": tiles, "wall": wall, "replacements": replacements, "dice": [3, 4]}
    return HuashuiGame.from_deal(deal, HuashuiConfig(**options), seed=1)


def play(game: HuashuiGame, *moves: tuple[int, str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for seat, action in moves:
        events += game.apply(seat, action)
    return events


def lines(game: HuashuiGame) -> list[list[int]]:
    assert game.last_result is not None
    return [line["points"] for line in game.last_result["lines"]]


def scores(game: HuashuiGame) -> list[int]:
    assert game.last_result is not None
    result: list[int] = game.last_result["scores"]
    assert sum(result) == 0, "every hand is zero-sum"
    return result


# ---- 跟庄 and 自摸 ------------------------------------------------------------------------------------
FOLLOW = ["123m456m789m11p23p1z", "1z2z3z4z5z6z7z1s4s7s2p5p8p", "1z2z3z4z5z6z7z2s5s8s3p6p9p",
          "1z2z3z4z5z6z7z3s6s9s1p4p7p"]


def test_follow_the_dealer_then_self_draw() -> None:
    g = start(FOLLOW, wall="5m5m5m1p")
    events = play(g, (0, "discard 1z"), (1, "discard 1z"), (2, "discard 1z"), (3, "discard 1z"))
    assert any(e["type"] == "follow_dealer" for e in events)
    assert g.legal_actions(0)[0] == "hu"
    events = play(g, (0, "hu"))
    assert lines(g) == [[-3, 1, 1, 1], [12, -4, -4, -4]]  # 跟庄: dealer pays each 1; 自摸: each pays 4
    assert scores(g) == [9, -3, -3, -3]
    assert g.finished and list(g.totals()) == [9, -3, -3, -3]
    settle = next(e for e in events if e["type"] == "settlement")
    assert settle["lines"] == g.view(SPECTATOR)["table"]["last_result"]["lines"]


def test_follow_the_dealer_needs_all_three_and_can_be_priced() -> None:
    g = start(FOLLOW, wall="5m5m5m1p")
    play(g, (0, "discard 1z"), (1, "discard 1z"), (2, "discard 2z"), (3, "discard 1z"), (0, "hu"))
    assert lines(g) == [[12, -4, -4, -4]]
    g = start(FOLLOW, wall="5m5m5m1p", gen_zhuang=2)
    play(g, (0, "discard 1z"), (1, "discard 1z"), (2, "discard 1z"), (3, "discard 1z"), (0, "hu"))
    assert lines(g)[0] == [-6, 2, 2, 2]


def test_a_pung_breaks_follow_the_dealer() -> None:
    hands = ["123m456m789m11p23p1z", "1z1z3z4z5z6z7z1s4s7s2p5p8p", "2z2z3z4z5z6z7z2s5s8s3p6p9p",
             "1z2z3z4z5z6z7z3s6s9s1p4p7p"]
    g = start(hands, wall="5m5m1p")
    play(g, (0, "discard 1z"), (1, "pung 1z"), (1, "discard 1s"), (2, "discard 2s"))
    assert g.to_move() == (3,) and not g.view(SPECTATOR)["gen_zhuang"]["active"]


# 跟庄 after the dealer's own 暗杠: the dealer kongs 1m, draws its replacement 9s, then discards 1z, and
# the three others follow with 1z.
KONG_FOLLOW = ["1111m456m789m1p23p1z", *FOLLOW[1:]]


def test_the_dealers_concealed_kong_before_its_first_discard_keeps_follow_the_dealer() -> None:
    """The page's condition (the dealer's first discard, then the same tile from the other three) still holds
    after the dealer's own 暗杠 before that discard, so 跟庄 pays."""
    g = start(KONG_FOLLOW, wall="5s5s5s9m", replacements="9s")
    events = play(g, (0, "kong 1m"), (0, "discard 1z"), (1, "discard 1z"), (2, "discard 1z"), (3, "discard 1z"))
    assert [e for e in events if e["type"] == "follow_dealer"] == [
        {"type": "follow_dealer", "tile": "1z", "dealer": 0, "amount": 1}]
    assert [line["points"] for line in g.view(SPECTATOR)["pending_lines"]] == [[6, -2, -2, -2], [-3, 1, 1, 1]]


def test_the_dealers_kong_breaking_follow_the_dealer_is_an_option() -> None:
    g = start(KONG_FOLLOW, wall="5s5s5s9m", replacements="9s", dealer_kong_breaks_follow=True)
    events = play(g, (0, "kong 1m"), (0, "discard 1z"), (1, "discard 1z"), (2, "discard 1z"), (3, "discard 1z"))
    assert not any(e["type"] == "follow_dealer" for e in events)
    assert [line["points"] for line in g.view(SPECTATOR)["pending_lines"]] == [[6, -2, -2, -2]]


# ---- 点炮 and the dealer rules ----------------------------------------------------------------------
SHANPON = ["9s2z3z4z5z6z7z1s4s7s2p5p8p1z", "123m456m789m11p99s", "1z2z3z4z5z6z7z2s5s8s3p6p9p",
           "1z2z3z4z5z6z7z3s6s1p4p7p8s"]


def test_discard_win_and_winner_deals_next() -> None:
    g = start(SHANPON, hands=2)
    play(g, (0, "discard 9s"))
    assert g.to_move() == (1,) and set(g.legal_actions(1)) == {"hu", "pung 9s", "pass"}
    events = play(g, (1, "hu"))
    assert lines(g) == [[-5, 5, 0, 0]]  # 普通点炮 5, the discarder alone pays
    assert g.view(SPECTATOR)["dealer"] == 1, "the winner deals the next hand"
    assert [e["type"] for e in events][-1] == "hand_start"
    assert not g.finished and list(g.totals()) == [-5, 5, 0, 0]


def test_declining_leaves_the_pung_and_the_lock() -> None:
    g = start(SHANPON)
    play(g, (0, "discard 9s"), (1, "pung 9s"))
    assert g.view(SPECTATOR)["melds"][1][0]["type"] == "pung"
    assert g.to_move() == (1,) and "hu" not in g.legal_actions(1)


SEVEN_PAIRS = ["7z1z2z3z4z5z6z1s4s7s2p5p8p9s", "11m22m33m44p55p66s7z", "1z2z3z4z5z6z2s5s8s3p6p9p9m",
               "1z2z3z4z5z6z3s6s9s1p4p7p8m"]


def test_seven_pairs_on_a_discard_pays_three_times() -> None:
    g = start(SEVEN_PAIRS)
    play(g, (0, "discard 7z"), (1, "hu"))
    assert lines(g) == [[-15, 15, 0, 0]]
    assert g.last_result is not None and g.last_result["wins"][0]["dui_hu"]


def test_seven_pairs_self_drawn_pays_three_times() -> None:
    g = start(SEVEN_PAIRS, wall="7z")
    play(g, (0, "discard 9s"), (1, "hu"))
    assert lines(g) == [[-12, 36, -12, -12]]


def test_the_multiplier_is_an_option() -> None:
    g = start(SEVEN_PAIRS, dui_hu_multiplier=2, discard_win=6)
    play(g, (0, "discard 7z"), (1, "hu"))
    assert lines(g) == [[-12, 12, 0, 0]]


def test_quad_counts_as_two_pairs_in_play() -> None:
    hands = ["7z1z2z3z4z5z6z1s4s7s2p5p8p9s", "1111m33m44p55p66s7z", "1z2z3z4z5z6z2s5s8s3p6p9p9m",
             "1z2z3z4z5z6z3s6s9s1p4p7p8m"]
    g = start(hands)
    play(g, (0, "discard 7z"), (1, "hu"))
    assert lines(g) == [[-15, 15, 0, 0]]


# ---- kongs and 杠开 -----------------------------------------------------------------------------------
def test_concealed_kong_then_win_on_the_replacement() -> None:
    hands = ["1111m123p456p789p1z", JUNK_S1, "2z3z4z5z6z7z3s6s2m5m8m3m1s", "2z3z4z5z6z7z4m6m7m9m1p4p7p"]
    g = start(hands, replacements="1z")
    assert "kong 1m" in g.legal_actions(0)
    events = play(g, (0, "kong 1m"))
    assert any(e["type"] == "kong" and e["kind"] == "kong_concealed" for e in events)
    # the page: one tile of a 暗杠 is turned up for everyone to see
    assert g.view(2)["melds"][0][0]["cards"] == ["1m", "??", "??", "??"]
    assert g.view(0)["melds"][0][0]["cards"] == ["1m"] * 4
    play(g, (0, "hu"))
    assert lines(g) == [[6, -2, -2, -2], [36, -12, -12, -12]]  # 暗杠 2 each; 杠开 4×3 each
    assert g.last_result is not None and g.last_result["wins"][0]["kong_draw"]


def test_kong_on_a_discard_then_win_on_the_replacement() -> None:
    hands = ["5m2z3z4z5z6z7z1s4s7s2s5s8s9s", "555m123p456p789p1z", "2z3z4z5z6z7z3s6s9s1m4m7m2m",
             "2z3z4z5z6z7z3s6s3m6m9m8m1z"]
    g = start(hands, replacements="1z")
    play(g, (0, "discard 5m"))
    assert set(g.legal_actions(1)) == {"pung 5m", "kong 5m", "pass"}
    play(g, (1, "kong 5m"), (1, "hu"))
    assert lines(g) == [[-3, 3, 0, 0], [-12, 36, -12, -12]]  # 放杠 3 from the discarder; 杠开


def test_kong_then_ordinary_discard_win_keeps_the_kong_payment() -> None:
    hands = ["5m2z3z4z5z6z7z1s4s7s2s5s8s9s", "555m123p456p789p1z", "2z3z4z5z6z7z3s6s9s1m4m7m2m",
             "2z3z4z5z6z7z3s6s3m6m9m8m1z"]
    g = start(hands, replacements="9m", wall="1z")
    play(g, (1 - 1, "discard 5m"), (1, "kong 5m"), (1, "discard 9m"), (2, "discard 1z"), (1, "hu"))
    assert lines(g) == [[-3, 3, 0, 0], [0, 5, -5, 0]]


# 过路杠 / 抢杠: S0 discards 5m, S1 pungs it, later draws the fourth 5m and adds it to the pung.
ADDED = ["5m2z3z4z5z6z7z1s4s7s2p5p8p9s", "55m123p456p789s1z9m", "34m567s888s333z99p",
         "2z4z5z6z7z1s3s6s9p1m7m8m9m"]


def test_robbing_an_added_kong() -> None:
    g = start(ADDED, wall="1m8p2z5m")
    play(g, (0, "discard 5m"))
    assert g.to_move() == (1, 2)  # S2 could win on 5m, S1 could pung it: one window
    play(g, (2, "pass"), (1, "pung 5m"), (1, "discard 9m"))  # S2 declined: locked on 5m until its turn
    play(g, (2, "discard 1m"), (3, "discard 8p"), (0, "discard 2z"))
    assert "kong 5m" in g.legal_actions(1)
    play(g, (1, "kong 5m"))
    assert g.to_move() == (2,) and g.window(2) == Window.CLAIM and g.public_to_move() == ()
    assert g.legal_actions(2) == ["hu", "pass"]
    play(g, (2, "hu"))
    assert lines(g) == [[0, -15, 15, 0]]  # 抢杠 5×3, the kong-maker pays; the robbed kong scores nothing
    assert g.view(SPECTATOR)["melds"][1][0]["type"] == "pung"


def test_declined_rob_completes_the_added_kong() -> None:
    g = start(ADDED, wall="1m8p2z5m", replacements="9p")
    play(g, (0, "discard 5m"), (2, "pass"), (1, "pung 5m"), (1, "discard 9m"), (2, "discard 1m"),
         (3, "discard 8p"), (0, "discard 2z"), (1, "kong 5m"), (2, "pass"))
    assert g.view(SPECTATOR)["melds"][1][0]["type"] == "kong_added"
    assert g.to_move() == (1,) and g.view(1)["drawn"] == "9p"
    assert g.view(SPECTATOR)["pending_lines"][0]["points"] == [-1, 3, -1, -1]
    # S2 passed the rob: locked on 5m until its own turn
    assert g.view(2)["locked"] == ["5m"]


def test_added_kong_without_robbers_pays_one_each() -> None:
    hands = ["5m2z3z4z5z6z7z1s4s7s2p5p8p9s", "55m123p456p789s1z9m", "2z3z4z6z7z2s5s8s3p6p9p1m4m",
             "4z5z6z7z1s3s6s9p7m8m9m3m6p"]
    g = start(hands, wall="1p8p2z5m", replacements="8p")
    play(g, (0, "discard 5m"), (1, "pung 5m"), (1, "discard 9m"), (2, "discard 1p"), (3, "discard 8p"),
         (0, "discard 2z"), (1, "kong 5m"), (1, "discard 8p"))
    assert g.view(SPECTATOR)["pending_lines"][0]["points"] == [-1, 3, -1, -1]


# 过路杠 is 碰牌后又自己摸到一張湊成杠: S1 holds three 5m and pungs S0's fourth instead of 放杠.
HELD_FOURTH = ["5m2z3z4z5z6z7z1s4s7s2s5s8s9s", "555m123p456p789p1z", "2z3z4z5z6z7z3s6s9s1m4m7m2m",
               "2z3z4z5z6z7z3s6s3m6m9m8m1z"]


def test_the_fourth_tile_held_at_the_pung_never_makes_an_added_kong() -> None:
    """The fourth 5m was in S1's hand when it punged: no 过路杠 with it, then or later (it was offered the
    放杠, paid 3 by the discarder, on the discard); it stays an ordinary tile S1 may keep or discard."""
    g = start(HELD_FOURTH, wall="9p1p2p3p")
    play(g, (0, "discard 5m"))
    assert set(g.legal_actions(1)) == {"pung 5m", "kong 5m", "pass"}
    play(g, (1, "pung 5m"))
    assert "kong 5m" not in g.legal_actions(1) and "discard 5m" in g.legal_actions(1)
    with pytest.raises(IllegalActionError, match="过路杠"):
        g.apply(1, "kong 5m")
    play(g, (1, "discard 1z"), (2, "discard 9p"), (3, "discard 1p"), (0, "discard 2p"))
    assert g.to_move() == (1,) and g.view(1)["drawn"] == "3p"
    assert "kong 5m" not in g.legal_actions(1), "still no 过路杠 on a later turn"
    play(g, (1, "discard 5m"))
    assert g.to_move() == (2,) and g.view(SPECTATOR)["melds"][1] == [
        {"type": "pung", "tile": "5m", "from": 0, "cards": ["5m", "5m", "5m"]}]
    assert g.view(SPECTATOR)["pending_lines"] == []


# ---- 一炮多响 -----------------------------------------------------------------------------------------
MULTI = ["5s7z1s2s7s8s9s1m2m3m4m5m6m7m", "123m456m789m11p46s", "11z22z33z44z55z66z5s", "123p456p789p99m34s"]


def test_three_winners_on_one_discard() -> None:
    g = start(MULTI, hands=2)
    play(g, (0, "discard 5s"))
    assert g.to_move() == (1, 2, 3) and g.public_to_move() == ()
    assert all(g.timeout_action(s) == "pass" for s in (1, 2, 3))
    assert g.view(SPECTATOR)["deciding"] == [] and g.view(2)["deciding"] == []
    assert play(g, (2, "hu")) == [], "a decision reveals nothing before the window closes"
    play(g, (1, "hu"), (3, "hu"))
    assert lines(g) == [[-5, 5, 0, 0], [-15, 0, 15, 0], [-5, 0, 0, 5]]  # the discarder pays the sum
    assert g.view(SPECTATOR)["dealer"] == 0, "several winners on one discard: the discarder deals"


def test_two_winners_on_one_discard() -> None:
    g = start(MULTI)
    play(g, (0, "discard 5s"), (3, "pass"), (1, "hu"), (2, "hu"))
    assert scores(g) == [-20, 5, 15, 0]


def test_only_the_first_winner_when_configured() -> None:
    g = start(MULTI, multi_win="first", hands=2)
    play(g, (0, "discard 5s"), (3, "hu"), (2, "hu"), (1, "pass"))
    assert scores(g) == [-15, 0, 15, 0]
    assert g.view(SPECTATOR)["dealer"] == 2


def test_a_win_beats_a_pung_in_the_same_window() -> None:
    hands = ["9s2z3z4z5z6z7z1s4s7s2p5p8p1z", "123m456m789m11p78s", "99s1z2z3z4z5z6z7z2s5s8s3p",
             "1z2z3z4z5z6z3s6s1p4p7p8s7z"]
    g = start(hands)
    play(g, (0, "discard 9s"))
    assert g.to_move() == (1, 2)
    play(g, (2, "pung 9s"), (1, "hu"))
    assert lines(g) == [[-5, 5, 0, 0]]
    g = start(hands)
    play(g, (0, "discard 9s"), (2, "pung 9s"), (1, "pass"))
    assert g.to_move() == (2,) and g.view(SPECTATOR)["melds"][2][0]["tile"] == "9s"


# ---- the pass lock (special rule 4) -----------------------------------------------------------------
LOCK = ["9s6s2z3z4z5z6z7z1s4s2p5p8p1z", "9s1z2z3z4z5z6z7z2s5s3p6p9p", "123m456m789m11p78s",
        "9s1z2z3z4z5z6z7z3s1p4p7p8p"]


def test_pass_lock_same_tile() -> None:
    g = start(LOCK, wall="2m2m3m")
    play(g, (0, "discard 9s"), (2, "pass"))
    play(g, (1, "discard 9s"))
    assert g.to_move() == (2,) and g.window(2) == Window.TURN, "S2 declined 9s this go-around: no claim"
    with pytest.raises(IllegalActionError):
        g.apply(2, "hu")
    play(g, (2, "discard 2m"), (3, "discard 9s"))  # S2 has had its turn: the lock is gone
    assert g.legal_actions(2) == ["hu", "pass"]
    play(g, (2, "hu"))
    assert lines(g) == [[0, 0, 5, -5]]


def test_pass_lock_same_tile_still_allows_other_waits() -> None:
    g = start(LOCK, wall="6s")
    play(g, (0, "discard 9s"), (2, "pass"), (1, "discard 6s"))
    assert g.legal_actions(2) == ["hu", "pass"]


def test_pass_lock_any_tile_and_off() -> None:
    g = start(LOCK, wall="6s", pass_lock="any_tile")
    play(g, (0, "discard 9s"), (2, "pass"), (1, "discard 6s"))
    assert g.to_move() == (2,) and g.window(2) == Window.TURN
    g = start(LOCK, wall="2m", pass_lock="off")
    play(g, (0, "discard 9s"), (2, "pass"), (1, "discard 9s"))
    assert g.legal_actions(2) == ["hu", "pass"]


# ---- drawn hands and the dealer ---------------------------------------------------------------------
def _tsumogiri_to_the_end(g: HuashuiGame) -> None:
    """Everyone passes every claim and throws the tile just drawn: the wall runs out."""
    hand_no = g.view(SPECTATOR)["hand_no"]
    while g.view(SPECTATOR)["hand_no"] == hand_no and not g.finished:
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        if "pass" in legal:
            g.apply(seat, "pass")
            continue
        drawn = g.view(seat)["drawn"]
        g.apply(seat, f"discard {drawn}" if drawn and f"discard {drawn}" in legal
                else next(a for a in legal if a.startswith("discard")))


def test_drawn_hand_nobody_gains_and_the_dealer_stays() -> None:
    g = start(["1111m123p456p789p1z", JUNK_S1, "2z3z4z5z6z7z3s6s2m5m8m3m1s", "2z3z4z5z6z7z4m6m7m9m1p4p7p"],
              dealer=0, hands=2)
    play(g, (0, "kong 1m"))
    _tsumogiri_to_the_end(g)
    assert g.last_result is not None and g.last_result["outcome"] == "drawn"
    assert scores(g) == [0, 0, 0, 0] and list(g.totals()) == [0, 0, 0, 0]
    assert g.view(SPECTATOR)["dealer"] == 0


def test_drawn_hand_can_keep_kong_payments() -> None:
    g = start(["1111m123p456p789p1z", JUNK_S1, "2z3z4z5z6z7z3s6s2m5m8m3m1s", "2z3z4z5z6z7z4m6m7m9m1p4p7p"],
              draw_keeps_payments=True)
    play(g, (0, "kong 1m"))
    _tsumogiri_to_the_end(g)
    assert scores(g) == [6, -2, -2, -2]


def test_a_drawn_dealer_keeps_dealing_from_a_seed() -> None:
    g = HuashuiGame.new(HuashuiConfig(hands=2), seed=5)
    dealer = g.view(SPECTATOR)["dealer"]
    _tsumogiri_to_the_end(g)
    assert g.view(SPECTATOR)["dealer"] == dealer and g.view(SPECTATOR)["hand_no"] == 2


def test_first_dealer_is_random_and_the_deal_is_fourteen_thirteen() -> None:
    dealers = set()
    for seed in range(40):
        g = HuashuiGame.new(HuashuiConfig(), seed)
        v = g.view(OMNISCIENT)
        dealers.add(v["dealer"])
        assert sorted(len(h) for h in v["all_hands"]) == [13, 13, 13, 14]
        assert len(v["all_hands"][v["dealer"]]) == 14 and v["wall"] == 136 - 53
        assert all(1 <= d <= 6 for d in v["dice"])
    assert dealers == {0, 1, 2, 3}


def test_breaking_the_wall_and_dealing_follow_the_page() -> None:
    ring = list(range(136))
    # dealer 1, dice 3+4 = 7: counting sides from the dealer's own (1) lands on seat (1 + 7 - 1) % 4 = 3's side;
    # the smaller die (3) skips three stacks of two
    wall = break_wall(ring, 1, (3, 4))
    assert wall[0] == 2 * (17 * 3 + 3) and wall[-1] == 2 * (17 * 3 + 3) - 1 and len(wall) == 136
    hands, rest = deal_hands(list(range(136)), 2)
    assert hands[2][:4] == [0, 1, 2, 3] and hands[3][:4] == [4, 5, 6, 7] and hands[1][:4] == [12, 13, 14, 15]
    assert [len(h) for h in hands] == [13, 13, 14, 13] and hands[2][-1] == 52 and rest[0] == 53


# ---- protocol details --------------------------------------------------------------------------------
def test_actions_are_described_and_refused_with_reasons() -> None:
    g = start(SHANPON)
    assert g.describe("discard 9s", "zh") == "打 九条" and g.describe("pung 5m", "en") == "pung 5m"
    with pytest.raises(IllegalActionError, match="no chow"):
        g.apply(0, "chi 123m")
    with pytest.raises(IllegalActionError, match="not complete"):
        g.apply(0, "hu")
    with pytest.raises(IllegalActionError, match="not in your hand"):
        g.apply(0, "discard 9p")


def test_views_hide_other_hands_and_the_wall() -> None:
    g = start(MULTI)
    v = g.view(1)
    assert v["hand"] is not None and v["table"]["seats"][1]["hand"] is not None
    assert all(v["table"]["seats"][s]["hand"] is None for s in (0, 2, 3))
    assert "wall_tiles" not in v and "all_hands" not in v
    assert v["table"]["card_style"] == "tile"
    json.dumps(g.view(SPECTATOR))
    twin = g.resample(1, random.Random(3))
    assert twin.view(1) == v and twin.inventory() == g.inventory()


def test_replay_is_exact() -> None:
    g = start(ADDED, wall="1m8p2z5m")
    play(g, (0, "discard 5m"), (2, "pass"), (1, "pung 5m"), (1, "discard 9m"))
    again = HuashuiGame.replay(g.record())
    assert again.view(OMNISCIENT) == g.view(OMNISCIENT)


# ---- resample: the viewer's view and the rng alone ---------------------------------------------------
def test_resample_in_a_claim_window_depends_only_on_the_view() -> None:
    """Three seats may win on S0's 5s.  Who may claim and who has answered is hidden: a resample opens the
    window afresh from the new hands, keeps only the viewer's own answer, and two games that differ only in
    an answer the viewer cannot see resample alike."""
    g = start(MULTI)
    play(g, (0, "discard 5s"))
    rng = random.Random(1)
    assert check_resample_is_sound(g, rng) > 0           # e.g. S2 answers hu or pass, unseen by S1
    play(g, (2, "hu"))
    assert check_resample_is_sound(g, rng) > 0
    for seed in range(20):
        twin = g.resample(1, random.Random(seed))
        claim = twin.view(OMNISCIENT)["claim"]
        assert claim["answers"] == [None, None, None, None], "S2's answer is not S1's to know"
        assert claim["options"][1] == ["hu", "pass"] and twin.view(1) == g.view(1)
        for s in (2, 3):
            if claim["options"][s] is not None:                # re-derived from S{s}'s new hand
                wins = twin._wins_with(s, twin.claim_tile)
                assert (claim["options"][s][0] == "hu") == wins
        mine = g.resample(2, random.Random(seed)).view(OMNISCIENT)["claim"]
        assert mine["answers"][2] == "hu" and mine["answers"][1] is None and mine["answers"][3] is None


def test_resample_for_the_discarder_keeps_the_window_open() -> None:
    """S0 is not in the window: the window being open says someone can claim, so every resample has one."""
    g = start(MULTI)
    play(g, (0, "discard 5s"))
    for seed in range(30):
        twin = g.resample(0, random.Random(seed))
        assert twin.view(0) == g.view(0) and twin.to_move(), "the window stays open"
        assert set(twin.to_move()) == {s for s, o in enumerate(twin.view(OMNISCIENT)["claim"]["options"]) if o}
        twin.apply(twin.to_move()[0], "pass")                 # and play goes on from it


def test_resample_forgets_what_only_other_seats_knew() -> None:
    """Pass locks and a fourth tile held at a pung are their owners' knowledge: reset in a resample for
    another viewer, kept for the owner; the wall keeps only its undrawn tiles."""
    g = start(HELD_FOURTH, wall="9p1p2p3p")
    play(g, (0, "discard 5m"), (1, "pung 5m"))
    assert g.view(OMNISCIENT)["held_fourth"] == [[], ["5m"], [], []]
    assert g.resample(1, random.Random(0)).view(OMNISCIENT)["held_fourth"] == [[], ["5m"], [], []]
    other = g.resample(2, random.Random(0))
    assert other.view(OMNISCIENT)["held_fourth"] == [[], [], [], []]
    assert len(other.wall) == other.back - other.front == g.back - g.front
    g = start(ADDED, wall="1m8p2z5m")
    play(g, (0, "discard 5m"), (2, "pass"), (1, "pung 5m"))
    assert g.view(OMNISCIENT)["locked"][2] == ["5m"]
    assert g.resample(2, random.Random(0)).view(OMNISCIENT)["locked"][2] == ["5m"]
    assert g.resample(0, random.Random(0)).view(OMNISCIENT)["locked"][2] == []


@pytest.mark.parametrize("seed", range(12))
def test_asking_everyone_changes_nothing_but_the_questions(seed: int) -> None:
    """With ``ask_everyone`` every discard opens a claim window for the other three, pass the only answer of a
    seat that cannot claim; the same real choices then play the same hand to the same result."""
    plain = HuashuiGame.new(HuashuiConfig(hands=2), seed)
    asked = HuashuiGame.new(HuashuiConfig(hands=2, ask_everyone=True), seed)
    rng = random.Random(seed)
    windows = extra = 0
    while not plain.finished:
        while asked.phase != plain.phase or set(asked.to_move()) != set(plain.to_move()):
            # a seat the plain game does not ask: it can only pass, and nobody is told who could claim
            same = asked.phase == plain.phase
            seat = next(s for s in asked.to_move() if not same or s not in plain.to_move())
            assert asked.legal_actions(seat) == ["pass"] and asked.public_to_move() == ()
            asked.apply(seat, "pass")
            extra += 1
        assert asked.to_move() == plain.to_move()
        seat = rng.choice(plain.to_move())
        action = rng.choice(plain.legal_actions(seat))
        windows += plain.phase == "claim"
        plain.apply(seat, action)
        asked.apply(seat, action)
        if asked.phase == "claim" and not asked.finished:
            assert len(asked.to_move()) == 3  # every other seat is asked after a discard
    while not asked.finished:  # the last discard's window, if any
        asked.apply(asked.to_move()[0], "pass")
    assert asked.result() == plain.result()
    assert extra > windows  # far more questions than real choices
