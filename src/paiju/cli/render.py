"""One terminal renderer for every game: it draws the view's display block (``view["table"]``) as rich markup.

A game adds only what is its own through its registry entry's :class:`~paiju.core.Terminal` hooks: how one
of its cards looks (French cards are drawn here, from :mod:`paiju.core.cards`), any lines the block has no
place for, and its own hand when it draws it differently.  Every word is in the chosen language only: Chinese
in ``zh``, English in ``en`` (:func:`say` holds the terminal's own words).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.cells import cell_len

from paiju.core import Terminal, Text, View
from paiju.core.cards import BIG_JOKER, SMALL_JOKER, parse_card, pretty
from paiju.core.display import FACE_DOWN, name_seats
from paiju.core.errors import NotationError

CardFace = Callable[[str, str], str]

TERMS: dict[str, tuple[str, str]] = {
    "seat": ("座位{n}", "seat {n}"),
    "you": ("← 你", "← you"),
    "hand": ("手牌", "hand"),
    "out": ("出牌", "out"),
    "total": ("合计", "total"),
    "totals": ("总分", "totals"),
    "final": ("终局", "final"),
    "result": ("结算", "settlement"),
    "bye": ("再见", "bye"),
    "choice": ("你的选择", "your choice"),
    "more": ("还有 {n} 项：输入 ? 全部列出", "{n} more: type ? to list them all"),
    "invalid": ("看不懂 {typed!r}：输入编号（{lo}–{hi}）、选项上的文字或牌（? 帮助）",
                "cannot read {typed!r}: type a number ({lo}–{hi}), an option's words or the cards (? for help)"),
    "refused": ("不行：{reason}", "not allowed: {reason}"),
    "help": ("输入编号、选项上的文字（如 打 二万、碰、胡、过）或牌（二万、红桃A、AH、5m）；? 列出全部选项；q 离开",
             "type a number, an option's words (discard 2m, pung, hu, pass) or the cards (2m, AH, East); "
             "? lists every option; q leaves"),
    "leave": ("离开这一局？(y/n)", "leave this hand? (y/n)"),
    "stay": ("接着打", "carrying on"),
    "pick": ("选 {n} 张{verb}", "pick {n} card(s) to {verb}"),
    "pick_hint": ("直接输入要{verb}的牌，如 {example}（共 {count} 种；? 列出）",
                  "type the cards to {verb}, e.g. {example} ({count} choices; ? lists them)"),
    "record": ("牌局记录已存到 {path}", "record saved to {path}"),
}
VERBS: dict[str, tuple[str, str]] = {"play": ("出", "play"), "bury": ("扣底", "bury")}
"""The verbs of a display block's ``select`` in words."""
INLINE = 8
"""A seat's cards out go on its own line only when there are more than this many."""
WIDTH = 74
"""Short facts are joined on one line while it stays this wide (an 80-column screen: the panel's border and
padding take 4 columns, the indent 2)."""


def say(key: str, lang: str, **fields: Any) -> str:
    """One of the terminal's own words in the chosen language, its fields filled in."""
    zh, en = TERMS[key]
    return (zh if lang == "zh" else en).format(**fields)


def seats_named(line: str, lang: str) -> str:
    """A game text with its seats (``{seat:N}``) named as the terminal names them: 座位N / seat N."""
    return name_seats(line, lambda n: say("seat", lang, n=n))


def words(label: Text | Mapping[str, Any] | None, lang: str) -> str:
    """A label in the chosen language (the other language only when this one is missing), seats named."""
    if not label:
        return ""
    zh, en = label.get("zh", ""), label.get("en", "")
    return seats_named((zh or en) if lang == "zh" else (en or zh), lang)


def french_card(text: str, lang: str = "zh") -> str:
    """A French card with its suit symbol, hearts and diamonds in red: ``A♠``, ``[red]10♥[/]``, jokers by name."""
    if text == FACE_DOWN:
        return "[dim]🂠[/]"
    try:
        card = parse_card(text)
    except NotationError:
        return text
    shown = pretty(card) if lang == "zh" or card < 52 else {BIG_JOKER: "BJ", SMALL_JOKER: "SJ"}[card]
    red = card == BIG_JOKER or (card < 52 and text[-1] in "HD")
    return f"[bold red]{shown}[/]" if red else f"[bold]{shown}[/]"


def cards_markup(cards: Sequence[str], face: CardFace, lang: str) -> str:
    return " ".join(face(c, lang) for c in cards) if cards else "[dim]—[/]"


def render_table(view: View, lang: str, hooks: Terminal, title: Text | None = None, *, result: bool = True) -> str:
    """The table for one viewer: phase and facts, each seat (role, cards or backs, groups, discards, note), the
    middle of the table, the game's own lines, the last settlement (unless ``result`` is False: the terminal
    shows it once, on its own), the viewer's own hand and what to pick."""
    table: dict[str, Any] = view["table"]
    face = hooks.card or french_card
    me = view.get("viewer", -1)
    totals = view.get("totals", [])
    head = f"[bold]{words(title, lang)}[/] · " if title else ""
    out = [f"{head}{words(table['phase'], lang)}"]
    out += [f"  [dim]{line}[/]" for line in joined([words(line, lang) for line in table["info"]])]
    own: list[str] = []
    for seat in table["seats"]:
        s = seat["seat"]
        score = f" {totals[s]:+g}" if s < len(totals) else ""
        note = f"  [yellow]{words(seat['note'], lang)}[/]" if seat.get("note") else ""
        mine = f"  [bold cyan]{say('you', lang)}[/]" if s == me else ""
        backs = ""
        if seat["hand"] is None and seat["hand_count"]:
            n = seat["hand_count"]
            backs = "  " + (cards_markup([FACE_DOWN] * n, face, lang) if n <= 4 else f"{face(FACE_DOWN, lang)}×{n}")
        played = ""
        if seat["discards"] and len(seat["discards"]) <= INLINE:
            played = f"  {say('out', lang)}: {cards_markup(seat['discards'], face, lang)}"
        out.append(f"[bold]{say('seat', lang, n=s)}[/] {words(seat['role'], lang)}{score}{backs}{note}{mine}"
                   f"{played}")
        if seat["groups"]:
            out.append("   " + "   ".join(f"{words(g['label'], lang)}: {cards_markup(g['cards'], face, lang)}"
                                          for g in seat["groups"]))
        if seat["discards"] and not played:
            out.append(f"   {say('out', lang)}: {cards_markup(seat['discards'], face, lang)}")
        if seat["hand"] is not None:
            if s == me and hooks.hand is not None:
                own = hooks.hand(view, lang)
            else:
                out.append(f"   {say('hand', lang)}: {cards_markup(seat['hand'], face, lang)}")
    for item in table["center"]:
        out.append(f"[bold]{words(item['label'], lang)}[/]: {cards_markup(item['cards'], face, lang)}")
    if hooks.extra is not None:
        out += hooks.extra(view, lang)
    settled = table.get("last_result")
    if settled and result:
        out += result_lines(settled, lang)
    out += own
    select = table.get("select")
    if select:
        n = select["min"] if select["min"] == select["max"] else f"{select['min']}–{select['max']}"
        verb = VERBS.get(select["verb"], (select["verb"], select["verb"]))[0 if lang == "zh" else 1]
        out.append(f"[bold yellow]{say('pick', lang, n=n, verb=verb)}[/]")
    return "\n".join(out)


def joined(lines: Sequence[str], width: int = WIDTH) -> list[str]:
    """Short lines joined with `` · `` while the line stays ``width`` cells wide (Chinese counts double)."""
    out: list[str] = []
    for line in lines:
        if out and cell_len(out[-1]) + 3 + cell_len(line) <= width:
            out[-1] += " · " + line
        else:
            out.append(line)
    return out


def result_lines(result: Mapping[str, Any], lang: str) -> list[str]:
    """A hand's settlement: its title, each line with every seat's points, and the total per seat."""
    out = [f"[bold]{words(result['title'], lang)}[/]"]
    for line in result["lines"]:
        points = line.get("points", [])
        quiet = not any(points) and any(ch.isdigit() for ch in words(line, lang))  # the number is in the words
        shown = "" if quiet else " ".join(f"{p:+g}" for p in points)
        out.append(f"   {words(line, lang)}  [dim]{shown}[/]" if shown else f"   {words(line, lang)}")
    out.append(f"   {say('total', lang)}: " + " ".join(f"{p:+g}" for p in result["scores"]))
    return out
