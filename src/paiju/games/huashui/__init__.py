"""宁夏滑水麻将 (Ningxia Huashui mahjong): pung and kong only, 对胡 shapes, the discarder pays."""

from .config import HuashuiConfig
from .engine import HuashuiGame

__all__ = ["HuashuiConfig", "HuashuiGame"]
