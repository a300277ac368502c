"""Session rotation in the browser (issue 32): a guest seated at a table registers in another tab; the table's
socket, opened with the guest's token, is closed with 4409 and the page comes back with the new token that
registering stored, still in its seat."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import MY_PLAYABLE

pytestmark = pytest.mark.browser


def test_a_guest_who_registers_in_another_tab_keeps_its_seat(room: Any) -> None:
    page = room.enter("换号")
    room.create_table(page, "demo", {"style": "tile", "players": 2})
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    page.wait_for_selector(MY_PLAYABLE)
    old = page.evaluate("() => localStorage.getItem('paiju.token')")
    other = page.context.new_page()  # the same browser: the same stored session
    other.goto(room.base + "/login")
    other.fill("#register-username", "rotated_guest")
    other.fill("#register-password", "correct horse")
    other.click("#register-submit")
    other.wait_for_function("old => localStorage.getItem('paiju.token') !== old", arg=old)
    # the table's socket was closed 4409; the page reconnects with the stored token and is still seated
    page.wait_for_function("t => localStorage.getItem('paiju.token') !== t", arg=old)
    page.wait_for_selector(MY_PLAYABLE)
    before = page.locator("#controls").get_attribute("data-seq")
    page.locator(MY_PLAYABLE).first.click()
    page.wait_for_function("s => document.getElementById('controls').dataset.seq !== s", arg=before)
