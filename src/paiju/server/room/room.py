"""The room: every live table of this process, the players it has met, and the database behind them.

:class:`Room` makes tables (drawing a 房号), reads finished ones back, rebuilds the unfinished ones at start-up
and evicts finished ones after ten minutes; the public waiting and playing tables are its lobby's pages.
Each table is a :class:`~paiju.server.room.table.CardTable`, which knows the room only as ``table.Host``.
"""

from __future__ import annotations

import asyncio
import bisect
import dataclasses
import logging
import secrets
from typing import Any

from sqlalchemy import Connection

from paiju.core import ConfigError, Window, get_game

from ..errors import ErrorCode, RoomError, no_table
from ..settings import Settings
from ..storage import Player, SeatRow, TableRow, expire_table
from ..writer import Database
from .bots import BotFactory, default_bot_factory
from .numbers import RoomNumbers
from .ownership import Cluster
from .search import SearchPool
from .store import RoomStore, StoreHooks, replay_game
from .table import CardTable

log = logging.getLogger("paiju.server.room.room")


class Room:
    """Every live table of this process, the players it has met, and the database behind them."""

    def __init__(self, settings: Settings, db: Database, bot_factory: BotFactory = default_bot_factory) -> None:
        self.settings = settings
        self.db = db
        self.store = RoomStore(db)
        self.hooks = StoreHooks()
        """Work that commits with every table's writes (the ledger's bookings, issue 9)."""
        self.bot_factory = bot_factory
        self.search = SearchPool(settings)
        """Strong bots' worker processes (started on first use) and the loop's lag (search.py)."""
        self.tables: dict[str, CardTable] = {}
        self.numbers = RoomNumbers(db, settings.clock)
        self._players: dict[str, Player] = {}
        self._evictions: dict[str, asyncio.TimerHandle] = {}
        self.keep_finished_seconds = 600.0
        self._lobby: list[tuple[float, str]] = []
        """(created_at, id) of every public waiting or playing table, sorted: the lobby's pages."""
        self.cluster: Cluster = Cluster()
        """The other workers serving this room, if any (cluster.py; the app sets it)."""

    # ---- players -------------------------------------------------------------------------------------
    async def new_player(self, nickname: str) -> Player:
        player = Player(secrets.token_hex(8), nickname)
        await self.store.add_player(player, self.settings.clock())
        self._players[player.id] = player
        return player

    async def player(self, player_id: str | None) -> Player | None:
        if player_id is None:
            return None
        p = self._players.get(player_id)
        if p is None:
            p = await self.store.player(player_id)
            if p is not None:
                self._players[p.id] = p
        return p

    # ---- tables --------------------------------------------------------------------------------------
    def window_option(self, name: str, value: Any, default: float) -> float:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RoomError(ErrorCode.BAD_OPTION, f"option {name!r} must be a number of seconds", 422,
                            zh=f"选项 {name!r} 应为秒数")
        v = float(value)
        s = self.settings
        lo, hi = f"{s.min_window_seconds:g}", f"{s.max_window_seconds:g}"
        if v != 0 and not s.min_window_seconds <= v <= s.max_window_seconds:
            raise RoomError(ErrorCode.BAD_OPTION, f"option {name!r} must be 0 (untimed) or between {lo} and {hi} "
                            "seconds", 422, zh=f"选项 {name!r} 应为 0（不限时）或 {lo} 到 {hi} 秒")
        return v

    def room_option(self, name: str, value: Any) -> float:
        """A table's pace or pause between hands: seconds from 0 (none) to the server's bound."""
        bound = {"pace_seconds": self.settings.max_pace_seconds, "claim_pause": self.settings.max_pace_seconds,
                 "next_hand_seconds": self.settings.max_window_seconds, "ready_seconds": 600.0}.get(name)
        if bound is None:
            raise RoomError(ErrorCode.BAD_OPTION, f"unknown table option {name!r}", 422, zh=f"没有桌面选项 {name!r}")
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= bound:
            raise RoomError(ErrorCode.BAD_OPTION, f"option {name!r} must be a number of seconds from 0 to {bound:g}",
                            422, zh=f"选项 {name!r} 应为 0 到 {bound:g} 秒")
        return float(value)

    async def create_table(self, owner: Player, game_name: str, config: Any, *, turn_seconds: Any = None,
                           claim_seconds: Any = None, private: bool = False, seed: int | None = None,
                           deal: Any = None, options: dict[str, Any] | None = None,
                           number: str | None = None, rated: bool | None = None) -> CardTable:
        """A new waiting table; ``number`` keeps a room number (a rematch's), else a free one is drawn;
        ``rated=False`` makes it casual (None: rated if people fill its seats, decided at the start)."""
        try:
            cls = get_game(game_name)
        except (KeyError, ImportError) as e:
            raise RoomError(ErrorCode.UNKNOWN_GAME, f"unknown or unavailable game {game_name!r}", 422,
                            zh=f"没有游戏 {game_name!r}，或未安装") from e
        if config is not None and not isinstance(config, dict):
            raise RoomError(ErrorCode.BAD_OPTION, "config must be an object of rule options", 422,
                            zh="config 应为规则选项组成的对象")
        try:
            cfg = cls.config_class.from_dict(config or {})
        except ConfigError as e:
            raise RoomError(ErrorCode.BAD_OPTION, str(e), 422) from e
        turn = self.window_option("turn_seconds", turn_seconds, self.settings.turn_seconds)
        if 0 < turn < self.settings.min_turn_seconds:
            least = f"{self.settings.min_turn_seconds:g}"
            raise RoomError(ErrorCode.WINDOW_TOO_SHORT, f"option 'turn_seconds' must be 0 (untimed) or at least "
                            f"{least} seconds: people play at this table", 422,
                            zh=f"选项 'turn_seconds' 应为 0（不限时）或至少 {least} 秒：这张桌上有人在打")
        rule_claim = cfg.window_seconds(Window.CLAIM)  # a game whose rules time the claim window (滑水)
        if claim_seconds is None and rule_claim is not None:
            claim_seconds = rule_claim
        claim = self.window_option("claim_seconds", claim_seconds, self.settings.claim_seconds)
        kept = {name: self.room_option(name, value) for name, value in (options or {}).items()}
        asks_all = cls.config_class.asks_all_option()
        if asks_all is not None and kept.get("claim_pause", self.settings.claim_pause) > 0:
            cfg = dataclasses.replace(cfg, **{asks_all: True})  # the pause hides who can claim only if all are asked
        seed = secrets.randbits(62) if seed is None else seed
        try:
            game = cls(cfg, seed, deal)
        except Exception as e:
            raise RoomError(ErrorCode.BAD_OPTION, f"cannot set up {game_name} with these options: {e}", 422,
                            zh=f"这些选项开不了 {game_name}：{e}") from e
        tid = secrets.token_urlsafe(6)
        drawn = number is None
        if number is None:
            number = await self.numbers.allocate(t.row.number for t in self.tables.values())
        row = TableRow(id=tid, game=game_name, config=cfg.to_dict(), seed=seed, deal=deal, turn_seconds=turn,
                       claim_seconds=claim, private=bool(private),
                       invite=secrets.token_urlsafe(9) if private else None, owner_id=owner.id,
                       status="waiting", created_at=self.settings.clock(),
                       seats=[SeatRow(i) for i in range(game.num_seats)], options=kept, number=number,
                       owner_epoch=self.cluster.first_epoch, rated=False if rated is False else None)
        try:
            await self.store.add_table(row)
        finally:
            if drawn:
                self.numbers.release(number)
        table = self.tables[tid] = CardTable(self, row, game)
        await self.cluster.adopted(table)
        self._listed(table)
        return table

    # ---- the lobby -----------------------------------------------------------------------------------
    def _listed(self, table: CardTable) -> None:
        if not table.row.private and table.row.status in ("waiting", "playing"):
            bisect.insort(self._lobby, (table.row.created_at, table.id))
            self.cluster.changed(table)

    def _unlisted(self, table: CardTable) -> None:
        self.cluster.changed(table)
        key = (table.row.created_at, table.id)
        i = bisect.bisect_left(self._lobby, key)
        if i < len(self._lobby) and self._lobby[i] == key:
            del self._lobby[i]

    def lobby_page(self, after: tuple[float, str] | None, limit: int,
                   game: str | None = None) -> tuple[list[CardTable], tuple[float, str] | None]:
        """Up to ``limit`` public waiting or playing tables older than ``after``, newest first (the tables
        people can still join come first), and the key to ask the next page with (None: this was the last).
        A bisection into the sorted index, so a page costs the same with 10,000 tables as with ten."""
        lobby, tables = self._lobby, self.tables
        i = len(lobby) if after is None else bisect.bisect_left(lobby, after)
        out: list[CardTable] = []
        while i > 0 and len(out) < limit:
            i -= 1
            t = tables.get(lobby[i][1])
            if t is not None and t.row.status in ("waiting", "playing") and (game is None or t.row.game == game):
                out.append(t)
        full = len(out) == limit and i > 0
        return out, ((out[-1].row.created_at, out[-1].id) if full else None)

    async def expire_waiting(self) -> int:
        """Drop the waiting tables whose seats nobody changed for ``waiting_table_minutes`` and that nobody is
        connected to; returns how many."""
        ttl = self.settings.waiting_table_minutes * 60.0
        if ttl <= 0:
            return 0
        edge = self.settings.clock() - ttl
        idle = [t for t in self.tables.values()
                if t.row.status == "waiting" and t.active_at <= edge and not len(t.watchers)]
        for t in idle:
            async with t.lock:
                if t.row.status != "waiting" or t.active_at > edge or len(t.watchers):
                    continue
                await t.store.expire()
                t.row.status = "expired"
                self._unlisted(t)
                self.tables.pop(t.id, None)
                t.close()
        if idle:
            log.info("expired %d waiting tables nobody joined", len(idle))
        return len(idle)

    async def expire_forever(self) -> None:
        """Run :meth:`expire_waiting` every minute or so (the lifespan owns this task)."""
        every = max(0.05, min(60.0, self.settings.waiting_table_minutes * 60.0 / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.expire_waiting()
            except Exception:  # the database is away: try again next round
                log.warning("expiring waiting tables failed; trying again later", exc_info=True)

    def get(self, table_id: str) -> CardTable:
        table = self.tables.get(table_id)
        if table is None:
            raise no_table(table_id)
        return table

    async def get_or_load(self, table_id: str) -> CardTable:
        """A live table, or a finished one read back from the database (for its result and record)."""
        if table_id in self.tables:
            return self.tables[table_id]
        row = await self.store.table(table_id)
        if row is None:
            raise no_table(table_id)
        return CardTable(self, row, replay_game(row))

    def open_tables(self, game: str | None = None) -> list[CardTable]:
        return [t for t in self.tables.values()
                if not t.row.private and t.row.status in ("waiting", "playing")
                and (game is None or t.row.game == game)]

    def finished(self, table: CardTable) -> None:
        """Keep a finished table in memory a while (clients see the result), then drop it."""
        self._unlisted(table)
        loop = asyncio.get_running_loop()
        self._evictions[table.id] = loop.call_later(self.keep_finished_seconds, self._evict, table.id)

    def _evict(self, table_id: str) -> None:
        self._evictions.pop(table_id, None)
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.close()
            self.cluster.changed(table)  # the other workers no longer find it here

    async def restore(self, rows: list[TableRow], rearm: bool = True) -> None:
        """Rebuild every unfinished table by replaying its record; re-arm deadlines, bots and grace timers
        (``rearm=False``: the caller does, later: a takeover serves every table again before any bot moves).
        A waiting table idle past ``waiting_table_minutes`` is marked expired instead."""
        ttl = self.settings.waiting_table_minutes * 60.0
        edge = self.settings.clock() - ttl
        expired: list[str] = []
        for row in rows:
            if ttl > 0 and row.status == "waiting" and max(row.created_at, row.last_seated or 0.0) <= edge:
                expired.append(row.id)
                continue
            try:
                game = replay_game(row)
            except Exception:
                log.exception("table %s (%s) could not be rebuilt; left in the database", row.id, row.game)
                continue
            table = CardTable(self, row, game)
            self.tables[row.id] = table
            self._listed(table)
            for s in row.seats:
                if s.player_id is not None and s.nickname is not None:
                    self._players.setdefault(s.player_id, Player(s.player_id, s.nickname))
            if rearm:
                await table.rearm()
        if expired:
            def job(c: Connection) -> None:
                for tid in expired:
                    expire_table(c, tid)

            await self.db.run(job)
        log.info("restored %d unfinished tables (%d waiting tables expired)", len(self.tables), len(expired))

    def close(self) -> None:
        for h in self._evictions.values():
            h.cancel()
        for t in self.tables.values():
            t.close()
        self.search.close()
