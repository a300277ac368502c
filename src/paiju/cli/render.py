"""One terminal renderer for every game: it draws the view's display block (``view["table"]``) as rich markup.

A game adds only what is its own through its registry entry's :class:`~paiju.core.Terminal` hooks: how one
of its cards looks (French cards are drawn here, from :mod:`paiju.core.cards`), and any lines the block has
no place for.  In Chinese every label is followed by its English in dim type; in English, English only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from paiju.core import Terminal, Text, View
from paiju.core.cards import BIG_JOKER, SMALL_JOKER, parse_card, pretty
from paiju.core.display import FACE_DOWN
from paiju.core.errors import NotationError

CardFace = Callable[[str, str], str]


def words(label: Text | Mapping[str, Any] | None, lang: str) -> str:
    """A label in the chosen language; in Chinese with the English beside it, dimmed."""
    if not label:
        return ""
    zh, en = label.get("zh", ""), label.get("en", "")
    if lang != "zh":
        return en or zh
    return f"{zh} [dim]{en}[/]" if zh and en and en != zh else zh or en


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


def render_table(view: View, lang: str, hooks: Terminal, title: Text | None = None) -> str:
    """The table for one viewer: phase and facts, each seat (role, cards or backs, groups, discards, note), the
    middle of the table, the game's own lines, what to pick, and the last settlement."""
    table: dict[str, Any] = view["table"]
    face = hooks.card or french_card
    me = view.get("viewer", -1)
    totals = view.get("totals", [])
    head = f"[bold]{words(title, lang)}[/] · " if title else ""
    out = [f"{head}{words(table['phase'], lang)}"]
    out += [f"  [dim]{words(line, lang)}[/]" for line in table["info"]]
    you = "[bold cyan]← 你 you[/]" if lang == "zh" else "[bold cyan]← you[/]"
    seat_word = "座位 seat" if lang == "zh" else "seat"
    for seat in table["seats"]:
        s = seat["seat"]
        score = f" {totals[s]:+g}" if s < len(totals) else ""
        note = f"  [yellow]{words(seat['note'], lang)}[/]" if seat.get("note") else ""
        mine = f"  {you}" if s == me else ""
        out.append(f"[bold]{seat_word} {s}[/] {words(seat['role'], lang)}{score}{note}{mine}")
        if seat["groups"]:
            out.append("   " + "   ".join(f"{words(g['label'], lang)}: {cards_markup(g['cards'], face, lang)}"
                                          for g in seat["groups"]))
        if seat["discards"]:
            label = "出牌 out" if lang == "zh" else "out"
            out.append(f"   {label}: {cards_markup(seat['discards'], face, lang)}")
        hand = "手牌 hand" if lang == "zh" else "hand"
        if seat["hand"] is not None:
            out.append(f"   {hand}: {cards_markup(seat['hand'], face, lang)}")
        elif seat["hand_count"]:
            n = seat["hand_count"]
            backs = cards_markup([FACE_DOWN] * n, face, lang) if n <= 4 else f"{face(FACE_DOWN, lang)} ×{n}"
            out.append(f"   {hand}: {backs}")
    for item in table["center"]:
        out.append(f"[bold]{words(item['label'], lang)}[/]: {cards_markup(item['cards'], face, lang)}")
    if hooks.extra is not None:
        out += hooks.extra(view, lang)
    select = table.get("select")
    if select:
        n = select["min"] if select["min"] == select["max"] else f"{select['min']}–{select['max']}"
        out.append(f"[bold yellow]选 {n} 张 · pick {n} card(s): {select['verb']} …[/]" if lang == "zh"
                   else f"[bold yellow]pick {n} card(s): {select['verb']} …[/]")
    result = table.get("last_result")
    if result:
        out.append(f"[bold]{words(result['title'], lang)}[/]")
        for line in result["lines"]:
            points = " ".join(f"{p:+g}" for p in line.get("points", []))
            out.append(f"   {words(line, lang)}  [dim]{points}[/]")
        out.append(("   合计 total: " if lang == "zh" else "   total: ")
                   + " ".join(f"{p:+g}" for p in result["scores"]))
    return "\n".join(out)
