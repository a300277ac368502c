"""One name per seat: the board, the result and the log name every seat by its person's nickname or its bot's
name (never a number from 0), with roles as labels beside it; texts from the games may say `{seat:N}` and the
client writes the name in.  Leaving on purpose shows 离开 / left; a lost connection shows 掉线 / offline.
The log stays open while play goes on and reads as sentences."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import MY_PLAYABLE

pytestmark = pytest.mark.browser

BOTS = {"zh": ["阿福", "阿禄", "阿寿", "阿喜"], "en": ["Afu", "Alu", "Ashou", "Axi"]}


def test_every_seat_has_a_name_and_the_log_reads(room: Any, artifacts: Path) -> None:
    page = room.enter("小李")
    room.create_table(page, "demo", {"style": "tile", "players": 3}, windows={"turn_seconds": 0})
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    names = page.locator(".board .seat .seat-name").all_inner_texts()
    assert sorted(names) == sorted(["小李", *BOTS["zh"][1:3]])
    assert page.locator('.board .seat[data-seat="1"] .bot-badge').count() == 1
    roles = page.locator(".board .seat .seat-head .role").all_inner_texts()
    assert roles == ["庄"], "the demo dealer's role is a label beside the name"

    # The log, once opened, stays open while play goes on; its lines name the seats.
    page.wait_for_selector(MY_PLAYABLE)
    page.locator(MY_PLAYABLE).first.click()
    page.locator("#log summary").click()
    assert page.locator("#log").get_attribute("open") is not None
    before = page.locator("#controls").get_attribute("data-seq")
    page.wait_for_selector(MY_PLAYABLE)
    page.locator(MY_PLAYABLE).first.click()
    page.wait_for_function("s => document.getElementById('controls').dataset.seq !== s", arg=before)
    assert page.locator("#log").get_attribute("open") is not None, "the log closed by itself"
    lines = page.locator("#log li").all_inner_texts()
    assert any(line.startswith("小李 打出") for line in lines), lines
    # The demo's random bot may pass on both its turns (1 deal in 36), so its line is either sentence.
    assert any(line.startswith((f"{BOTS['zh'][1]} 打出", f"{BOTS['zh'][1]} 过")) for line in lines), lines
    for text in [*names, *lines, *page.locator("#scoreboard").all_inner_texts()]:
        assert not re.search(r"(^|\D)0号|seat 0|座位0|bot 1|机器人\d", text), text
    panel = page.locator("#result-panel")
    panel.wait_for()  # the demo hand is over after two rounds: its columns are the same names
    heads = panel.locator("thead th").all_inner_texts()[1:]
    assert [h.split("\n")[0].replace("庄", "").strip() for h in heads] == ["小李", *BOTS["zh"][1:3]]
    page.screenshot(path=str(artifacts / "seats-result.png"))
    page.keyboard.press("Escape")
    page.click("#lang-switch")
    lines = page.locator("#log li").all_inner_texts()
    assert any(line.startswith("小李 discards") for line in lines), lines
    assert any(line.startswith((f"{BOTS['en'][1]} discards", f"{BOTS['en'][1]} passes")) for line in lines), lines
    assert page.locator('.board .seat[data-seat="2"] .seat-name').inner_text() == BOTS["en"][2]
    page.click("#lang-switch")
    page.screenshot(path=str(artifacts / "seats-log.png"), full_page=True)


SEAT_TEXT = """async ([text, lang]) => {
    const i18n = await import('/static/i18n.js');
    const names = await import('/static/names.js');
    const events = await import('/static/events.js');
    const before = i18n.lang();
    i18n.setLang(lang);
    names.useSeats(() => [{seat: 0, player: {id: 'a', nickname: '老王'}, bot: null},
                          {seat: 1, player: null, bot: 'best'}]);
    const span = document.createElement('span');
    span.append(...events.eventLine({type: 'kill', seat: 0, text}, 'french').flat().filter(Boolean));
    const fallback = events.eventText({type: 'trick', winner: 1, points: 25});
    const outside = names.withSeatNames('{seat:7}');
    names.useSeats(null);
    i18n.setLang(before);
    return [span.textContent, fallback, outside];
}"""


@pytest.mark.parametrize(("lang", "shown", "fallback"), [
    ("zh", "老王 杀 阿禄", "阿禄 赢这一墩（25 分）"),
    ("en", "老王 kills Alu", "Alu wins the trick (25 points)"),
])
def test_seats_inside_game_texts_are_named(room: Any, lang: str, shown: str, fallback: str) -> None:
    """An event's own text is used as it is, each `{seat:N}` replaced by that seat's name; without a text, the
    client makes a line from the event's type."""
    page = room.enter("文字")
    text = {"zh": "{seat:0} 杀 {seat:1}", "en": "{seat:0} kills {seat:1}"}
    out = page.evaluate(SEAT_TEXT, [text, lang])
    assert out[0] == shown
    assert out[1] == fallback
    assert out[2] == ("8 号位" if lang == "zh" else "Seat 8")  # a seat the table does not have: counted from 1


EVENT_TEXT = """async ([events, lang]) => {
    const i18n = await import('/static/i18n.js');
    const names = await import('/static/names.js');
    const { eventText } = await import('/static/events.js');
    const before = i18n.lang();
    i18n.setLang(lang);
    names.useSeats(() => [{seat: 0, player: {id: 'a', nickname: '老王'}, bot: null},
                          {seat: 1, player: null, bot: 'best'}]);
    const out = events.map((e) => eventText(e));
    names.useSeats(null);
    i18n.setLang(before);
    return out;
}"""

# (event as a game sends it, the zh line, the en line): the log's fallback until events carry their own text.
EVENTS = [
    ({"type": "discard", "seat": 1, "tile": "5m"}, "阿禄 打出", "Alu discards"),
    ({"type": "pung", "seat": 0, "tile": "5m", "from": 1}, "老王 碰（阿禄 打出）", "老王 pungs (from Alu)"),
    ({"type": "kong", "kind": "kong_concealed", "seat": 0, "tile": "5m"}, "老王 暗杠",
     "老王 declares a concealed kong"),
    ({"type": "win", "seats": [0], "how": "discard", "from": 1}, "老王 胡（阿禄 打出）", "老王 wins (from Alu)"),
    ({"type": "win", "seats": [0, 1], "how": "discard", "from": 2}, "老王、阿禄 都胡（一炮多响）（3 号位 打出）",
     "老王, Alu all win on it (from Seat 3)"),
    ({"type": "trump", "trump": "H", "dealer": 1}, "定主 ♥，阿禄 坐庄", "Trump ♥; Alu deals"),
    ({"type": "trump", "trump": None, "dealer": 0}, "定主 无主，老王 坐庄", "Trump no-trump; 老王 deals"),
    ({"type": "hand_start", "hand": 2, "dealer": 0}, "第 2 局开始，老王 坐庄", "Hand 2 starts; 老王 deals"),
    ({"type": "bid", "seat": 1, "cards": ["2H"]}, "阿禄 亮", "Alu bids"),
    ({"type": "drawn_hand"}, "流局", "Drawn hand"),
    ({"type": "something_new", "seat": 1}, "阿禄 something new", "Alu something new"),
]


def test_log_lines_made_from_events(room: Any) -> None:
    page = room.enter("日志")
    for lang, k in (("zh", 1), ("en", 2)):
        got = page.evaluate(EVENT_TEXT, [[e[0] for e in EVENTS], lang])
        assert got == [e[k] for e in EVENTS]


def test_leaving_shows_left_and_a_lost_connection_shows_offline(room: Any) -> None:
    host = room.enter("留下", locale="zh-CN")
    room.create_table(host, "demo", {"style": "tile", "players": 3}, windows={"turn_seconds": 0})
    room.sit(host, 0)
    guest = room.enter("断网")
    guest.goto(host.url)
    room.sit(guest, 1)
    host.click("#fill-bots")
    host.click("#start")
    host.wait_for_selector(".board .seat.me")
    guest.wait_for_selector(".board .seat.me")

    guest.close()  # the guest's connection goes: 掉线, not 离开
    seat1 = host.locator('.board .seat[data-seat="1"]')
    seat1.locator(".offline-badge").wait_for()
    assert seat1.locator(".offline-badge").inner_text() == "掉线" and seat1.locator(".left-badge").count() == 0

    host.click("#leave-game")  # the host leaves on purpose: 离开, not 掉线
    host.click("#leave-yes")
    seat0 = host.locator('.board .seat[data-seat="0"]')
    seat0.locator(".left-badge").wait_for()
    assert seat0.locator(".left-badge").inner_text() == "离开"
    assert seat0.locator(".offline-badge").count() == 0
    assert seat0.locator(".seat-name").inner_text() == "留下" and seat0.locator(".bot-badge").count() == 1
    host.click("#lang-switch")
    assert seat0.locator(".left-badge").inner_text() == "left"
    assert seat1.locator(".offline-badge").inner_text() == "offline"
