"""The director's console at a big event: past a room's worth of tables (30) each table is one line,
rendered in Python (screens.console_lists) with the same words as the template did, in the staff
member's language."""

import re

import pytest

from dealing.services import start_next_hand
from screens.snapshots import CONSOLE_TABLES_WITH_SEATS
from tables.models import Table
from tests.factories import make_tournament

pytestmark = pytest.mark.django_db

TABLES = CONSOLE_TABLES_WITH_SEATS + 2


@pytest.fixture
def big_room():
    tournament = make_tournament(players=TABLES * 2, seats_per_table=2)
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    start_next_hand(tables[0])  # a hand under way at table 1
    # The last table broken (its players gone to the others): the console still lists it, as broken,
    # and offers no tablet pairing to it.
    Table.objects.filter(pk=tables[-1].pk).update(status=Table.Status.BROKEN)
    tables[-1].seat_set.update(entry=None, seated_at=None)
    return tournament, tables


def _lines(page: str) -> list[str]:
    block = re.search(r'<ul class="compact-tables" data-role="compact-tables">(.*?)</ul>', page, re.S).group(
        1
    )
    return re.findall(r"<li .*?</li>", block, re.S)


def test_each_table_is_one_line_with_its_players_its_hand_and_its_tablet(client, staff, big_room):
    tournament, tables = big_room
    client.force_login(staff)
    page = client.get(f"/console/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"{TABLES} tables: one line each; the seating chart has every seat." in page
    lines = _lines(page)
    assert len(lines) == TABLES
    first, second, last = lines[0], lines[1], lines[-1]
    assert first == (
        f'<li data-table="1"><a href="/tablet/{tables[0].pk}/" target="_blank">Table 1</a>'
        ' <span class="muted">2 players</span> <span class="pill ok">hand</span></li>'
    )
    assert 'data-table="2"' in second and '<span class="muted">2 players</span></li>' in second
    assert "hand" not in second
    assert (
        f">Table {TABLES}</a>" in last and "0 players" in last and '<span class="pill">Broken</span>' in last
    )
    # Pairing a tablet: every table but the broken one.
    select = re.search(r'<select name="table"[^>]*>(.*?)</select>', page, re.S).group(1)
    options = re.findall(r'<option value="(\d+)">Table (\d+)</option>', select)
    assert options == [(str(t.pk), str(t.number)) for t in tables[:-1]]


def test_the_table_lines_speak_the_staff_members_language(client, staff, big_room):
    tournament, tables = big_room
    client.force_login(staff)
    client.post("/console/language/", {"language": "it", "next": "/console/"})
    page = client.get(f"/console/{tournament.pk}/").content.decode()
    lines = _lines(page)
    assert ">Tavolo 1</a>" in lines[0] and "2 giocatori" in lines[0]
    assert f'<option value="{tables[1].pk}">Tavolo 2</option>' in page
