"""Imports that run one way: no cycles anywhere in paiju, and the card room's layers (docs/server.md, "How the
room is built") import only downwards, plus the sideways edges named below.

Every ``import`` counts, also under ``TYPE_CHECKING`` and inside functions: a cycle or a back-import hidden
behind a function-level import works until someone moves the import; one behind ``TYPE_CHECKING`` breaks the
moment a type is needed at run time.  The modules are read with ``ast`` (nothing is imported), so optional
extras need not be installed.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def _module_name(path: Path, src: Path = SRC) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(src: Path = SRC) -> dict[str, Path]:
    return {_module_name(p, src): p for p in sorted((src / "paiju").rglob("*.py"))}


def _resolve(current: str, is_package: bool, level: int, module: str | None) -> str:
    if level == 0:
        return module or ""
    base = current.split(".") if is_package else current.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    """Module -> the paiju modules it imports, wherever the import statement sits."""
    modules = _modules(src)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, is_package, node.level, node.module)
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                targets = subs if len(subs) == len(node.names) else [base, *subs]
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles() -> None:
    found = cycles(import_graph())
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_checker_sees_imports_inside_functions_and_type_checking() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    graph = import_graph()
    assert "paiju.core.registry" in graph and "paiju.core.game" in graph["paiju.core.registry"]
    # paiju.cli.main imports the card room's CLI inside a function
    assert "paiju.server.cli" in graph["paiju.cli.main"]


# ---- the card room's layers ------------------------------------------------------------------------------

SERVER = "paiju.server"
PARTS: dict[str, str] = {
    # module or package under paiju.server -> its part
    "": "top", "cli": "top",
    "http": "http", "lobby": "lobby",
    "room": "room", "people": "people", "scores": "scores", "cluster": "cluster",
    "storage": "storage", "writer": "storage", "migrations": "migrations",
    "settings": "base", "errors": "base", "limits": "base",
}
"""Where every module of the card room belongs: a new module must be given a part here (and a line in
docs/server.md's map) before the contracts below let it in."""

FEATURES = {"room", "people", "scores", "cluster"}
BELOW: dict[str, set[str]] = {
    "top": {"http", "lobby", *FEATURES, "storage", "migrations", "base"},
    "http": {"lobby", *FEATURES, "storage", "base"},
    "lobby": {*FEATURES, "storage", "base"},
    **{f: {"storage", "base"} for f in FEATURES},
    "storage": {"base"},
    "migrations": {"storage"},
    "base": set(),
}
"""The layers, top to bottom: top → http → lobby → (room, people, scores, cluster) → storage → base → the game
core.  Each part may import its own modules, the parts listed here and anything of paiju outside the server."""

SIDEWAYS: dict[tuple[str, str], tuple[set[str] | None, str]] = {
    ("cluster", "room"): (None, "the cluster replays, serves and relays tables; the room knows it only as "
                                "room.ownership.Cluster"),
    ("scores", "room"): ({"room.store", "room.table", "room.room"},
                         "a finished table is booked from its record (room.store.replay_game); the series sheet "
                         "reads live tables; the ledger's hooks are room.store.StoreHooks"),
    ("scores", "people"): ({"people.accounts", "people.moderation"},
                           "a ledger entry names an account; a person's export gathers their account and reports"),
    ("migrations", "people"): ({"people.accounts"}, "the schema's account tables join the metadata"),
    ("migrations", "scores"): ({"scores.ledger"}, "the schema's ledger tables join the metadata"),
}
"""The only edges between parts of one layer (or upwards), each with the modules it may reach and why.  The
room reaches scores only through ``StoreHooks`` (filled in by http.app), and never the cluster, people or
HTTP."""


def part_of(module: str) -> str | None:
    """The part of a card-room module, None outside the card room; raises for a module with no part."""
    if module != SERVER and not module.startswith(SERVER + "."):
        return None
    rest = module[len(SERVER) + 1:]
    head = rest.split(".")[0]
    if head not in PARTS:
        raise KeyError(f"{module} belongs to no part of the card room: add it to PARTS and docs/server.md")
    return PARTS[head]


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import that breaks a contract: a back-import, an unnamed sideways edge, or a module outside the
    card room that imports it (only the command line may, to start it)."""
    out = []
    for src, targets in sorted(graph.items()):
        a = part_of(src)
        for dst in sorted(targets):
            b = part_of(dst)
            if b is None or a == b:
                continue
            if a is None:
                if (src, dst) != ("paiju.cli.main", "paiju.server.cli"):
                    out.append(f"{src} -> {dst}: only the command line imports the card room")
                continue
            if b in BELOW[a]:
                continue
            allowed, _why = SIDEWAYS.get((a, b), (set(), ""))
            if allowed is None or dst[len(SERVER) + 1:] in allowed:
                continue
            out.append(f"{src} -> {dst}: {a} may not import {b}")
    return out


def test_the_card_room_imports_run_one_way() -> None:
    found = layer_violations(import_graph())
    assert found == [], "imports against the layers:\n" + "\n".join(found)


def test_every_card_room_module_has_a_part_and_a_line_in_the_map() -> None:
    modules = [m for m in _modules() if m.startswith(SERVER)]
    assert {part_of(m) for m in modules} == set(BELOW)  # every part has modules, every module a part
    server_md = (SRC.parent / "docs" / "server.md").read_text(encoding="utf-8")
    for sub in (SRC / "paiju" / "server").iterdir():
        if sub.is_dir() and (sub / "__init__.py").exists():
            assert f"`{sub.name}/`" in server_md, f"docs/server.md's map has no line for {sub.name}/"
            doc = ast.get_docstring(ast.parse((sub / "__init__.py").read_text(encoding="utf-8"))) or ""
            assert "May import" in doc, f"{sub.name}/__init__.py does not say what it may import"


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """A copy of the source with one back-import planted: a room module importing the HTTP app."""
    shutil.copytree(SRC / "paiju", tmp_path / "paiju")
    seats = tmp_path / "paiju" / "server" / "room" / "seats.py"
    seats.write_text(seats.read_text(encoding="utf-8") + "\n\ndef _planted() -> None:\n"
                     "    from ..http import app  # noqa: F401\n", encoding="utf-8")
    return tmp_path


def test_a_planted_back_import_fails_the_contracts(planted: Path) -> None:
    found = layer_violations(import_graph(planted))
    assert found == ["paiju.server.room.seats -> paiju.server.http.app: room may not import http"]


def test_the_contracts_refuse_unnamed_sideways_edges_and_outsiders() -> None:
    graph = {
        "paiju.server.room.table": {"paiju.server.scores.scoring", "paiju.server.storage"},
        "paiju.server.people.accounts": {"paiju.server.room.table"},
        "paiju.server.scores.series": {"paiju.server.room.table", "paiju.server.room.seats"},
        "paiju.server.storage": {"paiju.server.people.auth"},
        "paiju.core.game": {"paiju.server.errors"},
        "paiju.cli.main": {"paiju.server.cli"},
        "paiju.server.cluster.leases": {"paiju.server.room.room"},
    }
    assert layer_violations(graph) == [
        "paiju.core.game -> paiju.server.errors: only the command line imports the card room",
        "paiju.server.people.accounts -> paiju.server.room.table: people may not import room",
        "paiju.server.room.table -> paiju.server.scores.scoring: room may not import scores",
        "paiju.server.scores.series -> paiju.server.room.seats: scores may not import room",
        "paiju.server.storage -> paiju.server.people.auth: storage may not import people",
    ]
    with pytest.raises(KeyError):
        part_of("paiju.server.newthing")


def test_no_card_room_module_does_several_jobs_in_over_600_lines() -> None:
    """A module that outgrows 600 lines is doing more than one job: split it by job (docs/server.md's map)."""
    long = {name: n for name, path in _modules().items() if name.startswith(SERVER)
            and (n := len(path.read_text(encoding="utf-8").splitlines())) > 600}
    assert long == {}, f"split these by job: {long}"
