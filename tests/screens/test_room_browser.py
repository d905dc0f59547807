"""Browser tests of the room's screens (issue 16): the clock in every state at every screen size,
the festival's split screen, the players' page on a phone, and each screen in its language.

They share the one daphne server of ``test_browser.py`` (its fixtures are imported). A state is
shown by handing the page's own socket a snapshot built from the real one (a newer version, exactly
what the server would send), so each state is drawn by the same code path as in the room.
"""

import json
import re

import pytest

from screens.snapshots import find_private_keys
from tests.screens.test_browser import DOCS, browser, server, sign_in  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

SIZES = [
    (1280, 720),
    (1920, 1080),
    (3840, 2160),  # 16:9
    (1280, 800),
    (1920, 1200),
    (2560, 1600),  # 16:10
    (1280, 960),
    (1440, 1080),
    (2880, 2160),  # 4:3
]

LONG_NAME = "Maximilian-Alexander Papadopoulos-Konstantinopoulos"

# Each state as a change to the real snapshot ``d`` (``now`` is the page's server time in ms).
STATES = {
    "registering": """
        d.tournament.status = 'registering';
        d.clock = {started: false, running: false, paused: false, level_index: 0, remaining: 1200, level_ends_at: null};
        d.late_registration = {open: true, until_level: 4, last_index: 4};
    """,
    "running": """
        d.clock = {started: true, running: true, paused: false, level_index: 0, remaining: null, level_ends_at: now + 754000};
        d.late_registration = {open: true, until_level: 4, last_index: 4};
        d.room.recent_moves = [{id: 1, name: 'Ana Lima', from_table: 3, from_seat: 4, to_table: 1, to_seat: 7, reason: 'balance', at: now}];
        d.room.chip_leaders = [{name: 'Ana Lima', chips: 9100}, {name: 'Bo Chen', chips: 7400}];
    """,
    "paused": """
        d.clock = {started: true, running: false, paused: true, level_index: 1, remaining: 431, level_ends_at: null};
    """,
    "break": """
        d.tournament.status = 'on_break';
        d.clock = {started: true, running: true, paused: false, level_index: 2, remaining: null, level_ends_at: now + 600000};
        d.chip_race = {old_chip: 5, new_chip: 25, colored_up: [5], race_seed: 'ab', winners: [
            {table: 1, seat: 3, name: 'Ana Lima', best: 'Kh', saved: false},
            {table: 2, seat: 5, name: 'Bo Chen', best: 'Qs', saved: false}]};
    """,
    "hand-for-hand": """
        d.tournament.hand_for_hand = true;
        d.clock = {started: true, running: false, paused: true, level_index: 3, remaining: 512, level_ends_at: null};
        d.room.hand_for_hand = {round: 3, seconds_taken: 214};
    """,
    "final-table": """
        d.clock = {started: true, running: true, paused: false, level_index: 4, remaining: null, level_ends_at: now + 900000};
        d.room.final_table = true; d.room.tables_left = 1; d.field.players_left = 9;
    """,
    "last-minute": """
        d.clock = {started: true, running: true, paused: false, level_index: 1, remaining: null, level_ends_at: now + 42000};
    """,
    "finished": """
        d.tournament.status = 'finished';
        d.clock = {started: true, running: false, paused: true, level_index: 4, remaining: 0, level_ends_at: null};
        d.field.players_left = 1;
        d.room.results = [{place: 1, name: 'Ana Lima', prize: 900}, {place: 2, name: 'Bo Chen', prize: 540},
                          {place: 3, name: 'Chloé Martin', prize: 360}];
    """,
}

# The biggest values a screen must still fit: 7-digit blinds with a big-blind ante, an hour and
# more on the clock, long names, a 10,000-player field paying 1,500 places.
EXTREME = """
    d.tournament.name = 'Courchevel Hi/Lo Championship — Main Event Day 2 Flight C (Super High Roller)';
    d.schedule.forEach(function (lv, i) { if (!lv.is_break) { lv.small_blind = 1000000 * (i + 1); lv.big_blind = 2000000 * (i + 1);
        lv.ante = 2000000 * (i + 1); lv.ante_kind = 'big_blind'; } lv.seconds = 5400; });
    if (d.clock.remaining !== null) d.clock.remaining = 3609;
    if (d.clock.running) d.clock.level_ends_at = now + 3609000;
    d.field.entries = 12345; d.field.players_left = 10000; d.field.average_stack = 123456789;
    d.field.chips_in_play = 1234567890123; d.field.prize_pool = 1234567890;
    d.field.payouts = Array.from({length: 1500}, function (_, i) { return {place: i + 1, amount: 98765432 - i * 1000}; });
    d.announcement = 'Late registration and re-entry close at the end of level 12 — the final table starts at 21:00 in the Salle Courchevel';
    d.room.recent_moves = [1, 2, 3, 4, 5, 6, 7, 8].map(function (i) {
        return {id: i, name: '__LONG__', from_table: 100 + i, from_seat: 10, to_table: 200 + i, to_seat: 9, reason: 'balance', at: now}; });
    d.room.chip_leaders = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(function (i) { return {name: '__LONG__', chips: 987654321 - i}; });
    d.room.results = Array.from({length: 30}, function (_, i) { return {place: i + 1, name: '__LONG__', prize: 98765432 - i * 1000}; });
    if (d.chip_race) d.chip_race.winners.forEach(function (w) { w.name = '__LONG__'; w.table = 123; });
    if (d.room.hand_for_hand) d.room.hand_for_hand = {round: 1234, seconds_taken: 3725};
""".replace("__LONG__", LONG_NAME)

INJECT = """([change, extreme]) => {
    document.querySelectorAll('[data-clock]').forEach(function (root) {
        const view = root.clockView;
        const now = view.socket.now();
        if (!view.base) view.base = JSON.parse(JSON.stringify(view.data));
        const d = JSON.parse(JSON.stringify(view.base));
        new Function('d', 'now', change + (extreme || ''))(d, now);
        view.socket.receive({type: 'snapshot', version: view.socket.version + 1, server_time: Date.now(), data: d});
    });
}"""

# Every visible element inside the screen: within the viewport, and nothing it holds cut off.
OVERFLOW = """() => {
    const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight, bad = [];
    const name = el => el.tagName.toLowerCase() + (el.getAttribute('data-role') ? '[' + el.getAttribute('data-role') + ']' : '')
        + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '');
    if (document.documentElement.scrollWidth > vw + 1 || document.documentElement.scrollHeight > vh + 1)
        bad.push(['page scrolls', document.documentElement.scrollWidth, document.documentElement.scrollHeight]);
    for (const el of document.querySelectorAll('[data-clock], [data-clock] *')) {
        if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
        if (el.closest('[hidden]') || el.getClientRects().length === 0) continue;
        const cs = getComputedStyle(el);
        if (cs.visibility === 'hidden') continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1)
            bad.push(['outside the screen', name(el), el.textContent.slice(0, 40), Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]);
        if (el.scrollWidth > el.clientWidth + 1 && cs.overflowX !== 'visible')
            bad.push(['cut sideways', name(el), el.textContent.slice(0, 40), el.scrollWidth, el.clientWidth]);
        if (el.scrollHeight > el.clientHeight + 1 && cs.overflowY !== 'visible')
            bad.push(['cut at the bottom', name(el), el.textContent.slice(0, 40), el.scrollHeight, el.clientHeight]);
    }
    return bad;
}"""


DISMISS_ALERT = """() => document.querySelectorAll('[data-clock]').forEach(function (root) {
    root.clockView.show('[data-role=level-alert]', false); root.classList.remove('level-changed'); })"""


def show(page, state, extreme=False):
    """Hand the screen this state; a jump between levels shows the level-change alert, which is
    put away here so that the state itself is what is checked and photographed."""
    page.evaluate(INJECT, [STATES[state], EXTREME if extreme else ""])
    page.wait_for_timeout(300)  # the 200 ms tick and the fitting
    page.evaluate(DISMISS_ALERT)


def text_of(page, role):
    return page.locator(f"[data-clock] [data-role={role}]").first.text_content()


def staff_page(browser, base, data, size, locale="en-GB"):  # noqa: F811
    # bypass_csp: the tests hand the page's socket snapshots built by ``new Function`` (no eval on the site)
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, locale=locale, bypass_csp=True
    )
    sign_in(context, base, data)
    return context, context.new_page()


def test_the_clock_in_every_state_fits_every_screen(server, browser):  # noqa: F811
    """Every state looks like itself (hand-for-hand is not "PAUSED"), and at every size from 720p to
    4K in 16:9, 16:10 and 4:3, with the biggest values, nothing leaves the screen or is cut."""
    from playwright.sync_api import expect

    base, data = server
    tid = data["clock_tournament"]
    context, clock = staff_page(browser, base, data, (1920, 1080))
    clock.goto(f"{base}/clock/{tid}/?kiosk=1")
    root = clock.locator("[data-clock]")
    expect(root).to_have_attribute("data-version", re.compile(r"\d+"))
    # Kiosk mode: sound without a tap, and the screen never asks for one.
    assert clock.locator("text=Tap to turn sound on").count() == 0
    # The QR code of the players' page is drawn here (inline SVG, nothing from another host).
    assert clock.locator(".qr-code svg").count() == 1

    show(clock, "registering")
    expect(root).to_have_attribute("data-state", "registering")
    expect(clock.locator("[data-role=state]")).to_have_text("Registration open")
    expect(clock.locator("[data-role=late]")).to_have_text("Open until the end of level 4")

    show(clock, "running")
    expect(root).to_have_attribute("data-state", "running")
    assert re.fullmatch(r"12:3\d", text_of(clock, "time")), text_of(clock, "time")
    # Late registration counts down to the end of level 4 and the break after it.
    assert text_of(clock, "late").startswith("Closes in 1:"), text_of(clock, "late")
    assert re.fullmatch(r"\d?\d:\d\d(\s[AP]M)?", text_of(clock, "tod")), text_of(clock, "tod")

    show(clock, "paused")
    expect(root).to_have_attribute("data-state", "paused")
    expect(clock.locator("[data-role=state]")).to_have_text("PAUSED")
    clock.wait_for_function(
        "getComputedStyle(document.querySelector('[data-clock]')).backgroundColor === 'rgb(142, 0, 0)'"
    )

    show(clock, "break")
    expect(root).to_have_attribute("data-state", "break")
    expect(clock.locator("[data-role=color-up]")).to_contain_text("5")
    expect(clock.locator("[data-role=chip-race]")).to_contain_text("Ana Lima")

    show(clock, "hand-for-hand")
    expect(root).to_have_attribute("data-state", "hand-for-hand")
    expect(clock.locator("[data-role=state]")).to_have_text("HAND FOR HAND")
    expect(clock.locator("[data-role=hfh-round]")).to_have_text("Hand 3")
    expect(clock.locator("[data-role=hfh-taken]")).to_have_text("3:34 taken off the clock")
    clock.wait_for_function(
        "getComputedStyle(document.querySelector('[data-clock]')).backgroundColor === 'rgb(53, 24, 90)'"
    )

    show(clock, "final-table")
    expect(clock.locator("[data-role=state]")).to_have_text("FINAL TABLE")

    show(clock, "last-minute")
    expect(root).to_have_class(re.compile("last-minute"))
    expect(clock.locator("[data-role=state]")).to_have_text("LAST MINUTE")
    # The level changes by itself at 0:00: an alert with the new blinds, and a beep.
    beeps = int(clock.evaluate("document.documentElement.getAttribute('data-beeps') || 0"))
    clock.evaluate(INJECT, [STATES["last-minute"].replace("now + 42000", "now + 1500"), ""])
    clock.wait_for_timeout(300)
    clock.evaluate(DISMISS_ALERT)
    expect(clock.locator("[data-role=level-alert]")).to_be_visible(timeout=4000)
    expect(clock.locator("[data-role=level-alert-title]")).to_have_text("Break", timeout=4000)
    expect(clock.locator("[data-role=level-alert-stakes]")).to_have_text("20′")
    assert int(clock.evaluate("document.documentElement.getAttribute('data-beeps')")) > beeps
    clock.screenshot(path=str(DOCS / "clock-level-change.png"))

    show(clock, "finished")
    expect(root).to_have_attribute("data-state", "finished")
    expect(clock.locator("[data-role=winner]")).to_have_text("Ana Lima")
    expect(clock.locator("[data-role=results] li")).to_have_count(3)

    # A zero prize pool pays nobody: no "1. 0".
    clock.evaluate(INJECT, ["d.field.prize_pool = 0; d.field.payouts = [{place: 1, amount: 0}];", ""])
    clock.wait_for_timeout(300)
    assert "1. 0" not in clock.locator("[data-role=panel-body]").text_content()
    expect(clock.locator("[data-role=panel-body]")).to_contain_text("No prize pool yet")

    # One screenshot per state at 1080p, two at 4:3 and 720p.
    for state in STATES:
        show(clock, state)
        clock.screenshot(path=str(DOCS / f"clock-{state}.png"))
    failures = {}
    for size in SIZES:
        clock.set_viewport_size({"width": size[0], "height": size[1]})
        for state in STATES:
            for extreme in (False, True):
                show(clock, state, extreme)
                bad = clock.evaluate(OVERFLOW)
                if bad:
                    failures[f"{size[0]}x{size[1]} {state}{' (biggest values)' if extreme else ''}"] = bad[:5]
        if size == (1280, 720):
            show(clock, "running", True)
            assert text_of(clock, "time") == "1:00:09"
            clock.screenshot(path=str(DOCS / "clock-720p-biggest.png"))
        if size == (1440, 1080):
            show(clock, "running")
            clock.screenshot(path=str(DOCS / "clock-4x3.png"))
            show(clock, "break", True)
            clock.screenshot(path=str(DOCS / "clock-4x3-break-biggest.png"))
    assert not failures, json.dumps(failures, indent=1, ensure_ascii=False)[:6000]
    context.close()


def test_a_festival_shows_several_tournaments_side_by_side(server, browser):  # noqa: F811
    from playwright.sync_api import expect

    base, data = server
    a, b = data["clock_tournament"], data["hand_tournament"]
    context, page = staff_page(browser, base, data, (1920, 1080))
    page.goto(f"{base}/clock/festival/?t={a}&t={b}&panels=payouts,schedule")
    roots = page.locator("[data-clock]")
    expect(roots).to_have_count(2)
    expect(roots.nth(0).locator("[data-role=name]")).to_have_text("Courchevel Hi/Lo Deepstack")
    expect(roots.nth(1).locator("[data-role=name]")).to_have_text("Split pot table")
    for i in range(2):
        expect(roots.nth(i)).to_have_attribute("data-version", re.compile(r"\d+"))
    page.wait_for_timeout(400)
    page.screenshot(path=str(DOCS / "clock-festival.png"))
    for size in [(1280, 720), (1920, 1080), (1440, 1080), (3840, 2160)]:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        show(page, "running", True)
        assert page.evaluate(OVERFLOW) == [], size
    context.close()


def test_the_players_page_on_a_phone(server, browser):  # noqa: F811
    """Public and phone-sized: the clock, players left, average, payouts, the structure, and a seat
    found by name in any case; the data is one cached snapshot answered 304 once the phone has it."""
    from playwright.sync_api import expect

    base, data = server
    tid = data["clock_tournament"]
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB"
    )
    page = phone.new_page()
    page.goto(f"{base}/p/{tid}/")  # nobody signed in, no device: public
    root = page.locator("[data-player]")
    expect(root).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(page.locator("[data-role=players]")).to_have_text("18")
    expect(page.locator("[data-role=average]")).to_have_text("3,000")
    expect(page.locator("[data-role=payouts] li").first).to_have_text("1.900")
    expect(page.locator("[data-role=structure] tr")).to_have_count(5)
    assert re.fullmatch(r"\d+:\d\d", page.locator("[data-role=time]").text_content())
    page.fill("[data-role=seat-name]", "PLAYER 7")
    page.click("[data-role=seat-form] button")
    expect(page.locator("[data-role=seat-result]").first).to_contain_text(
        re.compile(r"Player 7\s+Table \d+, seat \d+")
    )
    fits = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert fits[0] <= fits[1], fits
    page.screenshot(path=str(DOCS / "player-page.png"), full_page=True)

    first = page.request.get(f"{base}/p/{tid}/data.json")
    assert first.status == 200 and first.headers["etag"]
    again = page.request.get(f"{base}/p/{tid}/data.json", headers={"If-None-Match": first.headers["etag"]})
    assert again.status == 304
    assert "max-age" in again.headers["cache-control"]
    body = json.loads(first.text())
    assert find_private_keys(body) == []
    assert "chip_leaders" not in body["data"]["room"]  # nobody's stack on the phones
    phone.close()


ENGLISH_IGNORED = re.compile(r"^[\d\s.,:/·–+′()%-]*$")


def visible_texts(page, selector):
    return page.evaluate(
        """(sel) => {
        const out = new Set();
        const walker = document.createTreeWalker(document.querySelector(sel), NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const node = walker.currentNode, el = node.parentElement;
            if (!el || el.closest('[hidden], script, style, svg, code') || el.getClientRects().length === 0) continue;
            const text = node.textContent.trim();
            if (text) out.add(text);
        }
        document.querySelectorAll(sel + ' [placeholder]').forEach(el => out.add(el.getAttribute('placeholder')));
        return [...out];
    }""",
        selector,
    )


# Words a language's rooms say in English, as the source pages and docs/translations.md's glossary do:
# they are the right translation, not English left behind.
FLOOR_WORDS_KEPT = {
    "es": set(),
    "ru": set(),
    "it": {"Pot Limit", "No Limit", "Fixed Limit", "BB ante", "Min"},
    "el": {"Pot Limit", "No Limit", "Fixed Limit", "BB ante", "Prize pool", "Blinds", "HAND FOR HAND"},
    "fr": {
        "Pot Limit",
        "No Limit",
        "Fixed Limit",
        "Min",
        "Prize pool",
        "Blinds",
        "Table",
        "Tables",
        "Structure",
    },
}


def test_each_screen_speaks_its_language_with_no_english_left(server, browser):  # noqa: F811
    """The clock screen and the players' page in es, it, ru, el and fr: no English text of the
    page is left (the labels the scripts write included). Lists every English string it finds."""
    base, data = server
    tid = data["clock_tournament"]
    # Proper names, the announcement the director typed, and words the languages share ("Ante").
    names = {
        "Ante",
        "Courchevel Hi/Lo Deepstack",
        "Courchevel",
        "Courchevel Hi/Lo",
        "Late registration closes at the end of level 4",
    }
    pages = {"clock": (f"/clock/{tid}/", "[data-clock]"), "player": (f"/p/{tid}/", "[data-player]")}

    def collect(locale):
        context, page = staff_page(browser, base, data, (1920, 1080), locale=locale)
        found = {}
        for key, (path, selector) in pages.items():
            page.goto(base + path)
            page.wait_for_selector(f"{selector}[data-version]")
            page.wait_for_timeout(500)
            labels = json.loads(page.locator("#labels").text_content())
            found[key] = (
                set(visible_texts(page, selector)),
                labels,
                page.evaluate("document.documentElement.lang"),
            )
        context.close()
        return found

    english = collect("en")
    left = {}
    for language in ("es", "it", "ru", "el", "fr"):
        shown = collect(language)
        for key in pages:
            texts, labels, lang = shown[key]
            assert lang == language, (key, lang)
            en_texts, en_labels, _ = english[key]
            kept = names | FLOOR_WORDS_KEPT[language]

            def untranslated(text, kept=kept):
                # A text made of kept words ("Courchevel Hi/Lo · Pot Limit") or of placeholders only
                # ("%(flight)s · %(event)s") has nothing to translate.
                words = re.sub(r"%\(\w+\)s", "", text)
                if not re.search(r"[A-Za-z]", words) or ENGLISH_IGNORED.match(text):
                    return False
                return not all(part in kept for part in text.split(" · "))

            same = sorted(t for t in texts & en_texts if untranslated(t) and not t.startswith("Player "))
            same += sorted(
                f"label {k}: {v}" for k, v in labels.items() if en_labels.get(k) == v and untranslated(v)
            )
            if same:
                left[f"{language} {key}"] = same
    assert not left, "English left on the screens:\n" + json.dumps(left, indent=1, ensure_ascii=False)
