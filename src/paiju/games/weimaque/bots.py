"""Bots for 偎麻雀 (placeholder until the study lands)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

BOTS: dict[str, Callable[[int], Any]] = {}
