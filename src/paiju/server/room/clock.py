"""A table's time: which seat must decide by when (pure), and the event-loop timers that keep those times.

:func:`next_deadlines` is a pure function from (the last deadlines, who must decide now in which window,
the time, who just acted) to the new deadlines, so the rules of the clock are tested without an event loop
(tests/server/test_server_clock.py).  :class:`Timers` only arms what it is given.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from paiju.core import Window


@dataclass(frozen=True, slots=True)
class Windows:
    """A table's decision windows in seconds; 0 means untimed (for a paced step: not waited for)."""

    turn: float
    claim: float
    pace: float = 0.0

    def seconds(self, window: Window) -> float:
        if window == Window.PACE:
            return self.pace
        return self.claim if window == Window.CLAIM else self.turn


class Deadlines(NamedTuple):
    """Absolute times (Unix seconds) by which seats must decide, and the window each was given for.

    Never changed in place: each change is a new value (a tuple: made once per action, so cheap to make)."""

    at: Mapping[int, float]
    windows: Mapping[int, Window]


NO_DEADLINES = Deadlines({}, {})


def next_deadlines(before: Deadlines, deciding: Mapping[int, Window], now: float, windows: Windows,
                   acted: int | None = None) -> Deadlines:
    """The deadlines once ``deciding`` (seat → the window it decides in) must decide at ``now``.

    A seat still deciding in the same window keeps its deadline (a claim window does not restart when
    another seat answers); a new decision — a seat that just acted, or one in a new window — gets a new
    one; an untimed window gets none; a seat no longer deciding loses its deadline.  A paced step is new
    whenever the game has moved (a bid reopens the step for everyone), so every seat in it gets the same
    fresh deadline.
    """
    at: dict[int, float] = {}
    kept: dict[int, Window] = {}
    for seat, window in deciding.items():
        seconds = windows.seconds(window)
        if seconds <= 0:
            continue
        kept[seat] = window
        old = before.at.get(seat)
        if window != Window.PACE and seat != acted and old is not None and before.windows.get(seat) == window:
            at[seat] = old
        else:
            at[seat] = now + seconds
    return Deadlines(at, kept)


def timer_changes(armed: Mapping[int, float], deadlines: Mapping[int, float]) -> tuple[list[int], dict[int, float]]:
    """(seats whose timer must be cancelled, seat → time of each timer to arm) to make ``armed`` match."""
    cancel = [seat for seat, at in armed.items() if deadlines.get(seat) != at]
    arm = {seat: at for seat, at in deadlines.items() if armed.get(seat) != at}
    return cancel, arm


Job = Callable[..., Coroutine[Any, Any, None]]


class Timers:
    """A table's event-loop timers — one per deadline, one per disconnected seat's grace, bots' think
    delays — and the tasks they start.  Every callback runs as a task of its own (which then takes the
    table's lock), so a timer never runs table code inside the event loop's callback."""

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        self._deadlines: dict[int, tuple[float, asyncio.TimerHandle]] = {}
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, fn: Job, *args: Any) -> None:
        """Run ``fn(*args)`` as a task (the coroutine exists only once it runs)."""
        task = asyncio.get_running_loop().create_task(fn(*args))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def later(self, delay: float, fn: Job, *args: Any) -> None:
        asyncio.get_running_loop().call_later(delay, self.spawn, fn, *args)

    def keep(self, deadlines: Mapping[int, float], expire: Job) -> None:
        """Arm ``expire(seat, at)`` at each deadline; cancel timers for deadlines that are gone or moved."""
        if not deadlines and not self._deadlines:  # untimed, or nobody deciding: nothing to do
            return
        cancel, arm = timer_changes({s: at for s, (at, _h) in self._deadlines.items()}, deadlines)
        for seat in cancel:
            self._deadlines.pop(seat)[1].cancel()
        if arm:
            loop = asyncio.get_running_loop()
            now = self.now()
            for seat, at in arm.items():
                self._deadlines[seat] = (at, loop.call_later(max(0.0, at - now), self.spawn, expire, seat, at))

    def fired(self, seat: int, at: float) -> None:
        """The deadline timer for ``seat`` at ``at`` has run: forget it (not a newer one)."""
        if self._deadlines.get(seat, (None,))[0] == at:
            self._deadlines.pop(seat)

    def arm_grace(self, seat: int, seconds: float, expire: Job) -> None:
        self.cancel_grace(seat)
        self._grace[seat] = asyncio.get_running_loop().call_later(seconds, self.spawn, expire, seat)

    def cancel_grace(self, seat: int) -> None:
        h = self._grace.pop(seat, None)
        if h is not None:
            h.cancel()

    def graced(self, seat: int) -> None:
        """The grace timer for ``seat`` has run."""
        self._grace.pop(seat, None)

    def cancel_all(self) -> None:
        for _at, h in self._deadlines.values():
            h.cancel()
        for h in self._grace.values():
            h.cancel()
        self._deadlines.clear()
        self._grace.clear()
