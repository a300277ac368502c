"""Another git revision's ``src/`` on disk, so a benchmark or the bank's re-recorder can run it beside this tree
(in a subprocess with ``PYTHONPATH`` pointing at it)."""

from __future__ import annotations

import subprocess
import tarfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def export_src(rev: str, into: Path) -> Path:
    """Unpack revision ``rev``'s ``src/`` under ``into``; returns that ``src`` directory."""
    data = subprocess.run(["git", "archive", rev, "src"], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"
