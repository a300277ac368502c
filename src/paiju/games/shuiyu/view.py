"""What each viewer of a 水鱼 table sees, and every word the game shows: the view with its display block,
action labels, refusal reasons, settlement lines and event text, in Chinese and English.

Built from the declared state (:mod:`.state`): a hand, its arrangement and its class are shown exactly where
``game.sees("hands", viewer, seat)`` says, calls and responses where the declaration says.
"""

from __future__ import annotations

from typing import Any

from paiju.core.cards import card_text, parse_card, pretty
from paiju.core.display import group, result_block, seat_block, seat_points, table_block, who
from paiju.core.errors import NotationError
from paiju.core.terms import OMNISCIENT, Event, Text, View, text

from .rules import ANSWER_OF, PLAYER_CALLS, Arrangement, PlayerResult
from .state import Phase, ShuiyuState, sees_hand

LABELS: dict[str, tuple[str, str]] = {
    "open": ("开牌", "open"),
    "cover": ("盖牌", "cover"),
    "force": ("强奸", "force (open: both groups win)"),
    "attack": ("进攻", "attack (covered: both groups win)"),
    "push": ("走水", "push (ask to call it even)"),
    "show": ("亮牌", "show"),
    "kill": ("杀", "kill"),
    "walk": ("走过", "walk (even)"),
    "call": ("开牌", "call (turn it up)"),
    "concede": ("不看", "concede"),
    "accept": ("接受", "accept"),
    "refuse": ("不接受", "refuse"),
    "allow": ("同意", "allow"),
    "deny": ("不同意", "deny"),
    "believe": ("信", "believe"),
    "doubt": ("不信", "doubt"),
    "drink": ("认喝", "drink"),
    "compare": ("比牌", "compare"),
    "split": ("摆牌", "split"),
}
"""Action word -> (zh, en) on buttons."""

PHASE_LABELS: dict[str, tuple[str, str]] = {
    Phase.ARRANGE: ("摆牌", "arrange head and tail"),
    Phase.CALL: ("闲家开牌/盖牌", "players open or cover"),
    Phase.ANSWER: ("庄家话事", "the banker answers"),
    Phase.RESPOND: ("闲家回应", "players respond"),
    Phase.OVER: ("结束", "match over"),
}

KIND_LABELS = {"shuiyu": ("水鱼", "two pairs"), "zhizun": ("至尊", "four of a kind"), "plain": ("", "")}

SHORT = {k: (zh, en.split(" (")[0]) for k, (zh, en) in LABELS.items()}
"""Action word -> (zh, en) without the English explanation: for notes and log lines."""

_TEXT = [card_text(c) for c in range(52)]
_BANKER = text("庄", "banker")
_PLAYER = text("闲", "player")
_HEAD = text("头", "head")
_TAIL = text("尾", "tail")


_NUMERALS = {ch: str(n) for n, ch in enumerate("一二三四五六七八九十", 1)}


def _rule_en(line: str) -> str:
    """A rule's number on the page in English digits: ``一.9`` → ``1.9``."""
    return "".join(_NUMERALS.get(ch, ch) for ch in line)


# ---- the view -----------------------------------------------------------------------------------
def note(kind: str | None, steps: tuple[str | None, ...], deciding: bool) -> Text | None:
    """A seat's line on the table: its 水鱼/至尊, its call, the banker's answer, its response."""
    zh: list[str] = []
    en: list[str] = []
    if kind in ("shuiyu", "zhizun"):
        zh.append(KIND_LABELS[kind][0])
        en.append(KIND_LABELS[kind][1])
    for x in steps:
        if x:
            zh.append(SHORT[x][0])
            en.append(SHORT[x][1])
    if not zh:
        return text("思考中", "deciding") if deciding else None
    return text("·".join(zh), ", ".join(en))


def arr_json(arr: Arrangement | None) -> dict[str, list[str]] | None:
    if arr is None:
        return None
    (a, b), (c, d) = arr
    return {"head": [_TEXT[a], _TEXT[b]], "tail": [_TEXT[c], _TEXT[d]]}


def build(g: ShuiyuState, viewer: int) -> View:
    n, b = g.n, g.banker
    over = g.finished
    pending = set(g.pending) if g.phase in (Phase.ARRANGE, Phase.CALL, Phase.RESPOND) else set()
    hands: list[list[str] | None] = []
    arrangement: list[dict[str, list[str]] | None] = []
    kinds: list[str | None] = []
    calls: list[str | None] = []
    responses: list[str | None] = []
    seats = []
    for s in range(n):
        visible = g.sees("hands", viewer, s)
        hand = [_TEXT[c] for c in g.hands[s]] if visible else None
        arr = arr_json(g.arr[s]) if visible else None
        kind = g.kinds[s] if visible else None
        call = g.calls[s] if g.sees("calls", viewer, s) else None
        response = g.responses[s] if g.sees("responses", viewer, s) else None
        hands.append(hand)
        arrangement.append(arr)
        kinds.append(kind)
        calls.append(call)
        responses.append(response)
        seats.append(seat_block(
            s, _BANKER if s == b else _PLAYER, hand=hand, hand_count=4,
            groups=[group(_HEAD, arr["head"]), group(_TAIL, arr["tail"])] if arr is not None else [],
            note=note(kind if g.public[s] or over else None, (call, g.answers[s], response), s in pending)))
    rnd = g.rounds_played + (0 if over else 1)
    zh_phase, en_phase = PHASE_LABELS[g.phase]
    totals = "  ".join(f"{who(s)} {t:+g}" for s, t in enumerate(g.total))
    info = [text(f"第{rnd}/{g.config.rounds}局 庄家：{who(b)}", f"round {rnd}/{g.config.rounds}, banker: {who(b)}"),
            text("总分 " + totals, "totals " + totals)]
    out: View = {
        "you": viewer, "banker": b, "round": rnd, "rounds": g.config.rounds, "phase": g.phase,
        "hands": hands, "arrangement": arrangement, "kinds": kinds,
        "arranged": [a is not None for a in g.arr],
        "decided": [s not in pending for s in range(n)],
        "calls": calls, "answers": list(g.answers), "responses": responses,
        "drinks": list(g.drinks), "rules": g._rules,
        "last_round": last_round(g, viewer),
        "table": table_block("french", text(zh_phase, en_phase), info, seats, last_result=g.last_result),
    }
    if viewer == OMNISCIENT:  # every hidden fact: hands, calls and responses are above; the undealt cards
        out["stock"] = [_TEXT[c] for c in g.stock]
    return out


def last_round(g: ShuiyuState, viewer: int) -> dict[str, Any] | None:
    """The previous round's hands as this viewer saw them at its settlement (cached: it changes only then)."""
    prev = g.prev
    if prev is None:
        return None
    cached = g._prev_views.get(viewer)
    if cached is None:
        hands = [arr_json(prev["arr"][s]) if sees_hand(viewer, s, prev["public"], prev["seen"]) else None
                 for s in range(g.n)]
        cached = {"round": prev["round"], "banker": prev["banker"], "arrangement": hands,
                  "calls": list(prev["calls"]), "answers": list(prev["answers"]),
                  "responses": list(prev["responses"])}
        g._prev_views[viewer] = cached
    return cached


# ---- actions and refusals -------------------------------------------------------------------------
def label(g: ShuiyuState, action: str) -> Text:
    """An action on a button: ``cover`` → 盖牌 / cover; ``kill 2`` → 杀 闲家2 / kill: seat 2."""
    word, _, rest = action.partition(" ")
    if word not in LABELS:
        return text(action, action)
    zh, en = LABELS[word]
    if word == "split":
        head, _, tail = rest.partition(" | ")
        return text(f"头 {head} · 尾 {tail}", f"head {head} · tail {tail}")
    if rest:
        return text(f"{zh} {who(rest)}", f"{en}: {who(rest)}")
    return text(zh, en)


def explain(g: ShuiyuState, seat: int, action: str) -> Text | None:
    """Why ``action`` is refused, by the rule that forbids it; None for the generic reason."""
    word, _, rest = action.partition(" ")
    kind = g.kinds[seat]
    if g.phase == Phase.CALL and kind != "plain" and word in PLAYER_CALLS:
        name = KIND_LABELS[kind][0]
        return text(f"{name}必须亮牌（§六(二)），不能{LABELS[word][0]}；只能 'show'",
                    f"a {KIND_LABELS[kind][1]} must be shown (page §6.2): it cannot {word}; the only action is 'show'")
    if g.phase == Phase.CALL and word in ("force", "attack", "push"):
        return text(f"本桌规则不允许{LABELS[word][0]}",
                    f"{word} ({LABELS[word][0]}) is switched off in this table's rules")
    if g.phase == Phase.ARRANGE and word == "split":
        if kind != "plain":
            name = KIND_LABELS[kind][0]
            only = g.legal_actions(seat)[0]
            return text(f"{name}只能摆成两对：{only}", f"a {name} is arranged as its two pairs: {only}")
        yours = ", ".join(g.legal_actions(seat))
        return text(f"{rest!r} 不是你这四张牌的摆法；可以：{yours}",
                    f"{rest!r} is not a split of your four cards; yours: {yours}")
    if g.phase == Phase.ANSWER and word in {a for answers in ANSWER_OF.values() for a in answers}:
        target = int(rest) if rest.isdigit() else -1
        if not 0 <= target < g.n or target == g.banker:
            example = f"{word} {g.players()[0]}"
            return text(f"按座位号回应闲家，例如 '{example}'", f"answer a player by seat number, e.g. '{example}'")
        call = g.calls[target]
        if call not in ANSWER_OF:
            return text(f"座{target}{LABELS[call or 'show'][0]}：庄家不用回应",
                        f"seat {target} called {call}: the banker has nothing to answer there")
        done = g.answers[target]
        if done is not None:
            return text(f"座{target}已经回应过了（{LABELS[done][0]}）",
                        f"seat {target} has already been answered ({done})")
        targets = g.answer_targets()
        if call != "open" and targets and g.calls[targets[0]] == "open":
            waiting = ", ".join(str(p) for p in targets)
            return text(f"庄家先回应开牌的闲家（§五 6）：还有座 {waiting}",
                        f"the banker answers the open hands first (page §5.6): seat(s) {waiting} still open")
        words = " / ".join(ANSWER_OF[call])
        return text(f"座{target}{LABELS[call][0]}，回应 {words}",
                    f"seat {target} {LABELS[call][0]} is answered with {words}")
    return None


# ---- settlement and events ----------------------------------------------------------------------
def settlement_line(g: ShuiyuState, p: int, res: PlayerResult, row: list[float]) -> dict[str, Any]:
    """One player's line of the settlement: the calls as played, the showdown, who drinks, the page's line."""
    d, result = res.drink, res.result
    who_zh = {"banker": "庄家", "player": f"{who(p)}", "nobody": "无人"}[d.drinker]
    who_en = {"banker": "the banker", "player": f"{who(p)}", "nobody": "nobody"}[d.drinker]
    res_zh = {"banker": "庄大", "player": "闲大", "walk": "走过"}[result]
    if res.call != "show":
        steps = [x for x in (res.call, g.answers[p], g.responses[p]) if x]
        steps_zh = [LABELS[x][0] for x in steps]
        steps_en = [SHORT[x][1] for x in steps]
    else:
        steps_zh = [KIND_LABELS[g.kinds[p]][0] or "普通", "对", KIND_LABELS[g.kinds[g.banker]][0] or "普通"]
        steps_en = [g.kinds[p], "vs banker", g.kinds[g.banker]]
    drinks_zh = f"{who_zh}喝{d.mult}倍" if d.mult else "都不用喝"
    drinks_en = f"{who_en} drinks ×{d.mult}" if d.mult else "nobody drinks"
    compared = d.case.endswith(("_banker", "_player", "_walk"))
    resplit = None
    if res.resplit is not None:  # 强奸: how the banker split the cards it may arrange
        whose = g.config.force_rearrange
        resplit = {"whose": whose, **(arr_json(res.resplit) or {})}
        shown = f"{' '.join(resplit['head'])} | {' '.join(resplit['tail'])}"
        steps_zh.append(f"庄家组{'闲家' if whose == 'player' else '自己'}的牌 {shown}")
        owner = "the player's" if whose == "player" else "its own"
        steps_en.append(f"the banker splits {owner} cards {shown}")
    line = {
        "seat": p, "rule": d.line, "case": d.case, "mult": d.mult, "drinker": d.drinker,
        "zh": f"{who(p)}：{'·'.join(steps_zh)}{'（' + res_zh + '）' if compared else ''} → {drinks_zh}"
              f"（规则{d.line}）",
        "en": f"{who(p)}: {', '.join(steps_en)}{' (' + result + ')' if compared else ''} → {drinks_en}"
              f" (rule {_rule_en(d.line)})",
        "points": row,
    }
    if resplit is not None:
        line["resplit"] = resplit
    return line


def round_result(rnd: int, banker: int, lines: list[dict[str, Any]], scores: list[float],
                 drank: list[int]) -> dict[str, Any]:
    return result_block(text(f"第{rnd}局 结算", f"round {rnd} settlement"), lines, scores, round=rnd,
                        banker=banker, drinks=drank)


def _cards(texts: list[str]) -> str:
    out = []
    for t in texts:
        try:
            out.append(pretty(parse_card(t)))
        except NotationError:
            out.append(t)
    return " ".join(out)


def _short(word: str | None) -> tuple[str, str]:
    return SHORT.get(word or "", (word or "", word or ""))


def event_text(event: Event) -> Text:
    """One public event in words."""
    kind = event.get("type")
    s = event.get("seat")
    if kind == "arranged":
        return text(f"{who(s)} 摆好牌", f"{who(s)} has split its hand")
    if kind == "decided":
        return text(f"{who(s)} 已决定", f"{who(s)} has decided")
    if kind == "special":
        zh, en = KIND_LABELS[event["kind"]]
        cards = _cards(event["cards"])
        return text(f"{'庄家' if event['banker'] else f'{who(s)}'} 亮{zh}：{cards}",
                    f"{'the banker' if event['banker'] else f'{who(s)}'} shows {en}: {cards}")
    if kind == "calls":
        calls = [(c["seat"], _short(c["call"])) for c in event["calls"]]
        return text("闲家叫牌：" + "  ".join(f"{who(p)} {w[0]}" for p, w in calls),
                    "calls: " + "  ".join(f"{who(p)} {w[1]}" for p, w in calls))
    if kind == "open_hand":
        zh, en = _short(event["call"])
        cards = _cards(event["cards"])
        return text(f"{who(s)} {zh}：{cards}", f"{who(s)} {en}: {cards}")
    if kind == "answer":
        zh, en = _short(event["answer"])
        return text(f"庄家对{who(event['target'])}：{zh}", f"the banker to {who(event['target'])}: {en}")
    if kind == "responses":
        rs = [(r["seat"], _short(r["response"])) for r in event["responses"]]
        return text("回应：" + "  ".join(f"{who(p)} {w[0]}" for p, w in rs),
                    "responses: " + "  ".join(f"{who(p)} {w[1]}" for p, w in rs))
    if kind == "settlement":
        totals = seat_points(event["totals"])
        return text("\n".join([f"第{event['round']}局结算", *(f"  {ln['zh']}" for ln in event["lines"]),
                               f"  总分 {totals}"]),
                    "\n".join([f"round {event['round']} settlement", *(f"  {ln['en']}" for ln in event["lines"]),
                               f"  totals {totals}"]))
    if kind == "deal":
        return text(f"第{event['round']}局发牌，庄家：{who(event['banker'])}",
                    f"round {event['round']} dealt, banker: {who(event['banker'])}")
    if kind == "match_end":
        totals = seat_points(event["totals"])
        return text(f"终局，总分 {totals}", f"match over, totals {totals}")
    plain = " ".join(f"{k}={v}" for k, v in event.items())
    return text(plain, plain)
