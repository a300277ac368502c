"""What 升级 adds to the shared terminal renderer: the hand grouped by suit, and cards typed without the verb.

The table itself (seats, the trick, the kitty, the settlement) is the display block, drawn by
``paiju.cli.render`` like every game's; event lines are the game's ``event_text``.  The hand is drawn at the
foot of the table in the current trump order, one short line per suit (``♥ A A K Q``: the suit once, then the
ranks), so 63 cards fit an 80-column screen.  A player picks cards as the browser does, by naming them:
``红桃A 红桃A``, ``A♥ A♥``, ``AH AH`` or ``AHAH`` (``T`` for 10, 大王/小王 or BJ/SJ), without the verb.
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.cli.render import french_card, render_table, seats_named
from paiju.core.cards import SUIT_SYMBOLS, SUIT_ZH, SUITS, card_text, parse_card, parse_cards, pretty
from paiju.core.errors import NotationError
from paiju.core.registry import Terminal
from paiju.core.terms import Action, Event, View, text

from .engine import ShengjiGame
from .rules import LEVEL_NAMES, TRUMP, order_for, suit_number
from .view import event_text

_SUIT_EN = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}


def _rank_markup(card: str, lang: str) -> str:
    """A card in its suit's line: the rank alone, in the suit's colour (the line's head names the suit)."""
    shown = french_card(card, lang)
    return shown.replace(SUIT_SYMBOLS.get(card[-1], "\0"), "") if card[-1] in SUIT_SYMBOLS else shown


def hand(view: View, lang: str = "zh") -> list[str]:
    """The viewer's hand at the foot of the table: trumps (every card whole), then one line per plain suit."""
    cards = view.get("hand") or []
    if not cards:
        return []
    zh = lang == "zh"
    order = order_for(view["level"], suit_number(view["trump"] if view["trump_set"] else None))
    trump_suit = view["trump"] if view["trump_set"] and view["trump"] in SUIT_SYMBOLS else None
    level = LEVEL_NAMES[view["level"]]
    groups: dict[int | str, list[str]] = {}
    for card in cards:
        s = order.suit[parse_card(card)]
        plain_trump = s == TRUMP and card[-1] == trump_suit and card[:-1] != level
        groups.setdefault("trump suit" if plain_trump else s, []).append(card)
    out = [f"[bold]{'你的牌' if zh else 'your hand'}[/] ({len(cards)})"]
    trump_word = "主" if zh else "trumps"
    if TRUMP in groups:
        out.append(f"  {trump_word} " + " ".join(french_card(c, lang) for c in groups[TRUMP]))
    for key in ("trump suit", 0, 1, 2, 3):
        if key not in groups:
            continue
        suit = trump_suit if key == "trump suit" else SUITS[int(key)]
        assert suit is not None
        head = f"{SUIT_SYMBOLS[suit]} {SUIT_ZH[suit] if zh else _SUIT_EN[suit]}"
        if key == "trump suit":
            head += f" ({trump_word})"
        out.append(f"  {head} " + " ".join(_rank_markup(c, lang) for c in groups[key]))
    return out


def extra(view: View, lang: str = "zh") -> list[str]:
    """How to type cards, when the viewer must pick some."""
    if not view["table"].get("select"):
        return []
    return ["[dim]输入牌：红桃A、A♥ 或 AH（10 或 T；大王 小王 或 BJ SJ），几张用空格隔开[/]" if lang == "zh"
            else "[dim]type cards: AH or A♥ (10 or T; jokers BJ SJ), several with spaces[/]"]


def render(view: View, lang: str = "zh") -> str:
    """The table for one viewer (the shared renderer with this game's lines)."""
    return render_table(view, lang, TERMINAL, text(ShengjiGame.display["zh"], ShengjiGame.display["en"]))


def format_event(event: Event, lang: str = "zh") -> str:
    """One public event as a log line (the game's event text, seats named as the terminal names them)."""
    return seats_named(event_text(event)["zh" if lang == "zh" else "en"], lang)


_VERBS = {"play": "play", "出": "play", "出牌": "play", "bury": "bury", "扣": "bury", "扣底": "bury",
          "bid": "bid", "亮": "bid", "亮主": "bid"}


def parse_input(typed: str, legal: Sequence[Action]) -> Action | None:
    """Cards typed with or without the verb (``红桃A 红桃A``, ``出 A♥A♥``, ``AH AH``), ``p``/``不亮`` for pass: the
    action they mean, legal or not (the rule then says why not); None if unreadable."""
    raw = typed.strip()
    if raw.lower() in ("p", "pass", "不亮", "过", "no bid"):
        return "pass"
    verb: str | None = next((a.partition(" ")[0] for a in legal if a.partition(" ")[0] in ("play", "bury")), None)
    body = raw
    for word in sorted(_VERBS, key=len, reverse=True):
        if raw.lower().startswith(word) and (not word.isascii() or raw[len(word):][:1] in ("", " ")):
            verb, body = _VERBS[word], raw[len(word):]
            break
    if verb is None and any(a.startswith("bid ") for a in legal):
        verb = "bid"
    if verb is None:
        return None
    try:
        cards = parse_cards(body.replace(",", " ").replace("，", " "))
    except NotationError:
        return None
    if not cards:
        return None
    return verb + " " + " ".join(card_text(c) for c in cards)


TERMINAL = Terminal(extra=extra, parse_input=parse_input, hand=hand)
"""升级's terminal hooks, named by its registry entry: French cards are the core's."""

__all__ = ["TERMINAL", "extra", "format_event", "hand", "parse_input", "pretty", "render"]
