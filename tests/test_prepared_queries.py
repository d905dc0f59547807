"""config.prepared: a read of a fixed shape gives what its queryset gives, for every value it is called
with, its SQL built once (issue 11: the ORM's compiling cost more than the database's answer)."""

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.test.utils import CaptureQueriesContext

from config.prepared import (
    GuardFailed,
    PreparedQuery,
    UnpreparableQuery,
    WriteGuard,
    insert_rows,
    update_row,
    update_rows,
)
from dealing.models import Hand, HandEvent
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


def test_a_guarded_read_checks_the_callers_condition_in_its_own_statement():
    """A tablet's deal and hand end lock their row with the device's check read in the same statement
    (screens.tablet_inputs): the row when the condition holds, GuardFailed when it does not (nothing
    is written then), None when there is no row; each guard with its own values."""
    _, table = make_table(stacks=(1000, 2000))
    prepared = PreparedQuery(lambda pk: Table.objects.filter(pk=pk).order_by()[:1])
    seated = 'EXISTS (SELECT 1 FROM "tables_seat" s WHERE s."table_id" = %s AND s."number" = %s AND s."entry_id" IS NOT NULL)'
    with CaptureQueriesContext(connection) as queries:
        found = prepared.first_guarded(WriteGuard(seated, (table.pk, 1)), table.pk)
    assert found.pk == table.pk and len(queries) == 1
    with pytest.raises(GuardFailed):
        prepared.first_guarded(WriteGuard(seated, (table.pk, 7)), table.pk)  # nobody in seat 7
    assert prepared.first_guarded(WriteGuard(seated, (table.pk, 1)), 10**12) is None
    assert prepared.first_guarded(None, table.pk).pk == table.pk


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


def _event_columns(hand_id):
    return list(
        HandEvent.objects.filter(hand_id=hand_id)
        .order_by("seq")
        .values_list("seq", "type", "payload", "device", "client_action_id", "request_digest", "created_at")
    )


def test_prepared_inserts_store_what_bulk_create_stores_and_give_each_row_its_key():
    """The dealer input's events (dealing.services._append) are written by ``insert_rows``: the same
    rows as the ORM's bulk_create, JSON, NULLs and the auto_now_add time included, keys in order."""
    _tournament, table = make_table(stacks=(1000, 2000))
    hands = [Hand.objects.create(table=table, number=n, config={}) for n in (1, 2)]

    def events(hand):
        return [
            HandEvent(hand=hand, seq=0, type="blinds", payload={"posted": {"1": 50}, "é": [None, 1.5]}),
            HandEvent(hand=hand, seq=1, type="action", payload={}, device="tablet 1", client_action_id="a1"),
            HandEvent(
                hand=hand, seq=2, type="deal", payload={"cards": ["As", "Kd"]}, request_digest="d" * 64
            ),
        ]

    ours, django = events(hands[0]), events(hands[1])
    insert_rows(ours)
    HandEvent.objects.bulk_create(django)
    assert [e.pk for e in ours] == sorted(e.pk for e in ours)
    assert [e.pk for e in ours] == list(
        HandEvent.objects.filter(hand=hands[0]).order_by("seq").values_list("pk", flat=True)
    )
    assert all(not e._state.adding for e in ours)
    mine, theirs = _event_columns(hands[0].pk), _event_columns(hands[1].pk)
    assert [row[:-1] for row in mine] == [row[:-1] for row in theirs]
    assert all(row[-1] is not None for row in mine)  # created_at set, as auto_now_add does
    insert_rows([])  # nothing to write: nothing written
    with pytest.raises(IntegrityError), transaction.atomic():  # the (hand, seq) constraint still holds
        insert_rows(events(hands[0])[:1])


def test_a_prepared_update_changes_one_row_as_queryset_update_does():
    _tournament, table = make_table(stacks=(1000, 2000))
    first, second = (Hand.objects.create(table=table, number=n, config={"n": n}) for n in (1, 2))
    assert update_row(Hand, first.pk, state={"phase": "flop", "board": ["2c"]}, state_seq=7) == 1
    assert update_row(Hand, first.pk, state=None, state_seq=8) == 1  # None is SQL NULL, as update() writes it
    assert update_row(Hand, 10**12, state_seq=1) == 0
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.state, first.state_seq) == (None, 8)
    assert (second.state, second.state_seq) == (None, -1)  # the other row untouched
    update_row(Hand, second.pk, state={"phase": "flop"}, state_seq=3)
    assert Hand.objects.get(pk=second.pk).state == {"phase": "flop"}
    with pytest.raises(UnpreparableQuery):
        update_row(Hand, first.pk, state_seq=F("state_seq") + 1)  # an expression needs the ORM


def test_prepared_row_updates_set_each_rows_own_value_as_bulk_update_does():
    """The stacks written back at a hand's end (dealing.services._finish, R8.8): each entry gets its own
    chips, a zero and a count past 2**31 included, and the entries not named keep theirs."""
    tournament, _table = make_table(stacks=(1000, 2000, 3000, 4000))
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    first, second, third, untouched = entries[:4]
    assert update_rows(Entry, "chips", {first.pk: 0, second.pk: 5_000_000_000, third.pk: 2500}) == 3
    chips = dict(Entry.objects.filter(tournament=tournament).values_list("pk", "chips"))
    assert chips[first.pk] == 0 and chips[second.pk] == 5_000_000_000 and chips[third.pk] == 2500
    assert chips[untouched.pk] == untouched.chips
    assert update_rows(Entry, "chips", {}) == 0
    assert update_rows(Entry, "chips", {10**12: 1}) == 0  # no such entry: nothing changed
    with CaptureQueriesContext(connection) as captured:
        update_rows(Entry, "chips", {first.pk: 7, untouched.pk: 8})
    assert len(captured.captured_queries) == 1
    assert dict(Entry.objects.filter(pk__in=[first.pk, untouched.pk]).values_list("pk", "chips")) == {
        first.pk: 7,
        untouched.pk: 8,
    }
