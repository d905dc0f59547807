import pytest

from tables import services
from tables.models import Move, Seat, SeatDraw, Table
from tests.factories import make_tournament

from .seating import assert_consistent, bust, seated

pytestmark = pytest.mark.django_db


def test_draw_seats_balances_the_field_and_records_the_seed():
    """R8.1: 20 players at 8-handed tables: three tables of 7, 7, 6, every seat drawn from a recorded seed."""
    tournament = make_tournament(players=20, stage="registering")
    draw = services.draw_seats(tournament)
    counts = sorted(len(v) for v in seated(tournament).values())
    assert counts == [6, 7, 7]
    assert len(bytes(draw.seed)) == 32
    assert len(draw.assignment) == 20
    assert_consistent(tournament)


def test_the_drawn_tables_and_seats_are_written_as_the_models_say_R8_1():
    """R8.1/R8.4: the draw writes its tables and seats in one statement each (tables.bulk): every table
    active, 8 seats numbered 1-8, breaking highest number first; every drawn player's seat occupied
    and stamped, the empty seats open (not locked, reserved or waiting), matching the recorded draw."""
    tournament = make_tournament(players=20, stage="registering")
    draw = services.draw_seats(tournament)
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    assert [(t.number, t.seats, t.break_order, t.status, t.version) for t in tables] == [
        (n, 8, n, Table.Status.ACTIVE, 0) for n in (1, 2, 3)
    ]
    assert [t.button_seat for t in tables] == [None] * 3 and not any(t.hand_in_progress for t in tables)
    seats = list(Seat.objects.filter(table__tournament=tournament).order_by("table__number", "number"))
    assert [(s.table.number, s.number) for s in seats] == [(t, n) for t in (1, 2, 3) for n in range(1, 9)]
    drawn = {(row["table"], row["seat"]): row["entry"] for row in draw.assignment}
    assert {(s.table.number, s.number): s.entry_id for s in seats if s.entry_id} == drawn
    for seat in seats:
        assert (seat.seated_at is not None) == (seat.entry_id is not None)
        assert not seat.locked and not seat.waits_for_big_blind
        assert seat.lock_reason == seat.reserved_for == seat.reserved_key == ""


def test_bust_outs_keep_tables_within_one_and_break_tables(rng):
    """R8.3/R8.4: bust players one by one; tables stay within one, tables break, the final table is drawn once."""
    tournament = make_tournament(players=20, rng=rng)
    entries = list(tournament.entries.order_by("pk"))
    rng.shuffle(entries)
    for entry in entries[:-2]:
        bust(entry)
        assert_consistent(tournament)
        counts = [len(v) for v in seated(tournament).values()]
        if len(counts) > 1:
            assert max(counts) - min(counts) <= 1
    assert Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE).count() == 1
    assert SeatDraw.objects.filter(tournament=tournament, kind=SeatDraw.Kind.FINAL).count() == 1
    assert Move.objects.filter(tournament=tournament, reason=Move.Reason.REDRAW).count() == 8
