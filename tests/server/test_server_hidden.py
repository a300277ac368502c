"""Per registered game: every seat a separate client plays a whole match through the server, and no message to
one seat ever carries what that seat may not see.

Each client keeps every message it received.  Afterwards the game is rebuilt from its published record and
stepped through: after the N-th action, every client's update N must carry exactly ``game.view(its seat)``,
exactly its own legal actions, and exactly the events the engine returned — the same for every client (the
passes that end a paced step come as one update, with all their events; a seat whose pass the room holds
hears, alone, that it has answered).  Other
seats' hands must be null in every view unless the rules have shown them to everybody (the spectator's view
shows them too, e.g. 水鱼's opened hands) or to this seat (a game whose rules show a hand to some seats only
says so through an optional ``visible(viewer, seat)`` hook, e.g. 水鱼's banker hand shown to the players
who doubted); the 守醒 of 偎麻雀 sees them by rule.  A spectator client checks
the public view the same way.  Since
the engine's views are themselves checked for leaks by the conformance test (resampling the unseen cards must
not change a view), equality here means the server added nothing to them.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiju.core import SPECTATOR, Game, Window, get_game
from paiju.server.room.broadcast import with_text

from .conftest import LiveServer, Socket, fast_settings, registered_games


def norm(x: Any) -> Any:
    return json.loads(json.dumps(x))


@pytest.fixture
def real_server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(fast_settings(tmp_path)) as s:
        yield s


def _watcher(game: Game[Any]) -> int | None:
    hook = getattr(game, "watcher_seat", None)
    return hook() if callable(hook) else None


def shown_to(game: Game[Any], viewer: int, seat: int) -> bool:
    """The rules show ``seat``'s hand to ``viewer`` alone (declared by the game's optional hook)."""
    hook = getattr(game, "visible", None)
    return bool(hook(viewer, seat)) if callable(hook) else False


@pytest.mark.parametrize("seed", [20261129, 7])
@pytest.mark.parametrize("name", registered_games())
def test_no_message_carries_another_seats_hidden_cards(real_server: LiveServer, name: str, seed: int) -> None:
    cls = get_game(name)
    players = [real_server.client(f"p{i}") for i in range(cls(cls.config_class(), 0).num_seats)]
    owner = players[0]
    tid = owner.ok("/api/tables", {"game": name, "seed": seed, "turn_seconds": 0, "claim_seconds": 0})["id"]
    socks: list[Socket] = []
    for i, p in enumerate(players):
        p.ok(f"/api/tables/{tid}/sit", {"seat": i})
        socks.append(p.socket(tid))
        socks[-1].recv()
    watcher = real_server.client()  # no session: a spectator
    spectator = watcher.socket(tid)
    spectator.recv()
    owner.ok(f"/api/tables/{tid}/start")
    for s in [*socks, spectator]:
        s.until(lambda m: m["type"] == "snapshot" and m["view"] is not None)

    rng = random.Random(seed)
    table = real_server.room.tables[tid]
    finished = False
    steps = 0
    while not finished:
        deciding = [s for s in socks if s.legal]
        assert deciding, "the game is not over but no client was offered an action"
        chooser = rng.choice(deciding)
        before = steps
        chooser.act(rng.choice(chooser.legal))
        answer = chooser.state()  # an error would fail below
        assert answer["type"] == "update", answer
        while table.lock.locked():  # a held pass may be the step's last: its passes are being applied
            time.sleep(0.001)
        steps = table.seq
        if steps == before:  # a paced step's pass, held by the room: only the chooser hears of it
            assert answer["seq"] == before and answer["legal"] == [], answer
            continue
        for s in [*socks, spectator]:  # every client hears of the move (a paced step's passes: as one update)
            msg = s.last_state if s.last_state and s.last_state["seq"] == steps else s.state()
            assert msg["type"] == "update" and msg["seq"] == steps, msg
        finished = bool(socks[0].last_state and socks[0].last_state["view"]["finished"])
        assert steps < 20_000

    out = owner.http.get(f"/api/tables/{tid}/record").json()
    record = out["record"]
    game = cls(cls.config_class.from_dict(record["config"]), record["seed"], record.get("deal"))
    assert len(record["actions"]) == steps

    by_seq: list[dict[int, list[dict[str, Any]]]] = [{} for _ in range(steps + 1)]
    for seat, s in [*enumerate(socks), (SPECTATOR, spectator)]:
        states = [m for m in s.received if m["type"] in ("snapshot", "update") and m["view"] is not None]
        seqs = [m["seq"] for m in states]
        assert seqs == sorted(seqs) and seqs[0] == 0 and seqs[-1] == steps
        for m in states:
            by_seq[m["seq"]].setdefault(seat, []).append(m)

    def check(n: int, events: list[Any] | None) -> None:
        watcher = _watcher(game)
        public = game.view(SPECTATOR)["table"]["seats"]
        for seat, msgs in by_seq[n].items():
            for msg in msgs:
                assert msg["seat"] == (seat if seat >= 0 else None)
                assert msg["view"] == norm(game.view(seat)), f"{name}: seat {seat}'s view at seq {n} differs"
                legal = game.legal_actions(seat) if seat >= 0 and seat in game.to_move() else []
                held = msg["legal"] == [] and seat in game.to_move() and game.window(seat) == Window.PACE
                assert [a["action"] for a in msg["legal"]] == legal or held
                if events is not None and msg["events"]:
                    sent = norm(with_text(game, events))  # the room adds each event's words
                    assert msg["events"] == sent, f"{name}: events at seq {n} differ for seat {seat}"
                if seat != watcher:
                    for other in msg["view"]["table"]["seats"]:
                        o = other["seat"]
                        if o == seat or other["hand"] is None or other["hand"] == public[o]["hand"]:
                            continue
                        assert seat >= 0 and shown_to(game, seat, o), f"{name}: seat {seat} was shown seat {o}'s hand"
                assert msg["deadline"] is None  # untimed table

    check(0, None)
    since: list[Any] = []  # the events of the moves since the last update anyone heard
    for n, (seat, action) in enumerate(record["actions"], 1):
        since.extend(game.apply(seat, action))
        if by_seq[n]:
            check(n, since)
            since = []
    assert game.finished
