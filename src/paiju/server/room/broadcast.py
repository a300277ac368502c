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
        self._per_player: dict[str, int] = {}
        """Open connections per player id: ``connected`` is asked per seat on every table message, and a
        scan of 2,000 watchers per seat made one busy table slow the whole process."""

    def add(self, conn: Conn) -> None:
        if conn in self.conns:
            return
        self.conns.add(conn)
        if conn.player is not None:
            self._per_player[conn.player.id] = self._per_player.get(conn.player.id, 0) + 1

    def discard(self, conn: Conn) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        if conn.player is not None:
            left = self._per_player.get(conn.player.id, 1) - 1
            if left > 0:
                self._per_player[conn.player.id] = left
            else:
                self._per_player.pop(conn.player.id, None)

    def __len__(self) -> int:
        return len(self.conns)

    def connected(self, player_id: str | None) -> bool:
        """Whether the player has a connection open to this table."""
        return player_id is not None and player_id in self._per_player

    def count_of(self, player_ids: set[str | None]) -> int:
        """Open connections of these players."""
        return sum(self._per_player.get(p, 0) for p in player_ids if p is not None)

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
