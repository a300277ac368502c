"""``paiju serve``: registered on the main command with its options; its GC policy comes and goes with the app."""

from __future__ import annotations

import gc
import logging
from pathlib import Path

import typer
from typer.testing import CliRunner

from paiju.cli.main import app as main_app
from paiju.server.cli import RedactTokens, register

from .conftest import LiveServer, ToyGame, fast_settings


def test_serve_is_registered_with_its_options() -> None:
    result = CliRunner().invoke(main_app, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    for flag in ("--host", "--port", "--data-dir", "--database-url", "--turn-seconds", "--claim-seconds",
                 "--grace-seconds"):
        assert flag in result.output
    fresh = typer.Typer()
    register(fresh)
    assert [c.name or c.callback.__name__ for c in fresh.registered_commands if c.callback] == ["serve"]


def test_the_serve_gc_policy_is_applied_and_undone(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    before = gc.get_threshold()
    with LiveServer(fast_settings(tmp_path, gc_full_every_seconds=600.0)) as s:
        assert s.client().http.get("/api/games").status_code == 200
        during = gc.get_threshold()
        assert during[1] >= 10**9 and during[2] >= 10**9  # older generations only on the server's schedule
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_session_tokens_are_kept_out_of_the_logs() -> None:
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" [accepted]',
                               ("127.0.0.1:5", "/ws/tables/ab?token=eyJwIjoi.sig&invite=x"), None)
    assert RedactTokens().filter(record)
    assert record.getMessage() == '127.0.0.1:5 - "WebSocket /ws/tables/ab?token=…&invite=x" [accepted]'
