"""Players who come back, in a real browser: register, play a match with a friend, see it in the history and
on the leaderboard, open its replay and step through it with the keyboard, and ask for a rematch."""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

import pytest

from .test_browser_play import choose_and_click, controls_state

pytestmark = pytest.mark.browser


def register(room: Any, username: str, nickname: str) -> Any:
    page = room.new_context().new_page()
    page.on("pageerror", lambda e: room.script_errors.append(f"{username}: {e}"))
    page.goto(room.base + "/login")
    page.fill("#register-username", username)
    page.fill("#register-password", "a good password")
    page.fill("#register-nickname", nickname)
    page.click("#register-submit")
    page.wait_for_selector(".lobby .game-tile")
    assert page.locator("#nav-me").inner_text() == nickname and page.locator("#nav-login").count() == 0
    return page


def play_match(pages: list[Any], rng: random.Random, limit: float = 180) -> None:
    """Each person takes their decisions (closing each hand's result) until every page shows the match's end."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        done = 0
        for page in pages:
            # One look at the panel, in the page: with two queries the match's end could be drawn between them and
            # its panel closed as if it were a hand's.
            panel = page.evaluate("""() => {
                const p = document.getElementById("result-panel");
                if (!p) return "none";
                if (p.querySelector("#open-replay")) return "final";
                p.querySelector("#result-close").click();
                return "closed";
            }""")
            if panel == "final":
                done += 1
                continue
            if panel == "closed":
                continue
            active, _seq, legal, select = controls_state(page)
            if active and legal:
                with contextlib.suppress(Exception):  # the decision moved on under the click: look again
                    choose_and_click(page, rng, legal, select)
        if done == len(pages):
            return
        pages[0].wait_for_timeout(60)
    raise AssertionError("the match did not end")


def test_register_play_see_history_leaderboard_replay_and_rematch(room: Any, artifacts: Path) -> None:
    ada = register(room, "ada_b", "阿达")
    bo = room.enter("小波")  # a guest at the same table
    tid = room.create_table(ada, "demo", {"players": 3, "hands": 2})
    room.sit(ada, 0)
    bo.goto(f"{room.base}/t/{tid}")
    room.sit(bo, 1)
    room.fill_bots_and_start(ada)
    bo.wait_for_selector(".board .seat.me")
    play_match([ada, bo], random.Random(7))
    ada.screenshot(path=str(artifacts / "accounts-match-end.png"), full_page=True)

    # Rematch: one asks and waits for the other; when both have, both are at the new table, same seats.
    ada.click("#rematch")
    ada.wait_for_selector("#rematch-status:has-text('小波')")
    bo.wait_for_selector("#rematch-status:has-text('阿达')")
    bo.click("#rematch")
    for page in (ada, bo):
        page.wait_for_function("tid => /\\/t\\/[^/]+$/.test(location.pathname) && !location.pathname.endsWith(tid)",
                               arg=tid)
        page.wait_for_selector(".board .seat.me")
    assert ada.url == bo.url
    assert ada.locator('.board .seat.me[data-seat="0"]').count() == 1
    assert bo.locator('.board .seat.me[data-seat="1"]').count() == 1

    # The history (my record) lists the first match; the leaderboard ranks both people and no bot.
    ada.click("#nav-me")
    row = ada.locator(f'#ledger tr.ledger-row[data-table="{tid}"]')
    row.wait_for()
    assert row.get_attribute("data-reason") == "match"
    assert ada.locator('#standing tr[data-game="demo"]').count() == 1
    ada.screenshot(path=str(artifacts / "accounts-profile.png"), full_page=True)
    ada.click("#nav-leaderboard")
    ada.click('.tabs .tab[data-game="demo"]')
    ada.wait_for_selector("#leaderboard tbody tr")
    names = ada.locator("#leaderboard tbody tr td:nth-child(2)").all_inner_texts()
    assert sorted(names) == ["小波", "阿达"]
    ada.screenshot(path=str(artifacts / "accounts-leaderboard.png"), full_page=True)

    # The replay, opened from the history: every hand face up, stepped with the keys, hand by hand.
    ada.go_back()
    ada.locator(f'#ledger tr[data-table="{tid}"] .replay-link').click()
    ada.wait_for_url(f"**/replay/{tid}*")
    ada.wait_for_selector(".replay-page .board .seat")
    controls = ada.locator("#replay-controls")
    total = int(str(controls.get_attribute("data-total")))
    assert total > 4 and controls.get_attribute("data-step") == "0"
    hidden = ada.locator(".board .seat .hand.hidden").evaluate_all(
        "els => els.filter(e => Number(e.dataset.count) > 0).length")
    assert hidden == 0 and ada.locator(".board .seat .hand.shown .card.face").count() >= 10
    for n in (1, 2, 3):
        ada.keyboard.press("ArrowRight")
        ada.wait_for_selector(f'#replay-controls[data-step="{n}"]')
    assert ada.locator("#replay-step strong").count() == 1
    ada.keyboard.press("ArrowLeft")
    ada.wait_for_selector('#replay-controls[data-step="2"]')
    ada.keyboard.press("Shift+ArrowRight")  # to the end of the first hand: its settlement shows
    ada.wait_for_selector("#replay-hand-result .result-table")
    ada.keyboard.press("End")
    ada.wait_for_selector(f'#replay-controls[data-step="{total}"]')
    assert f"step={total}" in ada.url  # the address is the link to share
    ada.screenshot(path=str(artifacts / "accounts-replay.png"), full_page=True)
    shared = room.new_context().new_page()  # anyone with the link, no session needed
    shared.goto(ada.url)
    shared.wait_for_selector(f'#replay-controls[data-step="{total}"]')
