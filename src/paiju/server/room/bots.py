"""The bots of one table: which bot plays which seat, and asking one for a move off the event loop.

A bot sees only what its seat sees: it is handed a private copy of the seat's view and legal list, and
decides on a worker thread, or — a strong (高手) seat whose game has a search bot — in a worker process
(search.py), falling back to the fast bot when the room is busy.  Whether its choice still applies, and whether
the rules allow it, is the table's call, under the table's lock: a legal list may be capped (升级's plays and
burials), so a bot may rightly answer with an action the list does not show, and only the game's ``is_legal``
can judge it.

A seat's ``bot`` is the room's name for who plays it: ``easy`` or ``strong`` (the game's 入门 and 高手 bots,
``paiju.bots.base.strength_kinds``), or a bot kind — the room's ``bot_kind``, ``best`` by default, is its
normal (普通) bot, which also plays autoplay (托管) and a leaver's seat.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

from paiju.bots.base import STRENGTHS, Bot, RandomBot, bot_maker, catch_up, remembers, reseed, strength_kinds
from paiju.core.game import Game

from ..errors import ErrorCode, RoomError
from .search import SearchPool

log = logging.getLogger("paiju.server.room.bots")

EASY, NORMAL, STRONG = STRENGTHS
SEAT_STRENGTHS = (EASY, STRONG)
"""The strengths a seat's ``bot`` names itself; any other bot is the room's normal one."""


def strength_of(bot: str | None) -> str | None:
    """The strength a seat's ``bot`` plays at (None: no bot)."""
    if bot is None:
        return None
    return bot if bot in SEAT_STRENGTHS else NORMAL


def seat_bot(strength: str, normal_kind: str) -> str:
    """What a seat filled at ``strength`` stores as its ``bot`` (normal stays the room's ``bot_kind``, so a
    table filled before strengths existed reads the same)."""
    return strength if strength in SEAT_STRENGTHS else normal_kind


def parse_strength(value: object) -> str:
    """A body's ``strength`` (absent: normal); 422 ``unknown_strength`` for anything else."""
    if value is None:
        return NORMAL
    if not isinstance(value, str) or value not in STRENGTHS:
        shown = repr(value)[:40]
        raise RoomError(ErrorCode.UNKNOWN_STRENGTH, f"unknown bot strength {shown}; known: {', '.join(STRENGTHS)}",
                        422, zh=f"没有 {shown} 这种机器人强度；可选：easy（入门）、normal（普通）、strong（高手）")
    return value


def strengths_of(game: str) -> dict[str, str]:
    """The bot kind of each strength; a game whose table is broken plays ``best`` at every strength but easy."""
    try:
        return strength_kinds(game)
    except (ImportError, KeyError):
        log.exception("%s: no strengths table; every strength plays best", game)
        return {EASY: "random", NORMAL: "best", STRONG: "best"}


def searches(game: str) -> bool:
    """Whether ``game``'s strong bot is not its normal one (then it thinks in a worker process)."""
    kinds = strengths_of(game)
    try:
        return bot_maker(game, kinds[STRONG]) is not bot_maker(game, kinds[NORMAL])
    except (ImportError, KeyError):
        return False

BotFactory = Callable[[str, str, int], Bot]
"""(game, kind, seed) -> bot."""


def default_bot_factory(game: str, kind: str, seed: int) -> Bot:
    """The game's own bot; a random one when the game ships none yet."""
    from paiju.bots import get_bot

    try:
        return get_bot(game, kind, seed)
    except (ImportError, KeyError):
        log.warning("no %r bot for %s; using a random bot", kind, game)
        return RandomBot(seed)


def warm_bots(games: Iterable[str]) -> None:
    """Each game's own normal bot makes one decision on a fresh game, on a thread at the room's start: tables a
    bot builds on first use (水鱼's odds, 0.7 s) are built once here, and not by the first dozen tables' bots at
    once (sixteen seats building them together took 3.8 s each: bench_strong_bots.py --game shuiyu).  The game's
    own bot, not the room's factory: a factory's bots may keep state (tests count their calls), the tables are
    the module's."""
    from paiju.bots import get_bot
    from paiju.core import get_game

    for name in games:
        try:
            cls = get_game(name)
            game = cls(cls.config_class(), 0)
            seat = game.to_move()[0]
            get_bot(name, strengths_of(name)[NORMAL], 0).act(game.view(seat), game.legal_actions(seat))
        except Exception:  # a game without bots, or one that cannot start alone: its first table warms it
            log.debug("no warm-up for %s's bots", name, exc_info=True)


class TableBots:
    """One table's bots, made on first use per seat, and which seats have a move asked for or under way.

    Each decision is seeded by (table seed, seat, move number), so a bot's choice depends on the state alone:
    asked twice for one state (the table moved while it thought, then came back to it), or after a restart
    rebuilt the table, it chooses the same.  A bot that remembers past rounds (水鱼's) and takes a seat
    mid-match, after a restart or in place of a person, first reads the match so far from the seat's views
    (``catch_up``), so it remembers what the first one would have."""

    def __init__(self, factory: BotFactory, table_id: str, game: str, seed: int,
                 search: SearchPool | None = None) -> None:
        self.factory = factory
        self.table_id = table_id
        self.game = game
        self.seed = seed
        self.search = search
        self._bots: dict[int, tuple[str, Bot]] = {}  # seat -> (its ``bot`` when made, the bot)
        self._asked: dict[int, int] = {}  # seat -> the update seq its think delay was armed for
        self.thinking: set[int] = set()

    def _seed(self, seat: int) -> int:
        return (self.seed * 31 + seat) % 2**62

    def decision_seed(self, seat: int, move: int) -> int:
        """The seed of ``seat``'s decision after ``move`` actions (a table's update seq)."""
        return (self._seed(seat) * 1_000_003 + move) % 2**62

    def kind(self, bot: str) -> str:
        """The bot kind a seat's ``bot`` names (a strength through the game's strengths, else itself)."""
        return strengths_of(self.game)[bot] if bot in STRENGTHS else bot

    def searches(self, bot: str) -> bool:
        """Whether the seat's decisions go to the search pool."""
        return bot == STRONG and self.search is not None and searches(self.game)

    async def caught_up(self, seat: int, name: str, game: Game[Any]) -> Bot:
        """:meth:`bot`; a new one that remembers (水鱼's) first reads ``game`` so far, on a worker thread (a long
        match is many views; the caller holds the table's lock, so the seat does not move meanwhile)."""
        before = self._bots.get(seat)
        bot = self.bot(seat, name)
        if (before is None or before[1] is not bot) and remembers(bot) and game.history:
            await asyncio.to_thread(catch_up, bot, game.record(), seat)
        return bot

    def bot(self, seat: int, name: str) -> Bot:
        """The bot that decides in this process for the seat whose ``bot`` is ``name``: for a searching seat, its
        fast fallback (the game's normal bot)."""
        made = self._bots.get(seat)
        if made is None or made[0] != name:
            search = self.searches(name)
            if search:
                self.prepare(name)  # a table rebuilt after a restart: its first search starts the workers
            made = self._bots[seat] = (name, self.factory(self.game, self.kind(NORMAL if search else name),
                                                          self._seed(seat)))
        return made[1]

    def prepare(self, name: str) -> None:
        """Seats were filled with ``name``: if they search, start the workers now, before the first decision."""
        if self.search is not None and self.searches(name):
            self.search.prepare()

    def needs_view(self, bot: Bot, name: str) -> bool:
        return self.searches(name) or getattr(bot, "needs_view", True)

    def forget(self, seat: int) -> None:
        """The seat's bot is gone (the person is back, or another bot takes over): make a new one next time,
        and ask it even for a state the old one was asked for (autoplay turned off and on again)."""
        self._bots.pop(seat, None)
        self._asked.pop(seat, None)

    def to_ask(self, seats: Iterable[int], seq: int) -> list[int]:
        """Of the bot ``seats`` that must decide at update ``seq``, those not yet asked for it (now marked)."""
        out = [s for s in seats if self._asked.get(s) != seq]
        for s in out:
            self.asked(s, seq)
        return out

    def asked(self, seat: int, seq: int) -> None:
        """A move is asked of ``seat``'s bot for update ``seq``."""
        self._asked[seat] = seq

    async def choose(self, bot: Bot, seat: int, move: int, view: dict[str, Any], legal: list[str],
                     name: str | None = None) -> str | None:
        """The choice, after ``move`` actions, of the seat whose ``bot`` is ``name``: a search in a worker
        process for a searching seat, else (or when the pool says no) ``bot``'s on a worker thread; None if it
        failed.  ``seat`` is in ``thinking`` from the call (before anything waits: the caller's lock is just
        released) until the choice is back."""
        self.thinking.add(seat)
        seed = self.decision_seed(seat, move)
        try:
            if name is not None and self.search is not None and self.searches(name):
                maker = bot_maker(self.game, self.kind(STRONG))
                action = await self.search.decide(maker, seed, view, legal)
                if action is not None:
                    return action
            return await asyncio.to_thread(self._ask, bot, seed, view, legal, seat)
        finally:
            self.thinking.discard(seat)

    def _ask(self, bot: Bot, seed: int, view: dict[str, Any], legal: list[str], seat: int) -> str | None:
        try:
            reseed(bot, seed)
            return bot.act(view, legal)
        except Exception:
            log.exception("table %s: bot failed at seat %d", self.table_id, seat)
            return None
