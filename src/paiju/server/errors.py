"""The card room's refusals: one list of stable codes for clients, texts in both languages for people.

Every error the server sends — an HTTP JSON body or a websocket ``error`` message — carries its code, the
English detail it always had (``message``) and the text for people in both languages (``zh``, ``en``), so a
client shows the one its person chose without asking the server again (docs/protocol.md).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from paiju.core import ActionError


class ErrorCode(StrEnum):
    """Every code the card room can send; the values are the wire's strings."""

    # sessions, accounts and bodies
    NO_SESSION = "no_session"
    BAD_NICKNAME = "bad_nickname"
    BAD_JSON = "bad_json"
    BAD_USERNAME = "bad_username"
    BAD_PASSWORD = "bad_password"
    USERNAME_TAKEN = "username_taken"
    HAS_ACCOUNT = "has_account"
    NO_ACCOUNT = "no_account"
    BAD_LOGIN = "bad_login"
    TOO_MANY_ATTEMPTS = "too_many_attempts"
    AT_TABLE = "at_table"
    SESSION_ENDED = "session_ended"
    SESSION_REPLACED = "session_replaced"
    # limits and the browser's side (docs/server.md, "Security")
    RATE_LIMITED = "rate_limited"
    BODY_TOO_LARGE = "body_too_large"
    BAD_ORIGIN = "bad_origin"
    BAD_CONTENT_TYPE = "bad_content_type"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    TOO_MANY_WATCHERS = "too_many_watchers"
    DB_UNAVAILABLE = "db_unavailable"
    NOT_ALLOWED = "not_allowed"
    # history
    NO_PLAYER = "no_player"
    BAD_CURSOR = "bad_cursor"
    # lobby
    UNKNOWN_GAME = "unknown_game"
    NO_RULES = "no_rules"
    BAD_OPTION = "bad_option"
    WINDOW_TOO_SHORT = "window_too_short"
    NO_TABLE = "no_table"
    INVITE_REQUIRED = "invite_required"
    BAD_SEAT = "bad_seat"
    SEAT_TAKEN = "seat_taken"
    SEATS_EMPTY = "seats_empty"
    HAS_BOTS = "has_bots"
    UNKNOWN_STRENGTH = "unknown_strength"
    STARTED = "started"
    NOT_SEATED = "not_seated"
    NOT_FINISHED = "not_finished"
    # play (the first three are the engine's ``ActionError.code``)
    ILLEGAL = "illegal"
    NOT_YOUR_TURN = "not_your_turn"
    GAME_OVER = "game_over"
    NOT_STARTED = "not_started"
    STALE = "stale"
    BETWEEN_HANDS = "between_hands"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    SERVER_ERROR = "server_error"
    OWNER_UNAVAILABLE = "owner_unavailable"
    # friends and hosts (issue 14)
    NO_ROOM = "no_room"
    TABLE_CLOSED = "table_closed"
    UNKNOWN_PHRASE = "unknown_phrase"
    SLOW_DOWN = "slow_down"
    CHAT_OFF = "chat_off"
    HINTS_OFF = "hints_off"
    NOT_READY = "not_ready"
    IS_READY = "is_ready"
    TOO_SOON = "too_soon"
    KICKED = "kicked"
    CHAT_TOO_LONG = "chat_too_long"
    BAD_REASON = "bad_reason"
    BAD_CHAT_LINE = "bad_chat_line"
    TOO_MANY_REPORTS = "too_many_reports"
    PLAY_FIRST = "play_first"
    NO_REPORT = "no_report"
    NOT_HOST = "not_host"
    BANNED = "banned"

    @property
    def zh(self) -> str:
        return TEXTS[self][0]

    @property
    def en(self) -> str:
        return TEXTS[self][1]


TEXTS: dict[ErrorCode, tuple[str, str]] = {
    ErrorCode.NO_SESSION: ("请先取个昵称", "Pick a nickname first"),
    ErrorCode.BAD_NICKNAME: ("昵称不合适", "Unusable nickname"),
    ErrorCode.BAD_JSON: ("请求内容不是合法的 JSON", "The request is not valid JSON"),
    ErrorCode.BAD_USERNAME: ("用户名不合适", "Unusable username"),
    ErrorCode.BAD_PASSWORD: ("密码不合适", "Unusable password"),
    ErrorCode.USERNAME_TAKEN: ("用户名已有人用", "That username is taken"),
    ErrorCode.HAS_ACCOUNT: ("你已经有账号了", "You have an account already"),
    ErrorCode.NO_ACCOUNT: ("你还没有账号", "You have no account"),
    ErrorCode.BAD_LOGIN: ("用户名或密码不对", "Wrong username or password"),
    ErrorCode.TOO_MANY_ATTEMPTS: ("尝试太多次，请稍后再试", "Too many attempts: wait and try again"),
    ErrorCode.AT_TABLE: ("你还在牌桌上", "You are still at a table"),
    ErrorCode.SESSION_ENDED: ("你的会话已结束", "Your session has ended"),
    ErrorCode.SESSION_REPLACED: ("你的会话已更换，请用新的令牌重新连接",
                                 "Your session was replaced: connect again with the new token"),
    ErrorCode.RATE_LIMITED: ("操作太频繁，请稍后再试", "Too many requests: wait and try again"),
    ErrorCode.BODY_TOO_LARGE: ("请求内容太大", "The request is too large"),
    ErrorCode.BAD_ORIGIN: ("不接受来自其他网站的请求", "Requests from other sites are refused"),
    ErrorCode.BAD_CONTENT_TYPE: ("请求内容须为 JSON", "Send the request as JSON"),
    ErrorCode.TOO_MANY_CONNECTIONS: ("来自你的地址的连接太多", "Too many connections from your address"),
    ErrorCode.TOO_MANY_WATCHERS: ("这张桌的旁观人数已满", "This table has as many spectators as it takes"),
    ErrorCode.DB_UNAVAILABLE: ("数据库暂时不可用，请稍后再试", "The database is unavailable: try again shortly"),
    ErrorCode.NOT_ALLOWED: ("只有桌主或入座的人可以这样做", "Only the table's owner or a seated player may do that"),
    ErrorCode.NO_PLAYER: ("找不到这位玩家", "No such player"),
    ErrorCode.BAD_CURSOR: ("翻页参数有误", "Bad page cursor"),
    ErrorCode.UNKNOWN_GAME: ("没有这个游戏", "No such game"),
    ErrorCode.NO_RULES: ("没有这个游戏的规则", "No rules for that game"),
    ErrorCode.BAD_OPTION: ("选项有误", "Bad option"),
    ErrorCode.WINDOW_TOO_SHORT: ("出牌时限太短", "The turn window is too short"),
    ErrorCode.NO_TABLE: ("找不到这张牌桌", "No such table"),
    ErrorCode.INVITE_REQUIRED: ("这是私人牌桌：请用邀请链接进入", "This table is private: open it by its invite link"),
    ErrorCode.BAD_SEAT: ("没有这个座位", "No such seat"),
    ErrorCode.SEAT_TAKEN: ("这个座位已经有人", "That seat is taken"),
    ErrorCode.SEATS_EMPTY: ("还有空位", "Some seats are empty"),
    ErrorCode.HAS_BOTS: ("这张桌有机器人，只能是娱乐局", "Bots sit at this table: its match is casual"),
    ErrorCode.UNKNOWN_STRENGTH: ("没有这种机器人强度", "No such bot strength"),
    ErrorCode.STARTED: ("已经开局", "The game has started"),
    ErrorCode.NOT_SEATED: ("你没有坐在这张桌", "You have no seat at this table"),
    ErrorCode.NOT_FINISHED: ("这局还没结束", "The game is not over yet"),
    ErrorCode.ILLEGAL: ("不合规则", "Not allowed"),
    ErrorCode.NOT_YOUR_TURN: ("还没轮到你", "Not your turn"),
    ErrorCode.GAME_OVER: ("这局已经结束", "The game is over"),
    ErrorCode.NOT_STARTED: ("还没开局", "The game has not started"),
    ErrorCode.STALE: ("牌局已经往下走了", "The table has moved on"),
    ErrorCode.BETWEEN_HANDS: ("下一局还没开始：请按“继续”", "The next hand has not started yet: press continue"),
    ErrorCode.BAD_MESSAGE: ("消息有误", "Bad message"),
    ErrorCode.UNKNOWN_TYPE: ("不认识的消息类型", "Unknown message type"),
    ErrorCode.SERVER_ERROR: ("服务器出错", "Server error"),
    ErrorCode.OWNER_UNAVAILABLE: ("这张牌桌正在换服务器，请稍后重试",
                                  "This table is moving to another worker: try again"),
    ErrorCode.NO_ROOM: ("没有这个房号", "No table has that number"),
    ErrorCode.TABLE_CLOSED: ("这张牌桌已被管理员关闭", "A host has closed this table"),
    ErrorCode.UNKNOWN_PHRASE: ("没有这句快捷语", "No such quick phrase"),
    ErrorCode.SLOW_DOWN: ("说得太快了，请稍等", "Too fast: wait a moment"),
    ErrorCode.CHAT_OFF: ("这里只能用快捷语", "Only quick phrases here"),
    ErrorCode.CHAT_TOO_LONG: ("这句话太长了", "That message is too long"),
    ErrorCode.BAD_REASON: ("请说明举报原因", "Say why you report"),
    ErrorCode.HINTS_OFF: ("计分局不提供提示", "No hints at a rated table"),
    ErrorCode.NOT_READY: ("还有人没准备", "Not everyone has pressed ready"),
    ErrorCode.IS_READY: ("对方已经准备了", "They have pressed ready"),
    ErrorCode.TOO_SOON: ("对方还有时间准备", "They still have time to press ready"),
    ErrorCode.KICKED: ("你被桌主请出了这张桌，稍后才能再坐下", "The creator removed you: you may sit here again later"),
    ErrorCode.BAD_CHAT_LINE: ("引用的聊天内容不是这个座位在这张桌上说的",
                              "That chat line was not said at this seat here"),
    ErrorCode.TOO_MANY_REPORTS: ("举报太多，请等管理员处理", "Too many reports waiting for the hosts"),
    ErrorCode.PLAY_FIRST: ("先打完一手牌才能举报", "Play a whole hand before you report"),
    ErrorCode.NO_REPORT: ("没有这条举报", "No such report"),
    ErrorCode.NOT_HOST: ("只有管理员才能这样做", "Only a host may do this"),
    ErrorCode.BANNED: ("你已被管理员封禁", "A host has banned you"),
}
"""Each code's meaning, (zh, en): the text for people when a refusal has no more specific one."""


class RoomError(Exception):
    """A refusal: ``code`` for programs, ``message`` (English, names the option or seat at fault), the texts
    for people in both languages, and the HTTP status.

    ``zh`` is the same refusal said in Chinese.  Where only an English detail exists (the engine's and the
    rules config's messages, written once in the core), both texts are the code's meaning followed by it.
    """

    def __init__(self, code: ErrorCode, message: str, status: int = 400, *, zh: str | None = None) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)  # a string that is no code fails here, and in the tests
        self.message = message
        self.status = status
        self.zh = zh

    @classmethod
    def refused(cls, e: ActionError) -> RoomError:
        """The engine refused an action: its code, and the rule's reason in both languages (the engine's
        message and its ``zh``), so the person reads why in the language they chose."""
        try:
            code = ErrorCode(e.code)
        except ValueError:  # an engine with a code of its own: still a refused action
            code = ErrorCode.ILLEGAL
        return cls(code, str(e), zh=e.zh if e.zh != str(e) else None)  # an engine with no Chinese: the code's

    def texts(self) -> tuple[str, str]:
        """(zh, en) for people."""
        if self.zh is not None:
            return self.zh, self.message
        return f"{self.code.zh}：{self.message}", f"{self.code.en}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        zh, en = self.texts()
        return {"code": self.code.value, "message": self.message, "zh": zh, "en": en}


def no_table(table_id: str) -> RoomError:
    return RoomError(ErrorCode.NO_TABLE, f"no table {table_id!r} here", 404, zh=f"这里没有牌桌 {table_id!r}")


def invite_required() -> RoomError:
    return RoomError(ErrorCode.INVITE_REQUIRED, "this table is private: open it with its invite link", 403,
                     zh="这是私人牌桌：请用邀请链接进入")
