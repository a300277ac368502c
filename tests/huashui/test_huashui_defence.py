"""The efficient bot's defence: the fitted read of danger, the trade of speed for safety, and the study's
deal-in and win rates."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.bots.base import play_out
from paiju.games.huashui import HuashuiConfig, HuashuiGame
from paiju.games.huashui.bots import EfficientBot, Hand, ShantenGreedyBot
from paiju.games.huashui.defence import deal_in
from paiju.games.huashui.study import OUTCOMES, outcome
from paiju.games.huashui.tiles import parse_tile


def table(hand: str, *, rivers: list[str], melds: list[list[str]], wall: int) -> dict[str, Any]:
    """Seat 0's view of a table, only the fields a bot reads: its hand, every river and meld, the wall."""
    from paiju.games.huashui.tiles import TILE_TEXT, parse_tiles

    def tiles(s: str) -> list[str]:
        return [TILE_TEXT[t] for t in parse_tiles(s)] if s else []

    return {"viewer": 0, "hand": tiles(hand), "discards": [tiles(r) for r in rivers],
            "melds": [[{"type": "pung", "tile": m, "from": (s + 1) % 4} for m in ms] for s, ms in enumerate(melds)],
            "wall": wall, "claim": None}


# Seat 1 has laid down three pungs and thrown nine tiles: it is very likely ready.  Seats 2 and 3 threw 5p last,
# after seat 1's last discard, so seat 1 cannot win on 5p now (it could not, or it passed and is locked).
READY_LOOKING = dict(rivers=["1z2z9m1s", "3z4z9p1m8s7z2p6m3m", "2z9s1p5p", "4z9m6z5p"],
                     melds=[[], ["5z", "6s", "7z"], [], []], wall=18)


def test_a_tile_thrown_since_the_opponents_turn_is_far_safer_than_a_live_middle_tile() -> None:
    view = table("5p5m", **READY_LOOKING)  # type: ignore[arg-type]
    hand = Hand(view)
    hit = deal_in(view, 0, [parse_tile("5p"), parse_tile("5m")], hand.unseen)
    assert hit[1][parse_tile("5m")] > 0.02
    assert hit[1][parse_tile("5p")] < hit[1][parse_tile("5m")] / 20


def test_far_from_ready_against_a_ready_looking_seat_the_bot_throws_the_safe_tile() -> None:
    """Two from ready, late, against three pungs: the efficient choice (2m, with live copies and run shapes
    round it) is given up for 5p, which breaks 3456p but cannot deal in."""
    view = table("25m3456669p25789s", **READY_LOOKING)  # type: ignore[arg-type]
    legal = [f"discard {x}" for x in dict.fromkeys(view["hand"])]
    assert EfficientBot(0).act(view, legal) == "discard 2m"           # the default plays for speed
    assert EfficientBot(0, defence=True).act(view, legal) == "discard 5p"


def test_ready_with_live_waits_the_bot_keeps_its_hand() -> None:
    """Ready early in the hand, nobody near: the efficient discard stands whatever it costs in safety."""
    view = table("123m456p789s11z55s9p", rivers=["", "1z", "2z", "3z"], melds=[[], [], [], []], wall=70)
    legal = [f"discard {x}" for x in dict.fromkeys(view["hand"])]
    assert EfficientBot(0, defence=True).act(view, legal) == EfficientBot(0).act(view, legal) == "discard 9p"


def test_outcomes_agree_with_the_win_event() -> None:
    """The study's per-seat outcomes read from the settlement match what the win event says (who won, how,
    and who paid for a win on a discard)."""
    wins = deal_ins = 0
    for seed in range(16):
        game = HuashuiGame.new(HuashuiConfig(hands=1), seed)
        events: list[dict[str, Any]] = []
        bots = [EfficientBot(s) if s == seed % 4 else ShantenGreedyBot(s) for s in range(4)]
        play_out(game, bots, on_event=events.append)
        win = next((e for e in events if e["type"] == "win"), None)
        got = [dict(zip(OUTCOMES, outcome(game, s), strict=True)) for s in range(4)]
        if win is None:
            assert all(not any(o.values()) for o in got)
            continue
        for s in range(4):
            assert got[s]["win"] == (s in win["seats"])
            assert got[s]["self_drawn"] == (s in win["seats"] and win["how"] == "self")
            assert got[s]["deal_in"] == (win["how"] != "self" and s == win["from"])
            assert got[s]["other_self_drawn"] == (win["how"] == "self" and s not in win["seats"])
        wins += 1
        deal_ins += win["how"] != "self"
    assert deal_ins >= 3 and wins - deal_ins >= 3  # both kinds of win were checked


# ---- the two-part read (read="split"): P(ready) × P(the tile is a wait | ready) ----------------------------
def test_since_sets_follow_play_order_from_the_opponent_to_the_reader() -> None:
    """Against seat 1, read by seat 0: seats 2 and 3 played after seat 1's last discard (their last tiles are
    fresh), seat 0 itself before it; one discard further back adds each seat's tile before that."""
    from paiju.games.huashui.defence import since_sets

    view = table("1m", rivers=["1z2z", "3z4z", "5z6z", "7z1m"], melds=[[], [], [], []], wall=60)
    got = since_sets(view, 0, 1)
    assert got[0] == {parse_tile("6z"), parse_tile("1m")}
    assert got[1] == {parse_tile("6z"), parse_tile("1m"), parse_tile("5z"), parse_tile("7z"), parse_tile("2z")}


@pytest.mark.parametrize("cross", [False, True])
def test_the_split_read_calls_a_tile_safe_by_the_pass_rule(cross: bool) -> None:
    """Seats 2 and 3 threw 5p after seat 1's last discard and seat 1 (ready-looking: three pungs, late) did
    not win on it: 5p reads as at least twenty times safer against it than the live 5m."""
    from paiju.games.huashui.defence import deal_in_read

    view = table("5p5m", **READY_LOOKING)  # type: ignore[arg-type]
    hand = Hand(view)
    hit = deal_in_read(view, 0, [parse_tile("5p"), parse_tile("5m")], hand.unseen, cross)
    assert hit[1][parse_tile("5m")] > 0.02
    assert hit[1][parse_tile("5p")] < hit[1][parse_tile("5m")] / 20


@pytest.mark.parametrize("cross", [False, True])
def test_the_split_read_calls_a_live_tile_dangerous_against_a_shown_shape(cross: bool) -> None:
    """The same live middle tile: dangerous against three pungs laid down late (a four-tile hand, likely
    ready), nearly safe against a concealed hand three turns in."""
    from paiju.games.huashui.defence import deal_in_read

    late = table("5m", **READY_LOOKING)  # type: ignore[arg-type]
    early = table("5m", rivers=["1z", "2z9m1s", "3z1p", "4z9s"], melds=[[], [], [], []], wall=70)
    t = parse_tile("5m")
    late_hit = deal_in_read(late, 0, [t], Hand(late).unseen, cross)[1][t]
    assert late_hit > 0.03
    assert deal_in_read(early, 0, [t], Hand(early).unseen, cross)[1][t] < 0.005
    # a kind of which every copy is seen cannot be anyone's pair or pung wait, and its run shapes are fewer
    dead = table("5m", rivers=["5m1z", "3z4z9p1m8s7z2p6m3m", "5m2z9s1p", "5m4z9m6z"],
                 melds=[[], ["5z", "6s", "7z"], [], []], wall=18)
    assert deal_in_read(dead, 0, [t], Hand(dead).unseen, cross)[1][t] < late_hit / 2
