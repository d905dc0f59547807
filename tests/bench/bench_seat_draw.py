"""The seat draw of a big field (R8.1) in process: wall time, queries and a profile.

    DATABASE_URL=postgres://… .venv/bin/python tests/bench/bench_seat_draw.py [--players 10000]

The entries are bulk-created (registration has its own figures in load_event.py); the draw itself
goes through ``tables.services.draw_seats`` in one transaction, as the console's button does, with
everything it announces after commit. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=10000)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--profile", type=int, default=20, help="rows of the profile to print (0: none)")
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

    from tables.models import Seat, Table
    from tables.services import draw_seats
    from tests.bench.load_build import TEMPLATE
    from tournaments import services
    from tournaments.models import BlindStructure, Entry, Player

    call_command("migrate", interactive=False, verbosity=0)
    director, _created = get_user_model().objects.get_or_create(
        username="bench-director", defaults={"is_staff": True, "is_superuser": True}
    )
    template = BlindStructure.objects.get(name=TEMPLATE, is_template=True)
    tournament = services.create_tournament(
        structure=template,
        name=f"Seat draw {args.players}",
        game="courchevel",
        betting=template.betting,
        starting_stack=template.starting_stack,
        seats_per_table=args.seats,
        late_registration_until_level=0,
    )
    services.open_registration(tournament)
    started = time.perf_counter()
    players = Player.objects.bulk_create(
        [Player(name=f"Draw {tournament.pk} player {i + 1}") for i in range(args.players)], batch_size=2000
    )
    Entry.objects.bulk_create(
        [Entry(tournament=tournament, player=p, chips=tournament.starting_stack) for p in players],
        batch_size=2000,
    )
    print(f"{args.players} entries set up in {time.perf_counter() - started:.1f}s (bulk, not timed below)")

    profile = cProfile.Profile()
    with CaptureQueriesContext(connection) as queries:
        started, cpu = time.perf_counter(), time.process_time()
        profile.enable()
        with transaction.atomic():
            draw_seats(tournament, actor=director)
        profile.disable()
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    tables = Table.objects.filter(tournament=tournament).count()
    seated = Seat.objects.filter(table__tournament=tournament, entry__isnull=False).count()
    print(
        f"seat draw of {args.players} players at {tables} tables: {wall:.2f}s wall, {cpu:.2f}s CPU in this "
        f"process, {len(queries)} queries; {seated} seated"
    )
    if args.profile:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.profile)
        print(out.getvalue())


if __name__ == "__main__":
    main()
