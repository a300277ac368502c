"""Re-record the recorded-game bank and print a reviewable summary of what changed.

    .venv/bin/python tests/bank/record.py                    # what would change (nothing is written)
    .venv/bin/python tests/bank/record.py --against main     # ... and, for each changed record, what differs
                                                             #     at its first changed step, key by key
    .venv/bin/python tests/bank/record.py --write            # write tests/bank/<game>.json
    .venv/bin/python tests/bank/record.py --game huashui --regenerate rob-added-kong --write

A record's stored actions are replayed with the code in this tree; only a new recipe, a record named with
``--regenerate``, or one whose actions the rules now refuse is played afresh from its recipe (and the summary
says so).  ``--against REV`` replays the changed records with git revision REV's ``src/`` in a subprocess and
prints, at the first changed step, every JSON path whose value differs (old → new), so a rule change can be
reviewed step by step before the bank is rewritten.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from bank import (  # noqa: E402
    BankRecord,
    Difference,
    compare,
    compute_steps,
    load,
    observe,
    replay_steps,
    save,
)
from bank.recipes import Recipe, play, recipes  # noqa: E402
from paiju.core import ActionError  # noqa: E402

GAMES = ("shuiyu", "huashui", "shengji", "weimaque")


def build(recipe: Recipe) -> BankRecord:
    rec = BankRecord(recipe.name, dict(recipe.config), recipe.seed, play(recipe), deal=recipe.deal)
    rec.steps = compute_steps(recipe.game, rec)
    return rec


def refresh(game: str, recipe: Recipe, stored: BankRecord | None, regenerate: bool) -> tuple[BankRecord, str,
                                                                                              Difference | None]:
    """The record as this tree produces it, a one-line status, and its first difference from the bank."""
    if stored is None:
        return build(recipe), "new", None
    if regenerate:
        return build(recipe), "regenerated on request", None
    try:
        steps = compute_steps(game, stored)
    except ActionError as e:
        return build(recipe), f"regenerated: a stored action is now refused ({e})", None
    fresh = BankRecord(stored.name, stored.config, stored.seed, stored.actions, steps, stored.deal)
    diff = compare(game, stored, steps)
    return fresh, "unchanged" if diff is None else diff.describe(game), diff


def observed(game: str, rec: BankRecord, step: int) -> dict[str, Any]:
    for i, (g, events) in enumerate(replay_steps(game, rec)):
        if i == step:
            out: dict[str, Any] = json.loads(json.dumps(observe(g, events)))
            return out
    raise IndexError(step)


def json_diff(old: Any, new: Any, path: str = "") -> list[str]:
    """Every path where two JSON values differ, as ``path: old → new``."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[str] = []
        for key in sorted(set(old) | set(new), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in old:
                out.append(f"{sub}: (absent) → {_short(new[key])}")
            elif key not in new:
                out.append(f"{sub}: {_short(old[key])} → (absent)")
            else:
                out += json_diff(old[key], new[key], sub)
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        out = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            out += json_diff(a, b, f"{path}[{i}]")
        return out
    return [] if old == new else [f"{path}: {_short(old)} → {_short(new)}"]


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def show_against(rev: str, game: str, rec: BankRecord, step: int, old_src: Path) -> None:
    """Print what differs at ``step`` between revision ``rev`` and this tree."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        json.dump(rec.to_dict(), f)
        path = f.name
    try:
        env = dict(os.environ, PYTHONPATH=str(old_src))
        out = subprocess.run([sys.executable, __file__, "--dump", game, path, str(step)], env=env,
                             capture_output=True, text=True)
    finally:
        os.unlink(path)
    if out.returncode != 0:
        print(f"      ({rev} cannot replay this record: {out.stderr.strip().splitlines()[-1:]})")
        return
    old = json.loads(out.stdout)
    new = observed(game, rec, step)
    lines = json_diff(old, new)
    for line in lines[:40]:
        print(f"      {line}")
    if len(lines) > 40:
        print(f"      … {len(lines) - 40} more")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    parser.add_argument("--write", action="store_true", help="write the bank files")
    parser.add_argument("--against", metavar="REV", help="show key-level differences against a git revision")
    parser.add_argument("--regenerate", action="append", default=[], metavar="NAME",
                        help="play this record afresh from its recipe")
    parser.add_argument("--dump", nargs=3, metavar=("GAME", "RECORD_FILE", "STEP"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.dump:
        game, path, step = args.dump
        rec = BankRecord.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))
        print(json.dumps(observed(game, rec, int(step)), ensure_ascii=False))
        return
    # imported here, not above: --dump runs this file on another revision's paiju, which may lack devtools
    from paiju.devtools.revision import export_src

    changed = 0
    with tempfile.TemporaryDirectory() as tmp:
        old_src = export_src(args.against, Path(tmp)) if args.against else None
        for game in args.game or GAMES:
            stored = {r.name: r for r in load(game)}
            fresh: list[BankRecord] = []
            print(f"== {game}")
            for recipe in recipes(game):
                rec, status, diff = refresh(game, recipe, stored.pop(recipe.name, None),
                                            recipe.name in args.regenerate)
                fresh.append(rec)
                print(f"  {recipe.name:<28} {len(rec.actions):>5} actions  {status}")
                if status != "unchanged":
                    changed += 1
                if diff is not None and old_src is not None and args.against:
                    show_against(args.against, game, rec, diff.step, old_src)
            for name in stored:
                print(f"  {name:<28} dropped (no recipe)")
                changed += 1
            if args.write:
                save(game, fresh)
    verb = "written" if args.write else "not written (use --write)"
    print(f"{changed} record(s) new, changed or dropped; bank {verb}")


if __name__ == "__main__":
    main()
