"""What the tables tests read and check: who sits where, and that the seating is consistent; and
what they do to it: players out, transactions run side by side."""

import threading

import pytest
from django.db import connection, connections

from tables import services
from tables.models import Seat, Table
from tournaments.models import Entry
from tournaments.services import bust_entries


def seated(tournament) -> dict[int, list[int]]:
    """table number -> entry ids seated there (active tables)."""
    result = {}
    for table in Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE):
        result[table.number] = list(
            Seat.objects.filter(table=table, entry__isnull=False).values_list("entry_id", flat=True)
        )
    return result


def bust(entry):
    """Take a player out the way the dealing service does: no chips, busted, then tell the tables."""
    Entry.objects.filter(pk=entry.pk).update(chips=0)
    entry.refresh_from_db()
    bust_entries(entry.tournament, [(entry, 100)])
    services.release_and_rebalance(entry.tournament)
    # What the queued balance_tournament task does once the bust is committed (tests run inside a
    # transaction that never commits, so on_commit callbacks do not fire here).
    return services.balance(entry.tournament)


def assert_consistent(tournament):
    """Every active entry has exactly one seat, at an active table; no busted player keeps one."""
    seats = list(
        Seat.objects.filter(table__tournament=tournament, entry__isnull=False).select_related(
            "table", "entry"
        )
    )
    entry_ids = [s.entry_id for s in seats]
    assert len(entry_ids) == len(set(entry_ids)), "a player is seated twice"
    assert all(s.entry.status == Entry.Status.ACTIVE for s in seats), "a busted player keeps a seat"
    active = set(tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", flat=True))
    pending = set(tournament.moves.filter(status="pending").values_list("entry_id", flat=True))
    assert set(entry_ids) == active, "an active player has no seat"
    for s in seats:
        if s.table.status == Table.Status.BROKEN:
            assert s.entry_id in pending, "a player sits at a broken table with no move waiting"


# Tests of PostgreSQL's row locks (SQLite locks the whole database): run by .ci/run's PostgreSQL section.
postgresql_only = pytest.mark.skipif(
    connections["default"].vendor != "postgresql", reason="PostgreSQL's row locks"
)


def table(tournament, number):
    return Table.objects.get(tournament=tournament, number=number)


def bust_seats(tournament, number, how_many):
    """``how_many`` players at table ``number`` are out (no chips), still in their seats: what the
    balancing that follows a bust finds (R8.8). Returns their entry ids."""
    seats = Seat.objects.filter(table__tournament=tournament, table__number=number, entry__isnull=False)
    ids = list(seats.values_list("entry_id", flat=True)[:how_many])
    Entry.objects.filter(pk__in=ids).update(status=Entry.Status.BUSTED, chips=0)
    return ids


def run_together(*jobs):
    """Each job in a thread of its own (its own database connection), all started at once."""
    barrier = threading.Barrier(len(jobs))
    errors = []

    def run(job):
        try:
            barrier.wait()
            job()
        except Exception as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors


def lock_waiters() -> int:
    """Connections of this database waiting for a lock now (PostgreSQL). Asked from inside a
    transaction too, which would otherwise see PostgreSQL's activity as it was at its first look."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND datname = current_database()"
        )
        return cursor.fetchone()[0]
