"""In Chromium, against ``manage.py serve --demo`` as ``make run`` starts it: every page has the
Content-Security-Policy and the other security headers, and no page reports a violation (no inline
script, handler or style is left); the tablet page holds no device token, yet acts through its
HttpOnly device cookie (its socket's, and its posts', which are refused without the page's CSRF token)."""

import os
import re

import pytest

from tests.screens.test_browser import ARGS, CHROMIUM

pytestmark = pytest.mark.browser

WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + e.sourceFile + ':' + e.lineNumber);
});
"""


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (make browser)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


class Watched:
    """A browser context that records CSP violations and console errors on every page it opens."""

    def __init__(self, browser, **options):
        self.context = browser.new_context(**options)
        self.context.add_init_script(WATCH)
        self.errors = []
        self.requests = []
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append((r.method, r.url, r.headers)))
        self.frames = []  # what the page sent on its sockets
        self.page.on("websocket", lambda ws: ws.on("framesent", lambda payload: self.frames.append(payload)))

    def open(self, url, status=200):
        response = self.page.goto(url)
        assert response.status == status, (url, response.status)
        assert_headers(response.headers, url)
        return response

    def assert_clean(self):
        self.page.wait_for_timeout(300)
        violations = self.page.evaluate("window.__violations")
        assert violations == [], (self.page.url, violations)
        assert not [e for e in self.errors if "Content Security Policy" in e or "Refused" in e], self.errors


def assert_headers(headers, url):
    policy = headers.get("content-security-policy", "")
    assert "default-src 'self'" in policy and "script-src 'self'" in policy, (url, policy)
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy, (url, policy)
    if "/api/docs/" not in url and "/api/redoc/" not in url:
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, (url, policy)
    assert re.search(r"connect-src 'self' ws://127\.0\.0\.1:\d+ wss://127\.0\.0\.1:\d+", policy), policy
    assert headers.get("x-content-type-options") == "nosniff", url
    assert headers.get("referrer-policy") == "same-origin", url
    assert headers.get("cross-origin-opener-policy") == "same-origin", url
    assert headers.get("x-frame-options") == "DENY", url
    assert "camera=()" in headers.get("permissions-policy", ""), url


def test_the_tablet_page_holds_no_token_acts_by_its_cookie_and_reports_no_violation(browser, demo_server):
    from playwright.sync_api import expect

    base = demo_server.base
    tablet = Watched(browser, viewport={"width": 1024, "height": 768}, has_touch=True)
    page = tablet.page
    link = demo_server.links["Table 1 tablet"]
    response = tablet.open(link)
    assert re.fullmatch(rf"{base}/tablet/\d+/", page.url), page.url
    table_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    root = page.locator("#tablet")
    expect(root).to_have_attribute("data-version", re.compile(r"\d+"), timeout=10000)

    # The device token is in the HttpOnly cookie only: not in the DOM, not readable by scripts.
    cookie = next(c for c in tablet.context.cookies() if c["name"] == f"dev_t{table_id}")
    token = cookie["value"]
    assert cookie["httpOnly"] and len(token) > 30
    assert token not in page.content() and token not in response.text()
    assert token not in page.evaluate("document.documentElement.outerHTML")
    assert token not in page.evaluate("document.cookie")
    assert page.evaluate("document.getElementById('tablet').hasAttribute('data-token')") is False
    # Seats are placed through the CSSOM (no style attribute): they are on the felt, not stacked.
    lefts = page.evaluate("[...document.querySelectorAll('.seat')].map(s => s.style.left)")
    assert lefts and all(left.endswith("%") for left in lefts), lefts

    # The tablet acts: dealt, then an action, by its cookie (no Authorization header at all).
    start = page.locator("[data-action=start]")
    if start.count():
        version = root.get_attribute("data-version")
        start.click()
        page.wait_for_function(
            "v => document.getElementById('tablet').getAttribute('data-version') !== v", arg=version
        )
    expect(page.locator("[data-role=actions] button").first).to_be_visible(timeout=10000)
    version = root.get_attribute("data-version")
    action = page.locator("[data-action=check]")
    (action if action.count() else page.locator("[data-action=call]")).click()
    page.wait_for_function(
        "v => document.getElementById('tablet').getAttribute('data-version') !== v", arg=version
    )
    expect(page.locator("[data-role=failure]")).to_have_count(0)
    # The dealer's inputs went on the tablet's socket (opened with the cookie): no token in them.
    inputs = [f for f in tablet.frames if '"type":"input"' in f or '"type":"deal"' in f]
    assert inputs, tablet.frames
    assert not [f for f in tablet.frames if token in f]
    # What the page posts (a floor call) is by its cookie too: no Authorization header at all.
    calls = page.locator("[data-role=call-floor]")
    calls.click()
    expect(page.locator("[data-role=failure]")).to_have_count(0)
    page.wait_for_timeout(300)
    posts = [(url, headers) for method, url, headers in tablet.requests if method == "POST"]
    assert [url for url, _h in posts if url.endswith(f"/tablet/{table_id}/floor/")], tablet.requests
    for url, headers in posts:
        assert "authorization" not in headers, url
        assert headers.get("x-device-table") == str(table_id) and headers.get("x-csrftoken"), url

    # The cookie alone does not act: without the page's CSRF token the request is refused.
    refused = page.evaluate(
        """async (table) => {
            const r = await fetch('/tablet/' + table + '/floor/', {method: 'POST', credentials: 'same-origin',
                headers: {'Content-Type': 'application/json', 'X-Device-Table': String(table)}, body: '{}'});
            return [r.status, await r.text()];
        }""",
        table_id,
    )
    assert refused[0] == 403 and "CSRF" in refused[1], refused
    tablet.assert_clean()

    # The clock screen's demo link, the pairing and sign-in pages and a missing page: clean too.
    clock = Watched(browser, viewport={"width": 1280, "height": 720})
    clock.open(demo_server.links["Clock screen"])
    expect(clock.page.locator("[data-clock]")).to_be_visible()
    clock.page.wait_for_timeout(500)
    clock.assert_clean()
    for path, status in (("/pair/", 200), ("/login/", 200), ("/", 200), ("/nothing-here/", 404)):
        clock.open(f"{base}{path}", status)
        clock.assert_clean()
    tablet.context.close()
    clock.context.close()


def test_the_console_and_the_admin_report_no_violation_and_confirm_without_inline_handlers(
    browser, demo_server
):
    from playwright.sync_api import expect

    base = demo_server.base
    director = Watched(browser, viewport={"width": 1400, "height": 1000})
    page = director.page
    director.open(f"{base}/login/")
    page.fill("input[name=username]", demo_server.username)
    page.fill("input[name=password]", demo_server.password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/console/")
    console_url = demo_server.links["Director console"]
    director.open(console_url)
    expect(page.locator("[data-clock]")).to_be_visible()

    # Removing a player asks first (data-confirm, console.js): dismissed, nothing happens. (Every
    # demo player has chips, so the console offers "Remove…" with a reason, not Bust: R8.8.)
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    entries_before = page.locator("form[data-confirm]").count()
    page.locator("details.remove summary").first.click()
    removal = page.locator("details.remove form[data-confirm]").first
    removal.locator("input[name=reason]").fill("no-show")
    removal.locator("button").click()
    page.wait_for_timeout(300)
    assert asked == ["Remove this player from the tournament?"]
    assert page.url == console_url and page.locator("form[data-confirm]").count() == entries_before
    director.assert_clean()

    # The demo director is no superuser (security issue, item 10): the pages of the tournament apps.
    for path in ("/admin/", "/admin/dealing/hand/", "/admin/tournaments/tournament/"):
        director.open(f"{base}{path}")
        director.assert_clean()
    # The API documentation pages have their own policy (inline styles) but no other host.
    response = director.open(f"{base}/api/docs/")
    assert "https://" not in response.headers["content-security-policy"]
    director.context.close()
