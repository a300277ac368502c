"""The shared core's machinery on a small declared game: generated clone, resample by sight, the lazy random
stream, the claim window, window options, the registry entry and errors in two languages."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

import pytest

from paiju.core import (
    OMNISCIENT,
    SPECTATOR,
    ClaimWindow,
    Event,
    Game,
    GameEntry,
    NotYourTurnError,
    RulesConfig,
    View,
    Window,
    option,
    registry,
)
from paiju.core.claims import PENDING
from paiju.core.state import COPY, EACH, HIDDEN, OWNER, SHARED, Cards, Copy, cache, cards, field


@dataclass(frozen=True)
class PileConfig(RulesConfig):
    game: ClassVar[str] = "pile"
    wait: int = option(5, zh="等", en="wait", min=1, max=9, window=Window.CLAIM)


def _first_public(game: PileGame, viewer: int, seat: int) -> bool:
    return seat == 0 or viewer in (seat, OMNISCIENT)


class PileGame(Game[PileConfig]):
    """Three seats: seat 0's hand is face up, seat 2's counts hold a known part, the stock's first card is shown."""

    name, config_class, num_seats = "pile", PileConfig, 3
    hands: Annotated[list[list[int]], cards(Cards.LIST, per_seat=True, sees=_first_public)]
    counts: Annotated[list[list[int]], cards(Cards.COUNTS, per_seat=True, sees=OWNER, fixed="known")]
    known: Annotated[list[list[int]], EACH]
    stock: Annotated[list[int], cards(Cards.LIST, sees=HIDDEN, span=("pos", None), face_up="shown")]
    pos: int
    shown: tuple[int, ...]
    log: Annotated[list[str], COPY]
    notes: Annotated[dict[str, list[int]], field(Copy.VALUES)]
    big: Annotated[dict[str, int], SHARED]  # replaced, never changed in place
    memo: Annotated[dict[int, str], cache(dict)]
    claim: Annotated[ClaimWindow, COPY]
    phase: str

    def _setup(self, deal: Any) -> None:
        deck = list(range(20))
        self.rng.shuffle(deck)
        self.hands = [deck[0:2], deck[2:4], deck[4:6]]
        self.counts = [[0] * 20 for _ in range(3)]
        for i, c in enumerate(deck[6:12]):
            self.counts[i % 3][c] += 1
        self.known = [[0] * 20 for _ in range(3)]
        first = next(c for c in range(20) if self.counts[2][c])
        self.known[2][first] = 1
        self.stock, self.pos, self.shown = deck[12:], 1, (2,)
        self.log, self.notes, self.big, self.memo = [], {"a": [1]}, {"x": 1}, {1: "cached"}
        self.claim = ClaimWindow({1: ["take", "pass"]}, [(1, "take")])
        self.phase = "play"

    def to_move(self) -> tuple[int, ...]:
        return () if self.finished else (0,)

    def legal_actions(self, seat: int) -> list[str]:
        return ["go", "stop"] if seat in self.to_move() else []

    def _apply(self, seat: int, action: str) -> list[Event]:
        self.log.append(action)
        self.notes["a"].append(len(self.log))
        if action == "stop":
            self.phase = "over"
        return []

    def _view(self, viewer: int) -> View:
        return {"hands": [h if self.sees("hands", viewer, s) else None for s, h in enumerate(self.hands)]}

    def totals(self) -> tuple[float, ...]:
        return (0.0, 0.0, 0.0)

    def inventory(self) -> Counter[Any]:
        return Counter([c for h in self.hands for c in h] + self.stock
                       + [c for cs in self.counts for c, n in enumerate(cs) for _ in range(n)])


def test_clone_copies_each_field_as_declared() -> None:
    g = PileGame.new(seed=3)
    c = g.clone()
    assert c.hands == g.hands and c.hands is not g.hands and c.hands[0] is not g.hands[0]
    assert c.log is not g.log and c.notes["a"] is not g.notes["a"] and c.claim is not g.claim
    assert c.big is g.big and c.memo == {} and c.shown is g.shown
    c.apply(0, "go")
    assert g.log == [] and g.notes == {"a": [1]} and g.history == []
    g.some_new_list = [1]  # type: ignore[attr-defined]
    assert g.undeclared() == {"some_new_list"}
    with pytest.raises(AttributeError):
        g.clone().some_new_list  # type: ignore[attr-defined]  # noqa: B018 - not copied, so not shared


def test_a_mutable_field_must_say_how_it_is_copied() -> None:
    with pytest.raises(TypeError, match="can change in place"):
        class Bad(PileGame):
            extra: list[int]


def test_resample_deals_only_what_the_viewer_cannot_see() -> None:
    g = PileGame.new(seed=5)
    for viewer in (1, 2, SPECTATOR):
        for seed in range(30):
            r = g.resample(viewer, random.Random(seed))
            assert r.inventory() == g.inventory()
            assert r.hands[0] == g.hands[0], "seat 0's hand is face up"
            assert r.stock[:1] == g.stock[:1] and r.stock[2] == g.stock[2], "before pos, and the face-up card"
            assert r.counts[2][next(c for c in range(20) if g.known[2][c])] >= 1, "a known card stays"
            if viewer >= 0:
                assert r.hands[viewer] == g.hands[viewer] and r.counts[viewer] == g.counts[viewer]
            assert r.view(viewer) == g.view(viewer)
    moved = {tuple(g.resample(1, random.Random(s)).hands[2]) for s in range(30)}
    assert len(moved) > 1, "a hidden hand is dealt afresh"
    assert g.resample(OMNISCIENT, random.Random(1)).hands == g.hands


def test_the_random_stream_is_copied_lazily_but_exactly() -> None:
    g = PileGame.new(seed=9)
    before = g.clone()
    expected = g.rng.random()
    after = g.clone()
    assert before.rng.random() == expected, "a clone continues the stream where the original was"
    assert after.rng.random() == g.rng.random()
    twins = [g.clone() for _ in range(3)]
    assert len({t.rng.random() for t in twins}) == 1
    r1, r2 = g.resample(1, random.Random(1)), g.resample(1, random.Random(1))
    assert r1.rng.random() == r2.rng.random() != g.clone().rng.random(), "a resample reseeds from its rng"


def test_claim_window_priority() -> None:
    w = ClaimWindow({1: ["hu", "pass"], 2: ["hu", "pung 5m", "pass"], 3: ["hu", "pass"]},
                    [(1, "hu"), (2, "hu"), (3, "hu"), (2, "pung")])
    assert w.waiting() == (1, 2, 3) and w.best() is PENDING
    w.answer(2, "pung 5m")
    w.answer(3, "hu")
    assert w.best() is PENDING, "seat 1 could still win first"
    assert w.may_answer(2) == () and list(w.may_answer(1)) == ["hu", "pass"]
    w.answer(1, "pass")
    assert w.complete() and w.best() == (3, "hu") and w.claimed("hu") == [3]
    passed = ClaimWindow({1: ["pung 5m", "pass"]}, [(1, "pung")])
    passed.answer(1, "pass")
    assert passed.best() is None and not ClaimWindow()


def test_a_window_option_is_found_by_its_window() -> None:
    assert PileConfig.window_option(Window.CLAIM) == "wait" and PileConfig.window_option(Window.TURN) is None
    assert PileConfig(wait=7).window_seconds(Window.CLAIM) == 7.0
    row = next(r for r in PileConfig.schema() if r["name"] == "wait")
    assert row["window"] == "claim"


def test_errors_carry_both_languages() -> None:
    g = PileGame.new(seed=1)
    with pytest.raises(NotYourTurnError) as e:
        g.apply(1, "go")
    assert e.value.text == {"zh": "现在不是你的回合，不用行动",
                            "en": "it is not your turn: you have no decision to make now"}
    assert e.value.seat == 1
    assert g.legal_items(0) == [{"action": "go", "kind": "go", "zh": "go", "en": "go"},
                                {"action": "stop", "kind": "stop", "zh": "stop", "en": "stop"}]


def test_a_registry_entry_names_every_part(monkeypatch: pytest.MonkeyPatch) -> None:
    bots = {"first": lambda seed: None}
    monkeypatch.setitem(registry.GAMES, "pile", GameEntry("pile", engine=PileGame, bots=bots))
    entry = registry.entry("pile")
    assert entry.game() is PileGame and entry.config_class() is PileConfig and entry.bot_factories() is bots
    assert entry.terminal_hooks().card is None
    assert registry.entry("shuiyu").terminal_hooks().parse_input is not None
    with pytest.raises(ValueError, match="module:attribute"):
        registry.load("paiju.core")
