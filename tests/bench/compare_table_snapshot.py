"""One table's snapshot between hands at 10 and at 1,250 tables (issue 11: the same cost, within 20%),
in process: median CPU and wall milliseconds and queries over the same 10 tables read 6 times each.

    DATABASE_URL=postgres://… .venv/bin/python tests/bench/compare_table_snapshot.py

Uses the 1,250-table event that tests/bench/profile_input.py builds (run it first) and builds a
10-table one beside it. Figures are printed, never asserted.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from screens import snapshots
    from tables.models import Table
    from tests.bench.load_build import build_event
    from tournaments.models import Tournament

    if not Tournament.objects.filter(name="Profile 10").exists():
        build_event(name="Profile 10", tables=10, seats=8, clocks=0, progress=lambda *a: None)
    for name in ("Profile 10", "Profile 1250"):
        tournament = Tournament.objects.get(name=name)
        ids = list(
            Table.objects.filter(tournament=tournament, hand_in_progress=False)
            .order_by("-number")
            .values_list("pk", flat=True)[:10]
        )
        for pk in ids:  # warm: what a server keeps between snapshots
            snapshots.table_snapshot(pk)
        cpu, wall, queries = [], [], []
        for _ in range(6):
            for pk in ids:
                started_cpu, started = time.process_time(), time.perf_counter()
                with CaptureQueriesContext(connection) as captured:
                    snapshots.table_snapshot(pk)
                wall.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
                queries.append(len(captured))
        print(
            f"{name:13} between hands: cpu p50 {statistics.median(cpu) * 1000:.2f} ms, "
            f"wall p50 {statistics.median(wall) * 1000:.2f} ms, queries {statistics.median(queries):.0f}"
        )


if __name__ == "__main__":
    main()
