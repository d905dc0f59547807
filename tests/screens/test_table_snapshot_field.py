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
    snapshots.table_snapshot(first.pk)  # the tournament's part (tablets_data) is kept: not counted here
    tables_services._FIELD_FIGURES.clear()
    _data, cold = _snapshot_queries(first.pk)
    data, warm = _snapshot_queries(second.pk)
    assert warm == cold - 1  # the field's figures (largest table, seated, most at one): one read
    assert data["table"]["halted_reason"] == ""


def test_the_tournaments_part_of_every_tablet_is_built_once_per_version_and_follows_a_level_change(
    django_capture_on_commit_callbacks,
):
    """What every tablet shows of the tournament (its level, clock and color-up) is the same for the
    1,250 tables: read once per version, and a level jump moves the version, so the next snapshot
    shows the new level."""
    from tournaments.services.clock_control import jump_to_level

    tournament = make_tournament(players=40)
    first, second = Table.objects.filter(tournament=tournament).order_by("number")[:2]
    snapshots.table_snapshot(first.pk)  # the field's figures are kept: not counted here
    snapshots._TABLETS_DATA.clear()
    before, cold = _snapshot_queries(first.pk)
    _data, warm = _snapshot_queries(second.pk)
    assert warm == cold - 1  # the structure's levels
    assert snapshots.tablets_snapshot(tournament.pk)["data"]["level"] == before["level"]
    with django_capture_on_commit_callbacks(execute=True):
        jump_to_level(tournament, before["level"]["index"] + 1)
    after, _queries = _snapshot_queries(second.pk)
    assert after["level"]["index"] == before["level"]["index"] + 1
    assert after["clock"]["level_index"] == before["clock"]["level_index"] + 1
    assert snapshots.tablets_snapshot(tournament.pk)["data"]["level"] == after["level"]


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
    tables_services._FIELD_FIGURES.clear()
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


def test_another_tournament_with_the_same_id_and_version_does_not_share_its_figures_R8_3():
    """A restored or test database may give a new tournament the id and version of one this process
    has seen: the figures kept for that one must not halt (or free) this one's tables."""
    from datetime import timedelta

    from tournaments.models import Tournament

    tournament = make_tournament(players=40)  # five full tables of 8
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    tables_services._FIELD_FIGURES.clear()
    assert snapshots.table_snapshot(tables[1].pk)["data"]["table"]["halted_reason"] == ""  # kept: 8 at most
    # "Another" tournament under the same id and version: table 2 has 5 players, every other table 7.
    # Written behind the services' back, so the version does not move.
    Tournament.objects.filter(pk=tournament.pk).update(created_at=tournament.created_at + timedelta(days=1))
    for table in tables:
        gone = 3 if table.pk == tables[1].pk else 1
        ids = (
            Seat.objects.filter(table=table, entry__isnull=False)
            .order_by("number")
            .values_list("pk", flat=True)[:gone]
        )
        Seat.objects.filter(pk__in=list(ids)).update(entry=None)
    # Two short of the fullest table is not short (R8.3): with the other tournament's figures it would be.
    assert snapshots.table_snapshot(tables[1].pk)["data"]["table"]["halted_reason"] == ""
    assert tables_services.halted_reason(tables[1]) is None


def test_a_deal_reads_the_fields_figures_once_per_version_like_the_snapshots_R8_3():
    """Dealing checks the halt (R8.3-R8.5) with the same figures: the second table's deal at the same
    tournament version does not count the whole field's seats again."""
    from dealing import services as dealing_services

    tournament = make_tournament(players=40)
    first, second = Table.objects.filter(tournament=tournament).order_by("number")[:2]
    tables_services._FIELD_FIGURES.clear()
    with CaptureQueriesContext(connection) as cold:
        dealing_services.start_next_hand(first)
    with CaptureQueriesContext(connection) as warm:
        dealing_services.start_next_hand(second)
    assert len(warm) == len(cold) - 1  # the field's figures: one read
    assert Table.objects.filter(pk__in=[first.pk, second.pk], hand_in_progress=True).count() == 2
