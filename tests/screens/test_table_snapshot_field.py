"""A table's snapshot between hands says whether it may deal (R8.3-R8.5), which needs figures about the
whole field. They are read once per tournament version and shared by every table's snapshot, so one
table's snapshot costs the same at 10 tables and at 1,250 (issue 11); a change of who sits where
moves the version, and the next snapshot reads them again."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from screens import snapshots
from tables import services as tables_services
from tables.models import Seat, Table
from tests.factories import make_tournament

pytestmark = pytest.mark.django_db


def _snapshot_queries(table_id):
    with CaptureQueriesContext(connection) as queries:
        data = snapshots.table_snapshot(table_id)["data"]
    return data, len(queries)


def test_the_fields_figures_are_read_once_per_version_for_every_tables_snapshot():
    tournament = make_tournament(players=40)  # five tables of 8, between hands
    first, second = Table.objects.filter(tournament=tournament).order_by("number")[:2]
    snapshots._FIELD_FIGURES.clear()
    _data, cold = _snapshot_queries(first.pk)
    data, warm = _snapshot_queries(second.pk)
    assert warm == cold - 3  # the largest table, the players seated, the most at one table
    assert data["table"]["halted_reason"] == ""


def test_the_halt_follows_the_field_when_the_fullest_tables_lose_players_R8_3(
    django_capture_on_commit_callbacks,
):
    """Table 2 is three short of the fullest tables: it halts. Then every other table loses a player:
    it is only two short, and its next snapshot lets it deal (the field's figures were read again)."""
    tournament = make_tournament(players=40)
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    short = tables[1]

    def unseat(entry):
        # Each in its own transaction, as in production (the version moves once per transaction).
        with django_capture_on_commit_callbacks(execute=True):
            tables_services.unseat_entry(entry)

    for seat in Seat.objects.filter(table=short, entry__isnull=False).order_by("number")[:3]:
        unseat(seat.entry)
    snapshots._FIELD_FIGURES.clear()
    for table in tables:  # every tablet has its snapshot: the figures are cached
        snapshots.table_snapshot(table.pk)
    halted = snapshots.table_snapshot(short.pk)["data"]["table"]["halted_reason"]
    assert halted == str(tables_services.HALT_MESSAGES["short"])
    for table in tables:
        if table.pk != short.pk:
            seat = Seat.objects.filter(table=table, entry__isnull=False).order_by("number").first()
            unseat(seat.entry)  # who sits where changed: the version moved
    assert snapshots.table_snapshot(short.pk)["data"]["table"]["halted_reason"] == ""
    assert tables_services.halted_reason(short) is None  # the same as the deal's own check
