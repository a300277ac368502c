"""``paiju sim`` as work for an executor: one job per seeded match, bots only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from paiju.core.registry import entry, get_game

from .base import get_bot, play_out
from .executor import Work


class MatchResult(NamedTuple):
    seed: int
    scores: tuple[float, ...]
    actions: int


def prepare_bots(game: str, kinds: Sequence[str]) -> None:
    """Build what the bots share before the workers start (a game's study may say how, e.g. 水鱼's odds tables):
    with fork the workers inherit it instead of each building its own."""
    spec = entry(game).study_spec()
    if spec is not None and spec.prepare_bots is not None:
        spec.prepare_bots(kinds)


def play_match(game: str, config: Any, kinds: Sequence[str], seed: int) -> MatchResult:
    """Match ``seed`` with bot ``kinds[s]`` in seat ``s`` (seeded ``seed * 31 + s``): decided by its seed alone."""
    g = get_game(game).new(config, seed)
    play_out(g, [get_bot(game, k, seed * 31 + s) for s, k in enumerate(kinds)])
    result = g.result()
    assert result is not None
    return MatchResult(seed, tuple(result.scores), len(g.history))


@dataclass(frozen=True)
class SimMerge:
    """Folds match results (in seed order) into the JSON summary ``paiju sim`` prints."""

    game: str
    seed: int
    bots: tuple[str, ...]
    config: dict[str, Any]
    per_match: bool = False

    def __call__(self, seeds: Sequence[int], results: Sequence[MatchResult]) -> dict[str, Any]:
        totals = [0.0] * len(self.bots)
        actions = 0
        for r in results:
            for s, v in enumerate(r.scores):
                totals[s] += v
            actions += r.actions
        n = len(results)
        summary: dict[str, Any] = {
            "game": self.game, "games": n, "seed": self.seed, "bots": list(self.bots), "config": self.config,
            "totals": totals, "mean_per_game": [t / n if n else 0.0 for t in totals], "actions": actions}
        if self.per_match:
            summary["matches"] = [{"seed": r.seed, "scores": list(r.scores), "actions": r.actions} for r in results]
        return summary


def sim_work(game: str, config: Any, kinds: Sequence[str], *, games: int, seed: int = 0,
             per_match: bool = False) -> Work[int, MatchResult, dict[str, Any]]:
    """Matches ``seed .. seed + games - 1`` with the given bots, merged into the ``paiju sim`` summary."""
    return Work(play=partial(play_match, game, config, tuple(kinds)), jobs=range(seed, seed + games),
                merge=SimMerge(game, seed, tuple(kinds), config.to_dict(), per_match),
                prepare=partial(prepare_bots, game, tuple(kinds)))
