"""The server's refusals reach the person in the language they chose: its own zh/en text, at the form and as a
toast at the table."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_refusals_are_shown_in_the_chosen_language(room: Any) -> None:
    page = room.enter("阿错")
    page.click('.game-tile[data-game="demo"]')
    page.fill("#win-turn_seconds", "99999")
    page.click("#create-submit")
    error = page.locator("#create-error")
    error.wait_for()
    assert error.inner_text() == "选项 'turn_seconds' 应为 0（不限时）或 0.05 到 3600 秒"

    page.click("#lang-switch")
    page.click("#create-submit")
    page.wait_for_function("() => /must be/.test(document.getElementById('create-error')?.textContent || '')")
    assert error.inner_text() == "option 'turn_seconds' must be 0 (untimed) or between 0.05 and 3600 seconds"

    # At the table: a refusal the server makes (an empty action, sent behind the client's back) is a toast.
    to_server: list[Any] = []
    page.route_web_socket(re.compile(r"/ws/tables/"), lambda ws: to_server.append(ws.connect_to_server()))
    room.create_table(page, "demo", {"players": 2}, windows={"turn_seconds": 0})
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    toast = page.locator("#toast.show")
    to_server[-1].send(json.dumps({"type": "act", "action": ""}))
    toast.wait_for()
    assert toast.inner_text() == '"act" needs "action": a non-empty string'

    page.click("#lang-switch")
    to_server[-1].send(json.dumps({"type": "act", "action": ""}))
    page.wait_for_function("() => document.getElementById('toast').textContent.startsWith('\"act\" 需要')")
    assert toast.inner_text() == '"act" 需要 "action"：一个非空字符串'
