"""Chinese by default; English by the switch, remembered across reloads; game text follows the switch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_language_switch(room: Any, artifacts: Path) -> None:
    page = room.enter("小王", locale="en-US")  # the browser's locale does not matter: Chinese first
    page.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    assert page.locator("#lang-switch").inner_text() == "English"
    assert "游戏" in page.locator(".lobby-games h2").inner_text()
    assert page.locator("#create-submit").inner_text() == "创建牌桌"

    page.click("#lang-switch")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("#lang-switch").inner_text() == "中文"
    assert page.locator(".lobby-games h2").inner_text() == "Games"
    assert page.locator("#create-submit").inner_text() == "Create table"
    # Option labels come from the games' own bilingual schema.
    page.click('.game-tile[data-game="demo"]')
    assert "card style" in page.locator("#create-form").inner_text()

    page.reload()
    page.wait_for_selector(".lobby .game-tile")
    assert page.locator(".lobby-games h2").inner_text() == "Games", "the choice is remembered"

    # At a table, the server's {zh, en} text (phase, info, roles, action labels) switches too.
    room.create_table(page, "demo", {"style": "french", "players": 2}, windows={"turn_seconds": 0})  # untimed
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    page.wait_for_selector('#controls .actions button[data-action="pass"]')
    assert page.locator("#phase").inner_text() == "play"
    assert page.locator('#controls .actions button[data-action="pass"]').inner_text().endswith("pass")
    assert "Confirm" in page.locator("#select-send").inner_text()
    page.screenshot(path=str(artifacts / "table-en.png"), full_page=True)

    page.click("#lang-switch")
    assert page.locator("#phase").inner_text() == "出牌"
    assert page.locator('#controls .actions button[data-action="pass"]').inner_text().endswith("过")
    assert "确定" in page.locator("#select-send").inner_text()
    assert page.locator(".top-bar .back").inner_text().endswith("回大厅")
