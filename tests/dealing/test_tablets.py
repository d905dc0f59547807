"""A paired dealer tablet runs hands at its own table only; its label is recorded on the events."""

import pytest
from rest_framework.test import APIClient

from dealing.models import HandEvent
from screens.pairing import create_pairing_code, redeem_pairing_code
from tables.models import Table
from tests.factories import make_table


@pytest.mark.django_db
def test_tablet_acts_at_its_own_table_only(api, staff):
    tournament, table = make_table(stacks=(1000, 1000, 1000), table_size=4, other_tables=(3,))
    other = Table.objects.get(tournament=tournament, number=2)
    code = create_pairing_code(tournament=tournament, kind="tablet", table=table, actor=staff)
    _device, token = redeem_pairing_code(code.code, label="Tablet T1")
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Device {token}")

    started = tablet.post("/api/hands/", {"table": table.pk}, format="json")
    assert started.status_code == 201, started.json()
    hand = started.json()
    response = tablet.post(
        f"/api/hands/{hand['id']}/actions/",
        {"client_action_id": "t1", "expected_seq": hand["seq"], "seat": 1, "action": "call"},
        format="json",
    )
    assert response.status_code == 200
    assert HandEvent.objects.get(hand_id=hand["id"], client_action_id="t1").device == "Tablet T1"

    assert tablet.post("/api/hands/", {"table": other.pk}, format="json").status_code == 403
    other_hand = api.post("/api/hands/", {"table": other.pk}, format="json").json()
    refused = tablet.post(
        f"/api/hands/{other_hand['id']}/actions/",
        {"client_action_id": "t2", "expected_seq": other_hand["seq"], "seat": 1, "action": "fold"},
        format="json",
    )
    assert refused.status_code == 403
    assert not HandEvent.objects.filter(client_action_id="t2").exists()
    # a tablet is not the floor and not deck prep
    assert tablet.post(f"/api/hands/{hand['id']}/void/", {"reason": "r"}, format="json").status_code == 403
    assert tablet.get(f"/api/hands/{hand['id']}/deck/").status_code == 403


@pytest.mark.django_db
def test_a_clock_screen_and_a_revoked_tablet_cannot_run_hands(api, staff):
    """A clock device only reads; a revoked tablet's token is refused at once. Nothing changes."""
    from screens.pairing import revoke_device

    from .tablet import world

    tournament, table = make_table(stacks=(1000, 1000, 1000))
    _clock_device, clock_token = redeem_pairing_code(
        create_pairing_code(tournament=tournament, kind="clock", actor=staff).code
    )
    tablet_device, tablet_token = redeem_pairing_code(
        create_pairing_code(tournament=tournament, kind="tablet", table=table, actor=staff).code
    )
    clock = APIClient()
    clock.credentials(HTTP_AUTHORIZATION=f"Device {clock_token}")
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Device {tablet_token}")

    before = world(table)
    assert clock.post("/api/hands/", {"table": table.pk}, format="json").status_code == 403
    assert world(table) == before
    hand = tablet.post("/api/hands/", {"table": table.pk}, format="json").json()
    assert clock.get(f"/api/hands/{hand['id']}/").status_code == 200  # reading the public view is fine
    before = world(table)
    action = {"client_action_id": "c1", "expected_seq": hand["seq"], "seat": 1, "action": "fold"}
    assert clock.post(f"/api/hands/{hand['id']}/actions/", action, format="json").status_code == 403
    assert clock.get(f"/api/hands/{hand['id']}/deck/").status_code == 403
    assert world(table) == before

    revoke_device(tablet_device, actor=staff)
    refused = tablet.post(
        f"/api/hands/{hand['id']}/actions/", {**action, "client_action_id": "t1"}, format="json"
    )
    # refused as not authenticated (403 here: the session check comes first and sends no challenge)
    assert refused.status_code in (401, 403) and "revoked" in refused.json()["detail"]
    assert tablet.post("/api/hands/", {"table": table.pk}, format="json").status_code in (401, 403)
    assert world(table) == before
    assert not HandEvent.objects.filter(client_action_id__in=["c1", "t1"]).exists()
