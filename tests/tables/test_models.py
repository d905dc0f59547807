"""The database itself refuses double-booking and a ninth seat (R2.7)."""

import pytest
from django.db import IntegrityError, transaction

from tables import services
from tables.models import Move, Seat, Table
from tests.factories import make_tournament
from tournaments.errors import RuleError
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(rng):
    tournament = make_tournament(players=10, rng=rng)
    return tournament


def refused(callable_):
    with pytest.raises(IntegrityError), transaction.atomic():
        callable_()


def test_one_seat_per_entry(drawn):
    seated = Seat.objects.filter(table__tournament=drawn, entry__isnull=False).first()
    empty = Seat.objects.filter(table__tournament=drawn, entry__isnull=True).first()
    refused(lambda: Seat.objects.filter(pk=empty.pk).update(entry=seated.entry))


def test_one_row_per_seat_number(drawn):
    table = Table.objects.get(tournament=drawn, number=1)
    refused(lambda: Seat.objects.create(table=table, number=3))


def test_r2_7_no_ninth_seat_and_no_table_for_nine(drawn):
    table = Table.objects.get(tournament=drawn, number=1)
    refused(lambda: Seat.objects.create(table=table, number=9))
    refused(lambda: Table.objects.create(tournament=drawn, number=5, seats=9))
    refused(lambda: Table.objects.filter(pk=table.pk).update(button_seat=9))


def test_r2_7_a_tournament_asking_for_nine_seats_is_refused_a_draw():
    tournament = make_tournament(players=12, stage="registering")
    type(tournament).objects.filter(pk=tournament.pk).update(seats_per_table=9)
    tournament.refresh_from_db()
    with pytest.raises(RuleError) as error:
        services.draw_seats(tournament)
    assert error.value.rule == "R2.7"
    assert not Table.objects.filter(tournament=tournament).exists()


def test_one_pending_move_per_entry_and_per_seat(drawn):
    t1, t2 = Table.objects.filter(tournament=drawn).order_by("number")
    a, b = Entry.objects.filter(tournament=drawn)[:2]
    Move.objects.create(
        tournament=drawn,
        entry=a,
        from_table=t1,
        from_seat=1,
        to_table=t2,
        to_seat=8,
        reason="balance",
        status="pending",
    )
    refused(
        lambda: Move.objects.create(
            tournament=drawn,
            entry=a,
            from_table=t1,
            from_seat=1,
            to_table=t2,
            to_seat=7,
            reason="balance",
            status="pending",
        )
    )
    refused(
        lambda: Move.objects.create(
            tournament=drawn,
            entry=b,
            from_table=t1,
            from_seat=2,
            to_table=t2,
            to_seat=8,
            reason="balance",
            status="pending",
        )
    )
