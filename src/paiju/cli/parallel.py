"""Running simulations and studies on every core or a Ray cluster from the command line: the options
``paiju sim`` and ``paiju study`` share, the progress bar, Ctrl-C, and the ``study`` command itself."""

from __future__ import annotations

import json
import sys
import time
from contextlib import ExitStack
from dataclasses import replace
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from paiju.bots.executor import Outcome, Work, execute, make_executor, ranges

err = Console(stderr=True)

Workers = Annotated[int | None, typer.Option(
    "--workers", "-w", help="processes to run on (default: every core; 1 = this process only)", min=1)]
UseRay = Annotated[bool, typer.Option("--ray", help="run on Ray (a local one unless --ray-address); "
                                      "needs pip install 'paiju[cluster]'")]
RayAddress = Annotated[str | None, typer.Option(
    "--ray-address", help="an existing Ray cluster, e.g. ray://head:10001 or auto (implies --ray)")]
ShowProgress = Annotated[bool, typer.Option(help="show a progress bar on stderr")]


def run_work(work: Work[Any, Any, Any], label: str, *, workers: int | None, ray: bool, ray_address: str | None,
             progress: bool) -> Outcome[Any]:
    """Execute ``work`` with a progress bar; Ctrl-C stops every worker and returns what finished."""
    try:
        executor = make_executor(workers, ray=ray, ray_address=ray_address, prepare=work.prepare)
    except RuntimeError as e:  # no Ray installed
        raise typer.BadParameter(str(e)) from e
    start = time.perf_counter()
    with ExitStack() as stack:
        try:  # the workers start before the bar's refresh thread, so forking them is safe
            ex = stack.enter_context(executor)
        except RuntimeError as e:  # a Ray cluster that cannot be reached
            err.print(f"[red]{e}[/]")
            raise typer.Exit(1) from e
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TextColumn("eta"), TimeRemainingColumn())
        with Progress(*columns, console=err, disable=not progress, transient=True) as bar:
            task = bar.add_task(f"{label} · {ex.workers} × {ex.name}", total=len(work.jobs))
            outcome = execute(work, ex, lambda n: bar.advance(task, n))
    if outcome.interrupted:
        err.print(f"interrupted: {outcome.done} of {outcome.total} finished; the summary covers those")
    # ``seconds`` covers starting the workers (and Ray) and preparing them, not only the jobs
    return replace(outcome, seconds=time.perf_counter() - start)


def emit(summary: dict[str, Any], outcome: Outcome[Any], finished: dict[str, Any] | None = None) -> None:
    """Print the JSON summary; an interrupted run says so (with ``finished``: what it covers) and exits 130, as a
    command stopped by SIGINT does."""
    if outcome.interrupted:
        summary["interrupted"] = True
        summary.update(finished or {})
    typer.echo(json.dumps(summary, ensure_ascii=False))
    if outcome.interrupted:
        sys.stdout.flush()
        raise typer.Exit(130)


def finished_seeds(outcome: Outcome[Any], first: int) -> dict[str, Any]:
    """The seeds an interrupted simulation finished, as inclusive ranges (``[[0, 57], [60, 61]]``)."""
    return {"games_requested": outcome.total,
            "finished_seeds": [[a + first, b + first] for a, b in ranges(outcome.done_jobs)]}


def ladder_field(game: str, extra: tuple[str, ...]) -> tuple[dict[str, str], tuple[str, ...]]:
    """The room's three strengths as bot kinds, and the field each plays against: those kinds (once each),
    random, and ``extra`` (the game's own opponents, e.g. 水鱼's habit player)."""
    from paiju.bots.base import STRENGTHS, strength_kinds

    kinds = strength_kinds(game)
    field: list[str] = []
    for kind in [*(kinds[s] for s in STRENGTHS), "random", *extra]:
        if kind not in field:
            field.append(kind)
    return {s: kinds[s] for s in STRENGTHS}, tuple(field)


def run_ladder(game: str, spec: Any, args: Any, *, workers: int | None, ray: bool, ray_address: str | None,
               progress: bool) -> None:
    """``paiju study GAME --ladder``: the game's own study with each strength's bot in the studied seats, on the
    same duplicate deals and the same field, one step after another; every row printed with its interval as it
    comes, then one JSON summary.  A strength that plays the same kind as another is said so, not hidden."""
    strengths, field = ladder_field(game, args.against)
    steps: list[dict[str, Any]] = []
    seconds = 0.0
    stopped: Outcome[Any] | None = None  # the run Ctrl-C interrupted
    for strength, kind in strengths.items():
        same = [s for s, k in strengths.items() if k == kind and s != strength]
        earlier = next((step for step in steps if step["kind"] == kind), None)
        if earlier is not None:  # the same bot on the same deals: the same rows, not played again
            err.print(f"[yellow]{strength} plays the same bot as {', '.join(same)} ({kind}): its rows are those[/]")
            steps.append({**earlier, "strength": strength, "same_as": same})
            continue
        work = spec.plan(replace(args, against=field, options={**args.options, "bot": kind}))
        outcome = run_work(work, f"{game} ladder · {strength} ({kind})", workers=workers, ray=ray,
                           ray_address=ray_address, progress=progress)
        seconds += outcome.seconds
        rows = outcome.summary.get("rows", [])
        for row in rows:
            if row.get("mean") is not None and row.get("ci95") is not None:
                err.print(f"{strength} ({kind}) vs {row['against']}: {row['mean']:+.3f} ± {row['ci95']:.3f} "
                          f"{row['unit']} (95% CI, {row['deals']} deals)")
        steps.append({"strength": strength, "kind": kind, "same_as": same, "rows": rows})
        if outcome.interrupted:
            stopped = outcome
            break
    summary = {"game": game, "study": "ladder", "deals": args.deals, "seed": args.seed, "field": list(field),
               "steps": steps, "seconds": round(seconds, 3)}
    if stopped is not None:
        emit(summary, stopped)
        return
    typer.echo(json.dumps(summary, ensure_ascii=False))


def register(app: typer.Typer) -> None:
    """Add ``study`` to the ``paiju`` command."""

    @app.command()
    def study(
        game: Annotated[str, typer.Argument(help="shuiyu | huashui | shengji | weimaque")],
        deals: Annotated[int | None, typer.Option("--deals", "-n", help="duplicate deals (default: the game's)",
                                                  min=1)] = None,
        seed: Annotated[int | None, typer.Option(help="first deal (default: the game's)")] = None,
        against: Annotated[str | None, typer.Option(help="opponent bot kinds, comma-separated ('' for none)")] = None,
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="study option key=value")] = None,
        workers: Workers = None,
        ray: UseRay = False,
        ray_address: RayAddress = None,
        progress: ShowProgress = True,
        ladder: Annotated[bool, typer.Option(
            "--ladder", help="the room's easy, normal and strong bots in turn, each against the field: the three "
                             "of them, random and the game's own opponents (or --against)")] = False,
    ) -> None:
        """Run the game's bot study (duplicate deals) and print a JSON summary (the same on any number of workers)."""
        from paiju.bots.study import StudyArgs, StudySpec
        from paiju.core import UnknownGameError
        from paiju.core.registry import entry

        try:
            found: StudySpec | None = entry(game).study_spec()
        except UnknownGameError as e:
            raise typer.BadParameter(str(e)) from e
        if found is None:
            raise typer.BadParameter(f"{game} has no bot study")
        spec = found
        options: dict[str, Any] = {}
        for item in option or []:
            key, sep, raw = item.partition("=")
            if not sep or key not in spec.options:
                known = ", ".join(f"{k} ({v})" for k, v in spec.options.items()) or "none"
                raise typer.BadParameter(f"{game} study options are key=value with key among: {known}")
            try:
                options[key] = json.loads(raw)
            except json.JSONDecodeError:
                options[key] = raw
        kinds = spec.against if against is None else tuple(a for a in against.split(",") if a)  # '' = none
        args = StudyArgs(deals=deals or spec.deals, seed=spec.seed if seed is None else seed, against=kinds,
                         options=options)
        if ladder:
            run_ladder(game, spec, args, workers=workers, ray=ray, ray_address=ray_address, progress=progress)
            return
        try:
            work = spec.plan(args)
        except (KeyError, ValueError) as e:
            raise typer.BadParameter(str(e)) from e
        outcome = run_work(work, f"{game} study", workers=workers, ray=ray, ray_address=ray_address,
                           progress=progress)
        summary = dict(outcome.summary)
        summary["seconds"] = round(outcome.seconds, 3)
        for row in summary.get("rows", []):
            if row["mean"] is not None and row["ci95"] is not None:
                err.print(f"{row['bot']} vs {row['against']}: {row['mean']:+.3f} ± {row['ci95']:.3f} {row['unit']} "
                          f"(95% CI, {row['deals']} deals, {row['hands']} hands)")
        emit(summary, outcome, {"jobs_requested": outcome.total, "jobs_finished": outcome.done})
