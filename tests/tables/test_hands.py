"""The tables services around hands: pending moves, dealing in (R8.1), halts (R8.3), breaks (R8.4),
the final table (R8.5), the balance task."""

import pytest
from django.db.models import F

from tables import balancing, services, tasks
from tables.models import Move, Seat, SeatDraw, Table
from tests.factories import make_tournament
from tournaments.errors import StateError
from tournaments.models import Entry, Tournament

from .seating import assert_consistent, bust_seats, seated, table

pytestmark = pytest.mark.django_db


def test_r8_3_move_from_a_table_mid_hand_waits_and_is_decided_again_when_it_ends(rng):
    tournament = make_tournament(players=16, rng=rng)
    t1, t2 = table(tournament, 1), table(tournament, 2)
    services.hand_started(t1)
    services.hand_finished(t1, button_seat=1, big_blind_seat=3)
    services.hand_started(t2)
    services.hand_finished(t2, button_seat=2, big_blind_seat=4)
    services.hand_started(t2)
    bust_seats(tournament, 1, 2)  # 6 against 8
    [pending] = services.balance(tournament)
    assert pending.status == Move.Status.PENDING and pending.from_table == t2
    assert services.balance(tournament) == []  # idempotent: the waiting move is not planned twice
    assert_consistent(tournament)
    # The hand ends with the big blind on seat 5: the player due to move is now the one after seat 5.
    done = services.hand_finished(t2, button_seat=3, big_blind_seat=5)
    pending.refresh_from_db()
    assert pending.status == Move.Status.CANCELLED
    [move] = done
    state = balancing.TableState(
        number=2,
        size=8,
        big_blind=5,
        seats={s.number: s.entry_id for s in Seat.objects.filter(table=t2, entry__isnull=False)},
    )
    state.seats[move.from_seat] = move.entry_id
    assert move.from_seat == state.next_big_blind_seat()
    assert move.to_table == t1 and move.status == Move.Status.DONE
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 7]
    assert_consistent(tournament)


def test_r8_3_the_field_figures_of_the_halt_check_count_only_active_tables(rng):
    """The halt check compares a table with the fullest active table (R8.3) and the players left with
    one table's worth (R8.5); a broken table whose players wait for their hand to end to move, and an
    empty table, count as they should: the first not at all, the second as a table of 0."""
    tournament = make_tournament(players=18, rng=rng, seats_per_table=6)  # 6, 6, 6
    Seat.objects.filter(table=table(tournament, 2), number__gt=4).update(entry=None)  # 6, 4, 6
    Table.objects.filter(pk=table(tournament, 3).pk).update(status=Table.Status.BROKEN)  # 6 still sit
    Table.objects.create(tournament=tournament, number=4, seats=8)  # an active table, nobody yet
    Table.objects.create(tournament=tournament, number=5, seats=2, status=Table.Status.BROKEN)
    assert services.field_figures(tournament) == services.FieldFigures(largest=8, seated=10, most=6)
    Seat.objects.filter(table=table(tournament, 1), number__gt=3).update(entry=None)  # 3, 4
    assert services.field_figures(tournament) == services.FieldFigures(largest=8, seated=7, most=4)


def test_r8_3_a_table_three_short_may_not_deal(rng):
    tournament = make_tournament(players=16, rng=rng)
    services.hand_started(table(tournament, 2))
    bust_seats(tournament, 1, 3)  # 5 against 8: a move waits for table 2's hand
    services.balance(tournament)
    t1 = table(tournament, 1)
    assert "three or more players short" in services.halted_reason(t1)
    with pytest.raises(StateError) as error:
        services.hand_started(t1)
    assert error.value.code == "table_halted"
    t1.refresh_from_db()
    assert not t1.hand_in_progress


def test_r8_1_late_entry_between_small_blind_and_button_waits_for_the_big_blind():
    tournament = make_tournament(players=7)
    t1 = table(tournament, 1)
    empty = Seat.objects.get(table=t1, entry__isnull=True).number
    # Put the button just before the empty seat and the big blind just after it: the seat is in the gap.
    button = (empty - 2) % 8 + 1
    big_blind = empty % 8 + 1
    services.hand_started(t1)
    services.hand_finished(t1, button_seat=button, big_blind_seat=big_blind)
    late = Entry.objects.create(
        tournament=tournament, player=Entry.objects.first().player, number=2, chips=1000
    )
    seat = services.seat_entry(late)
    assert (seat.table_id, seat.number) == (t1.pk, empty)
    assert seat.waits_for_big_blind
    assert not services.dealt_in_next_hand(t1, seat)
    assert services.dealt_in_next_hand(t1, Seat.objects.get(table=t1, number=big_blind % 8 + 1))
    # The big blind goes round; when it reaches the late entry they post it and play from then on.
    services.hand_started(t1)
    services.hand_finished(t1, button_seat=big_blind, big_blind_seat=empty)
    seat.refresh_from_db()
    assert not seat.waits_for_big_blind and services.dealt_in_next_hand(t1, seat)


def test_r8_1_late_entry_is_dealt_in_at_once_elsewhere_and_a_full_room_opens_a_table(rng):
    tournament = make_tournament(players=16, rng=rng)
    late = Entry.objects.create(
        tournament=tournament, player=Entry.objects.first().player, number=2, chips=1000
    )
    seat = services.seat_entry(late, rng=rng)
    assert seat.table.number == 3 and not seat.waits_for_big_blind
    assert services.dealt_in_next_hand(seat.table, seat)
    assert table(tournament, 3).break_order == 3  # the newest table breaks first
    # The balance task then fills the new table: 8, 8, 1 -> 6, 6, 5 (R8.3).
    services.balance(tournament)
    assert sorted(len(v) for v in seated(tournament).values()) == [5, 6, 6]
    assert_consistent(tournament)
    assert SeatDraw.objects.filter(tournament=tournament, kind=SeatDraw.Kind.LATE).count() == 1


def test_seating_a_busted_or_seated_entry_is_refused(rng):
    tournament = make_tournament(players=9, rng=rng)
    entry = Entry.objects.filter(tournament=tournament).first()
    with pytest.raises(StateError):
        services.seat_entry(entry)
    Seat.objects.filter(entry=entry).update(entry=None)
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.BUSTED)
    with pytest.raises(StateError):
        services.seat_entry(entry)


def test_r8_4_breaking_table_mid_hand_moves_its_players_when_the_hand_ends(rng):
    tournament = make_tournament(players=20, rng=rng)  # 7, 7, 6
    t3 = table(tournament, 3)
    services.hand_started(t3)
    bust_seats(tournament, 1, 2)
    bust_seats(tournament, 2, 2)  # 16 players: fits in two tables, table 3 breaks
    moves = services.balance(tournament)
    assert {m.reason for m in moves} == {Move.Reason.BREAK}
    assert all(m.status == Move.Status.PENDING for m in moves)
    t3.refresh_from_db()
    assert t3.status == Table.Status.BROKEN
    assert "breaking" in services.halted_reason(t3)
    assert_consistent(tournament)
    services.hand_finished(t3, button_seat=1, big_blind_seat=3)
    assert sorted(len(v) for v in seated(tournament).values()) == [8, 8]
    assert not Seat.objects.filter(table=t3, entry__isnull=False).exists()
    assert Move.objects.filter(tournament=tournament, reason="break", status="done").count() == len(moves)
    assert_consistent(tournament)


def test_r8_5_final_table_redraw_happens_once_and_can_be_replayed(rng):
    tournament = make_tournament(players=10)
    draw = SeatDraw.objects.get(tournament=tournament, kind=SeatDraw.Kind.START)
    entries = sorted(tournament.entries.values_list("pk", flat=True))
    replay = balancing.initial_draw(entries, [(1, 8), (2, 8)], balancing.DrawRandom(bytes(draw.seed)))
    assert {a["entry"]: (a["table"], a["seat"]) for a in draw.assignment} == replay
    bust_seats(tournament, 2, 2)  # 8 left: they fit at one table
    moves = services.balance(tournament)
    assert len(moves) == 8 and {m.reason for m in moves} == {Move.Reason.REDRAW}
    assert {m.to_table.number for m in moves} == {1}
    assert services.seating_plan(tournament).final_redraw_at is not None
    assert services.balance(tournament) == []
    bust_seats(tournament, 1, 1)
    assert services.balance(tournament) == []
    assert SeatDraw.objects.filter(tournament=tournament, kind=SeatDraw.Kind.FINAL).count() == 1
    assert_consistent(tournament)


def test_balance_task_runs_after_a_bust_is_committed(
    rng, django_capture_on_commit_callbacks, balance_task_inline
):
    tournament = make_tournament(players=16, rng=rng)
    bust_seats(tournament, 1, 2)
    with django_capture_on_commit_callbacks(execute=True):
        services.release_and_rebalance(tournament)
    assert balance_task_inline == [tournament.pk]
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 7]
    assert tasks.balance_tournament(tournament.pk) == 0  # run again: nobody moves twice
    assert Move.objects.filter(tournament=tournament, status="done").count() == 1


def test_the_balance_task_leaves_a_balanced_field_unlocked(rng, monkeypatch):
    """The beat runs the balance task every 15 s; on a balanced field it must not take the locks that
    keep every deal and hand end of the event waiting (services.balance_due is read without one)."""
    tournament = make_tournament(players=24, rng=rng)  # 8, 8, 8
    services.hand_started(table(tournament, 2))
    assert not services.balance_due(tournament)

    def locked_balance(*args, **kwargs):
        raise AssertionError("balance locked a balanced field")

    monkeypatch.setattr(services, "balance", locked_balance)
    assert tasks.balance_tournament(tournament.pk) == 0
    assert tasks.balance_running_tournaments() == 0


def test_a_field_that_moved_while_the_task_read_it_is_read_again_before_the_tournament_is_locked(
    rng, monkeypatch
):
    """A bust elsewhere while the balance task read the field (50 ms at 1,250 tables) made the balance
    read it all again holding the tournament, and every bust of the event (each in a dealer's input,
    with that server's other inputs behind it) waited that long. The task now reads it again first,
    without the lock, and the balance decides under the lock with that second read (R8.3)."""
    tournament = make_tournament(players=24, rng=rng)  # 8, 8, 8
    gone = bust_seats(tournament, 1, 2)
    Seat.objects.filter(entry_id__in=gone).update(entry=None)  # out and their seats freed: 6, 8, 8
    reads, in_balance = [], []
    init, balance = services._Snapshot.__init__, services.balance

    def read(snapshot, tournament, rng=None, *, lock=False):
        reads.append("holding the tournament" if in_balance else "unlocked")
        if len(reads) == 1:  # a bust elsewhere commits while the first read runs
            Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
        init(snapshot, tournament, rng, lock=lock)

    def balance_holding_the_tournament(*args, **kwargs):
        in_balance.append(True)
        return balance(*args, **kwargs)

    monkeypatch.setattr(services._Snapshot, "__init__", read)
    monkeypatch.setattr(services, "balance", balance_holding_the_tournament)
    assert tasks.balance_tournament(tournament.pk) == 1
    assert reads == ["unlocked", "unlocked"]
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 7, 8]
    assert_consistent(tournament)


def test_r8_3_r8_8_what_makes_balancing_due(rng):
    """Every state in which balance() would change something is seen by the unlocked read, and the
    task then does it; afterwards nothing is due."""
    tournament = make_tournament(players=24, rng=rng)  # 8, 8, 8
    # R8.8: a busted player still in his seat.
    bust_seats(tournament, 1, 1)
    assert services.balance_due(tournament)
    assert tasks.balance_tournament(tournament.pk) == 0  # 7, 8, 8 is balanced: the seat is freed
    assert not Seat.objects.filter(table__tournament=tournament, entry__status=Entry.Status.BUSTED).exists()
    assert not services.balance_due(tournament)
    # R8.3: two short at one table (6 against 8) while the others deal: the move out of a dealing
    # table waits for its hand; then it is due once that hand is over.
    services.hand_started(table(tournament, 2))
    services.hand_started(table(tournament, 3))
    bust_seats(tournament, 1, 1)
    assert services.balance_due(tournament)
    [waiting] = services.balance(tournament)
    assert waiting.status == Move.Status.PENDING
    assert not services.balance_due(tournament)  # decided: nothing more to do until its hand ends
    Table.objects.filter(pk=waiting.from_table_id).update(hand_in_progress=False)  # ended, move unmade
    assert services.balance_due(tournament)
    assert tasks.balance_tournament(tournament.pk) >= 1
    waiting.refresh_from_db()
    assert waiting.status in (Move.Status.DONE, Move.Status.CANCELLED)
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 7, 8]
    assert not services.balance_due(tournament)
    assert_consistent(tournament)


def snapshots_read(monkeypatch) -> list[bool]:
    """Each whole-field read of tables.services from now on: whether it was under every table's lock."""
    reads = []
    real = services._Snapshot

    class Counted(real):
        def __init__(self, *args, **kwargs):
            reads.append(kwargs.get("lock", False))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(services, "_Snapshot", Counted)
    return reads


def test_r8_3_the_balance_task_reads_the_field_once_and_locks_only_to_write(rng, monkeypatch):
    """At 1,250 tables the whole field is the cost of a balance, and every bust waits while the
    tournament is locked: the task's unlocked read and decision are the ones written when nothing
    moved the field meanwhile."""
    tournament = make_tournament(players=24, rng=rng)  # 8, 8, 8
    bust_seats(tournament, 1, 2)
    services.release_and_rebalance(tournament)  # 6, 8, 8: one player comes to table 1
    reads = snapshots_read(monkeypatch)
    assert tasks.balance_tournament(tournament.pk) == 1
    assert reads == [False]
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 7, 8]
    assert_consistent(tournament)


def test_r8_1_r8_3_a_seat_taken_between_the_read_and_the_lock_is_decided_again(rng, monkeypatch):
    """A late entry seated at the short table (R8.1: the shortest table) while the task waits for the
    tournament's lock balances it already: the balance decides on the field as it is once it holds
    the lock (here read again because it freed a busted player's seat first), and nobody is moved
    for nothing (R8.3)."""
    tournament = make_tournament(players=24, rng=rng)
    bust_seats(tournament, 1, 1)
    services.release_and_rebalance(tournament)
    bust_seats(tournament, 1, 1)  # 6, 8, 8 once the second is released: due
    late = Entry.objects.create(
        tournament=tournament, player=Entry.objects.first().player, number=2, chips=1000
    )
    reads = snapshots_read(monkeypatch)
    real_lock, seated_late = services._lock, []

    def lock_after_a_late_entry(t):
        if not seated_late:
            seated_late.append(None)
            seated_late[0] = services.seat_entry(late)  # committed before the task's lock
        return real_lock(t)

    monkeypatch.setattr(services, "_lock", lock_after_a_late_entry)
    assert tasks.balance_tournament(tournament.pk) == 0
    assert seated_late[0].table.number == 1
    assert reads == [False, False]  # the late entry's seat, then the balance under the lock
    assert not Move.objects.filter(tournament=tournament).exists()
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 8, 8]
    assert_consistent(tournament)


@pytest.mark.django_db(transaction=True)  # each change commits on its own, as at the event
def test_r8_3_busts_at_a_table_the_read_did_not_touch_are_decided_again(rng, monkeypatch):
    """Five players of the other long table bust after the task read the field: the move it decided
    (a long table to the short one) would leave a table three short. Nothing it would touch changed,
    but the tournament's version did: the field is read again under the lock and balanced as it is."""
    monkeypatch.setattr(services, "_queue_balance", lambda tournament_id: None)  # the test runs it
    tournament = make_tournament(players=24, rng=rng)  # 8, 8, 8
    bust_seats(tournament, 3, 2)
    services.release_and_rebalance(tournament)  # 8, 8, 6: one player to table 3
    [suggested] = services.suggested_moves(tournament)
    other = ({1, 2} - {suggested.from_table.number}).pop()
    reads = snapshots_read(monkeypatch)
    real_lock, busted = services._lock, []

    def lock_after_busts_elsewhere(t):
        if not busted:
            busted.extend(bust_seats(tournament, other, 5))  # committed before the task's lock
            services.release_and_rebalance(tournament)
        return real_lock(t)

    monkeypatch.setattr(services, "_lock", lock_after_busts_elsewhere)
    tasks.balance_tournament(tournament.pk)
    counts = sorted(len(v) for v in seated(tournament).values())
    assert len(busted) == 5 and sum(counts) == 17 and counts[-1] - counts[0] <= 1, counts
    assert reads[:2] == [False, False]
    assert_consistent(tournament)


def test_r8_3_a_bust_that_leaves_the_field_level_is_told_from_the_counts_without_reading_the_seats(
    rng, monkeypatch
):
    """The balance task a bust queues reads the tables' counts first: 7, 8, 8 is level (R8.3), and
    the seats are not read at all; 6, 8, 8 is not, and the field is read and balanced."""
    tournament = make_tournament(players=24, rng=rng)  # 8, 8, 8
    bust_seats(tournament, 1, 1)
    services.release_and_rebalance(tournament)  # the busted player's seat freed: 7, 8, 8
    real_snapshot = services._Snapshot

    def no_seats_read(*args, **kwargs):
        raise AssertionError("the whole field was read")

    monkeypatch.setattr(services, "_Snapshot", no_seats_read)
    assert not services.balance_due(tournament)
    assert tasks.balance_tournament(tournament.pk) == 0  # moves made
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 8, 8]

    monkeypatch.setattr(services, "_Snapshot", real_snapshot)
    bust_seats(tournament, 1, 1)
    services.release_and_rebalance(tournament)  # 6, 8, 8 once the seat is freed
    assert services.balance_due(tournament)
    assert tasks.balance_tournament(tournament.pk) == 1  # one player moves to table 1
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 7, 8]
    assert not services.balance_due(tournament)
    assert_consistent(tournament)


def test_a_field_that_changes_while_it_is_read_unlocked_is_left_to_the_locked_balance(rng, monkeypatch):
    """The unlocked read takes the tables and the seats in separate statements: a table added between
    them (a seat at a table it did not read) means "decide under the lock", never an error in the task."""
    tournament = make_tournament(players=24, rng=rng)  # 8, 8, 8: at rest, the seats are not read
    assert services._due(tournament) is None
    # Two players leave table 1 (6, 8, 8): out of balance (R8.3), so the whole field is read and decided.
    Seat.objects.filter(
        pk__in=[s.pk for s in table(tournament, 1).seat_set.filter(entry__isnull=False)[:2]]
    ).update(entry=None)
    assert isinstance(services._due(tournament), services._ReadAhead)

    def changed_meanwhile(*args, **kwargs):
        raise KeyError(99)  # what _Snapshot meets: a seat's table not among the tables read

    monkeypatch.setattr(services, "_Snapshot", changed_meanwhile)
    assert services._due(tournament) is services._DUE_LOCKED and services.balance_due(tournament)


def a_move_waiting_for_a_hand(rng) -> tuple[Tournament, Move]:
    """8, 8, 8 with hands running at tables 2 and 3; two players out at table 1: 6 against 8, and the
    move that balances it waits for a hand (R8.3)."""
    tournament = make_tournament(players=24, rng=rng)
    services.hand_started(table(tournament, 2))
    services.hand_started(table(tournament, 3))
    bust_seats(tournament, 1, 2)
    [waiting] = services.balance(tournament)
    assert waiting.status == Move.Status.PENDING
    return tournament, waiting


def test_r8_8_a_move_promised_to_a_busted_player_makes_balancing_due(rng):
    tournament, waiting = a_move_waiting_for_a_hand(rng)
    # The promised player goes out and his seat is freed; the move itself is still promised.
    Entry.objects.filter(pk=waiting.entry_id).update(status=Entry.Status.BUSTED, chips=0)
    Seat.objects.filter(entry_id=waiting.entry_id).update(entry=None)
    assert services.balance_due(tournament)
    tasks.balance_tournament(tournament.pk)
    waiting.refresh_from_db()
    assert waiting.status == Move.Status.CANCELLED


def test_r8_3_a_move_waiting_for_a_hand_leaves_the_field_at_rest_and_its_seats_alone(rng, monkeypatch):
    """A move that waits for its table's hand (R8.3) is counted where it goes: 7, 7, 8 once it is made,
    so nothing more is due, told from the counts and the two tables it touches. Once its player is
    gone from his seat, or his table's hand is over, it is due again (dropped, or made now)."""
    tournament, waiting = a_move_waiting_for_a_hand(rng)
    real_snapshot = services._Snapshot

    def no_seats_read(*args, **kwargs):
        raise AssertionError("the whole field was read")

    monkeypatch.setattr(services, "_Snapshot", no_seats_read)
    assert not services.balance_due(tournament)
    monkeypatch.setattr(services, "_Snapshot", real_snapshot)
    # His table's hand is over (the hand's end that would make the move raced with it): due now.
    Table.objects.filter(pk=waiting.from_table_id).update(hand_in_progress=False)
    assert services.balance_due(tournament)
    Table.objects.filter(pk=waiting.from_table_id).update(hand_in_progress=True)
    # He left his seat (moved by hand, say): the promise no longer fits and is dropped.
    Seat.objects.filter(entry_id=waiting.entry_id).update(entry=None)
    assert services.balance_due(tournament)


def test_review_mode_only_suggests(rng, django_capture_on_commit_callbacks, balance_task_inline):
    tournament = make_tournament(players=16, rng=rng)
    services.update_plan(tournament, review_moves=True)
    bust_seats(tournament, 1, 2)
    with django_capture_on_commit_callbacks(execute=True):
        services.release_and_rebalance(tournament)
    assert sorted(len(v) for v in seated(tournament).values()) == [6, 8]
    assert len(services.suggested_moves(tournament)) == 1
    assert len(services.balance(tournament)) == 1


def test_r8_4_a_waiting_move_into_a_breaking_table_is_replaced(rng):
    tournament = make_tournament(players=20, rng=rng)  # 7, 7, 6
    services.hand_started(table(tournament, 1))
    bust_seats(tournament, 3, 1)  # 7, 7, 5: a player from table 1 or 2 must go to table 3
    services.hand_started(table(tournament, 2))
    [waiting] = services.balance(tournament)
    assert waiting.status == Move.Status.PENDING and waiting.to_table.number == 3
    # 15 players, room for table 3's six elsewhere: table 3 breaks. The busts are at the table the
    # waiting player is not leaving (the long table that breaks sooner gives him, R8.3), so he is still
    # there to be sent elsewhere.
    bust_seats(tournament, 3 - waiting.from_table.number, 4)
    moves = services.balance(tournament)
    waiting.refresh_from_db()
    assert waiting.status == Move.Status.CANCELLED
    assert table(tournament, 3).status == Table.Status.BROKEN
    replacement = [m for m in moves if m.entry_id == waiting.entry_id]
    assert len(replacement) == 1 and replacement[0].to_table.number != 3
    assert_consistent(tournament)
    services.hand_finished(table(tournament, 1), button_seat=1, big_blind_seat=2)
    services.hand_finished(table(tournament, 2), button_seat=1, big_blind_seat=2)
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 8]
    assert_consistent(tournament)
