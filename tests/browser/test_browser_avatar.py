"""Avatars drawn from the player id (issue 38): one person's picture is the same in the lobby's table list, the
waiting room, at the board and on the profile page, and two people's differ.  No upload exists to test."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def drawing(page: Any, selector: str) -> str:
    """The avatar's SVG markup at ``selector`` (its rectangles and colours: what a person sees)."""
    el = page.locator(selector).first
    el.wait_for()
    return str(el.evaluate("e => e.innerHTML"))


def test_a_players_avatar_is_the_same_in_the_lobby_at_the_table_and_on_the_profile(room: Any) -> None:
    ada, bo = room.enter("阿达"), room.enter("小波")
    ada_id = json.loads(ada.evaluate("() => localStorage.getItem('paiju.player')"))["id"]
    bo_id = json.loads(bo.evaluate("() => localStorage.getItem('paiju.player')"))["id"]
    tid = room.create_table(ada, "demo", {"players": 2, "hands": 1})
    mine = f'svg.avatar[data-avatar="{ada_id}"]'
    waiting = drawing(ada, f".seat-row {mine}")
    bo.goto(room.base + "/")
    bo.reload()
    in_lobby = drawing(bo, f'.table-row[data-table="{tid}"] {mine}')
    bo.goto(f"{room.base}/t/{tid}")
    room.sit(bo, 1)
    theirs = drawing(bo, f'.seat-row svg.avatar[data-avatar="{bo_id}"]')
    ada.click("#start")
    ada.wait_for_selector(".board .seat")
    at_board = drawing(bo, f".board .seat {mine}")
    bo.goto(f"{room.base}/players/{ada_id}")
    on_profile = drawing(bo, f"#profile-name {mine}")
    assert waiting == in_lobby == at_board == on_profile
    assert "<rect" in waiting and theirs != waiting
    assert room.script_errors == []
