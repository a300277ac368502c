"""The recorded-game bank: python-chess's perft idea for card games.

A bank record is a game record (config, seed, optional first deal, actions) kept with a short hash of
everything a client or a bot could observe after every action: the view of every seat, of ``SPECTATOR`` and
of ``OMNISCIENT``; the events the action returned; and the decision facts (``to_move``, ``public_to_move``,
each deciding seat's window, timeout action, legal actions and their labels in both languages).  Replaying
the record and comparing the hashes proves a refactor changed nothing observable, and a difference says
where: game, record, action index, viewer.

The records live in ``tests/bank/<game>.json`` (one hash line per step, so a re-recorded bank diffs by
step); ``recipes.py`` says how each record's actions were first produced; ``record.py`` re-records and
prints what changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paiju.core import OMNISCIENT, SPECTATOR, Game, get_game

BANK_DIR = Path(__file__).resolve().parent
VERSION = 1
PARTS = ("events", "decide")
"""The first fields of a step line; then one view hash per viewer (seats, SPECTATOR, OMNISCIENT)."""


def digest(value: Any) -> str:
    """A 40-bit hash of a JSON value in canonical form (sorted keys): enough to notice any change."""
    data = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()
    return hashlib.blake2b(data, digest_size=5).hexdigest()


def viewers(game: Game[Any]) -> list[int]:
    return [*range(game.num_seats), SPECTATOR, OMNISCIENT]


def viewer_name(viewer: int) -> str:
    return {SPECTATOR: "SPECTATOR", OMNISCIENT: "OMNISCIENT"}.get(viewer, f"seat {viewer}")


def decide_facts(game: Game[Any]) -> dict[str, Any]:
    """Who decides, in which window, with what default, among which actions (and their labels)."""
    movers = game.to_move()
    facts: dict[str, Any] = {"to_move": list(movers), "public": list(game.public_to_move()),
                             "finished": game.finished, "totals": list(game.totals())}
    for seat in movers:
        legal = game.legal_actions(seat)
        facts[str(seat)] = {"window": str(game.window(seat)), "timeout": game.timeout_action(seat),
                            "legal": [[a, game.describe(a, "zh"), game.describe(a, "en")] for a in legal]}
    if game.finished:
        result = game.result()
        facts["result"] = result.to_dict() if result is not None else None
    return facts


def observe(game: Game[Any], events: list[Any]) -> dict[str, Any]:
    """Everything observable after one step, unhashed (the re-recorder diffs these)."""
    return {"events": events, "decide": decide_facts(game),
            **{viewer_name(v): game.view(v) for v in viewers(game)}}


def step_line(game: Game[Any], events: list[Any]) -> str:
    """The hashes of one step: events, decision facts, then each viewer's view."""
    parts = [digest(events), digest(decide_facts(game))]
    parts += [digest(game.view(v)) for v in viewers(game)]
    return " ".join(parts)


def labels(game: Game[Any]) -> list[str]:
    """What each position of a step line hashes."""
    return [*PARTS, *(viewer_name(v) for v in viewers(game))]


@dataclass
class BankRecord:
    name: str
    config: dict[str, Any]
    seed: int
    actions: list[tuple[int, str]]
    steps: list[str] = field(default_factory=list)
    """Step 0 is the position before any action; step i follows action i-1."""
    deal: Any = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "config": self.config, "seed": self.seed}
        if self.deal is not None:
            out["deal"] = self.deal
        out["actions"] = [[s, a] for s, a in self.actions]
        out["steps"] = self.steps
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BankRecord:
        return cls(name=data["name"], config=data["config"], seed=data["seed"],
                   actions=[(int(s), str(a)) for s, a in data["actions"]], steps=list(data["steps"]),
                   deal=data.get("deal"))


def new_game(game: str, rec: BankRecord) -> Game[Any]:
    cls = get_game(game)
    return cls(cls.config_class.from_dict(rec.config), rec.seed, rec.deal)


def replay_steps(game: str, rec: BankRecord) -> Iterator[tuple[Game[Any], list[Any]]]:
    """The game after each step (step 0 first) with the events of the action that led there."""
    g = new_game(game, rec)
    yield g, []
    for seat, action in rec.actions:
        yield g, g.apply(seat, action)


def compute_steps(game: str, rec: BankRecord) -> list[str]:
    return [step_line(g, events) for g, events in replay_steps(game, rec)]


@dataclass(frozen=True)
class Difference:
    """The first step of a record whose observations differ from the bank's, and what differs there."""

    record: str
    step: int
    action: tuple[int, str] | None
    parts: tuple[str, ...]
    total: int
    """How many steps differ in all."""

    def describe(self, game: str) -> str:
        what = "the position before any action" if self.action is None else \
            f"action {self.step - 1} (seat {self.action[0]} {self.action[1]!r})"
        more = f"; {self.total} step(s) differ in all" if self.total > 1 else ""
        return f"{game}/{self.record}: after {what}: {', '.join(self.parts)} changed{more}"


def compare(game: str, rec: BankRecord, steps: list[str]) -> Difference | None:
    """Compare freshly computed ``steps`` with the record's stored ones."""
    if steps == rec.steps:
        return None
    g = new_game(game, rec)
    names = labels(g)
    first: Difference | None = None
    total = 0
    for i in range(max(len(steps), len(rec.steps))):
        old = rec.steps[i].split() if i < len(rec.steps) else []
        new = steps[i].split() if i < len(steps) else []
        if old == new:
            continue
        total += 1
        if first is None:
            parts = tuple(names[k] if k < len(names) else f"#{k}" for k in range(max(len(old), len(new)))
                          if (old[k] if k < len(old) else None) != (new[k] if k < len(new) else None))
            first = Difference(rec.name, i, rec.actions[i - 1] if i else None, parts, 0)
    assert first is not None
    return Difference(first.record, first.step, first.action, first.parts, total)


def bank_path(game: str) -> Path:
    return BANK_DIR / f"{game}.json"


def load(game: str) -> list[BankRecord]:
    path = bank_path(game)
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("version") != VERSION:
        raise ValueError(f"{path}: bank version {data.get('version')}, expected {VERSION}")
    return [BankRecord.from_dict(r) for r in data["records"]]


def save(game: str, records: list[BankRecord]) -> None:
    data = {"version": VERSION, "game": game, "records": [r.to_dict() for r in records]}
    text = json.dumps(data, ensure_ascii=False, indent=1)
    bank_path(game).write_text(text + "\n", encoding="utf-8")
