"""RLCard's games as benchmark peers: how to build each one and where its legal actions are.

Used by ``bench/bench_engines.py``, which drives every engine with the same loop.  RLCard offers two levels:

- the **game** (``env.game``): ``init_game`` / ``step`` / ``is_over``.  Its ``step`` already builds the next
  player's state dict (hand, public cards, legal actions): RLCard has no cheaper way to play, so its game is
  both its "bare" and its "with views" figure — except bridge, whose game state holds only the hand (its
  per-seat view is the env's);
- the **env** (``rlcard.make``): the game plus ``_extract_state`` on every step (a numpy encoding for
  learning, the legal-action ids, the raw state) and the decoding of action ids.

Each game is made through ``rlcard.make`` so the env's configuration and seeding apply to its game too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


class PeerMissing(ImportError):
    """RLCard is not installed: ``pip install -e '.[bench]'``."""


def _mahjong_legal(game: Any, state: dict[str, Any]) -> Sequence[Any]:
    legal: Sequence[Any] = game.get_legal_actions(state)
    return legal


def _doudizhu_legal(game: Any, state: dict[str, Any]) -> Sequence[Any]:
    legal: Sequence[Any] = state["actions"]
    return legal


def _bridge_legal(game: Any, state: dict[str, Any]) -> Sequence[Any]:
    legal: Sequence[Any] = game.judger.get_legal_actions()
    return legal


def _holdem_legal(game: Any, state: dict[str, Any]) -> Sequence[Any]:
    legal: Sequence[Any] = state["legal_actions"]
    return legal


LegalOf = Callable[[Any, dict[str, Any]], Sequence[Any]]

GAMES: dict[str, tuple[dict[str, Any], LegalOf, bool]] = {
    # name: (rlcard.make config, where the bare game keeps the mover's legal actions, the game's state is a view)
    "mahjong": ({}, _mahjong_legal, True),
    "doudizhu": ({}, _doudizhu_legal, True),
    "bridge": ({}, _bridge_legal, False),
    "limit-holdem": ({"game_num_players": 4}, _holdem_legal, True),
}
"""The RLCard games the harness uses; limit hold'em at four seats like 水鱼's default table."""


def make_env(name: str, seed: int = 0) -> Any:
    """RLCard's env for ``name`` (its ``game`` attribute is the bare game, configured and seeded alike)."""
    try:
        import rlcard
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise PeerMissing(f"rlcard is not importable ({e})") from e
    config = GAMES[name][0]
    return rlcard.make(name, config={"seed": seed, **config})


def legal_reader(name: str) -> LegalOf:
    return GAMES[name][1]


def state_is_view(name: str) -> bool:
    """Whether the bare game's per-step state is a seat's view (bridge's holds only the hand)."""
    return GAMES[name][2]

