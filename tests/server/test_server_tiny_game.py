"""The tiny test game 比大小 (tests/bidaxiao.py) is playable in the live card room like any registered game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from bidaxiao import ENTRY

from paiju.core import registry

from .conftest import LiveServer, fast_settings, first_bot


@pytest.fixture
def room(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setitem(registry.GAMES, ENTRY.name, ENTRY)
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        yield s


def test_a_person_plays_the_tiny_game_against_a_bot(room: LiveServer) -> None:
    ann = room.client("ann")
    listed = {g["name"]: g for g in ann.http.get("/api/games").json()}
    assert listed["bidaxiao"]["min_seats"] == listed["bidaxiao"]["max_seats"] == 2
    tid = ann.ok("/api/tables", {"game": "bidaxiao", "config": {"hands": 2}})["id"]
    ann.ok(f"/api/tables/{tid}/sit", {"seat": 0})
    ann.ok(f"/api/tables/{tid}/bots")
    ws = ann.socket(tid)
    assert ws.recv()["type"] == "snapshot"
    ann.ok(f"/api/tables/{tid}/start")
    state = ws.until(lambda m: m["type"] == "snapshot" and m["view"] is not None)
    for _hand in range(2):
        view = state["view"]
        seats = view["table"]["seats"]
        assert seats[0]["hand"] is not None and len(seats[0]["hand"]) == 1
        assert seats[1]["hand"] is None, "the bot's card is hidden from seat 0"
        assert [(a["action"], a["zh"], a["en"]) for a in state["legal"]] == [("play", "比", "play"),
                                                                            ("fold", "弃", "fold")]
        ws.act("play")
        state = ws.until(lambda m: m["type"] == "update" and any(e["type"] == "showdown" for e in m["events"]))
    assert state["view"]["finished"] and state["legal"] == []
    result = state["view"]["table"]["last_result"]
    assert result["title"]["en"] == "hand 2" and sum(result["scores"]) == 0
    assert sum(state["view"]["totals"]) == 0
