"""The match's score history, one click away at the table: a row per finished hand, in both languages."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from .test_browser_play import play_until_result

pytestmark = pytest.mark.browser


def _history(page: Any) -> dict[str, Any]:
    """The history panel as a person reads it: the header, each hand's row, the totals row."""
    page.click("#history-open")
    page.locator("#history-panel").wait_for()
    data: dict[str, Any] = page.evaluate("""() => {
        const p = document.getElementById('history-panel');
        const cells = (tr) => [...tr.querySelectorAll('th, td')].map((c) => c.innerText.trim());
        return {
            head: [...p.querySelectorAll('thead th')].map((c) => c.innerText.trim()),
            rows: [...p.querySelectorAll('tbody tr')].map(cells),
            totals: [...p.querySelectorAll('tfoot tr')].map(cells),
            empty: p.querySelector('#history-empty')?.innerText || null,
            visible: (() => { const r = p.querySelector('.modal').getBoundingClientRect();
                              return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; })(),
        };
    }""")
    return data


def _num(cell: str) -> float:
    """A number as the page writes it (a true minus sign)."""
    return float(cell.replace("−", "-"))


def _close(page: Any) -> None:
    page.click("#history-close")
    assert page.locator("#history-panel").count() == 0


WORDS = {
    "zh": {"button": "比分记录", "hand": "局", "empty": "还没有打完的局", "title": "第 1 局", "totals": "累计"},
    "en": {"button": "Scores", "hand": "Hand", "empty": "No hand has finished", "title": "Hand 1", "totals": "Totals"},
}


@pytest.mark.parametrize(("lang", "words"), list(WORDS.items()))
def test_score_history_is_one_click_away_during_the_match(lang: str, words: dict[str, str], room: Any,
                                                          artifacts: Path) -> None:
    page = room.enter("小红" if lang == "zh" else "Ann")
    if lang == "en":
        page.click("#lang-switch")
    room.create_table(page, "demo", {"style": "french", "players": 2, "hands": 2})
    room.sit(page, 0)
    room.fill_bots_and_start(page)

    assert page.locator("#history-open").inner_text() == words["button"]
    before = _history(page)
    assert before["empty"] and words["empty"] in before["empty"], "before any hand ends the panel says so"
    _close(page)

    rng = random.Random(lang)
    play_until_result(page, rng)
    shown = page.locator("#result-panel tfoot tr").first.inner_text().split()
    page.click("#result-close")

    first = _history(page)
    assert first["visible"]
    assert first["head"][0] == words["hand"] and len(first["head"]) == 3, first["head"]
    assert "Ann" in first["head"] or "小红" in first["head"]
    assert len(first["rows"]) == 1 and first["rows"][0][0] == words["title"]
    hand_points = [cell.split("\n")[0] for cell in first["rows"][0][1:]]
    assert hand_points == shown[-2:], (hand_points, shown)
    assert first["totals"] and first["totals"][0][0] == words["totals"]
    page.screenshot(path=str(artifacts / f"history-{lang}.png"), full_page=True)
    _close(page)

    # A reload during the match keeps the hands already played.
    page.reload()
    page.wait_for_selector(".board .seat")
    again = _history(page)
    assert again["rows"] == first["rows"], "the history survives a reload"
    _close(page)

    # The second hand adds its row; the running totals under the points add up to the match totals.
    play_until_result(page, rng)
    page.click("#result-close")
    second = _history(page)
    assert len(second["rows"]) == 2 and second["rows"][0] == first["rows"][0]
    totals = [_num(c) for c in second["totals"][0][1:]]
    per_hand = [[_num(c.split("\n")[0]) for c in row[1:]] for row in second["rows"]]
    running = [_num(c.split("\n")[1]) for c in second["rows"][1][1:]]
    assert [sum(col) for col in zip(*per_hand, strict=True)] == pytest.approx(totals)
    assert running == pytest.approx(totals)
    page.keyboard.press("Escape")
    assert page.locator("#history-panel").count() == 0
    assert not room.script_errors, room.script_errors
