"""Rated and casual in a real browser (issue 34): a casual match books nothing and says "casual" in the lobby, at
the table, in the player's history and in its replay; a 4-person match books for all four and says "rated"
(and "rated if filled by people" while its seats are open).  Four browser contexts are four people."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from .test_browser_accounts import play_match

pytestmark = pytest.mark.browser

CASUAL, RATED, OPEN = "娱乐局（不计分）", "计分局", "坐满真人才计分"
"""The badge's words in Chinese (the contexts' locale): i18n.js's rated_casual, rated_rated, rated_open."""

SHORT = {"players": 4, "hands": 1}
"""The test game's shortest 4-seat match: one hand of five cards each."""


def get_json(page: Any, path: str) -> Any:
    """GET as the person signed in on ``page``."""
    return page.evaluate("""async (path) => {
        const r = await fetch(path, {headers: {Authorization: 'Bearer ' + localStorage.getItem('paiju.token')}});
        return r.json();
    }""", path)


def player_id(page: Any) -> str:
    return str(json.loads(page.evaluate("() => localStorage.getItem('paiju.player')"))["id"])


def badge(page: Any, selector: str, kind: str, text: str) -> None:
    """The rated badge at ``selector`` says ``kind``, in words."""
    el = page.locator(selector)
    el.wait_for()
    page.wait_for_function("([sel, kind]) => document.querySelector(sel)?.dataset.rated === kind",
                           arg=[selector, kind])
    assert el.inner_text() == text


def lobby_badge(page: Any, base: str, tid: str, kind: str, text: str) -> None:
    page.goto(base + "/")
    badge(page, f'.table-row[data-table="{tid}"] .rated-badge', kind, text)


def ledger(page: Any, pid: str, until: float = 10) -> list[dict[str, Any]]:
    """``pid``'s ledger once it has an entry (booking follows the match's end), or empty after ``until`` s."""
    end = time.monotonic() + until
    while True:
        entries: list[dict[str, Any]] = get_json(page, f"/api/players/{pid}")["ledger"]
        if entries or time.monotonic() > end:
            return entries
        page.wait_for_timeout(100)


def test_a_casual_match_books_nothing_and_says_casual_everywhere(room: Any) -> None:
    ada, bo = room.enter("阿达"), room.enter("小波")
    ada.click('.game-tile[data-game="demo"]')
    ada.locator("#create-form details.rules").evaluate("d => { d.open = true; }")
    ada.locator("#opt-players").fill("4")
    ada.locator("#opt-hands").fill("1")
    ada.locator("#opt-casual").set_checked(True)
    ada.click("#create-submit")
    ada.wait_for_url("**/t/*")
    tid = ada.url.split("/t/")[1].split("?")[0]
    badge(ada, "#table-rated", "casual", CASUAL)
    lobby_badge(bo, room.base, tid, "casual", CASUAL)
    bo.goto(f"{room.base}/t/{tid}")
    room.sit(ada, 0)
    room.sit(bo, 1)
    room.fill_bots_and_start(ada)
    bo.wait_for_selector(".board .seat.me")
    badge(ada, "#table-rated", "casual", CASUAL)
    play_match([ada, bo], random.Random(3))

    # booked nothing: the ledger stays empty; the history lists the match, marked casual, with its replay
    assert get_json(ada, f"/api/tables/{tid}")["rated"] == "casual"
    time.sleep(1.0)  # the room books a match's end within a moment: give it one
    assert ledger(ada, player_id(ada), until=0) == [] and ledger(bo, player_id(bo), until=0) == []
    ada.goto(f"{room.base}/me")
    row = ada.locator(f'#ledger tr.ledger-row[data-table="{tid}"]')
    row.wait_for()
    assert row.get_attribute("data-reason") == "casual"
    assert row.locator(".rated-badge").inner_text() == CASUAL
    row.locator(".replay-link").click()
    ada.wait_for_url(f"**/replay/{tid}*")
    badge(ada, "#replay-rated", "casual", CASUAL)


def test_a_rated_four_person_match_books_for_all_and_says_rated(room: Any) -> None:
    names = ["甲一", "乙二", "丙三", "丁四"]
    pages = [room.enter(n) for n in names]
    first = pages[0]
    tid = room.create_table(first, "demo", SHORT)
    badge(first, "#table-rated", "open", OPEN)  # seats open: rated if people fill them
    lobby_badge(pages[1], room.base, tid, "open", OPEN)
    room.sit(first, 0)
    for seat, page in enumerate(pages[1:], start=1):
        page.goto(f"{room.base}/t/{tid}")
        room.sit(page, seat)
    badge(first, "#table-rated", "rated", RATED)  # a person in every seat
    first.wait_for_selector("#start:not([disabled])")
    first.click("#start")
    for page in pages:
        page.wait_for_selector(".board .seat.me")
        badge(page, "#table-rated", "rated", RATED)
    play_match(pages, random.Random(5))

    for page in pages:
        entries = ledger(page, player_id(page))
        assert [(e["table"], e["reason"]) for e in entries] == [(tid, "match")], entries
    first.goto(f"{room.base}/me")
    row = first.locator(f'#ledger tr.ledger-row[data-table="{tid}"]')
    row.wait_for()
    assert row.get_attribute("data-reason") == "match" and row.locator(".rated-badge").count() == 0
    row.locator(".replay-link").click()
    first.wait_for_url(f"**/replay/{tid}*")
    badge(first, "#replay-rated", "rated", RATED)
