"""The seating chart on the clock screens, at the size of a big event: 9,999 players at 1,250 tables.

The clock snapshot (one build shared by every clock screen) carries no name of the chart, on or off,
so it weighs the same for 16 players as for 10,000; the chart is served page by page, alphabetical,
built once per tournament version however many screens ask, and only while the director has it on.
"""

import json

import pytest

from config.text import name_key
from screens import seating_chart, snapshots
from tables import services as tables_services
from tables.models import Seat, Table
from tests.factories import make_tournament
from tournaments.models import Entry, Player

pytestmark = pytest.mark.django_db

PLAYERS = 9_999  # 1,250 tables of 8 with one open seat
PAGES = -(-PLAYERS // seating_chart.PAGE_SIZE)


def field_of(players: int, name: str):
    """A drawn tournament of ``players`` (free to enter, so no payout table grows with it), registered
    in bulk (the desk's one-by-one registration would take minutes at 10,000), then the seat draw."""
    tournament = make_tournament(stage="registering", name=name, buy_in=0, fee=0, seats_per_table=8)
    people = Player.objects.bulk_create(
        Player(name=f"{name} Player {i:05d}", name_key=name_key(f"{name} Player {i:05d}"))
        for i in range(players)
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, chips=tournament.starting_stack) for p in people
    )
    tables_services.draw_seats(tournament)
    tournament.refresh_from_db()
    return tournament


def clock_bytes(tournament) -> bytes:
    """The clock snapshot's size, less its payout table (the places paid grow with the field by the
    payout rules, whatever the seating: 1,500 places at 10,000 entries)."""
    data = snapshots.clock_snapshot(tournament.pk)["data"]
    data["field"].pop("payouts")
    return json.dumps(data).encode()


@pytest.fixture(autouse=True)
def fresh_builds():
    # Builds are kept per process by (tournament id, version): a rolled-back test's ids come again.
    seating_chart.builds.clear()
    yield
    seating_chart.builds.clear()


@pytest.fixture
def big(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # committed, as the desk's registrations would be
        return field_of(PLAYERS, "Big")


def test_the_clock_snapshot_does_not_grow_with_the_field_on_or_off(big):
    """1,250 tables against 2: the snapshot a hundred screens share weighs the same, the chart on or off."""
    small = field_of(16, "Small")
    assert Table.objects.filter(tournament=big).count() == 1250
    off_small, off_big = clock_bytes(small), clock_bytes(big)
    # The same keys; only the figures (10,000 against 16) and the name differ.
    assert abs(len(off_big) - len(off_small)) < 100
    assert snapshots.clock_snapshot(big.pk)["data"]["seating_chart"] is None

    tables_services.show_chart_on_clock(big, True)
    on_big = snapshots.clock_snapshot(big.pk)["data"]
    on_big["field"].pop("payouts")
    assert on_big["seating_chart"] == {
        "players": PLAYERS,
        "pages": PAGES,
        "page_size": seating_chart.PAGE_SIZE,
    }
    assert len(json.dumps(on_big).encode()) - len(off_big) < 100
    assert "Big Player 00001" not in json.dumps(on_big)


def test_the_chart_is_built_once_per_version_for_every_screen_and_page(
    big, client, staff, django_capture_on_commit_callbacks
):
    client.force_login(staff)
    url = f"/clock/{big.pk}/seating-chart/"
    assert client.get(url).status_code == 409  # off: no screen gets the names
    # Each change is its own transaction, as in production (one version bump each).
    with django_capture_on_commit_callbacks(execute=True):
        tables_services.show_chart_on_clock(big, True)
    seating_chart.builds.clear()
    before = seating_chart.builds.builds
    pages = PAGES
    names = []
    for screen in range(3):  # three screens turning every page
        for page in range(1, pages + 1):
            response = client.get(url, {"page": page})
            assert response.status_code == 200
            body = response.json()
            assert len(body["rows"]) <= seating_chart.PAGE_SIZE and body["pages"] == pages
            if screen == 0:
                names += [row[0] for row in body["rows"]]
    assert seating_chart.builds.builds - before == 1
    # Alphabetical, as a floor chart is, and every seated player on one page or another.
    assert names == sorted(names, key=name_key) and len(names) == len(set(names)) == PLAYERS
    first = client.get(url, {"page": 1})
    assert client.get(url, {"page": 1}, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    # A player moves to the one open seat: the tournament's version moves, the chart is built once
    # more, and shows the new seat.
    open_seat = Seat.objects.select_related("table").get(table__tournament=big, entry__isnull=True)
    seat = (
        Seat.objects.filter(table__tournament=big, entry__isnull=False)
        .exclude(table=open_seat.table)
        .select_related("entry__player")
        .first()
    )
    with django_capture_on_commit_callbacks(execute=True):
        tables_services.move_entry(seat.entry, open_seat.table, open_seat.number, reason="closer to the rail")
    assert client.get(url, {"page": 1}, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    shown = [row for page in range(1, pages + 1) for row in client.get(url, {"page": page}).json()["rows"]]
    assert [seat.entry.player.name, open_seat.table.number, open_seat.number] in shown
    assert seating_chart.builds.builds - before == 2


def test_only_the_paired_clock_screens_and_staff_read_the_chart(client):
    from screens.models import DeviceKind
    from screens.pairing import create_pairing_code, redeem_pairing_code

    tournament = field_of(20, "Private")
    tables_services.show_chart_on_clock(tournament, True)
    url = f"/clock/{tournament.pk}/seating-chart/"
    assert client.get(url).status_code == 403
    device, token = redeem_pairing_code(
        create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK).code
    )
    client.cookies[device.cookie_name] = token
    body = client.get(url).json()
    assert body["players"] == 20 and len(body["rows"]) == 20
    assert client.get(url, {"page": "x"}).status_code == 400
    assert client.get(url, {"page": 2}).status_code == 404
