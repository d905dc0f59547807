"""A table is never stuck by seating (R8.3, R8.4): the input that ends a hand always goes through.

The reported case: a director's move out of table A waits for A's hand; a player of A busts on that
hand; when the hand ends A is short and the table the moving player arrives at is long, and the
balancer used to send him straight back, freeing the seat he was only about to take. The last input
of the hand was then refused (409 ``seating_changed``) on every retry.
"""

import random
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealing.models import Hand
from tables import balancing, services, tasks
from tables.models import Move, Seat, Table
from tests.dealing.tablet import Tablet
from tests.factories import make_table, make_tournament
from tournaments.models import Entry

from .seating import assert_consistent

pytestmark = pytest.mark.django_db


SHORT = 40  # the one stack that can bust: everybody else calls it and checks down


def check_down(state):
    """Everyone calls or checks: nobody goes out on this hand."""
    options = state["options"]
    return {"type": "action", "seat": state["to_act"], "action": "call" if options["call"] else "check"}


def all_in_from(short_seat):
    """The short stack goes all-in; everyone else calls or checks: nobody else can lose all."""

    def policy(state):
        options = state["options"]
        seat = state["to_act"]
        if seat == short_seat and options["raise_kind"]:
            return {"type": "action", "seat": seat, "action": "all_in"}
        return check_down(state)

    return policy


def table_a_and_b():
    """Table 1 (A): seven players at seats 1-7, the one in seat 1 short. Table 2 (B): seven players."""
    tournament, table_a = make_table(
        stacks=(SHORT, 1000, 1000, 1000, 1000, 1000, 1000), other_tables=(7,), plan={}
    )
    return tournament, table_a, Table.objects.get(tournament=tournament, number=2)


def last_hand_at(table, *, button_seat, big_blind_seat):
    """B with seat 8 open (whoever the late-entry draw put there moves to the open seat) and its last
    hand's positions, recorded as the tables service records every hand's."""
    taken = Seat.objects.filter(table=table, number=8, entry__isnull=False).first()
    if taken is not None:
        open_seat = Seat.objects.get(table=table, entry__isnull=True)
        services.move_entry(taken.entry, table, open_seat.number, reason="seat 8 kept for a move")
    services.hand_started(table)
    services.hand_finished(table, button_seat=button_seat, big_blind_seat=big_blind_seat)
    return table


def play_to_the_end(tablet, policy):
    """Every input of the hand must be accepted, the last one included."""
    data = tablet.refresh()
    for _ in range(200):
        if data["status"] != "running":
            return data
        state = data["state"]
        if state["phase"] == "face_up":
            body = {"type": "face_up"}  # R6.2: the all-in's hands turned up, then the run-out
        elif state.get("deal_next"):
            body = {"type": "deal"}
        else:
            body = policy(state)
        response = tablet.send(body)
        assert response.status_code == 200, response.json()
        data = response.json()["hand"]
    raise AssertionError("the hand did not end")


def test_r8_3_a_pending_manual_move_and_a_bust_on_that_hand_never_block_the_end_of_the_hand(
    api, staff, django_capture_on_commit_callbacks, balance_task_inline
):
    # Table 1 (A): seven players, one of them short. Table 2 (B): seven players, seat 8 open, and
    # its last big blind was seat 7, so whoever sits in seat 8 is big blind next there (R3.6).
    tournament, table_a, table_b = table_a_and_b()
    last_hand_at(table_b, button_seat=6, big_blind_seat=7)
    hand_id = api.post("/api/hands/", {"table": table_a.pk}, format="json").json()["id"]
    hand = Hand.objects.get(pk=hand_id)
    short_seat = next(int(s) for s, d in hand.seats.items() if d["chips"] == SHORT)
    mover_seat = next(int(s) for s, d in hand.seats.items() if d["chips"] != SHORT)
    mover = Seat.objects.get(table=table_a, number=mover_seat).entry
    # The director moves a player of A to B's seat 8: A is mid-hand, so the move waits for it.
    move = services.move_entry(mover, table_b, 8, reason="a request", actor=staff)
    assert move.status == Move.Status.PENDING

    balance_task_inline.clear()  # the set-up's own balancing
    with django_capture_on_commit_callbacks(execute=True):
        final = play_to_the_end(Tablet(api, hand_id), all_in_from(short_seat))
        # The hand's end frees the busted seat (R8.8); the move waits for the balance task, which a
        # worker runs once the hand's end is committed (no dealer's input decides for the field).
        move.refresh_from_db()
        assert move.status == Move.Status.PENDING and not balance_task_inline

    assert final["status"] == "finished"
    assert balance_task_inline == [tournament.pk]
    short = Entry.objects.get(pk=hand.seats[str(short_seat)]["entry"])
    assert short.status == Entry.Status.BUSTED  # this master seed busts the short stack
    assert not Seat.objects.filter(entry=short).exists()
    move.refresh_from_db()
    assert move.status == Move.Status.DONE
    # The player he joined B for stays there: somebody else balances the tables (R8.3).
    assert Seat.objects.get(entry=mover).table_id == table_b.pk
    counts = sorted(
        Seat.objects.filter(table__tournament=tournament, entry__isnull=False, table=t).count()
        for t in (table_a, table_b)
    )
    assert counts == [6, 7]
    assert_consistent(tournament)


def test_r8_3_when_the_arriving_player_is_the_only_choice_the_hand_still_ends(
    api, staff, django_capture_on_commit_callbacks, balance_task_inline
):
    """Every other player at B is locked: the balancer has no choice but the arriving player. He
    moves from A to B and straight back in one decision, and the seats change once (A to A)."""
    tournament, table_a, table_b = table_a_and_b()
    last_hand_at(table_b, button_seat=6, big_blind_seat=7)
    for seat in Seat.objects.filter(table=table_b, entry__isnull=False):
        services.lock_seat(seat, reason="television table", actor=staff)
    hand_id = api.post("/api/hands/", {"table": table_a.pk}, format="json").json()["id"]
    hand = Hand.objects.get(pk=hand_id)
    short_seat = next(int(s) for s, d in hand.seats.items() if d["chips"] == SHORT)
    mover_seat = next(int(s) for s, d in hand.seats.items() if d["chips"] != SHORT)
    mover = Seat.objects.get(table=table_a, number=mover_seat).entry
    move = services.move_entry(mover, table_b, 8, reason="a request", actor=staff)

    with django_capture_on_commit_callbacks(execute=True):  # the balance task after the hand's end
        final = play_to_the_end(Tablet(api, hand_id), all_in_from(short_seat))

    assert final["status"] == "finished"
    move.refresh_from_db()
    assert move.status == Move.Status.DONE
    back = Move.objects.get(entry=mover, reason=Move.Reason.BALANCE)
    assert (back.from_table, back.from_seat, back.to_table) == (table_b, 8, table_a)
    assert back.status == Move.Status.DONE
    assert Seat.objects.get(entry=mover).table_id == table_a.pk
    assert_consistent(tournament)


def test_r8_3_a_move_waiting_for_the_hand_is_made_by_the_balance_task_once_the_hand_end_commits(
    api, staff, django_capture_on_commit_callbacks, balance_task_inline
):
    """The dealer's input that ends the hand decides nothing about the field (it would hold up the
    inputs of every table on its server): the task a worker runs after the commit makes the move that
    waited, before the dealer can deal again. A deal that comes first keeps the player for that hand
    (R8.3: a table mid-hand finishes it), and the move is made when it ends."""
    tournament, table_a, table_b = table_a_and_b()
    last_hand_at(table_b, button_seat=6, big_blind_seat=7)
    hand_id = api.post("/api/hands/", {"table": table_a.pk}, format="json").json()["id"]
    mover = Seat.objects.get(table=table_a, number=2).entry
    move = services.move_entry(mover, table_b, 8, reason="a request", actor=staff)
    assert move.status == Move.Status.PENDING
    balance_task_inline.clear()
    balance_task_inline.held = True  # committed and queued, but no worker has taken it yet

    with django_capture_on_commit_callbacks(execute=True):
        assert play_to_the_end(Tablet(api, hand_id), check_down)["status"] == "finished"
    assert balance_task_inline == [tournament.pk]
    move.refresh_from_db()
    assert move.status == Move.Status.PENDING
    # The dealer is quicker than the worker: the next hand is dealt with the player still at A.
    response = api.post("/api/hands/", {"table": table_a.pk}, format="json")
    assert response.status_code == 201, response.json()
    second = Hand.objects.get(pk=response.json()["id"])
    assert mover.pk in {data["entry"] for data in second.seats.values()}
    balance_task_inline.held = False
    tasks.balance_tournament(tournament.pk)  # the worker, late: A is mid-hand, the move waits
    move.refresh_from_db()
    assert move.status == Move.Status.PENDING
    assert Seat.objects.get(entry=mover).table_id == table_a.pk

    with django_capture_on_commit_callbacks(execute=True):
        assert play_to_the_end(Tablet(api, second.pk), check_down)["status"] == "finished"
    assert balance_task_inline == [tournament.pk, tournament.pk]
    move.refresh_from_db()
    assert move.status == Move.Status.DONE
    assert (Seat.objects.get(entry=mover).table_id, Seat.objects.get(entry=mover).number) == (table_b.pk, 8)
    assert_consistent(tournament)


def test_r8_3_in_review_mode_the_hand_end_itself_makes_the_move_that_waited(api, staff, balance_task_inline):
    """In the director's review mode the task decides nothing, so the input that ends the hand makes
    the director's waiting move at once, as before."""
    tournament, table_a, table_b = table_a_and_b()
    services.update_plan(tournament, review_moves=True)
    last_hand_at(table_b, button_seat=6, big_blind_seat=7)
    hand_id = api.post("/api/hands/", {"table": table_a.pk}, format="json").json()["id"]
    mover = Seat.objects.get(table=table_a, number=2).entry
    move = services.move_entry(mover, table_b, 8, reason="a request", actor=staff)
    assert move.status == Move.Status.PENDING

    assert play_to_the_end(Tablet(api, hand_id), check_down)["status"] == "finished"
    move.refresh_from_db()
    assert move.status == Move.Status.DONE
    assert Seat.objects.get(entry=mover).table_id == table_b.pk
    assert_consistent(tournament)


# ---------------------------------------------------------------- every hand can always end


def next_big_blind(table):
    seats = dict(Seat.objects.filter(table=table, entry__isnull=False).values_list("number", "entry_id"))
    if not seats:
        return None
    if table.big_blind_seat is None:
        return min(seats)
    state = balancing.TableState(
        number=table.number, size=table.seats, big_blind=table.big_blind_seat, seats=seats
    )
    return state.next_big_blind_seat()


def open_targets(tournament):
    """(table, seat) a director may move a player to: open, not promised, at an active table."""
    promised = set(
        Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).values_list(
            "to_table_id", "to_seat"
        )
    )
    return [
        (seat.table, seat.number)
        for seat in Seat.objects.filter(
            table__tournament=tournament, table__status=Table.Status.ACTIVE, entry__isnull=True
        ).select_related("table")
        if (seat.table_id, seat.number) not in promised
    ]


@pytest.mark.django_db
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.data(),
    players=st.integers(6, 22),
    size=st.sampled_from([4, 6, 8]),
    seed=st.integers(0, 2**16),
)
def test_random_pending_moves_manual_moves_and_busts_never_stop_a_hand_from_ending(data, players, size, seed):
    """Hands start and end at random tables; the director moves random players to random open seats
    (waiting for the hand when they are in one); players bust at the hands that end. The end of every
    hand goes through (no seating error), the seating stays consistent, and some table can always deal."""
    # The draws of breaks and redraws are replayable from the example's seed, as hypothesis needs.
    draws = random.Random(seed)
    with mock.patch.object(services.secrets, "token_bytes", lambda n: draws.randbytes(n)):
        play_a_random_floor(data, players, size, seed)


def play_a_random_floor(data, players, size, seed):
    tournament = make_tournament(
        players=players, seats_per_table=size, name=f"Prop {seed}", rng=random.Random(seed)
    )
    for _step in range(40):
        if tournament.entries.filter(status=Entry.Status.ACTIVE).count() < 2:
            break
        tables = [
            t
            for t in Table.objects.filter(tournament=tournament)
            if t.status == Table.Status.ACTIVE or t.seat_set.filter(entry__isnull=False).exists()
        ]
        halted = services.halted_reasons(tournament)
        running = [t for t in tables if t.hand_in_progress]
        ready = [
            t
            for t in tables
            if not t.hand_in_progress
            and not halted.get(t.pk)
            and t.seat_set.filter(entry__isnull=False).count() >= 2
        ]
        assert running or ready, "no table can deal"
        action = data.draw(st.sampled_from(["start", "manual", "end", "end"]))
        if action == "manual":
            moving = set(
                Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).values_list(
                    "entry_id", flat=True
                )
            )
            candidates = [
                s.entry
                for s in Seat.objects.filter(
                    table__tournament=tournament, entry__isnull=False
                ).select_related("entry")
                if s.entry_id not in moving
            ]
            targets = open_targets(tournament)
            if candidates and targets:
                entry = data.draw(st.sampled_from(candidates))
                to_table, to_seat = data.draw(st.sampled_from(targets))
                services.move_entry(entry, to_table, to_seat, reason="floor")
        elif (action == "start" and ready) or not running:
            services.hand_started(data.draw(st.sampled_from(ready)))
        else:
            t = data.draw(st.sampled_from(running))
            occupied = sorted(
                Seat.objects.filter(table=t, entry__isnull=False).values_list("entry_id", flat=True)
            )
            busted = data.draw(
                st.lists(st.sampled_from(occupied), max_size=min(2, len(occupied) - 1), unique=True)
            )
            Entry.objects.filter(pk__in=busted).update(status=Entry.Status.BUSTED, chips=0)
            # The input that ends the hand: it must never be refused because of seating.
            services.hand_finished(t, button_seat=t.big_blind_seat, big_blind_seat=next_big_blind(t))
            services.balance(tournament)  # the queued task
        assert_consistent(tournament)
        pending = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).select_related(
            "from_table"
        )
        assert all(m.from_table.hand_in_progress for m in pending), "a move waits at a table between hands"
