"""limits.count and limits.Sockets when the room's counts (Redis) do not answer: the worker counts alone."""

from __future__ import annotations

import asyncio

from paiju.server.limits import Sockets, Throttle, count


class Down:
    """A shared count whose Redis is away: every call fails."""

    async def __call__(self, mode: str, now: float, items: list[tuple[str, int, float]],
                       member: str | None = None) -> float | None:
        raise ConnectionError("Redis is away")

    async def open_socket(self, address: str, mine: int, limit: int) -> bool:
        raise ConnectionError("Redis is away")

    async def closed_socket(self, address: str, mine: int) -> None:
        raise ConnectionError("Redis is away")


class Room:
    """A shared socket count that answers (one other worker holds ``others`` of the address)."""

    def __init__(self, others: int) -> None:
        self.others = others
        self.told: dict[str, int] = {}
        self.up = True

    async def open_socket(self, address: str, mine: int, limit: int) -> bool:
        if not self.up:
            raise ConnectionError("Redis is away")
        ok = self.others + mine <= limit
        self.told[address] = mine if ok else mine - 1
        return ok

    async def closed_socket(self, address: str, mine: int) -> None:
        if not self.up:
            raise ConnectionError("Redis is away")
        self.told[address] = mine


def test_failed_logins_fall_back_to_the_workers_own_count() -> None:
    t = Throttle(2, 60.0, lambda: 100.0, "logins")

    async def run() -> list[float | None]:
        pairs = [(t, "u:bob")]
        out = [await count(Down(), lambda: 100.0, "check", pairs)]
        for _ in range(2):
            await count(Down(), lambda: 100.0, "hit", pairs)
        out.append(await count(Down(), lambda: 100.0, "check", pairs))
        await count(Down(), lambda: 100.0, "clear", pairs)
        out.append(await count(Down(), lambda: 100.0, "check", pairs))
        return out

    first, throttled, cleared = asyncio.run(run())
    assert first is None and throttled == 60.0 and cleared is None


def test_sockets_count_in_the_room_and_alone_while_it_is_away() -> None:
    async def run() -> None:
        room = Room(others=2)
        s = Sockets(3, room)
        assert await s.take("1.2.3.4")  # 2 elsewhere + 1 here
        assert not await s.take("1.2.3.4")  # the room's limit, though this worker holds one
        assert s.open == {"1.2.3.4": 1} and room.told == {"1.2.3.4": 1}
        room.up = False  # Redis away: this worker's own count, against the whole limit
        assert await s.take("1.2.3.4") and await s.take("1.2.3.4")
        assert not await s.take("1.2.3.4")
        await s.give_back("1.2.3.4")
        assert s.open == {"1.2.3.4": 2} and s.unsaid == {"1.2.3.4"}
        room.up = True
        assert await s.take("5.6.7.8")  # Redis is back: what it missed is told with the next socket
        assert room.told == {"1.2.3.4": 2, "5.6.7.8": 1} and not s.unsaid
        assert not await Sockets(0, Down()).take("9.9.9.9")

    asyncio.run(run())
