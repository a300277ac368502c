"""The two ends of a relayed client: ours at a table another worker owns, and another worker's at ours.

Apart from relay.py so that the worker's shared state (base.py) can name them without importing the relay.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections import deque
from typing import Protocol

from ..room.conn import Conn
from ..room.ownership import CLOSE_MOVED, RETRY_SECONDS, moved_frame, moved_reason
from ..storage import Player


class Poster(Protocol):
    """What a relayed client needs of its worker (relay.Relay): its id, its relays, and posting a frame."""

    worker_id: str
    relays: dict[str, Relayed]

    def post(self, worker: str, op: str, cid: str, payload: str) -> None: ...


class RemoteConn(Conn):
    """A client connected to another worker, as the owner sees it: what it is sent is published back."""

    def __init__(self, cluster: Poster, worker: str, cid: str, player: Player | None) -> None:
        # no websocket here: Conn's queue and pump are the relaying worker's
        self.player = player
        self.closed = False
        self.close_code = 1000
        self.cluster = cluster
        self.worker = worker
        self.cid = cid
        self.inbox: deque[str | None] = deque()
        self.wake = asyncio.Event()

    def send(self, text: str) -> None:
        if not self.closed:
            self.cluster.post(self.worker, "S", self.cid, text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.cluster.post(self.worker, "C", self.cid, f"{code} {reason}" if reason else str(code))

    async def pump(self) -> None:
        return None


class Relayed:
    """A client of ours at a table another worker owns: its messages go there, the owner's answers come back."""

    def __init__(self, cluster: Poster, owner: str, table_id: str, conn: Conn) -> None:
        self.cluster = cluster
        self.owner = owner
        self.table_id = table_id
        self.conn = conn
        self.cid = secrets.token_hex(6)

    def attach(self, invite: str | None) -> None:
        self.cluster.relays[self.cid] = self
        player = self.conn.player
        self.cluster.post(self.owner, "A", self.cid, json.dumps({"w": self.cluster.worker_id, "t": self.table_id,
                                                                 "i": invite,
                                                                 "p": None if player is None else player.id}))

    def forward(self, text: str) -> None:
        self.cluster.post(self.owner, "M", self.cid, text)

    def detach(self) -> None:
        if self.cluster.relays.pop(self.cid, None) is not None:
            self.cluster.post(self.owner, "D", self.cid, "")

    def moved(self, retry: float = RETRY_SECONDS) -> None:
        """The owner is gone: say so (a code the client retries on, and when), then let the client connect
        again."""
        self.cluster.relays.pop(self.cid, None)
        self.conn.send(moved_frame(retry))
        self.conn.close(CLOSE_MOVED, moved_reason(retry))
