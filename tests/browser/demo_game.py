"""A tiny game for the browser tests of the generic client, registered only inside the test server.

It exercises every part of the ``table`` display block the client must draw — roles, hidden hands, groups,
discards, center items, info lines, a card selection (``select``), tap-to-discard actions, and a per-hand
``last_result`` — in any of the three card styles, so the client's generic drawing is tested even while
the real games are being built.  It is not a game anyone would play.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from paiju.core import Event, Game, Result, RulesConfig, View, option

FRENCH = [r + s for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for s in "SHCD"]
DECKS: dict[str, list[str]] = {
    "french": [*FRENCH, "BJ", "SJ"],
    "tile": [f"{n}{s}" for s in "mps" for n in range(1, 10)] * 4 + [f"{n}z" for n in range(1, 8)] * 4,
    "paper": [f"{k}{n}" for k in "xd" for n in range(1, 11)] * 4,
}
HAND = 5
ROUNDS = 2


@dataclass(frozen=True)
class DemoConfig(RulesConfig):
    game: ClassVar[str] = "demo"
    style: str = option("french", zh="牌面", en="card style", choices=("french", "tile", "paper"))
    players: int = option(4, zh="人数", en="players", min=2, max=4)
    hands: int = option(1, zh="局数", en="hands", min=1, max=3)


class DemoGame(Game[DemoConfig]):
    name = "demo"
    config_class = DemoConfig
    display: ClassVar[dict[str, str]] = {"zh": "测试牌局", "en": "Demo"}
    min_seats = 2
    max_seats = 4

    # ---- setup -------------------------------------------------------------------------------------
    def _setup(self, deal: Any) -> None:
        self.hand_no = 0
        self.score = [0.0] * self.config.players
        self.last: dict[str, Any] | None = None
        self._deal()

    def _deal(self) -> None:
        cards = list(DECKS[self.config.style])
        self.rng.shuffle(cards)
        n = self.config.players
        self.hands = [sorted(cards[i * HAND:(i + 1) * HAND]) for i in range(n)]
        self.stock = cards[n * HAND:]
        self.discards: list[list[str]] = [[] for _ in range(n)]
        self.groups: list[list[list[str]]] = [[] for _ in range(n)]
        self.played = [0] * n
        self.turn = self.hand_no % n
        self.acted = 0
        self.done = False

    @property
    def num_seats(self) -> int:
        return self.config.players

    @property
    def finished(self) -> bool:
        return self.done

    # ---- decisions ---------------------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        return () if self.done else (self.turn,)

    def _tap_mode(self) -> bool:
        return self.config.style == "tile"

    def legal_actions(self, seat: int) -> list[str]:
        if self.done or seat != self.turn:
            return []
        hand = self.hands[seat]
        if self._tap_mode():
            return ["pass"] + [f"discard {c}" for c in dict.fromkeys(hand)]
        out = ["pass"] + [f"play {c}" for c in dict.fromkeys(hand)]
        for i in range(len(hand)):
            for j in range(i + 1, len(hand)):
                out.append(f"play {hand[i]} {hand[j]}")
        return list(dict.fromkeys(out))

    def is_legal(self, seat: int, action: str) -> bool:
        if self.done or seat != self.turn:
            return False
        verb, *cards = action.split()
        if verb == "pass":
            return not cards
        if verb != ("discard" if self._tap_mode() else "play") or not 1 <= len(cards) <= (1 if self._tap_mode() else 2):
            return False
        return not Counter(cards) - Counter(self.hands[seat])

    def describe(self, action: str, lang: str = "zh") -> str:
        verb, *cards = action.split()
        word = {"pass": ("过", "pass"), "play": ("出", "play"), "discard": ("打", "discard")}[verb]
        return " ".join([word[0] if lang == "zh" else word[1], *cards])

    def _apply(self, seat: int, action: str) -> list[Event]:
        verb, *cards = action.split()
        for c in cards:
            self.hands[seat].remove(c)
        if len(cards) == 2:
            self.groups[seat].append(cards)
        else:
            self.discards[seat].extend(cards)
        self.played[seat] += len(cards)
        events: list[Event] = [{"type": verb, "seat": seat, "cards": cards}]
        self.acted += 1
        self.turn = (self.turn + 1) % self.config.players
        if self.acted >= ROUNDS * self.config.players:
            events.append(self._settle())
        return events

    def _settle(self) -> Event:
        n = self.config.players
        mean = sum(self.played) / n
        points = [p - mean for p in self.played]
        for i, p in enumerate(points):
            self.score[i] += p
        self.hand_no += 1
        self.last = {
            "title": {"zh": f"第 {self.hand_no} 局", "en": f"Hand {self.hand_no}"},
            "lines": [
                {"zh": "出牌张数", "en": "cards played", "points": list(map(float, self.played))},
                {"zh": "与平均之差", "en": "against the mean", "points": points},
            ],
            "scores": points,
        }
        if self.hand_no >= self.config.hands:
            self.done = True
        else:
            self._deal()
        return {"type": "settle", "result": self.last}

    # ---- views -------------------------------------------------------------------------------------
    def _view(self, viewer: int) -> View:
        n = self.config.players
        seats = []
        for i in range(n):
            seats.append({
                "seat": i,
                "role": {"zh": "庄", "en": "dealer"} if i == self.hand_no % n else None,
                "hand": list(self.hands[i]) if viewer in (i, -2) else None,
                "hand_count": len(self.hands[i]),
                "groups": [{"label": {"zh": "对", "en": "pair"}, "cards": g} for g in self.groups[i]],
                "discards": list(self.discards[i]),
                "note": {"zh": f"出了 {self.played[i]} 张", "en": f"played {self.played[i]}"},
            })
        select = None
        if not self.done and viewer == self.turn and not self._tap_mode():
            select = {"verb": "play", "min": 1, "max": 2}
        return {"table": {
            "card_style": self.config.style,
            "phase": {"zh": "出牌", "en": "play"} if not self.done else {"zh": "结束", "en": "over"},
            "info": [{"zh": f"第 {self.hand_no + 1} 局", "en": f"hand {self.hand_no + 1}"}],
            "seats": seats,
            "center": [{"label": {"zh": "牌墙", "en": "stock"}, "cards": ["??"] * min(3, len(self.stock))}],
            "select": select,
            "last_result": self.last,
        }}

    # ---- bookkeeping -------------------------------------------------------------------------------
    def result(self) -> Result | None:
        return Result(tuple(self.score)) if self.done else None

    def totals(self) -> tuple[float, ...]:
        return tuple(self.score)

    def inventory(self) -> Counter[Any]:
        inv: Counter[Any] = Counter(self.stock)
        for i in range(self.config.players):
            inv.update(self.hands[i])
            inv.update(self.discards[i])
            for g in self.groups[i]:
                inv.update(g)
        return inv

    def clone(self) -> Self:
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.discards = [list(d) for d in self.discards]
        other.groups = [[list(g) for g in gs] for gs in self.groups]
        other.played = list(self.played)
        other.score = list(self.score)
        other.history = list(self.history)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other

    def resample(self, viewer: int, rng: random.Random) -> Self:
        return self.clone()
