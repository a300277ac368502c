"""Rule options of 升级 (four decks, the 打10 rules of page 002).

The defaults reproduce the page; each option records a real variant or a hole the page leaves open
(see docs/rules/shengji.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paiju.core.config import RulesConfig, option


@dataclass(frozen=True)
class ShengjiConfig(RulesConfig):
    """Options of a 升级 match."""

    game: ClassVar[str] = "shengji"

    max_hands: int = option(
        1, zh="最多局数（0 = 打到过A）", en="hands before the match ends (0 = play until a side passes A)",
        min=0, max=500)
    start_level: int = option(
        2, zh="起始级别（2…14，14 = A）", en="level both sides start at (2…14, 14 = A)", min=2, max=14)
    kitty_multiplier: str = option(
        "unit", zh="扣底倍数", en="kitty points when the attackers win the last trick",
        choices=("unit", "double", "single"),
        labels={"unit": ("按牌型翻倍（单×2 对×4 三×6 四×8）",
                         "by the lead's unit: single ×2, pair ×4, triple ×6, quad ×8"),
                "double": ("一律×2", "always ×2"), "single": ("按面值", "face value")})
    """``unit``: ×2×(size of the largest unit of the last trick's lead: single ×2, pair ×4, triple ×6,
    quad ×8); ``double``: always ×2; ``single``: face value."""
    throw_penalty: int = option(10, zh="吃苍蝇每张扣分", en="failed-throw penalty per card thrown", min=0, max=50)
    throw_cards_limit: int = option(
        15, zh="每人每盘吃苍蝇最多张数", en="failed-throw cards per player per hand before throwing is refused",
        min=0, max=60)
    throw_fails_limit: int = option(
        2, zh="每人每盘吃苍蝇最多次数", en="failed throws per player per hand before throwing is refused",
        min=0, max=20)
    throw_penalty_cap: int = option(
        200, zh="每盘苍蝇罚分上限（双方合计）", en="failed-throw penalty points per hand, both sides together",
        min=0, max=2000)
    end_on_shutout: bool = option(
        True, zh="光头、全捡直接过局",
        en="a shutout (attackers take 0) or a sweep (attackers take every point) ends the match")

