"""Terminal hooks for 升级: the table drawn from a view, events in words, and card input.

The hand is shown in the current trump order (trumps first), one line per suit, so a player can read
off the cards to type: ``AS AS KD`` (``T`` for 10 and suit symbols ♠♥♣♦ also work).
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.core.cards import SUIT_EN, SUIT_SYMBOLS, SUIT_ZH, SUITS, card_text, parse_cards, pretty
from paiju.core.errors import NotationError
from paiju.core.game import Action, Event, View
from paiju.core.registry import Terminal

from .rules import TRUMP, order_for, suit_number

_SUIT_HEAD = {"zh": (*(f"{SUIT_SYMBOLS[s]} {SUIT_ZH[s]}" for s in SUITS), "主 trumps"),
              "en": (*(f"{SUIT_SYMBOLS[s]} {name}" for s, name in zip(SUITS, SUIT_EN, strict=True)), "trumps")}


def _card(text: str) -> str:
    if text in ("??",):
        return "[dim]??[/]"
    c = parse_cards(text)[0]
    p = pretty(c)
    if c >= 52:
        return f"[bold red]{p}[/]" if c == 53 else f"[bold]{p}[/]"
    return f"[red]{p}[/]" if text[-1] in "HD" else p


def _cards(cards: Sequence[str]) -> str:
    return " ".join(_card(c) for c in cards) if cards else "—"


def _pick(label: dict[str, str] | None, lang: str) -> str:
    if not label:
        return ""
    return label.get(lang) or label.get("en") or ""


def render(view: View, lang: str = "zh") -> str:
    """The table for one seat: info, seats with their cards in this trick, the hand grouped by suit."""
    t = view["table"]
    zh = lang == "zh"
    out = [f"[bold]升级 Shengji[/] · {_pick(t['phase'], lang)}"]
    out.extend("  " + _pick(line, lang) for line in t["info"])
    me = view["viewer"]
    for s in t["seats"]:
        you = (" [bold cyan]← 你 you[/]" if zh else " [bold cyan]← you[/]") if s["seat"] == me else ""
        role = _pick(s["role"], lang)
        bid = "".join(f"  {_pick(g['label'], lang)}: {_cards(g['cards'])}" for g in s["groups"])
        played = f"  出: {_cards(s['discards'])}" if s["discards"] else ""
        out.append(f"  {s['seat']}号 {role:<6} {s['hand_count']:>2}张{bid}{played}{you}")
    for c in t["center"]:
        if view["phase"] in ("bury", "play") or view["finished"]:
            out.append(f"  {_pick(c['label'], lang)}: {_cards(c['cards'])}")
    hand = view.get("hand")
    if hand:
        trump = view["trump"] if view["trump_set"] else None
        order = order_for(view["level"], suit_number(trump))
        groups: dict[int, list[str]] = {}
        for text in hand:
            groups.setdefault(order.suit[parse_cards(text)[0]], []).append(text)
        out.append("[bold]你的牌 your hand[/]" if zh else "[bold]your hand[/]")
        for s in [TRUMP, 0, 1, 2, 3]:
            if s in groups:
                out.append(f"  {_SUIT_HEAD['zh' if zh else 'en'][s]:<10} {_cards(groups[s])}")
    sel = t.get("select")
    if sel:
        n = sel["min"] if sel["min"] == sel["max"] else f"{sel['min']}–{sel['max']}"
        verb = sel["verb"]
        if verb == "bury":
            out.append(f"[bold yellow]扣底：选 {n} 张，输入如 3C 4D … · bury {n} cards: type e.g. 3C 4D …[/]")
        else:
            out.append(f"[bold yellow]出牌：选 {n} 张，输入如 AS AS · play {n} card(s): type e.g. AS AS[/]")
        out.append("[dim]S=♠ H=♥ C=♣ D=♦, 10 或 T, 大王 BJ 小王 SJ; 也可输入编号 · or a listed number[/]")
    last = t.get("last_result")
    if last and (view["phase"] == "deal" or view["finished"]):
        out.append(f"[bold]{_pick(last['title'], lang)}[/]")
        for line in last["lines"]:
            out.append(f"  {_pick(line, lang)}")
    return "\n".join(out)


def format_event(event: Event, lang: str = "zh") -> str:
    zh = lang == "zh"
    k = event["type"]
    if k == "bid":
        return f"{event['seat']}号亮主 {_cards(event['cards'])}" if zh else \
            f"seat {event['seat']} bids {_cards(event['cards'])}"
    if k == "trump":
        trump = event["trump"]
        name = SUIT_SYMBOLS.get(trump or "") or ("无主" if zh else "no-trump")
        how = (f"底牌第三张 {event['kitty_card']}" if zh else f"third kitty card {event['kitty_card']}") \
            if event["by"] is None else (f"{event['by']}号亮" if zh else f"seat {event['by']}'s bid")
        return (f"主牌 {name}（{how}），{event['dealer']}号坐庄" if zh
                else f"trump {name} ({how}); seat {event['dealer']} deals")
    if k == "kitty_taken":
        return f"{event['seat']}号拿底牌" if zh else f"seat {event['seat']} takes the kitty"
    if k == "buried":
        return f"{event['seat']}号扣底" if zh else f"seat {event['seat']} buries 12 cards"
    if k == "play":
        return f"{event['seat']}号出 {_cards(event['cards'])}" if zh else \
            f"seat {event['seat']} plays {_cards(event['cards'])}"
    if k == "throw_failed":
        return (f"{event['seat']}号甩牌 {_cards(event['tried'])} 失败（吃苍蝇 {event['penalty']} 分），"
                f"改出 {_cards(event['played'])}" if zh else
                f"seat {event['seat']}'s throw {_cards(event['tried'])} fails (penalty {event['penalty']}); "
                f"plays {_cards(event['played'])}")
    if k == "trick":
        return (f"{event['winner']}号赢这一轮，{event['points']}分；闲家共 {event['attacker_points']}" if zh else
                f"seat {event['winner']} wins the trick, {event['points']} points; "
                f"attackers {event['attacker_points']}")
    if k == "hand_end":
        kitty = f"{event['kitty_points']}×{event['kitty_factor']}"
        zh_out, en_out = _OUTCOME[event["outcome"]]
        n = event["levels_up"]
        return (f"第{event['hand']}局结束：闲家 {event['total']} 分（扣底 {kitty}），{zh_out.format(n=n)}，"
                f"级别 {event['levels']}" if zh else
                f"hand {event['hand']} over: attackers {event['total']} (kitty {kitty}), {en_out.format(n=n)}, "
                f"levels {event['levels']}")
    if k == "hand_start":
        return f"第{event['hand']}局，{event['dealer']}号坐庄" if zh else \
            f"hand {event['hand']}, seat {event['dealer']} deals"
    if k == "match_end":
        return f"比赛结束（{event['reason']}）" if zh else f"match over ({event['reason']})"
    return " ".join(f"{key}={v}" for key, v in event.items())


_OUTCOME = {
    "hold": ("庄家守庄升{n}级", "the dealer side holds, up {n}"),
    "take_over": ("闲家上台升{n}级", "the attackers take over, up {n}"),
    "shutout": ("光头，庄家过局", "光头: the dealer side passes A"),
    "sweep": ("全捡，闲家过局", "全捡: the attackers pass A"),
}

_SYMBOLS = {**{sym: s for s, sym in SUIT_SYMBOLS.items()}, "大王": "BJ", "小王": "SJ"}


def parse_input(text: str, legal: Sequence[Action]) -> Action | None:
    """Cards typed without the verb (``AS AS``), suit symbols, ``p`` for pass; None if unreadable."""
    raw = text.strip()
    for sym, letter in _SYMBOLS.items():
        raw = raw.replace(sym, letter)
    if raw.lower() in ("p", "pass", "不亮", "过"):
        return "pass" if "pass" in legal else None
    verb = next((a.partition(" ")[0] for a in legal if a.partition(" ")[0] in ("play", "bury")), None)
    head = raw.split(" ", 1)[0].lower()
    if head in ("play", "bury", "bid"):
        body = raw.split(" ", 1)[1] if " " in raw else ""
        verb = head
    else:
        body = raw
        if verb is None:
            verb = "bid" if any(a.startswith("bid ") for a in legal) else None
    if verb is None:
        return None
    try:
        cards = parse_cards(body.replace(",", " ").upper())
    except NotationError:
        return None
    if not cards:
        return None
    return verb + " " + " ".join(card_text(c) for c in cards)


TERMINAL = Terminal(render=render, format_event=format_event, parse_input=parse_input)
"""This game's terminal hooks (its registry entry names them): its own renderer until its view is ported."""
