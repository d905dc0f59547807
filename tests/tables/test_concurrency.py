"""Two bust-outs at once leave consistent seating (R8.3): the tournament lock serialises balancing.

Threads with their own database connections. On SQLite the IMMEDIATE transaction mode makes the
second writer wait; with DATABASE_URL pointing at PostgreSQL the same test runs there with
SELECT ... FOR UPDATE on the tournament row.
"""

import threading

import pytest

from tables import services
from tables.models import Move, Seat
from tests.factories import make_tournament
from tournaments.models import Entry

from .seating import assert_consistent, postgresql_only, run_together, seated

pytestmark = pytest.mark.django_db(transaction=True)


def bust_and_balance(entry_id):
    """What the dealing service and the queued task do for one bust-out."""
    from tournaments.services import bust_entries

    entry = Entry.objects.get(pk=entry_id)
    Entry.objects.filter(pk=entry_id).update(chips=0)
    entry.refresh_from_db()
    bust_entries(entry.tournament, [(entry, 50)])
    services.release_and_rebalance(entry.tournament)
    services.balance(entry.tournament)


def test_two_bust_outs_at_once_leave_consistent_seating():
    tournament = make_tournament(players=24)  # three tables of 8
    for _round in range(3):
        # Two players at the same table bust at the same moment, twice over.
        victims = list(
            Seat.objects.filter(
                table__tournament=tournament, table__number=1, entry__isnull=False
            ).values_list("entry_id", flat=True)[:2]
        )
        run_together(*(lambda v=v: bust_and_balance(v) for v in victims))
        assert_consistent(tournament)
        counts = [len(v) for v in seated(tournament).values()]
        assert max(counts) - min(counts) <= 1, counts
    # Nobody was moved twice for the same imbalance: each move left a distinct table state.
    assert Move.objects.filter(tournament=tournament, status="pending").count() == 0
    assert len(Entry.objects.filter(tournament=tournament, status="active")) == 18


def test_two_balance_runs_at_once_move_nobody_twice():
    tournament = make_tournament(players=16)
    ids = list(
        Seat.objects.filter(table__tournament=tournament, table__number=1, entry__isnull=False).values_list(
            "entry_id", flat=True
        )[:2]
    )
    Entry.objects.filter(pk__in=ids).update(status=Entry.Status.BUSTED, chips=0)
    run_together(lambda: services.balance(tournament), lambda: services.balance(tournament))
    assert Move.objects.filter(tournament=tournament, status="done").count() == 1
    assert sorted(len(v) for v in seated(tournament).values()) == [7, 7]
    assert_consistent(tournament)


@postgresql_only
def test_a_write_that_refers_to_the_tournament_commits_while_balancing_holds_it():
    """Balancing holds the tournament (and then its tables) while it decides; a table's transaction
    that wrote a row referring to the tournament (an audit entry, at its commit: Django's foreign
    keys are checked then) must not wait for it. With FOR UPDATE on the tournament it waited, while
    balancing waited for that table: the two deadlocked and PostgreSQL killed one (a 503 at a deal,
    a failed balancing run). The lock is FOR NO KEY UPDATE: still one balancer at a time."""
    import time

    from django.db import transaction

    from tournaments.audit import record_audit

    tournament = make_tournament(players=16)
    held, done = threading.Event(), threading.Event()
    waited = []

    def balancer():
        with transaction.atomic():
            services._lock(tournament)
            held.set()
            done.wait(10)

    def table_write():
        held.wait(10)
        started = time.monotonic()
        with transaction.atomic():
            record_audit(None, "test.write", tournament, tournament=tournament)
        waited.append(time.monotonic() - started)
        done.set()

    run_together(balancer, table_write)
    assert waited and waited[0] < 5  # it committed while the balancer still held the tournament

    # And two balancers still take turns.
    order = []

    def second_balancer():
        held.wait(10)
        with transaction.atomic():
            services._lock(tournament)
            order.append("second")

    def first_balancer():
        with transaction.atomic():
            services._lock(tournament)
            held.set()
            time.sleep(0.3)
            order.append("first")

    held.clear()
    run_together(first_balancer, second_balancer)
    assert order == ["first", "second"]
