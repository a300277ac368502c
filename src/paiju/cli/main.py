"""``paiju``: play in the terminal, simulate bot matches, replay records, serve the card room."""

from __future__ import annotations

import importlib.util
import json
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from paiju.bots import get_bot
from paiju.bots.base import bot_names
from paiju.cli.parallel import RayAddress, ShowProgress, UseRay, Workers, emit, finished_seeds, run_work
from paiju.core import ConfigError, Game, Record, UnknownGameError, game_names, get_game


class _Commands(TyperGroup):
    """Adds the card room's ``serve`` (server extra) only when it is asked for: importing the server takes ~0.25 s,
    seconds on a busy machine, that ``paiju sim`` and every worker start should not pay."""

    SERVER_COMMANDS = ("serve", "admin", "export")

    def list_commands(self, ctx: Any) -> list[str]:
        names = super().list_commands(ctx)
        if importlib.util.find_spec("uvicorn") is not None:
            names += [n for n in self.SERVER_COMMANDS if n not in names]
        return names

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is not None or cmd_name not in self.SERVER_COMMANDS:
            return found
        try:
            from paiju.server.cli import register, register_tools  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            return None
        room = typer.Typer()
        register(room)
        register_tools(room)
        return typer.main.get_command(room).get_command(ctx, cmd_name)  # type: ignore[attr-defined]


class Lang(StrEnum):
    """The languages a person may read the terminal in (a Typer choice: anything else is a usage error)."""

    zh = "zh"
    en = "en"


app = typer.Typer(help="牌局 paiju — Chinese regional card and tile games.", no_args_is_help=True, cls=_Commands)
err = Console(stderr=True)


def _config(game: str, options: list[str] | None) -> Any:
    cls = get_game(game)
    data: dict[str, Any] = {}
    for item in options or []:
        key, sep, raw = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"--option takes key=value, not {item!r}")
        try:
            data[key] = json.loads(raw)
        except json.JSONDecodeError:
            data[key] = raw
    try:
        return cls.config_class.from_dict(data)
    except ConfigError as e:
        raise typer.BadParameter(str(e)) from e


def _game_class(name: str) -> type[Game[Any]]:
    try:
        return get_game(name)
    except UnknownGameError as e:
        raise typer.BadParameter(str(e)) from e


@app.command()
def games() -> None:
    """List the registered games."""
    for name in game_names():
        cls = get_game(name)
        typer.echo(f"{name}\t{cls.display.get('zh', '')}\t{cls.display.get('en', '')}")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="a registered game (`paiju games` lists them)")],
    seat: Annotated[int, typer.Option(help="your seat, from 0")] = 0,
    seed: Annotated[int | None, typer.Option(help="deal seed (random if omitted)")] = None,
    bots: Annotated[str, typer.Option(help="bot kind for the other seats: best, random or the game's own")] = "best",
    lang: Annotated[Lang, typer.Option(help="language of the table and the options", case_sensitive=False)] = Lang.zh,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="rule option key=value")] = None,
    watch: Annotated[bool, typer.Option(help="watch only (偎麻雀: sit as the 守醒)")] = False,
    delay: Annotated[float, typer.Option(help="seconds between moves when watching")] = 0.0,
    save: Annotated[Path | None, typer.Option(help="write the game record here at the end")] = None,
) -> None:
    """Play against bots in the terminal.  Type an option's number, its words or the cards; ``?`` for help."""
    from paiju.cli.render import say
    from paiju.cli.terminal import play_terminal

    cls = _game_class(game)
    cfg = _config(game, option)
    if bots != "best" and bots not in bot_names(game):
        raise typer.BadParameter(f"no bot {bots!r} for {game}; known: best, {', '.join(bot_names(game))}",
                                 param_hint="--bots")
    seed = seed if seed is not None else int(time.time() * 1000) % 2**31
    g = cls.new(cfg, seed)
    if not watch and not 0 <= seat < g.num_seats:
        raise typer.BadParameter(f"{game} has seats 0–{g.num_seats - 1}, not {seat}", param_hint="--seat")
    human: int | None = None if watch else seat
    bot_seats = {s: get_bot(game, bots, seed + s) for s in range(g.num_seats) if s != human}
    try:
        play_terminal(g, human, bot_seats, lang=lang.value, watch=g.watch_seat, delay=delay)
    except (KeyboardInterrupt, EOFError):
        err.print("\n" + say("bye", lang.value))
    if save is not None:
        save.write_text(g.record().to_json(), encoding="utf-8")
        err.print(say("record", lang.value, path=save))


@app.command()
def sim(
    game: str,
    games: Annotated[int, typer.Option("--games", "-n", help="number of matches")] = 100,
    seed: Annotated[int, typer.Option(help="first seed; match i uses seed+i")] = 0,
    bots: Annotated[str, typer.Option(help="bot kind per seat, comma-separated, or one for all")] = "best",
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="rule option key=value")] = None,
    progress: ShowProgress = True,
    workers: Workers = None,
    ray: UseRay = False,
    ray_address: RayAddress = None,
    per_match: Annotated[bool, typer.Option(help="list every match's seed, scores and actions")] = False,
) -> None:
    """Bots only: play N seeded matches and print a JSON summary (the same on any number of workers)."""
    from paiju.bots.sim import sim_work

    cls = _game_class(game)
    cfg = _config(game, option)
    kinds = bots.split(",")
    n_seats = cls.new(cfg, seed).num_seats
    if len(kinds) == 1:
        kinds = kinds * n_seats
    if len(kinds) != n_seats:
        raise typer.BadParameter(f"{game} has {n_seats} seats; give 1 or {n_seats} bot kinds")
    try:
        for kind in set(kinds):
            get_bot(game, kind)
    except KeyError as e:
        raise typer.BadParameter(str(e.args[0])) from e
    work = sim_work(game, cfg, kinds, games=games, seed=seed, per_match=per_match)
    outcome = run_work(work, game, workers=workers, ray=ray, ray_address=ray_address, progress=progress)
    summary = outcome.summary
    summary["seconds"] = round(outcome.seconds, 3)
    summary["games_per_second"] = round(outcome.done / outcome.seconds, 1) if outcome.seconds else 0.0
    emit(summary, outcome, finished_seeds(outcome, seed))


@app.command()
def replay(
    file: Path,
    lang: Annotated[Lang, typer.Option(help="language of the moves and the table", case_sensitive=False)] = Lang.zh,
) -> None:
    """Print a saved game record move by move."""
    from paiju.cli.render import say
    from paiju.cli.terminal import describe, format_event, render_view

    console = Console()
    try:
        rec = Record.from_json(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise typer.BadParameter(f"cannot read record {file}: {e}") from e
    cls = _game_class(rec.game)
    g = cls(cls.config_class.from_dict(rec.config), rec.seed, rec.deal)
    console.print(f"[bold]{rec.game}[/] seed={rec.seed} config={json.dumps(rec.config, ensure_ascii=False)}")
    lang_code = lang.value
    for n, (seat, action) in enumerate(rec.actions, 1):
        label = describe(g, action, lang_code)
        events = g.apply(seat, action)
        console.print(f"{n:>4}. {say('seat', lang_code, n=seat)}: {label}  [dim]{action}[/]")
        for ev in events:
            console.print(f"      · {format_event(g, ev, lang_code)}")
    console.print(render_view(g, g.view(-2), lang_code))
    result = g.result()
    if result is not None:
        console.print(f"{say('totals', lang_code)}: " + "  ".join(f"{i}:{s:g}" for i, s in enumerate(result.scores)))


def _register_optional() -> None:
    """``paiju study`` (beside ``sim``)."""
    from paiju.cli.parallel import register as register_study

    register_study(app)


_register_optional()

if __name__ == "__main__":
    app()
