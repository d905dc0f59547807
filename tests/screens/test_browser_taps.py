"""The dealer tablet is hard to mis-tap (issue 15, items 2 and 6): Fold when checking is free asks
first; the keypad's first digit replaces the amount shown (never appends to it), also when it is
opened again; every button that puts a player all-in says so (R5.7, R6.1).

Same server and browser as tests/screens/test_browser.py (its fixtures are shared).
"""

import re

import pytest

from tests.screens.test_browser import browser, console, server  # noqa: F401  (shared fixtures)
from tests.screens.test_browser_all_in import open_tablet, tap

pytestmark = pytest.mark.browser


def number(text: str) -> int:
    return int(re.sub(r"\D", "", text))


def test_fold_asks_when_check_is_free_and_the_keypad_replaces_the_preset(server, console):  # noqa: F811
    from playwright.sync_api import expect

    base, data = server
    tablet = open_tablet(console, base, data["taps_table"])
    # Pre-flop: the first two call the big blind; the big blind may check.
    tap(tablet, "[data-action=call]")
    tap(tablet, "[data-action=call]")
    expect(tablet.locator("[data-action=check]")).to_be_visible()
    version = tablet.locator("#tablet").get_attribute("data-version")
    tablet.click("[data-action=fold]")
    fold = tablet.locator("[data-action=fold]")
    expect(fold).to_have_attribute("data-asked", "true")
    expect(fold).to_have_text("Check is free: tap again to fold")
    assert tablet.locator("#tablet").get_attribute("data-version") == version  # nothing was sent
    tap(tablet, "[data-action=check]")

    # The flop: a bet typed on the keypad replaces the preset, and again after reopening.
    tablet.click("[data-action=open-amount]")
    amount = tablet.locator("[data-role=amount]")
    preset = number(amount.text_content())
    for key in "60":
        tablet.click(f".keypad button:text-is('{key}')")
    expect(amount).to_have_text("60")
    assert preset != 60
    tablet.click("[data-action=open-amount]")  # close
    tablet.click("[data-action=open-amount]")  # and open again: the preset, then a fresh number
    expect(amount).to_have_text(re.compile(re.escape(f"{preset:,}".replace(",", r"[,\u202f\u00a0 ]?"))))
    for key in "80":
        tablet.click(f".keypad button:text-is('{key}')")
    expect(amount).to_have_text("80")
    # The largest amount is all-in, and the confirm button says so.
    tablet.locator(".presets button").nth(1).click()
    expect(tablet.locator("[data-action=confirm-amount]")).to_contain_text("All-in")
    expect(tablet.locator("[data-action=max]")).to_contain_text("All-in")
    tablet.close()
