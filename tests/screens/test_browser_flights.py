"""A three-flight event run to its winner through the console, in a real browser (docs/festivals.md).

Three flights of six (Day 1A, 1B, 1C), each stopping at three players left; busts entered in the
console ("Out", chips to the winner at the table, R6.7); each table counted and bagged (a miscount is
refused, R6.7); Day 2 drawn with the nine survivors and their bagged chips (R8.1); its busts entered
until one player is left; the event's results show the winner with the first prize.

The screenshot docs/console-flights.png is the Day 1A page while the floor bags (with
LIVE_SCREENSHOTS=1 it replaces the one in docs/).
"""

import re

import pytest

from tests.screens.test_browser import DOCS, browser, console, server  # noqa: F401  (the module's fixtures)

pytestmark = pytest.mark.browser

FLIGHTS = ("Day 1A", "Day 1B", "Day 1C")


def click_and_wait(page, selector):
    with page.expect_navigation():
        page.click(selector)


def eliminate_one(page) -> bool:
    """The last player of the first table that has two or more goes out, chips to the first other
    player there (the select's first choice). False when no table has two players left."""
    for table in page.locator("#tables .tbl").all():
        forms = table.locator("form[data-form=eliminate]")
        if forms.count() >= 2:
            with page.expect_navigation():
                forms.last.locator("[data-action=eliminate]").click()
            return True
    return False


def bag_every_table(page, prefix: str, miscount_first: bool = False) -> None:
    from playwright.sync_api import expect

    number = 0
    while page.locator("form[data-form=bag]").count():
        form = page.locator("form[data-form=bag]").first
        rows = form.locator("tbody tr").all()
        for i, row in enumerate(rows):
            recorded = int(row.locator("[data-recorded]").get_attribute("data-recorded"))
            if miscount_first and i == 0:
                recorded -= 100
            number += 1
            row.locator("input[name^=chips-]").fill(f"{recorded:,}")
            row.locator("input[name^=bag-]").fill(f"{prefix}-{number:02d}")
        if miscount_first:
            # The bag-and-tag view of the table before it is sealed: the docs' screenshot.
            page.screenshot(path=str(DOCS / "console-flights.png"), full_page=True)
        with page.expect_navigation():
            form.locator("[data-action=bag-table]").click()
        if miscount_first:
            expect(page.locator(".msg.error")).to_contain_text("(-100): count again (R6.7)")
            miscount_first = False
            number = 0
            continue


def test_a_three_flight_event_runs_to_its_winner_through_the_console(server, console):  # noqa: F811
    from playwright.sync_api import expect

    base, _data = server
    page = console
    page.goto(f"{base}/console/")
    click_and_wait(page, "[data-action=events]")
    form = page.locator("form[data-form=new-event]")
    form.locator("input[name=name]").fill("Browser Millions")
    form.locator("select[name=structure]").select_option(label="Regular - No Limit")
    form.locator("input[name=flights]").fill(", ".join(FLIGHTS))
    form.locator("input[name=buy_in]").fill("100")
    form.locator("input[name=stop_at_players]").fill("3")
    with page.expect_navigation():
        form.locator("[data-action=create-event]").click()
    expect(page.locator("h1")).to_contain_text("Browser Millions")
    event_url = page.url

    for f, label in enumerate(FLIGHTS):
        page.goto(event_url)
        click_and_wait(page, f"tr[data-flight='{label}'] a >> nth=0")
        expect(page.locator("h1")).to_contain_text(label)
        for i in range(6):
            page.fill("input[name=name]", f"{label[-2:]} Player {i + 1}")
            click_and_wait(page, "[data-action=register]")
        click_and_wait(page, "[data-action=draw]")
        click_and_wait(page, "[data-action=start]")
        if f == 0:
            # A player still in Day 1A cannot enter Day 1B at the same time.
            flight_url = page.url
            page.goto(event_url)
            click_and_wait(page, "tr[data-flight='Day 1B'] a >> nth=0")
            page.fill("input[name=name]", "1A Player 1")
            click_and_wait(page, "[data-action=register]")
            expect(page.locator(".msg.error")).to_contain_text(
                "1A Player 1 is still playing Day 1A: a player cannot play two flights at once."
            )
            page.goto(flight_url)
        expect(page.locator("[data-role=players-left]")).to_have_text("6")
        while page.locator("[data-action=stop]").count() == 0:
            assert eliminate_one(page)
        expect(page.locator("[data-role=players-left]")).to_have_text("3")
        click_and_wait(page, "[data-action=stop]")
        expect(page.locator(".msg.success")).to_contain_text("Play has stopped")
        bag_every_table(page, label[-2:], miscount_first=(f == 0))
        expect(page.locator("h1")).to_contain_text("bagged")
        if f == 0:
            # The bag-and-tag sheet of Day 1A: three bags holding the flight's 6 × 20,000 chips.
            click_and_wait(page, "[data-action=bag-sheet]")
            expect(page.locator("[data-role=bags] tbody tr")).to_have_count(3)
            expect(page.locator("[data-role=total]")).to_have_text("120000")

    # Every flight has bagged: one prize pool from the 18 entries, nine survivors, Day 2 drawn.
    page.goto(event_url)
    expect(page.locator("[data-role=entries]")).to_have_text("18")
    expect(page.locator("[data-role=prize-pool]")).to_have_text("1800")
    expect(page.locator("[data-role=players-left]")).to_have_text("9")
    click_and_wait(page, "[data-action=draw-next-day]")
    expect(page.locator("h1")).to_contain_text("Day 2")
    expect(page.locator("[data-role=players-left]")).to_have_text("9")
    click_and_wait(page, "[data-action=start]")
    # The final table is fast-forwarded: busts entered in the console until one player is left.
    for _ in range(20):
        if page.locator("[data-role=winner]").count():
            break
        assert eliminate_one(page), page.locator("#tables").inner_text()
    expect(page.locator("[data-role=winner]")).to_contain_text("wins the event")
    winner = re.match(r"(.+) wins the event", page.locator("[data-role=winner]").inner_text()).group(1)

    page.goto(event_url)
    first = page.locator("[data-role=results] tbody tr").first
    expect(first).to_contain_text(winner)
    expect(first.locator("td").first).to_have_text("1")
    expect(page.locator("[data-role=results] tbody tr")).to_have_count(9)
    prize = int(first.locator("td").last.inner_text())
    assert prize > 0
