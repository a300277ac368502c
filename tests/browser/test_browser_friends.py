"""Playing with friends in a real browser (issue 14): two people join one table by its number, quick match fills
with bots after its wait, a quick phrase shows over the seat on the other browser (and a seat is reported), and
the score sheet follows a rematch."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import HOST
from .test_browser_accounts import play_match, register

pytestmark = pytest.mark.browser


def log_in(room: Any, username: str, password: str) -> Any:
    """A new browser signed in to an account that exists (the room's host, made before the room started)."""
    page = room.new_context().new_page()
    page.on("pageerror", lambda e: room.script_errors.append(f"{username}: {e}"))
    page.goto(room.base + "/login")
    page.fill("#login-username", username)
    page.fill("#login-password", password)
    page.click("#login-submit")
    page.wait_for_selector(".lobby .game-tile")
    assert page.locator("#nav-login").count() == 0
    return page


def test_two_browsers_join_one_table_by_its_number(room: Any, artifacts: Path) -> None:
    ada = room.enter("阿达")
    tid = room.create_table(ada, "demo", {"players": 3})
    number = ada.locator("#room-number").inner_text()
    assert re.fullmatch(r"[1-9]\d{5}", number)
    ada.click("#share")  # no clipboard in this browser: the text to long-press is shown, selected
    share = ada.locator("#share-text")
    share.wait_for(state="visible")
    assert number in share.input_value() and f"/r/{number}" in share.input_value()
    # the box shows at once; the status comes when the copy was tried
    ada.wait_for_function("() => document.getElementById('share-status').textContent !== ''")
    assert ada.locator("#share-status").inner_text() in ("已复制", "长按上面的文字复制")
    room.sit(ada, 0)

    bo = room.enter("小波", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)  # a phone
    bo.screenshot(path=str(artifacts / "friends-lobby-phone.png"))
    bo.fill("#room-number-input", f"{number[:3]} {number[3:]}")  # typed with a space, as people do
    bo.click("#join-number")
    bo.wait_for_url(f"**/t/{tid}")
    bo.wait_for_selector('.seat-row[data-seat="0"]:has-text("阿达")')
    room.sit(bo, 1)
    ada.wait_for_selector('.seat-row[data-seat="1"]:has-text("小波")')
    bo.screenshot(path=str(artifacts / "friends-waiting-phone.png"), full_page=True)

    cy = room.enter("小西")  # the shared link itself
    cy.goto(f"{room.base}/r/{number}")
    cy.wait_for_url(f"**/t/{tid}")
    cy.wait_for_selector('.seat-row[data-seat="1"]:has-text("小波")')
    cy.goto(f"{room.base}/")
    cy.fill("#room-number-input", "999999" if number != "999999" else "999998")
    cy.click("#join-number")
    assert "房号" in cy.locator("#join-error").inner_text()
    ada.screenshot(path=str(artifacts / "friends-room-number.png"), full_page=True)


def test_quick_match_fills_with_bots_after_the_wait(room: Any, artifacts: Path) -> None:
    ada = room.enter("快手")
    ada.click('.quick[data-game="demo"]')
    ada.wait_for_url("**/t/*")
    ada.wait_for_selector("#quick-wait")
    ada.wait_for_selector('.seat-row[data-seat="0"] .you-badge')
    ada.screenshot(path=str(artifacts / "friends-quick-wait.png"), full_page=True)
    ada.wait_for_selector(".board .seat.me", timeout=20_000)  # the wait (2 s here) ran out: bots, and the start
    bots = ada.locator(".board .seat .bot-badge").count()
    seats = ada.locator(".board .seat").count()
    assert seats >= 2 and bots == seats - 1


def test_a_phrase_shows_on_the_other_browser_and_a_seat_can_be_reported(room: Any, artifacts: Path) -> None:
    ada = room.enter("阿达")
    tid = room.create_table(ada, "demo", {"players": 3})
    room.sit(ada, 0)
    bo = register(room, "bo_phrase", "小波")  # a guest reports once it has played a hand: an account at once
    bo.goto(f"{room.base}/t/{tid}")
    room.sit(bo, 1)
    room.fill_bots_and_start(ada)
    bo.wait_for_selector(".board .seat.me")
    ada.click("#phrase-toggle")
    ada.click('#phrase-panel .phrase[data-phrase="again"]')
    bubble = bo.locator('.board .seat[data-seat="0"] .bubble')
    bubble.wait_for()
    assert bubble.inner_text() == "再来一局"
    ada.locator('.board .seat[data-seat="0"] .bubble').wait_for()  # the speaker sees it too
    bo.screenshot(path=str(artifacts / "friends-phrase.png"), full_page=True)
    bubble.wait_for(state="detached", timeout=10_000)  # a bubble lasts a few seconds

    assert bo.locator('.board .seat[data-seat="1"] .report-seat').count() == 0  # not your own seat, nor bots'
    assert bo.locator('.board .seat[data-seat="2"] .report-seat').count() == 0
    bo.click('.board .seat[data-seat="0"] .report-seat')
    bo.wait_for_selector("#report-panel")
    bo.check('#report-panel input[value="nickname"]')
    bo.fill("#report-words", "名字不雅")
    bo.click("#report-send")
    bo.wait_for_selector("#report-panel", state="detached")
    assert "举报已提交" in bo.locator("#toast").inner_text()


def test_the_score_sheet_across_a_rematch(room: Any, artifacts: Path) -> None:
    ada = room.enter("阿达")
    tid = room.create_table(ada, "demo", {"players": 3, "hands": 1})
    room.sit(ada, 0)
    bo = room.enter("小波")
    bo.goto(f"{room.base}/t/{tid}")
    room.sit(bo, 1)
    room.fill_bots_and_start(ada)
    bo.wait_for_selector(".board .seat.me")
    rng = random.Random(3)
    play_match([ada, bo], rng)
    ada.click("#rematch")
    bo.wait_for_selector("#rematch-status:has-text('阿达')")
    bo.click("#rematch")
    for page in (ada, bo):
        page.wait_for_function("tid => /\\/t\\/[^/]+$/.test(location.pathname) && !location.pathname.endsWith(tid)",
                               arg=tid)
        page.wait_for_selector(".board .seat.me")
    play_match([ada, bo], rng)
    ada.click("#result-close")
    ada.click("#series-open")
    sheet = ada.locator("#series-table")
    sheet.wait_for()
    assert sheet.get_attribute("data-played") == "2"
    assert ada.locator("#series-table tr.match-row").count() == 2
    assert ada.locator("#series-table tr.hand-row").count() == 2  # one hand a match, each settled
    names = ada.locator("#series-table thead th").all_inner_texts()[1:3]
    assert names == ["阿达", "小波"]

    def number(text: str) -> float:
        return float(text.replace("−", "-").replace("+", "")) if text not in ("", "–") else 0.0

    sheet_data = ada.evaluate("async (tid) => (await fetch(`/api/tables/${tid}/series`)).json()", tid)
    scores = [m["scores"] for m in sheet_data["matches"]]
    for seat in range(3):
        col = seat + 2
        shown = [number(x) for x in ada.locator(f"#series-table tr.match-row > *:nth-child({col})").all_inner_texts()]
        total = number(ada.locator(f'#series-table tfoot td[data-seat="{seat}"]').inner_text())
        assert sheet_data["totals"][seat] == sum(m[seat] for m in scores)  # the totals add the matches up
        # the page shows each number rounded to 0.01
        assert all(abs(x - m[seat]) <= 0.005 + 1e-9 for x, m in zip(shown, scores, strict=True))
        assert abs(total - sheet_data["totals"][seat]) <= 0.005 + 1e-9
    ada.screenshot(path=str(artifacts / "friends-series.png"), full_page=True)
    ada.click("#series-close")
    # the sheet is reachable from the history: the first match's replay links to it
    ada.goto(f"{room.base}/series/{tid}")
    ada.wait_for_selector("#series-table")
    assert ada.locator("#series-table").get_attribute("data-played") == "2"


def test_a_host_handles_a_report_and_a_player_downloads_their_data(room: Any, artifacts: Path) -> None:
    ada = room.enter("坏名字")
    tid = room.create_table(ada, "demo", {"players": 3})
    room.sit(ada, 0)
    bo = register(room, "bo_report", "小波")  # at a waiting table: a guest would have to play a hand first
    bo.goto(f"{room.base}/t/{tid}")
    room.sit(bo, 1)
    bo.click('.seat-row[data-seat="0"] .report-seat')
    bo.check('#report-panel input[value="nickname"]')
    bo.click("#report-send")
    bo.wait_for_selector("#report-panel", state="detached")

    host = log_in(room, HOST[0], HOST[1])
    host.goto(f"{room.base}/host")
    report = host.locator(".host-report", has_text="坏名字")  # other tests' reports may be open too
    report.wait_for()
    assert "昵称不当" in report.inner_text() and "坏名字" in report.inner_text()
    host.screenshot(path=str(artifacts / "friends-host.png"), full_page=True)
    report.locator('button[data-act="kick"]').click()
    ada.wait_for_selector('.seat-row[data-seat="0"] button.sit')  # ada's seat is free again
    host.wait_for_selector('#host-log tr[data-action="kick"]')
    report.locator('button[data-act="close-report"]').click()
    host.wait_for_selector('#host-log tr[data-action="report"]')
    assert report.count() == 0
    ada_id = ada.evaluate("JSON.parse(localStorage.getItem('paiju.player')).id")
    host.fill("#host-rename-player", ada_id)
    host.fill("#host-rename-player-nickname", "玩家甲")
    host.locator("#host-rename-player").press("Enter")
    host.wait_for_selector('#host-log tr[data-action="rename"]')

    bo.goto(f"{room.base}/")  # a player who is no host sees no host page
    bo.goto(f"{room.base}/host")
    bo.wait_for_selector("#host-error:has-text('管理员')")  # after the refused load (not "connecting…")

    ada.goto(f"{room.base}/me")
    ada.wait_for_selector('#profile-name:has-text("玩家甲")')  # renamed everywhere
    with ada.expect_download() as got:
        ada.click("#my-data")
    data = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))
    assert data["player"]["id"] == ada_id and data["player"]["nickname"] == "玩家甲"
    assert data["account"] is None and data["reports_filed"] == []  # a guest, who reported nobody
