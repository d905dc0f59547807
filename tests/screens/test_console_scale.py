"""The console at the size of a big event: its page reads the same number of rows whatever the number
of tables, shows a bounded number of entries (a search finds anyone) and one line a table past a room's
worth; the registration desk pages its entries."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from screens import snapshots
from screens.views.console import CONSOLE_ENTRIES, CONSOLE_FULL_TABLES
from screens.views.console_desk import DESK_PAGE
from tests.screens.live import live_tournament

pytestmark = pytest.mark.django_db


def console_queries(client, tournament) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        page = client.get(f"/console/{tournament.pk}/")
    assert page.status_code == 200
    return len(captured.captured_queries), page.content.decode()


def test_the_console_costs_the_same_at_any_number_of_tables_and_shows_a_bounded_list(client, staff):
    client.force_login(staff)
    smaller = live_tournament(players=(CONSOLE_FULL_TABLES + 2) * 4, seats_per_table=4, name="Smaller")
    bigger = live_tournament(players=(CONSOLE_FULL_TABLES + 12) * 4, seats_per_table=4, name="Bigger")
    console_queries(client, smaller)  # warm the per-process caches (content types, translations)
    small_count, _html = console_queries(client, smaller)
    big_count, html = console_queries(client, bigger)
    assert big_count == small_count
    lines = re.findall(r'<li data-table="(\d+)"', html)
    assert len(lines) == bigger.tables.count()  # one line a table, no seat grid
    assert 'class="tbl"' not in html
    total = bigger.entries.count()
    assert f"{CONSOLE_ENTRIES} of {total} entries shown" in html

    # The director socket's snapshot: one line a table too, the players counted, no seat names.
    tables = snapshots.director_snapshot(bigger.pk)["data"]["tables"]
    assert all(t["seats"] == [] for t in tables) and sum(t["players"] for t in tables) == total

    wanted = bigger.entries.select_related("player").order_by("-pk").first().player.name
    found = client.get(f"/console/{bigger.pk}/", {"q": wanted.upper()}).content.decode()
    assert wanted in found and f"of {total} entries shown" in found


def test_the_registration_desk_pages_a_big_field(client, staff):
    client.force_login(staff)
    tournament = live_tournament(players=DESK_PAGE + 30, name="Desk")
    first = client.get(f"/console/{tournament.pk}/desk/").content.decode()
    assert first.count("<tr data-entry=") == DESK_PAGE and 'data-action="next-page"' in first
    second = client.get(f"/console/{tournament.pk}/desk/", {"page": 2}).content.decode()
    assert second.count("<tr data-entry=") == 30 and "Page 2 of 2" in second


def _devices(tournament, count: int, revoked: int = 0):
    import secrets

    from django.utils import timezone

    from screens.models import Device, DeviceKind

    tables = list(tournament.tables.order_by("number"))
    for i in range(count):
        Device.objects.create(
            kind=DeviceKind.TABLET,
            tournament=tournament,
            table=tables[i % len(tables)],
            label=f"Table {tables[i % len(tables)].number} tablet {i}",
            token_hash=secrets.token_hex(32),
            revoked_at=timezone.now() if i < revoked else None,
        )


def test_the_director_snapshot_lists_what_the_console_page_lists_and_no_more(client, staff):
    """The panels are drawn from the socket's snapshot (static/live/console.js): the same first 60
    entries, 40 devices (paired ones before revoked ones) and one line a table past 30 tables as the
    page, whatever the size of the event."""
    from screens.views.console import CONSOLE_DEVICES

    client.force_login(staff)
    tournament = live_tournament(players=(CONSOLE_FULL_TABLES + 2) * 4, seats_per_table=4, name="Big")
    _devices(tournament, CONSOLE_DEVICES + 15, revoked=3)
    html = client.get(f"/console/{tournament.pk}/").content.decode()
    data = snapshots.director_snapshot(tournament.pk)["data"]
    console = data["console"]

    page_entries = [int(pk) for pk in re.findall(r'<tr data-entry="(\d+)"', html)]
    assert [e["id"] for e in console["entries"]] == page_entries
    assert len(page_entries) == CONSOLE_ENTRIES and console["entries_total"] == tournament.entries.count()
    page_devices = [int(pk) for pk in re.findall(r'<tr data-device="(\d+)"', html)]
    assert [d["id"] for d in data["devices"]] == page_devices and len(page_devices) == CONSOLE_DEVICES
    assert all(d["active"] for d in data["devices"])  # the 3 revoked ones come after the 52 paired
    assert data["devices_total"] == CONSOLE_DEVICES + 15
    assert all(t["seats"] == [] for t in data["tables"]) and len(data["tables"]) == CONSOLE_FULL_TABLES + 2
    # What the clock buttons are, as the page offers them (console_controls.offers): running, level 1.
    assert console["phase"] == "running" and console["offers"]["pause"] and not console["offers"]["resume"]
    assert not console["offers"]["previous_level"] and console["offers"]["next_level"]


def test_the_director_snapshot_costs_the_same_reads_at_any_number_of_tables(staff):
    from django.db import connection

    from screens.models import FloorCall

    smaller = live_tournament(players=(CONSOLE_FULL_TABLES + 2) * 4, seats_per_table=4, name="Smaller")
    bigger = live_tournament(players=(CONSOLE_FULL_TABLES + 12) * 4, seats_per_table=4, name="Bigger")
    for tournament in (smaller, bigger):
        _devices(tournament, 5)
        FloorCall.objects.create(tournament=tournament, table=tournament.tables.order_by("number").last())
    snapshots.director_snapshot(smaller.pk)  # the per-process caches
    with CaptureQueriesContext(connection) as small:
        snapshots.director_snapshot(smaller.pk)
    with CaptureQueriesContext(connection) as big:
        data = snapshots.director_snapshot(bigger.pk)["data"]
    assert len(big.captured_queries) == len(small.captured_queries)
    assert [c["table"] for c in data["floor_calls"]] == [CONSOLE_FULL_TABLES + 12]


def test_a_room_of_tables_has_every_seat_in_the_director_snapshot(staff):
    """Up to 30 tables the console draws each seat: the player (a re-entry with its number), the
    chips and the button, as its page does."""
    from tests.factories import set_button

    tournament = live_tournament(players=10, seats_per_table=5, name="Room")
    table = tournament.tables.order_by("number").first()
    seat = table.seat_set.filter(entry__isnull=False).order_by("number").first()
    set_button(table, seat.number)
    entry = seat.entry
    entry.number = 2
    entry.chips = 4321
    entry.save()
    tables = snapshots.director_snapshot(tournament.pk)["data"]["tables"]
    first = next(t for t in tables if t["id"] == table.pk)
    shown = next(s for s in first["seats"] if s["number"] == seat.number)
    assert shown == {"number": seat.number, "name": f"{entry.player.name} #2", "chips": 4321}
    assert first["button_seat"] == seat.number
    assert sum(1 for t in tables for s in t["seats"] if s["name"]) == 10


def test_the_director_snapshot_counts_the_field_and_reads_the_levels_once(staff):
    """The field's figures, the prize pool and both payout panels come from one pass over the
    entries, and the structure's levels are read once: at 10,000 entries each extra pass cost the
    console several milliseconds (issue 11)."""
    tournament = live_tournament(players=12, seats_per_table=6, name="Once")
    snapshots.director_snapshot(tournament.pk)  # the per-process caches
    with CaptureQueriesContext(connection) as captured:
        data = snapshots.director_snapshot(tournament.pk)["data"]
    sql = [q["sql"] for q in captured.captured_queries]
    entry_counts = [s for s in sql if s.startswith("SELECT COUNT") and '"tournaments_entry"' in s]
    level_reads = [s for s in sql if 'FROM "tournaments_level"' in s]
    assert len(entry_counts) == 1, entry_counts
    assert len(level_reads) == 1, level_reads
    # The one pass still gives every figure the panels show.
    assert data["field"]["entries"] == data["console"]["entries_total"] == 12
    assert data["field"]["players_left"] == 12
    assert data["field"]["prize_pool"] == data["console"]["prize_pool"] > 0
    assert [p["amount"] for p in data["field"]["payouts"]] == data["console"]["payouts"]


def test_the_console_lists_the_players_in_by_name_then_those_out_by_place_up_to_its_limit():
    """The console's entries (its page and its snapshot): players still in first (one holding a
    place, as the winner does at the end, before the rest), each part by place then by name, an
    entry out without a place last; read part by part, so the limit cuts across the parts."""
    from tournaments.models import Entry

    tournament = live_tournament(players=8, seats_per_table=8, name="Order")
    entries = list(tournament.entries.select_related("player").order_by("pk"))
    names = ["Zoe", "Ada", "Mia", "Bea", "Kai", "Lou", "Ugo", "Eva"]
    for entry, name in zip(entries, names):
        entry.player.name = name
        entry.player.save()
    out = {"Kai": 7, "Lou": 5, "Ugo": None}  # busted: two placed, one without a place
    for entry in entries:
        name = entry.player.name
        if name in out:
            Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.BUSTED, place=out[name])
    Entry.objects.filter(pk=entries[0].pk).update(place=1)  # Zoe still in, holding a place

    shown = [str(e) for e in snapshots.console_entries(tournament)]
    assert shown == ["Zoe", "Ada", "Bea", "Eva", "Mia", "Lou", "Kai", "Ugo"]
    assert [str(e) for e in snapshots.console_entries(tournament, limit=6)] == shown[:6]
    assert [str(e) for e in snapshots.console_entries(tournament, "a", limit=3)] == ["Ada", "Bea", "Eva"]


def test_the_console_lists_the_waiting_moves_and_only_the_latest_unacknowledged_ones(client, staff):
    """Every move waiting for a hand to end is listed (R8.3), and of the moves made that no dealer
    acknowledged only the latest: over a big event's day thousands of them stayed "done", and the
    page and every console snapshot listed them all. The page and the snapshot list the same."""
    from screens.snapshots import CONSOLE_MOVES_LISTED
    from tables.models import Move

    client.force_login(staff)
    tournament = live_tournament(players=16, seats_per_table=8, name="Moves")
    first, second = tournament.tables.order_by("number")
    entries = list(tournament.entries.order_by("pk"))

    def move(i, status):
        return Move.objects.create(
            tournament=tournament,
            entry=entries[i % len(entries)],
            from_table=first,
            from_seat=1,
            to_table=second,
            to_seat=i % 8 + 1,  # one waiting move per seat
            reason=Move.Reason.BALANCE,
            status=status,
        ).pk

    waiting = [move(0, Move.Status.PENDING)]
    made = [move(i, Move.Status.DONE) for i in range(CONSOLE_MOVES_LISTED + 15)]
    move(1, Move.Status.ACKNOWLEDGED)
    waiting.append(move(2, Move.Status.PENDING))
    listed = sorted(waiting + made[-CONSOLE_MOVES_LISTED:])

    console = snapshots.director_snapshot(tournament.pk)["data"]["console"]
    assert [m["id"] for m in console["moves"]] == listed
    html = client.get(f"/console/{tournament.pk}/").content.decode()
    block = html.split('<ul data-role="moves">', 1)[1].split("</ul>", 1)[0]
    assert block.count("<li>") == len(listed) == CONSOLE_MOVES_LISTED + 2


def test_the_entry_form_offers_the_known_players_who_are_not_playing_this_tournament(client, staff):
    """The add-entry field suggests names already known: a player busted here (a re-entry) or met in
    another tournament, never one still playing here."""
    from tournaments import services
    from tournaments.models import Entry, Player

    client.force_login(staff)
    tournament = live_tournament(players=4, name="Known names", start=False)  # registration open
    elsewhere = live_tournament(players=0, name="Elsewhere")
    otto = Player.objects.create(name="Other-event Otto")
    services.register(elsewhere, otto)
    busted = tournament.entries.select_related("player").order_by("pk").first()
    Entry.objects.filter(pk=busted.pk).update(status=Entry.Status.BUSTED, chips=0)
    wanda = Player.objects.create(name="Walk-in Wanda")
    html = client.get(f"/console/{tournament.pk}/").content.decode()
    datalist = html.split('id="known-players"')[1].split("</datalist>")[0]
    offered = set(re.findall(r'<option value="([^"]*)">', datalist))
    playing = {
        e.player.name for e in tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("player")
    }
    assert {busted.player.name, wanda.name, otto.name} <= offered
    assert len(playing) == 3 and not offered & playing
