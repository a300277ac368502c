"""水鱼 rule options: the page's numbers as defaults, every hole of the page a named choice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from paiju.core.config import RulesConfig, option
from paiju.core.errors import ConfigError

from .rules import Table


@dataclass(frozen=True)
class ShuiyuConfig(RulesConfig):
    """Options of 广西水鱼; docs/rules/shuiyu.md explains each and which reproduce the page literally."""

    game: ClassVar[str] = "shuiyu"

    seats: int = option(4, zh="人数", en="seats (banker included)", min=2, max=13)
    rounds: int = option(4, zh="局数", en="rounds per match", min=1, max=10_000)
    first_banker: int = option(0, zh="首局庄家座位", en="first banker's seat", min=0, max=12)
    banker_rotation: Literal["next", "keep", "winner"] = option(
        "next", zh="下局庄家", en="next banker",
        labels={"next": ("下家坐庄", "the seat after the banker"), "keep": ("连庄", "the banker keeps the bank"),
                "winner": ("赢家坐庄", "the round's biggest winner")})
    zero_sum: bool = option(True, zh="对家得分（零和）", en="the other side gains what the drinker drinks")
    allow_force: bool = option(True, zh="允许强奸", en="allow a force (open: both groups win, however split)")
    allow_attack: bool = option(True, zh="允许进攻", en="allow an attack (covered: both groups win)")
    allow_push: bool = option(True, zh="允许走水", en="allow a push (covered: ask to call it even)")
    force_rearrange: Literal["player", "banker"] = option(
        "player", zh="强奸时庄家组谁的牌", en="a force: whose cards the banker re-splits",
        labels={"player": ("闲家的牌（任由庄家组合自己的牌）", "the player's (the page's reading)"),
                "banker": ("庄家自己的牌", "the banker's own")})
    banker_shows: Literal["challengers", "all"] = option(
        "challengers", zh="庄家亮牌给谁", en="the banker shows its hand to",
        labels={"challengers": ("需比牌的闲家", "the players it must compare with"), "all": ("所有人", "everyone")})
    # the drinking table (page §六), 1 = one drink
    mult_kill_believed: int = option(1, zh="杀·信", en="kill believed (rule 1.1)", min=0, max=100)
    mult_doubt: int = option(2, zh="不信后比牌", en="doubt then compare (rules 1.2/3/5/6)", min=0, max=100)
    mult_force: int = option(3, zh="强奸", en="a force (rule 1.7)", min=0, max=100)
    mult_attack_refused: int = option(1, zh="进攻·庄不接受", en="attack refused (rule 1.8)", min=0, max=100)
    mult_attack_drink: int = option(1, zh="进攻·同意喝", en="attack accepted, attacker drinks (rule 1.8)",
                                    min=0, max=100)
    mult_attack_compare: int = option(2, zh="进攻·比牌", en="attack compared (rule 1.8)", min=0, max=100)
    mult_push_drink: int = option(1, zh="走水·认可", en="push denied, player drinks (rule 1.9)", min=0, max=100)
    mult_push_compare: int = option(2, zh="走水·比牌", en="push compared (rule 1.9)", min=0, max=100)
    mult_cover_called: int = option(2, zh="盖牌·庄开牌", en="covered hand called (rules 1.10/11)", min=0, max=100)
    mult_cover_conceded: int = option(1, zh="盖牌·庄认输", en="covered hand conceded (rule 1.12)", min=0, max=100)
    mult_shuiyu: int = option(2, zh="水鱼", en="a shuiyu, two pairs (rules 2.1/2/5)", min=0, max=100)
    mult_zhizun: int = option(4, zh="至尊", en="a zhizun, four of a kind (rules 2.3/4/6)", min=0, max=100)
    # the page's holes
    walk_doubted_banker_bigger: Literal["player", "banker"] = option(
        "player", zh="走过·不信·庄大 谁喝", en="walk doubted, banker bigger: who drinks",
        labels={"player": ("闲家喝", "the player"), "banker": ("庄家喝", "the banker")})
    force_walk: Literal["player", "nobody"] = option(
        "player", zh="强奸走过 谁喝", en="a force ending in a walk: who drinks",
        labels={"player": ("闲家喝", "the player"), "nobody": ("都不喝", "nobody")})
    attack_walk: Literal["attacker", "nobody"] = option(
        "attacker", zh="进攻比牌走过 谁喝", en="an attack compared to a walk: who drinks",
        labels={"attacker": ("进攻者喝", "the attacker"), "nobody": ("都不喝", "nobody")})

    def validate(self) -> None:
        if self.first_banker >= self.seats:
            raise ConfigError(f"option 'first_banker' must be a seat below {self.seats}, not {self.first_banker}")

    def table(self) -> Table:
        """The drinking table these options describe (what :func:`rules.settle` takes)."""
        return Table(
            kill_believed=self.mult_kill_believed, doubt=self.mult_doubt, force=self.mult_force,
            attack_refused=self.mult_attack_refused, attack_drink=self.mult_attack_drink,
            attack_compare=self.mult_attack_compare, push_drink=self.mult_push_drink,
            push_compare=self.mult_push_compare, cover_called=self.mult_cover_called,
            cover_conceded=self.mult_cover_conceded, shuiyu=self.mult_shuiyu, zhizun=self.mult_zhizun,
            walk_doubted_banker_bigger=self.walk_doubted_banker_bigger,
            force_walk=self.force_walk, attack_walk=self.attack_walk,
        )
