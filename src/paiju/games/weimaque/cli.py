"""What 偎麻雀 adds to the shared terminal renderer: how a paper card looks, and typed moves.

The table itself is the display block, drawn by ``paiju.cli.render`` like every game's; event lines are the
game's ``event_text``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.cli.render import render_table, seats_named
from paiju.core.errors import NotationError
from paiju.core.registry import Terminal
from paiju.core.terms import text

from .cards import alias, char, is_red, parse_card, parse_cards
from .engine import WeimaqueGame
from .view import event_text


def paper_card(token: str, lang: str = "zh") -> str:
    """One card as rich markup, reds in red: ``[bold red]柒[/]`` (zh) or ``[bold red]d7[/]`` (en)."""
    if token == "??":
        return "[dim]▒[/]"
    try:
        c = parse_card(token)
    except NotationError:
        return token
    face = char(c) if lang == "zh" else alias(c)
    return f"[bold red]{face}[/]" if is_red(c) else f"[bold]{face}[/]"


def render(view: dict[str, Any], lang: str = "zh") -> str:
    """The table for one viewer (the shared renderer with this game's cards)."""
    return render_table(view, lang, TERMINAL, text(WeimaqueGame.display["zh"], WeimaqueGame.display["en"]))


def format_event(event: dict[str, Any], lang: str = "zh") -> str:
    """One public event as a log line (the game's event text, seats named as the terminal names them)."""
    return seats_named(event_text(event)["zh" if lang == "zh" else "en"], lang)


_WORDS = {"胡": "hu", "和": "hu", "hu": "hu", "碰": "peng", "peng": "peng", "过": "pass", "pass": "pass", "p": "pass"}


def parse_input(text: str, legal: Sequence[str]) -> str | None:
    """Read 捌 / d8 / 大八 / 出捌 / 打 d8 (discard), 碰, 胡, 过, 吃三四 / 吃 x3 x4 / chi x3 x4: the action meant,
    legal or not (the rule then says why not); None if unreadable."""
    t = text.strip()
    if t.lower() in _WORDS:
        return _WORDS[t.lower()]
    for prefix in ("出", "打", "discard"):
        if t.startswith(prefix):
            t = t[len(prefix):].strip()
            break
    chi = t.startswith("吃") or t.lower().startswith("chi")
    body = t[1:] if t.startswith("吃") else t[3:] if chi else t
    try:
        cards = parse_cards(body)
    except NotationError:
        return None
    if chi and len(cards) == 2:
        for a, b in ((cards[0], cards[1]), (cards[1], cards[0])):
            action = f"chi {alias(a)} {alias(b)}"
            if action in legal:
                return action
        return f"chi {alias(cards[0])} {alias(cards[1])}"
    if not chi and len(cards) == 1:
        return f"discard {alias(cards[0])}"
    return None


TERMINAL = Terminal(card=paper_card, parse_input=parse_input)
"""偎麻雀's terminal hooks, named by its registry entry."""
