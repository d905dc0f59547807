"""Browser tests of the all-in run-out (R6.2, R4.6; TDA 16): a dealer taps an all-in and a call,
"Turn the hands face up", then the flop, the turn and the river one by one, while the public feature
table shows the face-up hands and their equity street by street; under hand-for-hand the tablet waits
until the floor releases the run-out from the console (R8.6, TDA RP-8F).

Same server and browser as tests/screens/test_browser.py (its fixtures are shared).
"""

import re

import pytest

from tests.screens.test_browser import DOCS, browser, console, server  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.browser


def wait_for_new_version(page, root_id, version):
    page.wait_for_function(
        "([id, v]) => document.getElementById(id).getAttribute('data-version') !== v", arg=[root_id, version]
    )


def tap(tablet, selector):
    version = tablet.locator("#tablet").get_attribute("data-version")
    tablet.click(selector)
    wait_for_new_version(tablet, "tablet", version)


def open_tablet(page, base, table_id):
    """The director opens the table's tablet page (staff may) and deals a hand."""
    from playwright.sync_api import expect

    tablet = page.context.new_page()
    tablet.set_viewport_size({"width": 1024, "height": 768})
    tablet.goto(f"{base}/tablet/{table_id}/")
    expect(tablet.locator("#tablet")).to_have_attribute("data-version", re.compile(r"\d+"))
    tap(tablet, "[data-action=start]")
    return tablet


def test_an_all_in_is_turned_face_up_then_run_out_street_by_street_on_the_feature_table(
    server,  # noqa: F811
    browser,  # noqa: F811
    console,  # noqa: F811
):
    from playwright.sync_api import expect

    base, data = server
    table_id = data["all_in_table"]
    audience = browser.new_context(viewport={"width": 1280, "height": 720})
    feature = audience.new_page()
    feature.goto(f"{base}/feature/{table_id}/")  # no sign-in
    expect(feature.locator("#feature")).to_have_attribute("data-version", re.compile(r"\d+"))

    # The director's console is open on this tournament: its all-ins panel follows the hand live.
    console.goto(f"{base}/console/{data['all_in_tournament']}/")
    panel = console.locator("#all-ins")
    expect(panel).to_contain_text("No all-in in progress.")
    navigations = []
    console.on("framenavigated", lambda frame: navigations.append(frame.url))

    tablet = open_tablet(console, base, table_id)
    expect(feature.locator("[data-role=board] .card-face[data-card]")).to_have_count(1)  # R4.2
    # All-in, called, and the third player folds: betting is closed.
    expect(tablet.locator("[data-action=max]")).to_contain_text("All-in")
    tap(tablet, "[data-action=max]")
    expect(tablet.locator("[data-action=call]")).to_contain_text("All-in")
    tap(tablet, "[data-action=call]")
    tap(tablet, "[data-action=fold]")
    face_up = tablet.locator("[data-action=face-up]")
    expect(face_up).to_have_text("Turn the hands face up")
    expect(tablet.locator("[data-role=to-act]")).to_contain_text("R6.2")
    # Not yet face up: neither the tablet nor the feature table shows a hole card.
    expect(tablet.locator(".seat .shown .card-face")).to_have_count(0)
    expect(feature.locator("[data-role=cards] .card-face")).to_have_count(0)
    expect(feature.locator("[data-role=share]")).to_have_count(0)
    tablet.screenshot(path=str(DOCS / "tablet-face-up.png"))

    # Betting closed with an all-in: the console lists the table, the hands still face down.
    expect(panel.locator("[data-role=all-in]")).to_have_count(1)
    expect(panel).to_contain_text("hands not yet face up")
    tablet.click("[data-action=face-up]")
    expect(tablet.locator(".seat .shown .card-face")).to_have_count(10)
    # Face up: each player's equity, in the console too, without reloading it.
    expect(panel.locator("[data-role=share]").first).to_contain_text("%")
    assert navigations == [], navigations
    expect(feature.locator("[data-role=cards] .card-face")).to_have_count(10)
    expect(feature.locator("[data-role=share]")).to_have_count(2)
    shares = feature.locator("[data-role=share]").all_text_contents()
    assert all(re.fullmatch(r"\d+\.\d %", s) for s in shares), shares
    expect(tablet.locator("[data-role=board] .card-face[data-card]")).to_have_count(1)  # nothing dealt yet

    for street, cards in (("flop", 3), ("turn", 4), ("river", 5)):
        button = tablet.locator("[data-action=deal]")
        expect(button).to_have_attribute("data-street", street)
        expect(button).to_have_text(f"Deal the {street}")
        before = feature.locator("[data-role=share]").all_text_contents()
        tablet.click("[data-action=deal]")
        expect(tablet.locator("[data-role=board] .card-face[data-card]")).to_have_count(cards)
        expect(feature.locator("[data-role=board] .card-face[data-card]")).to_have_count(cards)
        if street == "flop":
            expect(feature.locator("[data-role=share]")).to_have_count(2)
            feature.wait_for_function(
                "b => JSON.stringify([...document.querySelectorAll('[data-role=share]')].map(e => e.textContent)) !== b",
                arg=str(before).replace("'", '"'),
            )
        if street == "turn":
            feature.screenshot(path=str(DOCS / "feature-table.png"))
    expect(tablet.locator("[data-role=result]")).to_be_visible()
    expect(tablet.locator("[data-role=award]").first).to_be_visible()
    expect(feature.locator("[data-role=award]").first).to_be_visible()
    expect(feature.locator("[data-role=share]")).to_have_count(0)
    tablet.close()
    audience.close()


def test_under_hand_for_hand_the_tablet_waits_until_the_console_releases_the_run_out(
    server,  # noqa: F811
    console,  # noqa: F811
):
    from playwright.sync_api import expect

    base, data = server
    tablet = open_tablet(console, base, data["held_table"])
    tap(tablet, "[data-action=max]")
    tap(tablet, "[data-action=call]")
    tap(tablet, "[data-action=face-up]")
    hold = tablet.locator("[data-role=hold]")
    expect(hold).to_contain_text("waiting for the floor")
    expect(tablet.locator("[data-action=deal]")).to_have_count(0)
    expect(tablet.locator("[data-role=board] .card-face[data-card]")).to_have_count(1)

    console.goto(f"{base}/console/{data['held_tournament']}/")
    panel = console.locator("[data-live-panel=all-ins]")
    expect(panel.locator("[data-role=hold]")).to_contain_text("waiting for the floor")
    expect(panel.locator("[data-role=share]")).to_have_count(2)
    panel.screenshot(path=str(DOCS / "console-all-in.png"))
    console.click("[data-action=release]")
    expect(console.locator(".messages")).to_contain_text("may deal its run-out")

    expect(hold).to_have_count(0)
    for street, cards in (("flop", 3), ("turn", 4), ("river", 5)):
        expect(tablet.locator("[data-action=deal]")).to_have_attribute("data-street", street)
        tablet.click("[data-action=deal]")
        expect(tablet.locator("[data-role=board] .card-face[data-card]")).to_have_count(cards)
    expect(tablet.locator("[data-role=result]")).to_be_visible()
    tablet.close()
