"""Two tablets racing on one hand, retries after a lost response, and a server restart mid-hand."""

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from dealing import services, vault
from dealing.engine.hand import Hand as EngineHand
from dealing.engine.hand import HandConfig
from dealing.models import Hand, HandEvent
from tests.factories import make_table
from tests.tables.seating import postgresql_only

from .tablet import RaiseOnce, Tablet, act_in_turn, call_down, play_out


def race(staff, hand_id, bodies):
    """Post each body from its own thread (its own DB connection) at the same moment."""
    barrier = threading.Barrier(len(bodies))
    results = [None] * len(bodies)

    def post(i, body):
        client = APIClient()
        client.force_authenticate(staff)
        try:
            barrier.wait()
            response = client.post(f"/api/hands/{hand_id}/actions/", body, format="json")
            results[i] = (response.status_code, response.json())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(i, b)) for i, b in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_tablets_racing_the_same_action_make_exactly_one_event(api, staff):
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    seq = api.get(f"/api/hands/{hand_id}/").json()["seq"]
    before = HandEvent.objects.filter(hand_id=hand_id).count()

    # The same input sent twice at once (a double tap, or a retry racing the original).
    body = {"client_action_id": "tap-1", "expected_seq": seq, "seat": 1, "action": "call"}
    results = race(staff, hand_id, [body, body])
    assert [r[0] for r in results] == [200, 200], results
    assert sorted(r[1]["replayed"] for r in results) == [False, True]
    assert results[0][1]["events"] == results[1][1]["events"]
    assert HandEvent.objects.filter(hand_id=hand_id).count() == before + 1
    assert HandEvent.objects.filter(hand_id=hand_id, type="action").count() == 1

    # Two tablets acting for the same seat from the same state: one wins, the other is stale.
    seq += 1
    results = race(
        staff,
        hand_id,
        [
            {"client_action_id": "tablet-a", "expected_seq": seq, "seat": 2, "action": "call"},
            {"client_action_id": "tablet-b", "expected_seq": seq, "seat": 2, "action": "fold"},
        ],
    )
    codes = sorted(r[0] for r in results)
    assert codes == [200, 409], results
    assert HandEvent.objects.filter(hand_id=hand_id, type="action").count() == 2
    loser = next(r[1] for r in results if r[0] == 409)
    assert loser["code"] == "stale" and loser["hand"]["seq"] == seq + 1


@pytest.mark.django_db
def test_retry_after_a_lost_response_gets_the_original_result(api):
    """The tablet's request went through but its answer was lost; it retries with the same id and the
    seq it had, and gets the original answer, even after the hand has moved on."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    tablet = Tablet(api, api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"])
    seen = tablet.refresh()["seq"]
    original = tablet.act(1, "raise", 60, client_action_id="lost-1")
    assert original.status_code == 200
    tablet.act(2, "call")
    retry = tablet.act(1, "raise", 60, client_action_id="lost-1", expected_seq=seen)
    assert retry.status_code == 200
    assert retry.json()["replayed"] is True
    assert retry.json()["events"] == original.json()["events"]
    assert [e["payload"]["action"] for e in retry.json()["events"] if e["type"] == "action"] == ["raise"]
    assert HandEvent.objects.filter(hand_id=tablet.hand_id, type="action").count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize("damage", ["drop", "corrupt", "stale"])
def test_restart_mid_hand_rebuilds_from_the_events_and_ends_the_same(api, damage):
    """The events are the truth: with the snapshot dropped, corrupted or left behind, the hand is rebuilt
    from its events and plays on to exactly the result of the same hand played without a break."""
    _, table = make_table(
        game="courchevel_hilo", betting="pot_limit", stacks=(900, 1200, 700, 1000), extra_entries=1
    )
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    tablet = Tablet(api, hand_id)
    policy = RaiseOnce()
    inputs = []
    for _ in range(4):
        state = tablet.state()
        body = policy(state)
        inputs.append(body)
        assert tablet.send(body).status_code == 200

    # The server goes down; on the way back the cached state is gone or damaged.
    if damage == "drop":
        Hand.objects.filter(pk=hand_id).update(state=None)
    elif damage == "corrupt":
        Hand.objects.filter(pk=hand_id).update(state={"full": "garbage"})
    else:
        Hand.objects.filter(pk=hand_id).update(state_seq=2)
    tablet = Tablet(APIClient(), hand_id)  # a fresh tablet with no memory
    tablet.client = api

    def recording(state):
        body = call_down(state)
        inputs.append(body)
        return body

    final = play_out(tablet, recording)
    hand = Hand.objects.get(pk=hand_id)

    # The same hand played straight through, with no database at all.
    reference = EngineHand.start(HandConfig.from_dict(hand.config), vault.seed_of(hand))
    for body in inputs:
        amount = body.get("amount")
        reference.act(body["seat"], body["action"], amount)
    assert reference.done
    assert final["state"]["result"] == reference.result()
    assert services.engine_hand(hand).events == reference.events


@pytest.mark.django_db
def test_starting_twice_with_the_same_id_deals_one_hand(api):
    """A double tap on "Deal next hand": the retry returns the hand already dealt (200), no second hand;
    without an id the second request is refused because a hand is running."""
    _, table = make_table(stacks=(1000, 1000, 1000))
    first = api.post("/api/hands/", {"table": table.pk, "client_action_id": "deal-1"}, format="json")
    again = api.post("/api/hands/", {"table": table.pk, "client_action_id": "deal-1"}, format="json")
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["id"] == first.json()["id"]
    assert Hand.objects.filter(table=table).count() == 1
    assert api.post("/api/hands/", {"table": table.pk}, format="json").status_code == 409


@pytest.mark.django_db
def test_the_same_start_id_with_another_deal_mode_is_refused(api):
    """Like an action, a reused client_action_id with a different body gets 422 and deals nothing."""
    _, table = make_table(stacks=(1000, 1000, 1000))
    first = api.post(
        "/api/hands/", {"table": table.pk, "client_action_id": "deal-1", "deal_mode": "seeded"}, format="json"
    )
    other = api.post(
        "/api/hands/",
        {"table": table.pk, "client_action_id": "deal-1", "deal_mode": "entered"},
        format="json",
    )
    assert first.status_code == 201
    assert other.status_code == 422 and other.json()["code"] == "client_action_id_reused"
    assert list(Hand.objects.filter(table=table).values_list("deal_mode", flat=True)) == ["seeded"]


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_run_out_is_dealt_while_balancing_holds_the_tournament():
    """The dealer's input that deals a run-out's street (R6.2) moves the director console's all-ins
    panel. It used to bump a column of the tournament's row while holding its table, the reverse of
    balancing's lock order (the tournament, then its tables, R8.3): a balance in progress made it
    wait, and one that reached for that table deadlocked with it. Now it neither waits nor blocks."""
    from django.db import OperationalError, connection, transaction

    from screens import snapshots
    from tournaments.models import lock_tournament

    tournament, table = make_table(stacks=(1000, 1000), betting="no_limit")
    hand = services.start_next_hand(table)
    act_in_turn(hand, "all_in", "call")
    before = snapshots.director_version(tournament.pk)

    holding, done = threading.Event(), threading.Event()

    def balancing():  # what a balance holds while it decides
        try:
            with transaction.atomic():
                lock_tournament(tournament.pk)
                holding.set()
                done.wait(10)
        finally:
            connections.close_all()

    balance = threading.Thread(target=balancing)
    balance.start()
    assert holding.wait(5)
    try:
        with connection.cursor() as cursor:  # the old code waited here for the balance: fail, not hang
            cursor.execute("SET lock_timeout = '1s'")
        for step in ({"type": "face_up"}, {"type": "deal"}):
            hand.refresh_from_db()
            try:
                services.apply_input(hand, step, expected_seq=hand.state_seq)
            except OperationalError as error:
                pytest.fail(f"the run-out's {step['type']} waited for the balance's lock: {error}")
    finally:
        done.set()
        balance.join(10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    hand.refresh_from_db()
    # Each step is a new version of the console (its all-ins panel shows the flop now).
    assert snapshots.director_version(tournament.pk) == before + 2
    assert snapshots.director_snapshot(tournament.pk)["data"]["console"]["all_ins"] == [
        [hand.pk, hand.state_seq]
    ]
