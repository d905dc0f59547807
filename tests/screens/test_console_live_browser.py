"""The director's console stays live from its socket (issue 14 item 8): while one director types a
name in the registration field, another one registers a player, busts one (R8.8), answers a floor
call and moves the clock to the next level (R8.1), each by clicking in their own browser. The first
console shows every change within seconds without loading the page again, and the name half typed
keeps its text and the focus. A stale snapshot (a lower version, as a reordered message would be)
changes nothing; a lost connection is said on the page until the socket is back.

Chromium (Playwright) against the browser tests' daphne server (tests/screens/browser_server.py,
``live_console_scenario``).
"""

import json
import re
from urllib.parse import urlparse

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

TYPED = "Half-typed Nam"


def sign_in(browser, base, data):  # noqa: F811 - the fixture's value
    context = browser.new_context(viewport=VIEWPORT)
    offline = Offline(context, base)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # "Bust this player out?"
    staff_signs_in(page, base, data["username"], data["password"])
    return context, page, offline


class DirectorSocket:
    """The console's socket, passed through as it is, with every snapshot the server sent kept: a
    test can then deliver an old one again (a reordered message) or drop the connection."""

    def __init__(self, page):
        self.snapshots, self.routes = [], []
        page.route_web_socket(re.compile(r"/ws/tournaments/\d+/director/$"), self._route)

    def _route(self, ws):
        upstream = ws.connect_to_server()

        def from_server(message):
            if isinstance(message, str) and '"type": "snapshot"' in message.replace('":"', '": "'):
                self.snapshots.append(message)
            ws.send(message)

        upstream.on_message(from_server)
        ws.on_message(lambda message: upstream.send(message))
        self.routes.append(ws)

    def versions(self):
        return [json.loads(m)["version"] for m in self.snapshots]


def focused_field(page):
    return page.evaluate(
        "() => { const a = document.activeElement;"
        " return a && a.name ? [a.name, (a.form && a.form.getAttribute('action')) || '', a.value] : null; }"
    )


def test_the_console_follows_another_directors_clicks_without_reloading_or_losing_typing(server, browser):  # noqa: F811
    from playwright.sync_api import expect

    base, data = server
    tid = data["live_console_tournament"]
    console_url = f"{base}/console/{tid}/"
    context, page, offline = sign_in(browser, base, data)
    socket = DirectorSocket(page)
    page.goto(console_url)
    page.wait_for_load_state("networkidle")
    clock = page.locator("[data-clock]")
    expect(clock.locator("[data-role=players]")).to_have_text("6 / 6")
    floor = page.locator("[data-live-panel=floor] [data-call]")
    expect(floor).to_have_count(1)
    expect(page.locator("[data-action=previous-level]")).to_have_count(0)  # level 1: nothing before

    # From here on the page must not load again: no navigation, no request for the console page.
    navigations, loads, console_requests = [], [], []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    page.on("load", lambda _page: loads.append(True))
    page.on(
        "request",
        lambda r: console_requests.append(r.url) if urlparse(r.url).path == f"/console/{tid}/" else None,
    )

    name_field = page.locator("#entries form[action$='/register/'] input[name=name]")
    name_field.click()
    page.keyboard.type(TYPED)

    other_context, other, other_offline = sign_in(browser, base, data)
    other.goto(console_url)

    # 1. Another director registers a player (late registration is open to level 4).
    other.locator("#entries form[action$='/register/'] input[name=name]").fill("Zoe Newcomer")
    other.locator("#entries form[action$='/register/'] button").click()
    expect(other.locator(".messages")).to_contain_text("Zoe Newcomer is registered")
    rows = page.locator("#entries tbody tr[data-entry]")
    expect(rows.filter(has_text="Zoe Newcomer")).to_have_count(1, timeout=3000)
    expect(clock.locator("[data-role=players]")).to_have_text("7 / 7")
    expect(page.locator("[data-role=prize-pool]")).to_have_text("700")

    # 2. ... busts the player who has no chips left (R8.8): out, one player fewer.
    broke = data["live_console_broke"]
    other.get_by_role("button", name=f"Bust {broke}").click()
    expect(other.locator(".messages")).to_contain_text(f"{broke} is out")
    busted = rows.filter(has_text=broke)
    expect(busted.locator("td").nth(2)).to_have_text("out", timeout=3000)
    expect(busted.get_by_role("button", name=f"Bust {broke}")).to_have_count(0)
    expect(clock.locator("[data-role=players]")).to_have_text("6 / 7")

    # 3. ... answers the floor call: it leaves the first console too.
    other.locator("[data-live-panel=floor] button").click()
    expect(other.locator("[data-live-panel=floor] [data-call]")).to_have_count(0)
    expect(floor).to_have_count(0, timeout=3000)

    # 4. ... moves the clock to level 2 (R8.1): the level and the buttons offered follow.
    other.locator("[data-action=next-level]").click()
    expect(other.locator("[data-action=previous-level]")).to_be_visible()
    expect(clock.locator("[data-role=level]")).to_contain_text("2", timeout=3000)
    expect(page.locator("[data-action=previous-level]")).to_be_visible()
    expect(page.locator("select[data-role=go-to-level]")).to_have_value("1")
    expect(page.locator("[data-live-panel=audit] tbody")).to_contain_text("clock")

    # The director's typing was never disturbed: same text, still the focused field.
    assert focused_field(page) == ["name", f"/console/{tid}/register/", TYPED]
    shot(page, "console-live.png", full_page=True)

    # A stale snapshot arrives late (a lower version): nothing goes back.
    assert len(socket.snapshots) >= 5 and socket.versions() == sorted(socket.versions())
    newest = json.loads(socket.snapshots[-1])
    socket.routes[-1].send(socket.snapshots[0])
    # What the stale one would show if it were drawn: six players, the floor call, level 1.
    stale = json.loads(socket.snapshots[0])
    assert stale["version"] < newest["version"] and stale["data"]["floor_calls"]
    # A newer one sent after it is drawn, so the stale one was read first and set aside.
    marker = json.loads(socket.snapshots[-1])
    marker["version"] = newest["version"] + 1
    marker["data"]["console"]["entries"][0]["name"] = "<b>Not markup</b>"
    socket.routes[-1].send(json.dumps(marker))
    expect(rows.first.locator("td").first).to_have_text("<b>Not markup</b>", timeout=3000)
    expect(page.locator("#entries tbody b")).to_have_count(0)  # a name is text, never HTML
    expect(floor).to_have_count(0)
    expect(clock.locator("[data-role=players]")).to_have_text("6 / 7")
    expect(page.locator("[data-action=previous-level]")).to_be_visible()

    # The connection drops: the console says so, then is back by itself and says nothing more.
    banner = page.locator("[data-role=console-offline]")
    expect(banner).to_be_hidden()
    socket.routes[-1].close()
    expect(banner).to_be_visible(timeout=3000)
    expect(banner).to_contain_text("Connection lost")
    expect(banner).to_be_hidden(timeout=10000)
    assert len(socket.routes) >= 2  # it reconnected

    assert focused_field(page) == ["name", f"/console/{tid}/register/", TYPED]
    assert navigations == [] and loads == [] and console_requests == []
    offline.assert_clean()
    other_offline.assert_clean()
    other_context.close()
    context.close()
