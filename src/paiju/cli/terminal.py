"""Playing a game in the terminal: the generic loop, drawing every table with the shared renderer.

What a person may type is what the screen shows: an option's number, its words (``打 二万``, ``杀 闲家1``),
the cards or tiles in any notation the core reads (``二万``, ``红桃A``, ``AH``, ``5m``), or the action code
itself.  A readable move the rules refuse gets the rule's reason in the chosen language (``Game.explain``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.prompt import Prompt

from paiju.bots import Bot
from paiju.core import SPECTATOR, ActionError, Event, Game, Terminal, View
from paiju.core.registry import entry
from paiju.core.terms import text as label

from .render import render_table, result_lines, say, seats_named

SHOWN_OPTIONS = 40
"""At most this many options are listed at once (``?`` lists them all)."""
SELECT_SHOWN = 0
"""Options listed when the seat picks cards from its hand (升级): none, so the hand stays on an 80×24 screen;
the hint says how to type the cards and ``?`` lists them."""


def game_cli(game: Game[Any]) -> Terminal:
    """The game's own terminal hooks, as its registry entry names them."""
    return entry(game.name).terminal_hooks()


def render_view(game: Game[Any], view: View, lang: str, *, result: bool = True) -> str:
    """The table as the game's hooks draw it; ``result=False`` leaves out the last hand's settlement."""
    hooks = game_cli(game)
    if hooks.render is not None:
        return hooks.render(view, lang)
    return render_table(view, lang, hooks, label(game.display.get("zh", game.name), game.display.get("en", "")),
                        result=result)


def show_result(view: View, lang: str, console: Console, shown: list[Any]) -> None:
    """A hand's settlement on its own panel, once, when it is new (``shown`` holds the last one printed), so
    the tables after it keep to one screen."""
    settled = view.get("table", {}).get("last_result")
    if settled and settled != (shown[0] if shown else None):
        console.print(Panel("\n".join(result_lines(settled, lang)), title=say("result", lang)))
        shown[:] = [settled]


def format_event(game: Game[Any], event: Event, lang: str) -> str:
    hooks = game_cli(game)
    if hooks.format_event is not None:
        return seats_named(hooks.format_event(event, lang), lang)
    return seats_named(game.event_text(event)["zh" if lang == "zh" else "en"], lang)


def describe(game: Game[Any], action: str, lang: str) -> str:
    """An option's words as the list shows them, seats named."""
    return seats_named(game.describe(action, lang), lang)


class Numbers:
    """Option numbers that stay put while a seat answers several decisions in a row from one list (the 水鱼
    banker answering each player in turn): when the seat's own last move is the only one since it was last
    asked and the new list holds only options already numbered, they keep their numbers; any other list is
    numbered afresh from 1."""

    def __init__(self) -> None:
        self.of: dict[str, int] = {}
        self.asked_at = -2

    def number(self, legal: Sequence[str], moves: int = -1) -> list[tuple[int, str]]:
        """``legal`` numbered; ``moves`` is how many moves the game has seen (its history's length)."""
        if moves != self.asked_at + 1 or not legal or any(a not in self.of for a in legal):
            self.of = {a: i + 1 for i, a in enumerate(legal)}
        self.asked_at = moves
        return sorted((self.of[a], a) for a in legal)


def list_options(game: Game[Any], numbered: Sequence[tuple[int, str]], console: Console, lang: str,
                 limit: int) -> None:
    """The options as ``n label`` cells, as many to a line as the screen's width holds, ``limit`` at most."""
    cells = [(f"{n:>2}", describe(game, a, lang)) for n, a in numbered[:limit]]
    if cells:
        width = max(len(n) + 1 + console.measure(escape(t)).maximum for n, t in cells) + 3
        per_line = max(1, (console.width - 2) // width)
        for start in range(0, len(cells), per_line):
            row = cells[start:start + per_line]
            console.print("  " + "".join(
                f"[bold cyan]{n}[/] {escape(t)}" + " " * (width - len(n) - 1 - console.measure(escape(t)).maximum)
                for n, t in row).rstrip(), highlight=False)
    if limit and len(numbered) > limit:
        console.print(f"  [dim]{say('more', lang, n=len(numbered) - limit)}[/]")


def _by_label(game: Game[Any], typed: str, legal: Sequence[str]) -> str | None:
    """The legal action whose words on the list (either language) are what was typed, spaces and case aside."""
    want = "".join(typed.split()).casefold()
    for a in legal:
        for lang in ("zh", "en"):
            if "".join(describe(game, a, lang).split()).casefold() == want:
                return a
    return None


def read_action(game: Game[Any], seat: int, typed: str, legal: Sequence[str]) -> str | None:
    """What ``typed`` means as an action, legal or not (None: not readable as a move of this game)."""
    if typed in legal or game.is_legal(seat, typed):
        return typed
    found = _by_label(game, typed, legal)
    if found is not None:
        return found
    hooks = game_cli(game)
    if hooks.parse_input is not None:
        parsed = hooks.parse_input(typed, legal)
        if parsed is not None:
            return str(parsed)
    verbs = {a.partition(" ")[0] for a in legal}
    return typed if typed.partition(" ")[0] in verbs else None


def choose_action(
    game: Game[Any], seat: int, legal: Sequence[str], console: Console, lang: str,
    ask: Callable[[str], str], numbers: Numbers | None = None,
) -> str:
    """Offer the legal actions numbered and read the choice; anything unreadable gets a hint, a readable move
    the rules refuse gets the rule's reason, ``q`` asks before leaving."""
    numbered = (numbers or Numbers()).number(legal, len(game.history))
    by_number = dict(numbered)
    select = game.view(seat)["table"].get("select")
    if select:
        verb, _, shown = describe(game, legal[0], lang).partition(" ") if legal else (select["verb"], "", "")
        example = " ".join(shown.split()[:2])
        console.print(f"  [dim]{escape(say('pick_hint', lang, verb=verb, example=example, count=len(legal)))}[/]",
                      highlight=False)
        list_options(game, numbered, console, lang, SELECT_SHOWN)
    else:
        list_options(game, numbered, console, lang, SHOWN_OPTIONS)
    while True:
        typed = ask(say("choice", lang)).strip()
        if typed in ("?", "h", "help", "？"):
            console.print(f"[dim]{escape(say('help', lang))}[/]", highlight=False)
            list_options(game, numbered, console, lang, len(numbered))
            continue
        if typed in ("q", "quit", "退出"):
            if ask(say("leave", lang)).strip().lower() in ("y", "yes", "是", "确定", "q"):
                raise KeyboardInterrupt
            console.print(f"[dim]{say('stay', lang)}[/]")
            continue
        if typed.isdigit() and int(typed) in by_number:
            return by_number[int(typed)]
        action = read_action(game, seat, typed, legal)
        if action is not None and (action in legal or game.is_legal(seat, action)):
            return action
        if action is not None:
            reason = seats_named(game.explain(seat, action)["zh" if lang == "zh" else "en"], lang)
            console.print(f"[red]{escape(say('refused', lang, reason=reason))}[/]", highlight=False)
            continue
        lo, hi = min(by_number, default=0), max(by_number, default=0)
        console.print(f"[red]{escape(say('invalid', lang, typed=typed, lo=lo, hi=hi))}[/]", highlight=False)


def play_terminal(
    game: Game[Any],
    human: int | None,
    bots: dict[int, Bot],
    *,
    lang: str = "zh",
    console: Console | None = None,
    ask: Callable[[str], str] | None = None,
    watch: Callable[[], int] | None = None,
    delay: float = 0.0,
) -> Game[Any]:
    """Run a game with one human seat, or none (then the table is drawn after every move as
    ``watch()`` sees it — asked afresh each time, since 偎麻雀's 守醒 moves with the dealer)."""
    console = console or Console()
    ask = ask or (lambda prompt: Prompt.ask(prompt, console=console))
    numbers = Numbers()

    def viewer() -> int:
        if human is not None:
            return human
        return watch() if watch is not None else SPECTATOR

    shown_for = -1
    settled: list[Any] = []
    while not game.finished:
        movers = game.to_move()
        if human is not None and human in movers:
            if shown_for != len(game.history):
                view = game.view(human)
                show_result(view, lang, console, settled)
                console.print(Panel(render_view(game, view, lang, result=False)))
                shown_for = len(game.history)
            legal = game.legal_actions(human)
            action = choose_action(game, human, legal, console, lang, ask, numbers)
            seat = human
        else:
            seat = next(s for s in movers if s != human)
            bot = bots[seat]
            action = bot.act(game.view(seat), game.legal_actions(seat))
        try:
            events = game.apply(seat, action)
        except ActionError as e:  # a human's typed text that slipped past the checks
            console.print(f"[red]{escape(e.text['zh' if lang == 'zh' else 'en'])}[/]")
            continue
        for ev in events:
            console.print(f"[dim]·[/] {format_event(game, ev, lang)}")
        if human is None and not game.finished:
            view = game.view(viewer())
            show_result(view, lang, console, settled)
            console.print(Panel(render_view(game, view, lang, result=False)))
            if delay > 0:
                time.sleep(delay)
    console.print(Panel(render_view(game, game.view(viewer()), lang), title=say("final", lang)))
    result = game.result()
    if result is not None:
        console.print(f"{say('totals', lang)}: " + "  ".join(
            f"{say('seat', lang, n=i)} {s:+g}" for i, s in enumerate(result.scores)))
    return game
