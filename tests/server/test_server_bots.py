"""For every registered game: a person creates a table, fills the other seats with the game's own bots, and
finishes the match through the server (the README's promise for the card room)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import LiveServer, fast_settings, registered_games


@pytest.fixture
def bot_server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(fast_settings(tmp_path, allow_fixed_deals=False)) as s:  # the games' own bots
        yield s


@pytest.mark.parametrize("name", registered_games())
def test_a_person_and_three_bots_finish_a_match(bot_server: LiveServer, name: str) -> None:
    me = bot_server.client("me")
    tid = me.ok("/api/tables", {"game": name})["id"]
    me.ok(f"/api/tables/{tid}/sit", {"seat": 0})
    seats = me.ok(f"/api/tables/{tid}/bots")["seats"]
    assert all(s["bot"] for s in seats[1:]) and seats[0]["bot"] is None
    sock = me.socket(tid)
    sock.recv()
    me.ok(f"/api/tables/{tid}/start")
    state = sock.until(lambda m: m["type"] == "snapshot" and m["view"] is not None)
    rng = random.Random(1)
    acted = 0
    while not state["view"]["finished"]:
        if sock.legal:
            sock.act(rng.choice(sock.legal))
            acted += 1
        state = sock.state(timeout=60)
        assert state["type"] == "update"
    info = me.http.get(f"/api/tables/{tid}").json()
    assert info["status"] == "finished" and info["result"] is not None
    assert len(info["result"]["scores"]) == len(seats)
    assert acted > 0
