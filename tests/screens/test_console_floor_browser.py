"""The floor runs its page in the browser (issue 14 item 4), signed in as the Floor role, by clicking and
typing: counts table 2, busts the player counted at 0 (R8.8), undoes that bust, removes a no-show with
the reason, takes back the last input of table 1's hand and voids that hand as a misdeal, then reads
the page in the language kept on the account. Chromium (Playwright) against the browser tests' server
(tests/screens/browser_server.py, ``floor_scenario``); the screenshot goes to docs/ with
LIVE_SCREENSHOTS=1.
"""

import re

import pytest

from tests.screens.test_console_browser import (  # noqa: F401  (shared fixtures)
    VIEWPORT,
    Offline,
    browser,
    server,
    shot,
    staff_signs_in,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def floor_page(server, browser):  # noqa: F811
    base, data = server
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.offline = Offline(context, base)
    page.dialogs = []

    def answer(dialog):  # the page's "are you sure?" questions: remembered, then accepted
        page.dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    staff_signs_in(page, base, data["floor_username"], data["floor_password"])
    yield page
    context.close()


def _open_table(page, number):
    # The page the last step loaded (a form post's redirect) first, then the number typed and Enter
    # pressed in that field itself, whatever holds the focus; the table's page is the next one loaded.
    page.wait_for_load_state()
    field = page.locator("[data-role=pick-table] input[name=table]")
    field.fill(str(number))
    with page.expect_navigation(url=re.compile(rf"table={number}")):
        field.press("Enter")
    page.wait_for_load_state()


def _message(page):
    return page.locator(".messages .msg")


def test_the_floor_counts_busts_undoes_removes_and_corrects_from_the_floor_page(server, floor_page):  # noqa: F811
    from playwright.sync_api import expect

    _base, data = server
    page = floor_page
    page.click("text=Floor rounds")
    page.click("[data-action=floor]")
    expect(page.locator("h1")).to_contain_text("Floor · Floor rounds")

    # Table 2, between hands: count it. One stack is gone, one has grown; the totals before and after.
    _open_table(page, 2)
    count = page.locator("[data-role=count]")
    expect(count.locator("[data-role=table-total]")).to_have_text("15000")
    rows = count.locator("tbody tr")
    broke = rows.nth(0).locator("td").nth(1).text_content()
    rows.nth(0).locator("input").fill("0")
    rows.nth(1).locator("input").fill("4,500")
    page.click("[data-action=save-count]")
    expect(_message(page)).to_have_text(
        "Table 2 counted: 15000 chips before, 13500 after (2 stacks changed)."
    )
    expect(count.locator("[data-role=table-total]")).to_have_text("13500")
    expect(rows.nth(0).locator("[data-role=chips]")).to_have_text("0")
    # A count that is not a number of chips is refused, and the stacks stay as they are.
    rows.nth(2).locator("input").fill("-200")
    page.click("[data-action=save-count]")
    expect(_message(page)).to_contain_text("Chips must be a whole number from 0")
    expect(count.locator("[data-role=table-total]")).to_have_text("13500")

    # The player counted at 0 busts (only a player with no chips can), the question naming them.
    busts = page.locator("[data-role=busts]")
    busts.locator(f"[data-role=no-chips] li:has-text('{broke}') [data-action=bust]").click()
    expect(_message(page)).to_have_text(f"{broke} is out.")
    assert page.dialogs[-1] == f"Bust {broke} out of the tournament?"
    expect(busts.locator("[data-role=no-chips]")).not_to_contain_text(broke)

    # It was the wrong stack: the bust is undone with the chips the player really has.
    undo = busts.locator(f"[data-role=recent-busts] tr:has-text('{broke}')")
    undo.locator("summary").click()
    undo.locator("input[name=chips]").fill("1500")
    undo.locator("input[name=reason]").fill("counted the wrong stack")
    undo.locator("[data-action=undo-bust]").click()
    expect(_message(page)).to_contain_text(f"{broke} is back in with 1500 chips: table ")

    # A no-show at table 2 is removed from the tournament, with the reason.
    _open_table(page, 2)
    remove = page.locator("[data-role=remove]")
    choice = remove.locator("select[name=entry] option").nth(1)
    absent = re.sub(r"^.*?: | \(.*$", "", choice.text_content())
    names = page.locator("[data-role=count] tbody tr td:nth-child(2)")
    at_table = names.filter(has_text=re.compile(rf"^\s*{re.escape(absent)}\s*$"))
    expect(at_table).to_have_count(1)  # seated here until removed
    remove.locator("select[name=entry]").select_option(label=choice.text_content())
    remove.locator("select[name=kind]").select_option(label="No-show")
    remove.locator("[data-action=remove]").click()
    expect(_message(page)).to_have_text(
        re.compile(rf"^{re.escape(absent)} is removed from the tournament \(No-show\)")
    )
    # By the whole name in its cell: "Player 1" is gone while "Player 10" may sit at the same table.
    expect(at_table).to_have_count(0)
    expect(names).not_to_have_count(0)

    # Table 1 is in a hand: it cannot be counted now; its last input is taken back, then the misdeal.
    _open_table(page, 1)
    expect(page.locator("[data-role=in-a-hand]")).to_be_visible()
    hand = page.locator("[data-role=corrections] [data-table='1']")
    expect(hand.locator("[data-role=last-input]")).to_have_text(
        f"Last input: Seat {data['floor_caller']}: call"
    )
    shot(page, "console-floor.png", full_page=True)
    hand.locator("form:has([data-action=correct]) input[name=reason]").fill(
        "the dealer tapped call for a fold"
    )
    hand.locator("[data-action=correct]").click()
    expect(_message(page)).to_have_text(
        f"Hand {data['floor_hand']}: “Seat {data['floor_caller']}: call” is taken back; "
        "the dealer enters the right input."
    )
    expect(hand.locator("[data-role=last-input]")).to_have_text("No input yet.")
    hand.locator("form:has([data-action=void-hand]) input[name=reason]").fill("a card flashed on the deal")
    hand.locator("[data-action=void-hand]").click()
    expect(_message(page)).to_contain_text(f"Hand {data['floor_hand']} is void (misdeal)")
    assert page.dialogs[-1].startswith("Void the hand at table 1?")
    expect(page.locator("[data-role=corrections]")).to_contain_text("No hand is in progress at table 1.")
    expect(page.locator("[data-role=in-a-hand]")).to_have_count(0)  # table 1 may be counted now

    # The language kept on the account: the floor page in Italian, then back to the browser's.
    page.locator("[data-role=staff-language] select").select_option("it")
    page.click("[data-action=staff-language]")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator("a", has_text="Torna alla console")).to_be_visible()
    page.locator("[data-role=staff-language] select").select_option("")
    page.click("[data-action=staff-language]")
    expect(page.locator("a", has_text="Back to the console")).to_be_visible()
    page.offline.assert_clean()


def test_a_removal_clicked_before_the_pages_scripts_run_still_asks_first(server, browser):  # noqa: F811
    """The console's "are you sure?" questions (a bust, a removal, a void) are asked by a script in the
    page's head (static/live/confirm.js), not by the console's script at the page's end: a click in
    the moment after the rows are drawn and before that script has run (here it never loads) still
    asks, and a "no" changes nothing."""
    from playwright.sync_api import expect

    base, data = server
    context = browser.new_context(viewport=VIEWPORT)
    context.route("**/static/live/console.js", lambda route: route.abort())
    page = context.new_page()
    questions = []

    def say_no(dialog):
        questions.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", say_no)
    staff_signs_in(page, base, data["username"], data["password"])
    page.goto(f"{base}/console/{data['undo_tournament']}/")
    rows = page.locator("#entries tbody tr[data-entry]")
    expect(rows).to_have_count(3)
    row = rows.first
    row.locator("summary").click()
    row.locator("input[name=reason]").fill("no-show")
    row.locator("button.danger").click()
    page.wait_for_load_state()
    assert questions == ["Remove this player from the tournament?"]
    page.reload()
    expect(page.locator(".messages")).to_have_count(0)
    expect(rows).to_have_count(3)
    expect(rows.locator("details.remove")).to_have_count(3)  # all three still in
    context.close()
