"""Build paiju's engines with mypyc: the optional compiled build.

    scripts/build-compiled                    # builds (or reuses) .cache/compiled/<hash> and prints that directory
    PYTHONPATH=$(scripts/build-compiled) .venv/bin/paiju sim shengji --games 20     # use it
    PAIJU_COMPILE=1 pip install .             # or a compiled install (setup.py), from a clean tree

The directory holds a whole ``paiju`` package: a copy of ``src/paiju`` in which the modules of :data:`MODULES`
are extension modules, beside their ``.py`` (a compiled class keeps no annotations, so the declared state is read
from the source: :func:`paiju.core.state.restore_annotations`), and every other module is the pure one.  Put the
directory first on ``PYTHONPATH`` to use it; nothing else changes.  A module mypyc or the C compiler refuses is
left pure (the build says which, and the suite's ``tests/test_compiled.py`` fails until it is mended or moved to
:data:`PURE`).  Builds are cached by a hash of everything they depend on (the package's files, this script,
Python's and mypy's versions), so a second run is instant.

Needs mypy (the ``test`` extra brings it, with mypyc), a C compiler and the Python headers; ``--check`` says
whether this machine has them.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
CACHE = ROOT / ".cache" / "compiled"
KEEP = 3
"""Finished builds the cache keeps (the newest; a build in progress is never removed)."""

GAMES = ("shuiyu", "huashui", "shengji", "weimaque")
MODULES: tuple[str, ...] = (
    "paiju/core/cards.py",
    "paiju/core/claims.py",
    "paiju/core/display.py",
    "paiju/core/state.py",
    "paiju/core/terms.py",
    *(f"paiju/games/{g}/{m}.py" for g in GAMES for m in ("rules", "state", "engine", "view")),
    "paiju/games/huashui/tables.py",
    "paiju/games/huashui/tiles.py",
    "paiju/games/shengji/plays.py",
    "paiju/games/weimaque/cards.py",
    "paiju/games/weimaque/groups.py",
    "paiju/games/weimaque/mingtang.py",
)
"""What is compiled (paths under ``src/``): each game's rules, tables, state, engine and view, and the core's
card notation, claim window, display builders, terms and declared state: every module where a profile of random
play with a view per decision spends its time, but the game base and the configs (:data:`PURE`; docs/performance.md,
"The compiled build").  Everything else is pure."""

PURE: dict[str, str] = {
    "paiju/core/game.py": "the base of every game (5-12% of random play's time): tests and users subclass it in "
                          "plain Python (a compiled class cannot have interpreted subclasses), and each game "
                          "narrows its `phase: Any`, which a compiled base refuses",
    "paiju/core/errors.py": "exceptions that also subclass ValueError and KeyError, which mypyc cannot compile",
    "paiju/core/config.py": "the configs' base, subclassed in plain Python too (0-2% of random play's time)",
}
"""Core modules left pure on purpose, and why.  Bots, the CLI, the server and the RL wrappers are not the engines
and stay pure as well."""


def missing_tools() -> str | None:
    """Why this machine cannot build the compiled engines, or None if it can."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypyc is not installed (it comes with mypy: pip install -e '.[test]')"
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc} is not on PATH)"
    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").exists():
        return f"no Python headers ({include}/Python.h is missing: install python3-dev)"
    return None


def extensions(paths: list[str]) -> list[Any]:
    """The extension modules for ``paths``, as both the directory build and ``setup.py`` make them.

    One compilation group (calls between compiled modules stay native), optimised at -O3 without debug info, and
    the C compiler's warnings left as errors, as mypyc sets them: a "may be used uninitialized" was a real
    miscompile here (docs/performance.md, "The compiled build").
    """
    from mypyc.build import mypycify

    return list(mypycify(paths, opt_level="3", debug_level="0"))


def source_hash() -> str:
    """A hash of everything the build depends on: every file of the package, this script, the tool versions."""
    import mypy.version

    h = hashlib.sha256()
    h.update(f"{sys.version}\n{mypy.version.__version__}\n{sysconfig.get_platform()}\n".encode())
    h.update(Path(__file__).read_bytes())
    for path in sorted((SRC / "paiju").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(SRC)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def is_compiled(directory: Path, module: str) -> bool:
    """Whether ``module`` (a path like ``paiju/core/state.py``) is an extension module in ``directory``."""
    stem = str(directory / module[: -len(".py")])
    return any(Path(stem + s).exists() for s in importlib.machinery.EXTENSION_SUFFIXES)


def blamed(log: str, modules: list[str]) -> set[str]:
    """The modules a failed build's log blames: mypyc names the file, the C compiler a function of the module
    (``CPyDef_shuiyu___engine___...`` for ``paiju/games/shuiyu/engine.py``)."""
    out = {m for m in modules if re.search(rf"^{re.escape(m)}:\d+: error", log, re.M)}
    functions = re.findall(r"In function .(CPy\w+).", log)
    for fn in functions:
        tail = fn.split("_", 1)[1] if "_" in fn else fn
        best = max((m for m in modules if _c_prefix_matches(tail, m)), key=len, default=None)
        if best is not None:
            out.add(best)
    return out


def _c_prefix_matches(c_name: str, module: str) -> bool:
    parts = module[: -len(".py")].split("/")
    return any(c_name.startswith("___".join(parts[i:]) + "___") for i in range(len(parts)))


def build(cache: Path = CACHE, *, log: Any = sys.stderr) -> Path:
    """Build the compiled package under ``cache/<hash>`` (or reuse it) and return that directory."""
    why = missing_tools()
    if why is not None:
        raise RuntimeError(f"cannot build the compiled engines: {why}")
    target = cache / source_hash()
    if (target / "BUILT").exists():
        return target
    work = cache / f"{target.name}.tmp{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(SRC / "paiju", work / "paiju", ignore=shutil.ignore_patterns("__pycache__"))
    started = time.monotonic()
    modules = list(MODULES)
    left: dict[str, str] = {}
    for attempt in range(1, len(MODULES) + 1):
        with (work / "build.log").open("w") as out:
            proc = subprocess.run([sys.executable, __file__, "--build-here", *modules], cwd=work, stdout=out,
                                  stderr=subprocess.STDOUT)
        text = (work / "build.log").read_text()
        if proc.returncode == 0:
            break
        bad = blamed(text, modules)
        if not bad:
            raise RuntimeError(f"the mypyc build failed; its log is {work / 'build.log'}:\n{text[-3000:]}")
        failed = work / f"build-failed-{attempt}.log"
        shutil.copy(work / "build.log", failed)
        for m in sorted(bad):
            left[m] = f"refused by mypyc or the C compiler, see {failed.name}"
            print(f"build-compiled: {m} does not compile, left pure ({failed.name})", file=log)
        modules = [m for m in modules if m not in bad]
        for so in work.rglob("*.so"):
            so.unlink()
    else:
        raise RuntimeError(f"the mypyc build kept failing; its logs are in {work}")
    for scratch in ("build", ".mypy_cache"):  # the C sources and objects, mypy's cache: not part of the package
        shutil.rmtree(work / scratch, ignore_errors=True)
    missing = [m for m in modules if not is_compiled(work, m)]
    if missing:
        raise RuntimeError(f"the mypyc build made no extension module for {missing}; see {work / 'build.log'}")
    seconds = time.monotonic() - started
    lines = [f"compiled {len(modules)} modules in {seconds:.0f} s", *(f"pure: {m}: {why}" for m, why in left.items())]
    (work / "BUILT").write_text("\n".join(lines) + "\n")
    if (target / "BUILT").exists():  # another build of the same sources finished first: keep that one
        shutil.rmtree(work, ignore_errors=True)
        return target
    shutil.rmtree(target, ignore_errors=True)
    work.rename(target)
    print(f"build-compiled: {lines[0]}: {target}", file=log)
    for old in sorted(cache.iterdir(), key=lambda d: d.stat().st_mtime)[:-KEEP]:  # the cache keeps the last few
        if old != target and ".tmp" not in old.name and (old / "BUILT").exists():
            shutil.rmtree(old, ignore_errors=True)
    return target


def left_pure(directory: Path) -> list[str]:
    """The modules of :data:`MODULES` a finished build left pure."""
    return [m for m in MODULES if not is_compiled(directory, m)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=CACHE, help="where builds are kept (default .cache/compiled)")
    ap.add_argument("--check", action="store_true", help="only say whether this machine can build them")
    ap.add_argument("--build-here", nargs="+", metavar="MODULE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.build_here:  # inside the copy: mypyc, then the C compiler, extension modules put beside the sources
        from setuptools import setup

        setup(name="paiju-compiled", ext_modules=extensions(args.build_here),
              script_args=["build_ext", "--inplace"])
        return
    if args.check:
        why = missing_tools()
        print(why or "ok")
        raise SystemExit(1 if why else 0)
    try:
        print(build(args.cache))
    except RuntimeError as e:
        raise SystemExit(str(e)) from None


if __name__ == "__main__":
    main()
