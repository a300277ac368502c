"""How each bank record's actions were first produced: a config, a seed, an optional first deal and opening
script, then bots (or random play) to the end of the match.

The bank keeps the actions themselves, so a change to a bot never changes a record; a recipe is used again
only for a record that is new, or whose stored actions the rules no longer accept (the re-recorder says so).
Records are chosen to cover each game's notable options and rare events (specials, robbing a kong, several
winners, the 守醒, a second hand) while keeping the whole bank under a minute to check.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from paiju.bots import get_bot
from paiju.core import Game, get_game


@dataclass(frozen=True)
class Recipe:
    game: str
    name: str
    config: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    deal: Any = None
    script: tuple[tuple[int, str], ...] = ()
    """Actions played first, as given."""
    bots: str = "random"
    """One bot kind for every seat, or one per seat, comma-separated; ``random`` plays uniformly."""
    max_actions: int = 5000


def play(recipe: Recipe) -> list[tuple[int, str]]:
    """The actions of ``recipe``'s match: its script, then its bots to the end (or ``max_actions``)."""
    cls = get_game(recipe.game)
    game: Game[Any] = cls(cls.config_class.from_dict(recipe.config), recipe.seed, recipe.deal)
    actions: list[tuple[int, str]] = []
    for seat, action in recipe.script:
        game.apply(seat, action)
        actions.append((seat, action))
    kinds = recipe.bots.split(",")
    if len(kinds) == 1:
        kinds = kinds * game.num_seats
    bots = [get_bot(recipe.game, kind, recipe.seed * 31 + s) for s, kind in enumerate(kinds)]
    order = random.Random(recipe.seed)
    while not game.finished and len(actions) < recipe.max_actions:
        movers = game.to_move()
        seat = movers[order.randrange(len(movers))]
        bot = bots[seat]
        legal = game.legal_actions(seat)
        view = game.view(seat) if getattr(bot, "needs_view", True) else {}
        action = bot.act(view, legal)
        game.apply(seat, action)
        actions.append((seat, action))
    return actions


def _r(game: str, name: str, **kw: Any) -> Recipe:
    return Recipe(game, name, **kw)


# 水鱼: specials dealt on purpose (they are rare at random), every option that changes a settlement.
SHUIYU_DEALS = {
    "banker_shuiyu": {"hands": ["AS AH 5D 5C", "2S 7H 9D JC", "3S 8H 10D QC", "4S 6H KD 9C"], "banker": 0},
    "player_zhizun": {"hands": ["2S 7H 9D JC", "QS QH QD QC", "3S 8H 10D 5C", "4S 6H KD 9C"], "banker": 0},
    "zhizun_vs_shuiyu": {"hands": ["QS QH QD QC", "2S 2H 9D 9C", "3S 8H 10D 5C", "4S 6H KD 7C"], "banker": 0},
}

# 滑水: the engine tests' scripted deals (robbing an added kong, three winners, a kong's replacement win).
_ADDED = ["5m2z3z4z5z6z7z1s4s7s2p5p8p9s", "55m123p456p789s1z9m", "34m567s888s333z99p", "2z4z5z6z7z1s3s6s9p1m7m8m9m"]
_MULTI = ["5s7z1s2s7s8s9s1m2m3m4m5m6m7m", "123m456m789m11p46s", "11z22z33z44z55z66z5s", "123p456p789p99m34s"]
_KONG = ["1111m123p456p789p1z", "2z3z4z5z6z7z1s4s7s2p5p8p9s", "2z3z4z5z6z7z3s6s2m5m8m3m1s",
         "2z3z4z5z6z7z4m6m7m9m1p4p7p"]
_FOLLOW = ["1111m456m789m1p23p1z", "1z2z3z4z5z6z7z1s4s7s2p5p8p", "1z2z3z4z5z6z7z2s5s8s3p6p9p",
           "1z2z3z4z5z6z7z3s6s9s1p4p7p"]
_HELD_FOURTH = ["5m2z3z4z5z6z7z1s4s7s2s5s8s9s", "555m123p456p789p1z", "2z3z4z5z6z7z3s6s9s1m4m7m2m",
                "2z3z4z5z6z7z3s6s3m6m9m8m1z"]


def _huashui_deal(hands: list[str], wall: str = "", replacements: str = "") -> dict[str, Any]:
    return {"dealer": 0, "hands": hands, "wall": wall, "replacements": replacements, "dice": [3, 4]}


RECIPES: list[Recipe] = [
    # ---- 水鱼 ----
    _r("shuiyu", "default-odds", seed=1, bots="odds"),
    _r("shuiyu", "default-random", seed=2),
    _r("shuiyu", "two-seats", config={"seats": 2, "rounds": 8}, seed=3),
    _r("shuiyu", "thirteen-seats", config={"seats": 13, "rounds": 2}, seed=4),
    _r("shuiyu", "keep-not-zero-sum", config={"banker_rotation": "keep", "zero_sum": False}, seed=5),
    _r("shuiyu", "winner-banks-shows-all", config={"banker_rotation": "winner", "banker_shows": "all"},
       seed=6, bots="odds,biggest_head,random,odds"),
    _r("shuiyu", "six-seats-long", config={"seats": 6, "rounds": 20}, seed=11, bots="odds,random"
       ",biggest_head,odds,random,odds"),
    _r("shuiyu", "force-banker", config={"force_rearrange": "banker", "rounds": 6}, seed=7),
    _r("shuiyu", "no-force-attack-push", config={"allow_force": False, "allow_attack": False,
                                                  "allow_push": False}, seed=8),
    _r("shuiyu", "page-holes", config={"walk_doubted_banker_bigger": "banker", "force_walk": "nobody",
                                       "attack_walk": "nobody", "mult_doubt": 3, "rounds": 6}, seed=9),
    *(_r("shuiyu", name, config={"rounds": 2}, seed=10 + i, deal=deal) for i, (name, deal) in
      enumerate(SHUIYU_DEALS.items())),
    # ---- 滑水 ----
    _r("huashui", "default-efficient-1", seed=1, bots="efficient"),
    _r("huashui", "default-efficient-2", seed=2, bots="efficient"),
    _r("huashui", "default-random", seed=3),
    _r("huashui", "three-hands-greedy", config={"hands": 3, "draw_keeps_payments": True}, seed=4,
       bots="greedy,efficient,greedy,random"),
    _r("huashui", "first-winner-any-lock", config={"multi_win": "first", "pass_lock": "any_tile"}, seed=5,
       bots="efficient"),
    _r("huashui", "lock-off", config={"pass_lock": "off", "gen_zhuang": 2}, seed=6, bots="greedy"),
    _r("huashui", "six-hands-efficient", config={"hands": 6}, seed=10, bots="efficient"),
    _r("huashui", "rob-added-kong", deal=_huashui_deal(_ADDED, wall="1m8p2z5m"), seed=7, config={"hands": 2},
       script=((0, "discard 5m"), (2, "pass"), (1, "pung 5m"), (1, "discard 9m"), (2, "discard 1m"),
               (3, "discard 8p"), (0, "discard 2z"), (1, "kong 5m")), bots="efficient"),
    _r("huashui", "three-winners", deal=_huashui_deal(_MULTI), seed=8, config={"hands": 2},
       script=((0, "discard 5s"), (2, "hu"), (1, "hu"), (3, "hu")), bots="efficient"),
    _r("huashui", "kong-replacement-win", deal=_huashui_deal(_KONG, replacements="1z"), seed=9,
       script=((0, "kong 1m"),), bots="efficient"),
    *(_r("huashui", f"dealer-kong-follow{suffix}", deal=_huashui_deal(_FOLLOW, wall="5s5s5s9m", replacements="9s"),
         seed=11, config=config, script=((0, "kong 1m"), (0, "discard 1z"), (1, "discard 1z"), (2, "discard 1z"),
                                         (3, "discard 1z")), bots="efficient")
      for suffix, config in (("", {}), ("-breaks", {"dealer_kong_breaks_follow": True}))),
    _r("huashui", "pung-holding-the-fourth", deal=_huashui_deal(_HELD_FOURTH, wall="9p1p2p3p"), seed=12,
       script=((0, "discard 5m"), (1, "pung 5m")), bots="efficient"),
    # ---- 升级 ----
    _r("shengji", "default-smart", seed=1, bots="smart"),
    _r("shengji", "default-random", seed=2),
    _r("shengji", "two-hands-options", config={"max_hands": 2, "kitty_multiplier": "double",
                                               "throw_fails_limit": 1, "start_level": 13}, seed=3,
       bots="smart,highest,smart,random"),
    _r("shengji", "six-hands-smart", config={"max_hands": 6, "end_on_shutout": False}, seed=4, bots="smart"),
    _r("shengji", "from-queen-to-a", config={"max_hands": 0, "start_level": 12, "kitty_multiplier": "single"},
       seed=5, bots="smart,highest,smart,highest", max_actions=1500),
    # ---- 偎麻雀 ----
    _r("weimaque", "default-smart-1", seed=1, bots="smart"),
    _r("weimaque", "default-smart-2", seed=2, bots="smart"),
    _r("weimaque", "default-random", seed=3),
    _r("weimaque", "three-hands-options", config={"hands": 3, "first_dealer": -1, "guozhang": "passer",
                                                  "payment": "split", "multiplier_scope": "total"},
       seed=4, bots="smart,closest,smart,closest"),
    _r("weimaque", "eight-hands-smart", config={"hands": 8}, seed=6, bots="smart"),
    _r("weimaque", "lao-last-card", config={"mingtang_table": "lao", "dandiao": "last_card", "hands": 2,
                                            "min_hard_xi": 6}, seed=5, bots="closest"),
    # ---- more random play, where rare interleavings turn up ----
    *(_r("shuiyu", f"random-{seed}", config={"seats": 3 + seed % 4, "rounds": 6}, seed=seed)
      for seed in range(20, 24)),
    *(_r("huashui", f"random-{seed}", config={"hands": 2}, seed=seed) for seed in range(20, 24)),
    *(_r("shengji", f"random-{seed}", config={"max_hands": 2}, seed=seed) for seed in range(20, 22)),
    *(_r("weimaque", f"random-{seed}", config={"hands": 3}, seed=seed) for seed in range(20, 24)),
]


def recipes(game: str | None = None) -> list[Recipe]:
    return [r for r in RECIPES if game is None or r.game == game]
