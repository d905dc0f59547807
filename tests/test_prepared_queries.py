"""config.prepared: a read of a fixed shape gives what its queryset gives, for every value it is called
with, its SQL built once (issue 11: the ORM's compiling cost more than the database's answer)."""

import datetime

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from config.prepared import PreparedQuery, UnpreparableQuery
from tables.models import Seat, Table
from tests.factories import make_table
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def seats_query(table_id):
    return Seat.objects.filter(table_id=table_id).select_related("entry__player").order_by("number")


def described(seats):
    return [
        (s.pk, s.table_id, s.number, s.entry_id, s.entry.player.name if s.entry_id else None) for s in seats
    ]


def test_each_call_reads_its_own_values_with_the_related_rows_the_queryset_joins():
    tournament, first = make_table(stacks=(1000, 2000, 3000), other_tables=[4])
    other = Table.objects.filter(tournament=tournament).exclude(pk=first.pk).get()
    prepared = PreparedQuery(seats_query)
    for table in (first, other, first):  # the SQL is built at the first call, the values change
        with CaptureQueriesContext(connection) as queries:
            found = prepared(table.pk)
        assert described(found) == described(seats_query(table.pk))
        assert len(queries) == 1  # the players came with their seats, not read one by one
    assert sum(1 for s in prepared(first.pk) if s.entry_id) == 3
    assert prepared(10**12) == []


def test_fields_come_back_converted_as_the_orm_gives_them():
    tournament, table = make_table(stacks=(1000, 2000))
    prepared = PreparedQuery(
        lambda pk: Table.objects.select_related("tournament__structure").filter(pk=pk).order_by()[:1]
    )
    found = prepared.first(table.pk)
    assert isinstance(found.tournament.created_at, datetime.datetime)
    assert found.tournament.created_at == tournament.created_at
    assert found.tournament.structure.name == tournament.structure.name
    assert found.tournament.version == Table.objects.get(pk=table.pk).tournament.version
    assert prepared.first(10**12) is None


def test_an_argument_used_twice_and_constant_values_are_both_kept():
    tournament, first = make_table(stacks=(1000, 2000), other_tables=[3])
    other = Table.objects.filter(tournament=tournament).exclude(pk=first.pk).get()

    def query(table_id):
        return Seat.objects.filter(
            Q(table_id=table_id, entry__isnull=False) | Q(table_id=table_id, number=1)
        ).order_by("number")

    prepared = PreparedQuery(query)
    assert [s.pk for s in prepared(first.pk)] == [s.pk for s in query(first.pk)]
    assert [s.pk for s in prepared(other.pk)] == [s.pk for s in query(other.pk)]
    assert {s.table_id for s in prepared(other.pk)} == {other.pk}


@pytest.mark.parametrize(
    ("build", "argument"),
    [
        (lambda ids: Seat.objects.filter(table_id__in=ids), [1, 2]),  # a list: its length changes the SQL
        (lambda day: Entry.objects.filter(created_at__date=day), datetime.date(2026, 1, 1)),
        (lambda name: Entry.objects.filter(player__name__icontains=name), "ann"),  # rewritten to %ann%
        (lambda pk: Seat.objects.filter(pk=pk).values("number"), 1),  # not model instances
    ],
)
def test_a_shape_that_cannot_be_prepared_is_refused_at_its_first_call(build, argument):
    with pytest.raises(UnpreparableQuery):
        PreparedQuery(build)(argument)
