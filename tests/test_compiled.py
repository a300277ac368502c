"""The engines' own tests, run again against the compiled (mypyc) build.

The build (``scripts/build-compiled``) is made once and cached under ``.cache/compiled/<hash>`` of its sources,
so only a changed engine rebuilds (a clean clone's first build takes about two and a half minutes on the
2-core machine).  The suites below then run in a subprocess with the compiled package first on ``PYTHONPATH``,
and that run reports every paiju module it imported: each compiled module must have come from its extension
module, never from the ``.py`` beside it.  Without mypyc, a C compiler or the Python headers the test is
skipped and says which is missing; ``-m "not compiled"`` leaves it out.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import build_compiled  # noqa: E402

SUITES = ["tests/shuiyu", "tests/huashui", "tests/shengji", "tests/weimaque", "tests/test_bank.py",
          "tests/test_clone.py", "tests/test_state.py", "tests/test_conformance.py"]
"""The engines' tests, the recorded-game bank, clones and declared state, and a short conformance run."""
CONFORMANCE_SCALE = "0.05"

pytestmark = pytest.mark.compiled


@pytest.fixture(scope="module")
def compiled_build() -> Path:
    why = build_compiled.missing_tools()
    if why is not None:
        pytest.skip(f"compiled build skipped: {why}")
    return build_compiled.build()


def test_every_engine_module_compiles(compiled_build: Path) -> None:
    pure = build_compiled.left_pure(compiled_build)
    assert pure == [], (f"mypyc or the C compiler refused {pure} (see {compiled_build}/build-*.log): mend the "
                        "module, or leave it pure on purpose (scripts/build_compiled.py, PURE) and say why")


def test_engine_suites_pass_compiled(compiled_build: Path, tmp_path: Path) -> None:
    report = tmp_path / "modules.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(compiled_build), os.environ.get("PYTHONPATH", "")]),
           "PAIJU_CONFORMANCE_SCALE": CONFORMANCE_SCALE, "PAIJU_MODULE_REPORT": str(report)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *SUITES],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, f"the engines' tests failed on the compiled build:\n{proc.stdout[-6000:]}\n" \
                                 f"{proc.stderr[-3000:]}"
    imported: dict[str, str] = json.loads(report.read_text())
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for module in build_compiled.MODULES:
        name = module[: -len(".py")].replace("/", ".")
        assert name in imported, f"the compiled run never imported {name}"
        assert imported[name].endswith(suffixes), f"{name} came from {imported[name]}, not its extension module"
        assert Path(imported[name]).is_relative_to(compiled_build), f"{name} came from {imported[name]}"
    pure = [name for name, path in imported.items() if not path.endswith(suffixes)]
    assert all(Path(imported[name]).is_relative_to(compiled_build) for name in pure), "mixed two paiju trees"
    print(proc.stdout.strip().splitlines()[-1])
