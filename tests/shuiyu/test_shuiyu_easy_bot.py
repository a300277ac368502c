"""水鱼's easy bot (issue 37): each named habit, in the game's notation, and the room's 入门 seat plays it."""

from __future__ import annotations

import pickle
import time

import pytest

from paiju.bots import play_out
from paiju.bots.base import get_bot, strength_kinds
from paiju.bots.executor import SerialExecutor, execute
from paiju.bots.study import StudyArgs
from paiju.core.registry import entry
from paiju.games.shuiyu import ShuiyuConfig, ShuiyuGame
from paiju.games.shuiyu.bots import EasyBot

STRONG_NINES = "9S 9H AC 8D"     # 9S 9H | AC 8D: a pair at the head, a 9-point tail
WEAK = "5S 3D 4H 2C"              # 5S 4H | 3D 2C: a 5-point tail, below half of all groups
SIXES = "2S 3H 4C 6D"             # 6D 3H | 4C 2S: a 6-point tail, just above half


def _called(banker: str, player: str, call: str | None = None) -> ShuiyuGame:
    """A two-seat round (seat 0 banks) with both hands split by the easy bot and seat 1's call made (the easy
    bot's own, or ``call``)."""
    g = ShuiyuGame.from_deal({"hands": [banker, player]}, ShuiyuConfig(seats=2))
    bot = EasyBot(0)
    for seat in (0, 1):
        g.apply(seat, bot.act(g.view(seat), g.legal_actions(seat)))
    g.apply(1, call or bot.act(g.view(1), g.legal_actions(1)))
    return g


@pytest.mark.parametrize(("hand", "split"), [
    ("AS 8H KD 7C", "split AS 8H | KD 7C"),          # no pair: the biggest group goes to the head
    (STRONG_NINES, "split 9S 9H | AC 8D"),           # the pair goes to the head
    ("KS KH 4C 6D", "split KS KH | 6D 4C"),          # even when it leaves a 0-point tail
])
def test_biggest_pair_at_the_head(hand: str, split: str) -> None:
    g = ShuiyuGame.from_deal({"hands": ["QS JH 10C 2D", hand]}, ShuiyuConfig(seats=2))
    assert EasyBot(0).act(g.view(1), g.legal_actions(1)) == split


@pytest.mark.parametrize(("player", "call"), [(STRONG_NINES, "open"), (SIXES, "open"), (WEAK, "cover")])
def test_opens_a_strong_hand_covers_a_weak_one_and_never_forces_attacks_or_pushes(player: str, call: str) -> None:
    g = ShuiyuGame.from_deal({"hands": ["QS JH 10C 2D", player]}, ShuiyuConfig(seats=2))
    bot = EasyBot(0)
    for seat in (0, 1):
        g.apply(seat, bot.act(g.view(seat), g.legal_actions(seat)))
    legal = g.legal_actions(1)
    assert {"force", "attack", "push"} <= set(legal)
    assert bot.act(g.view(1), legal) == call


@pytest.mark.parametrize(("banker", "player", "call", "answer"), [
    (STRONG_NINES, SIXES, None, "kill 1"),        # it beats the open hand on both groups: kill
    ("AS 8H KD 7C", STRONG_NINES, None, "walk 1"),  # it does not: walk, never a bluffed kill
    (STRONG_NINES, WEAK, None, "call 1"),         # a covered hand, a strong banker: call
    ("KS KH 4C 6D", WEAK, None, "concede 1"),     # a covered hand, a weak banker (0-point tail): concede
    (STRONG_NINES, WEAK, "attack", "accept 1"),
    ("KS KH 4C 6D", WEAK, "attack", "refuse 1"),
    (STRONG_NINES, WEAK, "push", "deny 1"),
    ("KS KH 4C 6D", WEAK, "push", "allow 1"),
])
def test_an_honest_banker_answers_by_its_own_hand(banker: str, player: str, call: str | None, answer: str) -> None:
    g = _called(banker, player, call)
    assert EasyBot(0).act(g.view(0), g.legal_actions(0)) == answer


@pytest.mark.parametrize(("call", "answer", "response"), [
    ("open", "kill 1", "believe"),       # a kill is never doubted, whatever its hand
    ("open", "walk 1", "believe"),
    ("attack", "accept 1", "drink"),     # an accepted attack (another seat's habit) is drunk, never compared
    ("push", "deny 1", "drink"),
])
def test_never_doubts_and_drinks_rather_than_compares(call: str, answer: str, response: str) -> None:
    g = _called("KS KH 4C 6D", STRONG_NINES, call)
    g.apply(0, answer)
    assert EasyBot(0).act(g.view(1), g.legal_actions(1)) == response


def test_the_rooms_easy_strength_is_the_easy_bot() -> None:
    assert strength_kinds("shuiyu")["easy"] == "easy"
    assert isinstance(get_bot("shuiyu", "easy", 3), EasyBot)


def test_easy_bots_finish_matches_fast_and_deterministically() -> None:
    def match(seed: int) -> list[float]:
        g = ShuiyuGame.new(ShuiyuConfig(), seed)
        bots = [EasyBot(seed + s) for s in range(g.num_seats)]
        play_out(g, bots)
        return list(g.totals())

    start = time.perf_counter()
    for seed in range(10):
        assert match(seed) == match(seed)
    assert time.perf_counter() - start < 5.0


def test_the_study_puts_any_bot_in_the_studied_seat() -> None:
    """``paiju study shuiyu -o bot=easy``: the easy bot is studied, and the plan pickles for workers."""
    work = entry("shuiyu").study_spec().plan(StudyArgs(1, 300_000, ("random",), {"bot": "easy"}))
    pickle.dumps(work.play)
    with SerialExecutor() as ex:
        row = execute(work, ex).summary["rows"][0]
    assert (row["bot"], row["against"], row["deals"]) == ("easy", "random", 1)
