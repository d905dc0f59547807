"""What a floor decision costs at a big event's size, and what it makes the rest of the room wait.

    DATABASE_URL=postgres://… .venv/bin/python tests/bench/bench_floor_decisions.py [--tables 1250]

Prints the wall and CPU time and the queries of the balancing work a hand's end with a bust does
(``tables.services``: the field read, the balance task's unlocked check, a hand's end with a bust, a
balance that moves players), each rolled back so the event stays as built. Then, while one process
ends hands with a bust at one table, another process does what a deal does at the other tables
(lock the table, write it, commit): how long those waited, p50 / p99 / max. A decision that locked
every table made each of them wait as long as it decided (R8.3 balancing; docs/production.md).

The event is built once through the product's services (tests/bench/load_build.py) and reused by
later runs against the same database. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class Rollback(Exception):
    pass


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=1250)
    parser.add_argument("--busts", type=int, default=40, help="hand ends with a bust while the deals run")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--deals-for", type=float, default=0.0, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("DEBUG", "0")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from tables import services
    from tables.models import Seat, Table
    from tests.bench.load_build import build_event
    from tournaments.models import Entry, Tournament
    from tournaments.services import bust_entries

    name = f"Floor decisions {args.tables}"
    if args.deals_for:
        deals_elsewhere(Tournament.objects.get(name=name), args.deals_for)
        return
    if connection.vendor != "postgresql":
        sys.exit("needs DATABASE_URL (PostgreSQL): the row locks are what is measured")
    call_command("migrate", interactive=False, verbosity=0)
    get_user_model().objects.get_or_create(
        username="bench", defaults={"is_staff": True, "is_superuser": True}
    )
    tournament = Tournament.objects.filter(name=name).first()
    if tournament is None:
        started = time.perf_counter()
        event = build_event(name=name, tables=args.tables, seats=8, clocks=0, progress=lambda _m: None)
        tournament = Tournament.objects.get(pk=event.tournament_id)
        print(f"built {args.tables} tables in {time.perf_counter() - started:.0f} s", flush=True)

    def timed(label, work):
        runs = []
        for _ in range(args.repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as queries:
                work()
            runs.append(
                ((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000, len(queries))
            )
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"  {label}: wall {wall:.1f} ms, CPU {cpu:.1f} ms, {runs[0][2]} queries", flush=True)

    def rolled_back(work):
        def run():
            try:
                with transaction.atomic():
                    work()
                    raise Rollback
            except Rollback:
                pass

        return run

    def hand_end_with_a_bust(after_commit=False):
        seat = Seat.objects.filter(table__tournament=tournament, table__number=1, entry__isnull=False).first()
        Entry.objects.filter(pk=seat.entry_id).update(status=Entry.Status.BUSTED, chips=0)
        Table.objects.filter(pk=seat.table_id).update(hand_in_progress=True)
        table = Table.objects.get(pk=seat.table_id)
        services.hand_finished(
            table, button_seat=1, big_blind_seat=3, busted=True, balance_after_commit=after_commit
        )

    def three_busts_then_balance():
        ids = Seat.objects.filter(table__tournament=tournament, table__number=1, entry__isnull=False)
        Entry.objects.filter(pk__in=list(ids.values_list("entry_id", flat=True)[:3])).update(
            status=Entry.Status.BUSTED, chips=0
        )
        services.balance(tournament)

    print(f"in process, {args.tables} tables (median of {args.repeats}):")
    timed("the field read (no lock)", lambda: services._Snapshot(tournament))
    timed(
        "the balance task's check on a balanced field (balance_due)", lambda: services.balance_due(tournament)
    )
    timed("a hand's end with a bust, balanced in its transaction", rolled_back(hand_end_with_a_bust))
    timed(
        "a hand's end with a bust as the dealer's input ends it (balanced by the task after the commit)",
        rolled_back(lambda: hand_end_with_a_bust(after_commit=True)),
    )
    timed("a balance after three busts at one table", rolled_back(three_busts_then_balance))

    def a_bust(placed: int, hand_end: bool = False):
        """``bust_entries`` for one player of table 1, with ``placed`` players already out and placed
        (late on a Day 1: 10,000 down to 1,250). Only the bust is timed; the set-up is rolled back.
        ``hand_end``: as the dealer's input that ends the hand runs it (``dealing.services._finish``):
        the bust by the entry's id and the table's hand end, in the input's transaction."""
        runs = []
        for _ in range(args.repeats):
            try:
                with transaction.atomic():
                    if placed:
                        gone = list(
                            Seat.objects.filter(table__tournament=tournament, table__number__gt=1)
                            .order_by("-table__number", "number")
                            .values_list("entry_id", flat=True)[:placed]
                        )
                        Seat.objects.filter(entry_id__in=gone).update(entry=None)
                        left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
                        for offset in range(0, len(gone), 1000):
                            chunk = gone[offset : offset + 1000]
                            Entry.objects.bulk_update(
                                [
                                    Entry(pk=pk, status=Entry.Status.BUSTED, chips=0, place=left - i)
                                    for i, pk in enumerate(chunk, offset)
                                ],
                                ["status", "chips", "place"],
                            )
                    seat = Seat.objects.filter(
                        table__tournament=tournament, table__number=1, entry__isnull=False
                    ).first()
                    Entry.objects.filter(pk=seat.entry_id).update(chips=0)
                    entry = Entry.objects.get(pk=seat.entry_id)
                    table = Table.objects.select_related("tournament").get(pk=seat.table_id)
                    if hand_end:
                        Table.objects.filter(pk=table.pk).update(hand_in_progress=True)
                        table.hand_in_progress = True
                    wall, cpu = time.perf_counter(), time.process_time()
                    with CaptureQueriesContext(connection) as queries:
                        if hand_end:
                            bust_entries(table.tournament, [(entry.pk, 1000)], savepoint=False)
                            services.hand_finished(
                                table,
                                button_seat=1,
                                big_blind_seat=3,
                                busted=True,
                                savepoint=False,
                                balance_after_commit=True,
                            )
                        else:
                            bust_entries(table.tournament, [(entry, 1000)])
                    runs.append(
                        (
                            (time.perf_counter() - wall) * 1000,
                            (time.process_time() - cpu) * 1000,
                            len(queries),
                        )
                    )
                    raise Rollback
            except Rollback:
                pass
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        what = (
            "a dealer's hand end with a bust (bust_entries and hand_finished, one transaction)"
            if hand_end
            else "a bust's places and prizes (bust_entries)"
        )
        print(
            f"  {what}, {placed} players placed before it: wall {wall:.1f} ms, "
            f"CPU {cpu:.1f} ms, {runs[0][2]} queries",
            flush=True,
        )

    for placed in (0, args.tables * 8 * 8 // 10):
        a_bust(placed)
    for placed in (0, args.tables * 8 * 8 // 10):
        a_bust(placed, hand_end=True)

    print(
        f"deals at the other tables (another process: lock, write, commit), without and with {args.busts} "
        "hand ends with a bust at table 1, each balanced in its transaction:"
    )
    for busts in (0, args.busts):
        child = subprocess.Popen(
            [sys.executable, __file__, "--tables", str(args.tables), "--deals-for", "5"],
            env={**os.environ, "BUSTS": str(busts)},
        )
        time.sleep(1.5)
        for _ in range(busts):
            rolled_back(hand_end_with_a_bust)()
            time.sleep(0.05)
        child.wait()


def deals_elsewhere(tournament, seconds: float) -> None:
    from django.db import transaction

    from tables import services
    from tables.models import Table

    ids = list(Table.objects.filter(tournament=tournament).exclude(number=1).values_list("pk", flat=True))
    rng = random.Random(1)
    stop = threading.Event()
    threading.Timer(seconds, stop.set).start()
    waits = []
    while not stop.is_set():
        pk = rng.choice(ids)
        started = time.perf_counter()
        with transaction.atomic():
            table = services.lock_table(pk)
            Table.objects.filter(pk=pk).update(version=table.version)
        waits.append((time.perf_counter() - started) * 1000)
        time.sleep(0.002)
    waits.sort()
    print(
        f"  with {os.environ.get('BUSTS', '0')} bust hand ends: {len(waits)} deals, p50 {waits[len(waits) // 2]:.1f} ms, "
        f"p99 {waits[int(len(waits) * 0.99)]:.1f} ms, max {waits[-1]:.1f} ms, {sum(w > 20 for w in waits)} over 20 ms",
        flush=True,
    )


if __name__ == "__main__":
    main()
