"""Every example in a docstring of the game core, the games, the bots and the CLI runs and holds."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

PACKAGES = ("paiju.core", "paiju.games", "paiju.bots", "paiju.cli")


def _modules() -> list[str]:
    names: list[str] = []
    for package in PACKAGES:
        mod = importlib.import_module(package)
        names.append(package)
        names += [m.name for m in pkgutil.walk_packages(mod.__path__, package + ".")]
    return sorted(names)


def _examples(module: ModuleType) -> list[doctest.DocTest]:
    return [t for t in doctest.DocTestFinder().find(module) if t.examples]


@pytest.mark.parametrize("name", [m for m in _modules() if _examples(importlib.import_module(m))])
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in _examples(module):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


def test_the_known_examples_are_found() -> None:
    """The parametrization above must not silently find nothing (滑水's rules carry examples)."""
    with_examples = [m for m in _modules() if _examples(importlib.import_module(m))]
    assert "paiju.games.huashui.rules" in with_examples
