"""The registration desk when the field is full, in the browser: the director types a name, hears the
field is full, puts the player on the alternates list with Enter, busts the player with no chips from
the console, then seats the next alternate and reads their table and seat (R8.1). Clicks and typing
only, against the browser tests' server (tests/screens/browser_server.py, ``alternates_scenario``).
Screenshot with LIVE_SCREENSHOTS=1: docs/console-desk-alternates.png."""

import re

import pytest

from tests.screens.test_console_browser import browser, director, server, shot  # noqa: F401

pytestmark = pytest.mark.browser


def test_a_full_field_keeps_alternates_and_seats_the_next_after_a_bust_R8_1(server, director):  # noqa: F811
    from playwright.sync_api import expect

    base, data = server
    tid = data["alternates_tournament"]
    page = director
    page.goto(f"{base}/console/{tid}/")
    page.click("[data-action=desk]")
    page.wait_for_url(f"{base}/console/{tid}/desk/")
    expect(page.locator("[data-role=field-count]")).to_contain_text("4 of 4 in")
    name = page.locator("[data-role=desk-form] input[name=name]")
    name.type("Alma Alternate")
    name.press("Enter")
    expect(page.locator(".messages")).to_contain_text("The field is full: 4 players are in")
    offer = page.locator("[data-action=add-alternate]")
    expect(offer).to_have_text("Add Alma Alternate to the alternates list")
    expect(offer).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Alma Alternate is on the alternates list (number 1).")
    expect(page.locator("[data-role=alternate-list]")).to_contain_text("Alma Alternate")
    seat_next = page.locator("[data-action=seat-alternate]")
    expect(seat_next).to_be_disabled()  # no seat is free while the field is full

    page.click("text=Back to the console")
    page.wait_for_url(f"{base}/console/{tid}/")
    page.locator("button", has_text=f"Bust {data['alternates_broke']}").click()
    expect(page.locator(".messages")).to_contain_text(f"{data['alternates_broke']} is out.")

    page.click("[data-action=desk]")
    page.wait_for_url(f"{base}/console/{tid}/desk/")
    expect(page.locator("[data-role=field-count]")).to_contain_text("3 of 4 in")
    expect(seat_next).to_be_enabled()
    seat_next.click()
    answer = page.locator(".messages")
    expect(answer).to_contain_text(re.compile(r"Alma Alternate is registered: table \d+, seat \d+"))
    table, seat = re.search(r"table (\d+), seat (\d+)", answer.text_content()).groups()
    expect(page.locator("[data-role=answer]")).to_contain_text(f"table {table}, seat {seat}")
    expect(page.locator("[data-role=field-count]")).to_contain_text("4 of 4 in")
    expect(page.locator("[data-role=alternate-list]")).to_contain_text("Nobody is waiting.")
    expect(page.locator("tr", has_text="Alma Alternate")).to_contain_text("in")
    shot(page, "console-desk-alternates.png")
    page.offline.assert_clean()
