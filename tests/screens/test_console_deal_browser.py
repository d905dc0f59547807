"""A director makes a deal at the final table in the browser, with clicks and typing only: busts the
two short stacks of a final table of five (R8.8), stops the clock for deal talk, works out a 3-way
ICM deal with 500 left to play for, ticks that every player agrees, records it, plays on to the end,
and finds the deal's amounts and the winner's extra on the results page.

Chromium (Playwright) against the browser tests' server (tests/screens/browser_server.py, scenario
``deal_scenario``); docs/console-deal.png with LIVE_SCREENSHOTS=1.
"""

import pytest

from tests.screens.test_console_browser import (  # noqa: F401 (shared fixtures)
    browser,
    bust,
    director,
    remove,
    server,
    shot,
)
from tournaments import deals

pytestmark = pytest.mark.browser

# The scenario: 5 × 1,000 paid 2,500/1,500/1,000; the three left hold 2,500, 1,500 and 1,000 chips.
STACKS = [2500, 1500, 1000]
PRIZES = [2500, 1500, 1000]
LEFT = 500


def test_a_three_way_icm_deal_with_money_left_to_play_for_is_recorded_and_paid(server, director):  # noqa: F811
    from playwright.sync_api import expect

    base, data = server
    tid = data["deal_tournament"]
    page = director
    page.goto(f"{base}/console/{tid}/")
    # The two short stacks lost their last hand: bust them (places 5 and 4, R8.8).
    for name in ("Player 5", "Player 4"):
        bust(page, name)
    # The three left ask for a deal: the director opens the deal page from the payouts panel.
    page.click("#payouts [data-action=deal]")
    page.click("[data-action=start-talk]")
    expect(page.locator(".messages")).to_contain_text("the clock is paused")
    page.select_option("[data-role=kind]", "icm")
    page.fill("[data-role=left]", str(LEFT))
    page.click("[data-action=work-out]")
    expected = deals.propose("icm", STACKS, PRIZES, LEFT)
    rows = page.locator("[data-role=deal-proposal] tbody tr")
    expect(rows).to_have_count(3)
    for i, (chips, amount, without) in enumerate(zip(STACKS, expected.amounts, expected.without_deal)):
        cells = rows.nth(i).locator("td")
        expect(cells.nth(0)).to_have_text(f"Player {i + 1}")
        expect(cells.nth(1)).to_have_text(str(chips))
        expect(cells.nth(2)).to_have_text(str(without))
        expect(cells.nth(3).locator("[data-role=deal-amount]")).to_have_text(str(amount))
    # Two players agree, the third has not yet: the deal is refused and nothing is recorded.
    page.check("[aria-label='Player 1 agrees']")
    page.check("[aria-label='Player 2 agrees']")
    page.click("[data-action=record-deal]")
    expect(page.locator(".messages")).to_contain_text("Player 3 has not")
    expect(page.locator("[data-role=deal-recorded]")).to_have_count(0)
    for i in (1, 2, 3):
        page.check(f"[aria-label='Player {i} agrees']")
    page.click("[data-action=record-deal]")
    expect(page.locator(".messages")).to_contain_text("The deal is recorded")
    expect(page.locator("[data-role=deal-shares] [data-role=deal-amount]")).to_have_text(
        [str(a) for a in expected.amounts]
    )
    shot(page, "console-deal.png", full_page=True)
    # Recording the deal ended the talk: the clock runs again.
    page.goto(f"{base}/console/{tid}/")
    expect(page.locator("[data-action=pause]")).to_be_visible()
    # Play on: the big stack goes out third, then the middle one; the short stack wins it all.
    remove(page, "Player 1", "lost the hand at the final table")
    remove(page, "Player 2", "lost heads-up")
    page.goto(f"{base}/console/{tid}/results/")
    results = page.locator("[data-role=results] tbody tr")
    expect(results.nth(0).locator("td").nth(1)).to_have_text("Player 3")
    winner = expected.amounts[2] + LEFT
    expect(results.nth(0).locator("td").nth(2)).to_have_text(str(winner))
    expect(results.nth(0).locator("[data-role=deal-cell]")).to_have_text(
        f"deal {expected.amounts[2]} + {LEFT} left to play for"
    )
    expect(results.nth(1).locator("td").nth(2)).to_have_text(str(expected.amounts[1]))
    expect(results.nth(2).locator("td").nth(2)).to_have_text(str(expected.amounts[0]))
    expect(page.locator("[data-role=deal-summary]")).to_contain_text(f"{LEFT} was left to play for")
    page.offline.assert_clean()
