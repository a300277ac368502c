"""Shared fixtures.  Hypothesis profiles: 'ci' is thorough, 'dev' quick."""

from __future__ import annotations

import json
import os
import sys

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=300, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """With ``PAIJU_MODULE_REPORT=FILE``, write where every paiju module this run imported came from (the
    compiled build's test checks that the extension modules were the ones used)."""
    path = os.environ.get("PAIJU_MODULE_REPORT")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump({name: getattr(m, "__file__", None) or "" for name, m in sorted(sys.modules.items())
                       if name == "paiju" or name.startswith("paiju.")}, f, indent=1)
