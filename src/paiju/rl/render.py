"""The one door from the RL envs to the terminal renderer: change the call here when the renderer moves."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from paiju.cli.terminal import render_view
from paiju.core.game import Game, View


def render_text(game: Game[Any], view: View, lang: str = "en", *, ansi: bool = False) -> str:
    """The table as the terminal shows it to the view's seat: plain text, or with ANSI colours."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=ansi, color_system="standard" if ansi else None, width=120,
                      highlight=False)
    console.print(render_view(game, view, lang))
    return out.getvalue()
