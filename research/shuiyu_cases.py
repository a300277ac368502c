"""Where OddsBot's 水鱼 score comes from: its player rounds by settlement case, on the study's duplicate deals.

    .venv/bin/python research/shuiyu_cases.py biggest_head --deals 200          # deals 0..199, the study's seeds

Plays deal d (seed 10000 + d) four times as the study does (OddsBot in seat r, three opponents elsewhere) and
counts the hero's player rounds per settlement case (``push_drink``, ``push_compare_walk``, …) with their
summed score, and its banker rounds as one row.  One process; about 0.1 s of CPU a deal.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paiju.bots.base import Bot, bot_maker, play_out  # noqa: E402
from paiju.games.shuiyu.bots import OddsBot  # noqa: E402
from paiju.games.shuiyu.config import ShuiyuConfig  # noqa: E402
from paiju.games.shuiyu.engine import ShuiyuGame  # noqa: E402
from paiju.games.shuiyu.study import DEAL_SEED  # noqa: E402


def cases(opponent: str, deals: range) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """(rounds per case, score per case, rounds per role) of the hero over ``deals``."""
    count: Counter[str] = Counter()
    score: Counter[str] = Counter()
    roles: Counter[str] = Counter()
    make = bot_maker("shuiyu", opponent)
    for deal in deals:
        for hero in range(4):
            g = ShuiyuGame.new(ShuiyuConfig(), DEAL_SEED + deal)
            bots: list[Bot] = [OddsBot(deal * 31 + s) if s == hero else make(deal * 31 + s + 7) for s in range(4)]

            def on_event(ev: dict[str, Any], hero: int = hero) -> None:
                if ev["type"] != "settlement":
                    return
                role = "banker" if ev["banker"] == hero else "player"
                roles[role] += 1
                case = "(banker rounds)" if role == "banker" else next(
                    (ln["case"] for ln in ev["lines"] if ln["seat"] == hero), "?")
                count[case] += 1
                score[case] += ev["scores"][hero]

            play_out(g, bots, on_event=on_event)
    return count, score, roles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponent", nargs="?", default="biggest_head")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0, help="first deal")
    args = parser.parse_args()
    count, score, roles = cases(args.opponent, range(args.seed, args.seed + args.deals))
    players = roles["player"] or 1
    for case in sorted(count, key=lambda c: score[c]):
        if case != "(banker rounds)":
            print(f"{case:24s} {count[case]:7d} rounds  {score[case]:+8.0f}  "
                  f"{score[case] / players:+.3f} a player round")
    banker = score["(banker rounds)"]
    print(f"player rounds {roles['player']}: {sum(score.values()) - banker:+.0f}, "
          f"{(sum(score.values()) - banker) / players:+.3f} a player round; banker rounds {roles['banker']}: "
          f"{banker / (roles['banker'] or 1):+.3f} a banker round")


if __name__ == "__main__":
    main()
