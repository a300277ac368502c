"""Another git revision's ``src/`` on disk, so a benchmark or the bank's re-recorder can run it beside this tree
(in a subprocess with ``PYTHONPATH`` pointing at it).

Import this module only on the side that starts the subprocesses, never at the top of a script whose worker
runs under the other revision: there ``paiju`` is that revision's package, which may have no ``devtools``.
Needs a git checkout of paiju (an editable install); an installed wheel has no history to export.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
"""The checkout this module sits in (``src/paiju/devtools/revision.py``)."""


def export_src(rev: str, into: Path) -> Path:
    """Unpack revision ``rev``'s ``src/`` under ``into``; returns that ``src`` directory."""
    if not (ROOT / ".git").exists():
        raise RuntimeError(f"{ROOT} is not a git checkout: another revision's src/ can only come from one")
    data = subprocess.run(["git", "archive", rev, "src"], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


class Worker:
    """A benchmark's worker process: ``script --worker`` with a revision's ``src/`` on ``PYTHONPATH``, answering
    one line of words for each line it is sent (it may say ``ready`` first)."""

    def __init__(self, label: str, script: str, src: Path, *, ready: bool = False) -> None:
        self.label = label
        env = dict(os.environ, PYTHONPATH=str(src))
        self.proc = subprocess.Popen([sys.executable, script, "--worker"], env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        if ready and self.ask() != ["ready"]:
            raise RuntimeError(f"{label}: the worker did not start")

    def ask(self, *words: object) -> list[str]:
        """Send ``words`` as one line (none: just read) and return the answer's words."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if words:
            self.proc.stdin.write(" ".join(map(str, words)) + "\n")
            self.proc.stdin.flush()
        return self.proc.stdout.readline().split()

    def close(self) -> None:
        """End the worker: close its input (its loop ends at end of file) and wait for it."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(10)
