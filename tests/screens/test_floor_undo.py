"""Undo the last input from the tablet, approved by the floor's PIN (issue 15 item 6): the director sets
the PIN in the console; the floor types it on the tablet with a reason; the correction is recorded as
any other, with that reason; a wrong PIN, no PIN set or a stale tablet changes nothing; PIN tries are
limited per table."""

import pytest
from rest_framework.test import APIClient

from dealing import services as dealing
from dealing.models import Hand, HandEvent
from screens.models import DeviceKind
from screens.pairing import create_pairing_code, redeem_pairing_code
from tests.dealing.tablet import world
from tests.screens.live import live_tournament
from tournaments import services
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def paired_tablet(table):
    _device, token = redeem_pairing_code(
        create_pairing_code(tournament=table.tournament, kind=DeviceKind.TABLET, table=table).code
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Device {token}")
    return client


def a_hand_with_one_call(staff):
    tournament = live_tournament(players=3, game="courchevel", betting="no_limit")
    table = tournament.tables.get()
    hand = dealing.start_next_hand(table, actor=staff)
    view = dealing.snapshot(hand)["full"]
    dealing.apply_input(
        hand,
        {"type": "action", "seat": view["to_act"], "action": "call"},
        expected_seq=dealing.last_seq(hand),
    )
    return tournament, table, Hand.objects.get(pk=hand.pk), view["to_act"]


def test_the_floor_pin_is_4_to_8_digits_and_stored_hashed(staff):
    tournament = live_tournament(players=2)
    for bad in ("123", "123456789", "12a4"):
        with pytest.raises(Exception) as refused:
            services.set_floor_pin(tournament, bad, actor=staff)
        assert "4 to 8 digits" in str(refused.value)
    services.set_floor_pin(tournament, "4321", actor=staff)
    tournament.refresh_from_db()
    assert tournament.floor_pin_hash and "4321" not in tournament.floor_pin_hash
    assert services.floor_pin_matches(tournament, "4321") and not services.floor_pin_matches(
        tournament, "1234"
    )
    assert AuditEntry.objects.filter(action="tournament.floor_pin").count() == 1


def test_the_floor_pin_takes_the_last_input_back_and_a_wrong_one_changes_nothing(staff):
    tournament, table, hand, caller = a_hand_with_one_call(staff)
    tablet = paired_tablet(table)
    url = f"/tablet/{table.pk}/undo/"
    body = {"pin": "2468", "reason": "wrong seat tapped", "expected_seq": hand.state_seq}
    before = world(table)
    assert tablet.post(url, body, format="json").status_code == 403  # no PIN set: the console only
    services.set_floor_pin(tournament, "2468", actor=staff)
    wrong = tablet.post(url, {**body, "pin": "1111"}, format="json")
    assert wrong.status_code == 403 and wrong.json()["code"] == "bad_pin"
    stale = tablet.post(url, {**body, "expected_seq": hand.state_seq - 1}, format="json")
    assert stale.status_code == 409
    assert tablet.post(url, {**body, "pin": "24"}, format="json").status_code == 400
    assert world(table) == before

    done = tablet.post(url, body, format="json")
    assert done.status_code == 200, done.json()
    correction = HandEvent.objects.filter(hand=hand, type="correction").get()
    assert "wrong seat tapped" in correction.payload["reason"] and "floor PIN" in correction.payload["reason"]
    assert dealing.snapshot(Hand.objects.get(pk=hand.pk))["full"]["to_act"] == caller  # to call again
    audit = AuditEntry.objects.get(action="hand.correct")
    assert "floor PIN" in audit.reason


def test_pin_tries_are_limited_per_table(staff, settings):
    tournament, table, hand, _caller = a_hand_with_one_call(staff)
    services.set_floor_pin(tournament, "2468", actor=staff)
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "floor_pin": "2/60"}
    tablet = paired_tablet(table)
    body = {"pin": "0000", "reason": "guessing", "expected_seq": hand.state_seq}
    assert [tablet.post(f"/tablet/{table.pk}/undo/", body, format="json").status_code for _ in range(2)] == [
        403,
        403,
    ]
    third = tablet.post(f"/tablet/{table.pk}/undo/", {**body, "pin": "2468"}, format="json")
    assert third.status_code == 429 and int(third["Retry-After"]) > 0
    assert not HandEvent.objects.filter(hand=hand, type="correction").exists()
