"""Chips change only between hands: a rebuy, add-on or recount during a running hand at the player's
table would be overwritten when the hand writes its stacks back, so it is refused and nothing changes."""

import pytest
from rest_framework.test import APIClient

from dealing import services
from tables.models import Seat
from tournaments.models import Entry

from .conftest import make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_api(django_user_model):
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user("td", is_staff=True))
    return client


def test_rebuy_addon_and_recount_wait_for_the_hand_to_end(staff_api):
    tournament, table = make_tournament(stacks=(1000, 1000, 1000))
    tournament.rebuys_allowed, tournament.addon_allowed = 1, True
    tournament.late_registration_until_level = 5
    tournament.save()
    hand = services.start_next_hand(table, actor=None)
    entry = Seat.objects.get(table=table, number=1).entry
    for path, body in (("rebuy/", {}), ("addon/", {}), ("chips/", {"chips": 900, "reason": "recount"})):
        response = staff_api.post(f"/api/entries/{entry.pk}/{path}", body, format="json")
        assert response.status_code == 409, response.json()
        assert response.json()["code"] == "in_a_hand"
        assert "table 1" in response.json()["detail"]
    entry.refresh_from_db()
    assert (entry.chips, entry.rebuys, entry.addon_taken) == (1000, 0, False)

    services.void_hand(hand, reason="misdeal", actor=None)
    assert (
        staff_api.post(
            f"/api/entries/{entry.pk}/chips/", {"chips": 900, "reason": "recount"}, format="json"
        ).status_code
        == 200
    )
    assert Entry.objects.get(pk=entry.pk).chips == 900
