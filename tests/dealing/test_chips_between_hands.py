"""Chips change only between hands: a rebuy, add-on or recount during a running hand at the player's
table would be overwritten when the hand writes its stacks back, so it is refused and nothing changes."""

import pytest

from dealing import services
from tables.models import Seat
from tests.factories import make_table
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def test_rebuy_addon_and_recount_wait_for_the_hand_to_end(api):
    _tournament, table = make_table(
        stacks=(1000, 1000, 1000), rebuys_allowed=1, addon_allowed=True, late_registration_until_level=5
    )
    hand = services.start_next_hand(table, actor=None)
    entry = Seat.objects.get(table=table, number=1).entry
    for path, body in (("rebuy/", {}), ("addon/", {}), ("chips/", {"chips": 900, "reason": "recount"})):
        response = api.post(f"/api/entries/{entry.pk}/{path}", body, format="json")
        assert response.status_code == 409, response.json()
        assert response.json()["code"] == "in_a_hand"
        assert "table 1" in response.json()["detail"]
    entry.refresh_from_db()
    assert (entry.chips, entry.rebuys, entry.addon_taken) == (1000, 0, False)

    services.void_hand(hand, reason="misdeal", actor=None)
    assert (
        api.post(
            f"/api/entries/{entry.pk}/chips/", {"chips": 900, "reason": "recount"}, format="json"
        ).status_code
        == 200
    )
    assert Entry.objects.get(pk=entry.pk).chips == 900
