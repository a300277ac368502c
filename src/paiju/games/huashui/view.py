"""What each viewer of a 滑水 table sees, and every word the game shows: the view with its display block,
action labels, refusal reasons, payment lines and event text, in Chinese and English.
"""

from __future__ import annotations

from typing import Any

from paiju.core.display import center, group, seat_block, seat_points, table_block, who
from paiju.core.terms import OMNISCIENT, Event, Seat, Text, View, text

from .rules import WinPayment
from .state import (
    ACTIONS,
    CLAIM,
    HU,
    KONG_CONCEALED,
    OVER,
    PASS,
    PUNG,
    ROB,
    TURN,
    HuashuiState,
)
from .tiles import TILE_TEXT, Tile, tile_en, tile_zh

MELD_LABEL = {
    PUNG: text("碰", "pung"),
    "kong_exposed": text("放杠", "kong (discard)"),
    "kong_added": text("过路杠", "kong (added)"),
    KONG_CONCEALED: text("暗杠", "kong (concealed)"),
}

PHASE_LABEL = {
    TURN: text("出牌", "turn"),
    CLAIM: text("吃碰胡决定中", "claim window"),
    ROB: text("抢杠决定中", "robbing window"),
    OVER: text("终局", "match over"),
}

_REPEAT = tuple(tuple((t,) * n for n in range(5)) for t in TILE_TEXT)


# ---- the view -----------------------------------------------------------------------------------
def hand_text(g: HuashuiState, seat: Seat) -> list[str]:
    """``seat``'s concealed tiles in order, as text (cached until the next action)."""
    if g._text_at != g._version:
        g._text = {}
        g._text_at = g._version
    got = g._text.get(seat)
    if got is None:
        got = []
        for t, n in enumerate(g.counts[seat]):
            if n:
                got.extend(_REPEAT[t][n])
        g._text[seat] = got
    return list(got)


def meld_view(g: HuashuiState, seat: Seat, viewer: int) -> list[dict[str, Any]]:
    out = []
    for kind, t, src in g.melds[seat]:
        tile = TILE_TEXT[t]
        n = 3 if kind == PUNG else 4
        # the page: one tile of a 暗杠 is turned up for all to see
        shown = [tile, "??", "??", "??"] if kind == KONG_CONCEALED and viewer not in (seat, OMNISCIENT) else [tile] * n
        out.append({"type": kind, "tile": tile, "from": src, "cards": shown})
    return out


def build(g: HuashuiState, viewer: int) -> View:
    omni = viewer == OMNISCIENT
    own = 0 <= viewer < 4
    melds = [meld_view(g, s, viewer) for s in range(4)]
    seats = [seat_block(
        s, text("庄", "dealer") if s == g.dealer else text("闲", "player"),
        hand=hand_text(g, s) if g.sees("counts", viewer, s) else None, hand_count=sum(g.counts[s]),
        groups=[group(MELD_LABEL[m["type"]], m["cards"]) for m in melds[s]],
        discards=[TILE_TEXT[t] for t in g.discards[s]],
        note=text("出牌中", "to play") if g.phase == TURN and s == g.current else None) for s in range(4)]
    wall_left = g.back - g.front
    n = min(g.hand_no + 1, g.config.hands)
    info = [text(f"第{n}局 / 共{g.config.hands}局", f"hand {n} of {g.config.hands}"),
            text(f"骰子 {g.dice[0]}+{g.dice[1]}", f"dice {g.dice[0]}+{g.dice[1]}"),
            text(f"余牌 {wall_left}", f"wall {wall_left} left")]
    middle = []
    if g.phase in (CLAIM, ROB):
        label = text("打出", "discard") if g.phase == CLAIM else text("补杠", "added kong")
        middle.append(center(label, [TILE_TEXT[g.claim_tile]]))
    claim = g.claim
    out: View = {
        "hand_no": g.hand_no + 1 if g.phase != OVER else g.hand_no,
        "hands": g.config.hands,
        "dealer": g.dealer,
        "dice": list(g.dice),
        "wall": wall_left,
        "phase": g.phase,
        "current": g.current if g.phase == TURN else g.claim_from if g.phase != OVER else None,
        "hand": hand_text(g, viewer) if own else None,
        "drawn": (TILE_TEXT[g.last_drawn] if own and viewer == g.current and g.phase == TURN and g.drew
                  and g.last_drawn is not None else None),
        "melds": melds,
        "discards": [[TILE_TEXT[t] for t in d] for d in g.discards],
        "hand_counts": [sum(c) for c in g.counts],
        "last_discard": ({"seat": g.last_discard[0], "tile": TILE_TEXT[g.last_discard[1]]}
                         if g.last_discard is not None else None),
        "claim": ({"tile": TILE_TEXT[g.claim_tile], "from": g.claim_from, "robbing": g.phase == ROB,
                   "options": list(claim.options[viewer])}
                  if g.phase in (CLAIM, ROB) and claim.may_answer(viewer) else None),
        "locked": (("all" if g.lock_all[viewer] else sorted(TILE_TEXT[t] for t in g.locks[viewer]))
                   if own else None),
        # what the seat knows that decides its own later choices, so that a game can be rebuilt from its view
        # (issue 37): the pungs it made holding the fourth (no 过路杠 with it) and its answer in an open window
        "held_fourth": sorted(TILE_TEXT[t] for t in g.held_fourth[viewer]) if own else None,
        "answered": claim.answers.get(viewer) if own and g.phase in (CLAIM, ROB) else None,
        # how the current seat's turn began, which everyone saw: a draw, a kong's replacement, or a pung
        "turn_start": (("replacement" if g.after_kong else "draw") if g.drew else "pung") if g.phase == TURN else None,
        "rules": g.rules,
        "pending_lines": list(g.hand_lines),  # the engine appends to its own list: a view keeps no alias of it
        "gen_zhuang": {"active": g.gen_active, "tile": TILE_TEXT[g.gen_tile] if g.gen_tile >= 0 else None,
                       "count": g.first_discards},
        "last_result": g.last_result,
        "table": table_block("tile", PHASE_LABEL[g.phase], info, seats, center=middle, last_result=g.last_result),
    }
    if omni:  # every hidden fact: hands, the wall, the drawn tile, claim options and answers, what each knows
        out["all_hands"] = [hand_text(g, s) for s in range(4)]
        out["wall_tiles"] = [TILE_TEXT[t] for t in g.wall[g.front:g.back]]
        out["drawn"] = TILE_TEXT[g.last_drawn] if g.last_drawn is not None else None
        out["claim"] = ({"tile": TILE_TEXT[g.claim_tile], "from": g.claim_from, "robbing": g.phase == ROB,
                         "options": [claim.options.get(s) for s in range(4)],
                         "answers": [claim.answers.get(s) for s in range(4)]}
                        if g.phase in (CLAIM, ROB) else None)
        out["locked"] = ["all" if g.lock_all[s] else sorted(TILE_TEXT[t] for t in g.locks[s]) for s in range(4)]
        out["held_fourth"] = [sorted(TILE_TEXT[t] for t in g.held_fourth[s]) for s in range(4)]
    return out


# ---- actions and refusals -------------------------------------------------------------------------
def label(g: HuashuiState, action: str) -> Text:
    verb, tile = ACTIONS.get(action, ("", -1))
    if verb == HU:
        return text("胡", "win (hu)")
    if verb == PASS:
        return text("过", "pass")
    words = {"discard": ("打", "discard"), "pung": ("碰", "pung"), "kong": ("杠", "kong")}.get(verb)
    if words is None:
        return text(action, action)
    return text(f"{words[0]} {tile_zh(tile)}", f"{words[1]} {tile_en(tile)}")


def explain(g: HuashuiState, seat: Seat, action: str) -> Text | None:
    """Why ``action`` is refused, by the rule that forbids it; None for the generic reason."""
    verb, tile = ACTIONS.get(action, ("", -1))
    if action.startswith("chi") or action.startswith("chow"):
        return text("滑水麻将只可碰，可杠，不可吃牌",
                    "no chow in Huashui mahjong: pung and kong only")
    if action in ("pung", "kong"):
        zh = "碰" if action == "pung" else "杠"
        return text(f"{zh}：现在没有可{zh}的牌", f"{action}: there is no tile you can {action} now")
    if not verb:
        return text(f"{action!r} 不是动作：可用 'discard 5m'、'kong 5m'、'pung 5m'、'hu'、'pass'",
                    f"{action!r} is not an action: use 'discard 5m', 'kong 5m', 'pung 5m', 'hu' or 'pass'")
    if g.phase == TURN:
        if verb == HU:
            if g.drew:
                return text("胡：手牌还不成胡（四副加一对，或对胡）",
                            "hu: your hand is not complete (four sets and a pair, or the pairs hands)")
            return text("胡：碰牌后要先出牌；自摸要有摸到的牌",
                        "hu: after a pung you must discard; a self-drawn win needs a drawn tile")
        if verb == "kong":
            if g.back <= g.front:
                return text("杠：牌墙已空，没有补牌", "kong: the wall is empty, there is no replacement tile")
            if tile in g.held_fourth[seat] and g.counts[seat][tile]:
                return text(f"杠 {tile_zh(tile)}：过路杠要碰牌后又自己摸到第四张；碰的时候已经在手里的这张不能补杠",
                            f"kong {tile_en(tile)}: an added kong needs the fourth tile drawn after the pung; "
                            "you already held this one when you punged")
            return text(f"杠 {tile_zh(tile)}：要手里有四张，或碰过再有第四张",
                        f"kong {tile_en(tile)}: you need four in hand or a pung of it plus the fourth")
        if verb == "discard":
            return text(f"打 {tile_zh(tile)}：你手里没有这张",
                        f"discard {tile_en(tile)}: that tile is not in your hand")
        return text(f"{action}：现在是出牌，没有可碰杠胡的牌",
                    f"{action}: nothing to claim now, it is a turn (discard, kong or hu)")
    if verb == HU and (g.lock_all[seat] or g.claim_tile in g.locks[seat]):
        return text("胡：过胡锁定（特殊规则4）——这一圈你放过了这张胡",
                    "hu: pass lock (special rule 4) — you declined this win earlier in the go-around")
    return None


# ---- payments and results -------------------------------------------------------------------------
def payment_line(zh: str, en: str, points: list[int]) -> dict[str, Any]:
    return {"zh": zh, "en": en, "points": points}


def kong_line(kind: str, tile: Tile, amount: int, points: list[int]) -> dict[str, Any]:
    zh, en = {KONG_CONCEALED: ("暗杠", "concealed kong"), "kong_added": ("过路杠", "added kong"),
              "kong_exposed": ("放杠", "kong on a discard")}[kind]
    pays_zh, pays_en = (("放杠者付", "the discarder pays") if kind == "kong_exposed"
                        else ("每家付", "each other pays"))
    return payment_line(f"{zh} {tile_zh(tile)}: {pays_zh} {amount}", f"{en} {tile_en(tile)}: {pays_en} {amount}",
                        points)


def follow_line(tile: Tile, amount: int, points: list[int]) -> dict[str, Any]:
    return payment_line(f"跟庄 {tile_zh(tile)}: 庄家付每家 {amount}",
                        f"follow the dealer ({tile_en(tile)}): dealer pays each {amount}", points)


MULTIPLIER_NAMES = {"rob": ("抢杠", "robbing the kong"), "dui_hu": ("对胡", "seven pairs"),
                    "kong_draw": ("杠开", "win on a kong replacement")}


def win_line(winner: Seat, payer: Seat, pay: WinPayment) -> dict[str, Any]:
    """``seat 2 wins: self-drawn win 4 ×3 (win on a kong replacement) → each other pays 12``."""
    if pay.how == "self":
        zh, en = f"自摸 {pay.base}", f"self-drawn win {pay.base}"
        zh_pay, en_pay = f"每家付 {pay.amount}", f"each other pays {pay.amount}"
    else:
        rob = pay.how == "rob"
        zh = f"{'抢杠' if rob else '点炮'} {pay.base}"
        en = f"{'robbing a kong' if rob else 'win on a discard'} {pay.base}"
        zh_pay, en_pay = f"{who(payer)}付 {pay.amount}", f"{who(payer)} pays {pay.amount}"
    mult_zh = "".join(f" ×{m}({MULTIPLIER_NAMES[k][0]})" for k, m in pay.multipliers)
    mult_en = "".join(f" ×{m} ({MULTIPLIER_NAMES[k][1]})" for k, m in pay.multipliers)
    return payment_line(f"{who(winner)} 胡: {zh}{mult_zh} → {zh_pay}",
                        f"{who(winner)} wins: {en}{mult_en} → {en_pay}", pay.points)


def drawn_line() -> dict[str, Any]:
    return payment_line("流局 (黄牌): 不得分也不失分", "drawn hand: nobody gains or loses", [0, 0, 0, 0])


def hand_title(hand: int, won: bool) -> Text:
    return text(f"第{hand}局 胡牌", f"hand {hand}: won") if won else text(f"第{hand}局 流局", f"hand {hand}: drawn")


# ---- events --------------------------------------------------------------------------------------
_KONG = {KONG_CONCEALED: ("暗杠", "concealed kong"), "kong_added": ("过路杠", "added kong"),
         "kong_exposed": ("放杠", "kong on a discard")}


def _won(how: str, winners: list[int], payer: Any, tz: str, te: str) -> tuple[str, str]:
    """Who won on what, in both languages.  点炮 names the one whose discard was won on, never the winner: "胡 东，
    阿禄 点炮" (issue 33); a robbed kong names the seat that added to its pung."""
    zh_who, en_who = "、".join(who(w) for w in winners), ", ".join(who(w) for w in winners)
    en_verb = "wins" if len(winners) == 1 else "win"
    if how == "self":
        return f"{zh_who} 自摸 {tz}", f"{en_who} {en_verb} on a self-drawn {te}"
    if how == "rob":
        return f"{zh_who} 抢 {who(payer)} 的杠 {tz}", f"{en_who} {en_verb} on {te}, robbing {who(payer)}'s kong"
    return f"{zh_who} 胡 {tz}，{who(payer)} 点炮", f"{en_who} {en_verb} on {te}, discarded by {who(payer)}"


def _tile(t: Any) -> tuple[str, str]:
    if not isinstance(t, str) or t not in TILE_TEXT:
        return "", ""
    n = TILE_TEXT.index(t)
    return tile_zh(n), tile_en(n)


def event_text(event: Event) -> Text:
    """One public event in words."""
    kind = event.get("type")
    s = event.get("seat")
    tz, te = _tile(event.get("tile"))
    if kind == "discard":
        return text(f"{who(s)} 打 {tz}", f"{who(s)} discards {te}")
    if kind == "draw":
        extra = ("（杠后补牌）", " (kong replacement)") if event.get("replacement") else ("", "")
        return text(f"{who(s)} 摸牌{extra[0]}，余 {event.get('wall')}",
                    f"{who(s)} draws{extra[1]}, {event.get('wall')} left")
    if kind == "pung":
        return text(f"{who(s)} 碰 {tz}（{who(event.get('from'))}打出）",
                    f"{who(s)} pungs {te} from {who(event.get('from'))}")
    if kind == "kong":
        zh, en = _KONG.get(str(event.get("kind")), ("杠", "kong"))
        return text(f"{who(s)} {zh} {tz}", f"{who(s)} {en} {te}")
    if kind == "follow_dealer":
        return text(f"跟庄 {tz}：庄家付每家 {event.get('amount')}",
                    f"follow the dealer on {te}: the dealer pays each {event.get('amount')}")
    if kind == "win":
        winners = event.get("seats", [])
        hands = event.get("hands", {})
        shown_zh = "；".join(f"{who(w)}：{''.join(_tile(t)[0] for t in h)}" for w, h in hands.items())
        shown_en = "; ".join(f"{who(w)}: {' '.join(h)}" for w, h in hands.items())
        won_zh, won_en = _won(str(event.get("how")), winners, event.get("from"), tz, te)
        return text(f"胡！{won_zh} · {shown_zh}", f"win: {won_en} · {shown_en}")
    if kind == "drawn_hand":
        return text("流局：牌墙摸完", "drawn hand: the wall is empty")
    if kind == "settlement":
        scores, totals = seat_points(event.get("scores", [])), seat_points(event.get("totals", []))
        title = event.get("title") or text("", "")
        return text(f"{title['zh']} {scores} · 累计 {totals}", f"{title['en']} {scores} · totals {totals}")
    if kind == "hand_start":
        dice = event.get("dice", [0, 0])
        return text(f"第{event.get('hand')}局：庄家 {who(event.get('dealer'))}，骰子 {dice[0]}+{dice[1]}",
                    f"hand {event.get('hand')}: dealer {who(event.get('dealer'))}, dice {dice[0]}+{dice[1]}")
    if kind == "match_over":
        totals = seat_points(event.get("totals", []))
        return text(f"终局 {totals}", f"match over {totals}")
    plain = " ".join(f"{k}={v}" for k, v in event.items())
    return text(plain, plain)
