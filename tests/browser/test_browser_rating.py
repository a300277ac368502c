"""The skill rating in a real browser (issue 35): four people (four browser contexts) play a short rated match;
the result panel shows each person's rating change, the profile draws the rating's chart and marks it
provisional, the history shows the change, and the leaderboard sorts by rating."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .test_browser_accounts import play_match
from .test_browser_rated import SHORT, get_json, player_id

pytestmark = pytest.mark.browser


def test_a_rated_match_shows_the_changes_the_chart_and_the_rating_leaderboard(room: Any) -> None:
    pages = [room.enter(n) for n in ["赵一", "钱二", "孙三", "李四"]]
    first = pages[0]
    tid = room.create_table(first, "demo", SHORT)
    room.sit(first, 0)
    for seat, page in enumerate(pages[1:], start=1):
        page.goto(f"{room.base}/t/{tid}")
        room.sit(page, seat)
    first.wait_for_selector("#start:not([disabled])")
    first.click("#start")
    for page in pages:
        page.wait_for_selector(".board .seat.me")
    play_match(pages, random.Random(7))

    ids = [player_id(p) for p in pages]
    changes = get_json(first, f"/api/tables/{tid}/ratings")
    first.wait_for_function("() => document.querySelectorAll('#rating-changes .rating-change').length === 4",
                            timeout=15000)
    shown = {el.get_attribute("data-player"): float(el.get_attribute("data-delta") or "nan")
             for el in first.locator("#rating-changes .rating-change").all()}
    changes = get_json(first, f"/api/tables/{tid}/ratings")
    assert set(shown) == set(ids) and changes["booked"]
    for pid, delta in shown.items():
        assert delta == pytest.approx(changes["changes"][pid]["delta"], abs=1e-3)
    assert "定级中" in first.locator("#rating-changes").inner_text()  # one match: provisional

    first.goto(f"{room.base}/me")
    chart = first.locator('#rating-panel .rating-chart[data-game="demo"]')
    chart.wait_for()
    assert chart.get_attribute("data-points") == "1" and chart.locator("circle").count() == 1
    assert first.locator('#rating-panel .rating-value').first.get_attribute("data-provisional") == "true"
    cell = first.locator(f'#ledger tr.ledger-row[data-table="{tid}"] .rating-delta')
    assert cell.inner_text().strip() != ""

    first.goto(f"{room.base}/leaderboard?game=demo&sort=rating")
    first.wait_for_selector("#sort-rating.selected")
    first.wait_for_function("(ids) => ids.every((id) => document.querySelector("
                            "`#leaderboard tr[data-player=\"${id}\"]`))", arg=ids)
    values = [float(x.inner_text().split()[0]) for x in first.locator("#leaderboard .rating-value").all()]
    assert values == sorted(values, reverse=True)
