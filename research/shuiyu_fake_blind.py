"""A two-rule deviation the probe does not try: fake a hand-blind seat once, then play the mix.

    .venv/bin/python research/shuiyu_fake_blind.py open --deals 150     # probe deals 0..149, every seat in turn

The deviant is the default OddsBot except that its first call of the match is ``word`` (open / cover …)
whatever it holds: the cheapest way to be read as hand-blind (docs/bots/shuiyu.md, *Reading hand-blind
seats*) and then, as banker, have the mix's denies compared.  Scored as the probe scores (the probe's deals and
bot seeds; a sample is one deal, the gain per round averaged over the four seats).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paiju.bots.base import Bot, play_out  # noqa: E402
from paiju.games.shuiyu.bots import OddsBot  # noqa: E402
from paiju.games.shuiyu.config import ShuiyuConfig  # noqa: E402
from paiju.games.shuiyu.engine import ShuiyuGame  # noqa: E402
from paiju.games.shuiyu.study import PROBE_SEED  # noqa: E402


class FirstCall:
    """The default bot, asked every time (its random stream stays in step), with its first call replaced."""

    def __init__(self, bot: Bot, word: str) -> None:
        self.bot, self.word, self.done = bot, word, False

    def act(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        choice = self.bot.act(view, legal)
        if view["phase"] == "call" and not self.done and self.word in legal:
            self.done = True
            return self.word
        return choice


def match(deal: int, seat: int | None, word: str) -> list[float]:
    g = ShuiyuGame.new(ShuiyuConfig(), PROBE_SEED + deal)
    bots: list[Bot] = [OddsBot(deal * 31 + s) for s in range(g.num_seats)]
    if seat is not None:
        bots[seat] = FirstCall(bots[seat], word)
    play_out(g, bots)
    return [t / g.rounds_played for t in g.totals()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("word", nargs="?", default="open")
    parser.add_argument("--deals", type=int, default=150)
    args = parser.parse_args()
    gains = []
    for deal in range(args.deals):
        base = match(deal, None, args.word)
        gains.append(statistics.fmean(match(deal, s, args.word)[s] - base[s] for s in range(len(base))))
    ci = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5
    print(f"first call {args.word}, then the mix: {statistics.fmean(gains):+.3f} ± {ci:.3f} drinks a round "
          f"gained over the default bot ({args.deals} deals)")


if __name__ == "__main__":
    main()
