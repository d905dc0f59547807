"""dealing 0002/0003 move the secrets of existing hands (seed, full view, hole cards, burns) from the
hand row and the event log into HandSecret, and back again when unapplied; a hand running across the
upgrade plays on and verifies."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from dealing import services, vault
from dealing.models import Hand, HandEvent, HandSecret
from dealing.verification import verify_hand
from tests.dealing.tablet import call_down
from tests.factories import make_table as make_tournament

BEFORE = [("dealing", "0001_initial")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture
def back_to_latest():
    yield
    _migrate(_latest())


def _stored(hand_id):
    events = list(HandEvent.objects.filter(hand_id=hand_id).order_by("seq").values_list("seq", "payload"))
    secret = HandSecret.objects.filter(hand_id=hand_id).values("seed", "state", "state_seq", "events").get()
    secret["seed"] = bytes(secret["seed"])
    hand = Hand.objects.filter(pk=hand_id).values("state", "state_seq").get()
    return events, secret, hand


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_latest")
def test_the_secrets_move_out_of_the_hand_and_its_log_and_back():
    _, table = make_tournament(stacks=(1000, 1000, 1000))
    hand = services.start_next_hand(table)
    state = services.public_view(hand)
    services.apply_input(hand, call_down(state), expected_seq=services.last_seq(hand), client_action_id="a1")
    # An input stores only the public view; the dealer's full view is stored when first read.
    services.full_view(hand)
    hand_id = hand.pk
    now = _stored(hand_id)
    seed = now[1]["seed"]
    holes = [c for p in now[1]["state"]["players"] for c in p["cards"]]

    # The version before: the seed on the hand, both views in Hand.state, the cards in the log.
    old = _migrate(BEFORE)
    OldHand, OldEvent = old.get_model("dealing", "Hand"), old.get_model("dealing", "HandEvent")
    before = OldHand.objects.get(pk=hand_id)
    assert bytes(before.seed) == seed
    assert before.state["full"] == now[1]["state"] and before.state["public"] == now[2]["state"]
    old_holes = [c for e in OldEvent.objects.filter(hand_id=hand_id, type="hole") for c in e.payload["cards"]]
    assert sorted(old_holes) == sorted(holes)
    assert any(e.payload.get("burn") for e in OldEvent.objects.filter(hand_id=hand_id, type="board"))

    _migrate(_latest())
    assert _stored(hand_id) == now  # exactly as the new code stores a hand
    assert all(e.payload["cards"] is None for e in HandEvent.objects.filter(hand_id=hand_id, type="hole"))
    assert not any(e.payload.get("burn") for e in HandEvent.objects.filter(hand_id=hand_id, type="board"))
    # The hand plays on from the moved secrets and verifies once over.
    hand = Hand.objects.get(pk=hand_id)
    assert vault.seed_of(hand) == seed
    for index in range(200):
        if hand.status != Hand.Status.RUNNING:
            break
        body = call_down(services.public_view(hand))
        services.apply_input(hand, body, expected_seq=services.last_seq(hand), client_action_id=f"b{index}")
        hand = Hand.objects.get(pk=hand_id)
    assert hand.status == Hand.Status.FINISHED
    assert verify_hand(Hand.objects.select_related("table__tournament").get(pk=hand_id)).ok
