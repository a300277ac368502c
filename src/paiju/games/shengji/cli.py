"""What 升级 adds to the shared terminal renderer: the hand grouped by suit, and cards typed without the verb.

The table itself (seats, the trick, the kitty, the settlement) is the display block, drawn by
``paiju.cli.render`` like every game's; event lines are the game's ``event_text``.  The hand is shown in
the current trump order (trumps first), one line per suit, so a player can read off the cards to type:
``AS AS KD`` (``T`` for 10 and suit symbols ♠♥♣♦ also work).
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.cli.render import cards_markup, french_card, render_table
from paiju.core.cards import SUIT_EN, SUIT_SYMBOLS, SUIT_ZH, SUITS, card_text, parse_card, parse_cards
from paiju.core.errors import NotationError
from paiju.core.registry import Terminal
from paiju.core.terms import Action, Event, View, text

from .engine import ShengjiGame
from .rules import TRUMP, order_for, suit_number
from .view import event_text

_SUIT_HEAD = {"zh": (*(f"{SUIT_SYMBOLS[s]} {SUIT_ZH[s]}" for s in SUITS), "主 trumps"),
              "en": (*(f"{SUIT_SYMBOLS[s]} {name}" for s, name in zip(SUITS, SUIT_EN, strict=True)), "trumps")}


def extra(view: View, lang: str = "zh") -> list[str]:
    """The viewer's hand, one line per suit in play order; how to type cards when it must pick some."""
    zh = lang == "zh"
    out: list[str] = []
    hand = view.get("hand")
    if hand:
        order = order_for(view["level"], suit_number(view["trump"] if view["trump_set"] else None))
        groups: dict[int, list[str]] = {}
        for card in hand:
            groups.setdefault(order.suit[parse_card(card)], []).append(card)
        out.append("[bold]你的牌 your hand[/]" if zh else "[bold]your hand[/]")
        heads = _SUIT_HEAD["zh" if zh else "en"]
        out += [f"  {heads[s]:<10} {cards_markup(groups[s], french_card, lang)}" for s in (TRUMP, 0, 1, 2, 3)
                if s in groups]
    if view["table"].get("select"):
        out.append("[dim]S=♠ H=♥ C=♣ D=♦, 10 或 T, 大王 BJ 小王 SJ; 也可输入编号 · or a listed number[/]" if zh
                   else "[dim]S=♠ H=♥ C=♣ D=♦, 10 or T, jokers BJ SJ; or a listed number[/]")
    return out


def render(view: View, lang: str = "zh") -> str:
    """The table for one viewer (the shared renderer with this game's lines)."""
    return render_table(view, lang, TERMINAL, text(ShengjiGame.display["zh"], ShengjiGame.display["en"]))


def format_event(event: Event, lang: str = "zh") -> str:
    """One public event as a log line (the game's event text)."""
    return event_text(event)["zh" if lang == "zh" else "en"]


_SYMBOLS = {**{sym: s for s, sym in SUIT_SYMBOLS.items()}, "大王": "BJ", "小王": "SJ"}


def parse_input(typed: str, legal: Sequence[Action]) -> Action | None:
    """Cards typed without the verb (``AS AS``), suit symbols, ``p`` for pass; None if unreadable."""
    raw = typed.strip()
    for sym, letter in _SYMBOLS.items():
        raw = raw.replace(sym, letter)
    if raw.lower() in ("p", "pass", "不亮", "过"):
        return "pass" if "pass" in legal else None
    verb: str | None = next((a.partition(" ")[0] for a in legal if a.partition(" ")[0] in ("play", "bury")), None)
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


TERMINAL = Terminal(extra=extra, parse_input=parse_input)
"""升级's terminal hooks, named by its registry entry: French cards are the core's."""
