"""Playing a game in the terminal: the generic loop, drawing every table with the shared renderer."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.prompt import Prompt

from paiju.bots import Bot
from paiju.core import SPECTATOR, ActionError, Event, Game, Terminal, View
from paiju.core.registry import entry
from paiju.core.terms import text as label

from .render import render_table


def game_cli(game: Game[Any]) -> Terminal:
    """The game's own terminal hooks, as its registry entry names them."""
    return entry(game.name).terminal_hooks()


def render_view(game: Game[Any], view: View, lang: str) -> str:
    hooks = game_cli(game)
    if hooks.render is not None:
        return hooks.render(view, lang)
    return render_table(view, lang, hooks, label(game.display.get("zh", game.name), game.display.get("en", "")))


def format_event(game: Game[Any], event: Event, lang: str) -> str:
    hooks = game_cli(game)
    if hooks.format_event is not None:
        return hooks.format_event(event, lang)
    return game.event_text(event)["zh" if lang == "zh" else "en"]


def choose_action(
    game: Game[Any], seat: int, legal: Sequence[str], console: Console, lang: str,
    ask: Callable[[str], str],
) -> str:
    """Offer the legal actions numbered; accept a number or the action's text.  Bad input gets a hint."""
    hooks = game_cli(game)
    for i, a in enumerate(legal[:40]):
        console.print(f"  [bold cyan]{i + 1:>2}[/] {game.describe(a, lang)}  [dim]{a}[/]")
    if len(legal) > 40:
        console.print(f"  … {len(legal) - 40} more; type the action itself")
    while True:
        text = ask("你的选择 / your choice").strip()
        if text in ("?", "h", "help"):
            console.print("[dim]输入编号或动作文字 · type a number or the action text; q quits[/]")
            continue
        if text in ("q", "quit"):
            raise KeyboardInterrupt
        if text.isdigit() and 1 <= int(text) <= min(len(legal), 40):
            return legal[int(text) - 1]
        if hooks.parse_input is not None:
            parsed = hooks.parse_input(text, legal)
            if parsed is not None:
                return str(parsed)
        if game.is_legal(seat, text):
            return text
        console.print(f"[red]无效输入 invalid:[/] {text!r} — 输入 1–{min(len(legal), 40)} 或动作文字 "
                      "(type a number or an action shown above; ? for help)")


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

    def viewer() -> int:
        if human is not None:
            return human
        return watch() if watch is not None else SPECTATOR

    shown_for = -1
    while not game.finished:
        movers = game.to_move()
        if human is not None and human in movers:
            if shown_for != len(game.history):
                console.print(Panel(render_view(game, game.view(human), lang)))
                shown_for = len(game.history)
            legal = game.legal_actions(human)
            action = choose_action(game, human, legal, console, lang, ask)
            seat = human
        else:
            seat = next(s for s in movers if s != human)
            bot = bots[seat]
            action = bot.act(game.view(seat), game.legal_actions(seat))
        try:
            events = game.apply(seat, action)
        except ActionError as e:  # a human's typed text that slipped past the checks
            console.print(f"[red]{e}[/]")
            continue
        for ev in events:
            console.print(f"[dim]·[/] {format_event(game, ev, lang)}")
        if human is None and not game.finished:
            console.print(Panel(render_view(game, game.view(viewer()), lang)))
            if delay > 0:
                time.sleep(delay)
    console.print(Panel(render_view(game, game.view(viewer()), lang), title="终局 final"))
    result = game.result()
    if result is not None:
        console.print("总分 totals: " + "  ".join(f"{i}:{s:g}" for i, s in enumerate(result.scores)))
    return game
