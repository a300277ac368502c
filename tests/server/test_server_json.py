"""The wire encoder and the writer thread: fast paths that must not change what is sent or stored."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from paiju.core import get_game
from paiju.server import storage as st
from paiju.server.room.conn import _ENCODER, dumps
from paiju.server.storage import Player
from paiju.server.writer import Database

CASES: list[Any] = [
    {"type": "update", "seq": 3, "events": [{"type": "play", "seat": 1, "card": "红桃A"}], "view": None},
    {"totals": [0.0, -1.5, 2.25, 1e16], "deciding": (0, 2), "flags": [True, False, None]},
    {1: "int keys become strings", "nested": {"deep": [[[]], {}]}},
    {"big": 2**70, "neg": -(2**63) - 1},  # beyond 64 bits: orjson refuses, the standard library encodes
    "a bare string with \"quotes\" and \\ and \n and 中文",
]


@pytest.mark.parametrize("value", CASES)
def test_dumps_gives_the_standard_librarys_compact_text(value: Any) -> None:
    assert dumps(value) == _ENCODER.encode(value)
    assert json.loads(dumps(value)) == json.loads(_ENCODER.encode(value))


@pytest.mark.parametrize("name", ["shuiyu", "huashui", "shengji", "weimaque"])
def test_dumps_of_real_views_matches_the_standard_library(name: str) -> None:
    try:
        cls = get_game(name)
    except (KeyError, ImportError):
        pytest.skip(f"{name} is not available")
    game = cls(cls.config_class(), 11, None)
    for viewer in range(-1, game.num_seats):
        view = game.view(viewer)
        assert dumps(view) == _ENCODER.encode(view)


def test_dumps_refuses_what_the_standard_library_refuses() -> None:
    @dataclasses.dataclass
    class Card:
        rank: int

    with pytest.raises(TypeError):
        dumps({"card": Card(1)})
    with pytest.raises(TypeError):
        dumps({"where": object()})


def test_writer_batches_jobs_and_a_failing_job_fails_alone(tmp_path: Path) -> None:
    engine = st.make_engine(f"sqlite:///{tmp_path / 'w.sqlite3'}", tmp_path)
    st.migrate(engine)
    db = Database(engine)
    db.start()
    try:
        async def main() -> tuple[int, list[Any]]:
            await db.run(lambda c: st.add_player(c, Player("p1", "one"), 1.0))
            commits = db.commits
            def adder(prefix: str, i: int, at: float) -> Callable[[Any], None]:
                return lambda c: st.add_player(c, Player(f"{prefix}{i}", f"n{i}"), at)

            await asyncio.gather(*(db.run(adder("q", i, 2.0)) for i in range(50)))
            batched = db.commits - commits

            def boom(_c: Any) -> None:
                raise RuntimeError("this job fails")

            jobs: list[Any] = [db.run(adder("r", i, 3.0)) for i in range(20)]
            jobs.insert(10, db.run(boom))
            return batched, await asyncio.gather(*jobs, return_exceptions=True)

        batched, results = asyncio.run(main())
    finally:
        db.stop()
    assert batched == 1  # the jobs of one loop turn went in one transaction
    failed = [r for r in results if isinstance(r, BaseException)]
    assert len(failed) == 1 and str(failed[0]) == "this job fails"
    players = db.run_now(lambda c: [st.get_player(c, f"{k}{i}") for k in "qr" for i in range(50 if k == "q" else 20)])
    assert all(p is not None for p in players)
    engine.dispose()
