"""Tablets racing on PostgreSQL: several requests for one action through two web servers at once
record it exactly once, and bust-outs at several tables at the same instant leave the seating
consistent (places R8.8, balancing R8.3)."""

import base64
import json
import threading
import urllib.error
import urllib.request

from django.contrib.auth import get_user_model

from dealing.models import HandEvent
from tables import services as tables_services
from tables.models import Move, Seat, Table
from tests.factories import make_table, make_tournament
from tournaments import services as tournament_services
from tournaments.models import Entry, Tournament

from .processes import free_port, wait_for
from .test_daphne_redis import PASSWORD, http_ok


def api(port: int, method: str, path: str, username: str, body: dict | None = None) -> tuple[int, dict]:
    token = base64.b64encode(f"{username}:{PASSWORD}".encode()).decode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Basic {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def all_at_once(calls):
    """Run the calls in threads released together; returns their results in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)
    errors = []

    def run(i, call):
        barrier.wait(timeout=30)
        try:
            results[i] = call()
        except BaseException as error:  # re-raised below, in the test's thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(not t.is_alive() for t in threads), "a request did not finish"
    if errors:
        raise errors[0]
    return results


def test_racing_tablets_record_each_action_once(processes):
    dealer = get_user_model().objects.create_user("dealer", password=PASSWORD, is_staff=True)
    _tournament, table = make_table(stacks=(1000, 1000, 1000, 1000))
    ports = [free_port(), free_port()]
    for i, port in enumerate(ports):
        processes.daphne(f"daphne-{i}", port)
    for port in ports:
        wait_for(
            lambda port=port: http_ok(f"http://127.0.0.1:{port}/healthz?check=database,channel_layer,redis"),
            timeout=60,
            interval=0.2,
            what=f"daphne on port {port}",
        )

    status, hand = api(ports[0], "POST", "/api/hands/", dealer.username, {"table": table.pk})
    assert status == 201, hand
    hand_id, seq = hand["id"], hand["seq"]
    state = hand["state"]
    assert state["phase"] == "action"

    def action(state, client_action_id, expected_seq):
        return {
            "type": "action",
            "seat": state["to_act"],
            "action": "check" if not state["options"]["call"] else "call",
            "client_action_id": client_action_id,
            "expected_seq": expected_seq,
        }

    # One tablet's input, retried and sent to both servers at once: recorded once, every answer the same.
    body = action(state, "tablet-1:action-1", seq)
    before = HandEvent.objects.filter(hand_id=hand_id).count()
    results = all_at_once(
        [
            (
                lambda port=ports[i % 2]: api(
                    port, "POST", f"/api/hands/{hand_id}/actions/", dealer.username, body
                )
            )
            for i in range(8)
        ]
    )
    assert [status for status, _ in results] == [200] * 8, results
    assert sorted(r["replayed"] for _, r in results) == [False] + [True] * 7
    assert len({(r["first_seq"], r["last_seq"]) for _, r in results}) == 1
    first_seq, last_seq = results[0][1]["first_seq"], results[0][1]["last_seq"]
    assert first_seq == seq + 1
    after = HandEvent.objects.filter(hand_id=hand_id).count()
    assert after - before == last_seq - first_seq + 1
    assert HandEvent.objects.filter(hand_id=hand_id, client_action_id="tablet-1:action-1").count() == 1

    # Two tablets (different ids) both entering the next action: one wins, the other is told it is stale.
    state = results[0][1]["hand"]["state"]
    seq = last_seq
    before = after
    results = all_at_once(
        [
            (
                lambda i=i: api(
                    ports[i % 2],
                    "POST",
                    f"/api/hands/{hand_id}/actions/",
                    dealer.username,
                    action(state, f"tablet-{i}:action-2", seq),
                )
            )
            for i in range(8)
        ]
    )
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [409] * 7, results
    winner = next(r for status, r in results if status == 200)
    assert (
        HandEvent.objects.filter(hand_id=hand_id).count() - before
        == winner["last_seq"] - winner["first_seq"] + 1
    )
    seqs = list(HandEvent.objects.filter(hand_id=hand_id).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "event numbers have a gap or a repeat"


def bust_at(table_id: int, busted: list[tuple[int, int]], winner_id: int | None):
    """What the end of a hand does at one table: the busted players' chips go to the winner, they
    bust with their chips at the start of the hand, and the table's hand is over."""
    from django.db import connection, transaction

    try:
        with transaction.atomic():
            table = Table.objects.get(pk=table_id)
            if busted:
                total = sum(chips for _, chips in busted)
                Entry.objects.filter(pk__in=[pk for pk, _ in busted]).update(chips=0)
                winner = Entry.objects.select_for_update().get(pk=winner_id)
                winner.chips += total
                winner.save(update_fields=["chips"])
                tournament_services.bust_entries(
                    Tournament.objects.get(pk=table.tournament_id),
                    [(Entry.objects.get(pk=pk), chips) for pk, chips in busted],
                    hand_label=f"table {table.number}",
                )
            occupied = sorted(
                Seat.objects.filter(table=table, entry__isnull=False).values_list("number", flat=True)
            )
            tables_services.hand_finished(table, button_seat=occupied[0], big_blind_seat=occupied[1])
    finally:
        connection.close()


def test_simultaneous_bust_outs_leave_consistent_seating(processes, redis_client):
    """Bust-outs at three tables in the same instant: distinct places (R8.8), nobody busted still
    seated, every player left in exactly one seat, tables within one player (R8.3) once a real
    worker has balanced."""
    tournament = make_tournament(name="Races", players=12, seats_per_table=4)
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    assert [t.seat_set.filter(entry__isnull=False).count() for t in tables] == [4, 4, 4]
    for table in tables:
        tables_services.hand_started(table)
    processes.worker()

    def seated(table):
        return list(
            Seat.objects.filter(table=table, entry__isnull=False)
            .order_by("number")
            .values_list("entry_id", flat=True)
        )

    one, two, _three = (seated(t) for t in tables)
    # Table 1 loses two players in one hand (different starting stacks), table 2 one, table 3 none.
    Entry.objects.filter(pk=one[0]).update(chips=1500)
    Entry.objects.filter(pk=one[1]).update(chips=500)
    Entry.objects.filter(pk=one[2]).update(chips=1000)
    all_at_once(
        [
            lambda: bust_at(tables[0].pk, [(one[0], 1500), (one[1], 500)], winner_id=one[2]),
            lambda: bust_at(tables[1].pk, [(two[0], 1000)], winner_id=two[1]),
            lambda: bust_at(tables[2].pk, [], winner_id=None),
        ]
    )

    # The worker runs the balancing queued by each commit.
    def balanced():
        counts = sorted(
            Seat.objects.filter(
                table__tournament=tournament, table__status=Table.Status.ACTIVE, entry__isnull=False
            ).values_list("table_id", flat=True)
        )
        per_table = [counts.count(t.pk) for t in tables]
        return (
            per_table if redis_client.llen("celery") == 0 and max(per_table) - min(per_table) <= 1 else None
        )

    per_table = wait_for(balanced, timeout=60, interval=0.2, what="the tables to be balanced")
    assert sorted(per_table) == [3, 3, 3]

    busted = Entry.objects.filter(tournament=tournament, status=Entry.Status.BUSTED)
    assert sorted(busted.values_list("place", flat=True)) == [10, 11, 12]
    # Of the two who busted in one hand, the bigger starting stack takes the better place (R8.8).
    assert Entry.objects.get(pk=one[0]).place < Entry.objects.get(pk=one[1]).place
    assert not Seat.objects.filter(entry__in=busted).exists()
    active = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).values_list("pk", flat=True)
    )
    seat_counts = [Seat.objects.filter(entry_id=pk).count() for pk in active]
    assert seat_counts == [1] * 9
    assert sum(Entry.objects.filter(tournament=tournament).values_list("chips", flat=True)) == 12 * 1000
    # Exactly one player was moved to the short table, and nothing more is suggested.
    assert (
        Move.objects.filter(tournament=tournament, status=Move.Status.DONE, to_table=tables[0]).count() == 1
    )
    assert tables_services.suggested_moves(tournament) == []
