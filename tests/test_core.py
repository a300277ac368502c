"""The shared pieces: card notation, rules configs, records."""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.core import ConfigError, NotationError, Record, RulesConfig, option
from paiju.core.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    card_text,
    deck,
    format_cards,
    make,
    parse_card,
    parse_cards,
    pretty,
    rank_of,
    suit_of,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AS", 1, "S"), ("10H", 10, "H"), ("TH", 10, "H"), ("th", 10, "H"), ("KD", 13, "D"),
        ("2C", 2, "C"), ("JS", 11, "S"), ("QD", 12, "D"),
    ],
)
def test_parse_card(text: str, rank: int, suit: str) -> None:
    c = parse_card(text)
    assert (rank_of(c), suit_of(c)) == (rank, suit)
    assert c == make(rank, suit)


def test_jokers() -> None:
    assert parse_cards("BJ SJ") == [BIG_JOKER, SMALL_JOKER]
    assert suit_of(BIG_JOKER) is None and rank_of(BIG_JOKER) > rank_of(SMALL_JOKER) > 13
    assert pretty(BIG_JOKER) == "大王" and pretty(parse_card("10H")) == "10♥"


@pytest.mark.parametrize("bad", ["1X", "11S", "AZ", "", "A", "JJ", "10"])
def test_parse_errors_name_the_token(bad: str) -> None:
    with pytest.raises(NotationError, match=repr(bad) if bad else "bad card"):
        parse_cards(["AS", bad])


@given(st.lists(st.integers(0, 53), max_size=30))
def test_card_text_round_trips(cards: list[int]) -> None:
    assert parse_cards(format_cards(cards)) == cards
    assert all(parse_card(card_text(c)) == c for c in cards)


def test_deck_sizes() -> None:
    assert len(deck()) == 52 and len(set(deck())) == 52
    assert len(deck(4, jokers=True)) == 216


@dataclasses.dataclass(frozen=True)
class DemoConfig(RulesConfig):
    game: ClassVar[str] = "demo"
    seats: int = option(4, zh="人数", en="seats", min=2, max=13)
    bonus: float = option(1.0, zh="奖励", en="bonus", min=0)
    strict: bool = option(False, zh="严格", en="strict")
    mode: Literal["a", "b"] = option("a", zh="模式", en="mode", labels={"a": ("甲", "first"), "b": ("乙", "second")})
    tiers: tuple[int, ...] = option((1, 2, 4), zh="档", en="tiers")

    def validate(self) -> None:
        if self.strict and self.seats > 8:
            raise ConfigError("strict mode allows at most 8 seats")


def test_config_round_trip_and_defaults() -> None:
    cfg = DemoConfig(seats=6, tiers=(1, 3))
    assert DemoConfig.from_json(cfg.to_json()) == cfg
    assert DemoConfig.from_dict({}) == DemoConfig()
    assert DemoConfig.from_dict({"bonus": 2}).bonus == 2.0


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"seats": 1}, "at least 2"),
        ({"seats": 14}, "at most 13"),
        ({"seats": "4"}, "integer"),
        ({"seats": True}, "integer"),
        ({"strict": 1}, "true or false"),
        ({"mode": "c"}, "one of"),
        ({"tiers": "12"}, "list"),
        ({"tiers": [1, "x"]}, "integer"),
        ({"strict": True, "seats": 9}, "at most 8"),
        ({"nope": 1}, "unknown option"),
    ],
)
def test_config_errors_name_the_option(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        DemoConfig.from_dict(data)


def test_a_config_class_resolves_its_option_types_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``typing.get_type_hints`` re-evaluates every annotation: once per class, not once per construction."""
    import typing

    calls: list[object] = []
    real = typing.get_type_hints

    def counting(obj: object, *args: object, **kwargs: object) -> dict[str, object]:
        calls.append(obj)
        return real(obj, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(typing, "get_type_hints", counting)

    @dataclasses.dataclass(frozen=True)
    class Base(RulesConfig):
        seats: int = option(4, zh="人数", en="seats", min=2)

    @dataclasses.dataclass(frozen=True)
    class Sub(Base):
        mode: Literal["a", "b"] = option("a", zh="模式", en="mode")

    for _ in range(3):
        Base()
        Sub(seats=3, mode="b")
    Base.from_dict({"seats": 5})
    Sub.schema()
    assert calls == [Base, Sub], "each class resolves its own options once"
    with pytest.raises(ConfigError, match="one of"):
        Sub(mode="c")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="at least 2"):
        Sub(seats=1)


def test_config_schema_for_forms() -> None:
    rows = {r["name"]: r for r in DemoConfig.schema()}
    assert rows["seats"] == {"name": "seats", "type": "int", "default": 4, "zh": "人数", "en": "seats",
                             "choices": None, "choice_labels": None, "min": 2, "max": 13}
    assert rows["mode"]["type"] == "choice" and rows["mode"]["choices"] == ["a", "b"]
    assert rows["mode"]["choice_labels"] == [{"zh": "甲", "en": "first"}, {"zh": "乙", "en": "second"}]
    assert rows["tiers"]["default"] == [1, 2, 4]


def test_record_round_trip_and_errors() -> None:
    rec = Record("demo", {"seats": 4}, 7, ((0, "open"), (1, "cover")), {"hands": ["AS KD"]})
    assert Record.from_json(rec.to_json()) == rec
    with pytest.raises(ValueError, match="malformed"):
        Record.from_dict({"game": "demo"})
