"""A floor decision (a balance, a hand's end with a bust, a late entry's seat) reads the field without
locks and then locks only the tables it changes (tables.services._Snapshot.confirm). At a 1,250-table
event every deal and hand end waited while a decision held every table; now only the tables that
give or take a player do. A table that changed between the read and the lock makes the decision be
taken again from a new read, and after a few such reads with every table locked, so a rule is never
decided on a stale table (R8.1, R8.3)."""

import threading

import pytest
from django.db import connection, transaction

from config.locks import gave_up_waiting
from tables import services, tasks
from tables.models import Move, Seat, Table
from tests.factories import make_tournament
from tests.integration.processes import wait_for
from tournaments.models import Entry, Tournament, tournament_changed

from .seating import assert_consistent, bust_seats, lock_waiters, postgresql_only, run_together, seated, table


def changed_before_the_lock(monkeypatch, change):
    """``change(numbers)`` runs once, when the decision locks its tables: what a deal or hand end
    committed at them between the unlocked read and the lock."""
    confirm = services._Snapshot.confirm
    calls = []

    def confirm_after_change(snapshot, numbers):
        if not calls:
            change(numbers)
        calls.append(set(numbers))
        return confirm(snapshot, numbers)

    monkeypatch.setattr(services._Snapshot, "confirm", confirm_after_change)
    return calls


@pytest.mark.django_db
def test_r8_3_a_hand_dealt_at_the_long_table_before_the_lock_makes_the_move_wait_for_it(rng, monkeypatch):
    tournament = make_tournament(players=24, rng=rng)  # 8, 8, 8
    bust_seats(tournament, 1, 2)  # 6, 8, 8: a player of table 2 or 3 goes to table 1

    def deal_at_the_long_tables(numbers):
        Table.objects.filter(tournament=tournament, number__in=(2, 3)).update(hand_in_progress=True)

    calls = changed_before_the_lock(monkeypatch, deal_at_the_long_tables)
    locked_reads = every_table_locked(monkeypatch)
    [move] = services.balance(tournament, rng=rng)
    # Decided as read, the player would have been moved out of a hand in progress; decided again from
    # a new read, the move waits for that hand (R8.3: a table mid-hand finishes it first). The table
    # stood still the second time: no read with every table locked.
    assert len(calls) == 2 and calls[0] & {2, 3} and calls[1] & {2, 3}
    assert locked_reads == []
    assert move.status == Move.Status.PENDING and move.to_table.number == 1
    assert Seat.objects.filter(entry_id=move.entry_id, table=move.from_table).exists()
    assert sorted(len(v) for v in seated(tournament).values()) == [6, 8, 8]
    assert_consistent(tournament)


def every_table_locked(monkeypatch) -> list:
    """The reads of the field a decision makes with every table locked (the last resort)."""
    init = services._Snapshot.__init__
    locked = []

    def init_and_count(snapshot, tournament, rng=None, *, lock=False):
        if lock:
            locked.append(tournament.pk)
        init(snapshot, tournament, rng, lock=lock)

    monkeypatch.setattr(services._Snapshot, "__init__", init_and_count)
    return locked


@pytest.mark.django_db
def test_r8_3_a_table_that_changes_at_every_read_has_the_decision_taken_with_every_table_locked(
    rng, monkeypatch
):
    tournament = make_tournament(players=24, rng=rng)  # 8, 8, 8
    bust_seats(tournament, 1, 2)  # 6, 8, 8
    confirm = services._Snapshot.confirm
    calls = []

    def a_hand_starts_or_ends_there_each_time(snapshot, numbers):
        # Between each read and its lock, a hand starts (or ends) at the tables that give the player.
        calls.append(set(numbers))
        for number in numbers - {1}:
            t = table(tournament, number)
            Table.objects.filter(pk=t.pk).update(hand_in_progress=not t.hand_in_progress)
        return confirm(snapshot, numbers)

    monkeypatch.setattr(services._Snapshot, "confirm", a_hand_starts_or_ends_there_each_time)
    locked_reads = every_table_locked(monkeypatch)
    [move] = services.balance(tournament, rng=rng)
    # Read again without locks as often as UNLOCKED_READS says, then read with every table locked,
    # so a decision is never taken on a stale table however busy it is (R8.1, R8.3).
    assert len(calls) == services.UNLOCKED_READS
    assert locked_reads == [tournament.pk]
    hands = {t.number: t.hand_in_progress for t in Table.objects.filter(tournament=tournament)}
    if hands[move.from_table.number]:
        assert move.status == Move.Status.PENDING  # R8.3: that table's hand is played out first
    else:
        assert move.status == Move.Status.DONE
    assert_consistent(tournament)


@pytest.mark.django_db
def test_r8_3_a_balance_locks_only_the_tables_that_give_and_take_the_player(rng, monkeypatch):
    tournament = make_tournament(players=40, rng=rng)  # five tables of 8
    bust_seats(tournament, 1, 2)
    calls = changed_before_the_lock(monkeypatch, lambda numbers: None)
    [move] = services.balance(tournament, rng=rng)
    assert move.status == Move.Status.DONE
    assert calls == [{1, move.from_table.number}]
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 7, 8, 8, 8]
    assert_consistent(tournament)


@pytest.mark.django_db
def test_r8_1_a_late_entry_seated_where_a_hand_just_ended_waits_as_the_new_positions_say(monkeypatch):
    tournament = make_tournament(players=7)  # one table of 8, one seat open
    t1 = table(tournament, 1)
    empty = Seat.objects.get(table=t1, entry__isnull=True).number
    late = Entry.objects.create(
        tournament=tournament, player=Entry.objects.first().player, number=2, chips=1000
    )

    def hand_ended_with_the_seat_in_the_gap(numbers):
        # Read before any hand, the seat is dealt in at once; the hand that ended meanwhile put the
        # button just before it and the big blind just after it (R8.1: it waits for the big blind).
        Table.objects.filter(pk=t1.pk).update(button_seat=(empty - 2) % 8 + 1, big_blind_seat=empty % 8 + 1)

    calls = changed_before_the_lock(monkeypatch, hand_ended_with_the_seat_in_the_gap)
    seat = services.seat_entry(late)
    assert calls == [{1}]
    assert (seat.table_id, seat.number) == (t1.pk, empty)
    assert seat.waits_for_big_blind
    assert not services.dealt_in_next_hand(table(tournament, 1), seat)


@pytest.mark.django_db
def test_r8_3_a_hand_end_with_a_bust_makes_the_waiting_move_and_locks_only_its_tables(rng, monkeypatch):
    tournament = make_tournament(players=32, rng=rng)  # 8, 8, 8, 8
    for number in (2, 3, 4):
        services.hand_started(table(tournament, number))
    bust_seats(tournament, 1, 2)  # 6 against 8: the move out of a dealing table waits for its hand
    [waiting] = services.balance(tournament, rng=rng)
    assert waiting.status == Move.Status.PENDING
    source = waiting.from_table
    calls = changed_before_the_lock(monkeypatch, lambda numbers: None)
    # The source table's hand ends with a bust there: its waiting balance move is decided again.
    Entry.objects.filter(
        pk__in=Seat.objects.filter(table=source, entry__isnull=False)
        .exclude(entry_id=waiting.entry_id)
        .values_list("entry_id", flat=True)[:1]
    ).update(status=Entry.Status.BUSTED, chips=0)
    services.hand_finished(source, button_seat=1, big_blind_seat=2, busted=True)
    waiting.refresh_from_db()
    assert waiting.status in (Move.Status.DONE, Move.Status.CANCELLED)
    [touched] = calls
    assert source.number in touched and len(touched) <= 3
    assert sorted(len(v) for v in seated(tournament).values()) in ([6, 7, 8, 8], [7, 7, 7, 8])
    assert_consistent(tournament)


# ---------------------------------------------------------------- on PostgreSQL: the row locks themselves


def decided_while_another_table_deals(tournament, busy_number, decide):
    """``decide()`` runs while another connection holds table ``busy_number`` as a deal does; with a
    lock timeout, so a decision that waited for that table fails instead of waiting."""
    held, done = threading.Event(), threading.Event()

    def dealer():
        with transaction.atomic():
            list(
                Table.objects.select_for_update(no_key=True).filter(tournament=tournament, number=busy_number)
            )
            held.set()
            done.wait(20)

    def floor():
        held.wait(20)
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '3s'")
                decide()
        finally:
            done.set()

    run_together(dealer, floor)


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_r8_3_a_balance_does_not_wait_for_a_table_being_dealt_that_it_does_not_change(rng):
    tournament = make_tournament(players=32, rng=rng)  # 8, 8, 8, 8
    bust_seats(tournament, 1, 2)
    [suggested] = services.suggested_moves(tournament)
    busy = ({2, 3, 4} - {suggested.from_table.number}).pop()
    decided_while_another_table_deals(tournament, busy, lambda: services.balance(tournament))
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 7, 8, 8]
    assert_consistent(tournament)


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_r8_8_a_hand_end_with_a_bust_does_not_wait_for_the_tables_being_dealt(rng):
    tournament = make_tournament(players=32, rng=rng)
    t1 = table(tournament, 1)
    services.hand_started(t1)
    bust_seats(tournament, 1, 2)
    [suggested] = services.suggested_moves(tournament)
    busy = ({2, 3, 4} - {suggested.from_table.number}).pop()

    def hand_end():
        services.hand_finished(t1, button_seat=1, big_blind_seat=2, busted=True)

    decided_while_another_table_deals(tournament, busy, hand_end)
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 7, 8, 8]
    assert_consistent(tournament)


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_r8_3_a_balance_gives_way_to_a_dealer_whose_hand_end_needs_the_tournament(rng, monkeypatch):
    """The dealer's input holds its table from the start and learns only at the hand's end that it
    needs the tournament (a bust, an all-in run-out); the balance holds the tournament and then wants
    that table. They deadlocked, and PostgreSQL failed the one that waited first a second later: the
    dealer's input. Now the balance gives way at once (config.locks) and runs again a moment later."""
    tournament = make_tournament(players=32, rng=rng)  # 8, 8, 8, 8
    bust_seats(tournament, 1, 2)
    [suggested] = services.suggested_moves(tournament)
    source = suggested.from_table.number  # the balance locks this table to move a player out of it
    version = Tournament.objects.get(pk=tournament.pk).version
    requeued, outcome = [], {}
    monkeypatch.setattr(
        tasks.balance_tournament, "apply_async", lambda args, countdown: requeued.append((args, countdown))
    )
    dealing, deciding = threading.Event(), threading.Event()
    confirm = services._Snapshot.confirm

    def confirm_once_the_dealer_waits(snapshot, numbers):
        deciding.set()  # the balance holds the tournament and has decided
        wait_for(lock_waiters, timeout=10, interval=0.025, what="the dealer waiting for the tournament")
        return confirm(snapshot, numbers)

    monkeypatch.setattr(services._Snapshot, "confirm", confirm_once_the_dealer_waits)

    def dealer():
        with transaction.atomic():
            list(Table.objects.select_for_update(no_key=True).filter(tournament=tournament, number=source))
            dealing.set()
            deciding.wait(20)
            tournament_changed(tournament.pk)  # the hand ends needing the tournament, as a run-out does
        outcome["dealer"] = "committed"

    def floor():
        dealing.wait(20)
        try:
            outcome["moves"] = tasks.balance_tournament(tournament.pk)
        except Exception as error:  # what the old lock order gave: a deadlock, either side failing
            outcome["floor"] = error

    run_together(dealer, floor)
    assert outcome == {"dealer": "committed", "moves": 0}, outcome
    assert Tournament.objects.get(pk=tournament.pk).version == version + 1
    # It changed nothing and queued itself again; run again, it balances (R8.3).
    assert requeued == [((tournament.pk,), tasks.AGAIN)]
    assert not Move.objects.filter(tournament=tournament).exists()
    monkeypatch.setattr(services._Snapshot, "confirm", confirm)
    assert tasks.balance_tournament(tournament.pk) == 1
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 7, 8, 8]
    assert_consistent(tournament)
    assert not gave_up_waiting(ValueError())
