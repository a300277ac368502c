"""Rule options of 安乡偎麻雀.  Defaults follow the rule page; see docs/rules/weimaque.md for each choice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paiju.core.config import RulesConfig, option
from paiju.core.errors import ConfigError


@dataclass(frozen=True)
class WeimaqueConfig(RulesConfig):
    game: ClassVar[str] = "weimaque"

    hands: int = option(1, zh="局数", en="hands per match", min=1, max=100)
    first_dealer: int = option(0, zh="首局庄家座位(-1 随机)", en="first dealer's seat (-1: drawn from the seed)",
                               min=-1, max=3)
    min_hard_xi: int = option(10, zh="胡牌所需硬息", en="hard 息 needed to win", min=0, max=40)
    mingtang_table: str = option("page", zh="名堂表", en="名堂 value table", choices=("page", "lao"))
    multiplier_scope: str = option("hard", zh="翻倍作用于", en="what the 名堂 multipliers multiply",
                                   choices=("hard", "total"))
    payment: str = option("each", zh="付息方式", en="who pays a win", choices=("each", "split"))
    guozhang: str = option("global", zh="过张范围", en="过张 (passed card) scope", choices=("global", "passer"))
    dandiao: str = option("pair", zh="单吊定义", en="单吊 means", choices=("pair", "last_card"))
    shouqianshou: int = option(20, zh="手牵手息", en="手牵手 bonus (0: off)", min=0, max=1000)

    def validate(self) -> None:
        if self.first_dealer not in (-1, 0, 1, 2, 3):
            raise ConfigError("first_dealer must be -1 or a seat 0..3")
