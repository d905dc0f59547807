import pytest

from tables import services
from tables.models import Move, SeatDraw, Table
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
