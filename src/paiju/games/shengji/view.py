"""What each viewer of a 升级 table sees, and every word the game shows: the view with its display block,
action labels, refusal reasons, the settlement's lines and event text, in Chinese and English.

Built from the declared state (:mod:`.state`): a hand is shown where ``game.sees("hands", viewer, seat)`` says,
the kitty where ``game.sees("kitty", viewer)`` says.
"""

from __future__ import annotations

from typing import Any

from paiju.core.cards import SUIT_SYMBOLS, SUIT_ZH, SUITS, Card, card_text, parse_cards, pretty
from paiju.core.display import Select, TableBlock, center, group, result_block, seat_block, table_block, who
from paiju.core.errors import NotationError
from paiju.core.terms import Event, Text, View, text

from .rules import LEVEL_NAMES, TRUMP, Refusal
from .state import DEALT, KITTY, SEATS, Phase, ShengjiState, team_of

PHASE_LABELS: dict[str, tuple[str, str]] = {
    Phase.DEAL: ("发牌·亮主", "dealing · bidding"),
    Phase.BURY: ("扣底", "burying the kitty"),
    Phase.PLAY: ("出牌", "play"),
    Phase.OVER: ("终局", "match over"),
}

OUTCOMES: dict[str, tuple[str, str]] = {
    "hold": ("庄家守庄，升{n}级", "defenders hold, up {n}"),
    "take_over": ("闲家上台，升{n}级", "attackers take over, up {n}"),
    "shutout": ("光头：庄家过局", "光头 (attackers scored 0): defenders pass A"),
    "sweep": ("全捡：闲家过局", "全捡 (attackers took every point): attackers pass A"),
}
"""A hand's outcome in words: the settlement's line and the ``hand_end`` event say it alike."""

_DEALER = text("庄家", "dealer")
_PARTNER = text("庄家对家", "dealer's partner")
_ATTACKER = text("闲家", "attacker")
_NO_ROLE = text("", "")
_BID = text("亮主", "bid")
_KITTY = text("底牌", "kitty")


def cards_text(cards: list[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


def trump_label(trump: int | None, lang: str) -> str:
    if trump is None:
        return "无主" if lang == "zh" else "no-trump"
    suit = SUITS[trump]
    return f"{SUIT_ZH[suit]}{SUIT_SYMBOLS[suit]}" if lang == "zh" else SUIT_SYMBOLS[suit]


def suit_name(suit: int) -> Text:
    """An effective suit (0..3, or 4 for the trumps) in words."""
    if suit == TRUMP:
        return text("主牌", "trumps")
    s = SUITS[suit]
    return text(f"{SUIT_ZH[s]}{SUIT_SYMBOLS[s]}", SUIT_SYMBOLS[s])


# ---- the view -----------------------------------------------------------------------------------
def build(g: ShengjiState, viewer: int) -> View:
    over = g.finished
    order = g.view_order()

    def hand_of(s: int) -> list[str] | None:
        return order.spread_text(g.holding(s)) if g.sees("hands", viewer, s) else None

    counts = [g.held(s) for s in range(SEATS)]
    bid = None
    if g.bid is not None:
        b_seat, b_card, b_n, b_rank = g.bid
        bid = {"seat": b_seat, "cards": [card_text(b_card)] * b_n, "rank": b_rank}
    dealer = g.dealer
    attackers = [s for s in range(SEATS) if dealer is not None and team_of(s) != team_of(dealer)]
    hands = [hand_of(s) for s in range(SEATS)]
    kitty = [card_text(c) for c in g.kitty] if g.sees("kitty", viewer) and g.trump_set else None
    view: View = {
        "hand_no": g.hands_played + (0 if over else 1),
        "max_hands": g.config.max_hands,
        "phase": g.phase,
        "levels": list(g.levels),
        "level": g.level,
        "level_name": LEVEL_NAMES[g.level],
        "dealer": dealer,
        "attackers": attackers,
        "trump_set": g.trump_set,
        "trump": SUITS[g.trump] if g.trump_set and g.trump is not None else None,
        "bid": bid,
        "bids": [dict(b) for b in g.bids],
        "first_bidder": g.first_bidder,
        "first_hand": g.first_hand,
        "dealt": min(g.pos, DEALT),
        "start": g.start,
        "stock": [card_text(c) for c in g.stock[g.pos:]] if g.sees("stock", viewer) else None,
        "shown": [order.spread_text(k) if any(k) else [] for k in g.known],
        "hand": hands[viewer] if viewer >= 0 else None,
        "hands": hands,
        "hand_counts": counts,
        "kitty": kitty,
        "kitty_count": KITTY,
        "kitty_buried": g.buried,
        "kitty_card": card_text(g.kitty_reveal) if g.kitty_reveal is not None else None,
        "turn": g.turn if g.phase in (Phase.BURY, Phase.PLAY) else None,
        "trick": {"leader": g.trick[0][0] if g.trick else (g.turn if g.phase == Phase.PLAY else None),
                  "plays": [[s, [card_text(c) for c in order.sorted(p)]] for s, p in g.trick]},
        "tricks": [dict(t) for t in g.tricks],
        "points": g.captured,
        "penalties": list(g.penalty),
        "throw_fails": list(g.fails),
        "throw_cards": list(g.fail_cards),
        "throw_limits": {"fails": g.config.throw_fails_limit, "cards": g.config.throw_cards_limit},
        "hands_played": g.hands_played,
        "hand_first_action": g.hand_first_action,
        "last_result": g.last_result,
        "rules": g.rules,  # the table's rules, so that a game can be rebuilt from a view (issue 37)
    }
    view["table"] = _table(g, viewer, view)
    return view


def _role(g: ShengjiState, seat: int) -> Text:
    if g.dealer is None:
        return _NO_ROLE
    if seat == g.dealer:
        return _DEALER
    return _PARTNER if team_of(seat) == team_of(g.dealer) else _ATTACKER


def _table(g: ShengjiState, viewer: int, v: View) -> TableBlock:
    order = g.view_order()
    lvl = LEVEL_NAMES[g.level]
    trump_zh = trump_label(g.trump, "zh") if g.trump_set else "未定"
    trump_en = trump_label(g.trump, "en") if g.trump_set else "undecided"
    zh_phase, en_phase = PHASE_LABELS[g.phase]
    info = [
        text(f"第{v['hand_no']}局 打{lvl} 主{trump_zh}", f"hand {v['hand_no']}, level {lvl}, trump {trump_en}"),
        text(f"级别 南北{LEVEL_NAMES[g.levels[0]]} 东西{LEVEL_NAMES[g.levels[1]]}",
             f"levels: {who(0)} & {who(2)} at {LEVEL_NAMES[g.levels[0]]}, "
             f"{who(1)} & {who(3)} at {LEVEL_NAMES[g.levels[1]]}"),
        text(f"闲家得分 {g.captured}", f"attackers' points {g.captured}"),
    ]
    if g.bid is not None and not g.trump_set:
        b = g.bid
        shown = cards_text([b[1]] * b[2])
        info.append(text(f"{who(b[0])}亮 {shown}", f"{who(b[0])} bid {shown}"))
    current = dict(g.trick)
    seats = []
    for s in range(SEATS):
        groups = []
        if g.bid is not None and g.bid[0] == s and g.phase == Phase.DEAL:
            groups.append(group(_BID, v["bid"]["cards"]))
        seats.append(seat_block(s, _role(g, s), hand=v["hands"][s], hand_count=v["hand_counts"][s], groups=groups,
                                discards=[card_text(c) for c in order.sorted(current.get(s, []))]))
    kitty = v["kitty"] if v["kitty"] is not None else ["??"] * KITTY
    select: Select | None = None
    if viewer >= 0 and viewer in g.to_move():
        if g.phase == Phase.BURY:
            select = {"verb": "bury", "min": KITTY, "max": KITTY}
        elif g.phase == Phase.PLAY:
            n = len(g.trick[0][1]) if g.trick else None
            select = {"verb": "play", "min": n or 1, "max": n or g.sizes[viewer]}
    return table_block("french", text(zh_phase, en_phase), info, seats, center=[center(_KITTY, kitty)],
                       select=select, last_result=g.last_result)


def hand_result(s: dict[str, Any], attackers: int) -> dict[str, Any]:
    """The ``last_result`` block of a hand from its ``hand_end`` summary: points by source, outcome, levels."""

    def side(values: tuple[int, int]) -> list[int]:
        return [values[team_of(seat)] for seat in range(SEATS)]

    def att(x: int) -> list[int]:
        return side((x, 0) if attackers == 0 else (0, x))

    pen = s["total"] - s["attacker_points"] - s["kitty_score"]
    n = s["levels_up"]
    zh, en = OUTCOMES[s["outcome"]]
    levels = " / ".join(LEVEL_NAMES[x] for x in s["levels"])
    lines = [
        {**text("闲家得分", "attackers' points in tricks"), "points": att(s["attacker_points"])},
        {**text(f"扣底 {s['kitty_points']}×{s['kitty_factor']}", f"kitty {s['kitty_points']}×{s['kitty_factor']}"),
         "points": att(s["kitty_score"])},
        {**text("吃苍蝇", "failed throws"), "points": att(pen)},
        {**text(f"合计 {s['total']}", f"total {s['total']}"), "points": att(s["total"])},
        {**text(zh.format(n=n), en.format(n=n)),
         "points": side((s["gained"], 0) if s["team"] == 0 else (0, s["gained"]))},
        {**text("级别 " + levels, "levels " + levels), "points": [0] * SEATS},
    ]
    return result_block(text(f"第{s['hand']}局结算", f"hand {s['hand']} settlement"), lines, s["scores"],
                        kitty=s["kitty"])


# ---- actions and refusals -------------------------------------------------------------------------
_VERBS = {"pass": ("不亮", "no bid"), "bid": ("亮主", "bid"), "bury": ("扣底", "bury"), "play": ("出", "play")}


def label(g: ShengjiState, action: str) -> Text:
    """An action on a button: ``bid 2H`` → 亮主 2♥ / bid 2♥."""
    verb, _, rest = action.partition(" ")
    try:
        cards = " ".join(pretty(c) for c in parse_cards(rest))
    except NotationError:
        return text(action, action)
    words = _VERBS.get(verb)
    if words is None:
        return text(action, action)
    if verb == "pass":
        return text(*words)
    return text(f"{words[0]} {cards}", f"{words[1]} {_en(cards)}")


def explain(g: ShengjiState, seat: int, action: str) -> Text | None:
    """Why ``action`` is refused, by the rule that forbids it; None for the generic reason."""
    reason = g._problem(seat, action)
    return refusal_text(reason) if reason is not None else None


def _held(card: Card, n: int) -> Text:
    shown = card_text(card)
    return text(f"你没有{n}张 {shown}", f"you do not hold {n}× {shown}") if n > 1 else \
        text(f"你没有 {shown}", f"you do not hold {shown}")


def refusal_text(r: Refusal) -> Text:
    """A refusal in both languages."""
    f = r.facts
    match r.reason:
        case "not_string":
            return text("动作必须是一段文字", "an action is a string")
        case "not_deciding":
            return text("现在不是你的回合，不用行动", "it is not your turn: you have no decision to make now")
        case "notation":
            return text(f"牌的写法不对：{f[0]}", f[0])
        case "deal_only_bid":
            return text("发牌时只能亮主（如 bid 2H 2H）或不亮（pass）",
                        "while the cards are dealt you may only bid (bid 2H 2H) or pass")
        case "bid_shape":
            return text("亮主要亮1–4张相同的牌：同一花色的级牌，或2–4张相同的王",
                        "a bid shows 1–4 identical cards: level cards of one suit, or 2–4 identical jokers")
        case "one_joker":
            return text("不能用单张大小王来亮无主：要两张或更多相同的王",
                        "one joker cannot bid no-trump: show two or more identical jokers")
        case "not_level":
            level = LEVEL_NAMES[f[0]]
            return text(f"只能用级牌（{level}）或成对相同的王亮主",
                        f"only level cards ({level}) or pairs of identical jokers can bid")
        case "not_held":
            return _held(f[0], f[1])
        case "self_overcall":
            return text("不能自反：自己的亮主只能用同一张牌加强（自保）",
                        "you cannot overcall your own bid; you may only strengthen it with the same card")
        case "weak_bid":
            shown = cards_text([f[0]] * f[1])
            return text(f"抢亮：要比已亮的 {shown} 大（同级别的不行）",
                        f"a bid must beat the standing bid {shown} (equal bids lose)")
        case "bury_now":
            return text(f"庄家现在扣底：bury <{KITTY}张牌>", f"the dealer buries {KITTY} cards now: bury <12 cards>")
        case "bury_count":
            return text(f"要扣{KITTY}张，不是{f[0]}张", f"bury exactly {KITTY} cards, not {f[0]}")
        case "play_now":
            return text("出牌：play <牌>", "play your cards: play <cards>")
        case "no_cards":
            return text("至少出一张牌", "choose at least one card")
        case "lead_suits":
            return text("首家出牌必须是同一花色（主牌算一门）",
                        "a lead must be in one suit (all trumps count as one suit)")
        case "throw_fails":
            return text(f"本盘甩牌已失败{f[0]}次，不能再甩", f"throw limit reached: {f[0]} failed throws this hand")
        case "throw_cards":
            return text(f"本盘吃苍蝇已有{f[0]}张，不能再甩",
                        f"throw limit reached: {f[0]} cards of failed throws this hand")
        case "follow_count":
            n = f[0]
            return text(f"要出{n}张，和首家一样多", f"play {n} card{'s' if n > 1 else ''}, as many as the lead")
        case "not_held_those":
            return text("你没有这些牌", "you do not hold those cards")
        case "follow_all":
            suit = suit_name(f[0])
            return text(f"必须跟{suit['zh']}：你的{f[1]}张{suit['zh']}都要出",
                        f"must follow {suit['en']}: play all {f[1]} {suit['en']} you hold")
        case "follow_suit":
            suit = suit_name(f[0])
            return text(f"必须跟{suit['zh']}：你有{f[1]}张{suit['zh']}",
                        f"must follow {suit['en']}: you hold {f[1]} {suit['en']}")
        case "follow_groups":
            suit = suit_name(f[0])
            shown = " ".join(" ".join([card_text(c)] * k) for c, k in f[1])
            return text(f"首家出了对子/三个头/四个头：你{suit['zh']}的对子、三个、四个必须先出（你有 {shown}）",
                        f"the lead has pairs/triples/quads: play your matching {suit['en']} groups first "
                        f"(you hold {shown})")
    return text(r.reason, r.reason)


# ---- events ----------------------------------------------------------------------------------------
def _en(shown: str) -> str:
    """Cards as :func:`_pretty` shows them, with the jokers' English codes (as the English terminal shows them)."""
    return shown.replace("大王", "BJ").replace("小王", "SJ")


def _pretty(cards: list[str]) -> str:
    out = []
    for t in cards:
        try:
            out.append(pretty(parse_cards(t)[0]))
        except (NotationError, IndexError):
            out.append(t)
    return " ".join(out)


def event_text(event: Event) -> Text:
    """One public event in words."""
    kind = event.get("type")
    s = event.get("seat")
    if kind == "bid":
        shown = _pretty(event["cards"])
        return text(f"{who(s)}亮主 {shown}", f"{who(s)} bids {_en(shown)}")
    if kind == "trump":
        trump = event["trump"]
        name_zh = trump_label(SUITS.index(trump), "zh") if trump else "无主"
        name_en = SUIT_SYMBOLS[trump] if trump else "no-trump"
        if event["by"] is None:
            card = _pretty([event["kitty_card"]])
            how = text(f"底牌第三张 {card}", f"third kitty card {_en(card)}")
        else:
            how = text(f"{who(event['by'])}亮", f"{who(event['by'])}'s bid")
        return text(f"主牌 {name_zh}（{how['zh']}），{who(event['dealer'])}坐庄",
                    f"trump {name_en} ({how['en']}); {who(event['dealer'])} deals")
    if kind == "kitty_taken":
        return text(f"{who(s)}拿底牌", f"{who(s)} takes the kitty")
    if kind == "buried":
        return text(f"{who(s)}扣底", f"{who(s)} buries {KITTY} cards")
    if kind == "play":
        shown = _pretty(event["cards"])
        return text(f"{who(s)}出 {shown}", f"{who(s)} plays {_en(shown)}")
    if kind == "throw_failed":
        tried, played = _pretty(event["tried"]), _pretty(event["played"])
        return text(f"{who(s)}甩牌 {tried} 失败（吃苍蝇 {event['penalty']} 分），改出 {played}",
                    f"{who(s)}'s throw {_en(tried)} fails (penalty {event['penalty']}); plays {_en(played)}")
    if kind == "trick":
        return text(f"{who(event['winner'])}赢这一轮，{event['points']}分；闲家共 {event['attacker_points']}",
                    f"{who(event['winner'])} wins the trick, {event['points']} points; "
                    f"attackers {event['attacker_points']}")
    if kind == "hand_end":
        kitty = f"{event['kitty_points']}×{event['kitty_factor']}"
        zh, en = OUTCOMES[event["outcome"]]
        n = event["levels_up"]
        levels = " / ".join(LEVEL_NAMES[x] for x in event["levels"])
        return text(f"第{event['hand']}局结束：闲家 {event['total']} 分（扣底 {kitty}），{zh.format(n=n)}，"
                    f"级别 {levels}",
                    f"hand {event['hand']} over: attackers {event['total']} (kitty {kitty}), {en.format(n=n)}, "
                    f"levels {levels}")
    if kind == "hand_start":
        return text(f"第{event['hand']}局，{who(event['dealer'])}坐庄",
                    f"hand {event['hand']}, {who(event['dealer'])} deals")
    if kind == "match_end":
        reason = {"passed_a": ("过A", "a side passed A"), "max_hands": ("局数已满", "the last hand was played")}.get(
            event["reason"], (event["reason"], event["reason"]))
        return text(f"比赛结束（{reason[0]}）", f"match over ({reason[1]})")
    plain = " ".join(f"{k}={v}" for k, v in event.items())
    return text(plain, plain)
