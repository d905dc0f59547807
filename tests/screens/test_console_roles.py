"""Every console page and button answers each staff role as config.roles.CAPABILITIES says: the
director everything, the floor seating, busts, chip counts and corrections, the registration desk
entries and seat cards (issue 14 item 9). A console view without a role check fails here."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import URLPattern, reverse

from screens import roles
from screens import urls as screens_urls
from tests import factories

pytestmark = pytest.mark.django_db

# The capability each console URL needs: the specification, written out so that choosing a wrong one
# in a view fails, and a new console view fails until it is added here with its own.
EXPECTED = {
    "console-list": "view",
    "console-new": "setup",
    "console-help": "view",
    "console-help-screenshot": "view",
    "console-setup": "setup",
    "console-structure": "setup",
    "console-structure-add": "setup",
    "console-structure-level": "setup",
    "console-structure-delete": "setup",
    "console": "view",
    "console-desk": "view",
    "console-desk-search": "view",
    "console-desk-register": "entries",
    "console-desk-draw": "seating",
    "console-desk-rebuy": "entries",
    "console-desk-addon": "entries",
    "console-desk-void": "entries",
    "console-desk-alternate-add": "entries",
    "console-desk-alternate-seat": "entries",
    "console-desk-alternate-withdraw": "entries",
    "console-seat-card": "view",
    "console-seating-chart": "view",
    "console-balancing-mode": "seating",
    "console-move-approve": "seating",
    "console-move-skip": "seating",
    "console-break-order": "seating",
    "console-color-up": "chip_counts",
    "console-results": "view",
    "console-results-csv": "view",
    "console-clock": "clock",
    "console-announce": "clock",
    "console-floor-pin": "clock",
    "console-register": "entries",
    "console-bust": "busts",
    "console-hand": "view",
    "console-release-runout": "corrections",
    "console-remove": "busts",
    "console-answer-floor": "corrections",
    "console-pair": "devices",
    "console-pairing-sheet": "devices",
    "console-device-language": "devices",
    "console-revoke": "devices",
    "console-events": "view",
    "console-event-create": "setup",
    "console-event": "view",
    "console-event-next-day": "setup",
    "console-flight": "view",
    "console-flight-register": "entries",
    "console-flight-draw": "seating",
    "console-flight-start": "clock",
    "console-flight-stop": "clock",
    "console-flight-eliminate": "busts",
    "console-flight-bag": "chip_counts",
    "console-flight-bags": "view",
    "console-simulation": "setup",
    "console-staff-language": "view",
    "console-seating": "view",
    "console-seat-lock": "seating",
    "console-seat-reserve": "seating",
    "console-seat-unlock": "seating",
    "console-table-open": "seating",
    "console-table-break": "seating",
    "console-move-player": "seating",
    "console-chart-on-clock": "seating",
    "console-floor": "view",
    "console-floor-count": "chip_counts",
    "console-floor-bust": "busts",
    "console-floor-remove": "busts",
    "console-floor-undo-bust": "busts",
    "console-floor-void-entry": "entries",
    "console-floor-void-hand": "corrections",
    "console-floor-correct": "corrections",
    "console-deal": "payouts",
    "console-deal-record": "payouts",
    "console-deal-talk": "payouts",
    "console-payouts": "payouts",
    "console-all-ins": "view",
}

ROLES = (roles.DIRECTOR, roles.FLOOR, roles.DESK)
# The floor page opens for a role with one of its areas (the desk voids entries at its own desk).
PAGE_NEEDS_ONE_OF = {"console-floor": ("chip_counts", "busts", "corrections")}
# A missing object answers 404 (a page closed in this state 409) once the role check let the request
# through: enough to tell it from 403.
NO_SUCH = 987654


def _console_patterns() -> dict[str, URLPattern]:
    return {p.name: p for p in screens_urls.urlpatterns if str(p.pattern).startswith("console/")}


def test_every_console_url_says_which_role_area_it_belongs_to():
    patterns = _console_patterns()
    undecorated = [name for name, p in patterns.items() if not hasattr(p.callback, "console_capability")]
    assert not undecorated, f"console views without console_can(...): {undecorated}"
    assert set(patterns) == set(EXPECTED), "a console URL was added or removed: give it its capability here"
    wrong = {
        name: p.callback.console_capability
        for name, p in patterns.items()
        if p.callback.console_capability != EXPECTED[name]
    }
    assert not wrong, wrong


def _user(role):
    user = get_user_model().objects.create_user(f"u-{role}".replace(" ", "-").lower(), is_staff=True)
    user.groups.set([roles.ensure_roles()[role]])
    return user


@pytest.fixture
def objects():
    tournament = factories.make_tournament(players=4, stage="running", name="Roles Cup")
    return {
        "tournament_id": tournament.pk,
        "entry_id": tournament.entries.order_by("pk").first().pk,
        "level_id": tournament.structure.levels.order_by("order").first().pk,
        "hand_id": NO_SUCH,
        "seat_id": NO_SUCH,
        "alternate_id": NO_SUCH,
        "call_id": NO_SUCH,
        "device_id": NO_SUCH,
        "event_id": NO_SUCH,
        "table_number": 1,
        "action": "pause",
        "name": "console-desk-role.png",
    }


def _url(pattern: URLPattern, objects: dict) -> str:
    return reverse(pattern.name, kwargs={k: objects[k] for k in pattern.pattern.converters})


def _posts(pattern: URLPattern) -> bool:
    """Whether the view takes only POST (require_POST answers 405 to a GET before anything else)."""
    return pattern.name not in GET_PAGES


GET_PAGES = {name for name, cap in EXPECTED.items() if cap == "view"} - {"console-staff-language"} | {
    "console-new",
    "console-setup",
    "console-structure",
    "console-simulation",
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_role_gets_through_or_a_403_naming_what_its_role_may_not_do(client, objects, name):
    pattern = _console_patterns()[name]
    url = _url(pattern, objects)
    allowed = roles.CAPABILITIES[EXPECTED[name]]
    if name in PAGE_NEEDS_ONE_OF:  # a "view" page that also needs one of its own areas
        allowed = allowed & frozenset().union(*(roles.CAPABILITIES[area] for area in PAGE_NEEDS_ONE_OF[name]))
    # The refused roles first: their requests change nothing, so the allowed ones see the same state.
    for role in sorted(ROLES, key=lambda r: r in allowed):
        client.force_login(_user(role))
        response = client.post(url) if _posts(pattern) else client.get(url)
        if role in allowed:
            assert response.status_code != 403, (role, name)
            assert "/login/" not in response.get("Location", ""), (role, name)
            if not _posts(pattern) and name not in ("console", "console-help-screenshot"):
                assert response.status_code in (200, 404, 409), (role, name, response.status_code)
        else:
            assert response.status_code == 403, (role, name, response.status_code)
            assert str(roles.ROLE_LABELS[role]) in response.content.decode(), (role, name)
        client.logout()


def test_a_stranger_is_sent_to_sign_in_from_every_console_url(client, objects):
    for name, pattern in _console_patterns().items():
        url = _url(pattern, objects)
        response = client.post(url) if _posts(pattern) else client.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"], name


def test_the_desks_console_is_the_registration_desk(client, objects):
    client.force_login(_user(roles.DESK))
    response = client.get(reverse("console", args=[objects["tournament_id"]]))
    assert response.status_code == 302
    assert response["Location"] == reverse("console-desk", args=[objects["tournament_id"]])
    listing = client.get(reverse("console-list")).content.decode()
    assert reverse("console-desk", args=[objects["tournament_id"]]) in listing
    assert 'data-action="new-tournament"' not in listing


def _console_page(client, role, tournament_id):
    client.force_login(_user(role))
    return client.get(reverse("console", args=[tournament_id])).content.decode()


def test_the_floor_sees_seating_and_busts_but_no_clock_setup_or_device_controls(client):
    tournament = factories.make_tournament(players=4, stage="running", name="Floor Cup")
    entry = tournament.entries.first()
    entry.chips = 0
    entry.save(update_fields=["chips"])
    page = _console_page(client, roles.FLOOR, tournament.pk)
    assert 'data-role="balancing-mode"' in page
    assert reverse("console-bust", args=[tournament.pk, entry.pk]) in page
    for control in (
        'data-action="pause"',
        'data-action="next-level"',
        'data-action="pair-clock"',
        'data-action="set-floor-pin"',
        'data-action="structure"',
        "console-announce",
    ):
        assert (
            control.replace("console-announce", reverse("console-announce", args=[tournament.pk])) not in page
        ), control
    # The clock itself still shows: the floor reads it, the director runs it.
    assert "data-clock" in page


def test_the_director_sees_every_control(client):
    tournament = factories.make_tournament(players=4, stage="running", name="Director Cup")
    page = _console_page(client, roles.DIRECTOR, tournament.pk)
    for control in (
        'data-action="pause"',
        'data-action="pair-clock"',
        'data-action="set-floor-pin"',
        'data-action="structure"',
        'data-role="balancing-mode"',
        reverse("console-announce", args=[tournament.pk]),
    ):
        assert control in page, control


def test_the_desk_page_shows_the_desk_registration_and_the_floor_only_the_list(client):
    tournament = factories.make_tournament(players=2, stage="registering", name="Desk Cup")
    url = reverse("console-desk", args=[tournament.pk])
    client.force_login(_user(roles.DESK))
    desk = client.get(url).content.decode()
    assert 'data-action="register"' in desk and 'data-action="void"' in desk
    assert 'data-action="draw"' not in desk  # the draw is the seating's (the director or the floor)
    assert reverse("console", args=[tournament.pk]) + '"' not in desk  # no way back to a console it has not
    client.logout()
    client.force_login(_user(roles.FLOOR))
    floor = client.get(url).content.decode()
    assert 'data-action="register"' not in floor and 'data-action="void"' not in floor
    assert 'data-action="draw"' in floor and 'data-role="entries"' in floor
