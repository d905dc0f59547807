import pytest
from django.db import transaction

from tables import services
from tables.models import Move, Seat, SeatDraw, Table
from tests.factories import make_tournament
from tournaments.errors import StateError
from tournaments.models import Entry

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


def _a_break_decided(rng):
    """Tables of 7, 7 and 6 with four busts at table 3 and nothing written yet: the 16 left fit at two
    tables, so the decision breaks table 3 (R8.4) and moves its two players on."""
    tournament = make_tournament(players=20, rng=rng)
    out = Seat.objects.filter(table__tournament=tournament, table__number=3, entry__isnull=False)
    for entry_id in list(out.values_list("entry_id", flat=True)[:4]):
        Entry.objects.filter(pk=entry_id).update(status=Entry.Status.BUSTED, chips=0)
    services.release_and_rebalance(tournament)
    snapshot = services._Snapshot(tournament, rng=rng, lock=True)  # read as the balance writes it
    decision = snapshot.field.decide()
    assert decision.broken == [3] and len(decision.moves) == 2
    return tournament, snapshot, decision


def test_a_break_moves_each_player_once_and_records_every_move_R8_4(rng):
    tournament, snapshot, decision = _a_break_decided(rng)
    with transaction.atomic():
        rows = services._write(snapshot, decision)
    assert [r.pk is not None and r.status == Move.Status.DONE for r in rows] == [True] * 2
    for move in decision.moves:
        seat = Seat.objects.get(
            table__tournament=tournament, table__number=move.to_table, number=move.to_seat
        )
        assert seat.entry_id == move.player and seat.seated_at is not None
    assert not Seat.objects.filter(
        table__number=3, table__tournament=tournament, entry__isnull=False
    ).exists()
    assert_consistent(tournament)


def test_moves_written_after_the_seating_changed_under_them_are_refused_R8_4(rng):
    """The decision is written only onto the seating it was read from: a mover no longer in their
    seat, or a seat taken meanwhile, refuses the whole decision (409 seating_changed), nothing moved."""
    tournament, snapshot, decision = _a_break_decided(rng)
    before = seated(tournament)
    first = decision.moves[0]
    stays = Seat.objects.filter(table__tournament=tournament, table__number=1, entry__isnull=False).first()

    def mover_left():
        Seat.objects.filter(entry_id=first.player).update(entry=None)

    def seat_taken():
        Seat.objects.filter(pk=stays.pk).update(entry=None)
        Seat.objects.filter(
            table__tournament=tournament, table__number=first.to_table, number=first.to_seat
        ).update(entry=stays.entry_id)

    for change in (mover_left, seat_taken):
        with pytest.raises(StateError) as refused, transaction.atomic():
            change()
            services._write(snapshot, decision)
        assert refused.value.code == "seating_changed"
        assert seated(tournament) == before
        assert not Move.objects.filter(tournament=tournament).exists()


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
