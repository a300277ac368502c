"""The bot interface and the loop that lets bots play a game through the protocol alone.

A bot is given a seat's view (the same dict the card room sends that seat) and that seat's legal
actions; it never touches the game object, so it cannot see what its seat cannot.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from paiju.core.game import Action, Event, Game, Record, View
from paiju.core.registry import entry, get_game


class Bot(Protocol):
    """Chooses one of ``legal`` from what its seat sees."""

    def act(self, view: View, legal: Sequence[Action]) -> Action: ...


class RandomBot:
    """Uniformly random legal actions: the baseline every study compares against."""

    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


class WallClockCap:
    """A search bot's wall-clock cap per decision, ``max_seconds`` (None: none), which the card room's search
    pool sets before each decision under the name ``budget_seconds`` (server/room/search.py)."""

    max_seconds: float | None = None

    @property
    def budget_seconds(self) -> float | None:
        return self.max_seconds

    @budget_seconds.setter
    def budget_seconds(self, seconds: float | None) -> None:
        self.max_seconds = seconds


BotFactory = Callable[[int], Bot]


def reseed(bot: Bot, seed: int) -> None:
    """Restart a bot's generator (its ``rng``, the attribute every paiju bot draws from) for one decision.

    The card room calls this with a seed of (table, seat, move number) before each move it asks for, so the
    same state gets the same choice however often, and whenever, the bot is asked: a re-ask after the table
    moved, a table rebuilt after a restart.  A bot without an ``rng`` is left alone."""
    rng = getattr(bot, "rng", None)
    if isinstance(rng, random.Random):
        rng.seed(seed)


def remembers(bot: Bot) -> bool:
    """Whether the bot keeps what its seat saw from move to move (it has ``recall(view)``)."""
    return callable(getattr(bot, "recall", None))


def catch_up(bot: Bot, record: Record, seat: int) -> None:
    """A bot that remembers what its seat saw and takes the seat mid-match, on a table rebuilt after a
    restart or in place of a person who left: show it the seat's view after every move of ``record``, so it
    knows the match as if it had sat there from the start.  A bot without ``recall`` is left alone (nothing
    is replayed).  The replay is its own game: this may run on another thread while the table moves on."""
    if not remembers(bot) or not record.actions:
        return
    recall = bot.recall  # type: ignore[attr-defined]
    replay = get_game(record.game).replay(dataclasses.replace(record, actions=()))
    for s, action in record.actions:
        replay.apply(s, action)
        recall(replay.view(seat))


def _game_bots(game: str) -> dict[str, BotFactory]:
    """The bots the game's registry entry names, strongest first; ``random`` is always there."""
    bots: dict[str, BotFactory] = {"random": RandomBot}
    bots.update(entry(game).bot_factories())
    return bots


def bot_names(game: str) -> list[str]:
    return list(_game_bots(game))


def bot_maker(game: str, kind: str = "best") -> BotFactory:
    """The factory (usually the class) of a bot kind: what studies pass to other processes."""
    bots = _game_bots(game)
    if kind == "best":
        kind = next((k for k in bots if k != "random"), "random")
    if kind not in bots:
        raise KeyError(f"no bot {kind!r} for {game}; known: {', '.join(bots)}")
    return bots[kind]


def get_bot(game: str, kind: str = "best", seed: int = 0) -> Bot:
    """A bot for ``game``; ``best`` is the strongest the game offers."""
    return bot_maker(game, kind)(seed)


STRENGTHS: tuple[str, ...] = ("easy", "normal", "strong")
"""The card room's three strengths (入门, 普通, 高手), weakest first."""

STRENGTH_LABELS: dict[str, dict[str, str]] = {"easy": {"zh": "入门", "en": "easy"},
                                              "normal": {"zh": "普通", "en": "normal"},
                                              "strong": {"zh": "高手", "en": "strong"}}


def strength_kinds(game: str) -> dict[str, str]:
    """Which bot kind plays each strength of ``game``: the game's ``STRENGTHS`` where it names one, else the
    weakest listed bot for easy (the list is strongest first, and a baseline is weak but sensible, not random)
    and ``best`` for normal and strong.  ``best`` stays the strongest *fast* bot (``paiju sim``, the RL
    environments); a search bot is named by its own kind."""
    listed = [k for k in entry(game).bot_factories() if k != "random"]
    out = {"easy": listed[-1] if listed else "random", "normal": "best", "strong": "best"}
    named = entry(game).strength_map()
    unknown = set(named) - set(STRENGTHS)
    if unknown:
        raise KeyError(f"{game}: unknown strengths {sorted(unknown)}; known: {', '.join(STRENGTHS)}")
    out.update(named)
    return out


def play_out(
    game: Game[Any],
    bots: Sequence[Bot],
    *,
    on_event: Callable[[Event], None] | None = None,
    max_steps: int = 1_000_000,
) -> Game[Any]:
    """Let ``bots[seat]`` play every decision until the game ends; returns the game."""
    steps = 0
    while not game.finished:
        movers = game.to_move()
        if not movers:
            raise RuntimeError(f"{game.name}: not finished but nobody to move")
        seat = movers[0]
        bot = bots[seat]
        legal = game.legal_actions(seat)
        view = game.view(seat) if getattr(bot, "needs_view", True) else {}
        action = bot.act(view, legal)
        for ev in game.apply(seat, action):
            if on_event is not None:
                on_event(ev)
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"{game.name}: no end after {max_steps} steps")
    return game


def play_random(game: Game[Any], rng: random.Random) -> int:
    """Finish ``game`` with uniformly random legal actions of a random deciding seat; returns the decisions.

    The benchmarks' measure of raw engine speed through the protocol alone (no views, no bots).
    """
    decisions = 0
    while not game.finished:
        movers = game.to_move()
        seat = movers[rng.randrange(len(movers))] if len(movers) > 1 else movers[0]
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
        decisions += 1
    return decisions
