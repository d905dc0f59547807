"""Builds the benchmark's event through the product's own services (Django must be set up first):
a tournament from a shipped template, its players registered one by one as the desk does, the seat
draw, the start, and one paired device per screen (a one-time pairing code redeemed, as a screen
does). Also the in-process figures: one snapshot's time and queries."""

from __future__ import annotations

import json
import random
import statistics
import time
import uuid
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection
from django.db.models import Count
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config.errors import ServiceError
from dealing import services as dealing_services
from dealing.models import Hand
from screens import snapshots
from screens.models import DeviceKind
from screens.pairing import create_pairing_code, create_table_pairing_codes, redeem_pairing_code
from screens.views.pairing_sheet import qr_svg
from tables.models import Move, Seat, Table
from tables.services import draw_seats
from tests.bench.load_http import choose_action
from tournaments import services
from tournaments.models import BlindStructure, Entry, Player, Tournament

TEMPLATE = "Regular - No Limit"


@dataclass
class Event:
    tournament_id: int
    tables: list[tuple[int, int]]  # (table id, table number), by number
    tablet_tokens: dict[int, str] = field(default_factory=dict)  # table id -> device token
    clock_tokens: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)


def staff_session(username: str) -> str:
    """A staff user signed in: the session key a browser would hold (``sessionid``)."""
    user, _created = get_user_model().objects.get_or_create(
        username=username, defaults={"is_staff": True, "is_superuser": True}
    )
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def _timed(timings: dict, name: str, started: float) -> float:
    timings[name] = time.perf_counter() - started
    return time.perf_counter()


def build_event(*, name: str, tables: int, seats: int, clocks: int, progress=print) -> Event:
    """A running tournament with ``tables`` full tables of ``seats`` players, each table's tablet
    paired and ``clocks`` clock screens paired."""
    timings: dict[str, float] = {}
    director = get_user_model().objects.filter(is_staff=True).order_by("pk").first()
    started = time.perf_counter()
    template = BlindStructure.objects.get(name=TEMPLATE, is_template=True)
    tournament = services.create_tournament(
        structure=template,
        name=name,
        game="courchevel",
        betting=template.betting,
        starting_stack=template.starting_stack,
        seats_per_table=seats,
        late_registration_until_level=0,
    )
    services.open_registration(tournament)
    started = _timed(timings, "create", started)
    count = tables * seats
    players = Player.objects.bulk_create([Player(name=f"{name} player {i + 1}") for i in range(count)])
    for i, player in enumerate(players, 1):
        services.register(tournament, player, actor=director)
        if i % 2000 == 0:
            progress(f"  registered {i}/{count} ({time.perf_counter() - started:.0f}s)")
    started = _timed(timings, "register", started)
    draw_seats(tournament, actor=director)
    started = _timed(timings, "draw", started)
    services.start_tournament(tournament, actor=director)
    started = _timed(timings, "start", started)
    rows = list(Table.objects.filter(tournament=tournament).order_by("number"))
    event = Event(tournament.pk, [(t.pk, t.number) for t in rows], timings=timings)
    # The pairing sheet in one go (codes and their QR codes, as the console prints it), then each
    # tablet redeems its table's card, as a dealer does at the table.
    sheet = create_table_pairing_codes(tournament=tournament, actor=director)
    for line in sheet:
        qr_svg(f"http://127.0.0.1:8000/pair/{line.new.code}/")
    started = _timed(timings, "pairing_sheet", started)
    for line in sheet:
        _device, token = redeem_pairing_code(line.new.code)
        event.tablet_tokens[line.table.pk] = token
    started = _timed(timings, "redeem_tablets", started)
    for i in range(clocks):
        code = create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK, actor=director)
        _device, token = redeem_pairing_code(code.code, label=f"Clock {i + 1}")
        event.clock_tokens.append(token)
    _timed(timings, "pair_clocks", started)
    return event


def deal_one_hand(table_id: int) -> None:
    """A hand in progress at the table (so its snapshot carries a hand), through the service."""
    director = get_user_model().objects.filter(is_staff=True).order_by("pk").first()
    dealing_services.start_next_hand(Table.objects.get(pk=table_id), actor=director)


def play_one_hand(table_id: int) -> None:
    """One hand dealt and played to its end at the table (everyone folds to the big blind, or checks
    it down), through the services: the table is then between hands with a finished last hand, as
    almost every table between hands of a running event is."""
    director = get_user_model().objects.filter(is_staff=True).order_by("pk").first()
    hand = dealing_services.start_next_hand(Table.objects.get(pk=table_id), actor=director)
    rng = random.Random(table_id)
    for _ in range(200):
        hand.refresh_from_db()
        if hand.status != Hand.Status.RUNNING:
            return
        options = dealing_services.snapshot(hand)["public"]["options"]
        action, amount = choose_action(options, rng, 1.0, 0.0)
        body = {"type": "action", "seat": options["seat"], "action": action}
        if amount is not None:
            body["amount"] = amount
        dealing_services.apply_input(
            hand, body, expected_seq=hand.state_seq, client_action_id=str(uuid.uuid4()), actor=director
        )
    raise RuntimeError(f"the hand at table {table_id} did not end in 200 inputs")


def advance_hands(table_ids: list[int], *, most: int, fold: float, bet: float, rng) -> dict:
    """Each table's play advanced by 0 to ``most`` dealer inputs (uniformly), through the dealing
    services, so the tables sit at random points of their hands as in a real event (hands then end
    during a short run at the steady rate, not all at once after the first minutes). An input the
    product refuses or fails (a deadlock between two hand ends, say) is retried twice, then that
    table is left where it is; both are counted."""
    director = get_user_model().objects.filter(is_staff=True).order_by("pk").first()
    started = time.perf_counter()
    inputs = ends = retried = given_up = 0
    failures: dict[str, int] = {}
    for table_id in table_ids:
        hand = Hand.objects.filter(table_id=table_id).order_by("-number").first()
        for _ in range(rng.randrange(most + 1)):
            for attempt in range(3):
                try:
                    if hand is None or hand.status != Hand.Status.RUNNING:
                        table = Table.objects.get(pk=table_id)
                        hand = dealing_services.start_next_hand(table, actor=director)
                    else:
                        options = dealing_services.snapshot(hand)["public"]["options"]
                        action, amount = choose_action(options, rng, fold, bet)
                        body = {"type": "action", "seat": options["seat"], "action": action}
                        if amount is not None:
                            body["amount"] = amount
                        dealing_services.apply_input(
                            hand,
                            body,
                            expected_seq=hand.state_seq,
                            client_action_id=str(uuid.uuid4()),
                            actor=director,
                        )
                        hand.refresh_from_db()
                        ends += hand.status != Hand.Status.RUNNING
                    inputs += 1
                    break
                except (DatabaseError, ServiceError) as error:
                    name = f"{type(error).__name__}: {str(error).splitlines()[0][:60]}"
                    failures[name] = failures.get(name, 0) + 1
                    if attempt == 2:
                        given_up += 1
                    else:
                        retried += 1
                    if hand is not None:
                        hand.refresh_from_db()
            else:
                break  # three failures: leave this table where it is
    return {
        "inputs": inputs,
        "ends": ends,
        "retried": retried,
        "given_up": given_up,
        "failures": failures,
        "seconds": time.perf_counter() - started,
    }


def field_counts(tournament_id: int) -> dict[str, int]:
    """What the floor has done so far (busts, tables broken, moves made) and whether the seating is
    whole: every active entry in one seat, no busted entry in any seat (R8.8). Read from the database,
    in the caller's thread (its connection is closed after)."""
    try:
        entries = Entry.objects.filter(tournament_id=tournament_id)
        seated = Seat.objects.filter(table__tournament_id=tournament_id, entry__isnull=False)
        return {
            "busts": entries.filter(status=Entry.Status.BUSTED).count(),
            "tables broken": Table.objects.filter(
                tournament_id=tournament_id, status=Table.Status.BROKEN
            ).count(),
            "moves": Move.objects.filter(tournament_id=tournament_id)
            .exclude(status__in=(Move.Status.PENDING, Move.Status.CANCELLED))
            .count(),
            "active not seated": entries.filter(status=Entry.Status.ACTIVE, seats__isnull=True).count(),
            "busted seated": seated.filter(entry__status=Entry.Status.BUSTED).count(),
            "seated": seated.count(),
            "tables playing": Table.objects.filter(tournament_id=tournament_id)
            .exclude(status=Table.Status.BROKEN)
            .count(),
            "moves waiting": Move.objects.filter(
                tournament_id=tournament_id, status=Move.Status.PENDING
            ).count(),
            "seated twice": seated.values("entry_id").annotate(n=Count("id")).filter(n__gt=1).count(),
        }
    finally:
        connection.close()


def snapshot_costs(build, *ids, repeats: int = 15) -> list[tuple[float, int, int]]:
    """(median seconds, queries, bytes of JSON) of one snapshot built in this process, for each id.
    The ids' builds alternate, so whatever else the machine is doing weighs on each alike (a small
    and a big event are compared)."""
    times: list[list[float]] = [[] for _ in ids]
    queries = [0] * len(ids)
    payloads: list = [None] * len(ids)
    for object_id in ids:
        build(object_id)  # warm caches (content types, translations) once
    for _ in range(repeats):
        for n, object_id in enumerate(ids):
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                payloads[n] = build(object_id)
                times[n].append(time.perf_counter() - started)
            queries[n] = len(captured.captured_queries)
    return [(statistics.median(times[n]), queries[n], len(json.dumps(payloads[n]))) for n in range(len(ids))]


def table_snapshot_costs(*table_ids: int) -> list[tuple[float, int, int]]:
    return snapshot_costs(snapshots.table_snapshot, *table_ids)


def clock_snapshot_costs(*tournament_ids: int) -> list[tuple[float, int, int]]:
    return snapshot_costs(snapshots.clock_snapshot, *tournament_ids)


def director_snapshot_costs(*tournament_ids: int) -> list[tuple[float, int, int]]:
    return snapshot_costs(snapshots.director_snapshot, *tournament_ids)


def idle_and_busy_tables(tournament_id: int) -> tuple[int | None, int | None]:
    """A table between hands (its last hand finished, as at almost every such table of a running
    event, so the two events compare the same payload) and a table in the middle of one (None where
    there is none)."""
    tables = Table.objects.filter(tournament_id=tournament_id, status=Table.Status.ACTIVE).order_by("number")
    idle = (
        tables.filter(hand_in_progress=False, hands__isnull=False)
        .distinct()
        .values_list("pk", flat=True)
        .first()
    )
    busy = tables.filter(hand_in_progress=True).values_list("pk", flat=True).first()
    return idle, busy


def tournament_level(tournament_id: int) -> int:
    return Tournament.objects.values_list("level_index", flat=True).get(pk=tournament_id)
