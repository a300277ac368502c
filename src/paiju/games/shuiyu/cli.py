"""What 水鱼 adds to the shared terminal renderer: the last round's shown hands, and typed words and splits.

The table itself (seats, cards, calls, the settlement) is the display block, drawn by ``paiju.cli.render``
like every game's; event lines are the game's ``event_text``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.cli.render import cards_markup, french_card, render_table, say, seats_named
from paiju.core.errors import NotationError
from paiju.core.registry import Terminal
from paiju.core.terms import text

from .engine import ShuiyuGame
from .rules import arrangement_text, parse_arrangement
from .view import LABELS, event_text


def _cards(cards: Sequence[str]) -> str:
    return cards_markup(cards, french_card, "zh")


def extra(view: dict[str, Any], lang: str = "zh") -> list[str]:
    """The previous round's hands as this seat saw them at its settlement (the display block has no place)."""
    prev = view.get("last_round")
    you = view.get("you", -1)
    if not prev or view.get("phase") == "over":
        return []
    shown = [(s, a) for s, a in enumerate(prev["arrangement"]) if a is not None and s != you]
    if not shown:
        return []
    head = (f"[dim]上局亮牌（庄家 座位{prev['banker']}）：[/]" if lang == "zh"
            else f"[dim]last round's shown hands (banker seat {prev['banker']}):[/]")
    return [head, *(f"  {say('seat', lang, n=s)}: {_cards(a['head'])} | {_cards(a['tail'])}" for s, a in shown)]


def render(view: dict[str, Any], lang: str = "zh") -> str:
    """The table as rich markup (the shared renderer with this game's hooks)."""
    return render_table(view, lang, TERMINAL, text(ShuiyuGame.display["zh"], ShuiyuGame.display["en"]))


def format_event(event: dict[str, Any], lang: str = "zh") -> str:
    """One public event as a log line (the game's event text, seats named as the terminal names them)."""
    return seats_named(event_text(event)["zh" if lang == "zh" else "en"], lang)


_WORDS: dict[str, list[str]] = {}
"""Typed word -> the actions it may mean (开牌 is a player's open and a banker's call)."""
for _action, (_zh, _en) in LABELS.items():
    for _w in (_zh, _en.split(" (")[0].lower(), _action):
        _WORDS.setdefault(_w, []).append(_action)
for _w, _action in {"开": "open", "盖": "cover", "喝": "drink", "比": "compare", "认输": "concede"}.items():
    _WORDS.setdefault(_w, []).append(_action)


def parse_input(text: str, legal: Sequence[str]) -> str | None:
    """Read Chinese or English words (``杀 2``, ``不信``, ``cover``) and splits in any order and notation
    (``KD 7C | AS 8H``, ``ks 7c|as 8h``, ``红桃A 黑桃8 | 方块K 梅花7``): the action meant, legal or not (the rule
    then says why not); None if unreadable."""
    text = text.strip()
    if "|" in text:
        try:
            arr = parse_arrangement(text.replace(",", " "))
        except NotationError:
            return None
        return "split " + arrangement_text(arr)
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    meant = _WORDS.get(word, []) + _WORDS.get(word.lower(), [])
    for action in meant:
        candidate = f"{action} {rest}" if rest else action
        if candidate in legal:
            return candidate
        targeted = [a for a in legal if a.split()[0] == action]
        if not rest and len(targeted) == 1:
            return targeted[0]
    if meant:
        return f"{meant[0]} {rest}" if rest else meant[0]
    return None


TERMINAL = Terminal(extra=extra, parse_input=parse_input)
"""水鱼's terminal hooks, named by its registry entry: French cards are the core's."""
