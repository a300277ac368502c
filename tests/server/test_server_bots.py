"""For every registered game: a person creates a table, fills the other seats with the game's own bots, and
finishes the match through the server (the README's promise for the card room)."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from paiju.bots import Bot
from paiju.core.game import Action, View

from .conftest import LiveServer, fast_settings, registered_games, wait_for


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


class _Burier:
    """A 升级 bot that passes every bid, plays the first listed play, and buries its twelve highest cards, which
    the capped legal list (three cheap candidates) never shows (``short``: it buries eleven, which no rule
    allows).  Each burial it chose goes to ``buried``."""

    def __init__(self, short: bool, buried: list[str]) -> None:
        self.short = short
        self.buried = buried

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if view["phase"] != "bury":
            return legal[0]
        from paiju.core.cards import card_text, parse_cards

        hand = sorted(parse_cards(view["hand"]), reverse=True)
        action = "bury " + " ".join(card_text(c) for c in hand[: 11 if self.short else 12])
        assert action not in legal, "the test needs a burial the list does not show"
        self.buried.append(action)
        return action


def _burial_match(tmp_path: Path, short: bool) -> tuple[list[str], list[logging.LogRecord], list[Any]]:
    """Four bots play one 升级 hand; (the burials the bot chose, the room's ERROR records, the record's actions)."""
    buried: list[str] = []
    errors: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.ERROR and record.name.startswith("paiju"):
                errors.append(record)

    keep = Keep()
    logging.getLogger().addHandler(keep)
    try:
        def factory(game: str, kind: str, seed: int) -> Bot:  # every seat plays the same way
            return _Burier(short, buried)

        with LiveServer(fast_settings(tmp_path, allow_fixed_deals=False), bot_factory=factory) as s:
            me = s.client("me")
            info = me.ok("/api/tables", {"game": "shengji", "config": {"max_hands": 1}})
            tid = info["id"]
            if any(seat["player"] for seat in info["seats"]):
                me.ok(f"/api/tables/{tid}/leave")  # the creator watches: four bots play
            me.ok(f"/api/tables/{tid}/bots")
            me.ok(f"/api/tables/{tid}/start")
            wait_for(lambda: me.http.get(f"/api/tables/{tid}").json()["status"] == "finished", timeout=60)
            actions = me.http.get(f"/api/tables/{tid}/record").json()["record"]["actions"]
    finally:
        logging.getLogger().removeHandler(keep)
    return buried, errors, actions


def test_a_legal_answer_the_capped_list_leaves_out_is_played_without_complaint(tmp_path: Path) -> None:
    """Issue 33's ERROR lines at 升级 tables ("bot … chose …, not in its legal list") were no stale answers: the
    room asks a bot only about the state it then holds, and applies the answer only if nothing moved.  升级's
    legal list is capped (three burials of the dealer's 63 cards, a few throws), so a bot rightly answers with
    a legal action the list does not show, and the room judged it by the list.  It judges by the rules now."""
    buried, errors, actions = _burial_match(tmp_path, short=False)
    assert len(buried) == 1
    assert [a for _s, a in actions if a.startswith("bury")] == buried, "the bot's own burial is the one played"
    assert not errors, [r.getMessage() for r in errors]


def test_an_answer_the_rules_refuse_is_logged_and_replaced(tmp_path: Path) -> None:
    buried, errors, actions = _burial_match(tmp_path, short=True)
    played = [a for _s, a in actions if a.startswith("bury")]
    assert len(buried) == 1 and played and played != buried, "a burial of eleven is never played"
    assert len(errors) == 1 and "which the rules refuse" in errors[0].getMessage(), \
        [r.getMessage() for r in errors]
