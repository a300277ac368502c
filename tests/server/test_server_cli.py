"""``paiju serve`` is registered on the main command with its options."""

from __future__ import annotations

import typer
from typer.testing import CliRunner

from paiju.cli.main import app as main_app
from paiju.server.cli import register


def test_serve_is_registered_with_its_options() -> None:
    result = CliRunner().invoke(main_app, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    for flag in ("--host", "--port", "--data-dir", "--database-url", "--turn-seconds", "--claim-seconds",
                 "--grace-seconds"):
        assert flag in result.output
    fresh = typer.Typer()
    register(fresh)
    assert [c.name or c.callback.__name__ for c in fresh.registered_commands if c.callback] == ["serve"]
