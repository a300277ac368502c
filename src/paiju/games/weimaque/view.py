"""What each viewer of a 偎麻雀 table sees, and every word the game shows: the view with its display block,
action labels, refusal reasons, the settlement's lines and event text, in Chinese and English.
"""

from __future__ import annotations

from typing import Any, cast

from paiju.core.display import GroupBlock, center, result_block, seat_block, seat_points, table_block, who
from paiju.core.errors import NotationError
from paiju.core.terms import OMNISCIENT, Event, Seat, Text, View, text

from .cards import NUM_KINDS, alias, cards_of, char, parse_card
from .groups import GROUP_EN, GROUP_ZH, Win
from .state import CLAIM, DISCARD, OVER, WeimaqueState

ROLE_DEALER = text("庄", "dealer")
ROLE_PLAYER = text("闲", "player")
ROLE_WATCHER = text("守醒", "watcher")
WATCHER_NOTE = text("守醒: 不出牌, 可看三家手牌", "watcher: plays no card, sees the three hands")
MELD_LABEL = {kind: text(GROUP_ZH[kind], GROUP_EN[kind]) for kind in GROUP_ZH}
NO_POINTS = (0.0, 0.0, 0.0, 0.0)


# ---- the view -----------------------------------------------------------------------------------
def role(g: WeimaqueState, seat: Seat) -> Text:
    if seat == g.watcher:
        return ROLE_WATCHER
    return ROLE_DEALER if seat == g.dealer else ROLE_PLAYER


def meld_view(g: WeimaqueState, seat: Seat, viewer: int) -> list[dict[str, Any]]:
    """A seat's melds; a 煨 face down to whoever may not see that seat's hand."""
    face_down = not g.sees("hands", viewer, seat)
    out = []
    for kind, cs, taken in g.melds[seat]:
        hidden = kind == "wei" and face_down
        out.append({"kind": kind, "label": MELD_LABEL[kind],
                    "cards": ["??"] * 3 if hidden else [alias(c) for c in cs],
                    "claimed": None if kind == "wei" or taken < 0 else alias(taken)})
    return out


def phase_label(g: WeimaqueState) -> Text:
    if g.phase == OVER:
        return text("终局", "match over")
    if g.phase == CLAIM:
        what = "揭牌" if g.source == "draw" else "出牌"
        return text(f"{what}{char(g.exposed)}: 等待碰/吃/胡", f"{alias(g.exposed)} shown: claims")
    return text(f"{who(g.turn)}出牌", f"{who(g.turn)} to discard")


def _hand(g: WeimaqueState, seat: Seat) -> list[str]:
    return [alias(c) for c in cards_of(g.hands[seat])]


def build(g: WeimaqueState, viewer: int) -> View:
    melds = [meld_view(g, s, viewer) for s in range(4)]
    discards = [[alias(c) for c in d] for d in g.discards]
    seats = [seat_block(
        s, role(g, s), hand=_hand(g, s) if s != g.watcher and g.sees("hands", viewer, s) else None,
        hand_count=sum(g.hands[s]), groups=cast(list[GroupBlock], melds[s]), discards=discards[s],
        note=WATCHER_NOTE if s == g.watcher else None) for s in range(4)]
    middle = [center(text("底牌", "stock"), ["??"] * len(g.stock))]
    if g.exposed >= 0:
        label = text("揭出", "drawn") if g.source == "draw" else text("打出", "discarded")
        middle.append(center(label, [alias(g.exposed)]))
    cfg = g.config
    info = [text(f"第{g.hand_no}局 / 共{cfg.hands}局", f"hand {g.hand_no} of {cfg.hands}"),
            text(f"庄家 {who(g.dealer)}", f"dealer: {who(g.dealer)}"),
            text(f"守醒 {who(g.watcher)}", f"watcher: {who(g.watcher)}"),
            text(f"底牌剩 {len(g.stock)} 张", f"{len(g.stock)} cards in the stock")]
    if cfg.guozhang == "global" and g.guo:
        info.append(text("过张: " + "".join(char(c) for c in sorted(g.guo)),
                         "passed cards: " + " ".join(alias(c) for c in sorted(g.guo))))
    view: View = {
        "table": table_block("paper", phase_label(g), info, seats, center=middle, last_result=g.last_result),
        "hand_no": g.hand_no,
        "rules": g.rules,
        "dealer": g.dealer,
        "watcher": g.watcher,
        "players": list(g.players()),
        "phase": g.phase,
        "turn": g.turn if g.phase == DISCARD else None,
        "stock": len(g.stock),
        "last_card": g.last_card if g.exposed >= 0 else False,
        "exposed": None if g.exposed < 0 else {"card": alias(g.exposed), "source": g.source,
                                               "seat": g.source_seat},
        "melds": melds,
        "discards": discards,
        "played": [sorted(alias(c) for c in p) for p in g.played],
        "locked": [sorted(alias(c) for c in p) for p in g.locked],
        "hand_counts": [sum(h) for h in g.hands],
        "guozhang": sorted(alias(c) for c in g.guo) if cfg.guozhang == "global" else
        (sorted(alias(c) for c in g.passed[viewer]) if 0 <= viewer < 4 else []),
    }
    claim = g.claim
    if viewer == OMNISCIENT:
        view["stock_cards"] = [alias(c) for c in reversed(g.stock)]
        view["claim"] = {"options": {str(s): list(o) for s, o in claim.options.items()},
                         "answers": {str(s): a for s, a in claim.answers.items()},
                         "priority": [[s, k] for s, k in claim.priority]} if claim else None
        view["passed"] = [sorted(alias(c) for c in p) for p in g.passed]
    else:  # a claimant's own options (besides "pass") and its answer, once given
        view["claim"] = ({"options": list(claim.options[viewer]), "answer": claim.answers.get(viewer)}
                         if viewer in claim.options else None)
    if viewer >= 0 and viewer != g.watcher:
        view["hand"] = _hand(g, viewer)
        view["kan"] = [alias(k) for k in range(NUM_KINDS) if g.hands[viewer][k] >= 3]
    elif viewer == g.watcher or viewer == OMNISCIENT:
        view["hands"] = {str(s): _hand(g, s) for s in g.players()}
    return view


# ---- actions and refusals -------------------------------------------------------------------------
_SIMPLE = {"hu": text("胡", "win (hu)"), "peng": text("碰", "pung (peng)"), "pass": text("过", "pass")}


def label(g: WeimaqueState, action: str) -> Text:
    parts = action.split()
    try:
        if parts[0] == "discard":
            c = parse_card(parts[1])
            return text(f"出 {char(c)}", f"discard {alias(c)}")
        if parts[0] == "chi":
            a, b = parse_card(parts[1]), parse_card(parts[2])
            return text(f"吃 (用{char(a)}{char(b)})", f"chi with {alias(a)} {alias(b)}")
    except (IndexError, NotationError):
        return text(action, action)
    return _SIMPLE.get(action, text(action, action))


REASONS: dict[str, Text] = {
    "peng_pair": text("碰要手里有两张这个字", "a pung (peng) needs two of the card in hand"),
    "peng_guo": text("过张：这张牌出现过而没有人碰，不能再碰（过张牌不能碰）",
                     "a passed card: it was shown before and nobody punged it, so it cannot be punged now"),
    "peng_dead": text("碰了以后手里没有可以出的牌", "after this pung nothing in hand could be discarded"),
    "chi_cards": text("吃要用手里的两张牌", "a chi uses two cards from your hand"),
    "chi_run": text("吃要和手里两张成同一大小的一句顺子（大配大、小配小，二七十不算）",
                    "a chi makes a run of three within one size (big with big, small with small; 2-7-10 is no run)"),
    "chi_peng": text("可以碰的牌不能吃", "a card you could pung cannot be taken for a chi"),
    "chi_own": text("自己出过的牌不能吃", "you cannot chi a card you have discarded yourself"),
    "chi_guo": text("过张：这张牌出现过而没有人碰，不能吃（过张牌不能吃）",
                    "a passed card: it was shown before and nobody punged it, so it cannot be taken for a chi"),
    "chi_dead": text("吃了以后手里没有可以出的牌", "after this chi nothing in hand could be discarded"),
}
"""Why a 碰 or a 吃 is barred, by the key :meth:`WeimaqueState.peng_problem` / ``chi_problem`` gives."""


_ARITY = {"discard": 2, "chi": 3, "peng": 1, "hu": 1, "pass": 1}
"""Words in each action, by its verb."""


def explain(g: WeimaqueState, seat: Seat, action: str) -> Text | None:
    """Why ``action`` is refused, by the rule that forbids it; None for the generic reason."""
    if seat == g.watcher:
        return text("守醒不出牌，也从不做决定", "the watcher plays no card and never decides")
    parts = action.split()
    verb = parts[0] if parts else ""
    not_an_action = text(f"{action!r} 不是动作：可用 'discard x3'、'peng'、'chi x1 x2'、'hu' 或 'pass'",
                         f"{action!r} is not an action: try 'discard x3', 'peng', 'chi x1 x2', 'hu' or 'pass'")
    if len(parts) != _ARITY.get(verb, -1):
        return not_an_action
    try:
        if g.phase == DISCARD and verb == "discard":
            c = parse_card(parts[1])
            n = g.hands[seat][c]
            if not n:
                return text(f"你手里没有{char(c)}", f"you hold no {alias(c)}")
            if n >= 3:
                return text(f"你有三张{char(c)}（砍）：手中有三张相同的字不能出",
                            f"you hold three {alias(c)}: three of a kind cannot be discarded")
            if c in g.locked[seat]:
                return text(f"{char(c)}是你吃过或碰过的字，不能出（自己吃过或碰过的字不能出）",
                            f"you punged or took a chi with {alias(c)}: it cannot be discarded")
        if g.phase == CLAIM and g.exposed >= 0:
            c = g.exposed
            if verb == "hu":
                if g.source != "draw":
                    return text("出的牌不能和牌：只有揭出的牌能胡",
                                "only a drawn card can win; a discarded card never does")
                need = g.config.min_hard_xi
                return text(f"这张牌不能让你胡：要六句话、一个麻雀和至少{need}硬息",
                            f"this card does not complete your hand: six phrases, a pair and at least {need} hard xi")
            if verb == "peng":
                why = g.peng_problem(seat, c)
                if why:
                    return REASONS[why]
            if verb == "chi":
                if seat not in g.chi_seats():
                    return text("只能吃上家出的牌或自己揭的牌（下家出的或揭的牌不能吃）",
                                "chi only from the previous seat's discard or your own draw")
                why = g.chi_problem(seat, c, parse_card(parts[1]), parse_card(parts[2]))
                if why:
                    return REASONS[why]
        if g.phase == DISCARD and verb == "hu":
            return text("只有揭到的牌让手牌成胡时才能胡", "you can win only on a drawn card that completes your hand")
        if g.phase == DISCARD and verb in ("peng", "chi", "pass"):
            return text("没有可以碰或吃的牌：你要出牌", "no card is on offer: you must discard")
    except NotationError:
        return not_an_action
    return None


# ---- the settlement -------------------------------------------------------------------------------
def _line(zh: str, en: str, points: list[float] | tuple[float, ...] = NO_POINTS) -> dict[str, Any]:
    return {"zh": zh, "en": en, "points": list(points)}


_NOTE_EN = {"转弯": "a turn: the fourth copy in another group", "团圆": "reunion: all four copies"}
"""Why a group earns more 息, in English (the groups name it in Chinese)."""


def win_lines(win: Win, points: list[float]) -> list[dict[str, Any]]:
    """The win as the page counts it: each group's 硬息, the 硬息, each 名堂, the total (with the points)."""
    lines = []
    for x in win.lines:
        kind, cs = x.group
        note_zh = f" {x.note}" if x.note else ""
        note_en = f" ({_NOTE_EN.get(x.note, x.note)})" if x.note else ""
        lines.append(_line(f"{GROUP_ZH[kind]} {''.join(char(c) for c in cs)}{note_zh}: {x.xi} 息",
                           f"{GROUP_EN[kind]} {' '.join(alias(c) for c in cs)}{note_en}: {x.xi} xi"))
    lines.append(_line(f"硬息 {win.hard_xi}", f"hard xi {win.hard_xi}"))
    for h in win.mingtang:
        sign = "×" if h.kind == "mult" else "+"
        lines.append(_line(f"{h.zh} {sign}{h.value}", f"{h.en} {sign}{h.value}"))
    lines.append(_line(f"总息 {win.total}", f"total xi {win.total}", points))
    return lines


def win_result(g: WeimaqueState, seat: Seat, win: Win, points: list[float], drawn_by: Seat) -> dict[str, Any]:
    return result_block(text(f"{who(seat)}胡牌", f"{who(seat)} wins"), win_lines(win, points), points,
                        winner=seat, drawn_by=drawn_by, win=win.to_dict(), hand=g.hand_no)


def chou_result(g: WeimaqueState) -> dict[str, Any]:
    return result_block(text("臭(流局)", "drawn out"), [_line("无人胡牌", "nobody won")], list(NO_POINTS),
                        winner=None, hand=g.hand_no)


# ---- events --------------------------------------------------------------------------------------
def _card(token: Any) -> tuple[str, str]:
    """A card in an event as (character, alias); blanks for anything else."""
    try:
        c = parse_card(token)
    except (NotationError, TypeError):
        return "", ""
    return char(c), alias(c)


def _scores(points: list[float]) -> str:
    return seat_points(points)


def event_text(event: Event) -> Text:
    """One public event in words."""
    kind = event.get("type")
    s = event.get("seat")
    zh, en = _card(event.get("card"))
    if kind == "hand_start":
        return text(f"第{event.get('hand')}局：庄家 {who(event.get('dealer'))}，守醒 {who(event.get('watcher'))}",
                    f"hand {event.get('hand')}: dealer {who(event.get('dealer'))}, watcher {who(event.get('watcher'))}")
    if kind == "discard":
        return text(f"{who(s)} 出 {zh}", f"{who(s)} discards {en}")
    if kind == "draw":
        return text(f"{who(s)} 揭 {zh}（余 {event.get('stock')}）", f"{who(s)} draws {en} ({event.get('stock')} left)")
    if kind == "wei":
        return text(f"{who(s)} 煨（盖牌）", f"{who(s)} makes a wei (face down)")
    if kind == "played_out":
        return text(f"{who(s)} 打出 {zh}", f"{who(s)} plays out {en}")
    if kind == "peng":
        giver = who(event.get("from"))
        return text(f"{who(s)} 碰 {zh}（{giver}）", f"{who(s)} pungs {en} from {giver}")
    if kind == "chi":
        with_ = [_card(c) for c in event.get("with", [])]
        return text(f"{who(s)} 吃 {zh}（用{''.join(w[0] for w in with_)}）",
                    f"{who(s)} chis {en} with {' '.join(w[1] for w in with_)}")
    if kind == "hu":
        by = event.get("drawn_by")
        how_zh = "自己揭的" if by == s else f"{who(by)}揭的"
        how_en = "its own draw" if by == s else f"{who(by)}'s draw"
        return text(f"{who(s)} 胡 {zh}（{how_zh}）！", f"{who(s)} wins on {en} ({how_en})!")
    if kind == "chou":
        return text("臭了：无人胡牌", "drawn out: nobody won")
    if kind == "settle":
        title = event.get("title") or text("结算", "settlement")
        scores, totals = _scores(event.get("scores", [])), _scores(event.get("totals", []))
        win = event.get("win")
        if not win:
            return text(f"{title['zh']} {scores} · 累计 {totals}", f"{title['en']} {scores} · totals {totals}")
        mt_zh = "".join(f" {m['zh']}{'×' if m['kind'] == 'mult' else '+'}{m['value']}" for m in win["mingtang"])
        mt_en = "".join(f" {m['en']} {'×' if m['kind'] == 'mult' else '+'}{m['value']}" for m in win["mingtang"])
        return text(f"{title['zh']}：硬息 {win['hard_xi']}{mt_zh}，总息 {win['total']} · {scores} · 累计 {totals}",
                    f"{title['en']}: hard xi {win['hard_xi']}{mt_en}, total {win['total']} · {scores} · "
                    f"totals {totals}")
    if kind == "match_end":
        totals = _scores(event.get("totals", []))
        return text(f"终局 {totals}", f"match over {totals}")
    plain = " ".join(f"{k}={v}" for k, v in event.items())
    return text(plain, plain)
