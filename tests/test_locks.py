"""The locked versions in requirements/ agree with pyproject.toml's dependency lists.

Each lock starts with two lines that scripts/lock writes: ``# extras: a,b`` (the extras it was compiled for,
besides the base dependencies) and ``# pyproject-deps-sha256: …`` (a hash of exactly those lists).  A lock
that misses a package pyproject asks for, pins one outside its range, or was compiled from lists that have
changed since fails here, so nobody installs versions the suite never saw.

This file also stamps those two lines (``python tests/test_locks.py stamp LOCK EXTRAS``, which scripts/lock
runs), so the hash is computed by one function only.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import tomllib
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK_DIR = ROOT / "requirements"

EXTRAS_PREFIX = "# extras:"
HASH_PREFIX = "# pyproject-deps-sha256:"
TARGET_LINE = "# For CPython 3.11 on Linux x86_64 (manylinux_2_28). Update with scripts/lock; see README."

# The platform every lock is compiled for (scripts/lock: --python-version 3.11, x86_64 Linux); a requirement
# whose marker is false here need not be pinned.
TARGET_ENV: dict[str, str] = {
    "python_version": "3.11",
    "python_full_version": "3.11.0",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "extra": "",
}

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")


def dependency_lists(pyproject_text: str) -> tuple[list[str], dict[str, list[str]]]:
    """The base dependencies and every extra's list, as pyproject.toml spells them."""
    project = tomllib.loads(pyproject_text)["project"]
    base = [str(r) for r in project.get("dependencies", [])]
    optional = project.get("optional-dependencies", {})
    extras = {str(name): [str(r) for r in reqs] for name, reqs in optional.items()}
    return base, extras


def deps_hash(pyproject_text: str, extras: list[str]) -> str:
    """sha256 of the base list and the named extras' lists: the input a lock was compiled from.  Other
    extras, and everything else in pyproject, may change without making this lock stale."""
    base, optional = dependency_lists(pyproject_text)
    chosen = {name: optional.get(name) for name in sorted(extras)}
    text = json.dumps({"dependencies": base, "optional-dependencies": chosen}, sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def lock_extras(lock_text: str) -> list[str] | None:
    """The extras named in the lock's ``# extras:`` line, or None when it has none."""
    for line in lock_text.splitlines():
        if line.startswith(EXTRAS_PREFIX):
            return [e.strip() for e in line[len(EXTRAS_PREFIX):].split(",") if e.strip()]
    return None


def lock_hash(lock_text: str) -> str | None:
    for line in lock_text.splitlines():
        if line.startswith(HASH_PREFIX):
            return line[len(HASH_PREFIX):].strip()
    return None


def lock_pins(lock_text: str) -> dict[str, str]:
    """Normalized package name -> pinned version, from the ``name==version`` lines."""
    pins: dict[str, str] = {}
    for line in lock_text.splitlines():
        m = PIN.match(line.strip())
        if m:
            pins[canonicalize_name(m.group(1))] = m.group(2)
    return pins


def stamp(pyproject_text: str, lock_text: str, extras: list[str]) -> str:
    """The lock text with its extras and hash lines (re)written at the top."""
    kept = [line for line in lock_text.splitlines()
            if not line.startswith((EXTRAS_PREFIX, HASH_PREFIX, TARGET_LINE))]
    head = [f"{EXTRAS_PREFIX} {','.join(extras)}", f"{HASH_PREFIX} {deps_hash(pyproject_text, extras)}",
            TARGET_LINE]
    return "\n".join(head + kept) + "\n"


def lock_problems(pyproject_text: str, lock_text: str, name: str = "lock") -> list[str]:
    """Every way this lock disagrees with pyproject.toml (empty when it agrees)."""
    extras = lock_extras(lock_text)
    if extras is None:
        return [f"{name}: no '{EXTRAS_PREFIX}' line saying which extras it locks; run scripts/lock"]
    base, optional = dependency_lists(pyproject_text)
    problems: list[str] = []
    unknown = [e for e in extras if e not in optional]
    if unknown:
        problems.append(f"{name}: pyproject.toml has no extra {', '.join(unknown)}; run scripts/lock")
    if lock_hash(lock_text) != deps_hash(pyproject_text, extras):
        problems.append(f"{name}: pyproject.toml's dependency lists changed since this lock was compiled; "
                        "run scripts/lock")
    pins = lock_pins(lock_text)
    wanted = base + [r for e in extras for r in optional.get(e, [])]
    for text in wanted:
        req = Requirement(text)
        if req.marker is not None and not req.marker.evaluate(TARGET_ENV):
            continue
        key = canonicalize_name(req.name)
        version = pins.get(key)
        if version is None:
            problems.append(f"{name}: {req.name} is not pinned (pyproject asks for {text}); run scripts/lock")
        elif not req.specifier.contains(version, prereleases=True):
            problems.append(f"{name}: {req.name}=={version} is outside pyproject's {text}; run scripts/lock")
    return problems


def _locks() -> list[Path]:
    return sorted(LOCK_DIR.glob("*.txt"))


def test_every_lock_agrees_with_pyproject() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert _locks(), "requirements/ has no locks"
    problems = [p for lock in _locks()
                for p in lock_problems(pyproject, lock.read_text(encoding="utf-8"), lock.name)]
    assert problems == []


def test_every_extra_has_a_lock() -> None:
    _, optional = dependency_lists((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    covered = {e for lock in _locks() for e in lock_extras(lock.read_text(encoding="utf-8")) or []}
    assert sorted(set(optional) - covered) == []


def test_locks_pin_one_version_per_package() -> None:
    """server.txt and bench.txt are compiled against test.txt, so the card room runs what the suite ran."""
    seen: dict[str, tuple[str, str]] = {}
    clashes: list[str] = []
    for lock in _locks():
        for pkg, version in lock_pins(lock.read_text(encoding="utf-8")).items():
            first = seen.setdefault(pkg, (version, lock.name))
            if first[0] != version:
                clashes.append(f"{pkg}: {first[0]} in {first[1]}, {version} in {lock.name}")
    assert clashes == []


def test_the_scripts_install_from_the_locks() -> None:
    run = (ROOT / "scripts" / "run").read_text(encoding="utf-8")
    test = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    docker = (ROOT / "deploy" / "Dockerfile").read_text(encoding="utf-8")
    assert "requirements/server.txt" in run
    assert "requirements/test.txt" in test
    assert "requirements/server.txt" in docker


FAKE_PYPROJECT = """
[project]
name = "fake"
dependencies = ["alpha>=2", "Beta_Pkg[fast]>=1,<3", "gamma>=1; sys_platform == 'win32'"]
[project.optional-dependencies]
web = ["delta>=0.5"]
other = ["epsilon>=9"]
"""

FAKE_LOCK = """\
# This file was autogenerated by uv via the following command:
#    scripts/lock
alpha==2.1
    # via fake (pyproject.toml)
beta-pkg==2.0
delta==0.7
"""


def test_a_good_fake_lock_passes() -> None:
    lock = stamp(FAKE_PYPROJECT, FAKE_LOCK, ["web"])
    assert lock_extras(lock) == ["web"]
    assert lock_pins(lock) == {"alpha": "2.1", "beta-pkg": "2.0", "delta": "0.7"}
    assert lock_problems(FAKE_PYPROJECT, lock) == []
    # Stamping again replaces the lines rather than adding more.
    assert stamp(FAKE_PYPROJECT, lock, ["web"]) == lock


def test_planted_disagreements_are_caught() -> None:
    good = stamp(FAKE_PYPROJECT, FAKE_LOCK, ["web"])
    too_old = good.replace("alpha==2.1", "alpha==1.9")
    assert lock_problems(FAKE_PYPROJECT, too_old) == [
        "lock: alpha==1.9 is outside pyproject's alpha>=2; run scripts/lock"]
    missing = good.replace("delta==0.7\n", "")
    assert lock_problems(FAKE_PYPROJECT, missing) == [
        "lock: delta is not pinned (pyproject asks for delta>=0.5); run scripts/lock"]
    raised = FAKE_PYPROJECT.replace("delta>=0.5", "delta>=0.8")
    assert lock_problems(raised, good) == [
        "lock: pyproject.toml's dependency lists changed since this lock was compiled; run scripts/lock",
        "lock: delta==0.7 is outside pyproject's delta>=0.8; run scripts/lock",
    ]
    # A new package changes the hash even when the old pins still fit.
    added = FAKE_PYPROJECT.replace('web = ["delta>=0.5"]', 'web = ["delta>=0.5", "zeta>=1"]')
    assert len(lock_problems(added, good)) == 2
    assert lock_problems(FAKE_PYPROJECT, FAKE_LOCK) == [
        "lock: no '# extras:' line saying which extras it locks; run scripts/lock"]
    # An extra the lock does not cover may change freely.
    assert lock_problems(FAKE_PYPROJECT.replace("epsilon>=9", "epsilon>=10"), good) == []


def test_markers_are_read_for_the_target() -> None:
    assert not Marker("sys_platform == 'win32'").evaluate(TARGET_ENV)
    assert Marker("python_version >= '3.11'").evaluate(TARGET_ENV)


def main(argv: list[str]) -> int:
    """``stamp LOCK EXTRAS``: write the extras and hash lines into LOCK (scripts/lock runs this)."""
    if len(argv) != 3 or argv[0] != "stamp":
        print("usage: python tests/test_locks.py stamp LOCK EXTRA[,EXTRA...]", file=sys.stderr)
        return 2
    lock = Path(argv[1])
    extras = [e for e in argv[2].split(",") if e]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    lock.write_text(stamp(pyproject, lock.read_text(encoding="utf-8"), extras), encoding="utf-8")
    problems = lock_problems(pyproject, lock.read_text(encoding="utf-8"), lock.name)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
