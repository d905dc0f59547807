"""A dealer tablet says the server is lost within 3 s (issue 15 item 7) while costing the servers one
frame every 2 s at a quiet table, not a ping's round trip (issue 11, screens.heartbeat): the tablet
asks for the server's heartbeat and pings only when it is late.

Same server and browser as tests/screens/test_browser.py (its fixtures are shared). The socket runs
through Playwright's WebSocket route, so the test can silence the server while the network stays up
(a stuck or unplugged server, not the tablet's Wi-Fi: the browser's own "offline" event never comes).
"""

import re
import time

import pytest

from tests.screens.test_browser import browser, console, server  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.browser


def test_a_silent_server_is_shown_lost_within_3_s_and_a_live_one_needs_no_pings(server, console):  # noqa: F811
    from playwright.sync_api import expect

    base, data = server
    tablet = console.context.new_page()
    tablet.set_viewport_size({"width": 1024, "height": 768})
    urls, from_tablet = [], []
    muted = {"on": False}

    def route(ws):
        urls.append(ws.url)
        upstream = ws.connect_to_server()

        def to_server(message):
            from_tablet.append((time.monotonic(), message))
            upstream.send(message)

        def to_tablet(message):
            if not muted["on"]:
                ws.send(message)

        ws.on_message(to_server)
        upstream.on_message(to_tablet)

    tablet.route_web_socket(re.compile(r"/ws/tables/"), route)
    tablet.goto(f"{base}/tablet/{data['offline_table']}/")
    expect(tablet.locator("#tablet")).to_have_attribute("data-version", re.compile(r"\d+"))
    assert urls and all("beat=2000" in url for url in urls)  # the tablet asks for the heartbeat

    # Six quiet seconds at the table: the server's heartbeat keeps the tablet online, and the tablet
    # sends nothing (it pinged every 2 s before: three pings; one is allowed for a beat that a busy
    # test machine made 0.5 s late).
    tablet.wait_for_timeout(6000)
    banner = tablet.locator("[data-role=offline-banner]")
    expect(banner).to_be_hidden()
    assert len([m for _, m in from_tablet if '"ping"' in m]) <= 1

    # The server goes silent with the network still up: the dealer is told within 3 s of the last
    # message (the tablet checks every 250 ms; the banner is looked at every 50 ms here, since
    # expect()'s own polling slows to once a second; the margin is for a busy test machine).
    muted["on"] = True
    silenced = time.monotonic()
    while not banner.is_visible() and time.monotonic() - silenced < 10:
        tablet.wait_for_timeout(50)
    assert banner.is_visible() and time.monotonic() - silenced < 4.0
    expect(banner).to_contain_text("No connection")
    # Before giving up, the tablet asked once (a server that sends no heartbeat would have answered).
    assert [m for at, m in from_tablet if at >= silenced and '"ping"' in m]

    # The server speaks again: the tablet reconnects and says so.
    muted["on"] = False
    expect(banner).to_be_hidden(timeout=15_000)
    expect(tablet.locator("#tablet")).to_have_attribute("data-offline", "false")
    tablet.close()
