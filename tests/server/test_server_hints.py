"""提示 (hints, issue 38) through the websocket: a hint is the room's bot playing your seat for one decision,
from your seat's view only; rated tables never offer one; hints are limited per player.

The leak test plays the part of a cheat: a bot that answers differently the moment its view shows any hand but
its own seat's, at two tables that differ only in the other seats' cards.  A hint built from anything but the
asker's own view would answer differently at the two, and differently from the seat's own bot.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paiju.bots.base import Bot

from .conftest import LiveServer, Socket, ToyGame, fast_settings, toy_table


class Snitch:
    """The first legal action while the view shows only the viewer's hand; the last one if it shows more."""

    needs_view = True

    def act(self, view: Any, legal: Any) -> str:
        shown = [s for s in view["table"]["seats"] if s["hand"] is not None]
        return str(legal[-1] if len(shown) != 1 else legal[0])


def snitches(game: str, kind: str, seed: int) -> Bot:
    return Snitch()


def hint(sock: Socket) -> dict[str, Any]:
    sock.send({"type": "hint"})
    return sock.until(lambda m: m["type"] in ("hint", "error"))


def test_a_hint_reads_only_the_askers_view(tmp_path: Path, toy_game: type[ToyGame]) -> None:
    with LiveServer(fast_settings(tmp_path, rated_bots=0), bot_factory=snitches) as s:
        a = s.client("a")
        seen = []
        for others in ([["4", "5", "6"], ["7", "8", "9"]], [["5", "6", "7"], ["4", "8", "9"]]):
            tid, (sock,) = toy_table(s, [a], deal={"hands": [["1", "2", "3"], *others]})
            info = a.http.get(f"/api/tables/{tid}").json()
            assert (info["rated"], info["hints"]) == ("casual", True)
            got = hint(sock)
            assert got["type"] == "hint", got
            assert (got["seq"], got["zh"], got["en"]) == (sock.last_state["seq"], "出 1", "play 1")  # type: ignore[index]
            seen.append(got["action"])
        assert seen == ["play 1", "play 1"]  # the first legal action: the bot saw one hand, its own


def test_no_hint_at_a_rated_table_nor_for_a_spectator_nor_out_of_turn(tmp_path: Path,
                                                                    toy_game: type[ToyGame]) -> None:
    with LiveServer(fast_settings(tmp_path, rated_bots=0, hint_burst=2), bot_factory=snitches) as s:
        a, b, c = s.client("a"), s.client("b"), s.client("c")
        tid, (sa, _sb, _sc) = toy_table(s, [a, b, c])  # three people: rated
        assert a.http.get(f"/api/tables/{tid}").json()["hints"] is False
        err = hint(sa)
        assert (err["type"], err["code"]) == ("error", "hints_off")

        tid, (sa,) = toy_table(s, [a])  # a person and two bots: casual
        watcher = s.client("w").socket(tid)
        watcher.recv()
        err = hint(watcher)
        assert (err["type"], err["code"]) == ("error", "not_seated")
        assert hint(sa)["type"] == "hint"
        assert hint(sa)["type"] == "hint"
        err = hint(sa)  # the burst is 2
        assert (err["type"], err["code"]) == ("error", "slow_down")
        sa.act(sa.legal[0])  # the bots answer at once; a's next turn comes back, but the limit holds
        err = hint(sa)
        assert err["code"] in ("slow_down", "not_your_turn")
