"""Every event the room sends carries its words, ``text: {"zh", "en"}``, from the game's display code; seats in them
are ``{seat:N}`` for the client to name.  The engine itself returns bare events (its own loops do not pay)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiju.core import get_game

from .conftest import LiveServer, fast_settings, first_bot

SHORT = {"shuiyu": {"rounds": 1}, "huashui": {"hands": 1}, "shengji": {"max_hands": 1}, "weimaque": {"hands": 1}}
BARE_SEAT = re.compile(r"座位\s?\d|座\d|(?<![\d局])\d号(?!位)|闲家\d|\bseats? \d")


@pytest.fixture
def room(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        yield s


@pytest.mark.parametrize("game", sorted(SHORT))
def test_every_event_sent_has_its_words_in_both_languages(game: str, room: LiveServer) -> None:
    ann = room.client("ann")
    tid = ann.ok("/api/tables", {"game": game, "config": SHORT[game]})["id"]
    ann.ok(f"/api/tables/{tid}/sit", {"seat": 0})
    ann.ok(f"/api/tables/{tid}/bots")
    ws = ann.socket(tid)
    ann.ok(f"/api/tables/{tid}/start")
    events: list[dict[str, Any]] = []
    state = ws.until(lambda m: m["type"] == "snapshot" and m["view"] is not None)
    while len(events) < 60 and not state["view"]["finished"]:
        if state.get("legal"):
            ws.act(state["legal"][0]["action"])
        state = ws.until(lambda m: m["type"] == "update", timeout=20)
        events += state["events"]
    assert events
    named = 0
    for ev in events:
        text = ev.get("text")
        assert isinstance(text, dict) and set(text) == {"zh", "en"}, ev
        assert text["zh"] and text["en"] and text["zh"] != text["en"], ev
        for words in text.values():
            assert not BARE_SEAT.search(words), f"a seat named by its number: {words!r}"
        named += "{seat:" in text["zh"]
    assert named, "the events name seats with {seat:N}"
    cls = get_game(game)
    g = cls.new(cls.config_class.from_dict(SHORT[game]), 1)
    s = g.to_move()[0]
    assert all("text" not in e for e in g.apply(s, g.legal_actions(s)[0])), "the engine's events stay bare"
