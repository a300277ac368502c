"""The 水鱼 rules API against the rule page's worked examples (page 000 §二–§四) and the drinking table."""

from __future__ import annotations

import pytest

from paiju.core.errors import NotationError
from paiju.games.shuiyu.rules import (
    GROUP_KEY,
    Table,
    all_hands,
    classify,
    group_strength,
    points,
    settle,
    settle_special,
    showdown,
    splits,
)


# §二: every worked example of the points rule, plus pairs (保) and the face cards.
@pytest.mark.parametrize(("group", "expected"), [
    ("2S 3H", 5),      # 2、3，点数为2+3=5
    ("7S 8H", 5),      # 7、8 = 15，算5点
    ("9S 10H", 9),     # 9、10 = 19，算9点
    ("AS 8H", 9),      # A、8 = 1+8 = 9
    ("KS 7H", 7),      # K、7 = 17，算7点
    ("QS 10H", 0),     # Q、10 = 20，算0点
    ("TS QD", 0),      # T is accepted for 10
    ("JS AD", 1),      # J、Q、K均算10点; A算1点
    ("AS 9D", 0),
    ("5S 5H", 10),     # a pair is 保, above every point
    ("KS KD", 10),
    ("10C 10D", 10),   # 10 10 is a pair, not 0 points
])
def test_points(group: str, expected: int) -> None:
    assert points(group) == expected


# §三: 0 < 1 < … < 9 < 保; equal points → the highest card by rank 2<…<10<J<Q<K<A; then ♦<♣<♥<♠.
@pytest.mark.parametrize(("weaker", "stronger"), [
    ("QS 10H", "AS KD"),        # 0 < 1
    ("9S KD", "8S AD"),         # 9 (K9) vs 9 (A8): points equal, A is the high card here, not 1
    ("3C 6D", "2S 7D"),         # 9 vs 9: 7 beats 6
    ("3S 6H", "QS 9D"),         # 9 vs 9: Q beats 6
    ("JS 9D", "QS 9D"),         # J < Q although both count 10
    ("10S 9D", "JD 9C"),        # 10 < J
    ("KD 9C", "KC 9D"),         # same ranks: ♦ < ♣ on the top card
    ("KC 9C", "KH 9D"),         # ♣ < ♥
    ("KH 9S", "KS 9D"),         # ♥ < ♠
    ("9S AH", "2S 2D"),         # 9 < 保
    ("2S 2H", "3D 3C"),         # a higher pair beats a lower one
    ("KS KH", "AD AC"),         # A pair is the highest pair
])
def test_group_order(weaker: str, stronger: str) -> None:
    assert group_strength(weaker) < group_strength(stronger)


def test_strength_is_strict_between_disjoint_groups() -> None:
    """With one deck two groups only tie when they share their top card (so never at a table)."""
    by_key: dict[int, list[tuple[int, int]]] = {}
    for a in range(52):
        for b in range(a + 1, 52):
            by_key.setdefault(GROUP_KEY[a * 52 + b], []).append((a, b))
    for groups in by_key.values():
        for g in groups:
            for h in groups:
                assert set(g) & set(h), (g, h)


@pytest.mark.parametrize(("hand", "kind"), [
    ("AS AH 8C 8D", "shuiyu"),    # two different 保
    ("8S AH 8C AD", "shuiyu"),    # any order
    ("KS KH KC KD", "zhizun"),    # four of a kind: 至尊
    ("KS KH 5C 6D", "plain"),     # one pair is not 水鱼
    ("KS KH KC 6D", "plain"),     # three of a kind is not either
    ("AS 2H 3C 4D", "plain"),
])
def test_classify(hand: str, kind: str) -> None:
    assert classify(hand) == kind


def test_every_hand_classified() -> None:
    """13 至尊 and C(13,2)·6·6 = 2,808 水鱼 among the 270,725 hands."""
    from paiju.games.shuiyu.rules import kind_of_cards

    counts = {"zhizun": 0, "shuiyu": 0, "plain": 0}
    for h in all_hands():
        counts[kind_of_cards(h)] += 1
    assert counts == {"zhizun": 13, "shuiyu": 2808, "plain": 270725 - 13 - 2808}


@pytest.mark.parametrize(("hand", "expected"), [
    # head first, each group's stronger card first
    ("AS 8H KD 7C", ["AS 8H | KD 7C", "8H 7C | AS KD", "AS 7C | KD 8H"]),
    ("2S 3H 4C 5D", ["5D 4C | 3H 2S", "5D 3H | 4C 2S", "5D 2S | 4C 3H"]),  # 9|5, 8|6, 7|7 (5♦ > 4♣)
    ("5S 5H 9C 9D", ["9C 9D | 5S 5H", "9C 5S | 9D 5H", "9C 5H | 9D 5S"]),  # 4|4 twice: 9♣ > 9♦
])
def test_splits(hand: str, expected: list[str]) -> None:
    got = splits(hand)
    assert got == expected
    assert len(set(got)) == 3


def test_splits_head_is_the_stronger_group() -> None:
    for s in splits("QS 10H AD 9C"):
        head, tail = s.split(" | ")
        assert group_strength(head) > group_strength(tail)


@pytest.mark.parametrize(("banker", "player", "winner"), [
    # §四 2(1)–(3): head against head, tail against tail
    ("AS 8H | KD 7C", "2S 3H | 4C 5D", "banker"),      # heads 9(A♠) > 9(5♦), tails 7 > 5
    ("AS 8H | KD 7C", "2S 7H | 3C 5D", "walk"),        # heads 9(A♠) > 9(7♥), tails 7 < 8: 走过
    ("9S KD | 2C 3D", "AS 8H | KC 7C", "player"),      # heads 9(K♦) < 9(A♠), tails 5 < 7
    ("QH 9D | 2C 4S", "QS 9C | 3C 4D", "player"),      # heads 9: Q♥ < Q♠; tails 6 < 7
    ("QS 9C | 3C 4D", "QH 9D | 2C 4S", "banker"),      # the mirror
    ("QS 9C | 2C 4D", "QH 9D | 3C 4S", "walk"),        # head banker, tail player: 走过
    # §四 1: order on the table does not matter
    ("KD 7C | AS 8H", "4C 5D | 2S 3H", "banker"),
    # §四 2(4): 水鱼硬牌 — a 水鱼 banker wins whatever the player's groups
    ("2S 2H | 3C 3D", "AS AH | KC QD", "banker"),      # player's A pair head is not enough
    ("2S 2H | 3C 3D", "9S KH | 9C AD", "banker"),
    # 二.1: a player's 水鱼 beats a plain banker just as hard
    ("AS AH | KC QD", "2S 2H | 3C 3D", "player"),
    # §四 2(5): both 水鱼 → compare as usual
    ("KS KH | 3C 3D", "QS QH | 2C 2D", "banker"),
    ("KS KH | 2C 2D", "QS QH | 3C 3D", "walk"),
    ("QS QH | 2C 2D", "KS KH | 3C 3D", "player"),
    # §四 2(6): 至尊硬牌 — beats any non-至尊, 水鱼 included
    ("2S 2H | 2C 2D", "AS AH | KC KD", "banker"),
    ("2S 2H | 2C 2D", "AS 8H | KC 9D", "banker"),
    ("AS AH | KC KD", "2S 2H | 2C 2D", "player"),
    # §四 2(7): both 至尊 → compare directly
    ("3S 3H | 3C 3D", "2S 2H | 2C 2D", "banker"),
    ("2S 2H | 2C 2D", "3S 3H | 3C 3D", "player"),
])
def test_showdown(banker: str, player: str, winner: str) -> None:
    assert showdown(banker, player) == winner


def test_showdown_refuses_shared_cards_and_bad_text() -> None:
    with pytest.raises(NotationError):
        showdown("AS 8H | KD 7C", "AS 2H | 3C 4D")
    with pytest.raises(NotationError):
        showdown("AS 8H KD 7C", "2S 2H | 3C 4D")
    with pytest.raises(NotationError, match="XX"):
        points("XX 2H")
    with pytest.raises(NotationError):
        points("AS")


T = Table()


# The drinking table §六(一): (call, answer, response, true result) -> (page line, drinker, multiplier)
@pytest.mark.parametrize(("call", "answer", "response", "result", "line", "drinker", "mult"), [
    ("open", "kill", "believe", "banker", "一.1", "player", 1),
    ("open", "kill", "believe", "player", "一.1", "player", 1),     # 信 settles without looking
    ("open", "kill", "doubt", "banker", "一.2", "player", 2),
    ("open", "kill", "doubt", "walk", "一.3", "banker", 2),
    ("open", "kill", "doubt", "player", "一.3", "banker", 2),
    ("open", "walk", "believe", "player", "一.4", "nobody", 0),
    ("open", "walk", "doubt", "walk", "一.5", "player", 2),
    ("open", "walk", "doubt", "player", "一.6", "banker", 2),
    ("open", "walk", "doubt", "banker", "一.5*", "player", 2),     # hole: the doubter was wrong
    ("force", None, None, "player", "一.7", "banker", 3),
    ("force", None, None, "banker", "一.7", "player", 3),
    ("force", None, None, "walk", "一.7*", "player", 3),           # hole: the claim failed
    ("attack", "refuse", None, "banker", "一.8", "banker", 1),
    ("attack", "accept", "drink", "player", "一.8", "player", 1),
    ("attack", "accept", "compare", "player", "一.8", "banker", 2),
    ("attack", "accept", "compare", "banker", "一.8", "player", 2),
    ("attack", "accept", "compare", "walk", "一.8*", "player", 2),  # hole: the claim failed
    ("push", "allow", None, "banker", "一.9", "nobody", 0),
    ("push", "deny", "drink", "player", "一.9", "player", 1),
    ("push", "deny", "compare", "banker", "一.9", "player", 2),
    ("push", "deny", "compare", "walk", "一.9", "banker", 2),      # banker must win both groups
    ("push", "deny", "compare", "player", "一.9", "banker", 2),
    ("cover", "call", None, "player", "一.10", "banker", 2),
    ("cover", "call", None, "walk", "一.11", "player", 2),
    ("cover", "call", None, "banker", "一.11", "player", 2),
    ("cover", "concede", None, "banker", "一.12", "banker", 1),
])
def test_settle(call: str, answer: str | None, response: str | None, result: str, line: str, drinker: str,
                mult: int) -> None:
    d = settle(call, answer, response, result, T)  # type: ignore[arg-type]
    assert (d.line, d.drinker, d.mult) == (line, drinker, mult)


def test_settle_hole_options() -> None:
    t = Table(walk_doubted_banker_bigger="banker", force_walk="nobody", attack_walk="nobody")
    assert settle("open", "walk", "doubt", "banker", t).drinker == "banker"
    assert settle("force", None, None, "walk", t).drinker == "nobody"
    assert settle("attack", "accept", "compare", "walk", t).drinker == "nobody"
    assert settle("open", "kill", "believe", "banker", Table(kill_believed=5)).mult == 5


@pytest.mark.parametrize(("banker", "player", "result", "line", "drinker", "mult"), [
    ("plain", "shuiyu", "player", "二.1", "banker", 2),
    ("shuiyu", "shuiyu", "banker", "二.2/二.5", "player", 2),
    ("shuiyu", "shuiyu", "player", "二.2/二.5", "banker", 2),
    ("shuiyu", "shuiyu", "walk", "二.2/二.5", "nobody", 0),
    ("plain", "zhizun", "player", "二.3", "banker", 4),
    ("shuiyu", "zhizun", "player", "二.3", "banker", 4),
    ("zhizun", "zhizun", "banker", "二.4/二.6", "player", 4),
    ("zhizun", "zhizun", "player", "二.4/二.6", "banker", 4),
    ("shuiyu", "plain", "banker", "二.5", "player", 2),
    ("zhizun", "plain", "banker", "二.6", "player", 4),
    ("zhizun", "shuiyu", "banker", "二.6", "player", 4),
])
def test_settle_special(banker: str, player: str, result: str, line: str, drinker: str, mult: int) -> None:
    d = settle_special(banker, player, result, T)  # type: ignore[arg-type]
    assert (d.line, d.drinker, d.mult) == (line, drinker, mult)
