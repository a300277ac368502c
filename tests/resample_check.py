"""The resample soundness check, shared by the conformance test and the games' scripted deals.

A resample for viewer v must depend on v's view and the rng alone: two games that look the same to v give the
same copy (compared by their omniscient views, which show every hidden fact) for the same rng.
"""

from __future__ import annotations

import json
import random
from typing import Any

from paiju.core import OMNISCIENT, SPECTATOR, Game


def _first_difference(a: Any, b: Any, path: str = "view") -> str | None:
    """Where two JSON values first differ, as ``path: a → b`` (for a readable failure)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: only in {'the second' if key in b else 'the first'}"
            found = _first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {json.dumps(a, ensure_ascii=False)[:120]} → " \
                               f"{json.dumps(b, ensure_ascii=False)[:120]}"


def same_resample(one: Game[Any], two: Game[Any], viewer: int, seed: int, what: str) -> None:
    """``one`` and ``two`` look the same to ``viewer``: their resamples for the same rng must be one game."""
    a = one.resample(viewer, random.Random(seed)).view(OMNISCIENT)
    b = two.resample(viewer, random.Random(seed)).view(OMNISCIENT)
    assert a == b, f"resample for {viewer} depends on more than its view ({what}): {_first_difference(a, b)}"


def check_resample_is_sound(game: Game[Any], rng: random.Random) -> int:
    """A resample depends on the viewer's view and the rng alone.  Two games with the same view for v: the game
    and a resample of it for v; and, where a seat v cannot see decides, the game after two different choices
    of that seat that leave v's view the same (a secret call, a claim answered).  Returns how many such choices
    were compared (the games' own tests use it on scripted deals where they are sure to arise)."""
    tried = 0
    movers = game.to_move()
    for viewer in (*range(game.num_seats), SPECTATOR):
        view = game.view(viewer)
        twin = game.resample(viewer, random.Random(rng.getrandbits(32)))
        assert twin.view(viewer) == view, f"view of {viewer} depends on cards it cannot see"
        same_resample(game, twin, viewer, rng.getrandbits(32), "a resample of it")
        for seat in movers:
            legal = game.legal_actions(seat)
            if seat == viewer or len(legal) < 2:
                continue
            first, second = rng.sample(legal, 2)
            one, two = game.clone(), game.clone()
            one.apply(seat, first)
            two.apply(seat, second)
            if one.view(viewer) == two.view(viewer):
                tried += 1
                same_resample(one, two, viewer, rng.getrandbits(32),
                               f"seat {seat} chose {first!r} or {second!r} unseen")
    return tried


def random_step(game: Game[Any], rng: random.Random) -> None:
    """One uniformly random legal action of a uniformly random deciding seat."""
    movers = game.to_move()
    seat = movers[rng.randrange(len(movers))]
    legal = game.legal_actions(seat)
    game.apply(seat, legal[rng.randrange(len(legal))])


def play_out(game: Game[Any], rng: random.Random) -> None:
    """Random legal play from ``game`` to the match's end, cards conserved at every step."""
    inventory = game.inventory()
    for _ in range(100_000):
        if game.finished:
            assert game.to_move() == () and game.result() is not None
            return
        movers = game.to_move()
        assert movers, "an unfinished game must have someone to move"
        seat = movers[rng.randrange(len(movers))]
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} must decide but has no legal action"
        game.apply(seat, legal[rng.randrange(len(legal))])
        assert game.inventory() == inventory, "cards appeared or vanished"
    raise AssertionError("the game does not end")


def check_from_view(game: Game[Any], seat: int, rng: random.Random, *, play: bool = True) -> Game[Any]:
    """``from_view`` of ``seat``'s view (read back from JSON): the same view, every card of the game, the same
    game for the same view and rng (also from another game that looks the same to the seat: a resample of it),
    and, if ``play``, a match that plays to its end.  Returns the game built."""
    cls = type(game)
    view = game.view(seat)
    seed = rng.getrandbits(32)
    built = cls.from_view(json.loads(json.dumps(view)), random.Random(seed))
    assert built.history == []
    got = built.view(seat)
    assert got == view, f"from_view changed the view of {seat}: {_first_difference(view, got)}"
    assert built.inventory() == game.inventory(), "from_view must hold every card of the game, each once"
    omniscient = built.view(OMNISCIENT)
    again = cls.from_view(view, random.Random(seed)).view(OMNISCIENT)
    assert again == omniscient, \
        f"from_view is not determined by the view and rng: {_first_difference(omniscient, again)}"
    twin = game.resample(seat, random.Random(rng.getrandbits(32)))
    other = cls.from_view(twin.view(seat), random.Random(seed)).view(OMNISCIENT)
    assert other == omniscient, \
        f"from_view depends on more than the view (a reshuffled twin): {_first_difference(omniscient, other)}"
    if play:
        play_out(built.clone(), random.Random(seed))
    return built
