"""R8.5: the final table is drawn once the field fits at one table and can no longer grow; a field that
grows again is redrawn again; the last two tables follow the redraw plan; a redraw deals everybody in."""

import random

import pytest
from django.core.exceptions import ValidationError

from tables import balancing, services
from tables.balancing import Field, Options, TableState
from tables.models import Move, Seat, SeatDraw, Table
from tests.factories import make_tournament
from tournaments.models import Entry, Player
from tournaments.services import register

from .seating import assert_consistent, seated


def table(number, seats, *, size=8, button=None, big_blind=None, hand=False):
    return TableState(
        number=number,
        size=size,
        seats=dict(seats),
        button=button,
        big_blind=big_blind,
        hand_in_progress=hand,
        break_order=number,
    )


def players(first, seats):
    return {seat: first + i for i, seat in enumerate(seats)}


# ---------------------------------------------------------------- the pure rules


def test_r8_5_no_redraw_while_the_field_can_grow_and_the_last_two_tables_never_merge_by_a_break():
    field = Field(
        [table(1, players(100, range(1, 4))), table(2, players(200, range(1, 4)))],
        Options(can_grow=True),
        rng=random.Random(1),
    )
    decision = field.decide()
    assert not decision.final_redraw and decision.broken == [] and decision.moves == []
    assert field.halted() == {}  # both tables deal on, three-handed
    # Registration closes: now the field cannot grow, and it fits: the redraw.
    field.options.can_grow = False
    assert field.halted_reason(1) == "final_table_redraw"
    decision = field.decide()
    assert decision.final_redraw and decision.broken == [2]
    assert all(not m.waits_for_big_blind for m in decision.moves)


def test_r8_5_a_field_that_grew_onto_a_second_table_is_redrawn_again_when_it_fits():
    field = Field(
        [table(1, players(100, range(1, 6))), table(2, players(200, range(1, 4)))], rng=random.Random(2)
    )
    assert field.decide().final_redraw
    assert field.options.final_redraw_done
    # An undone bust and a late seat: nine players, a second table opens (the Field is built afresh).
    seats = dict(field.tables[1].seats)
    grown = Field(
        [table(1, seats), table(3, {1: 999})], Options(final_redraw_done=True), rng=random.Random(3)
    )
    assert not grown.decide().final_redraw  # nine do not fit
    assert sorted(len(t.seats) for t in grown.tables.values()) == [4, 5]
    grown.bust(999 if 999 in grown.where else next(iter(grown.tables[3].seats.values())))
    decision = grown.decide()
    assert decision.final_redraw and sorted(m.to_seat for m in decision.moves) == list(range(1, 9))


def test_r8_5_the_last_two_tables_seat_the_plans_number_each():
    """Plan: two tables of at most 5 before a final table of 8 (TDA RP-9). Three tables of 4: twelve
    players do not fit at two tables of 5, so the third-last table plays on; at ten it breaks into
    two of 5; at eight the final table is drawn."""
    tables = [table(n, players(100 * n, range(1, 5))) for n in (1, 2, 3)]
    field = Field(tables, Options(two_table_seats=5, final_table_size=8), rng=random.Random(4))
    assert field.decide().broken == []
    field.bust(300)
    assert field.decide().broken == []  # 11 players: still three tables
    field.bust(301)
    decision = field.decide()
    assert decision.broken == [3]
    assert sorted(len(t.seats) for n, t in field.tables.items() if not t.broken) == [5, 5]
    field.bust(100)
    assert not field.decide().final_redraw  # 9: two tables of 5 and 4
    field.bust(200)
    assert field.decide().final_redraw
    # Without the plan the third-last table breaks at once into two tables of 6.
    tables = [table(n, players(100 * n, range(1, 5))) for n in (1, 2, 3)]
    assert Field(tables, Options(final_table_size=8), rng=random.Random(4)).decide().broken == [3]


# ---------------------------------------------------------------- through the services

pytestmark_db = pytest.mark.django_db


def bust_ids(ids):
    Entry.objects.filter(pk__in=ids).update(status=Entry.Status.BUSTED, chips=0)


@pytestmark_db
def test_r8_5_no_final_table_redraw_while_late_registration_is_open_then_one_when_it_closes(rng):
    tournament = make_tournament(players=16, late_registration_until_level=1, max_reentries=1, rng=rng)
    ids = list(
        Seat.objects.filter(table__tournament=tournament, entry__isnull=False).values_list(
            "entry_id", flat=True
        )
    )
    bust_ids(ids[:10])  # six left: they would fit at one table
    services.balance(tournament)
    assert SeatDraw.objects.filter(tournament=tournament, kind=SeatDraw.Kind.FINAL).count() == 0
    assert sorted(len(v) for v in seated(tournament).values()) == [3, 3]
    assert all(reason is None for reason in services.halted_reasons(tournament).values())
    # A new player and a re-entry while it is open: seated at once at the shortest tables (R8.1).
    register(tournament, Player.objects.create(name="Late"))
    register(tournament, Entry.objects.get(pk=ids[0]).player)
    services.balance(tournament)
    assert sorted(len(v) for v in seated(tournament).values()) == [4, 4]
    assert SeatDraw.objects.filter(tournament=tournament, kind=SeatDraw.Kind.FINAL).count() == 0
    # Late registration closes: the field can no longer grow and fits: the final table is drawn.
    tournament.late_registration_until_level = 0
    tournament.save(update_fields=["late_registration_until_level"])
    moves = services.balance(tournament)
    assert {m.reason for m in moves} == {Move.Reason.REDRAW} and len(moves) == 8
    assert list(seated(tournament)) == [1]
    assert not Seat.objects.filter(table__tournament=tournament, waits_for_big_blind=True).exists()
    assert_consistent(tournament)


@pytestmark_db
def test_r8_5_redraw_again_after_the_field_grew_and_everybody_is_dealt_in(rng):
    tournament = make_tournament(players=10, rng=rng)
    ids = list(
        Seat.objects.filter(table__tournament=tournament, entry__isnull=False).values_list(
            "entry_id", flat=True
        )
    )
    bust_ids(ids[:2])
    assert len(services.balance(tournament)) == 8  # the first final-table redraw
    final = Table.objects.get(tournament=tournament, status=Table.Status.ACTIVE)
    services.hand_started(final)
    services.hand_finished(final, button_seat=2, big_blind_seat=4)
    # The field grows again (an entry the director seats, an undone bust...): a ninth player opens a table.
    late = Entry.objects.create(tournament=tournament, player=Player.objects.create(name="Ninth"), chips=1000)
    services.seat_entry(late, rng=rng)
    services.balance(tournament)
    assert sorted(len(v) for v in seated(tournament).values()) == [4, 5]
    # Back to eight: the final table is drawn again, at random, everybody dealt in at once.
    bust_ids(
        list(Seat.objects.filter(table=final, entry__isnull=False).values_list("entry_id", flat=True))[:1]
    )
    moves = services.balance(tournament)
    assert {m.reason for m in moves} == {Move.Reason.REDRAW} and len(moves) == 8
    assert SeatDraw.objects.filter(tournament=tournament, kind=SeatDraw.Kind.FINAL).count() == 2
    final = Table.objects.get(tournament=tournament, status=Table.Status.ACTIVE)
    assert final.button_seat is None and final.big_blind_seat is None  # a new draw for the button
    seats = Seat.objects.filter(table=final, entry__isnull=False)
    assert seats.count() == 8 and all(services.dealt_in_next_hand(final, s) for s in seats)
    assert_consistent(tournament)


@pytestmark_db
def test_r8_5_the_redraw_plan_is_a_setting(rng):
    tournament = make_tournament(players=12, stage="registering")
    plan = services.update_plan(tournament, two_table_seats=5, final_table_seats=8)
    assert (plan.two_table_seats, plan.final_table_seats) == (5, 8)
    with pytest.raises(ValidationError):
        services.update_plan(tournament, two_table_seats=9)
    services.draw_seats(tournament, rng)  # two tables of 6
    services.balance(tournament)
    assert sorted(len(v) for v in seated(tournament).values()) == [6, 6]


def test_r8_5_a_redraw_move_never_waits_for_the_big_blind():
    """The final table had positions: seats 2-5 would wait for a newcomer (R8.1), not at a redraw."""
    field = Field(
        [table(1, players(100, [1, 3, 5, 7]), button=1, big_blind=5), table(2, players(200, [1, 2, 3]))],
        rng=random.Random(7),
    )
    decision = field.decide()
    assert decision.final_redraw
    assert all(m.reason == balancing.REDRAW and not m.waits_for_big_blind for m in decision.moves)
    assert field.tables[1].button is None and field.tables[1].big_blind is None
