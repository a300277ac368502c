"""Quick phrases (快捷语) and, where a host turns it on, free-text chat at a table.

The phrases are a fixed list with both languages, so nothing anyone says through them needs moderating; free
text is off unless ``Settings.chat_max_length`` is set (``paiju serve --chat-length``), and every seat has the
report button.  Free text passes the hosts' word filter (chatfilter.py: full-width and zero-width spellings
count as the plain word) and carries a signature, so a report can quote the very line.  Each player may speak
``phrase_burst`` times in any ``phrase_burst * phrase_every_seconds`` seconds over all their sockets (a
sliding window, shared by the workers): a bubble every few seconds is talk, more is noise.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..errors import ErrorCode, RoomError
from ..limits import Shared, Throttle, count
from ..settings import Settings
from .chatfilter import mask, normal, sign_line
from .conn import Conn, dumps
from .table import CardTable

PHRASES: list[tuple[str, str, str]] = [
    ("hurry", "快点吧，等得花儿都谢了", "Hurry up, please"),
    ("nice", "好牌！", "Nice hand!"),
    ("again", "再来一局", "One more game"),
    ("thanks", "谢谢", "Thanks"),
    ("oops", "哎呀，失误了", "Oops, my mistake"),
    ("hello", "大家好", "Hello, everyone"),
    ("wait", "稍等一下", "One moment"),
    ("bye", "下次再玩", "See you next time"),
]
"""(id, zh, en): what the phrase buttons say; the wire carries the id and both texts."""
PHRASE_TEXT = {pid: {"zh": zh, "en": en} for pid, zh, en in PHRASES}


class Talk:
    """What people say at tables: checks, the per-player limit, and the message everyone gets.

    The limit is the player's, not a connection's: one person with fifty sockets (or sockets at several
    workers: ``shared``, the room's counts in Redis) says no more than with one."""

    def __init__(self, settings: Settings, shared: Shared | None = None,
                 words: Callable[[], Awaitable[list[str]]] | None = None) -> None:
        self.settings = settings
        self.shared = shared
        self.key = settings.signing_key()
        self.load_words = words
        """The hosts' filter list, read from the database (every worker's copy is at most
        ``chat_filter_reload_seconds`` old; the worker where a host changed it reads it at once)."""
        self._words: list[str] = []
        self._words_at = float("-inf")
        self.throttle = Throttle(settings.phrase_burst, settings.phrase_burst * settings.phrase_every_seconds,
                                 settings.clock, "talk")

    def catalogue(self) -> dict[str, Any]:
        """``GET /api/phrases``: the phrases, and whether free text is on (its longest message)."""
        return {"phrases": [{"id": pid, "zh": zh, "en": en} for pid, zh, en in PHRASES],
                "chat_max_length": self.settings.chat_max_length}

    def forget_words(self) -> None:
        """A host changed the list: read it again before the next line."""
        self._words_at = float("-inf")

    async def words(self) -> list[str]:
        now = self.settings.clock()
        if self.load_words is not None and now - self._words_at >= self.settings.chat_filter_reload_seconds:
            self._words, self._words_at = await self.load_words(), now
        return self._words

    async def _limit(self, player_id: str) -> None:
        wait = await count(self.shared, self.settings.clock, "take", [(self.throttle, "s:" + player_id)])
        if wait is not None:
            raise RoomError(ErrorCode.SLOW_DOWN, f"too fast: wait {wait:.1f} s", zh=f"说得太快了：请等 {wait:.1f} 秒")

    def _speaker(self, table: CardTable, conn: Conn) -> tuple[int, dict[str, Any]]:
        seat = table.seat_of(conn.player)
        if seat is None or conn.player is None:
            raise RoomError(ErrorCode.NOT_SEATED, "only the people seated at the table speak at it",
                            zh="只有入座的人才能发言")
        return seat, conn.player.to_dict()

    async def phrase(self, table: CardTable, conn: Conn, phrase: object) -> None:
        if not isinstance(phrase, str) or phrase not in PHRASE_TEXT:
            raise RoomError(ErrorCode.UNKNOWN_PHRASE, f"no quick phrase {str(phrase)[:20]!r}; known: "
                            f"{', '.join(PHRASE_TEXT)}", zh=f"没有快捷语 {str(phrase)[:20]!r}")
        seat, who = self._speaker(table, conn)
        await self._limit(str(who["id"]))
        table.watchers.to_all(dumps({"type": "phrase", "seat": seat, "player": who, "phrase": phrase,
                                     **PHRASE_TEXT[phrase], "at": self.settings.clock()}))

    async def chat(self, table: CardTable, conn: Conn, text: object) -> None:
        most = self.settings.chat_max_length
        if most <= 0:
            raise RoomError(ErrorCode.CHAT_OFF, "free-text chat is off here: use the quick phrases",
                            zh="这里不开放打字聊天：请用快捷语")
        line = normal(text) if isinstance(text, str) else ""
        if not line or not line.isprintable():
            raise RoomError(ErrorCode.BAD_MESSAGE, '"chat" needs "text": a line of printable text',
                            zh='"chat" 需要 "text"：一行可显示的文字')
        if len(line) > most:
            raise RoomError(ErrorCode.CHAT_TOO_LONG, f"a message has at most {most} characters",
                            zh=f"每句最多 {most} 个字")
        seat, who = self._speaker(table, conn)
        await self._limit(str(who["id"]))
        shown, at = mask(line, await self.words()), self.settings.clock()
        table.watchers.to_all(dumps({"type": "chat", "seat": seat, "player": who, "text": shown, "at": at,
                                     "sig": sign_line(self.key, table.id, seat, str(who["id"]), at, shown)}))
