"""What 滑水麻将 adds to the shared terminal renderer: how a tile looks, its own lines, typed moves.

The table itself is the display block, drawn by ``paiju.cli.render`` like every game's; event lines are the
game's ``event_text``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.cli.render import render_table
from paiju.core.registry import Terminal
from paiju.core.terms import text

from .engine import HuashuiGame
from .tiles import TILE_TEXT, parse_tile, tile_zh
from .view import event_text

_COLOUR = {"m": "red", "p": "blue", "s": "green", "z": "magenta"}
_TILE_OF = {text: t for t, text in enumerate(TILE_TEXT)}


def tile_label(text: str, lang: str = "zh") -> str:
    """One tile as rich markup: ``[red]5万[/]`` (zh) or ``[red]5m[/]`` (en); ``??`` for a face-down tile."""
    if text == "??":
        return "[dim]🀫[/]"
    t = _TILE_OF.get(text)
    if t is None:
        return text
    name = tile_zh(t) if lang == "zh" else text
    if lang == "zh" and t < 27:
        name = f"{t % 9 + 1}{name[-1]}"
    return f"[{_COLOUR[text[-1]]}]{name}[/]"


def tiles_label(tiles: Sequence[str], lang: str = "zh") -> str:
    return " ".join(tile_label(t, lang) for t in tiles) if tiles else "[dim]—[/]"


def extra(view: dict[str, Any], lang: str = "zh") -> list[str]:
    """What only 滑水 shows: the tile just drawn, the open claim, the viewer's pass lock."""
    zh = lang == "zh"
    out = []
    if view.get("drawn"):
        out.append(f"{'摸 drew' if zh else 'drew'}: {tile_label(view['drawn'], lang)}")
    claim = view.get("claim")
    if claim:
        what = ("抢杠 rob the kong" if zh else "rob the kong") if claim.get("robbing") else \
            ("打出 discarded" if zh else "discarded")
        seat = "座位 seat" if zh else "seat"
        out.append(f"[bold yellow]{seat} {claim['from']} {what} {tile_label(claim['tile'], lang)}[/]")
    locked = view.get("locked")
    if locked:
        shown = ("全部 all" if zh else "all") if locked == "all" else tiles_label(locked, lang)
        out.append(f"[dim]{'过胡锁定 pass lock' if zh else 'pass lock'}: {shown}[/]")
    return out


def render(view: dict[str, Any], lang: str = "zh") -> str:
    """The table for one viewer (the shared renderer with this game's tiles and lines)."""
    return render_table(view, lang, TERMINAL, text(HuashuiGame.display["zh"], HuashuiGame.display["en"]))


def format_event(event: dict[str, Any], lang: str = "zh") -> str:
    """One public event as a log line (the game's event text)."""
    return event_text(event)["zh" if lang == "zh" else "en"]


_WORDS = {
    "hu": "hu", "h": "hu", "胡": "hu", "win": "hu", "zimo": "hu", "自摸": "hu",
    "pass": "pass", "p": "pass", "过": "pass", "guo": "pass",
}


def parse_input(text: str, legal: Sequence[str]) -> str | None:
    """Accept ``5m`` (discard it), ``hu``/``胡``, ``pass``/``过``, ``peng``/``碰`` and ``gang``/``杠`` [tile]."""
    words = text.strip().lower().split()
    if not words:
        return None
    head = words[0]
    if head in _WORDS and _WORDS[head] in legal:
        return _WORDS[head]
    verb = {"peng": "pung", "碰": "pung", "pung": "pung", "gang": "kong", "杠": "kong", "kong": "kong",
            "d": "discard", "da": "discard", "打": "discard", "discard": "discard"}.get(head)
    rest = words[1:]
    if verb is None:
        verb, rest = "discard", words
    options = [a for a in legal if a.startswith(verb + " ")]
    if not rest:
        return options[0] if len(options) == 1 else None
    try:
        tile = TILE_TEXT[parse_tile(rest[0])]
    except ValueError:
        return None
    action = f"{verb} {tile}"
    return action if action in legal else None


TERMINAL = Terminal(card=tile_label, extra=extra, parse_input=parse_input)
"""滑水's terminal hooks, named by its registry entry."""
