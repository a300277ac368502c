"""广西水鱼 (shuiyu): a banker against every other seat, four cards split into head and tail, bluffing."""

from .config import ShuiyuConfig
from .engine import ShuiyuGame

__all__ = ["ShuiyuConfig", "ShuiyuGame"]
