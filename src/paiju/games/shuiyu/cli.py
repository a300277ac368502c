"""Terminal drawing for 水鱼: the table with Chinese labels and English beside them, suits as ♠♥♣♦."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.core.cards import parse_card, pretty
from paiju.core.errors import NotationError
from paiju.core.registry import Terminal

from .engine import KIND_LABELS, LABELS
from .rules import arrangement_text, parse_arrangement


def _card(text: str) -> str:
    if text == "??":
        return "[dim]🂠[/]"
    shown = pretty(parse_card(text))
    return f"[bold red]{shown}[/]" if text[-1] in "HD" else f"[bold]{shown}[/]"


def _cards(cards: Sequence[str]) -> str:
    return " ".join(_card(c) for c in cards)


def _both(zh: str, en: str) -> str:
    return f"{zh} [dim]{en}[/]" if zh else en


def _label(action: str | None) -> str:
    if not action:
        return ""
    zh, en = LABELS.get(action, (action, action))
    return _both(zh, en.split(" (")[0])


def render(view: dict[str, Any], lang: str = "zh") -> str:
    """The table as rich markup: every seat, its cards or backs, its calls; then the last settlement."""
    t = view["table"]
    you = view.get("you", -1)
    lines = [f"[bold]广西水鱼[/] [dim]Shui Yu[/] · {_both(t['phase']['zh'], t['phase']['en'])}"]
    lines += [f"[dim]{info['zh']} · {info['en']}[/]" for info in t["info"]]
    lines.append("")
    for seat in t["seats"]:
        s = seat["seat"]
        role = _both(seat["role"]["zh"], seat["role"]["en"])
        who = "[bold cyan]你 you[/]" if s == you else f"座{s} [dim]seat {s}[/]"
        if seat["groups"]:
            head, tail = seat["groups"]
            cards = f"头 [dim]head[/] {_cards(head['cards'])}   尾 [dim]tail[/] {_cards(tail['cards'])}"
        elif seat["hand"] is not None:
            cards = _cards(seat["hand"])
        else:
            cards = _cards(["??"] * seat["hand_count"])
        note = seat.get("note")
        tail_text = f"   [yellow]{note['zh']}[/] [dim]{note['en']}[/]" if note else ""
        lines.append(f"{role} {who}: {cards}{tail_text}")
    prev = view.get("last_round")
    if prev and view.get("phase") != "over":
        shown = [(s, a) for s, a in enumerate(prev["arrangement"]) if a is not None and s != you]
        if shown:
            lines.append("")
            lines.append(f"[dim]上局亮牌 last round's shown hands (banker seat {prev['banker']}):[/]")
            for s, a in shown:
                lines.append(f"  座{s} seat {s}: {_cards(a['head'])} | {_cards(a['tail'])}")
    result = t.get("last_result")
    if result:
        lines.append("")
        lines.append(f"[bold]{result['title']['zh']}[/] [dim]{result['title']['en']}[/]")
        for line in result["lines"]:
            lines.append(f"  {line['zh']}")
            lines.append(f"  [dim]{line['en']}[/]")
    return "\n".join(lines)


def format_event(event: dict[str, Any], lang: str = "zh") -> str:
    """One public event as a short bilingual log line."""
    kind = event.get("type")
    if kind == "arranged":
        return f"座{event['seat']} 摆好牌 [dim]seat {event['seat']} has split its hand[/]"
    if kind == "decided":
        return f"座{event['seat']} 已决定 [dim]seat {event['seat']} has decided[/]"
    if kind == "special":
        zh, en = KIND_LABELS[event["kind"]]
        who = "庄家" if event["banker"] else f"闲家{event['seat']}"
        return f"{who} 亮{zh} [dim]{en}[/]: {_cards(event['cards'])}"
    if kind == "calls":
        return "闲家叫牌 calls: " + "  ".join(f"座{c['seat']} {_label(c['call'])}" for c in event["calls"])
    if kind == "open_hand":
        return f"座{event['seat']} {_label(event['call'])}: {_cards(event['cards'])}"
    if kind == "answer":
        return f"庄家对座{event['target']}: {_label(event['answer'])} [dim](banker to seat {event['target']})[/]"
    if kind == "responses":
        return "回应 responses: " + "  ".join(f"座{r['seat']} {_label(r['response'])}" for r in event["responses"])
    if kind == "settlement":
        parts = [f"[bold]第{event['round']}局结算 round {event['round']}[/]"]
        parts += [f"  {line['zh'] if lang == 'zh' else line['en']}" for line in event["lines"]]
        parts.append("  总分 totals: " + " ".join(f"{s}:{v:g}" for s, v in enumerate(event["totals"])))
        return "\n".join(parts)
    if kind == "deal":
        return f"第{event['round']}局 发牌 [dim]round {event['round']} dealt[/] · 庄家 banker: 座{event['banker']}"
    if kind == "match_end":
        return "终局 match over · 总分 totals: " + " ".join(f"{s}:{v:g}" for s, v in enumerate(event["totals"]))
    return " ".join(f"{k}={v}" for k, v in event.items())


_WORDS: dict[str, list[str]] = {}
"""Typed word -> the actions it may mean (开牌 is a player's open and a banker's call)."""
for _action, (_zh, _en) in LABELS.items():
    for _w in (_zh, _en.split(" (")[0].lower(), _action):
        _WORDS.setdefault(_w, []).append(_action)
for _w, _action in {"开": "open", "盖": "cover", "喝": "drink", "比": "compare", "认输": "concede"}.items():
    _WORDS.setdefault(_w, []).append(_action)


def parse_input(text: str, legal: Sequence[str]) -> str | None:
    """Accept Chinese or English words (``杀 2``, ``不信``, ``cover``) and splits in any order
    (``KD 7C | AS 8H``, ``ks 7c|as 8h``)."""
    text = text.strip()
    if "|" in text:
        try:
            arr = parse_arrangement(text.replace(",", " "))
        except NotationError:
            return None
        action = "split " + arrangement_text(arr)
        return action if action in legal else None
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    for action in _WORDS.get(word, []) + _WORDS.get(word.lower(), []):
        candidate = f"{action} {rest}" if rest else action
        if candidate in legal:
            return candidate
        targeted = [a for a in legal if a.split()[0] == action]
        if not rest and len(targeted) == 1:
            return targeted[0]
    return None


TERMINAL = Terminal(render=render, format_event=format_event, parse_input=parse_input)
"""This game's terminal hooks (its registry entry names them)."""
