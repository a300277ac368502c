"""What a new player meets at the table (issue 33): every seat named in the lists of whom the table waits for
and in a replay, game logs that name seats, a leave prompt that says what leaving
costs and a log line when someone leaves, an English lobby form without Chinese, a table that seats its
creator, and rules pages that open with how to play."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .deals import huashui_claim_deal
from .people import Person, play_until

pytestmark = pytest.mark.browser

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
BOTS_ZH = ["阿福", "阿禄", "阿寿", "阿喜"]
BOTS_EN = ["Afu", "Alu", "Ashou", "Axi"]



@pytest.fixture
def people(server: str) -> Iterator[list[Person]]:
    """Three people who take part through the API and a websocket (甲 creates the table)."""
    out = [Person(server, name) for name in ("甲", "乙", "丙")]
    yield out
    for p in out:
        p.close()


def status_of(page: Any) -> str:
    return str(page.locator("#controls .controls-status").inner_text())


def switch_language(page: Any, lang: str) -> None:
    page.evaluate("() => document.getElementById('lang-switch').click()")
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


# ---- 2. everyone the table waits for, named ---------------------------------------------------------------

def test_every_seat_the_table_waits_for_is_named(room: Any, people: list[Person]) -> None:
    """Three people decide at once (水鱼's split): the status line names all three; so do the pause between
    hands and the rematch bar, with the list words of each language."""
    a, b, c = people
    tid = a.ok("/api/tables", {"game": "shuiyu", "config": {"rounds": 2}, "turn_seconds": 0,
                               "claim_seconds": 0, "next_hand_seconds": 120})["id"]
    a.ok(f"/api/tables/{tid}/sit", {"seat": 0})
    b.ok(f"/api/tables/{tid}/sit", {"seat": 1})
    c.ok(f"/api/tables/{tid}/sit", {"seat": 2})
    a.ok(f"/api/tables/{tid}/bots")
    for p in people:
        p.watch(tid)
    page = room.enter("看客")
    page.goto(f"{room.base}/t/{tid}")
    page.wait_for_selector(".waiting-room .seat-row")
    a.ok(f"/api/tables/{tid}/start")

    # the bot (seat 3) splits at once: three people are left, each named
    page.wait_for_function("() => (document.querySelector('#controls .controls-status')?.innerText || '')"
                           ".split('、').length === 3")
    assert status_of(page) == "等待 甲、乙、丙"

    play_until(people, lambda: bool(a.table(tid).get("pause")))
    bar = page.locator("#result-panel #pause-status")
    bar.wait_for()
    page.wait_for_function("() => /丙/.test(document.getElementById('pause-status')?.innerText || '')")
    assert bar.inner_text().endswith("等待 甲、乙、丙")
    switch_language(page, "en")  # (the result panel lies over the header's switch: a script presses it)
    assert bar.inner_text().endswith("Waiting for 甲, 乙, 丙")

    for p in people:
        p.send({"type": "continue"})
    play_until(people, lambda: a.table(tid)["status"] == "finished")
    a.ok(f"/api/tables/{tid}/rematch", {"confirm": True})
    rematch = page.locator("#result-panel .rematch-bar")
    rematch.wait_for()
    page.wait_for_function("() => /Waiting/.test(document.querySelector('#result-panel .rematch-bar').innerText)")
    assert rematch.inner_text() == "甲 asked for a rematch · Waiting for 乙, 丙"
    switch_language(page, "zh-CN")
    assert rematch.inner_text() == "甲 想再来一局 · 等待 乙、丙 确认"


# ---- 3 and 4. replays and logs name seats -----------------------------------------------------------------

def bots_table(room: Any, page: Any, game: str, config: dict[str, Any]) -> str:
    """A table of four bots that ``page`` watches from the start; its creator (who is no browser) leaves
    their seat to a bot before the start."""
    maker = Person(room.base, "开桌人")
    try:
        tid = str(maker.ok("/api/tables", {"game": game, "config": config})["id"])
        if any(s["player"] for s in maker.table(tid)["seats"]):
            maker.ok(f"/api/tables/{tid}/leave")
        page.goto(f"{room.base}/t/{tid}")
        page.wait_for_selector(".waiting-room .seat-row")
        maker.ok(f"/api/tables/{tid}/bots")
        maker.ok(f"/api/tables/{tid}/start")
    finally:
        maker.close()
    return tid


def log_lines(page: Any) -> list[str]:
    """The log's lines, newest first (none while it is empty)."""
    return list(page.evaluate("() => { const log = document.getElementById('log'); if (!log) return [];"
                              " log.open = true; return [...log.querySelectorAll('li')].map((li) => li.innerText); }"))


def test_a_replay_names_every_seat(room: Any) -> None:
    page = room.enter("回看")
    tid = bots_table(room, page, "shuiyu", {"rounds": 1})
    page.wait_for_selector("#result-panel #open-replay", timeout=30_000)
    page.click("#open-replay")
    controls = page.locator("#replay-controls")
    controls.wait_for()
    total = int(controls.get_attribute("data-total") or 0)
    assert total >= 8
    placeholders: list[str] = []
    for lang in ("zh", "en"):
        if lang == "en":
            page.click("#lang-switch")
            page.keyboard.press("Home")
        for n in range(1, total + 1):
            page.keyboard.press("ArrowRight")
            page.wait_for_selector(f'#replay-controls[data-step="{n}"] #replay-step')
            text = page.locator("#replay-step").inner_text()
            if "{seat:" in text:
                placeholders.append(f"{lang} step {n}: {text}")
    assert not placeholders, f"{len(placeholders)} steps show a raw placeholder: {placeholders[:3]}"
    assert tid


@pytest.mark.parametrize("game", ["shuiyu", "huashui", "weimaque"])
def test_a_match_ends_with_every_seat_named_in_the_log(game: str, room: Any) -> None:
    page = room.enter("记分")
    bots_table(room, page, game, {"rounds": 1} if game == "shuiyu" else {"hands": 1})
    page.wait_for_selector("#result-panel", timeout=60_000)
    page.click("#result-close")
    for names in (BOTS_ZH, BOTS_EN):
        if names is BOTS_EN:
            page.click("#lang-switch")
            page.wait_for_function("() => document.documentElement.lang === 'en'")
        lines = log_lines(page)
        last = lines[0]  # newest first: the match's end
        assert all(name in last for name in names), f"{game}: the last line does not name every seat: {last!r}"
        assert not re.search(r"(?<![\w.])\d+:-?\d", last), f"{game}: seats counted from 0 in {last!r}"
        settled = next((ln for ln in lines[1:] if re.search(r"[+-]\d", ln)), None)
        assert settled is not None and all(name in settled for name in names), \
            f"{game}: the hand's settlement line does not name every seat: {settled!r}"


# ---- 5. leaving ------------------------------------------------------------------------------------------

def test_leaving_says_what_it_costs_and_the_others_read_it(room: Any, people: list[Person]) -> None:
    """A rated match (people in every seat): the prompt states the escape and its price; when someone leaves,
    the log says so to those who stay."""
    page = room.enter("留下")
    tid = room.create_table(page, "demo", {"style": "tile", "players": 3}, windows={"turn_seconds": 0})
    room.sit(page, 0)
    leaver, other = people[1], people[2]
    leaver.ok(f"/api/tables/{tid}/sit", {"seat": 1})
    other.ok(f"/api/tables/{tid}/sit", {"seat": 2})
    page.wait_for_selector('.seat-row[data-seat="2"] .seat-who.person')
    page.click("#start")
    page.wait_for_selector(".board .seat")

    leaver.ok(f"/api/tables/{tid}/leave")  # mid-game: a bot finishes the seat, and everyone is told
    page.wait_for_selector('.board .seat[data-seat="1"] .left-badge')
    lines = log_lines(page)
    assert any("乙" in ln and "离开" in ln for ln in lines), f"no log line says 乙 left: {lines[:5]}"

    page.click("#leave-game")
    prompt = page.locator("#leave-confirm")
    assert "逃跑" in prompt.inner_text() and "8" in prompt.inner_text(), prompt.inner_text()
    page.click("#leave-no")
    page.click("#lang-switch")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert any("乙" in ln and "left" in ln for ln in log_lines(page))
    page.click("#leave-game")
    assert "−8" in prompt.inner_text() or "-8" in prompt.inner_text(), prompt.inner_text()


# ---- 6. the English lobby form, 滑水's win line -------------------------------------------------------------

def test_the_english_lobby_form_is_english(room: Any) -> None:
    page = room.enter("Reader")
    page.click("#lang-switch")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    games = page.locator(".game-tile").evaluate_all("els => els.map(e => e.dataset.game)")
    chinese: list[str] = []
    for game in games:
        if game == "demo":
            continue
        page.click(f'.game-tile[data-game="{game}"]')
        page.wait_for_selector("#create-form")
        page.evaluate("() => document.querySelectorAll('#create-form details').forEach((d) => { d.open = true; })")
        texts = page.evaluate("""() => [...document.getElementById('create-form').innerText.split('\\n'),
            ...[...document.querySelectorAll('#create-form option')].map((e) => e.textContent)]""")
        chinese += [f"{game}: {t}" for t in texts if CJK.search(t)]
    assert not chinese, f"{len(chinese)} Chinese labels in the English form: {chinese[:6]}"


def test_huashui_says_who_discarded_the_winning_tile(room: Any) -> None:
    page = room.enter("小红")
    room.dealt_table(page, "huashui", huashui_claim_deal(), {"hands": 1}, turn_seconds=0, claim_seconds=0)
    page.locator("#claim-prompt").wait_for(timeout=30_000)
    dealer = page.locator('.board .seat[data-seat="1"] .seat-name').inner_text()
    page.click('#controls .actions button[data-action="hu"]')
    page.wait_for_selector("#result-panel")
    page.click("#result-close")
    win = next(ln for ln in log_lines(page) if ln.startswith("胡"))
    assert "小红" in win and f"{dealer} 点炮" in win and "小红 点炮" not in win, win
    page.click("#lang-switch")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    dealer_en = page.locator('.board .seat[data-seat="1"] .seat-name').inner_text()
    win = next(ln for ln in log_lines(page) if ln.startswith("win"))
    assert f"discarded by {dealer_en}" in win, win


# ---- 7. the creator's seat ------------------------------------------------------------------------------

def test_a_new_table_seats_its_creator_and_bots_fill_the_rest(room: Any) -> None:
    page = room.enter("新手")
    room.create_table(page, "demo", {"style": "tile", "players": 3})
    assert page.locator('.seat-row[data-seat="0"] .you-badge').count() == 1, "the creator is not seated"
    page.click("#fill-bots")
    page.wait_for_selector("#start:not([disabled])")
    rows = page.locator(".seat-row .seat-who").evaluate_all("els => els.map(e => e.className)")
    assert ["person" in r for r in rows] == [True, False, False] and all("bot" in r for r in rows[1:]), rows
    page.click("#start")
    page.wait_for_selector('.board .seat.me[data-seat="0"] .hand .card.face')


# ---- 10. the rules pages ---------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["shuiyu", "huashui", "shengji", "weimaque"])
def test_a_rules_page_opens_with_how_to_play(game: str, room: Any, new_context: Any) -> None:
    page = new_context().new_page()
    page.goto(f"{room.base}/rules/{game}?lang=en")
    page.wait_for_selector(".rules-text h2")
    sections = page.evaluate("""() => {
        const out = [];
        for (const el of document.querySelector('.rules-text').children) {
            if (el.tagName === 'H2') out.push({title: el.innerText, words: 0});
            else if (out.length) out[out.length - 1].words += el.innerText.split(/\\s+/).filter(Boolean).length;
        }
        return out;
    }""")
    first = sections[0]
    assert first["title"] == "How to play", f"{game}: the page opens with {first['title']!r}"
    assert 80 <= first["words"] <= 450, f"{game}: 'How to play' is {first['words']} words: short, but whole"
    assert len(sections) > 2, "the detailed rules follow"
