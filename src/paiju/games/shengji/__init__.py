"""升级 with four decks (the 打10 rules of page 002): rules, engine, bots and terminal hooks."""

from .config import ShengjiConfig
from .engine import ShengjiGame

__all__ = ["ShengjiConfig", "ShengjiGame"]
