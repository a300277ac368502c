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
    min_hard_xi: int = option(10, zh="胡牌所需硬息", en="hard xi (face points) needed to win", min=0, max=40)
    mingtang_table: str = option("page", zh="名堂表", en="value table of the scoring patterns (mingtang)",
                                 choices=("page", "lao"),
                                 labels={"page": ("本页规则", "as the rule page"),
                                         "lao": ("老名堂版", "the commercial client's old table (lao mingtang)")})
    multiplier_scope: str = option("hard", zh="翻倍作用于", en="what the pattern multipliers multiply",
                                   choices=("hard", "total"),
                                   labels={"hard": ("硬息", "hard xi"), "total": ("总息", "total xi")})
    payment: str = option("each", zh="付息方式", en="who pays a win", choices=("each", "split"),
                             labels={"each": ("每家付全数", "each other player pays the total"),
                                     "split": ("两家平分", "the two others split it")})
    guozhang: str = option("global", zh="过张范围", en="a passed card (guozhang) is barred",
                              choices=("global", "passer"),
                              labels={"global": ("对所有人", "for everyone"),
                                      "passer": ("只对放过的人", "only for who passed it")})
    dandiao: str = option("pair", zh="单吊定义", en="a single wait (dandiao) means", choices=("pair", "last_card"),
                             labels={"pair": ("胡牌成麻雀", "the winning card makes the pair"),
                                     "last_card": ("手中只剩一张", "one card left in hand")})
    shouqianshou: int = option(20, zh="手牵手息", en="hand in hand (shouqianshou) bonus (0: off)", min=0, max=1000)
    bapengtou_zhuo: str = option("replace", zh="八碰头的团圆算不算卓",
                                 en="do the reunions of a ba peng tou (both eights) also count for the zhuo patterns",
                                 choices=("stack", "replace"),
                                 labels={"stack": ("也算卓胡", "yes: they count for the zhuo patterns too"),
                                         "replace": ("不再算卓", "no: the ba peng tou replaces them")})
    ask_everyone: bool = option(
        False, zh="每张亮出的牌都问所有玩家（看不出谁能胡、碰、吃）",
        en="every card shown asks every player (nobody can tell who could claim)", asks_all=True)

    def validate(self) -> None:
        if self.first_dealer not in (-1, 0, 1, 2, 3):
            raise ConfigError("first_dealer must be -1 or a seat 0..3")
