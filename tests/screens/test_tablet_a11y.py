"""The dealer tablet passes an axe-core check with no serious or critical finding (issue 15), in a
hand with actions offered and between hands, at the tablet's size and a phone's (390 px)."""

import re

import pytest

from tests.screens.test_browser import DOCS, browser, console, server  # noqa: F401  (shared fixtures)
from tests.screens.test_browser_all_in import tap

pytestmark = pytest.mark.browser


def serious(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("size", [(1024, 768), (390, 844)])
def test_the_tablet_has_no_serious_accessibility_finding(server, console, size):  # noqa: F811
    from playwright.sync_api import expect

    base, data = server
    tablet = console.context.new_page()
    tablet.set_viewport_size({"width": size[0], "height": size[1]})
    tablet.goto(f"{base}/tablet/{data['a11y_table']}/")
    expect(tablet.locator("#tablet")).to_have_attribute("data-version", re.compile(r"\d+"))
    assert serious(tablet) == []  # between hands (or the hand the other size dealt)
    start = tablet.locator("[data-action=start]")
    if start.count() and start.is_enabled():
        tap(tablet, "[data-action=start]")
    expect(tablet.locator("[data-action=fold]")).to_be_visible()
    assert serious(tablet) == []  # actions offered
    # Item 10: a usable layout at either size: no two seats overlap, and every seat is on screen.
    boxes = tablet.evaluate(
        "[...document.querySelectorAll('.seat')].map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })"
    )
    width = tablet.evaluate("document.documentElement.clientWidth")
    if size[0] < 600:
        tablet.screenshot(path=str(DOCS / "tablet-phone.png"), full_page=True)
    assert boxes and all(b[0] >= 0 and b[2] <= width + 1 for b in boxes), boxes
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    tablet.close()
