"""比大小 (test-only): two seats, one card each, both play or fold at once, the higher card wins.  The smallest
whole game on the protocol, docs/architecture.md's example of adding one; tests register ``ENTRY``."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, ClassVar

from paiju.core import OMNISCIENT, Event, Game, GameEntry, RulesConfig, Text, View, option, text
from paiju.core.cards import card_text
from paiju.core.display import result_block, seat_block, table_block
from paiju.core.state import COPY, HIDDEN, OWNER, SHARED, Cards, Copy, cards, field


@dataclass(frozen=True)
class BiDaXiaoConfig(RulesConfig):
    game: ClassVar[str] = "bidaxiao"
    hands: int = option(3, zh="局数", en="hands", min=1, max=20)
    win: int = option(2, zh="比牌赢分", en="points for the higher card", min=1, max=10)


Phase = StrEnum("Phase", [("DECIDE", "decide"), ("OVER", "over")])


def points(cards: list[int], choices: list[str | None], win: int) -> list[int]:
    """Both play: the higher card (A low, then ♠ ♥ ♣ ♦) takes ``win``; one folds: the other takes 1."""
    if choices == ["play", "play"]:
        return [win, -win] if cards[0] > cards[1] else [-win, win]
    return [0, 0] if choices == ["fold", "fold"] else [1, -1] if choices[0] == "play" else [-1, 1]


class BiDaXiaoGame(Game[BiDaXiaoConfig]):
    name, config_class, num_seats, min_seats, max_seats = "bidaxiao", BiDaXiaoConfig, 2, 2, 2
    display: ClassVar[dict[str, str]] = {"zh": "比大小", "en": "high card"}
    hands: Annotated[list[list[int]], cards(Cards.LIST, per_seat=True, sees=OWNER)]
    stock: Annotated[list[int], cards(Cards.LIST, sees=HIDDEN)]
    choices: Annotated[list[str | None], field(Copy.COPY, per_seat=True, sees=OWNER)]
    phase: Phase
    hand_no: int
    score: Annotated[list[int], COPY]
    last_result: Annotated[dict[str, Any] | None, SHARED]  # replaced at each settlement, never changed

    def _setup(self, deal: Any) -> None:
        self.hand_no, self.score, self.last_result = 0, [0, 0], None
        self._next_hand()

    def _next_hand(self) -> None:
        if self.hand_no == self.config.hands:
            self.phase = Phase.OVER
            return
        deck = self.rng.sample(range(52), 52)
        self.hands, self.stock = [[deck[0]], [deck[1]]], deck[2:]
        self.choices = [None, None]
        self.phase, self.hand_no = Phase.DECIDE, self.hand_no + 1

    def to_move(self) -> tuple[int, ...]:
        return tuple(s for s in (0, 1) if self.choices[s] is None) if self.phase == Phase.DECIDE else ()

    def legal_actions(self, seat: int) -> list[str]:
        return ["play", "fold"] if seat in self.to_move() else []

    def _apply(self, seat: int, action: str) -> list[Event]:
        self.choices[seat] = action
        if None in self.choices:
            return []  # a choice is secret until both have chosen
        got = points([h[0] for h in self.hands], self.choices, self.config.win)
        self.score = [a + b for a, b in zip(self.score, got, strict=True)]
        shown = [card_text(h[0]) for h in self.hands]
        line = {"zh": f"{shown[0]} 对 {shown[1]}", "en": f"{shown[0]} against {shown[1]}", "points": got}
        self.last_result = result_block(text(f"第{self.hand_no}局", f"hand {self.hand_no}"), [line], got)
        self._next_hand()
        return [{"type": "showdown", "cards": shown, "points": got}]

    def totals(self) -> tuple[float, ...]:
        return (float(self.score[0]), float(self.score[1]))

    def inventory(self) -> Counter[Any]:
        return Counter([*self.hands[0], *self.hands[1], *self.stock])

    def _view(self, viewer: int) -> View:
        seats = [seat_block(s, text("玩家", "player"), hand_count=1,
                            hand=[card_text(self.hands[s][0])] if self.sees("hands", viewer, s) else None,
                            note=text("已决定", "decided") if self.choices[s] else None) for s in (0, 1)]
        phase = text("比还是弃", "play or fold") if self.phase == Phase.DECIDE else text("终局", "match over")
        info = [text(f"第{self.hand_no}/{self.config.hands}局", f"hand {self.hand_no} of {self.config.hands}")]
        secret = {} if viewer != OMNISCIENT else {"stock": [card_text(c) for c in self.stock]}
        return {"phase": self.phase, "hand_no": self.hand_no, "score": list(self.score), **secret,
                "choices": [c if self.sees("choices", viewer, s) else None for s, c in enumerate(self.choices)],
                "table": table_block("french", phase, info, seats, last_result=self.last_result)}

    def _rederive(self, viewer: int, rng: random.Random) -> None:
        """A resample draws afresh the choice the viewer has not seen (it is secret until both have chosen)."""
        self.choices = [rng.choice(("play", "fold")) if c and not self.sees("choices", viewer, s) else c
                        for s, c in enumerate(self.choices)]

    def describe(self, action: str, lang: str = "zh") -> str:
        return {"play": text("比", "play"), "fold": text("弃", "fold")}[action]["zh" if lang == "zh" else "en"]

    def event_text(self, event: Event) -> Text:
        a, b = event["cards"]
        return text(f"亮牌 {a} 对 {b}，得分 {event['points']}", f"{a} against {b}: points {event['points']}")


ENTRY = GameEntry("bidaxiao", engine=BiDaXiaoGame)
