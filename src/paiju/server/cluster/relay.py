"""The relay between workers: a client at one worker playing at a table another owns, and lobby calls.

A client's websocket at a worker that does not own the table is relayed: the worker forwards the client's
messages to the owner (clients.Relayed), and the owner treats the client as one more connection (a
clients.RemoteConn), rendering its view as for a local client and publishing the text back.  Lobby commands
(sit, start, ...) are calls with a reply (:meth:`Relay.call`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from ..errors import ErrorCode, RoomError, no_table
from ..room.conn import dumps
from ..room.ownership import CLOSE_MOVED, moved_error, moved_frame, moved_reason
from ..storage import Player
from .base import ClusterBase
from .clients import RemoteConn

if TYPE_CHECKING:

    from ..room.table import CardTable

log = logging.getLogger("paiju.server.cluster.relay")

class Relay(ClusterBase):
    """Messages between workers: frames posted in batches to each worker's inbox, clients relayed to a table's
    owner, and calls that run a lobby command where the table lives."""

    # ---- messages between workers ---------------------------------------------------------------------
    def post(self, worker: str, op: str, cid: str, payload: str) -> None:
        """Queue a frame for ``worker``; everything queued in one turn of the loop goes in one pipeline."""
        frames = self._out.get(worker)
        if frames is None:
            frames = self._out[worker] = []
        frames.append(f"{op}{cid}\n{payload}".encode())
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        await asyncio.sleep(0)
        out, self._out = self._out, {}
        self._flushing = False
        if not out:
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for worker, frames in out.items():
                    # one message per worker and turn of the loop: a pub/sub message costs both sides far more
                    # than the bytes in it
                    pipe.publish(self._key("inbox", worker),
                                 b"B" + b"".join(len(f).to_bytes(4, "big") + f for f in frames))
                heard = await pipe.execute()
        except Exception:
            log.warning("worker %s: cannot reach Redis to tell %s", self.worker_id, ", ".join(out))
            heard = [0] * len(out)
        for (worker, frames), listened in zip(out.items(), heard, strict=True):
            self.relayed_frames += len(frames)
            if not listened:  # nobody listens there: its clients here hear it, and connect again
                self.deaf[worker] = time.monotonic()
                for r in [r for r in self.relays.values() if r.owner == worker]:
                    self.wanted(r.table_id)  # its owner is likely dead: should the table come to us, it goes first
                    r.moved(self.retry)
                for cid, frame in zip(self._call_ids(frames), frames, strict=True):
                    if cid is not None and frame[:1] == b"Q":
                        fut = self.calls.pop(cid, None)
                        if fut is not None and not fut.done():
                            fut.set_exception(moved_error("this table's worker is gone; try again"))

    @staticmethod
    def _call_ids(frames: list[bytes]) -> list[str | None]:
        return [f[1:f.index(b"\n")].decode() if f[:1] == b"Q" else None for f in frames]

    async def _read(self) -> None:
        while True:
            try:
                msg = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(0.2)  # Redis away: the lease keeper decides what that means
                continue
            if msg is None:
                continue
            data: bytes = msg["data"]
            frames = [data]
            if data[:1] == b"B":  # a batch: length-prefixed frames, in the order they were posted
                frames, i = [], 1
                while i < len(data):
                    n = int.from_bytes(data[i:i + 4], "big")
                    frames.append(data[i + 4:i + 4 + n])
                    i += 4 + n
            for frame in frames:
                try:
                    await self._on_frame(frame)
                except Exception:
                    log.exception("worker %s: frame %r failed", self.worker_id, frame[:80])

    async def _on_frame(self, data: bytes) -> None:
        op = data[:1]
        if op == b"G":  # a worker stopped and gave its lease up: take over now
            worker = data[1:].decode()
            if worker != self.worker_id:
                self._spawn(self._gone(worker))  # not here: the other frames must not wait on the replays
            return
        if op == b"V":  # sessions revoked at another worker (accounts.SessionStore.announce)
            self.on_news(data[1:].decode())
            return
        cut = data.index(b"\n")
        cid, payload = data[1:cut].decode(), data[cut + 1:]
        if op == b"S":
            r = self.relays.get(cid)
            if r is not None:
                r.conn.send(payload.decode())
        elif op == b"C":
            r = self.relays.pop(cid, None)
            if r is not None:
                code, _, reason = payload.decode().partition(" ")
                r.conn.close(int(code), reason)
        elif op == b"M":
            entry = self.remotes.get(cid)
            if entry is not None:
                entry[0].inbox.append(payload.decode())
                entry[0].wake.set()
        elif op == b"A":
            await self._attach(cid, json.loads(payload))
        elif op == b"D":
            entry = self.remotes.get(cid)
            if entry is not None:
                entry[0].inbox.append(None)
                entry[0].wake.set()
        elif op == b"Q":
            asyncio.get_running_loop().create_task(self._answer_call(cid, json.loads(payload)))
        elif op == b"R":
            fut = self.calls.pop(cid, None)
            if fut is not None and not fut.done():
                fut.set_result(json.loads(payload))

    # ---- the owner's side of a relayed client ---------------------------------------------------------
    async def _attach(self, cid: str, msg: dict[str, Any]) -> None:
        room = self.room
        assert room is not None
        worker, table = str(msg["w"]), room.tables.get(msg["t"])
        if table is None or not self.healthy:  # not back yet (asked for: it goes first), or we cannot serve
            self.coming(str(msg["t"]))
            rc = RemoteConn(self, worker, cid, None)
            rc.send(moved_frame(self.retry))
            rc.close(CLOSE_MOVED, moved_reason(self.retry))
            return
        player = await room.player(msg.get("p"))
        rc = RemoteConn(self, worker, cid, player)
        try:
            table.check_invite(player, msg.get("i"))
            if table.seat_of(player) is None and table.spectators() >= room.settings.watchers_per_table:
                raise RoomError(ErrorCode.TOO_MANY_WATCHERS, "this table has as many spectators as it takes", 429,
                                zh="这张桌的旁观人数已满")
        except RoomError as e:
            rc.send(dumps({"type": "error", **e.to_dict()}))
            rc.close(4403 if e.status == 403 else 4429)
            return
        self.remotes[cid] = (rc, table)
        await table.attach(rc)
        asyncio.get_running_loop().create_task(self._serve_remote(rc, table))

    async def _serve_remote(self, rc: RemoteConn, table: CardTable) -> None:
        """One relayed client's messages, in order (as a local socket's receive loop)."""
        handle = self.handle
        assert handle is not None
        try:
            while True:
                while not rc.inbox:
                    rc.wake.clear()
                    await rc.wake.wait()
                text = rc.inbox.popleft()
                if text is None:
                    break
                if self.room is not None and table.id not in self.room.tables:
                    break  # dropped meanwhile
                await handle(table, rc, text)
        finally:
            self.remotes.pop(rc.cid, None)
            rc.closed = True
            with contextlib.suppress(Exception):
                await table.detach(rc)

    # ---- calls (lobby commands on a table another worker owns) ----------------------------------------
    async def call(self, table_id: str, command: str, player: Player | None, data: dict[str, Any]
                   ) -> dict[str, Any]:
        """Run a lobby command at the table's owner (taking the table over if nobody owns it); its reply."""
        room = self.room
        assert room is not None
        owner = await self.owner_of(table_id)
        if owner is None and await self.claim(table_id):
            owner = self.worker_id
        if owner is None and self.coming(table_id):  # being replayed here (and now first): no need to look
            raise moved_error("this table is being taken over; try again")
        if owner is None:
            row = await room.store.table(table_id)
            if row is None or row.status not in ("waiting", "playing"):
                raise no_table(table_id)  # as the owner would say once it let a finished table go
            raise moved_error("no worker has this table right now; try again")
        if owner == self.worker_id:
            return await self._run(table_id, command, None if player is None else player.id, data)
        rid = secrets.token_hex(6)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.calls[rid] = fut
        self.post(owner, "Q", rid, json.dumps({"w": self.worker_id, "t": table_id, "c": command,
                                               "p": None if player is None else player.id, "d": data}))
        try:
            answer: dict[str, Any] = await asyncio.wait_for(fut, self.call_seconds)
        except TimeoutError:
            raise moved_error("the table's worker did not answer; try again") from None
        finally:
            self.calls.pop(rid, None)
        if "error" in answer:
            e = answer["error"]
            # the owner's refusal as it gave it (its code is a member already: ErrorCode() checks it again)
            relayed: type[RoomError] = RoomError
            raise relayed(ErrorCode(e["code"]), e["message"], answer["status"], zh=e.get("zh"))
        return dict(answer["info"])

    async def _run(self, table_id: str, command: str, player_id: str | None, data: dict[str, Any]
                   ) -> dict[str, Any]:
        room = self.room
        assert room is not None
        table = room.tables.get(table_id)
        if table is None:
            self.coming(table_id)  # asked for: replayed first
            raise moved_error()
        player = await room.player(player_id)
        if command == "info":
            invite = data.get("invite")
            table.check_invite(player, invite if isinstance(invite, str) else None)
            return table.info(for_player=player)
        if command.startswith("read:"):
            return self.reads[command[5:]](table)
        if player is None:
            raise RoomError(ErrorCode.NO_SESSION, "pick a nickname first (POST /api/session)", 401,
                            zh="请先取个昵称（POST /api/session）")
        return await self.commands[command](player, table, data)  # each checks its own rights (invite, host)

    async def _answer_call(self, rid: str, msg: dict[str, Any]) -> None:
        try:
            answer: dict[str, Any] = {"info": await self._run(msg["t"], msg["c"], msg.get("p"), msg.get("d") or {})}
        except RoomError as e:
            answer = {"error": e.to_dict(), "status": e.status}
        except Exception:
            log.exception("worker %s: call %s failed", self.worker_id, msg.get("c"))
            answer = {"error": RoomError(ErrorCode.SERVER_ERROR, "the call failed").to_dict(), "status": 500}
        self.post(msg["w"], "R", rid, dumps(answer))
