"""Scripted deals walked through every flow of the page: 煨, 砍, priorities, restrictions, wins, 臭, dealers.

Seats: dealer 0, 守醒 2 (opposite), so the turn order is 0 -> 1 -> 3 -> 0; seat 1 is the dealer's next
player and seat 3 the dealer's previous one.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from paiju.core import OMNISCIENT, SPECTATOR, IllegalActionError, NotYourTurnError, Window
from paiju.core.errors import NotationError
from paiju.games.weimaque import WeimaqueConfig, WeimaqueGame
from paiju.games.weimaque.cards import alias, deck, parse_cards

Event = dict[str, Any]

# seat 3's hand waits on 捌 alone (单吊); 12 硬息, 10 reds
WAIT_BA = "二二二 七七七 十十十 三四五 叁肆伍 壹贰叁 捌"


def make_deal(must: dict[int, str], stock: str = "", avoid: dict[int, str] | None = None,
              dealer: int = 0) -> dict[str, Any]:
    """A full deal: each seat's required cards, topped up with singles first from what is left."""
    avoid = avoid or {}
    watcher = (dealer + 2) % 4
    pool = Counter(deck())
    pool.subtract(parse_cards(stock))
    hands: dict[int, list[int]] = {}
    for s, text in must.items():
        hands[s] = parse_cards(text)
        pool.subtract(hands[s])
    assert all(n >= 0 for n in pool.values()), "a card is used more than four times"
    for s in (dealer, (dealer + 1) % 4, (dealer + 3) % 4):
        size = 20 if s == dealer else 19
        hand = hands.setdefault(s, [])
        banned = set(parse_cards(avoid.get(s, "")))
        for limit in (1, 2, 3, 4):
            for k in range(20):
                while len(hand) < size and pool[k] > 0 and k not in banned and hand.count(k) < limit:
                    hand.append(k)
                    pool[k] -= 1
        assert len(hand) == size, f"cannot fill seat {s}"
    return {"dealer": dealer, "stock": stock,
            "hands": ["" if s == watcher else " ".join(alias(c) for c in sorted(hands[s])) for s in range(4)]}


def window_key(g: WeimaqueGame) -> tuple[Any, ...]:
    return (g.phase, len(g.stock), g.exposed, g.source_seat)


def claim(g: WeimaqueGame, answers: dict[int, str] | None = None) -> list[Event]:
    """Give these answers in this order; every other seat in the same window passes."""
    key = window_key(g)
    events: list[Event] = []
    for seat, action in (answers or {}).items():
        assert action in g.legal_actions(seat), (seat, action, g.legal_actions(seat))
        events += g.apply(seat, action)
    while g.phase == "claim" and window_key(g) == key and g.to_move():
        events += g.apply(g.to_move()[0], "pass")
    return events


def reach(g: WeimaqueGame, done: Any, limit: int = 100) -> list[Event]:
    """Everybody passes, window after window, until ``done(g)``."""
    events: list[Event] = []
    for _ in range(limit):
        if done(g):
            return events
        assert g.phase == "claim", "a discard is due before the wanted moment"
        events += claim(g)
    raise AssertionError("never reached")


def shown(card: str, by: int | None = None) -> Any:
    """The moment a drawn ``card`` is shown (by seat ``by``)."""
    from paiju.games.weimaque.cards import parse_card

    k = parse_card(card)
    return lambda g: g.phase == "claim" and g.exposed == k and g.source == "draw" and by in (None, g.source_seat)


def discard(g: WeimaqueGame, seat: int, card: str) -> list[Event]:
    return g.apply(seat, f"discard {card}")


def types(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


# ---- the deal and the 守醒 ---------------------------------------------------------------------------------

def test_deal_sizes_and_watcher() -> None:
    g = WeimaqueGame.new(seed=7)
    assert g.num_seats == 4 and g.dealer == 0 and g.watcher_seat() == 2
    assert [sum(h) for h in g.hands] == [20, 19, 0, 19]
    assert len(g.stock) == 22 and sum(g.inventory().values()) == 80
    assert g.to_move() == (0,)  # the dealer discards first


def test_watcher_view_shows_three_hands_and_no_stock_card() -> None:
    g = WeimaqueGame.new(seed=3)
    v = g.view(g.watcher_seat())
    seats = v["table"]["seats"]
    assert seats[2]["role"] == {"zh": "守醒", "en": "watcher"}
    assert [s["hand"] is not None for s in seats] == [True, True, False, True]
    assert [len(s["hand"] or []) for s in seats] == [20, 19, 0, 19]
    assert set(v["hands"]) == {"0", "1", "3"}
    stock_block = v["table"]["center"][0]
    assert stock_block["cards"] == ["??"] * 22
    assert "stock_cards" not in v
    assert "stock_cards" in g.view(OMNISCIENT)
    # a player sees only its own hand; a spectator none
    assert [s["hand"] is not None for s in g.view(1)["table"]["seats"]] == [False, True, False, False]
    assert all(s["hand"] is None for s in g.view(SPECTATOR)["table"]["seats"])


def test_watcher_never_decides() -> None:
    g = WeimaqueGame.new(seed=11)
    with pytest.raises(NotYourTurnError):
        g.apply(2, "discard x1")
    assert "守醒" in g.why_illegal(2, "discard x1")
    while not g.finished:
        assert 2 not in g.to_move() and g.legal_actions(2) == []
        seat = g.to_move()[0]
        g.apply(seat, g.legal_actions(seat)[-1])


def test_deal_must_be_well_formed() -> None:
    deal = make_deal({3: WAIT_BA})
    bad = dict(deal, hands=[deal["hands"][0], deal["hands"][1], "x1", deal["hands"][3]])
    with pytest.raises(NotationError):
        WeimaqueGame.from_deal(bad)
    bad = dict(deal, stock="x2 x2")  # fifth and sixth 二
    with pytest.raises(NotationError):
        WeimaqueGame.from_deal(bad)


# ---- a drawn card ------------------------------------------------------------------------------------------

def test_win_on_another_players_draw_and_settlement() -> None:
    deal = make_deal({0: "九", 3: WAIT_BA}, stock="捌", avoid={0: "捌", 1: "捌"})
    g = WeimaqueGame.from_deal(deal)
    events = discard(g, 0, "x9")
    events += reach(g, shown("d8", 1))  # seat 1 drew 捌 and showed it
    assert "hu" in g.legal_actions(3)
    assert g.window(3) == Window.CLAIM and g.timeout_action(3) == "pass" and g.public_to_move() == ()
    events = claim(g, {3: "hu"})
    assert g.finished
    settle = next(e for e in events if e["type"] == "settle")
    win = settle["win"]
    assert settle["winner"] == 3 and settle["drawn_by"] == 1
    assert win["hard_xi"] == 12
    assert {m["key"]: m["value"] for m in win["mingtang"]} == {"dan_diao": 20, "duo_hong": 10}
    assert win["total"] == 42
    assert g.totals() == (-42.0, -42.0, 0.0, 84.0)
    assert g.view(0)["table"]["last_result"]["scores"] == [-42.0, -42.0, 0.0, 84.0]


def test_wei_is_forced_hidden_and_beats_a_win() -> None:
    """Seat 1 draws 捌 holding 捌捌: it is 煨'd face down at once, so seat 3 never sees it to win."""
    deal = make_deal({0: "九", 1: "捌捌", 3: WAIT_BA}, stock="捌")
    g = WeimaqueGame.from_deal(deal)
    events = discard(g, 0, "x9")
    events += reach(g, lambda g: g.phase == "discard")
    wei = [e for e in events if e["type"] == "wei"]
    assert wei == [{"type": "wei", "seat": 1, "stock": 21}]  # no card in the public event
    assert "d8" not in json.dumps(events)
    assert g.phase == "discard" and g.to_move() == (1,) and "hu" not in g.legal_actions(1)
    assert g.view(0)["melds"][1] == [{"kind": "wei", "label": {"zh": "煨", "en": "wei (face down)"},
                                      "cards": ["??", "??", "??"], "claimed": None}]
    assert g.view(1)["melds"][1][0]["cards"] == ["d8", "d8", "d8"]
    assert g.view(2)["melds"][1][0]["cards"] == ["d8", "d8", "d8"]  # the 守醒 saw the pair in hand
    assert g.view(SPECTATOR)["melds"][1][0]["cards"] == ["??", "??", "??"]


def test_wei_then_win_with_shou_qian_shou() -> None:
    """煨 comes first and a win may follow it: 煨捌 + 麻雀玖玖 is a 对倒 of adjacent numbers (手牵手)."""
    deal = make_deal({0: "九", 1: "捌捌 二二二 七七七 十十十 三四五 叁肆伍 玖玖"}, stock="捌")
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    reach(g, lambda g: g.phase == "discard")
    assert g.to_move() == (1,) and g.legal_actions(1)[0] == "hu"
    events = g.apply(1, "hu")
    win = next(e for e in events if e["type"] == "settle")["win"]
    assert win["groups"][win["win_group"]]["kind"] == "wei"
    assert win["hard_xi"] == 3 + 4 + 4 + 4
    assert {m["key"] for m in win["mingtang"]} == {"shou_qian_shou"}
    assert win["total"] == 15 + 20


def test_win_beats_peng() -> None:
    """Seat 1 draws 捌: seat 0 could 碰 it, seat 3 wins with it.  碰 waits for the win's answer."""
    deal = make_deal({0: "九 捌捌", 3: WAIT_BA}, stock="捌", avoid={1: "捌"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    reach(g, shown("d8"))
    assert "peng" in g.legal_actions(0) and "hu" in g.legal_actions(3)
    g.apply(0, "peng")
    assert g.phase == "claim" and 3 in g.to_move()  # the 碰 is not carried out yet
    events = claim(g, {3: "hu"})
    assert "hu" in types(events) and "peng" not in types(events)


def test_peng_goes_ahead_when_the_win_is_declined() -> None:
    deal = make_deal({0: "九 捌捌", 3: WAIT_BA}, stock="捌", avoid={1: "捌"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    reach(g, shown("d8"))
    events = claim(g, {0: "peng", 3: "pass"})
    assert types(events)[0] == "peng" and g.to_move() == (0,) and g.phase == "discard"
    assert g.melds[0] == [("peng", (17, 17, 17), 17)]


def test_win_order_next_seat_before_previous_seat() -> None:
    """Seat 1 draws 捌; both seat 3 (its next) and seat 0 (its previous) could win: seat 3 does."""
    seat0 = "拾拾拾 柒柒柒 贰贰贰 六六六 九九九 八八八 捌 一"
    deal = make_deal({0: seat0, 3: WAIT_BA}, stock="捌", avoid={1: "捌"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x1")
    reach(g, shown("d8"))
    assert "hu" in g.legal_actions(0) and "hu" in g.legal_actions(3)
    g.apply(0, "hu")
    assert not g.finished  # waits for seat 3, who comes first
    events = claim(g, {3: "hu"})
    assert next(e for e in events if e["type"] == "settle")["winner"] == 3


def test_previous_seat_wins_when_next_passes_and_dealer_deals_again() -> None:
    seat0 = "拾拾拾 柒柒柒 贰贰贰 六六六 九九九 八八八 捌 一"
    deal = make_deal({0: seat0, 3: WAIT_BA}, stock="捌", avoid={1: "捌"})
    g = WeimaqueGame.from_deal(deal, WeimaqueConfig(hands=2))
    discard(g, 0, "x1")
    reach(g, shown("d8"))
    events = claim(g, {3: "pass", 0: "hu"})
    assert next(e for e in events if e["type"] == "settle")["winner"] == 0
    start = [e for e in events if e["type"] == "hand_start"]
    assert start == [{"type": "hand_start", "hand": 2, "dealer": 0, "watcher": 2, "stock": 22}]


def test_non_dealer_win_passes_the_deal_to_the_dealers_next_seat() -> None:
    deal = make_deal({0: "九", 3: WAIT_BA}, stock="捌", avoid={0: "捌", 1: "捌"})
    g = WeimaqueGame.from_deal(deal, WeimaqueConfig(hands=2))
    discard(g, 0, "x9")
    reach(g, shown("d8"))
    claim(g, {3: "hu"})
    assert not g.finished
    assert (g.dealer, g.watcher_seat()) == (1, 3)  # the 守醒 changes with the dealer
    assert [sum(h) for h in g.hands] == [19, 20, 19, 0]
    assert g.to_move() == (1,)


def test_peng_beats_chi() -> None:
    """Seat 0 discards 五: seat 1 (next) could 吃 it, seat 3 could 碰 it.  碰 wins."""
    deal = make_deal({0: "五", 1: "三四", 3: "五五"}, avoid={0: "五", 1: "五"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x5")
    assert "chi x3 x4" in g.legal_actions(1) and "peng" in g.legal_actions(3)
    g.apply(1, "chi x3 x4")
    assert g.phase == "claim"
    events = claim(g, {3: "peng"})
    assert types(events) == ["peng"] and g.to_move() == (3,)


def test_chi_goes_ahead_when_peng_is_declined() -> None:
    deal = make_deal({0: "五", 1: "三四", 3: "五五"}, avoid={0: "五", 1: "五"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x5")
    events = claim(g, {1: "chi x3 x4", 3: "pass"})
    assert types(events) == ["chi"] and g.to_move() == (1,)
    assert g.melds[1] == [("chi", (2, 3, 4), 4)]


def test_drawer_may_chi_its_own_draw_after_peng_is_declined() -> None:
    deal = make_deal({0: "九", 1: "三四", 3: "五五"}, stock="五", avoid={0: "五", 1: "五"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    reach(g, shown("x5", 1))
    assert "chi x3 x4" in g.legal_actions(1) and "peng" in g.legal_actions(3)
    events = claim(g, {1: "chi x3 x4", 3: "pass"})
    assert types(events) == ["chi"] and g.to_move() == (1,)


def test_unclaimed_drawn_card_is_played_out_and_next_seat_draws() -> None:
    deal = make_deal({0: "九"}, stock="五 六", avoid={0: "五六", 1: "五六", 3: "五六"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    events = claim(g)
    events += claim(g)
    assert [e for e in events if e["type"] in ("draw", "played_out")][:3] == [
        {"type": "draw", "seat": 1, "card": "x5", "stock": 21},
        {"type": "played_out", "seat": 1, "card": "x5"},
        {"type": "draw", "seat": 3, "card": "x6", "stock": 20},
    ]
    assert g.discards[1] == [4]


# ---- 砍 ------------------------------------------------------------------------------------------------------

def test_kan_cannot_be_discarded() -> None:
    g = WeimaqueGame.from_deal(make_deal({0: "三三三"}))
    assert "discard x3" not in g.legal_actions(0)
    with pytest.raises(IllegalActionError, match="砍"):
        g.apply(0, "discard x3")


def test_kan_may_be_split_to_peng_and_then_its_kind_is_locked() -> None:
    deal = make_deal({0: "五", 3: "五五五"}, avoid={0: "五", 1: "五"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x5")
    claim(g, {3: "peng"})
    assert g.hands[3][4] == 1 and g.melds[3] == [("peng", (4, 4, 4), 4)]
    assert "discard x5" not in g.legal_actions(3)
    with pytest.raises(IllegalActionError, match="碰'd or 吃'd"):
        g.apply(3, "discard x5")


def test_kan_may_be_split_to_chi_and_chi_kind_is_locked() -> None:
    deal = make_deal({0: "五", 1: "三三三 四 五"}, avoid={0: "五", 1: "五", 3: "五"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x5")
    claim(g, {1: "chi x3 x4"})
    assert g.hands[1][2] == 2 and g.melds[1] == [("chi", (2, 3, 4), 4)]
    legal = g.legal_actions(1)
    assert "discard x3" in legal  # the two left of the split 砍 are ordinary cards now
    assert "discard x5" not in legal  # what was 吃'd is never discarded
    with pytest.raises(IllegalActionError, match="吃"):
        g.apply(1, "discard x5")


def test_unsplit_kan_scores_as_wei_at_a_win() -> None:
    deal = make_deal({0: "九", 3: WAIT_BA}, stock="捌", avoid={0: "捌", 1: "捌"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    reach(g, shown("d8"))
    events = claim(g, {3: "hu"})
    groups = next(e for e in events if e["type"] == "settle")["win"]["groups"]
    assert [(x["kind"], x["xi"]) for x in groups if x["kind"] == "kan"] == [("kan", 4)] * 3


# ---- restrictions --------------------------------------------------------------------------------------------

def test_guozhang_cannot_be_peng_or_chi() -> None:
    """五 is discarded and nobody 碰s it; when 五 shows again it is 过张: no 碰 and no 吃."""
    deal = make_deal({0: "五", 1: "三四", 3: "五五"}, stock="五", avoid={0: "五", 1: "五"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x5")
    assert "peng" in g.legal_actions(3) and "chi x3 x4" in g.legal_actions(1)
    events = claim(g)  # everybody passes
    shown_at = events.index({"type": "draw", "seat": 1, "card": "x5", "stock": 21})
    assert events[shown_at + 1] == {"type": "played_out", "seat": 1, "card": "x5"}  # nobody was asked
    assert "过张" in (g.peng_ok(3, 4) or "")
    assert g.guo >= {4}


def test_guozhang_passer_option_bars_only_who_passed() -> None:
    """Seat 3 could not 吃 seat 0's 五 (not its previous seat): under 'passer' it may 吃 its own 五 later."""
    deal = make_deal({0: "五", 3: "三四"}, stock="一 五", avoid={0: "五一", 1: "五一三四六七", 3: "五一"})
    g = WeimaqueGame.from_deal(deal, WeimaqueConfig(guozhang="passer"))
    discard(g, 0, "x5")
    reach(g, shown("x5", 3))
    assert "chi x3 x4" in g.legal_actions(3)
    g2 = WeimaqueGame.from_deal(deal)  # global: the 五 that went by is 过张 for everyone
    events = discard(g2, 0, "x5")
    events += reach(g2, lambda g: any(e.get("card") == "x5" and e["type"] == "played_out" for e in events))
    at = events.index({"type": "draw", "seat": 3, "card": "x5", "stock": 20})
    assert events[at + 1] == {"type": "played_out", "seat": 3, "card": "x5"}  # seat 3 was never asked


def test_no_chi_of_a_card_you_could_peng() -> None:
    deal = make_deal({0: "五", 1: "三四 五五"}, avoid={0: "五", 3: "五"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x5")
    assert "peng" in g.legal_actions(1) and not any(a.startswith("chi") for a in g.legal_actions(1))
    assert "可以碰的牌不能吃" in g.why_illegal(1, "chi x3 x4")


def test_no_chi_from_the_next_seat() -> None:
    """Seat 3's next player is seat 0: seat 3 can never 吃 what seat 0 discards."""
    deal = make_deal({0: "五", 1: "六七", 3: "三四"}, avoid={0: "五", 1: "五", 3: "五"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x5")
    assert g.to_move() == (1,)  # seat 1 may 吃; seat 3 is not asked
    assert g.legal_actions(3) == []
    assert "下家" in g.why_illegal(3, "chi x3 x4")


def test_no_chi_of_a_card_you_discarded_yourself() -> None:
    """Seat 1 碰s 九 and discards 五; later it may not 吃 a 五, even under the 'passer' 过张 reading."""
    deal = make_deal({0: "九", 1: "九九 三四 五"}, avoid={0: "九五", 1: "五", 3: "五九"})
    g = WeimaqueGame.from_deal(deal, WeimaqueConfig(guozhang="passer"))
    discard(g, 0, "x9")
    claim(g, {1: "peng"})
    discard(g, 1, "x5")
    assert "出过" in (g.chi_ok(1, 4, 2, 3) or "")


def test_a_discard_never_wins() -> None:
    deal = make_deal({0: "捌", 3: WAIT_BA}, avoid={0: "捌", 1: "捌"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "d8")
    assert "hu" not in g.legal_actions(3)
    assert "only a drawn card" in g.why_illegal(3, "hu") or g.legal_actions(3) == []


def test_no_discarding_three_of_a_kind_even_with_many_choices() -> None:
    g = WeimaqueGame.from_deal(make_deal({0: "三三三 七七七"}))
    legal = g.legal_actions(0)
    assert "discard x3" not in legal and "discard x7" not in legal and legal


# ---- the end of a hand ---------------------------------------------------------------------------------------

def _drain(g: WeimaqueGame, keep: int | None = None) -> list[Event]:
    """Everybody passes every claim (seat ``keep`` too, except a 'hu'); discards take the first legal card."""
    events: list[Event] = []
    hand = g.hand_no
    while not g.finished and g.hand_no == hand:
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        if seat == keep and "hu" in legal:
            events += g.apply(seat, "hu")
        elif g.phase == "claim":
            events += g.apply(seat, "pass")
        else:
            events += g.apply(seat, next(a for a in legal if a != "hu"))
    return events


def test_haidi_hu_on_the_last_card() -> None:
    """Seat 1 draws the 22nd card, 捌, and seat 3 wins on it: 海底胡 +10."""
    deal = make_deal({0: "九 捌捌", 3: WAIT_BA}, avoid={1: "捌"})
    left = Counter(deck())
    for h in deal["hands"]:
        left.subtract(parse_cards(h))
    rest = sorted(left.elements())
    rest.remove(17)
    assert 17 not in rest and len(rest) == 21
    # draws go 1, 3, 0, 1, 3, 0, ...: seat 3 must never draw what it holds two of (it would 煨)
    for_three = [c for c in rest if c not in (1, 6, 9, 12)][:7]
    others = list(rest)
    for c in for_three:
        others.remove(c)
    stock = [for_three.pop(0) if i % 3 == 1 else others.pop(0) for i in range(21)] + [17]
    deal["stock"] = " ".join(alias(c) for c in stock)
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    events = _drain(g, keep=3)
    settle = next(e for e in events if e["type"] == "settle")
    assert settle["winner"] == 3 and settle["drawn_by"] == 1 and len(g.stock) == 0
    assert {m["key"]: m["value"] for m in settle["win"]["mingtang"]}["haidi_hu"] == 10


def test_chou_when_the_stock_runs_out_and_the_deal_passes() -> None:
    g = WeimaqueGame.new(WeimaqueConfig(hands=2), seed=5)
    events = _drain(g)
    assert "chou" in types(events)
    settle = next(e for e in events if e["type"] == "settle")
    assert settle["winner"] is None and settle["scores"] == [0.0, 0.0, 0.0, 0.0]
    assert (g.dealer, g.watcher_seat(), g.hand_no) == (1, 3, 2)
    _drain(g)
    assert g.finished and g.result() is not None


def test_replay_of_a_scripted_deal() -> None:
    deal = make_deal({0: "九", 3: WAIT_BA}, stock="捌", avoid={0: "捌", 1: "捌"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    reach(g, shown("d8"))
    claim(g, {3: "hu"})
    again = WeimaqueGame.replay(g.record())
    assert again.view(OMNISCIENT) == g.view(OMNISCIENT)


def test_describe_labels() -> None:
    g = WeimaqueGame.new()
    assert g.describe("discard d8", "zh") == "出 捌"
    assert g.describe("chi x3 x4", "en") == "chi with x3 x4"
    assert g.describe("hu", "zh") == "胡" and g.describe("pass", "en") == "pass"


def test_chi_stays_within_one_size() -> None:
    """壹 can be 吃'd with 贰叁, never with 九十 (no mixed sizes, no wrap-around)."""
    deal = make_deal({0: "壹", 1: "九十 贰叁"}, avoid={0: "壹", 1: "壹", 3: "壹"})
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "d1")
    assert [a for a in g.legal_actions(1) if a.startswith("chi")] == ["chi d2 d3"]
    assert "run of three within one size" in g.why_illegal(1, "chi x9 x10")


def test_split_payment_and_watcher_pays_nothing() -> None:
    deal = make_deal({0: "九", 3: WAIT_BA}, stock="捌", avoid={0: "捌", 1: "捌"})
    g = WeimaqueGame.from_deal(deal, WeimaqueConfig(payment="split"))
    discard(g, 0, "x9")
    reach(g, shown("d8"))
    claim(g, {3: "hu"})
    assert g.totals() == (-21.0, -21.0, 0.0, 42.0)


def test_claims_that_would_leave_nothing_to_discard_are_not_offered() -> None:
    """防死手: after 碰 五 only a 砍 would be left, which may not be discarded."""
    from paiju.games.weimaque.cards import counts_of

    g = WeimaqueGame.new(seed=1)
    g.hands[3] = counts_of(parse_cards("五五 三三三"))
    assert "nothing in hand could be discarded" in (g.peng_ok(3, 4) or "")
    g.hands[3] = counts_of(parse_cards("五五 三三三 八"))
    assert g.peng_ok(3, 4) is None


def test_discard_bars_lift_only_when_everything_is_barred() -> None:
    from paiju.games.weimaque.cards import counts_of

    g = WeimaqueGame.new(seed=1)
    g.hands[1] = counts_of(parse_cards("三三三 四四四 五"))
    g.locked[1] = {4}
    assert g.discard_kinds(1) == [4]  # the 吃/碰 bar goes first
    g.hands[1] = counts_of(parse_cards("三三三 四四四"))
    assert g.discard_kinds(1) == [2, 3]  # then the three-of-a-kind bar
    g.hands[1] = counts_of(parse_cards("三三三 四四四 六"))
    assert g.discard_kinds(1) == [5]


def test_resample_keeps_views_and_wei_triples() -> None:
    import random

    deal = make_deal({0: "九", 1: "捌捌"}, stock="捌")
    g = WeimaqueGame.from_deal(deal)
    discard(g, 0, "x9")
    reach(g, lambda g: g.phase == "discard")
    rng = random.Random(0)
    for viewer in (0, 2, 3, SPECTATOR):
        twin = g.resample(viewer, rng)
        assert twin.view(viewer) == g.view(viewer)
        assert twin.inventory() == g.inventory()
        kind, cards, _ = twin.melds[1][0]
        assert kind == "wei" and len(set(cards)) == 1
    assert g.resample(2, rng).view(OMNISCIENT)["hands"] == g.view(OMNISCIENT)["hands"]  # the 守醒 sees hands


@pytest.mark.parametrize("options", [
    {"guozhang": "passer", "hands": 3},
    {"dandiao": "last_card", "mingtang_table": "lao", "payment": "split", "hands": 2},
    {"first_dealer": -1, "hands": 4, "multiplier_scope": "total", "min_hard_xi": 0},
])
def test_every_option_plays_leak_free_matches(options: dict[str, Any]) -> None:
    import random

    cfg = WeimaqueConfig.from_dict(options)
    for seed in range(15):
        g = WeimaqueGame.new(cfg, seed)
        rng = random.Random(seed)
        inventory = g.inventory()
        step = 0
        while not g.finished:
            movers = g.to_move()
            seat = movers[rng.randrange(len(movers))]
            legal = g.legal_actions(seat)
            if step % 9 == 0:
                for viewer in (0, 1, 2, 3, SPECTATOR):
                    assert g.resample(viewer, rng).view(viewer) == g.view(viewer)
            g.apply(seat, legal[rng.randrange(len(legal))])
            assert g.inventory() == inventory
            step += 1
        assert len(g.results) == cfg.hands
        assert WeimaqueGame.replay(g.record()).view(OMNISCIENT) == g.view(OMNISCIENT)


# ---- words ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("must", "moves", "seat", "action", "zh", "en"), [
    ({0: "三三三"}, [], 0, "discard x3", "砍", "three of a kind"),
    ({0: "五", 1: "拾拾拾拾"}, [], 0, "discard d10", "你手里没有", "you hold no"),
    ({0: "五"}, [], 0, "peng", "你要出牌", "you must discard"),
    ({0: "五", 1: "三四 五五"}, ["discard x5"], 1, "chi x3 x4", "可以碰的牌不能吃", "could 碰"),
    ({0: "五", 1: "六七", 3: "三四"}, ["discard x5"], 3, "chi x3 x4", "下家", "previous seat"),
    ({0: "五", 1: "九十"}, ["discard x5"], 1, "chi x9 x10", "一句顺子", "run of three"),
    ({0: "五", 3: "五"}, ["discard x5"], 3, "peng", "两张", "two of the card"),
    ({0: "捌", 3: WAIT_BA}, ["discard d8"], 3, "hu", "出的牌不能和牌", "only a drawn card"),
    ({0: "五"}, [], 2, "discard x5", "守醒", "守醒"),
    ({0: "五"}, [], 0, "discard", "不是动作", "not an action"),
])
def test_refusals_say_why_in_both_languages(must: dict[int, str], moves: list[str], seat: int, action: str,
                                            zh: str, en: str) -> None:
    g = WeimaqueGame.from_deal(make_deal(must, avoid={s: "五捌" for s in (0, 1, 3) if s not in must}))
    for move in moves:
        g.apply(0, move)
    reason = g.explain(seat, action)
    assert zh in reason["zh"] and en in reason["en"], reason
    assert not g.is_legal(seat, action)


def test_every_event_is_worded_in_both_languages() -> None:
    import random

    seen: set[str] = set()
    for seed in range(6):
        g = WeimaqueGame.new(WeimaqueConfig(hands=2), seed)
        rng = random.Random(seed)
        while not g.finished:
            seat = g.to_move()[0]
            legal = g.legal_actions(seat)
            for e in g.apply(seat, "hu" if "hu" in legal else legal[rng.randrange(len(legal))]):
                words = g.event_text(e)
                assert words["zh"] and words["en"] and "type=" not in words["zh"] + words["en"], e
                seen.add(e["type"])
    assert seen >= {"hand_start", "discard", "draw", "played_out", "peng", "chi", "hu", "settle", "match_end"}


def test_is_legal_agrees_with_the_legal_actions() -> None:
    """``is_legal`` answers without building the list: it must say yes to exactly the listed actions."""
    import random

    from paiju.games.weimaque.state import CHI_OF, DISCARD_ACT

    every = [*DISCARD_ACT, *CHI_OF, "hu", "peng", "pass", "discard", "chi x1", "x1"]
    for seed in range(4):
        g = WeimaqueGame.new(WeimaqueConfig(hands=2, guozhang="passer" if seed % 2 else "global"), seed)
        rng = random.Random(seed)
        while not g.finished:
            for seat in range(4):
                legal = set(g.legal_actions(seat))
                assert {a for a in every if g.is_legal(seat, a)} == legal
            seat = g.to_move()[0]
            legal_list = g.legal_actions(seat)
            g.apply(seat, legal_list[rng.randrange(len(legal_list))])


@pytest.mark.parametrize("seed", range(12))
def test_asking_everyone_changes_nothing_but_the_questions(seed: int) -> None:
    """With ``ask_everyone`` every card shown opens a claim window for every player who could be asked, pass
    the only answer of one who cannot claim; the same real choices then play the same hands to the same end."""
    import random

    plain = WeimaqueGame.new(WeimaqueConfig(hands=2), seed)
    asked = WeimaqueGame.new(WeimaqueConfig(hands=2, ask_everyone=True), seed)
    rng = random.Random(seed)
    extra = 0
    def shown(g: WeimaqueGame) -> tuple[str, int, str, int]:
        return g.phase, g.exposed, g.source, g.source_seat  # which card's window (a draw follows a passed one)

    while not plain.finished:
        while shown(asked) != shown(plain) or set(asked.to_move()) != set(plain.to_move()):
            same = shown(asked) == shown(plain)
            seat = next(s for s in asked.to_move() if not same or s not in plain.to_move())
            assert asked.legal_actions(seat) == ["pass"] and asked.public_to_move() == ()
            asked.apply(seat, "pass")
            extra += 1
        seat = rng.choice(plain.to_move())
        action = rng.choice(plain.legal_actions(seat))
        plain.apply(seat, action)
        asked.apply(seat, action)
    while not asked.finished:
        asked.apply(asked.to_move()[0], "pass")
    assert asked.result() == plain.result() and extra > 0
