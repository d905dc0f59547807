"""What the players' page costs with 10,000 players: one build per tournament version, then each
phone's request. Prints figures; asserts no speed.

    .venv/bin/python tests/bench/bench_player_page.py [--players 10000] [--hits 2000]

A fresh SQLite database (a temporary file) gets one running tournament of ``--players`` entries
seated at 8-seat tables (rows written in bulk: the page's cost is measured, not registration's).
Then, through Django's full request stack (middleware, headers, the view):
- the build: the first ``data.json`` of a version (the snapshot, its JSON, the seat index), with
  its SQL queries;
- a hit: ``data.json`` again (the cached bytes of this version; one indexed read of the version);
- a 304: a phone that already has this version (``If-None-Match``);
- a seat search: ``seat/?name=`` over the same cached index;
- the page itself (``/p/<id>/``, labels only).
Times are wall-clock per request, median and 95th percentile over ``--hits`` requests.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def setup(db_path: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


def build_field(players: int) -> int:
    """A running tournament of ``players`` entries at full 8-seat tables; returns its id."""
    from config.text import name_key
    from tables.models import Seat, Table
    from tests import factories
    from tournaments.models import Entry, Player

    tournament = factories.make_tournament(
        stage="running", players=2, levels=factories.default_levels(), buy_in=100
    )
    Seat.objects.filter(table__tournament=tournament).update(entry=None)
    Entry.objects.filter(tournament=tournament).delete()
    Table.objects.filter(tournament=tournament).delete()
    names = [f"Joueur {i:05d} Élodie-Ñúñez" for i in range(players)]
    Player.objects.bulk_create([Player(name=n, name_key=name_key(n)) for n in names], batch_size=2000)
    found = list(Player.objects.filter(name__in=names).order_by("id"))
    entries = Entry.objects.bulk_create(
        [Entry(tournament=tournament, player=p, chips=3000 + (i % 97) * 10) for i, p in enumerate(found)],
        batch_size=2000,
    )
    tables = Table.objects.bulk_create(
        [Table(tournament=tournament, number=n + 1, seats=8) for n in range((players + 7) // 8)]
    )
    Seat.objects.bulk_create(
        [Seat(table=tables[i // 8], number=i % 8 + 1, entry=e) for i, e in enumerate(entries)],
        batch_size=2000,
    )
    return tournament.pk


def timed(call, hits: int) -> list[float]:
    out = []
    for _ in range(hits):
        started = time.perf_counter()
        call()
        out.append(time.perf_counter() - started)
    return out


def report(name: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p95 = samples[int(len(samples) * 0.95) - 1] if len(samples) > 1 else samples[0]
    print(
        f"{name:<34} median {statistics.median(samples) * 1000:8.3f} ms   p95 {p95 * 1000:8.3f} ms"
        f"   ({1 / statistics.median(samples):,.0f} a second on one core)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--hits", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-player-") as folder:
        setup(os.path.join(folder, "db.sqlite3"))
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        from screens import player_page

        started = time.perf_counter()
        tid = build_field(args.players)
        print(f"field of {args.players:,} players written in {time.perf_counter() - started:.1f} s")
        client = Client(HTTP_HOST="localhost")
        data = f"/p/{tid}/data.json"
        builds = []
        for _ in range(3):
            player_page.builds.clear()
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                first = client.get(data)
                builds.append(time.perf_counter() - started)
        assert first.status_code == 200, first.status_code
        print(
            f"build (first request of a version)  {min(builds) * 1000:8.1f} ms   {len(queries)} queries   "
            f"{len(first.content):,} bytes of JSON"
        )
        etag = first["ETag"]
        before = player_page.builds.builds
        report("data.json, cached version", timed(lambda: client.get(data), args.hits))
        report(
            "data.json, 304 (phone has it)",
            timed(lambda: client.get(data, HTTP_IF_NONE_MATCH=etag), args.hits),
        )
        with CaptureQueriesContext(connection) as queries:
            client.get(data, HTTP_IF_NONE_MATCH=etag)
        print(f"{'':<34} a 304 costs {len(queries)} query (the version)")
        report(
            "seat/?name= (accent-insensitive)",
            timed(lambda: client.get(f"/p/{tid}/seat/", {"name": "00420 ELODIE"}), args.hits // 4),
        )
        report("the page (/p/<id>/)", timed(lambda: client.get(f"/p/{tid}/"), args.hits // 4))
        assert player_page.builds.builds == before, "a hit rebuilt the snapshot"
        hit = statistics.median(timed(lambda: client.get(data, HTTP_IF_NONE_MATCH=etag), 200))
        print(
            f"10,000 phones polling every 15 s with nothing new: {10_000 / 15:,.0f} requests a second, "
            f"about {10_000 / 15 * hit:.2f} CPU-seconds a second; one build per change ({min(builds) * 1000:.0f} ms)"
        )


if __name__ == "__main__":
    main()
