"""The recorded-game bank replayed: every view of every viewer, every event and every decision, after every
action of every record, must hash as recorded.

A failure names the game, the record, the action and what changed (which viewers' views, the events, the
decision facts).  If the change is intended, review it and re-record:
``.venv/bin/python tests/bank/record.py --against main`` shows what differs, ``--write`` rewrites the bank.
"""

from __future__ import annotations

from typing import Any

import pytest
from bank import BankRecord, compare, compute_steps, load, step_line
from bank.recipes import recipes

from paiju.core import get_game

GAMES = ("shuiyu", "huashui", "shengji", "weimaque")


def _records() -> list[Any]:
    return [pytest.param(game, rec, id=f"{game}/{rec.name}") for game in GAMES for rec in load(game)]


@pytest.mark.parametrize(("game", "rec"), _records())
def test_recorded_game_replays_unchanged(game: str, rec: BankRecord) -> None:
    diff = compare(game, rec, compute_steps(game, rec))
    assert diff is None, (diff.describe(game) + "\nIf intended: .venv/bin/python tests/bank/record.py "
                          "--against main to review, then --write.")


@pytest.mark.parametrize("game", GAMES)
def test_every_recipe_is_in_the_bank(game: str) -> None:
    stored = [r.name for r in load(game)]
    assert stored == [r.name for r in recipes(game)], "run tests/bank/record.py --write after changing recipes"
    assert all(r.steps and len(r.steps) == len(r.actions) + 1 for r in load(game))


def test_a_changed_view_is_reported_with_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bank must notice a change no other test would, and say where it is."""
    rec = load("huashui")[0]
    cls = get_game("huashui")
    original = cls.view

    def view(self: Any, viewer: int) -> Any:
        out = original(self, viewer)
        if viewer == 2 and len(self.history) == 5:
            out = {**out, "wall": out["wall"] + 1}
        return out

    monkeypatch.setattr(cls, "view", view)
    diff = compare("huashui", rec, compute_steps("huashui", rec))
    assert diff is not None
    assert (diff.step, diff.parts, diff.total) == (5, ("seat 2",), 1)
    assert diff.action == rec.actions[4]
    assert f"huashui/{rec.name}: after action 4 (seat {rec.actions[4][0]}" in diff.describe("huashui")


def test_step_lines_cover_events_decisions_and_every_viewer() -> None:
    cls = get_game("shuiyu")
    game = cls.new(cls.config_class.from_dict({"seats": 3}), 1)
    assert len(step_line(game, []).split()) == 2 + 3 + 2
