"""Where one dealer input's server time goes, in process: what the tablet's socket runs for an input
message (``screens.tablet_inputs``: the device check, the API's serializer, the service, the answer
encoded), or with ``--via http`` the HTTP request (the full middleware stack, a paired tablet's
token), and the table snapshot that the input's change pushes, at a big event's size. Prints wall and CPU milliseconds and queries per kind of input, then a profile.

    DATABASE_URL=postgres://… .venv/bin/python tests/bench/profile_input.py [--tables 1250] [--inputs 300]

The event is built once through the product's services (tests/bench/load_build.py) and reused by
later runs against the same database. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import sys
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=1250)
    parser.add_argument("--inputs", type=int, default=300)
    parser.add_argument("--profile", type=int, default=25, help="rows of the profile to print")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sql", action="store_true", help="print the queries of the last ordinary input")
    parser.add_argument(
        "--via",
        choices=("socket", "http"),
        default="socket",
        help="inputs as the tablet sends them, on its socket (screens.tablet_inputs, default), or HTTP",
    )
    parser.add_argument(
        "--only",
        choices=("action", "deal", "snapshot", "console"),
        help="profile only ordinary inputs, only deals, only the table snapshots, or only the director's console",
    )
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("DEBUG", "0")
    import django

    django.setup()
    from asgiref.sync import sync_to_async
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    class Queries:
        """The statements run, counted (and kept) as the server runs them: Django's own capture
        (CaptureQueriesContext) formats every statement with its values, a cost the servers do not
        pay, and its figures included it."""

        def __init__(self):
            self.sql: list[str] = []

        def __enter__(self):
            self.wrapper = connection.execute_wrapper(self)
            self.wrapper.__enter__()
            return self

        def __exit__(self, *exc):
            self.wrapper.__exit__(*exc)

        def __call__(self, execute, sql, params, many, context):
            self.sql.append(sql)
            return execute(sql, params, many, context)

        def __len__(self):
            return len(self.sql)

    from dealing.models import Hand
    from screens import snapshots, tablet_inputs
    from screens.models import Device, DeviceKind, device_cookie_name
    from tables.models import Table
    from tests.bench.load_build import build_event
    from tests.bench.load_http import choose_action
    from tournaments.models import Tournament

    call_command("migrate", interactive=False, verbosity=0)
    get_user_model().objects.get_or_create(
        username="bench", defaults={"is_staff": True, "is_superuser": True}
    )
    name = f"Profile {args.tables}"
    tournament = Tournament.objects.filter(name=name, status=Tournament.Status.RUNNING).first()
    if tournament is None:
        started = time.perf_counter()
        event = build_event(name=name, tables=args.tables, seats=8, clocks=0)
        tournament = Tournament.objects.get(pk=event.tournament_id)
        tokens = event.tablet_tokens
        print(f"built {args.tables} tables in {time.perf_counter() - started:.0f} s")
        with open(f"/tmp/profile-{args.tables}-tokens.json", "w") as out:
            json.dump({str(k): v for k, v in tokens.items()}, out)
    else:
        with open(f"/tmp/profile-{args.tables}-tokens.json") as source:
            tokens = {int(k): v for k, v in json.load(source).items()}
    assert Device.objects.filter(revoked_at__isnull=True).exists()
    rng = random.Random(args.seed)
    table_ids = sorted(tokens)[: max(20, args.inputs // 15)]
    client = Client()
    figures: dict[str, list[tuple[float, float, int]]] = {}
    last_sql: dict[str, list[str]] = {}
    profile = cProfile.Profile()
    profiling = False

    # As a daphne server runs a socket's input: in a worker thread of the server's event loop, whose
    # channel layer (and its Redis connection) stays open; the figures are CPU of every thread.
    server_loop = asyncio.new_event_loop()
    threading.Thread(target=server_loop.run_forever, daemon=True).start()

    def in_server(function, *args):
        async def run():
            return await sync_to_async(function, thread_sensitive=False)(*args)

        return asyncio.run_coroutine_threadsafe(run(), server_loop).result()

    sockets: dict[int, tablet_inputs.SocketDevice] = {}  # what each tablet's socket keeps of its device

    def socket_input(cookies, table_id, message, profiled):
        """What the tablet's consumer runs for one input message, and the answer it sends."""
        known = sockets.setdefault(table_id, tablet_inputs.SocketDevice())
        if profiled:
            profile.enable()
        with Queries() as queries:
            answer = tablet_inputs.apply(cookies, table_id, message, known)
            tablet_inputs.encode("r", answer, "en")
        profile.disable()
        return answer, queries

    def post(table_id: int) -> str:
        hand = Hand.objects.filter(table_id=table_id).order_by("-number").first()
        auth = {"HTTP_AUTHORIZATION": f"Device {tokens[table_id]}"}
        if hand is None or hand.status != Hand.Status.RUNNING:
            kind, path = "deal", "/api/hands/"
            body = {"table": table_id, "client_action_id": str(uuid.uuid4())}
        else:
            state = snapshots.hand_payload(hand)["state"]
            path = f"/api/hands/{hand.pk}/actions/"
            if state.get("phase") == "face_up" or state.get("deal_next"):
                kind = "run_out"
                body = {"type": "face_up" if state.get("phase") == "face_up" else "deal"}
            else:
                options = state["options"]
                action, amount = choose_action(options, rng, 0.6, 0.3)
                kind = "action"
                body = {"type": "action", "seat": options["seat"], "action": action}
                if amount is not None:
                    body["amount"] = amount
            body |= {"client_action_id": str(uuid.uuid4()), "expected_seq": hand.state_seq}
        profiled = args.only in ("action", "deal") and kind == args.only and profiling
        wall, cpu = time.perf_counter(), time.process_time()
        if args.via == "socket":
            message = {"type": "deal"} if kind == "deal" else {"type": "input", "hand": hand.pk}
            cookies = {device_cookie_name(DeviceKind.TABLET, table_id): tokens[table_id]}
            answer, queries = in_server(socket_input, cookies, table_id, {**message, "input": body}, profiled)
            status, result = answer.status, answer.body
        else:
            if profiled:
                profile.enable()
            with Queries() as queries:
                response = client.post(path, json.dumps(body), content_type="application/json", **auth)
            profile.disable()
            status = response.status_code
            result = response.json() if status in (200, 201) else {}
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if status not in (200, 201):
            kind = f"{args.via} {status}"
        elif kind != "deal" and result["hand"]["status"] != "running":
            kind = "end"
        figures.setdefault(kind, []).append((wall, cpu, len(queries)))
        last_sql[kind] = list(queries.sql)
        wall, cpu = time.perf_counter(), time.process_time()
        if args.only == "snapshot" and profiling:
            profile.enable()
        with Queries() as queries:
            snapshots.table_snapshot(table_id)
        if args.only == "snapshot":
            profile.disable()
        figures.setdefault(f"snapshot after {kind}", []).append(
            (time.perf_counter() - wall, time.process_time() - cpu, len(queries))
        )
        return kind

    for table_id in table_ids:  # warm: every table with a hand under way
        post(table_id)
    figures.clear()
    for i in range(args.inputs):  # the figures, without a profiler's overhead
        post(table_ids[i % len(table_ids)])
    measured = dict(figures)
    profiling = True
    if not args.only:
        profile.enable()
    for i in range(min(args.inputs, 100)):
        post(table_ids[i % len(table_ids)])
    profile.disable()
    figures.clear()
    figures.update(measured)
    # The director's console at this size: its live snapshot and its page (a staff session).
    staff = Client()
    staff.force_login(get_user_model().objects.get(username="bench"))
    console = [
        ("director snapshot", lambda: snapshots.director_snapshot(tournament.pk)),
        ("console page", lambda: staff.get(f"/console/{tournament.pk}/")),
    ]
    for round_ in range(12):
        for kind, call in console:
            profiled = args.only == "console" and round_ >= 2  # two warm rounds first
            wall, cpu = time.perf_counter(), time.process_time()
            if profiled:
                profile.enable()
            with Queries() as queries:
                result = call()
            if profiled:
                profile.disable()
            if getattr(result, "status_code", 200) != 200:
                kind = f"{kind} HTTP {result.status_code}"
            if round_ >= 2:
                figures.setdefault(kind, []).append(
                    (time.perf_counter() - wall, time.process_time() - cpu, len(queries))
                )
            last_sql[kind] = list(queries.sql)
    print(
        f"{args.tables} tables, {args.inputs} inputs over {len(table_ids)} tables ({connection.vendor}), "
        f"inputs {'on the tablet socket' if args.via == 'socket' else 'over HTTP'}"
    )
    print(f"{'':24} {'count':>6} {'wall ms':>8} {'cpu ms':>8} {'queries':>8}")
    for kind, rows in sorted(figures.items()):
        wall = statistics.median(r[0] for r in rows) * 1000
        cpu = statistics.median(r[1] for r in rows) * 1000
        queries = statistics.median(r[2] for r in rows)
        print(f"{kind:24} {len(rows):6} {wall:8.2f} {cpu:8.2f} {queries:8.0f}")
    if args.sql:
        for kind in ("action", "deal", "end", "director snapshot", "console page"):
            print(f"queries of the last {kind}:")
            for sql in last_sql.get(kind, []):
                print(f"  {sql[:230]}")
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.profile)
    print(out.getvalue())
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.profile)
    print(out.getvalue())
    profile.dump_stats("/tmp/profile_input.pstats")  # for pstats' callers and callees
    _ = Table


if __name__ == "__main__":
    main()
