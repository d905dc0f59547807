"""The dealer tablet is hard to mis-tap (issue 15, items 2 and 6): Fold when checking is free asks
first; the keypad's first digit replaces the amount shown (never appends to it), also when it is
opened again; every button that puts a player all-in says so (R5.7, R6.1).

Same server and browser as tests/screens/test_browser.py (its fixtures are shared).
"""

import re

import pytest

from tests.screens.test_browser import DOCS, browser, console, server  # noqa: F401  (shared fixtures)
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
    tablet.screenshot(path=str(DOCS / "tablet-fold-asks.png"))
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
    # Presets in chips: half and three quarters of the pot, the pot (R5.7), and the largest amount,
    # which is all-in, as the confirm button says.
    presets = tablet.locator(".presets button")
    roles = presets.evaluate_all("bs => bs.map(b => b.getAttribute('data-preset'))")
    assert roles[0] == "min" and roles[-1] == "max" and "half" in roles and "pot" in roles, roles
    amounts = [number(t) for t in presets.all_text_contents()]
    assert amounts == sorted(amounts) and len(set(amounts)) == len(amounts), amounts
    tablet.locator(".presets [data-preset=half]").click()
    expect(amount).to_have_text(f"{amounts[roles.index('half')]:,}".replace(",", ","))
    tablet.locator(".presets [data-preset=max]").click()
    expect(tablet.locator("[data-action=confirm-amount]")).to_contain_text("All-in")
    tablet.screenshot(path=str(DOCS / "tablet-keypad.png"))
    expect(tablet.locator("[data-action=max]")).to_contain_text("All-in")
    tablet.close()


def test_the_tablet_shows_the_break_and_deals_nothing_until_play_resumes(server, console):  # noqa: F811
    """Issue 15 item 5: the table's clock. On a break the header says so, with the level that follows
    as the clock shows it (its big-blind ante called so) and the time left; Deal is off (R8.7)."""
    from playwright.sync_api import expect

    base, data = server
    tablet = console.context.new_page()
    tablet.set_viewport_size({"width": 1024, "height": 768})
    tablet.goto(f"{base}/tablet/{data['break_table']}/")
    expect(tablet.locator("#tablet")).to_have_attribute("data-on-break", "true")
    expect(tablet.locator("[data-role=level]")).to_have_text("Break → 25/50 · BB ante 50")
    expect(tablet.locator("[data-role=time-left]")).to_have_text(re.compile(r"^\d+:\d\d left$"))
    first = tablet.locator("[data-role=time-left]").text_content()
    expect(tablet.locator("[data-role=time-left]")).not_to_have_text(first, timeout=3000)  # it counts down
    expect(tablet.locator("[data-role=break]")).to_contain_text("R8.7")
    expect(tablet.locator("[data-role=color-up]")).to_contain_text(
        "the 5 chips leave"
    )  # this break's color-up
    expect(tablet.locator("[data-action=start]")).to_be_disabled()
    tablet.screenshot(path=str(DOCS / "tablet-break.png"))
    tablet.close()


def test_a_network_drop_is_shown_at_once_and_the_input_made_meanwhile_is_sent_once_on_return(
    server,  # noqa: F811
    console,  # noqa: F811
):
    """Issue 15 item 7: the Wi-Fi drops. The tablet says so within 3 s; the dealer's next tap waits
    with its client_action_id and expected_seq and nothing else can be tapped; when the network is
    back it is sent, once, and the hand moves on."""
    from playwright.sync_api import expect

    base, data = server
    tablet = open_tablet(console, base, data["offline_table"])
    to_act = tablet.locator("[data-role=to-act]").text_content()
    tablet.context.set_offline(True)
    banner = tablet.locator("[data-role=offline-banner]")
    expect(banner).to_be_visible(timeout=3000)
    expect(banner).to_contain_text("No connection")
    call_text = tablet.locator("[data-action=call]").text_content()
    tablet.click("[data-action=call]")
    expect(banner).to_contain_text(call_text)
    expect(tablet.locator("[data-action=fold]")).to_be_disabled()  # one input waits, no more
    tablet.screenshot(path=str(DOCS / "tablet-offline.png"))
    tablet.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=10_000)
    expect(tablet.locator("[data-role=to-act]")).not_to_have_text(to_act, timeout=10_000)
    # Sent once: the next seat to act is the one after the caller, and the caller's call is in.
    expect(tablet.locator("[data-action=fold]")).to_be_enabled()
    tablet.close()


def test_a_pot_won_when_everyone_folds_names_its_winner_and_no_low(server, console):  # noqa: F811
    """Issue 15 item 10: the winner is highlighted on the seat, and a Hi/Lo pot nobody contested says
    nothing about a low (there was no showdown, R6.4)."""
    from playwright.sync_api import expect

    base, data = server
    tablet = open_tablet(console, base, data["folds_table"])
    tap(tablet, "[data-action=fold]")
    tap(tablet, "[data-action=fold]")
    result = tablet.locator("[data-role=result]")
    expect(result).to_be_visible()
    expect(result.locator("[data-role=award]")).to_have_count(1)
    expect(result).not_to_contain_text("No qualifying low")
    winner = result.locator("[data-role=award]").get_attribute("data-seat")
    expect(tablet.locator(".seat.winner")).to_have_count(1)
    expect(tablet.locator(f".seat.winner[data-seat='{winner}']")).to_have_count(1)
    tablet.close()


def test_a_tablet_reloaded_while_offline_opens_from_the_cache_and_says_so(server, console):  # noqa: F811
    """Issue 15 item 7: the page reloads from the browser's cache when offline (its service worker)
    and says it is offline, instead of the browser's error page."""
    from playwright.sync_api import expect

    base, data = server
    tablet = console.context.new_page()
    tablet.set_viewport_size({"width": 1024, "height": 768})
    tablet.goto(f"{base}/tablet/{data['offline_table']}/")
    expect(tablet.locator("#tablet")).to_have_attribute("data-version", re.compile(r"\d+"))
    tablet.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    tablet.reload()  # once online, so the worker keeps the page and every file it loads
    expect(tablet.locator("#tablet")).to_have_attribute("data-version", re.compile(r"\d+"))
    tablet.context.set_offline(True)
    try:
        tablet.reload()
        expect(tablet.locator("#tablet")).to_be_visible()
        expect(tablet.locator("[data-role=offline-banner]")).to_be_visible(timeout=3000)
        expect(tablet.locator("[data-role=offline-banner]")).to_contain_text("No connection")
    finally:
        tablet.context.set_offline(False)
    tablet.close()


def test_the_floor_takes_a_mis_tap_back_on_the_tablet_with_the_floor_pin(server, console):  # noqa: F811
    """Issue 15 item 6: the director sets the floor PIN in the console; at the table the dealer taps
    "Undo last input", the floor gives the reason and types the PIN, and the hand is back before it."""
    from playwright.sync_api import expect

    base, data = server
    console.goto(f"{base}/console/{data['undo_tournament']}/")
    console.fill("[data-role=floor-pin] input[name=pin]", "2468")
    console.click("[data-action=set-floor-pin]")
    expect(console.locator(".messages")).to_contain_text("floor PIN is set")

    tablet = open_tablet(console, base, data["undo_table"])
    first = tablet.locator("[data-role=to-act]").text_content()
    tap(tablet, "[data-action=call]")
    expect(tablet.locator("[data-role=to-act]")).not_to_have_text(first)
    tablet.click("[data-action=undo]")
    tablet.fill("[data-role=undo-box] input[name=reason]", "called for the wrong seat")
    tablet.fill("[data-role=undo-box] input[name=pin]", "1111")
    tablet.click("[data-action=undo-confirm]")
    expect(tablet.locator("[data-role=failure]")).to_contain_text("not the floor's PIN")
    tablet.click("[data-action=undo]")
    tablet.fill("[data-role=undo-box] input[name=reason]", "called for the wrong seat")
    tablet.fill("[data-role=undo-box] input[name=pin]", "2468")
    # The director takes a minute off the clock meanwhile: the push re-draws the tablet, and what the
    # floor typed stays.
    seen = tablet.locator("#tablet").get_attribute("data-tournament-version")
    console.click("[data-action=remove-minute]")
    expect(tablet.locator("#tablet")).not_to_have_attribute("data-tournament-version", seen or "")
    expect(tablet.locator("[data-role=undo-box] input[name=reason]")).to_have_value(
        "called for the wrong seat"
    )
    expect(tablet.locator("[data-role=undo-box] input[name=pin]")).to_have_value("2468")
    tablet.screenshot(path=str(DOCS / "tablet-undo.png"))
    tap(tablet, "[data-action=undo-confirm]")
    expect(tablet.locator("[data-role=to-act]")).to_have_text(first)  # the same seat is asked again
    tablet.close()


def test_the_button_and_blinds_show_before_the_first_hand_and_the_hand_keeps_them(server, console):  # noqa: F811
    """Issue 15 item 10: before the first hand the dealer sees where the button and the blinds will be
    (R3.5); the hand then dealt has exactly those positions."""
    from playwright.sync_api import expect

    base, data = server
    tablet = console.context.new_page()
    tablet.set_viewport_size({"width": 1024, "height": 768})
    tablet.goto(f"{base}/tablet/{data['positions_table']}/")
    expect(tablet.locator("#tablet")).to_have_attribute("data-version", re.compile(r"\d+"))

    def marked():
        return {
            kind: tablet.locator(f".seat:has(.mark.{kind})").get_attribute("data-seat")
            for kind in ("btn-mark", "sb", "bb")
        }

    expect(tablet.locator(".seat .mark.btn-mark")).to_have_count(1)
    before = marked()
    assert None not in before.values() and len(set(before.values())) == 3, before
    tap(tablet, "[data-action=start]")
    assert marked() == before
    tablet.close()
