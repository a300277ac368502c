"""People at a table without a browser: a session, the seat commands and a websocket, for the tests that need
a table of several people but look through one page only (the others' names in a list, a departure)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect


class Person:
    """One person: an HTTP session, and a websocket to one table whose latest state it keeps."""

    def __init__(self, base: str, nickname: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=10)
        r = self.http.post("/api/session", json={"nickname": nickname})
        r.raise_for_status()
        self.nickname = nickname
        self.token: str = r.json()["token"]
        self.id: str = r.json()["player"]["id"]
        self.http.headers["Authorization"] = f"Bearer {self.token}"
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._reader: threading.Thread | None = None
        self._answered: int | None = None  # the seq of the last decision answered

    def ok(self, path: str, body: Any = None) -> Any:
        r = self.http.post(path, json=body if body is not None else {})
        assert r.status_code in (200, 201), f"{path}: {r.status_code} {r.text}"
        return r.json()

    def table(self, table_id: str) -> dict[str, Any]:
        info: dict[str, Any] = self.http.get(f"/api/tables/{table_id}").json()
        return info

    def watch(self, table_id: str) -> None:
        """Open the table's websocket; a thread keeps the newest snapshot or update."""
        port = self.base.rsplit(":", 1)[1]
        self.ws = connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}?token={self.token}", open_timeout=10)
        self._reader = threading.Thread(target=self._read, name=f"person-{self.nickname}", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.ws is not None
        try:
            for raw in self.ws:
                msg = json.loads(raw)
                if msg.get("type") in ("snapshot", "update"):
                    with self._lock:
                        if msg.get("seq", -1) >= self.state.get("seq", -1):
                            self.state = msg
        except Exception:  # the socket closed with the test
            return

    def legal(self) -> list[str]:
        with self._lock:
            return [e["action"] for e in self.state.get("legal", [])]

    def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        with self._lock:
            seq = self.state.get("seq")
        self.ws.send(json.dumps({**msg, "seq": seq} if msg.get("type") == "act" else msg))

    def step(self) -> bool:
        """Act (the first legal action) if this person has a decision not answered yet; whether it did."""
        with self._lock:
            seq, legal = self.state.get("seq"), [e["action"] for e in self.state.get("legal", [])]
        if not legal or seq == self._answered:
            return False
        self._answered = seq
        self.send({"type": "act", "action": legal[0]})
        return True

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
        self.http.close()


def play_until(people: Sequence[Person], done: Callable[[], bool], timeout: float = 60) -> None:
    """Every one of ``people`` answers each of its decisions (the first legal action) until ``done()``."""
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, f"still playing after {timeout} s"
        if not any([p.step() for p in people]):
            time.sleep(0.02)
