"""Terminal hooks for 偎麻雀: draw the table (characters, reds in red), label events, read typed moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.core.errors import NotationError
from paiju.core.registry import Terminal

from .cards import alias, char, is_red, parse_card, parse_cards


def _card(token: str) -> str:
    if token == "??":
        return "[dim]▒[/]"
    c = parse_card(token)
    return f"[bold red]{char(c)}[/]" if is_red(c) else f"[bold]{char(c)}[/]"


def _cards(tokens: Sequence[str]) -> str:
    return "".join(_card(t) for t in tokens) if tokens else "—"


def _txt(label: Any, lang: str) -> str:
    if isinstance(label, dict):
        other = "en" if lang == "zh" else "zh"
        return f"{label.get(lang, '')} [dim]{label.get(other, '')}[/]"
    return str(label)


def render(view: dict[str, Any], lang: str = "zh") -> str:
    t = view["table"]
    out = [f"[bold]安乡偎麻雀[/] [dim]Anxiang Wei Maque[/] · {_txt(t['phase'], lang)}"]
    out.append("  ".join(_txt(i, lang) for i in t["info"]))
    for seat in t["seats"]:
        me = " [cyan]← 你 you[/]" if seat["seat"] == view.get("viewer") else ""
        out.append(f"[bold]座位 {seat['seat']}[/] {_txt(seat['role'], lang)}{me}  "
                   f"[dim]{seat['hand_count']} 张 cards[/]")
        if seat["hand"] is not None and seat["hand_count"]:
            out.append(f"   手牌 hand: {_cards(seat['hand'])}  [dim]{' '.join(seat['hand'])}[/]")
        if seat["groups"]:
            groups = "  ".join(f"{g['label']['zh']}{_cards(g['cards'])}" for g in seat["groups"])
            out.append(f"   门子 melds: {groups}")
        if seat["discards"]:
            out.append(f"   出牌 out: {_cards(seat['discards'])}")
        if seat.get("note"):
            out.append(f"   [dim]{_txt(seat['note'], lang)}[/]")
    for block in t["center"]:
        if not block["cards"] or block["cards"][0] == "??":
            out.append(f"{_txt(block['label'], lang)}: {len(block['cards'])}")
        else:
            out.append(f"{_txt(block['label'], lang)}: {_cards(block['cards'])} [dim]{' '.join(block['cards'])}[/]")
    res = t.get("last_result")
    if res:
        out.append(f"[bold yellow]{_txt(res['title'], lang)}[/]")
        for line in res["lines"]:
            out.append(f"   {line['zh'] if lang == 'zh' else line['en']}")
        out.append("   " + "  ".join(f"{i}:{p:+g}" for i, p in enumerate(res["scores"])))
    return "\n".join(out)


def format_event(event: dict[str, Any], lang: str = "zh") -> str:
    zh = lang == "zh"
    kind = event["type"]
    s = event.get("seat")
    card = event.get("card")
    name = char(parse_card(card)) if isinstance(card, str) else ""
    if kind == "hand_start":
        return (f"第{event['hand']}局 庄家 座位{event['dealer']} 守醒 座位{event['watcher']}" if zh else
                f"hand {event['hand']}: dealer seat {event['dealer']}, watcher seat {event['watcher']}")
    if kind == "discard":
        return f"座位{s} 出 {name}" if zh else f"seat {s} discards {card}"
    if kind == "draw":
        return (f"座位{s} 揭 {name} (余{event['stock']})" if zh else
                f"seat {s} draws {card} ({event['stock']} left)")
    if kind == "wei":
        return f"座位{s} 煨 (盖牌)" if zh else f"seat {s} makes a wei (face down)"
    if kind == "played_out":
        return f"座位{s} 打出 {name}" if zh else f"seat {s} plays out {card}"
    if kind == "peng":
        return f"座位{s} 碰 {name}" if zh else f"seat {s} pungs {card}"
    if kind == "chi":
        with_ = "".join(char(parse_card(c)) for c in event["with"])
        return f"座位{s} 吃 {name} (用{with_})" if zh else f"seat {s} chis {card} with {' '.join(event['with'])}"
    if kind == "hu":
        return f"座位{s} 胡 {name}!" if zh else f"seat {s} wins on {card}!"
    if kind == "chou":
        return "臭了: 无人胡牌" if zh else "drawn out (臭): nobody won"
    if kind == "settle":
        scores = "  ".join(f"{i}:{p:+g}" for i, p in enumerate(event["scores"]))
        if event.get("winner") is None:
            return f"结算 settle: {scores}"
        win = event["win"]
        mt = " ".join(f"{m['zh' if zh else 'en']}{'×' if m['kind'] == 'mult' else '+'}{m['value']}"
                      for m in win["mingtang"])
        return (f"结算: 硬息{win['hard_xi']} {mt} 总息{win['total']}  {scores}" if zh else
                f"settle: hard xi {win['hard_xi']} {mt} total {win['total']}  {scores}")
    if kind == "match_end":
        return "终局 match over: " + "  ".join(f"{i}:{p:g}" for i, p in enumerate(event["totals"]))
    return " ".join(f"{k}={v}" for k, v in event.items())


_WORDS = {"胡": "hu", "和": "hu", "hu": "hu", "碰": "peng", "peng": "peng", "过": "pass", "pass": "pass", "p": "pass"}


def parse_input(text: str, legal: Sequence[str]) -> str | None:
    """Accept 捌 / d8 / 出捌 (discard), 碰, 胡, 过, 吃三四 / chi x3 x4."""
    t = text.strip()
    if t in _WORDS and _WORDS[t] in legal:
        return _WORDS[t]
    for prefix in ("出", "discard", "d "):
        if t.startswith(prefix) and prefix != "d ":
            t = t[len(prefix):].strip()
            break
    chi = t.startswith("吃") or t.startswith("chi")
    body = t[1:] if t.startswith("吃") else t[3:] if t.startswith("chi") else t
    try:
        cards = parse_cards(body)
    except NotationError:
        return None
    if chi and len(cards) == 2:
        for a, b in ((cards[0], cards[1]), (cards[1], cards[0])):
            action = f"chi {alias(a)} {alias(b)}"
            if action in legal:
                return action
        return None
    if len(cards) == 1 and f"discard {alias(cards[0])}" in legal:
        return f"discard {alias(cards[0])}"
    return None


TERMINAL = Terminal(render=render, format_event=format_event, parse_input=parse_input)
"""This game's terminal hooks (its registry entry names them): its own renderer until its view is ported."""
