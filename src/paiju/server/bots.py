"""The bots of one table: which bot plays which seat, and asking one for a move off the event loop.

A bot sees only what its seat sees: it is handed a private copy of the seat's view and legal list, and
decides on a worker thread (some bots think for seconds).  Whether its choice still applies is the table's
call, under the table's lock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

from paiju.bots.base import Bot, RandomBot

log = logging.getLogger("paiju.server.bots")

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


class TableBots:
    """One table's bots, made on first use per seat (seeded from the table's seed, so a rebuilt table's
    bots are the same bots), and which seats have a move asked for or under way."""

    def __init__(self, factory: BotFactory, table_id: str, game: str, seed: int) -> None:
        self.factory = factory
        self.table_id = table_id
        self.game = game
        self.seed = seed
        self._bots: dict[int, Bot] = {}
        self._asked: dict[int, int] = {}  # seat -> the update seq its think delay was armed for
        self.thinking: set[int] = set()

    def bot(self, seat: int, kind: str) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = self.factory(self.game, kind, (self.seed * 31 + seat) % 2**62)
        return bot

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

    async def choose(self, bot: Bot, seat: int, view: dict[str, Any], legal: list[str]) -> str | None:
        """The bot's choice, made on a worker thread; None if it failed.  ``seat`` is in ``thinking`` from the
        call (before anything waits: the caller's lock is just released) until the choice is back."""
        self.thinking.add(seat)
        try:
            return await asyncio.to_thread(self._ask, bot, view, legal, seat)
        finally:
            self.thinking.discard(seat)

    def _ask(self, bot: Bot, view: dict[str, Any], legal: list[str], seat: int) -> str | None:
        try:
            action = bot.act(view, legal)
        except Exception:
            log.exception("table %s: bot failed at seat %d", self.table_id, seat)
            return None
        if action not in legal:
            log.error("table %s: bot at seat %d chose %r, not in its legal list", self.table_id, seat, action)
        return action
