"""What 滑水麻将 adds to the shared terminal renderer: how a tile looks, its own lines, typed moves.

The table itself is the display block, drawn by ``paiju.cli.render`` like every game's; event lines are the
game's ``event_text``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.cli.render import render_table, seats_named
from paiju.core.registry import Terminal
from paiju.core.terms import text

from .engine import HuashuiGame
from .tiles import TILE_TEXT, parse_tile, tile_en, tile_zh
from .view import event_text

_COLOUR = {"m": "red", "p": "blue", "s": "green", "z": "magenta"}
_TILE_OF = {text: t for t, text in enumerate(TILE_TEXT)}


def tile_label(text: str, lang: str = "zh") -> str:
    """One tile as rich markup: ``[red]五万[/]`` (zh, as the options name it) or ``[red]5m[/]``,
    ``[magenta]East[/]`` (en); ``🀫`` face down."""
    if text == "??":
        return "[dim]🀫[/]"
    t = _TILE_OF.get(text)
    if t is None:
        return text
    name = tile_zh(t) if lang == "zh" else tile_en(t)
    return f"[{_COLOUR[text[-1]]}]{name}[/]"


def tiles_label(tiles: Sequence[str], lang: str = "zh") -> str:
    return " ".join(tile_label(t, lang) for t in tiles) if tiles else "[dim]—[/]"


def extra(view: dict[str, Any], lang: str = "zh") -> list[str]:
    """What only 滑水 shows: the tile just drawn, the open claim, the viewer's pass lock."""
    zh = lang == "zh"
    out = []
    if view.get("drawn"):
        out.append(f"{'摸到' if zh else 'drew'}: {tile_label(view['drawn'], lang)}")
    claim = view.get("claim")
    if claim:
        tile = tile_label(claim["tile"], lang)
        if zh:
            what = "抢杠" if claim.get("robbing") else "打出"
            out.append(f"[bold yellow]座位{claim['from']} {what} {tile}[/]")
        else:
            what = "adds a kong with" if claim.get("robbing") else "discarded"
            out.append(f"[bold yellow]seat {claim['from']} {what} {tile}[/]")
    locked = view.get("locked")
    if locked:
        shown = ("全部" if zh else "all") if locked == "all" else tiles_label(locked, lang)
        out.append(f"[dim]{'过胡锁定' if zh else 'pass lock'}: {shown}[/]")
    return out


def render(view: dict[str, Any], lang: str = "zh") -> str:
    """The table for one viewer (the shared renderer with this game's tiles and lines)."""
    return render_table(view, lang, TERMINAL, text(HuashuiGame.display["zh"], HuashuiGame.display["en"]))


def format_event(event: dict[str, Any], lang: str = "zh") -> str:
    """One public event as a log line (the game's event text, seats named as the terminal names them)."""
    return seats_named(event_text(event)["zh" if lang == "zh" else "en"], lang)


_WORDS = {
    "hu": "hu", "h": "hu", "胡": "hu", "和": "hu", "win": "hu", "zimo": "hu", "自摸": "hu", "胡牌": "hu",
    "pass": "pass", "p": "pass", "过": "pass", "guo": "pass", "不要": "pass",
}
_VERBS = {"peng": "pung", "碰": "pung", "pung": "pung", "gang": "kong", "杠": "kong", "kong": "kong",
          "暗杠": "kong", "补杠": "kong", "d": "discard", "da": "discard", "打": "discard", "出": "discard",
          "discard": "discard", "吃": "chi", "chi": "chi", "chow": "chi"}


def parse_input(typed: str, legal: Sequence[str]) -> str | None:
    """Read ``二万`` / ``5m`` / ``打 二万`` / ``打二万`` (discard it), ``胡``/``hu``, ``过``/``pass``,
    ``碰``/``peng`` and ``杠``/``gang`` [tile]: the action it means, legal or not (吃 too, so its refusal can
    say there is no chow)."""
    raw = typed.strip()
    words = raw.split()
    if not words:
        return None
    head = words[0].lower()
    if len(words) == 1 and head in _WORDS:
        return _WORDS[head]
    rest = words[1:]
    verb = _VERBS.get(head)
    if verb is None:
        for word, v in sorted(_VERBS.items(), key=lambda item: -len(item[0])):
            if not word.isascii() and raw.startswith(word):
                verb, rest = v, [raw[len(word):].strip()]
                break
    if verb is None:
        verb, rest = "discard", words
    if verb == "chi":
        return "chi " + " ".join(rest) if rest else "chi"
    if not rest or rest == [""]:
        options = [a for a in legal if a.startswith(verb + " ")]
        return options[0] if len(options) == 1 else (verb if not options else None)
    try:
        tile = TILE_TEXT[parse_tile(" ".join(rest) if len(rest) > 1 else rest[0])]
    except ValueError:
        return None
    return f"{verb} {tile}"


TERMINAL = Terminal(card=tile_label, extra=extra, parse_input=parse_input)
"""滑水's terminal hooks, named by its registry entry."""
