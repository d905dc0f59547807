"""The floor's seating work in the browser, clicks and typing only: on the console's seating page the
director locks a seat, reserves one, opens a table, breaks another and sees its players moved (R8.4),
moves a player with a reason, then puts the seating chart on the clock screens, checks it on a paired
clock screen, and turns it off again. Chromium (Playwright) against the browser tests' daphne server
(tests/screens/browser_server.py, its "Seats and tables" scenario)."""

import re

import pytest

from tests.screens.test_browser import DOCS
from tests.screens.test_console_browser import (  # noqa: F401 (shared fixtures)
    VIEWPORT,
    Offline,
    browser,
    server,
    staff_signs_in,
)

pytestmark = pytest.mark.browser


def chart_of(page) -> dict[int, dict[int, str]]:
    """table -> seat -> what the seating page shows there."""
    chart = {}
    for table in page.locator("#tables .tbl").all():
        number = int(table.get_attribute("data-table"))
        chart[number] = {
            int(li.get_attribute("data-seat")): li.inner_text().strip() for li in table.locator("li").all()
        }
    return chart


def players_at(chart, number) -> dict[int, str]:
    return {
        s: text for s, text in chart[number].items() if text not in ("open",) and "reserved for" not in text
    }


def message(page):
    return page.locator(".messages")


def test_the_director_locks_reserves_opens_breaks_moves_and_shows_the_chart_on_the_clock(server, browser):  # noqa: F811
    from playwright.sync_api import expect

    base, data = server
    tid = data["seating_tournament"]
    context = browser.new_context(viewport=VIEWPORT)
    offline = Offline(context, base)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # "Break this table now?"
    staff_signs_in(page, base, data["username"], data["password"])
    page.goto(f"{base}/console/{tid}/")
    page.click("[data-action=seating-page]")
    page.wait_for_url(f"{base}/console/{tid}/seating/")

    chart = chart_of(page)
    assert sorted(chart) == [1, 2, 3]
    open_at = {n: [s for s, text in seats.items() if text == "open"] for n, seats in chart.items()}

    # Lock an empty seat at table 1, and lock table 3's first player: the reasons show on the page.
    lock = page.locator("[data-role=lock]")
    lock.locator("input[name=table]").fill("1")
    lock.locator("input[name=seat]").fill(str(open_at[1][0]))
    lock.locator("input[name=reason]").fill("wobbly chair")
    lock.locator("[data-action=lock]").click()
    expect(message(page)).to_contain_text(f"Table 1 seat {open_at[1][0]} is locked: wobbly chair.")
    # Reserve an empty seat at table 2 for a player on her way.
    reserve = page.locator("[data-role=reserve]")
    reserve.locator("input[name=table]").fill("2")
    reserve.locator("input[name=seat]").fill(str(open_at[2][0]))
    reserve.locator("input[name=player]").fill("Zoé Martin")
    reserve.locator("input[name=reason]").fill("registered by phone")
    reserve.locator("[data-action=reserve]").click()
    expect(message(page)).to_contain_text("is kept for Zoé Martin")
    held = page.locator("[data-role=held]")
    expect(held).to_contain_text(f"Table 1 seat {open_at[1][0]}: locked empty (wobbly chair)")
    expect(held).to_contain_text(
        f"Table 2 seat {open_at[2][0]}: reserved for Zoé Martin (registered by phone)"
    )
    expect(page.locator(f'#tables .tbl[data-table="2"] li[data-seat="{open_at[2][0]}"]')).to_have_text(
        "reserved for Zoé Martin"
    )

    # Table 3's six players do not fit in the four open seats left: the break is refused, nothing moves.
    breaking = page.locator("[data-role=break-table]")
    breaking.locator("select[name=table]").select_option("3")
    breaking.locator("[data-action=break-table]").click()
    expect(message(page)).to_contain_text("open a table first")
    assert chart_of(page)[3] == chart[3]

    # The director opens table 4, then breaks table 3: its players are drawn to open seats (R8.4).
    page.locator("[data-role=open-table] [data-action=open-table]").click()
    expect(message(page)).to_contain_text("Table 4 is open (8 seats)")
    leaving = set(players_at(chart, 3).values())
    assert len(leaving) == 6
    breaking = page.locator("[data-role=break-table]")
    breaking.locator("select[name=table]").select_option("3")
    breaking.locator("[data-action=break-table]").click()
    expect(message(page)).to_contain_text("Table 3 is broken: 6 players moved (R8.4).")
    after = chart_of(page)
    assert 3 not in after
    seated_now = {text for n in after for text in players_at(after, n).values()}
    assert leaving <= seated_now
    # The locked and the reserved seats were not given to anybody (other seats were open).
    assert after[1][open_at[1][0]].startswith("open")
    assert after[2][open_at[2][0]] == "reserved for Zoé Martin"
    moves = page.locator("[data-role=recent-moves] tbody")
    for name in leaving:
        expect(moves).to_contain_text(name)
    expect(moves).to_contain_text("Table break")

    # A manual move with a reason: a player of table 1 goes to an open seat of table 4.
    mover = sorted(players_at(after, 1).values())[0]
    to_seat = next(s for s, text in after[4].items() if text == "open")
    move = page.locator("[data-role=move]")
    move.locator("input[name=player]").fill(mover.lower())
    move.locator("input[name=table]").fill("4")
    move.locator("input[name=seat]").fill(str(to_seat))
    move.locator("input[name=reason]").fill("closer to the rail")
    move.locator("[data-action=move]").click()
    expect(message(page)).to_contain_text(f"{mover} moves to table 4, seat {to_seat}.")
    expect(page.locator(f'#tables .tbl[data-table="4"] li[data-seat="{to_seat}"]')).to_have_text(mover)
    expect(moves.locator("tr").first).to_contain_text("Moved by the director: closer to the rail")

    # A clock screen of the tournament, paired with the code the console shows.
    page.goto(f"{base}/console/{tid}/")
    page.click("[data-action=pair-clock]")
    code = page.text_content("[data-role=pairing-code]").strip()
    screen = browser.new_context(viewport={"width": 1920, "height": 1080})
    screen_offline = Offline(screen, base)
    clock = screen.new_page()
    clock.goto(f"{base}/pair/")
    clock.fill("input[name=code]", code)
    clock.click("button[type=submit]")
    clock.wait_for_url(f"{base}/clock/{tid}/")
    root = clock.locator("[data-clock]")
    expect(clock.locator("[data-clock] [data-role=level]")).to_have_text("Level 1")
    expect(clock.locator("[data-role=chart]")).to_be_hidden()

    # The chart goes on: every clock screen shows the names, alphabetical, with table and seat.
    page.goto(f"{base}/console/{tid}/seating/")
    page.click("[data-action=chart-on]")
    expect(message(page)).to_contain_text("The clock screens show the seating chart.")
    expect(clock.locator("[data-role=chart]")).to_be_visible(timeout=10000)
    expect(root).to_have_attribute("data-chart-page", "1")
    rows = clock.locator("[data-role=chart-rows] li")
    expect(rows).to_have_count(18)
    names = [rows.nth(i).locator(".who").inner_text() for i in range(18)]
    assert names == sorted(names, key=str.casefold)
    expect(rows.nth(names.index(mover)).locator(".where")).to_have_text(f"4 · {to_seat}")
    expect(clock.locator("[data-role=chart-page]")).to_contain_text("Page 1 of 1")
    expect(clock.locator("[data-role=chart-clock]")).to_have_text(re.compile(r"^Level 1 · \d+:\d\d$"))
    expect(clock.locator(".clock-grid")).to_be_hidden()
    clock.wait_for_timeout(300)
    clock.screenshot(path=str(DOCS / "clock-seating-chart.png"))

    # And off again: the clock is back.
    page.click("[data-action=chart-off]")
    expect(message(page)).to_contain_text("The clock screens show the clock again.")
    expect(clock.locator("[data-role=chart]")).to_be_hidden(timeout=10000)
    expect(clock.locator(".clock-grid")).to_be_visible()
    expect(clock.locator("[data-clock] [data-role=time]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    offline.assert_clean()
    screen_offline.assert_clean()
    screen.close()
    context.close()
