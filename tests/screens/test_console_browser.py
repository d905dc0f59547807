"""A director runs a whole event in the browser, from the first registration to the last payout, with
clicks and typing only (no API call in the steps): Chromium (Playwright) at 1440x900 against the
browser tests' daphne server (tests/screens/browser_server.py).

The tests of this module follow one event in order (setup, desk, controls, seating, the finish); each
later one needs the earlier ones' tournament. Screenshots go to docs/ with LIVE_SCREENSHOTS=1.
"""

import os
import re
import tempfile
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
DOCS = (
    ROOT / "docs" if os.environ.get("LIVE_SCREENSHOTS") else Path(tempfile.mkdtemp(prefix="console-shots-"))
)
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
VIEWPORT = {"width": 1440, "height": 900}
EVENT = {}  # what the earlier tests of the event leave for the later ones


@pytest.fixture(scope="module")
def server(request):
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (make browser)")
    from tests.screens.browser_server import browser_server

    yield browser_server(request.config).ready()


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


class Offline:
    """Every request to another host is blocked and remembered, and so is every failed request."""

    def __init__(self, context, base):
        self.host = urlparse(base).netloc
        self.blocked, self.failed = [], []
        context.route("**/*", self._route)
        context.on("requestfailed", lambda request: self.failed.append((request.url, request.failure)))

    def _route(self, route):
        url = route.request.url
        if urlparse(url).scheme in ("http", "https", "ws", "wss") and urlparse(url).netloc != self.host:
            self.blocked.append(url)
            route.abort()
        else:
            route.continue_()

    def assert_clean(self):
        assert self.blocked == [], self.blocked
        # A fetch the page itself cancelled on navigating away is not a failure of the page.
        failed = [f for f in self.failed if "ERR_ABORTED" not in (f[1] or "")]
        assert failed == [], failed


def staff_signs_in(page, base, username, password):
    """The staff sign-in page, filled in and sent as a person does; the console list follows."""
    page.goto(f"{base}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/console/")


@pytest.fixture(scope="module")
def director(server, browser):
    base, data = server
    context = browser.new_context(viewport=VIEWPORT)
    offline = Offline(context, base)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # the console's "are you sure?" questions
    staff_signs_in(page, base, data["username"], data["password"])
    page.offline = offline
    yield page
    context.close()


def shot(page, name, **kwargs):
    """A screenshot of a page (or of one part of it, a locator)."""
    if hasattr(page, "wait_for_timeout"):
        page.wait_for_timeout(200)
    page.screenshot(path=str(DOCS / name), **kwargs)


def need(key):
    if key not in EVENT:
        pytest.skip(f"needs the event's earlier step ({key})")
    return EVENT[key]


def test_every_page_renders_with_nothing_from_another_host(server, browser):
    """The API docs (Swagger UI, Redoc), the console, the clock, the tablet, pairing and sign-in load
    everything from this host: with every other host blocked, nothing fails."""
    from playwright.sync_api import expect

    base, data = server
    context = browser.new_context(viewport=VIEWPORT)
    offline = Offline(context, base)
    page = context.new_page()
    page.goto(f"{base}/login/")
    expect(page.locator("input[name=username]")).to_be_visible()
    page.goto(f"{base}/pair/")
    expect(page.locator("input[name=code]")).to_be_visible()
    page.goto(f"{base}/tablet/{data['hand_table']}/")
    expect(page.locator("body")).to_contain_text("not paired")
    page.goto(f"{base}/clock/{data['clock_tournament']}/")
    staff_signs_in(page, base, data["username"], data["password"])
    tid = data["clock_tournament"]
    for path in (
        "/console/",
        "/console/new/",
        f"/console/{tid}/",
        f"/console/{tid}/desk/",
        f"/console/{tid}/structure/",
        f"/console/{tid}/seating/chart/",
        f"/console/{tid}/results/",
        "/console/help/",
        f"/clock/{tid}/",
    ):
        response = page.goto(f"{base}{path}")
        assert response.ok, path
        page.wait_for_load_state("networkidle")
    page.goto(f"{base}/api/docs/")
    # Swagger UI draws the operations from the schema (served here, like its scripts and styles).
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible(timeout=20000)
    expect(page.locator(".swagger-ui .title")).to_contain_text("Courchevel tournament director API")
    page.goto(f"{base}/api/redoc/")
    expect(page.locator("h1").first).to_contain_text("Courchevel tournament director API", timeout=20000)
    expect(page.locator("body")).to_contain_text("Create a tournament with a copy of a blind structure")
    page.wait_for_load_state("networkidle")
    offline.assert_clean()
    context.close()


def create_tournament(page, base, name):
    """The "new tournament" page, as a director fills it in."""
    page.goto(f"{base}/console/")
    page.click("[data-action=new-tournament]")
    page.wait_for_url(f"{base}/console/new/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=game]", label="Courchevel Hi/Lo")
    page.select_option("select[name=betting]", label="No Limit")
    page.select_option("select[name=structure]", label="Turbo - No Limit")
    page.fill("input[name=starting_stack]", "10000")
    page.fill("input[name=seats_per_table]", "4")
    page.fill("input[name=late_registration_until_level]", "1")
    page.fill("input[name=max_reentries]", "1")
    page.fill("input[name=buy_in]", "100")
    page.fill("input[name=fee]", "10")
    page.fill("input[name=guarantee]", "0")


def test_setting_up_a_tournament_and_its_structure_without_the_admin(server, director):
    from playwright.sync_api import expect

    base, _data = server
    page = director
    create_tournament(page, base, "Vic Hale Cup")
    # A payout table that does not add up to 100: the service's error is shown next to its field.
    page.fill("input[name=payout_percentages]", "60, 30")
    page.click("[data-action=save-setup]")
    error = page.locator("[data-field=payout_percentages] [data-role=error]")
    expect(error).to_contain_text("100")
    expect(page.locator("input[name=name]")).to_have_value("Vic Hale Cup")  # nothing typed is lost
    shot(page, "console-new.png", full_page=True)
    page.fill("input[name=payout_percentages]", "60, 40")
    page.click("[data-action=save-setup]")
    page.wait_for_url(re.compile(r"/console/\d+/structure/$"))
    tid = int(page.url.rstrip("/").split("/")[-2])
    expect(page.locator(".messages")).to_contain_text("Vic Hale Cup is created")
    length = page.locator("[data-role=event-length]")
    expect(length).to_contain_text("The event lasts")
    before = length.text_content()

    # The first level: a small blind above the big blind is refused, next to the level.
    first = page.locator("[data-role=levels] tbody tr[data-level='1']")
    first.locator("input[name=small_blind]").fill("500")
    first.locator("[data-action=save-level]").click()
    expect(page.locator("[data-role=error][data-field=small_blind]")).to_contain_text(
        "cannot be more than the big blind"
    )
    first = page.locator("[data-role=levels] tbody tr[data-level='1']")
    first.locator("input[name=small_blind]").fill("25")
    first.locator("input[name=duration_minutes]").fill("15")
    first.locator("[data-action=save-level]").click()
    expect(page.locator(".messages")).to_contain_text("The level is saved.")
    expect(length).not_to_have_text(before)  # five more minutes
    # A break after level 2, with the 25 chips colored up.
    form = page.locator("[data-role=add-level]")
    form.locator("input[name=is_break]").check()
    form.locator("input[name=order]").fill("3")
    form.locator("input[name=duration_minutes]").fill("10")
    form.locator("[data-action=add-level]").click()
    expect(page.locator(".messages")).to_contain_text("The break is added.")
    expect(page.locator("[data-role=levels] tbody tr").nth(2)).to_have_attribute("data-level", "break")
    shot(page, "console-structure.png")
    EVENT["tid"] = tid


def test_the_registration_desk_registers_seats_reenters_and_voids(server, director, browser):
    from playwright.sync_api import expect

    base, _data = server
    tid = need("tid")
    page = director
    page.goto(f"{base}/console/{tid}/")
    page.click("[data-action=open-registration]")
    expect(page.locator("[data-role=phase]")).to_have_text("Registering")
    page.click("[data-action=desk]")
    page.wait_for_url(f"{base}/console/{tid}/desk/")
    name = page.locator("[data-role=desk-form] input[name=name]")
    for player in ("Ána Lima", "Bo Chen", "Cy Dorn", "Di Eze", "Ed Fox", "Flo Gray"):
        expect(name).to_be_focused()
        name.type(player)
        name.press("Enter")
        expect(page.locator(".messages")).to_contain_text(f"{player} is registered")
    # The same player, typed another way, is offered first and not registered twice.
    expect(name).to_be_focused()
    name.type("ana lima")
    first = page.locator("[data-role=match-list] li").first
    expect(first).to_have_attribute("data-same", "true", timeout=20_000)
    expect(first).to_contain_text("Ána Lima")
    expect(name).to_be_focused()
    name.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Ána Lima already has chips in this tournament.")
    # A mistaken entry is voided before the start.
    name.type("Gus Typo")
    name.press("Enter")
    page.locator("tr:has-text('Gus Typo') [data-action=void]").click()
    expect(page.locator(".messages")).to_contain_text("The entry of Gus Typo is voided.")
    expect(page.locator("[data-role=entries]")).not_to_contain_text("Gus Typo")

    page.click("[data-action=draw]")
    expect(page.locator(".messages")).to_contain_text("Seats are drawn: 6 players at 2 tables.")
    name = page.locator("[data-role=desk-form] input[name=name]")
    name.type("Vic Hale")
    name.press("Enter")
    answer = page.locator(".messages")
    expect(answer).to_contain_text(re.compile(r"Vic Hale is registered: table \d+, seat \d+"))
    table, seat = re.search(r"table (\d+), seat (\d+)", answer.text_content()).groups()
    row = page.locator("[data-role=entries] tr:has-text('Vic Hale')")
    expect(row.locator("td").nth(1)).to_have_text(table)
    expect(row.locator("td").nth(2)).to_have_text(seat)
    expect(row.locator("td").nth(3)).to_have_text("10000")
    shot(page, "console-desk.png")
    with page.expect_popup() as popup:
        page.click("[data-action=seat-card]")
    card = popup.value
    expect(card.locator("[data-role=table]")).to_have_text(table)
    expect(card.locator("[data-role=seat]")).to_have_text(seat)
    card.wait_for_load_state("load")
    card.emulate_media(media="print")
    expect(card.locator("[data-action=print]")).to_be_hidden()
    shot(card, "console-seat-card.png")
    card.close()
    # The filter: nobody is out yet.
    page.locator("[data-role=filters] input[value=out]").check()
    page.click("[data-action=filter]")
    expect(page.locator("[data-role=entries] tbody")).to_contain_text("No entries.")
    EVENT["players"] = 7


def test_the_controls_follow_the_state_and_the_clock_has_hotkeys(server, director):
    from playwright.sync_api import expect

    base, _data = server
    tid = need("tid")
    page = director
    page.goto(f"{base}/console/{tid}/")
    expect(page.locator("[data-action=pause]")).to_have_count(0)  # nothing to pause before the start
    # A form post: the page is loaded again. The live push may show "Running" on the old page first,
    # so the keys below wait for the new one (a key typed during the load is lost).
    with page.expect_navigation():
        page.click("[data-action=start]")
    page.wait_for_load_state("load")
    expect(page.locator("[data-role=phase]")).to_have_text("Running")
    expect(page.locator("[data-action=start]")).to_have_count(0)
    expect(page.locator("[data-action=resume]")).to_have_count(0)
    # The level list names levels by number; the break is a break.
    options = page.locator("[data-role=go-to-level] option").all_text_contents()
    assert re.match(r"^Level 1 · 25/\d+ · 15 min$", options[0]), options[:4]
    assert options[1].startswith("Level 2 · ") and options[2] == "Break · 10 min", options[:4]
    # Hotkeys: "?" shows the list, Space pauses, Space resumes, N moves on a level, + adds a minute.
    # Keys typed into a field are the field's: start with no field focused (what a click on the page's
    # background does, wherever the layout puts its forms).
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.type("?")
    helpbox = page.locator("[data-role=hotkeys-help]")
    expect(helpbox).to_be_visible()
    expect(helpbox).to_contain_text("Pause or resume the clock")
    expect(helpbox).to_contain_text("Add a minute")
    shot(page, "console-hotkeys.png")
    page.keyboard.press("Escape")
    expect(helpbox).to_be_hidden()
    press(page, "Space")
    expect(page.locator("[data-role=phase]")).to_have_text("Paused")
    expect(page.locator("[data-action=pause]")).to_have_count(0)
    expect(page.locator("[data-clock] [data-role=state]")).to_have_text("PAUSED")
    time_left = page.locator("[data-clock] [data-role=time]")
    expect(time_left).to_have_text(re.compile(r"^1[45]:\d\d$"))
    press(page, "-")  # a minute off, then "+" gives it back
    expect(time_left).to_have_text(re.compile(r"^1[34]:\d\d$"))
    press(page, "+")
    expect(time_left).to_have_text(re.compile(r"^1[45]:\d\d$"))
    expect(page.locator(".msg.error")).to_have_count(0)
    press(page, "Space")
    expect(page.locator("[data-role=phase]")).to_have_text("Running")
    press(page, "n")
    expect(page.locator("[data-clock] [data-role=level]")).to_have_text("Level 2")
    press(page, "p")
    expect(page.locator("[data-clock] [data-role=level]")).to_have_text("Level 1")
    # Hand-for-hand (R8.6) is shown as such, with each table's place in the round.
    page.click("[data-action=hand-for-hand-on]")
    expect(page.locator("[data-role=phase]")).to_have_text("Hand-for-hand")
    expect(page.locator("[data-role=hand-for-hand] [data-state=to_deal]")).to_have_count(2)
    expect(page.locator("[data-action=pause]")).to_have_count(0)
    page.click("[data-action=hand-for-hand-off]")
    expect(page.locator("[data-role=phase]")).to_have_text(re.compile("Running|Paused"))
    if page.locator("[data-role=phase]").text_content() == "Paused":
        page.click("[data-action=resume]")
    shot(page, "console-running.png", full_page=True)


def press(page, key):
    """A shortcut that presses a button: the page posts it and comes back."""
    with page.expect_navigation():
        if len(key) == 1 and not key.isalnum():
            page.keyboard.type(key)
        else:
            page.keyboard.press(key)
    page.wait_for_load_state()


def live_drawn(page):
    """As a director would act: once the page shows the live state (its first snapshot drawn), not
    while the panels may still move under the pointer."""
    from playwright.sync_api import expect

    expect(page.locator("#console-live")).to_have_attribute("data-shown-version", re.compile(r"\d+"))


def bust(page, name):
    """The director busts a player with no chips left (R8.8): the Bust button of their row, the
    question answered yes (the ``director`` fixture), and the page back with "… is out."."""
    from playwright.sync_api import expect

    live_drawn(page)
    page.locator(f"#entries tr:has-text('{name}') button.link:has-text('Bust')").click()
    expect(page.locator(".messages")).to_contain_text(f"{name} is out.")


def remove(page, name, reason="no-show"):
    from playwright.sync_api import expect

    live_drawn(page)
    row = page.locator(f"#entries tr:has-text('{name}')")
    row.locator("details.remove summary").click()
    expect(row.locator("details.remove")).to_have_attribute("open", "")
    row.locator("input[name=reason]").fill(reason)
    row.locator("button.danger").click()
    page.wait_for_load_state()


def test_seating_suggested_moves_are_approved_and_the_breaking_order_edited(server, director):
    from playwright.sync_api import expect

    base, _data = server
    tid = need("tid")
    page = director
    page.goto(f"{base}/console/{tid}/#seating")
    mode = page.locator("[data-role=balancing-mode]")
    mode.locator("input[value=review]").check()
    mode.locator("[data-action=balancing-mode]").click()
    expect(page.locator(".messages")).to_contain_text("approve or skip")
    # Two players of the shorter table leave: the tables are 4 and 1, so a move is suggested (R8.3).
    chart = {}
    for table in page.locator(".seating .tbl").all():
        number = re.search(r"Table (\d+)", table.locator("h3").text_content()).group(1)
        chart[number] = [
            li.text_content() for li in table.locator("li").all() if "open" not in li.text_content()
        ]
    short = min(chart, key=lambda n: len(chart[n]))
    removed = [re.sub(r"\s+\d+\s*(D)?$", "", seat_text.strip()).strip() for seat_text in chart[short][:2]]
    for name in removed:
        remove(page, name)
    EVENT["removed"] = removed
    page.goto(f"{base}/console/{tid}/#seating")
    suggestion = page.locator("[data-role=suggestions] li").first
    expect(suggestion).to_contain_text("→ table")
    shot(page.locator("#seating"), "console-seating.png")
    suggestion.locator("[data-action=approve]").click()
    expect(page.locator(".messages")).to_contain_text("moves to table")
    order = page.locator("[data-role=break-order] input[name=order]")
    numbers = [n.strip() for n in order.input_value().split(",")]
    order.fill(", ".join(reversed(numbers)))
    page.locator("[data-action=break-order]").click()
    expect(page.locator(".messages")).to_contain_text(
        "Tables break in this order: " + ", ".join(reversed(numbers))
    )
    page.goto(f"{base}/console/{tid}/seating/chart/")
    expect(page.locator("[data-role=chart] .tbl").first).to_be_visible()
    page.wait_for_load_state("load")
    page.emulate_media(media="print")
    expect(page.locator(".topbar")).to_be_hidden()
    expect(page.locator("[data-action=print]")).to_be_hidden()
    page.emulate_media(media="screen")


def test_the_finish_results_csv_and_print(server, director):
    from playwright.sync_api import expect

    base, _data = server
    tid = need("tid")
    page = director
    removed = need("removed")
    # During late registration the players removed are out, never a green "in", and wait for a place.
    page.goto(f"{base}/console/{tid}/desk/")
    page.locator("[data-role=filters] input[value=out]").check()
    page.click("[data-action=filter]")
    # The filtered page loaded, its scripts too: typed before desk.js listens, a name brings no match.
    page.wait_for_url(re.compile(r"[?&]show=out"), wait_until="load")
    out = page.locator("[data-role=entries] tbody tr")
    expect(out).to_have_count(2)
    expect(out.locator(".pill.ok")).to_have_count(0)
    expect(out.locator(".pill.out")).to_have_count(2)
    expect(out.first).to_contain_text("after late registration")
    # One of them re-enters: typed in lower case, found, and given a new seat (R8.1).
    name = page.locator("[data-role=desk-form] input[name=name]")
    name.type(removed[0].lower())
    match = page.locator("[data-role=match-list] li").first
    # The search answers as the name is typed (a fetch per pause): on a busy CI machine, give it time.
    expect(match).to_have_attribute("data-same", "true", timeout=20_000)
    match.locator("[data-action=register-player]").click()
    expect(page.locator(".messages")).to_contain_text(
        re.compile(re.escape(removed[0]) + r" re-enters \(entry 2\): table \d+, seat \d+")
    )
    # Level 2: late registration is over, the desk's field goes away.
    page.goto(f"{base}/console/{tid}/")
    page.select_option(
        "[data-role=go-to-level]",
        label=page.locator("[data-role=go-to-level] option", has_text="Level 2 ·").first.text_content(),
    )
    page.click("[data-action=jump]")
    expect(page.locator("[data-clock] [data-role=level]")).to_have_text("Level 2")
    expect(page.locator("[data-role=registration-closed]")).to_be_visible()
    while page.locator("#entries details.remove").count() > 1:
        name = page.locator("#entries tr:has(details.remove) td").first.text_content().strip()
        remove(page, name, "disqualified")
        page.goto(f"{base}/console/{tid}/")
    expect(page.locator("[data-role=phase]")).to_have_text("Finished")
    for action in ("pause", "resume", "next-level", "previous-level", "add-minute", "hand-for-hand-on"):
        expect(page.locator(f"[data-action={action}]")).to_have_count(0)
    expect(page.locator("#entries button.link:has-text('Bust')")).to_have_count(0)
    page.click("[data-action=results]")
    results = page.locator("[data-role=results] tbody tr")
    expect(results.first.locator("td").first).to_have_text("1")
    expect(results).to_have_count(need("players") + 1)  # and the re-entry
    # The prize pool (8 × 100) paid 60/40 to the first two.
    expect(results.nth(0).locator("td").nth(2)).to_have_text("480")
    expect(results.nth(1).locator("td").nth(2)).to_have_text("320")
    shot(page, "console-results.png")
    with page.expect_download() as download:
        page.click("[data-action=csv]")
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    assert text.splitlines()[0].startswith("Place,Player,Entry,Prize")
    assert ",480," in text.splitlines()[1]
    page.wait_for_load_state("load")
    page.emulate_media(media="print")
    expect(page.locator(".topbar")).to_be_hidden()
    expect(page.locator("[data-action=csv]")).to_be_hidden()
    page.emulate_media(media="screen")
    page.offline.assert_clean()
