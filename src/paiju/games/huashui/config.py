"""Rule options of 滑水麻将.  Defaults are the page's scoring table; every number can be changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paiju.core.config import RulesConfig, option
from paiju.core.terms import Window


@dataclass(frozen=True)
class HuashuiConfig(RulesConfig):
    """The page says 结算的番数要求可配置: so every amount below is an option, defaults from its table."""

    game: ClassVar[str] = "huashui"

    hands: int = option(1, zh="局数", en="hands per match", min=1, max=64)
    gen_zhuang: int = option(1, zh="跟庄 (庄家付每家)", en="follow-the-dealer: dealer pays each", min=0, max=100)
    kong_added: int = option(1, zh="过路杠 (每家付)", en="added kong: each other pays", min=0, max=100)
    kong_concealed: int = option(2, zh="暗杠 (每家付)", en="concealed kong: each other pays", min=0, max=100)
    kong_exposed: int = option(3, zh="放杠 (放者付)", en="kong on a discard: discarder pays", min=0, max=100)
    self_draw: int = option(4, zh="自摸 (每家付)", en="self-drawn win: each other pays", min=0, max=1000)
    discard_win: int = option(5, zh="点炮 (放炮者付)", en="win on a discard: discarder pays", min=0, max=1000)
    dui_hu_multiplier: int = option(3, zh="七对/对胡 倍数", en="seven pairs (dui hu) multiplier", min=1, max=100)
    kong_draw_multiplier: int = option(3, zh="杠开 倍数 (×自摸)", en="win on a kong's replacement: × self-draw",
                                       min=1, max=100)
    robbing_multiplier: int = option(3, zh="抢杠 倍数 (×点炮, 杠者付)",
                                     en="robbing a kong: × discard win, kong-maker pays", min=1, max=100)
    multi_win: str = option("all", zh="一炮多响", en="several winners on one discard", choices=("all", "first"),
                            labels={"all": ("都胡（一炮多响）", "every winner wins"),
                                    "first": ("截胡（按顺序第一家胡）", "only the first in play order wins (jie hu)")})
    pass_lock: str = option("same_tile", zh="过胡锁定 (特殊规则4)", en="pass lock after declining a win",
                            choices=("same_tile", "any_tile", "off"),
                            labels={"same_tile": ("过胡后同一张牌不能胡", "no win on the same tile until your turn"),
                                    "any_tile": ("过胡后任何点炮都不能胡", "no win on any discard until your turn"),
                                    "off": ("不锁定", "no lock")})
    draw_keeps_payments: bool = option(False, zh="流局保留杠分/跟庄", en="a drawn hand keeps kong and follow payments")
    dealer_kong_breaks_follow: bool = option(
        False, zh="庄家首打前暗杠破跟庄",
        en="the dealer's concealed kong before its first discard breaks follow-the-dealer")
    claim_seconds: int = option(10, zh="胡牌决定时间 (秒)", en="decision window for a win, seconds", min=1, max=120,
                                window=Window.CLAIM)
    ask_everyone: bool = option(
        False, zh="每次出牌都问其他三家（看不出谁能碰、胡）",
        en="every discard asks the other three (nobody can tell who could claim)", asks_all=True)
