"""Count each game's protocol plumbing: the lines a game writes that are not its rules.

Plumbing is what every engine must provide for the protocol and the table rather than for its rules:
``clone``, ``resample``, the view, ``describe``, ``why_illegal`` and the display wording (labels, the
settlement's zh/en lines, event text), plus the declaration of its state where the core derives the rest
from it.  The figures are line counts (docstrings and comments included) of the named functions, methods and
module-level tables found anywhere in the game's package, so the same command measures a hand-written engine
and one built on the declared state; ``cli.py`` is counted whole on its own line.

    .venv/bin/python bench/plumbing.py [--against main] [--json]

docs/architecture.md keeps the before → after figures.
"""

from __future__ import annotations

import argparse
import ast
import json
import tempfile
from pathlib import Path

from paiju.devtools.revision import export_src

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("shuiyu", "huashui", "shengji", "weimaque")

CATEGORIES: dict[str, set[str]] = {
    "copy code": {"clone", "resample", "_refresh_options", "_resample_ok", "_rederive", "_resample_gather",
                  "_resample_place", "_hidden_wei", "_rederive_window", "_forget_passes", "_keep_waiting"},
    "declaration": {"_hand_sight", "_call_sight", "_response_sight", "_drawn_sight", "sees_hand", "_kitty_sight"},
    "view": {"_view", "_table", "_meld_view", "meld_view", "_hand_text", "hand_text", "_arr_json", "arr_json",
             "_last_round", "last_round", "_note", "note", "_sees", "_sees_hand", "visible", "_role",
             "_phase_label", "build"},
    "labels": {"describe", "label", "LABELS", "_SHORT", "SHORT", "_VERBS"},
    "why_illegal": {"why_illegal", "explain", "refusal_text", "_held"},
    "wording": {"PHASE_LABELS", "PHASE_LABEL", "KIND_LABELS", "MELD_LABEL", "_BANKER", "_PLAYER", "_HEAD", "_TAIL",
                "ROLE_DEALER", "ROLE_PLAYER", "ROLE_WATCHER", "_lbl", "_SUIT_ZH", "_trump_label", "_result_block",
                "_line", "settlement_line", "round_result", "payment_line", "kong_line", "follow_line", "win_line",
                "drawn_line", "hand_title", "MULTIPLIER_NAMES", "event_text", "_HOW", "_KONG", "_OUTCOME", "OUTCOMES",
                "trump_label", "suit_name", "hand_result", "_pretty"},
}
"""Category -> names of functions, methods or module-level assignments that belong to it, wherever they are
in the game's package (``cli.py`` apart: it is counted whole)."""


def _name(node: ast.stmt) -> str | None:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    return None


def _lines(node: ast.stmt) -> int:
    end = node.end_lineno or node.lineno
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    start = min([node.lineno, *(d.lineno for d in decorators)])
    return end - start + 1


def measure(src: Path, game: str) -> dict[str, int]:
    """Lines per category for one game's package, and its engine, view and terminal files whole."""
    counts = dict.fromkeys(CATEGORIES, 0)
    package = src / "paiju" / "games" / game
    for path in sorted(package.glob("*.py")):
        if path.name in ("cli.py", "bots.py", "study.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nodes: list[ast.stmt] = []
        for top in tree.body:
            if isinstance(top, ast.ClassDef):
                nodes.extend(top.body)
            else:
                nodes.append(top)
        for node in nodes:
            name = _name(node)
            if path.name == "state.py" and isinstance(node, ast.AnnAssign) and node not in tree.body:
                counts["declaration"] += _lines(node)  # a declared field (with its docstring, if any)
                continue
            for category, names in CATEGORIES.items():
                if name in names:
                    counts[category] += _lines(node)
                    break
    counts["plumbing"] = sum(counts[c] for c in CATEGORIES)
    counts["copy+decl"] = counts["copy code"] + counts["declaration"]
    engine = package / "engine.py"
    counts["engine.py"] = len(engine.read_text(encoding="utf-8").splitlines())
    view = package / "view.py"
    counts["view.py"] = len(view.read_text(encoding="utf-8").splitlines()) if view.exists() else 0
    cli = package / "cli.py"
    counts["cli.py"] = len(cli.read_text(encoding="utf-8").splitlines()) if cli.exists() else 0
    return counts


def table(rows: dict[str, dict[str, int]]) -> str:
    cols = [*CATEGORIES, "plumbing", "engine.py", "view.py", "cli.py"]
    out = [f"{'game':<10}" + "".join(f"{c:>12}" for c in cols)]
    for g, row in rows.items():
        out.append(f"{g:<10}" + "".join(f"{row[c]:>12}" for c in cols))
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REV", help="also measure git revision REV (e.g. main)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    result: dict[str, dict[str, dict[str, int]]] = {"this tree": {g: measure(ROOT / "src", g) for g in GAMES}}
    if args.against:
        with tempfile.TemporaryDirectory() as tmp:
            src = export_src(args.against, Path(tmp))
            result[args.against] = {g: measure(src, g) for g in GAMES}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    for label, rows in result.items():
        print(f"== {label}")
        print(table(rows))


if __name__ == "__main__":
    main()
