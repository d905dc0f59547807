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
