"""Bots for 升级 (placeholder until the strong bot lands)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

BOTS: dict[str, Callable[[int], Any]] = {}
