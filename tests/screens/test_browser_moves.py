"""The dealer tablet after a seat move between hands (issue 15, item 1): a seat shows only the player
sitting there now (name and stack), never the cards, all-in tag or stack of the player who sat there in
the last hand; that hand's result stays shown apart from the seats until the next hand (R8.3).

Same server and browser as tests/screens/test_browser.py (its fixtures are shared).
"""

import re

import pytest

from tests.screens.test_browser import DOCS, browser, console, server  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.browser


def test_a_seat_shows_only_its_new_player_after_a_move_between_hands(server, console):  # noqa: F811
    from playwright.sync_api import expect

    base, data = server
    tablet = console.context.new_page()
    tablet.set_viewport_size({"width": 1024, "height": 768})
    tablet.goto(f"{base}/tablet/{data['moved_table']}/")
    expect(tablet.locator("#tablet")).to_have_attribute("data-version", re.compile(r"\d+"))
    seat = tablet.locator(f".seat[data-seat='{data['moved_seat']}']")
    expect(seat.locator(".name")).to_contain_text(data["moved_in"])
    expect(seat.locator(".stack")).to_have_text(re.compile(r"^[\d,.\s  ]+$"))  # a stack, no "All-in"
    shown = seat.locator(".stack").text_content()
    assert int(re.sub(r"\D", "", shown)) == data["moved_in_chips"], shown
    expect(seat.locator(".shown .card-face")).to_have_count(0)  # not the cards the last player showed
    expect(tablet.locator(".seat .shown .card-face")).to_have_count(0)  # no seat wears the last hand
    # The last hand's result is still there, apart from the seats, until the next hand starts.
    expect(tablet.locator("[data-role=result]")).not_to_be_empty()
    tablet.screenshot(path=str(DOCS / "tablet-after-a-move.png"))
    # Item 8: one compact line per move. The player who left waits for the dealer's Done; the one who
    # arrived is seated (the seat map shows them), so no "arrives" line stays.
    moves = tablet.locator("[data-role=moves] [data-role=move]")
    expect(moves).to_have_count(1)
    expect(moves.first).not_to_contain_text("arrives")
    expect(moves.first).not_to_contain_text("(Done)")
    expect(tablet.locator("[data-action=move-done]")).to_have_count(1)
    tablet.click("[data-action=move-done]")
    expect(tablet.locator("[data-role=moves]")).to_have_count(0)
    tablet.close()


def test_a_broken_tables_tablet_keeps_the_last_result_and_sends_nobody_to_a_seat(server, console):  # noqa: F811
    """R8.4: the table broke after its hand: its tablet says so, shows no player on any seat (they sit
    elsewhere now), deals nothing, and still shows who won the last pot (issue 15 item 1)."""
    from playwright.sync_api import expect

    base, data = server
    tablet = console.context.new_page()
    tablet.set_viewport_size({"width": 1024, "height": 768})
    tablet.goto(f"{base}/tablet/{data['broken_table']}/")
    expect(tablet.locator("#tablet")).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(tablet.locator(".seat:not(.empty)")).to_have_count(0)
    expect(tablet.locator("[data-role=result] [data-role=award]")).to_have_count(1)
    expect(tablet.locator("[data-action=start]")).to_be_disabled()
    tablet.screenshot(path=str(DOCS / "tablet-broken-table.png"))
    tablet.close()


def test_after_the_final_table_redraw_the_tablet_shows_the_new_seating(server, console):  # noqa: F811
    """R8.5: the final table is redrawn; its tablet shows the seven players where they sit now, and
    its moves as one compact line each."""
    from playwright.sync_api import expect

    base, data = server
    tablet = console.context.new_page()
    tablet.set_viewport_size({"width": 1024, "height": 768})
    tablet.goto(f"{base}/tablet/{data['final_table']}/")
    expect(tablet.locator("#tablet")).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(tablet.locator(".seat:not(.empty)")).to_have_count(7)
    # Every player the redraw kept in their seat has no line (tests/screens/test_tablet_moves.py checks
    # the rule); each line left is one compact move with its Done.
    moves = tablet.locator("[data-role=move]")
    assert moves.count() <= 7
    for i in range(moves.count()):
        expect(moves.nth(i)).not_to_contain_text("(Done)")
    tablet.close()
