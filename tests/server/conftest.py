"""Card room test kit: a live uvicorn server on a loopback port, HTTP and websocket clients, a toy game.

The toy game (``toy``) is registered for these tests only.  It has what the server must handle in every
real game — hidden hands, a public discard pile, claim windows whose claimers are secret, a compulsory
turn with no default — in a few moves, so lobby/play/time/persistence tests are exact and fast.  The
per-game hidden-information test runs over the real registered games.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

import httpx
import pytest
import uvicorn
from sqlalchemy import create_engine, text
from websockets.sync.client import ClientConnection, connect

from paiju.bots.base import Bot, RandomBot
from paiju.core import Event, Game, Result, RulesConfig, View, Window, game_names, get_game, option
from paiju.core import registry as core_registry
from paiju.server import Settings, create_app
from paiju.server.http.door import serve_options

PG_URL = os.environ.get("PAIJU_TEST_POSTGRES_URL")

# ---- the toy game ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToyConfig(RulesConfig):
    game: ClassVar[str] = "toy"
    hand_size: int = option(3, zh="手牌", en="hand size", min=1, max=5)


class ToyGame(Game[ToyConfig]):
    """Three seats, hands of 1–9 (three of each).  On your turn play a card; any other seat holding the same
    rank may ``take`` it (a claim window; who can is secret), scoring a point and discarding its copy.
    The match ends when every hand is empty."""

    name = "toy"
    config_class = ToyConfig
    display: ClassVar[dict[str, str]] = {"zh": "玩具", "en": "toy"}
    min_seats = 3
    max_seats = 3

    def _setup(self, deal: Any) -> None:
        deck = [str(r) for r in range(1, 10)] * 3
        if deal is not None:
            self.hands: list[list[str]] = [list(h) for h in deal["hands"]]
            used = Counter(c for h in self.hands for c in h)
            self.stock = list((Counter(deck) - used).elements())
        else:
            self.rng.shuffle(deck)
            n = self.config.hand_size
            self.hands = [sorted(deck[i * n:(i + 1) * n]) for i in range(3)]
            self.stock = deck[3 * n:]
        self.pile: list[str] = []
        self.turn = 0
        self.claimers: tuple[int, ...] = ()
        self.points = [0, 0, 0]

    @property
    def num_seats(self) -> int:
        return 3

    def to_move(self) -> tuple[int, ...]:
        if self.finished:
            return ()
        return self.claimers or (self.turn,)

    def public_to_move(self) -> tuple[int, ...]:
        return () if self.claimers else self.to_move()

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_move():
            return []
        if self.claimers:
            return ["take", "pass"]
        return [f"play {c}" for c in sorted(set(self.hands[seat]))]

    def window(self, seat: int) -> Window:
        return Window.CLAIM if self.claimers else Window.TURN

    def timeout_action(self, seat: int) -> str | None:
        return "pass" if self.claimers else None

    def describe(self, action: str, lang: str = "zh") -> str:
        if action.startswith("play "):
            return ("出 " if lang == "zh" else "play ") + action[5:]
        return {"take": {"zh": "吃", "en": "take"}, "pass": {"zh": "过", "en": "pass"}}[action][lang]

    def _next_turn(self) -> None:
        for step in range(1, 4):
            s = (self.turn + step) % 3
            if self.hands[s]:
                self.turn = s
                return

    def _apply(self, seat: int, action: str) -> list[Event]:
        if action.startswith("play "):
            card = action[5:]
            self.hands[seat].remove(card)
            self.pile.append(card)
            self.claimers = tuple(s for s in range(3) if s != seat and card in self.hands[s])
            if not self.claimers:
                self._next_turn()
            return [{"type": "play", "seat": seat, "card": card}]
        events: list[Event] = []
        card = self.pile[-1]
        if action == "take":
            self.hands[seat].remove(card)
            self.pile.append(card)
            self.points[seat] += 1
            events.append({"type": "take", "seat": seat, "card": card})
            self.claimers = ()
        else:
            self.claimers = tuple(s for s in self.claimers if s != seat)
        if not self.claimers:
            self._next_turn()
        if self.finished:
            events.append({"type": "end", "points": list(self.points)})
        return events

    def _view(self, viewer: int) -> View:
        seats = [{"seat": s, "role": {"zh": "", "en": ""},
                  "hand": list(self.hands[s]) if viewer in (s, -2) else None,
                  "hand_count": len(self.hands[s]), "groups": [], "discards": [], "note": None}
                 for s in range(3)]
        return {"hand": list(self.hands[viewer]) if viewer >= 0 else None, "pile": list(self.pile),
                "turn": self.turn, "points": list(self.points),
                "table": {"card_style": "french", "phase": {"zh": "出牌", "en": "play"}, "info": [], "seats": seats,
                          "center": [{"label": {"zh": "牌堆", "en": "stock"}, "cards": ["??"] * len(self.stock)}],
                          "select": None, "last_result": None}}

    @property
    def finished(self) -> bool:
        return not any(self.hands)

    def result(self) -> Result | None:
        return Result(tuple(float(p) for p in self.points)) if self.finished else None

    def totals(self) -> tuple[float, ...]:
        return tuple(float(p) for p in self.points)

    def inventory(self) -> Counter[Any]:
        return Counter([c for h in self.hands for c in h] + self.pile + self.stock)

    def clone(self) -> Self:
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g.hands = [list(h) for h in self.hands]
        g.pile, g.stock, g.points = list(self.pile), list(self.stock), list(self.points)
        g.history = list(self.history)
        return g

    def resample(self, viewer: int, rng: random.Random) -> Self:
        g = self.clone()
        hidden = [s for s in range(3) if s != viewer]
        pool = [c for s in hidden for c in g.hands[s]] + g.stock
        rng.shuffle(pool)
        for s in hidden:
            n = len(g.hands[s])
            g.hands[s], pool = sorted(pool[:n]), pool[n:]
        g.stock = pool
        return g


def registered_games() -> list[Any]:
    """Every registered game as a test parameter; one whose module is not there yet is skipped, saying so."""
    out: list[Any] = []
    for name in game_names():
        try:
            get_game(name)
        except ImportError as e:
            out.append(pytest.param(name, marks=pytest.mark.skip(reason=f"{name} is not installed yet: {e}")))
        else:
            out.append(name)
    return out


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> type[ToyGame]:
    monkeypatch.setitem(core_registry.GAMES, "toy", f"{ToyGame.__module__}:ToyGame")
    return ToyGame


def first_bot(game: str, kind: str, seed: int) -> Bot:
    """Deterministic bot for the toy game: the first legal action."""

    class First:
        needs_view = False

        def act(self, view: View, legal: Any) -> str:
            return str(legal[0])

    return First() if game == "toy" else RandomBot(seed)


# ---- a live server ----------------------------------------------------------------------------------------

class LiveServer:
    """The app on uvicorn in a thread, on a free loopback port."""

    def __init__(self, settings: Settings, bot_factory: Callable[[str, str, int], Bot] | None = None) -> None:
        self.settings = settings
        self.app = create_app(settings, bot_factory=bot_factory)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning", lifespan="on",
                                **serve_options(settings))  # as paiju serve: its door, caps and no proxy headers
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.port = 0
        self.resources = contextlib.ExitStack()

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        self.resources.close()
        self.server.should_exit = True
        self.thread.join(20)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def room(self) -> Any:
        return self.app.state.room

    def client(self, nickname: str | None = None) -> Player:
        return Player(self, nickname)


class Player:
    """One person: an HTTP client with a session, and websockets to tables."""

    def __init__(self, server: LiveServer, nickname: str | None) -> None:
        self.server = server
        self.http = server.resources.enter_context(httpx.Client(base_url=server.url, timeout=10))
        self.token: str | None = None
        self.id: str | None = None
        if nickname is not None:
            r = self.http.post("/api/session", json={"nickname": nickname})
            assert r.status_code == 200, r.text
            self.token = r.json()["token"]
            self.id = r.json()["player"]["id"]
            self.http.headers["Authorization"] = f"Bearer {self.token}"

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body)

    def ok(self, path: str, body: Any = None) -> Any:
        r = self.post(path, body)
        assert r.status_code in (200, 201), r.text
        return r.json()

    def socket(self, table_id: str, query: str = "") -> Socket:
        url = f"ws://127.0.0.1:{self.server.port}/ws/tables/{table_id}"
        params = [p for p in (f"token={self.token}" if self.token else "", query) if p]
        ws = self.server.resources.enter_context(
            connect(url + ("?" + "&".join(params) if params else ""), open_timeout=10))
        return Socket(ws)


class Socket:
    """A websocket client that keeps every message it received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.last_state: dict[str, Any] | None = None

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(msg)
        if msg["type"] in ("snapshot", "update"):
            self.last_state = msg
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.monotonic()))
            if pred(msg):
                return msg

    def state(self, timeout: float = 10) -> dict[str, Any]:
        """The next snapshot or update."""
        return self.until(lambda m: m["type"] in ("snapshot", "update"), timeout)

    def quiet(self, wait: float = 0.2) -> list[dict[str, Any]]:
        """Whatever arrives within ``wait`` seconds (for asserting nothing else came)."""
        out = []
        with contextlib.suppress(TimeoutError):
            while True:
                out.append(self.recv(wait))
        return out

    def act(self, action: str) -> None:
        self.send({"type": "act", "action": action})

    @property
    def legal(self) -> list[str]:
        return [a["action"] for a in (self.last_state or {}).get("legal", [])]

    def close(self) -> None:
        self.ws.close()


def fast_settings(tmp_path: Path, **changes: Any) -> Settings:
    base = Settings(data_dir=tmp_path / "data", secret_key="test-key", turn_seconds=0, claim_seconds=0,
                    pace_seconds=0, next_hand_seconds=0, claim_pause=0,
                    grace_seconds=30, bot_delay_seconds=0, resume_buffer=8, allow_fixed_deals=True,
                    argon2_time_cost=1, argon2_memory_kib=1024,
                    # the test clients answer at machine speed (a 升级 deal is 51 answers in a blink): the message
                    # limit is for people; test_attacks*.py check it at its defaults
                    ws_messages_per_second=10_000.0, ws_message_burst=20_000,
                    ws_messages_per_second_per_address=100_000.0,
                    # tests fill seats with bots for convenience and still expect bookings: their matches stay
                    # rated with up to 3 bots (the rated-and-casual tests set rated_bots=0, the room's default)
                    rated_bots=3,
                    # tables start when their creator says (the ready tests, test_server_ready.py, set it)
                    ready_seconds=0)
    return base.with_(**changes)


@pytest.fixture
def server(tmp_path: Path, toy_game: type[ToyGame]) -> Iterator[LiveServer]:
    with LiveServer(fast_settings(tmp_path), bot_factory=first_bot) as s:
        yield s


def toy_table(server: LiveServer, players: list[Player], *, deal: Any = None, start: bool = True,
              **options: Any) -> tuple[str, list[Socket]]:
    """A toy table with ``players`` in seats 0..n-1 (bots in the rest), each with a socket past its snapshot."""
    owner = players[0]
    info = owner.ok("/api/tables", {"game": "toy", "deal": deal, **options})
    tid = info["id"]
    for i, p in enumerate(players):
        p.ok(f"/api/tables/{tid}/sit", {"seat": i})
    if len(players) < 3:
        owner.ok(f"/api/tables/{tid}/bots")
    sockets = []
    for p in players:
        s = p.socket(tid)
        assert s.recv()["type"] == "snapshot"
        sockets.append(s)
    if start:
        owner.ok(f"/api/tables/{tid}/start")
        for s in sockets:
            s.until(lambda m: m["type"] == "snapshot")
    return tid, sockets


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def settings(request: pytest.FixtureRequest, tmp_path: Path, toy_game: type[ToyGame]) -> Iterator[Settings]:
    """Fast settings on SQLite, and on a PostgreSQL schema of the test's own when PAIJU_TEST_POSTGRES_URL is set."""
    base = fast_settings(tmp_path)
    if request.param == "sqlite":
        yield base
        return
    if not PG_URL:
        pytest.skip("PAIJU_TEST_POSTGRES_URL is not set (e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test)")
    schema = f"paiju_test_{secrets.token_hex(4)}"
    admin = create_engine(PG_URL)
    with admin.begin() as c:
        c.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield base.with_(database_url=f"{PG_URL}{sep}options=-csearch_path%3D{schema}")
    finally:
        with admin.begin() as c:
            c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


class FakeClock:
    """An injected clock: Unix seconds that move only when a test says so."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def register(server: LiveServer, username: str, password: str = "correct horse", nickname: str | None = None,
             player: Player | None = None) -> Player:
    """A new account (from ``player``'s guest session when given); the client carries its token."""
    p = player or server.client()
    body: dict[str, Any] = {"username": username, "password": password}
    if nickname is not None:
        body["nickname"] = nickname
    r = p.post("/api/accounts", body)
    assert r.status_code == 201, r.text
    p.token = r.json()["token"]
    p.id = r.json()["player"]["id"]
    p.http.headers["Authorization"] = f"Bearer {p.token}"
    return p


def wait_for(pred: Callable[[], Any], timeout: float = 10.0) -> Any:
    """``pred()`` once it is truthy, polled for at most ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.02)


def ledger_of(p: Player, pid: str | None = None) -> list[dict[str, Any]]:
    """A player's ledger entries (``p``'s own, or player ``pid``'s), newest first."""
    r = p.http.get(f"/api/players/{pid or p.id}")
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()["ledger"]
    return out
