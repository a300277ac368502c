"""bench/ and research/ hold scripts that nothing else imports: code a test or the product needs lives in src/.

``bench/`` holds the benchmarks the performance docs quote, ``research/`` the experiments the bot docs quote.
A benchmark may not import an experiment (research code may change or go without a benchmark noticing), and
nothing under ``src/`` or ``tests/`` may import either folder's modules or put either folder on ``sys.path``
(a test would then depend on a script's internals; the product would not install).  The files are read with
``ast`` (nothing is imported), so optional extras need not be installed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT_DIRS = ("bench", "research")


def script_modules(folder: str) -> set[str]:
    """The module names a folder's scripts import each other by (their stems: the folder is ``sys.path[0]``)."""
    return {p.stem for p in (ROOT / folder).glob("*.py")}


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The top-level names an import statement reads (``a.b`` → ``a``); relative imports read none."""
    if isinstance(node, ast.Import):
        return [alias.name.split(".")[0] for alias in node.names]
    return [node.module.split(".")[0]] if node.level == 0 and node.module else []


def _names_folder(node: ast.AST, folders: tuple[str, ...], tainted: set[str]) -> bool:
    """Whether an expression spells one of ``folders`` as a path (a string literal equal to it or ending in
    ``/folder``, as in ``ROOT / "bench"``) or reads a variable that holds one (``tainted``)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in tainted:
            return True
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            text = sub.value.rstrip("/\\")
            if any(text == f or text.endswith(("/" + f, "\\" + f)) for f in folders):
                return True
    return False


def _folder_variables(tree: ast.AST, folders: tuple[str, ...]) -> set[str]:
    """Names bound to a path of ``folders``, directly or through other such names: ``BENCH = ROOT / "bench"``,
    ``for path in (TESTS, ROOT / "bench")``."""
    bindings: list[tuple[list[ast.expr], ast.AST]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            bindings.append((node.targets, node.value))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            bindings.append(([node.target], node.value))
        elif isinstance(node, (ast.For, ast.comprehension)):
            bindings.append(([node.target], node.iter))
    tainted: set[str] = set()
    while True:
        before = len(tainted)
        for targets, value in bindings:
            if _names_folder(value, folders, tainted):
                tainted |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        if len(tainted) == before:
            return tainted


def _path_insertions(tree: ast.AST) -> Iterator[ast.Call]:
    """Calls that add to ``sys.path``: ``sys.path.insert/append/extend(...)`` and ``site.addsitedir(...)``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        owner, method = node.func.value, node.func.attr
        on_sys_path = (isinstance(owner, ast.Attribute) and owner.attr == "path"
                       and isinstance(owner.value, ast.Name) and owner.value.id == "sys")
        on_site = isinstance(owner, ast.Name) and owner.id == "site"
        if (on_sys_path and method in ("insert", "append", "extend")) or (on_site and method == "addsitedir"):
            yield node


def violations(source: str, forbidden_modules: set[str], forbidden_dirs: tuple[str, ...]) -> list[str]:
    """What in ``source`` imports one of ``forbidden_modules`` (or a package named like ``forbidden_dirs``) or
    puts one of ``forbidden_dirs`` on ``sys.path``, as ``line: what`` strings."""
    tree = ast.parse(source)
    out: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        for name in _imported(node):
            if name in forbidden_modules or name in forbidden_dirs:
                out.append(f"{node.lineno}: imports {name}")
    tainted = _folder_variables(tree, forbidden_dirs)
    for call in _path_insertions(tree):
        if any(_names_folder(arg, forbidden_dirs, tainted) for arg in call.args):
            out.append(f"{call.lineno}: puts {'/'.join(forbidden_dirs)} on sys.path")
    return out


def scan(folders: tuple[str, ...], forbidden_modules: set[str], forbidden_dirs: tuple[str, ...]) -> list[str]:
    """Every violation in the ``.py`` files under ``folders``, as ``path:line: what``."""
    found: list[str] = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT)
            for v in violations(path.read_text(encoding="utf-8"), forbidden_modules, forbidden_dirs):
                found.append(f"{rel}:{v}")
    return found


def test_benchmarks_do_not_import_research() -> None:
    modules = script_modules("research") - script_modules("bench")
    assert scan(("bench",), modules, ("research",)) == []


def test_src_and_tests_import_no_script() -> None:
    modules = script_modules("bench") | script_modules("research")
    assert scan(("src", "tests"), modules, SCRIPT_DIRS) == []


def test_the_script_folders_are_not_packages() -> None:
    """Their scripts find each other as top-level modules (the folder is ``sys.path[0]``); mypy checks them so."""
    for folder in SCRIPT_DIRS:
        assert not (ROOT / folder / "__init__.py").exists(), folder
    assert not script_modules("bench") & script_modules("research"), "a module name in both folders"


@pytest.mark.parametrize(("source", "expected"), [
    ("import bench_engines\n", ["1: imports bench_engines"]),
    ("from huashui_read import auc\n", ["1: imports huashui_read"]),
    ("def f() -> None:\n    import bench_engines.x\n", ["2: imports bench_engines"]),
    ("from research.huashui_read import auc\n", ["1: imports research"]),
    ("import sys\nsys.path.insert(0, str(ROOT / 'bench'))\n", ["2: puts bench/research on sys.path"]),
    ("import sys\nsys.path.append('/repo/research/')\n", ["2: puts bench/research on sys.path"]),
    ("import site\nsite.addsitedir(ROOT.joinpath('research'))\n", ["2: puts bench/research on sys.path"]),
    ("import sys\nBENCH = ROOT / 'bench'\nsys.path.insert(0, str(BENCH))\n", ["3: puts bench/research on sys.path"]),
    ("import sys\nfor p in (TESTS, ROOT / 'bench'):\n    if str(p) not in sys.path:\n"
     "        sys.path.insert(0, str(p))\n", ["4: puts bench/research on sys.path"]),
    ("from paiju.devtools.revision import export_src\nimport json\n", []),
    ("import sys\nsys.path.insert(0, str(ROOT / 'scripts'))\nBENCH = ROOT / 'bench'\n", []),
    ("from .bench_engines import x\n", []),
])
def test_the_scanner_catches_a_planted_violation(source: str, expected: list[str]) -> None:
    assert violations(source, {"bench_engines", "huashui_read"}, SCRIPT_DIRS) == expected
