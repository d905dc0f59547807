"""The director's hand on the seating: locked and reserved seats, opening a table, breaking one now.

Balancing (R8.3) never moves a locked player or fills a locked seat; a break (R8.4) moves everybody,
locked players too, and uses a seat locked empty only when no other seat is left; a reserved seat
waits for its player; a table breaks only between hands (R8.3) and never one of the last two (R8.5).
"""

import pytest
from django.core.exceptions import ValidationError

from tables import services
from tables.models import Move, Seat, SeatDraw, Table
from tests.factories import make_table, make_tournament
from tournaments import services as tournament_services
from tournaments.errors import RuleError, StateError
from tournaments.models import Entry, Player

from .seating import assert_consistent


def bust_quietly(entry):
    """A bust whose balancing has not run yet (the queued task runs after the commit)."""
    Entry.objects.filter(pk=entry.pk).update(chips=0)
    entry.refresh_from_db()
    tournament_services.bust_entries(entry.tournament, [(entry, 100)])
    services.release_and_rebalance(entry.tournament)


pytestmark = pytest.mark.django_db


def seats_of(table):
    return {s.number: s.entry_id for s in Seat.objects.filter(table=table).order_by("number")}


def three_small_tables():
    """Tables 1, 2 and 3 of three players each (8 seats), the director reviewing moves."""
    tournament, _first = make_table(stacks=(1000,) * 3, other_tables=(3, 3))
    return tournament, list(Table.objects.filter(tournament=tournament).order_by("number"))


# ---------------------------------------------------------------- locks and balancing (R8.3)


def test_r8_3_balancing_never_moves_a_locked_player_nor_fills_a_locked_seat(rng):
    """Tables of 8 and 7: every player of the long table but one is locked, and two of the short
    table's open seats too. Three busts at the short table (8 against 4) would call for two moves;
    only the one free player moves, into an open seat that is not locked."""
    tournament = make_tournament(players=15, rng=rng)
    long_table, short_table = sorted(
        Table.objects.filter(tournament=tournament),
        key=lambda t: -t.seat_set.filter(entry__isnull=False).count(),
    )
    occupied = list(long_table.seat_set.filter(entry__isnull=False).order_by("number"))
    free = occupied[0]
    for seat in occupied[1:]:
        services.lock_seat(seat, reason="TV table")
    for entry in Entry.objects.filter(seats__table=short_table).order_by("pk")[:3]:
        bust_quietly(entry)
    empty = list(short_table.seat_set.filter(entry__isnull=True).order_by("number"))
    kept_empty = empty[:2]
    for seat in kept_empty:
        services.lock_seat(seat, reason="wheelchair space")
    locked_before = {s.number: s.entry_id for s in occupied[1:]}
    moves = services.balance(tournament)

    assert [m.entry_id for m in moves] == [free.entry_id]
    assert moves[0].to_seat not in {s.number for s in kept_empty}
    after = seats_of(long_table)
    assert {n: after[n] for n in locked_before} == locked_before
    assert all(Seat.objects.get(pk=s.pk).entry_id is None for s in kept_empty)
    # Nothing more can be done: the rest of the long table is locked (the director sees it blocked).
    assert services.balance(tournament) == []
    assert_consistent(tournament)


def test_r8_4_a_break_moves_locked_players_and_takes_a_locked_seat_only_as_a_last_resort(rng):
    """Table 3 breaks with a locked player; table 1 keeps two open seats unlocked, table 2 has every
    open seat locked. Two of the three players take table 1's open seats, the third a locked seat at
    table 2, since no other is left; table 3's lock goes with the table."""
    tournament, (t1, t2, t3) = three_small_tables()
    services.lock_seat(t3.seat_set.filter(entry__isnull=False).first(), reason="press interview")
    t1_open = list(t1.seat_set.filter(entry__isnull=True).order_by("number"))
    for seat in t1_open[2:]:
        services.lock_seat(seat, reason="kept for the feature table")
    for seat in t2.seat_set.filter(entry__isnull=True):
        services.lock_seat(seat, reason="broken chair")
    leaving = set(t3.seat_set.filter(entry__isnull=False).values_list("entry_id", flat=True))

    moves = services.break_table(t3, rng=rng)

    assert {m.entry_id for m in moves} == leaving
    assert {m.reason for m in moves} == {Move.Reason.BREAK}
    t3.refresh_from_db()
    assert t3.status == Table.Status.BROKEN
    assert not t3.seat_set.filter(locked=True).exists()
    # Table 1's two unlocked open seats are taken first; one player goes to a locked seat at table 2.
    assert all(Seat.objects.get(pk=s.pk).entry_id in leaving for s in t1_open[:2])
    assert all(Seat.objects.get(pk=s.pk).entry_id is None for s in t1_open[2:])
    assert Seat.objects.filter(table=t2, locked=True, entry_id__in=leaving).count() == 1
    assert SeatDraw.objects.filter(tournament=tournament, kind=SeatDraw.Kind.BREAK).count() == 1
    assert_consistent(tournament)


# ---------------------------------------------------------------- breaking a table now (R8.4)


def test_breaking_a_table_is_refused_during_its_hand_and_changes_nothing():
    """R8.3: moves happen between hands: a table mid-hand is not broken (409); after the hand it is."""
    _tournament, (_t1, _t2, t3) = three_small_tables()
    services.hand_started(t3)
    before = seats_of(t3)
    with pytest.raises(StateError) as refused:
        services.break_table(t3)
    assert refused.value.status == 409 and refused.value.code == "hand_in_progress"
    assert "R8.3" in str(refused.value)
    t3.refresh_from_db()
    assert t3.status == Table.Status.ACTIVE and seats_of(t3) == before
    services.hand_finished(t3, button_seat=1, big_blind_seat=2)
    services.break_table(t3)
    t3.refresh_from_db()
    assert t3.status == Table.Status.BROKEN and not t3.seat_set.filter(entry__isnull=False).exists()


def test_breaking_one_of_the_last_two_tables_is_refused_r8_5():
    tournament, table = make_table(stacks=(1000,) * 3, other_tables=(3,))
    with pytest.raises(RuleError) as refused:
        services.break_table(table)
    assert refused.value.status == 422 and refused.value.rule == "R8.5"
    assert refused.value.params["minimum"] == 3
    assert Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE).count() == 2


def test_a_table_whose_players_do_not_fit_is_not_broken_until_a_table_is_opened(rng):
    """Three full tables of 8: table 3's players fit nowhere (409, R8.4). The director opens table 4;
    then table 3 breaks and its players are spread over the open seats."""
    tournament = make_tournament(players=24, rng=rng)
    t3 = Table.objects.get(tournament=tournament, number=3)
    with pytest.raises(StateError) as refused:
        services.break_table(t3)
    assert refused.value.code == "no_open_seat" and refused.value.rule == "R8.4"
    assert refused.value.params == {"players": 8, "seats": 0}
    assert "open a table first" in str(refused.value)

    t4 = services.open_table(tournament)
    assert (t4.number, t4.seats) == (4, 8)
    services.break_table(t3, rng=rng)
    t3.refresh_from_db()
    assert t3.status == Table.Status.BROKEN
    assert Seat.objects.filter(table=t4, entry__isnull=False).count() >= 1
    assert_consistent(tournament)


# ---------------------------------------------------------------- opening a table


def test_opening_a_table_numbers_it_after_the_last_and_breaks_it_first(rng):
    tournament = make_tournament(players=10, rng=rng, plan={"review_moves": True})
    table = services.open_table(tournament)
    assert table.number == 3 and table.status == Table.Status.ACTIVE
    assert table.seat_set.count() == tournament.seats_per_table
    assert table.break_order > max(
        Table.objects.filter(tournament=tournament).exclude(pk=table.pk).values_list("break_order", flat=True)
    )
    outer = services.open_table(tournament, number=101, seats=6)
    assert (outer.number, outer.seat_set.count()) == (101, 6)


def test_opening_a_table_refuses_a_ninth_seat_and_a_number_in_use(rng):
    tournament = make_tournament(players=10, rng=rng)
    with pytest.raises(RuleError) as ninth:
        services.open_table(tournament, seats=9)
    assert ninth.value.status == 422 and ninth.value.rule == "R2.7"
    assert (ninth.value.params["minimum"], ninth.value.params["maximum"]) == (2, 8)
    with pytest.raises(StateError) as taken:
        services.open_table(tournament, number=1)
    assert taken.value.code == "table_open"
    assert Table.objects.filter(tournament=tournament).count() == 2


def test_a_broken_table_opens_again_under_its_number():
    tournament, (_t1, _t2, t3) = three_small_tables()
    services.break_table(t3)
    again = services.open_table(tournament, number=3, seats=6)
    assert again.pk == t3.pk and again.status == Table.Status.ACTIVE
    assert again.seat_set.count() == 6 and again.button_seat is None


def test_no_table_opens_before_the_draw():
    tournament = make_tournament(players=4, stage="registering")
    with pytest.raises(StateError):
        services.open_table(tournament)


# ---------------------------------------------------------------- reservations


def test_a_reserved_seat_waits_for_its_player_and_nobody_else_gets_it(rng):
    """The seat kept for "Zoé Martin" is skipped by the late entries before her (R8.1 draws only open
    seats) and taken by her registration, typed without the accent; the reservation is then used up."""
    # One table of 6 at 8 seats (two open seats), late registration open.
    tournament = make_tournament(players=6, rng=rng, late_registration_until_level=2)
    table = Table.objects.get(tournament=tournament)
    kept = table.seat_set.filter(entry__isnull=True).order_by("number").first()
    services.reserve_seat(kept, player_name="Zoé  Martin", reason="registered by phone")
    kept.refresh_from_db()
    assert kept.locked and kept.reserved_for == "Zoé Martin" and kept.lock_reason == "registered by phone"

    first = tournament_services.register(tournament, Player.objects.create(name="Early Bird"))
    assert first.seats.get().number != kept.number
    zoe = tournament_services.register(tournament, Player.objects.create(name="zoe martin"))
    seat = zoe.seats.get()
    assert (seat.table_id, seat.number) == (table.pk, kept.number)
    assert not seat.locked and seat.reserved_for == "" and seat.lock_reason == ""
    assert_consistent(tournament)


def test_a_reserved_seat_is_not_filled_by_balancing(rng):
    """8 against 5 after three busts at the short table: of its three open seats two are reserved, so
    the player moved in takes the third (R8.3 picks among open seats only)."""
    tournament = make_tournament(players=15, rng=rng)
    _long_table, short_table = sorted(
        Table.objects.filter(tournament=tournament),
        key=lambda t: -t.seat_set.filter(entry__isnull=False).count(),
    )
    for entry in Entry.objects.filter(seats__table=short_table).order_by("pk")[:2]:
        bust_quietly(entry)
    open_seats = list(short_table.seat_set.filter(entry__isnull=True).order_by("number"))
    assert len(open_seats) == 3
    for seat in open_seats[:2]:
        services.reserve_seat(seat, player_name=f"Returning {seat.number}", reason="back from the break")
    moves = services.balance(tournament)
    assert [m.to_seat for m in moves] == [open_seats[2].number]
    for seat in open_seats[:2]:
        assert Seat.objects.get(pk=seat.pk).entry_id is None
    assert_consistent(tournament)


def test_reservations_are_refused_for_a_taken_seat_a_seated_player_or_without_a_reason(rng):
    tournament = make_tournament(players=6, rng=rng)
    table = Table.objects.get(tournament=tournament)
    taken = table.seat_set.filter(entry__isnull=False).select_related("entry__player").first()
    empty = table.seat_set.filter(entry__isnull=True).order_by("number")
    with pytest.raises(StateError) as occupied:
        services.reserve_seat(taken, player_name="Someone", reason="x")
    assert occupied.value.code == "seat_taken"
    with pytest.raises(StateError) as seated_already:
        services.reserve_seat(empty[0], player_name=taken.entry.player.name.upper(), reason="x")
    assert seated_already.value.code == "already_seated"
    with pytest.raises(ValidationError):
        services.reserve_seat(empty[0], player_name="Someone", reason=" ")
    services.reserve_seat(empty[0], player_name="Someone", reason="late")
    with pytest.raises(StateError) as twice:
        services.reserve_seat(empty[1], player_name="someone", reason="late")
    assert twice.value.code == "already_reserved"
    services.unlock_seat(empty[0])  # cancelling the reservation frees the seat
    seat = Seat.objects.get(pk=empty[0].pk)
    assert not seat.locked and seat.reserved_for == ""


def test_a_manual_move_into_a_locked_or_reserved_seat_is_refused_until_it_is_unlocked(rng):
    tournament = make_tournament(players=10, rng=rng, plan={"review_moves": True})
    t1, t2 = Table.objects.filter(tournament=tournament).order_by("number")
    player = t1.seat_set.filter(entry__isnull=False).select_related("entry__player").first().entry
    locked, reserved = t2.seat_set.filter(entry__isnull=True).order_by("number")[:2]
    services.lock_seat(locked, reason="wobbly chair")
    services.reserve_seat(reserved, player_name="Someone Else", reason="late")
    with pytest.raises(StateError) as refused:
        services.move_entry(player, t2, locked.number, reason="closer to the rail")
    assert refused.value.code == "seat_locked" and "wobbly chair" in str(refused.value)
    with pytest.raises(StateError):
        services.move_entry(player, t2, reserved.number, reason="closer to the rail")
    assert player.seats.get().table_id == t1.pk
    assert player.seats.get().table_id == t1.pk
    services.unlock_seat(locked)
    move = services.move_entry(player, t2, locked.number, reason="closer to the rail")
    assert move.status == Move.Status.DONE and move.note == "closer to the rail"
    assert Seat.objects.get(pk=locked.pk).entry_id == player.pk


# ---------------------------------------------------------------- the chart on the clock


def test_the_chart_goes_on_the_clock_only_once_seats_are_drawn(rng):
    planned = make_tournament(players=4, stage="registering")
    with pytest.raises(StateError):
        services.show_chart_on_clock(planned, True)
    tournament = make_tournament(players=4, rng=rng)
    version = tournament.version
    assert services.show_chart_on_clock(tournament, True).chart_on_clock
    tournament.refresh_from_db()
    assert tournament.version > version  # every clock screen hears of it
    assert not services.show_chart_on_clock(tournament, False).chart_on_clock
