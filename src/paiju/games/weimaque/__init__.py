"""安乡偎麻雀 (Anxiang Wei Maque): 80 paper cards, three players and the 守醒, 煨/砍/碰/吃, 息 and 名堂."""

from .config import WeimaqueConfig
from .engine import WeimaqueGame

__all__ = ["WeimaqueConfig", "WeimaqueGame"]
