"""Who watches a table, and getting messages to them: each viewer's text made once, the same text to each of
that viewer's connections, in the order the table sends them.

The table decides what each viewer may see (its render function is the only door to hidden cards); the
broadcaster only delivers.  A relay that carries a table's updates to clients held by other processes
(issue 17) is a broadcaster too: it also hands each viewer's text, or the per-viewer render, onwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paiju.core import Event, Game

from .conn import Conn


def with_text(game: Game[Any], events: list[Event]) -> list[Event]:
    """Each public event with its words, ``text: {"zh", "en"}``, as the game's display code writes them (seats as
    ``{seat:N}``, which the client names): attached here, where the room sends events, so the engines' own loops
    (``paiju sim``, the RL environments) never pay for them.  A game with no words of its own (a test game)
    sends its events bare, and the client words them from their type."""
    if game.display_code is None and type(game).event_text is Game.event_text:
        return events
    return [{**event, "text": game.event_text(event)} for event in events]


class Broadcaster:
    """The connections watching one table."""

    def __init__(self) -> None:
        self.conns: set[Conn] = set()

    def add(self, conn: Conn) -> None:
        self.conns.add(conn)

    def discard(self, conn: Conn) -> None:
        self.conns.discard(conn)

    def connected(self, player_id: str | None) -> bool:
        """Whether the player has a connection open to this table."""
        return player_id is not None and any(c.player is not None and c.player.id == player_id
                                             for c in self.conns)

    def to_viewers(self, viewer_of: Callable[[Conn], int], render: Callable[[int], str]) -> None:
        """``render(viewer)`` to every connection, rendered once per viewer."""
        texts: dict[int, str] = {}
        for conn in list(self.conns):
            viewer = viewer_of(conn)
            text = texts.get(viewer)
            if text is None:
                text = texts[viewer] = render(viewer)
            conn.send(text)

    def to_all(self, text: str) -> None:
        for conn in list(self.conns):
            conn.send(text)

    def to_player(self, player_id: str | None, render: Callable[[Conn], str]) -> None:
        """``render(conn)`` to each of the player's connections."""
        for conn in list(self.conns):
            if conn.player is not None and conn.player.id == player_id:
                conn.send(render(conn))

    def close(self) -> None:
        for conn in list(self.conns):
            conn.close()
