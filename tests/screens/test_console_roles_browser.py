"""Each role at work in the browser (issue 14 item 9): the registration desk signs in, finds only the
desk, registers a player and prints the seat card, and sees no clock or bust button; the floor sees
the seating and the bust buttons but no clock controls. Clicks and typing only, against the browser
tests' server (tests/screens/browser_server.py, ``roles_scenario``). Screenshot with LIVE_SCREENSHOTS=1:
docs/console-desk-role.png."""

import re

import pytest

from tests.screens.test_console_browser import (  # noqa: F401 (shared fixtures)
    VIEWPORT,
    Offline,
    browser,
    server,
    shot,
    staff_signs_in,
)

pytestmark = pytest.mark.browser


def _signed_in(browser, base, username, password):  # noqa: F811
    context = browser.new_context(viewport=VIEWPORT)
    offline = Offline(context, base)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    staff_signs_in(page, base, username, password)
    return context, page, offline


def test_the_desk_registers_and_prints_a_seat_card_and_sees_nothing_else(server, browser):  # noqa: F811
    from playwright.sync_api import expect

    base, data = server
    tid = data["roles_tournament"]
    context, page, offline = _signed_in(browser, base, data["desk_username"], data["desk_password"])
    expect(page.locator("[data-action=new-tournament]")).to_have_count(0)
    # The tournament list opens the desk: the desk's console is the registration desk.
    page.locator("tr:has-text('Roles at work') [data-action=open-desk]").click()
    page.wait_for_url(f"{base}/console/{tid}/desk/")
    name = page.locator("[data-role=desk-form] input[name=name]")
    name.type("Rosa Desk")
    name.press("Enter")
    answer = page.locator(".messages")
    expect(answer).to_contain_text(re.compile(r"Rosa Desk is registered: table \d+, seat \d+"))
    table, seat = re.search(r"table (\d+), seat (\d+)", answer.text_content()).groups()
    expect(page.locator("[data-role=entries]")).to_contain_text("Rosa Desk")
    shot(page, "console-desk-role.png")
    with page.expect_popup() as popup:
        page.click("[data-action=seat-card]")
    card = popup.value
    expect(card.locator("[data-role=table]")).to_have_text(table)
    expect(card.locator("[data-role=seat]")).to_have_text(seat)
    card.close()
    # No clock, bust, seating or device control anywhere on the desk's pages.
    for action in ("pause", "start", "next-level", "draw", "pair-clock", "balancing-mode"):
        expect(page.locator(f"[data-action={action}]")).to_have_count(0)
    expect(page.locator("button", has_text=re.compile(r"^Bust "))).to_have_count(0)
    # Opening the console's address brings the desk back to its desk.
    page.goto(f"{base}/console/{tid}/")
    page.wait_for_url(f"{base}/console/{tid}/desk/")
    # Following a link to the clock's controls (an old bookmark) is refused and says why.
    page.goto(f"{base}/console/{tid}/structure/")
    expect(page.locator("[data-role=refusal]")).to_contain_text(
        "Your role (registration desk) may not set up the tournament"
    )
    offline.assert_clean()
    context.close()


def test_the_floor_sees_seating_and_busts_but_no_clock_controls(server, browser):  # noqa: F811
    from playwright.sync_api import expect

    base, data = server
    tid = data["roles_tournament"]
    context, page, offline = _signed_in(browser, base, data["floor_username"], data["floor_password"])
    page.locator("a", has_text="Roles at work").click()
    page.wait_for_url(f"{base}/console/{tid}/")
    # The clock shows, without a button to run it, an announcement to make or a device to pair.
    expect(page.locator("[data-role=phase]")).to_have_text("Running")
    for action in (
        "pause",
        "next-level",
        "previous-level",
        "add-minute",
        "jump",
        "pair-clock",
        "pair-tablet",
        "set-floor-pin",
        "setup",
        "structure",
    ):
        expect(page.locator(f"[data-action={action}]")).to_have_count(0)
    expect(page.get_by_placeholder("Announcement on the clock screens")).to_have_count(0)
    expect(page.get_by_placeholder("Player name")).to_have_count(0)  # registering is the desk's
    # The seating and the busts are the floor's.
    expect(page.locator("[data-action=balancing-mode]")).to_be_visible()
    bust = page.locator("button", has_text=f"Bust {data['roles_busted_entry']}")
    expect(bust).to_be_visible()
    bust.click()
    expect(page.locator(".messages")).to_contain_text(f"{data['roles_busted_entry']} is out.")
    offline.assert_clean()
    context.close()
