"""A person plays a whole hand of each game against three bots, only by clicking what the page offers."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from paiju.core import registry

from .conftest import MY_PLAYABLE

pytestmark = pytest.mark.browser

HAND_SECONDS = 240  # a generous cap; a hand takes seconds when bots do not think


def importable(game: str) -> None:
    if game == "demo":
        return
    try:
        registry.get_game(game)
    except (ImportError, AttributeError) as e:
        pytest.skip(f"{game} does not import yet: {e}")


def controls_state(page: Any) -> tuple[bool, str, list[str], dict[str, Any] | None]:
    """(my decision?, seq, legal actions, select) as the page shows them."""
    data = page.evaluate("""() => {
        const c = document.getElementById('controls');
        if (!c) return null;
        return {active: c.classList.contains('active'), seq: c.dataset.seq, legal: c.dataset.legal,
                select: c.dataset.select};
    }""")
    if not data:
        return False, "", [], None
    return (bool(data["active"]), data["seq"], json.loads(data["legal"] or "[]"),
            json.loads(data["select"]) if data["select"] else None)


def choose_and_click(page: Any, rng: random.Random, legal: list[str], select: dict[str, Any] | None) -> str:
    """Do one decision like a person: pick cards and confirm, tap a card, or press a button."""
    if select is not None:
        verb = select["verb"]
        offered = [a for a in legal if a.split()[0] == verb]
        if offered:
            action = rng.choice(offered)
            cards = action.split()[1:]
        else:  # the game lists no plays (too many): pick the first cards the selection allows
            hand = page.locator(".seat.me .hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
            cards = hand[: max(1, int(select.get("min") or 1))]
            action = f"{verb} {' '.join(cards)}"
        buttons = page.locator("#controls .actions button.action")
        if buttons.count() and rng.random() < 0.15:  # sometimes the other choices (pass, …)
            b = buttons.nth(rng.randrange(buttons.count()))
            label = str(b.get_attribute("data-action"))
            b.click()
            return label
        for c in cards:
            page.locator(f'.seat.me .hand .card[data-card="{c}"]:not(.selected)').first.click()
        page.locator("#select-send").click()
        return action
    targets = page.locator(".seat.me .hand .card.playable, #controls .actions button.action")
    n = targets.count()
    if n == 0:
        return ""
    target = targets.nth(rng.randrange(n))
    label = str(target.get_attribute("data-action"))
    target.click()
    return label


def play_until_result(page: Any, rng: random.Random, shot: Path | None = None) -> list[str]:
    """Click through the person's decisions until the hand's result panel shows; the actions taken."""
    done: list[str] = []
    end = time.monotonic() + HAND_SECONDS
    while time.monotonic() < end:
        if page.locator("#result-panel").count():
            return done
        active, seq, legal, select = controls_state(page)
        if not active or not legal:
            page.wait_for_timeout(40)
            continue
        if shot is not None and len(done) == 3:
            page.screenshot(path=str(shot), full_page=True)
            assert_seats_named(page, "mid-hand")
        try:
            done.append(choose_and_click(page, rng, legal, select))
        except Exception:  # the decision went away under the click (a timeout, a claim closed): look again
            page.wait_for_timeout(100)
            continue
        try:
            page.wait_for_function(
                "seq => { const c = document.getElementById('controls');"
                " return !c || c.dataset.seq !== seq || document.getElementById('result-panel'); }",
                arg=seq, timeout=5000)
        except Exception:
            # Refused (a toast says why) or still pending: clear any half selection and try again.
            if page.locator("#select-clear:not([disabled])").count():
                page.click("#select-clear")
    raise AssertionError(f"no result panel after {HAND_SECONDS} s; the person took {len(done)} actions")


GAMES = [*registry.GAMES, "demo"]
SEAT_NUMBER = re.compile(r"座位\s?\d|座\d|(?<![\d局])\d号(?!位)|闲家\d|\bseats? \d|\{seat:")
"""A seat named by a number counted from 0 (or a placeholder left unnamed) in what a person reads."""


def assert_seats_named(page: Any, where: str) -> None:
    """Everything on the page — board, buttons, claim prompt, log (opened), result panel — names seats by
    their people's or bots' names, never by a number (issue 12, "One name per seat, everywhere")."""
    text = page.evaluate("() => { const log = document.getElementById('log'); if (log) log.open = true;"
                         " return document.body.innerText; }")
    found = sorted({m.group(0) for m in SEAT_NUMBER.finditer(text)})
    assert not found, f"{where}: seats named by number: {found}"


@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_a_hand_against_bots(game: str, room: Any, artifacts: Path) -> None:
    importable(game)
    from .conftest import short_match

    page = room.enter("小明")
    room.create_table(page, game, short_match(room.base, game))
    room.sit(page, 0)
    room.fill_bots_and_start(page)

    # The board shows every seat, and your own hand face up.
    seats = page.locator(".board .seat")
    n = seats.count()
    assert n >= 2
    assert page.locator('.board .seat.me[data-seat="0"]').count() == 1

    actions = play_until_result(page, random.Random(game), artifacts / f"{game}-play.png")
    panel = page.locator("#result-panel .result-table")
    panel.wait_for()
    page.screenshot(path=str(artifacts / f"{game}.png"), full_page=True)
    assert_seats_named(page, "the result")
    page.evaluate("() => document.getElementById('lang-switch').click()")  # the same page in English
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert_seats_named(page, "the result, in English")
    if game != "demo":  # the log reads in English: the game's words for every event (cards and names aside)
        lines = page.evaluate("""() => [...document.querySelectorAll('#log li')].map((li) => {
            const c = li.cloneNode(true); c.querySelectorAll('.card-text, .card').forEach((e) => e.remove());
            return c.textContent; })""")
        assert lines
        chinese = [line for line in lines if re.search(r"[\u4e00-\u9fff]", line.replace("小明", ""))]
        assert not chinese, chinese[:5]
    page.evaluate("() => document.getElementById('lang-switch').click()")
    page.wait_for_function("() => document.documentElement.lang === 'zh-CN'")

    # One column per seat (after the item column), with the seat names.
    assert page.locator("#result-panel thead th").count() == n + 1
    assert page.locator("#result-panel tbody tr").count() >= 1
    if page.locator(".board .seat.me .hand").count():
        assert actions or page.locator(".board .seat.me .role").count(), "the person never had to decide"

    # Closing the panel leaves the table readable and the result reachable again.
    page.click("#result-close")
    assert page.locator("#result-panel").count() == 0
    page.locator("#show-result").click()
    page.locator("#result-panel").wait_for()


@pytest.mark.parametrize("style", ["tile", "paper"])
def test_the_demo_game_in_each_card_style(style: str, room: Any, artifacts: Path) -> None:
    """The generic table in the other card styles: tap-to-discard (tile) and a selection (paper)."""
    page = room.enter("阿红")
    room.create_table(page, "demo", {"style": style, "players": 3})
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    hand = page.locator(".board .seat.me .hand .card.face")
    assert hand.count() == 5
    assert page.locator(f".board .seat.me .hand .card.style-{style}").count() == 5
    if style == "tile":
        page.wait_for_selector(MY_PLAYABLE)
        first = page.locator(MY_PLAYABLE).first
        code = str(first.get_attribute("data-card"))
        first.click()  # one tap discards
        page.wait_for_selector(f'.seat.me .discards .card[data-card="{code}"]')
    else:
        page.wait_for_selector("#select-send[disabled]")
        cards = page.locator(".seat.me .hand .card.selectable")
        cards.nth(0).click()
        cards.nth(1).click()
        assert page.locator("#select-count").inner_text().strip().startswith("已选 2")
        page.click("#select-send")
        page.wait_for_selector(".seat.me .groups .group .card")  # a pair is shown as a group
    play_until_result(page, random.Random(style))
    page.screenshot(path=str(artifacts / f"demo-{style}.png"), full_page=True)
