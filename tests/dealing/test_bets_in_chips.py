"""R5.7 through the API: a bet that the chips in play cannot make is refused with the rule, the
step and the allowed range, and nothing changes."""

import pytest

from tests.factories import make_table

from .tablet import Tablet, world


@pytest.mark.django_db
def test_a_bet_not_in_whole_chips_is_refused_with_the_step_and_range_R5_7(api):
    _tournament, table = make_table(stacks=(20000, 20000, 20000), sb=25, bb=50, smallest_chip=25)
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    tablet = Tablet(api, hand_id)
    options = tablet.state()["options"]
    assert options["step"] == 25 and options["min_to"] % 25 == 0
    before = world(table)
    response = tablet.act(tablet.state()["to_act"], "raise", 214)
    assert response.status_code == 422
    body = response.json()
    assert body["rule"] == "R5.7" and body["code"] == "not_in_chips"
    assert body["params"]["step"] == 25 and body["params"]["minimum"] == options["min_to"]
    assert "25" in body["detail"] and "214" in body["detail"]
    assert world(table) == before
    assert tablet.act(tablet.state()["to_act"], "raise", 225).status_code == 200
