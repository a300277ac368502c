"""The lobby's form and seats: server refusals shown at the form, private tables reached by invite link."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_refused_options_are_shown_next_to_the_form(room: Any) -> None:
    page = room.enter("阿强")
    page.click('.game-tile[data-game="demo"]')
    # The form is generated from the schema, defaults filled in: choice → select, int → number with bounds.
    assert page.locator("#opt-style").evaluate("e => e.tagName") == "SELECT"
    assert page.locator("#opt-players").get_attribute("max") == "4"
    assert page.locator("#opt-players").input_value() == "4"

    page.fill("#opt-players", "9")
    page.click("#create-submit")
    error = page.locator("#create-error")
    error.wait_for()
    assert "players" in error.inner_text()
    assert page.locator("label.field.invalid #opt-players").count() == 1
    assert "/t/" not in page.url

    page.fill("#opt-players", "3")
    page.fill("#win-turn_seconds", "99999")
    page.click("#create-submit")
    page.wait_for_selector("label.field.invalid #win-turn_seconds")
    assert "turn_seconds" in page.locator("#create-error").inner_text()

    page.fill("#win-turn_seconds", "30")
    page.click("#create-submit")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".waiting-room .seat-row")
    assert page.locator(".waiting-room .seat-row").count() == 3


def test_private_table_by_invite_link(room: Any) -> None:
    host = room.enter("房主")
    host.click('.game-tile[data-game="demo"]')
    host.check("#opt-private")
    host.click("#create-submit")
    host.wait_for_url("**/t/*?invite=*")
    link = host.locator(".invite input").input_value()
    table = link.split("/t/")[1].split("?")[0]
    assert "invite=" in link
    room.sit(host, 0)

    # Not listed in the lobby, and closed without the invite.
    guest = room.enter("客人")
    assert guest.locator(f'.table-row[data-table="{table}"]').count() == 0
    guest.goto(f"{room.base}/t/{table}")
    guest.wait_for_selector(".center-page button.primary")
    assert "邀请链接" in guest.locator(".center-page").inner_text()
    assert guest.locator(".waiting-room").count() == 0

    # With the link: sit, and the host sees the guest arrive.
    guest.goto(link)
    room.sit(guest, 1)
    host.wait_for_selector('.seat-row[data-seat="1"] .seat-who.person:has-text("客人")')
    host.click("#fill-bots")
    host.click("#start")
    guest.wait_for_selector(".board .seat.me .hand .card.face")
    assert guest.locator(".board .seat.me").get_attribute("data-seat") == "1"


def test_leaving_mid_game_hands_the_seat_to_a_bot(room: Any) -> None:
    page = room.enter("早退")
    room.create_table(page, "demo", {"players": 2})
    room.sit(page, 0)
    room.fill_bots_and_start(page)
    page.wait_for_selector(".board .seat.me .hand .card.face")
    page.click("#leave-game")
    page.click("#leave-yes")  # "leave this game?", asked on the page (no pop-up)
    # Now a spectator: no own seat, no hand face up, and a bot plays the seat that keeps the person's name.
    page.wait_for_selector(".board:not(:has(.seat.me))")
    assert page.locator(".board .hand .card.face").count() == 0
    seat0 = page.locator('.board .seat[data-seat="0"]')
    assert "早退" in seat0.locator(".seat-name").inner_text()
    assert seat0.locator(".bot-badge").count() == 1
    assert page.locator("#leave-game").count() == 0


def test_a_token_the_server_refuses_asks_for_a_nickname_again(room: Any) -> None:
    page = room.enter("旧人")
    page.evaluate("() => localStorage.setItem('paiju.token', 'forged.token')")
    page.reload()
    page.wait_for_selector("#nickname")
    assert page.evaluate("() => localStorage.getItem('paiju.token')") is None
    page.fill("#nickname", "新人")
    page.click(".nickname-form button[type=submit]")
    page.wait_for_selector(".lobby .game-tile")
    assert page.locator(".site-header .me").inner_text() == "新人"
