"""A real card room on a loopback port and Debian's chromium driven by Playwright.

The server runs in a thread of the test process (uvicorn on a free port, SQLite in a temporary
directory, bots without think delay), with the test-only ``demo`` game registered beside the real ones.
The browser is the system chromium: nothing is downloaded.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("PAIJU_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
MY_PLAYABLE = ".seat.me .hand .card.playable:not(.pending)"
"""The cards of your hand you may play now: the client marks the hand just played from ``pending`` until the
room answers, so waiting for plain ``.playable`` right after a play can match the old turn."""


SERVER_LOGGERS = ("paiju", "uvicorn", "starlette", "websockets", "asyncio")
"""The loggers a card room in this process writes to (the app, the HTTP server under it, the event loop)."""


class ServerLog(logging.Handler):
    """The card rooms' log lines at WARNING and above, in order, also written to ``test-artifacts/server.log``.

    A room can go wrong where no page shows it (a bot's move refused, a task that died): every browser test
    fails on an ERROR line logged while it ran, so the suite's server log stays free of them."""

    def __init__(self, path: Path) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
        self.addFilter(lambda r: r.name.split(".")[0] in SERVER_LOGGERS)
        self.path = path
        path.write_text("", encoding="utf-8")

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        with contextlib.suppress(OSError), self.path.open("a", encoding="utf-8") as f:
            f.write(self.format(record) + "\n")

    def errors(self, since: int = 0) -> list[str]:
        """The ERROR (and worse) lines from record ``since`` on, formatted (with their traceback)."""
        return [self.format(r) for r in self.records[since:] if r.levelno >= logging.ERROR]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serve_room(app: Any, name: str, **config: Any) -> Iterator[str]:
    """The card room ``app`` on uvicorn in a thread on a free loopback port: its base URL while it runs."""
    import uvicorn

    port = _free_port()
    # log_config=None: uvicorn's loggers pass their records on to the root logger, where ServerLog reads them
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on",
                                        log_config=None, **config))
    thread = threading.Thread(target=srv.run, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the card room did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=15)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def server_log(artifacts: Path) -> Iterator[ServerLog]:
    """What every card room of the browser tests logs (the package's room and any a module starts itself)."""
    handler = ServerLog(artifacts / "server.log")
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


@pytest.fixture(autouse=True)
def no_server_errors(server_log: ServerLog) -> Iterator[None]:
    """Fail the test when a card room logged an ERROR line while it ran (docs/web.md, "Browser tests")."""
    start = len(server_log.records)
    yield
    errors = server_log.errors(since=start)
    if errors:
        pytest.fail(f"the card room logged {len(errors)} ERROR line(s) during this test:\n" + "\n".join(errors[:5]),
                    pytrace=False)


HOST = ("host_b", "a good password", "管理员")
"""The room's host (username, password, nickname): made before the room starts, as a room's hosts are (a name
that anyone could register after the start is no host; docs/server.md, "Hosts")."""


def create_host(data: Path, username: str, password: str, nickname: str) -> None:
    """``paiju admin create`` in the room's data directory, the password given on stdin as a script does."""
    from typer.testing import CliRunner

    from paiju.cli.main import app

    r = CliRunner().invoke(app, ["admin", "create", username, "--password-stdin", "--nickname", nickname,
                                 "--data-dir", str(data)], input=password + "\n")
    assert r.exit_code == 0, r.output


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a running card room.  Package-scoped: the test-only game leaves the registry (and the
    server stops) before any other test package runs."""
    pytest.importorskip("uvicorn")
    try:
        from paiju.server import Settings, create_app
    except ImportError as e:  # the server extra is not installed
        pytest.skip(f"the card room cannot be imported: {e}")
    from paiju.core import registry

    from . import demo_game

    registry.GAMES.setdefault("demo", f"{demo_game.__name__}:DemoGame")
    data = tmp_path_factory.mktemp("room")
    create_host(data, *HOST)
    settings = Settings(data_dir=data, secret_key="browser-tests", turn_seconds=15.0, claim_seconds=15.0,
                        bot_delay_seconds=0.0, grace_seconds=600.0, pace_seconds=0.05, next_hand_seconds=0,
                        claim_pause=0, quick_match_seconds=2.0,
                        address_limit_factor=100,  # every test browser is at 127.0.0.1, as players behind one carrier
                        allow_fixed_deals=True,  # scripted deals reach a 升级 bury or a 滑水 claim at once
                        # a match of two people and two bots books (test_browser_accounts); the rated-and-casual
                        # test seats four people or marks its table casual
                        rated_bots=2,
                        ready_seconds=0)  # tables start when their creator says (test_browser_ready.py waits)
    try:
        with serve_room(create_app(settings), "card-room", ws_max_size=1 << 20) as url:
            yield url
    finally:
        registry.GAMES.pop("demo", None)


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"no chromium at {CHROMIUM} (install Debian's chromium package to run the browser tests)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def new_context(browser: Any) -> Iterator[Callable[..., Any]]:
    """Make browser contexts (separate storage: separate people); all are closed after the test."""
    made: list[Any] = []

    def make(**kwargs: Any) -> Any:
        kwargs.setdefault("viewport", {"width": 1280, "height": 900})
        kwargs.setdefault("locale", "zh-CN")
        ctx = browser.new_context(**kwargs)
        ctx.set_default_timeout(15_000)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


def game_options(base: str, game: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{base}/api/games", timeout=10) as r:
        games = json.load(r)
    for g in games:
        if g["name"] == game:
            options: list[dict[str, Any]] = g["options"]
            return options
    raise LookupError(game)


def short_match(base: str, game: str) -> dict[str, Any]:
    """Options for a one-hand match, where the game has a hands/rounds option."""
    out: dict[str, Any] = {}
    for o in game_options(base, game):
        if o["name"] in ("hands", "rounds") and o["type"] == "int":
            out[o["name"]] = max(1, int(o["min"] or 1))
    return out


def api_post(page: Any, path: str, body: dict[str, Any]) -> Any:
    """POST to the card room as the person signed in on ``page`` (for what the lobby form cannot set: a deal)."""
    return page.evaluate("""async ([path, body]) => {
        const r = await fetch(path, {method: 'POST', body: JSON.stringify(body), headers: {
            'Content-Type': 'application/json', Authorization: 'Bearer ' + localStorage.getItem('paiju.token')}});
        const data = await r.json();
        if (!r.ok) throw new Error(JSON.stringify(data));
        return data;
    }""", [path, body])


class Room:
    """What a person does in the browser: enter with a nickname, create a table, sit, add bots, start."""

    def __init__(self, base: str, new_context: Callable[..., Any]) -> None:
        self.base = base
        self.new_context = new_context
        self.script_errors: list[str] = []

    def enter(self, nickname: str, guide: bool = False, **context_args: Any) -> Any:
        """A new browser with a guest named ``nickname``; the first-game guide is off unless ``guide`` (it
        would sit under the controls of every solo table; test_browser_guide.py turns it on)."""
        page = self.new_context(**context_args).new_page()
        page.on("pageerror", lambda e: self.script_errors.append(f"{nickname}: {e}"))
        # the room's Content-Security-Policy allows no inline script or style: a page that breaks it fails
        page.on("console", lambda m: self.script_errors.append(f"{nickname}: {m.text}")
                if "Content Security Policy" in m.text else None)
        page.goto(self.base + "/")
        if not guide:
            page.evaluate("() => localStorage.setItem('paiju.guide', JSON.stringify({off: true}))")
        page.fill("#nickname", nickname)
        page.click(".nickname-form button[type=submit]")
        page.wait_for_selector(".lobby .game-tile")
        return page

    def create_table(self, page: Any, game: str, options: dict[str, Any] | None = None,
                     windows: dict[str, float] | None = None) -> str:
        page.click(f'.game-tile[data-game="{game}"]')
        page.wait_for_selector(f'#create-form:has-text("{game}"), #create-form')
        rules = page.locator("#create-form details.rules")
        if options and rules.count():
            rules.evaluate("d => { d.open = true; }")
        for name, value in (options or {}).items():
            set_field(page, f"#opt-{name}", value)
        for name, value in (windows or {}).items():
            set_field(page, f"#win-{name}", value)
        page.click("#create-submit")
        page.wait_for_url("**/t/*")
        page.wait_for_selector(".waiting-room .seat-row")
        return str(page.url.split("/t/")[1].split("?")[0])

    def dealt_table(self, page: Any, game: str, deal: Any, options: dict[str, Any] | None = None,
                    **table: Any) -> str:
        """A table with a scripted first deal, opened in ``page``; the person (its creator) sits in seat 0, bots
        fill the rest and the game starts."""
        body = {"game": game, "config": options or {}, "deal": deal, "seed": 1, **table}
        tid = str(api_post(page, "/api/tables", body)["id"])
        page.goto(f"{self.base}/t/{tid}")
        page.wait_for_selector(".waiting-room .seat-row")
        self.sit(page, 0)
        self.fill_bots_and_start(page)
        return tid

    def sit(self, page: Any, seat: int) -> None:
        """Take ``seat``; nothing to do where the person sits already (a table seats its creator in seat 0)."""
        row = page.locator(f'.seat-row[data-seat="{seat}"]')
        row.wait_for()
        if row.locator(".you-badge").count():
            return
        row.locator("button.sit").click()
        page.wait_for_selector(f'.seat-row[data-seat="{seat}"] .you-badge')

    def fill_bots_and_start(self, page: Any) -> None:
        page.click("#fill-bots")
        page.wait_for_selector("#start:not([disabled])")
        page.click("#start")
        page.wait_for_selector(".board .seat")


def set_field(page: Any, selector: str, value: Any) -> None:
    el = page.locator(selector)
    kind = el.evaluate("e => e.tagName.toLowerCase() + ':' + (e.type || '')")
    if kind == "input:checkbox":
        el.set_checked(bool(value))
    elif kind.startswith("select"):
        el.select_option(label=str(value))
    else:
        el.fill(str(value))


@pytest.fixture
def room(server: str, new_context: Callable[..., Any]) -> Iterator[Room]:
    r = Room(server, new_context)
    yield r
    assert not r.script_errors, f"uncaught errors in the page: {r.script_errors}"
