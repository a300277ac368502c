"""滑水's search bot (issue 37): legal, within its budget, deterministic for a seed, and blind past its view."""

from __future__ import annotations

import random
import time
from typing import Any

from paiju.games.huashui import HuashuiConfig, HuashuiGame
from paiju.games.huashui.bots import EfficientBot
from paiju.games.huashui.search import SearchBot


def _turns(seed: int, stop_at: int) -> list[tuple[HuashuiGame, int]]:
    """Positions of one hand played by efficient bots: (game copy, seat) at each of the first ``stop_at``
    own-turn discard decisions (the ones the search looks at)."""
    game = HuashuiGame.new(HuashuiConfig(hands=1), seed)
    bots = [EfficientBot(s) for s in range(4)]
    out: list[tuple[HuashuiGame, int]] = []
    while not game.finished and len(out) < stop_at:
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        if any(a.startswith("discard") for a in legal) and not view.get("claim"):
            out.append((HuashuiGame.from_view(view, random.Random(0)), seat))
        game.apply(seat, bots[seat].act(view, legal))
    return out


def _positions() -> list[tuple[dict[str, Any], list[str]]]:
    got = []
    for seed in (400000, 400001):
        for g, seat in _turns(seed, 12)[::3]:
            got.append((g.view(seat), g.legal_actions(seat)))
    return got


def test_legal_action_in_several_positions() -> None:
    bot = SearchBot(3)
    for view, legal in _positions():
        assert bot.act(view, legal) in legal


def test_deterministic_for_a_seed() -> None:
    for view, legal in _positions():
        assert SearchBot(7).act(view, legal) == SearchBot(7).act(view, legal)


def test_budget_is_respected() -> None:
    """No time at all: the efficient bot's choice at once; a small cap holds within a margin."""
    for view, legal in _positions():
        assert SearchBot(1, max_seconds=0.0).act(view, legal) == EfficientBot(1).act(view, legal)
        bot = SearchBot(1, samples=10_000)
        bot.budget_seconds = 0.02
        start = time.perf_counter()
        assert bot.act(view, legal) in legal
        assert time.perf_counter() - start < 0.02 + 0.1


def test_sees_only_its_view() -> None:
    """Two games that look the same to the seat (hidden tiles dealt differently) get the same choice."""
    for g, seat in _turns(400002, 9)[1::2]:
        view = g.view(seat)
        other = HuashuiGame.from_view(view, random.Random(99))
        assert other.view(seat) == view
        assert other.legal_actions(seat) == g.legal_actions(seat)
        assert SearchBot(5).act(other.view(seat), other.legal_actions(seat)) == \
            SearchBot(5).act(view, g.legal_actions(seat))


def test_plays_a_whole_hand() -> None:
    game = HuashuiGame.new(HuashuiConfig(hands=1), 400003)
    from paiju.bots import play_out
    play_out(game, [SearchBot(0, samples=8)] + [EfficientBot(s) for s in range(1, 4)])
    assert game.finished
