"""Every error case of the action endpoint and of starting a hand: the right status and message, and
nothing changed (events, hands, chips, table positions)."""

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from dealing.models import Hand, HandEvent
from tests.factories import make_table
from tournaments.models import Entry

from .tablet import Tablet, play_out, world


def start(api, table, **extra):
    response = api.post("/api/hands/", {"table": table.pk, **extra}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


@pytest.fixture
def running(api):
    """A no-limit hand at a three-player table; seat 1 is the button, seat 2 small blind, seat 3 big blind,
    so seat 1 acts first pre-flop (R4.3)."""
    _tournament, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    data = start(api, table)
    assert data["state"]["to_act"] == 1
    tablet = Tablet(api, data["id"])
    tablet.refresh()
    return table, tablet


@pytest.mark.django_db
def test_same_client_action_id_again_returns_the_original_result_and_adds_no_event(running):
    table, tablet = running
    first = tablet.act(1, "call", client_action_id="tab-1")
    assert first.status_code == 200
    count = HandEvent.objects.count()
    state = world(table)
    # The tablet never saw the answer (lost response) and sends the very same request again.
    again = tablet.act(1, "call", client_action_id="tab-1", expected_seq=first.json()["first_seq"] - 1)
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    assert again.json()["first_seq"] == first.json()["first_seq"]
    assert again.json()["last_seq"] == first.json()["last_seq"]
    assert again.json()["events"] == first.json()["events"]
    assert HandEvent.objects.count() == count
    assert world(table) == state


@pytest.mark.django_db
def test_same_client_action_id_with_a_different_body_is_422(running):
    table, tablet = running
    assert tablet.act(1, "call", client_action_id="tab-1").status_code == 200
    state = world(table)
    response = tablet.act(2, "fold", client_action_id="tab-1")
    assert response.status_code == 422
    assert "tab-1" in response.json()["detail"]
    assert response.json()["code"] == "client_action_id_reused"
    assert world(table) == state


@pytest.mark.django_db
def test_stale_expected_seq_is_409_with_the_current_state(running):
    table, tablet = running
    seen = tablet.seq
    assert tablet.act(1, "call").status_code == 200
    state = world(table)
    response = tablet.act(2, "call", expected_seq=seen)
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "stale"
    assert body["seq"] == tablet.seq
    assert body["hand"]["seq"] == tablet.seq and body["hand"]["state"]["to_act"] == 2
    assert world(table) == state


@pytest.mark.django_db
def test_out_of_turn_is_409(running):
    table, tablet = running
    state = world(table)
    response = tablet.act(3, "check")
    assert response.status_code == 409
    assert response.json()["code"] == "not_your_turn"
    assert response.json()["rule"] == "R4.3"
    assert "seat 1" in response.json()["detail"]
    assert world(table) == state


@pytest.mark.django_db
@pytest.mark.parametrize("amount, code", [(30, "below_minimum"), (5000, "more_than_stack")])
def test_illegal_amount_is_422_naming_the_allowed_range(running, amount, code):
    """R5.5: pre-flop the minimum raise is to twice the big blind (20 -> 40); R5.3: at most the stack."""
    table, tablet = running
    state = world(table)
    response = tablet.act(1, "raise", amount)
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == code
    if code == "below_minimum":
        assert "minimum of 40" in body["detail"] and "most allowed is 1000" in body["detail"]
        assert body["rule"] == "R5.5" and body["detail"].endswith("(R5.5)")
        assert body["params"]["minimum"] == 40
    else:
        assert "1000" in body["detail"]
    assert world(table) == state


@pytest.mark.django_db
def test_legal_options_name_the_range(api, running):
    _table, tablet = running
    options = api.get(f"/api/hands/{tablet.hand_id}/options/").json()
    assert options["to_act"] == 1 and options["awaiting"] == "action"
    assert (options["options"]["min_to"], options["options"]["max_to"]) == (40, 1000)
    assert options["options"]["call"] == 20


@pytest.mark.django_db
def test_used_card_is_422_and_unknown_card_is_400(api):
    """R2.1: a card already used in the hand is a broken rule (422); a code that is not a card is a
    malformed request (400, naming the field)."""
    _, table = make_table(stacks=(1000, 1000))
    tablet = Tablet(api, start(api, table, deal_mode="entered")["id"])
    assert tablet.send({"type": "board", "cards": ["Ah"]}).status_code == 200
    # heads-up: the button (small blind) calls, the big blind checks: the flop is due
    assert tablet.act(1, "call").status_code == 200
    assert tablet.act(2, "check").status_code == 200
    state = world(table)
    used = tablet.send({"type": "board", "cards": ["Ah", "Kd"]})
    assert used.status_code == 422 and used.json()["code"] == "card_used" and "Ah" in used.json()["detail"]
    for bad in (["10h", "Kd"], ["AH", "Kd"], ["Xx", "Kd"]):
        response = tablet.send({"type": "board", "cards": bad})
        assert response.status_code == 400, bad
        assert response.json()["code"] == "invalid"
        assert "cards" in response.json()["errors"] and "cards" in response.json()["detail"]
    assert world(table) == state


@pytest.mark.django_db
def test_anything_on_a_finished_hand_is_409(api, floor, running):
    table, tablet = running
    assert tablet.act(1, "fold").status_code == 200
    assert tablet.act(2, "fold").status_code == 200
    assert Hand.objects.get(pk=tablet.hand_id).status == "finished"
    state = world(table)
    for body in (
        {"type": "action", "seat": 3, "action": "check"},
        {"type": "board", "cards": ["2c"]},
        {"type": "show", "seat": 3, "cards": ["2c", "3c", "4c", "5c", "6c"]},
        {"type": "muck", "seat": 3},
    ):
        response = tablet.send(body)
        assert response.status_code == 409, body
        assert response.json()["code"] == "hand_over"
    # a floor person cannot void or correct it either
    floor_api = APIClient()
    floor_api.force_authenticate(floor)
    for url in ("void", "correct"):
        response = floor_api.post(f"/api/hands/{tablet.hand_id}/{url}/", {"reason": "late"}, format="json")
        assert response.status_code == 409, url
        assert response.json()["code"] == "hand_over"
    assert world(table) == state


@pytest.mark.django_db
def test_writes_need_staff_and_bad_fields_are_400(anon, running):
    table, tablet = running
    state = world(table)
    response = anon.post(
        f"/api/hands/{tablet.hand_id}/actions/",
        {"client_action_id": "x", "expected_seq": tablet.seq, "seat": 1, "action": "fold"},
        format="json",
    )
    assert response.status_code == 403
    assert anon.post("/api/hands/", {"table": table.pk}, format="json").status_code == 403
    missing = tablet.send({"type": "action", "action": "raise"})
    assert missing.status_code == 400
    assert "seat" in missing.json()["detail"] and "amount" in missing.json()["detail"]
    assert tablet.send({"type": "action", "seat": 1, "action": "dance"}).status_code == 400
    assert world(table) == state


# ---------------------------------------------------------------- refusals to deal


@pytest.mark.django_db
def test_start_refused_while_a_hand_is_running(api, running):
    table, _tablet = running
    state = world(table)
    response = api.post("/api/hands/", {"table": table.pk}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "hand_running"
    assert world(table) == state


@pytest.mark.django_db
def test_start_refused_with_fewer_than_two_players(api):
    _, table = make_table(stacks=(1000,), extra_entries=3)
    state = world(table)
    response = api.post("/api/hands/", {"table": table.pk}, format="json")
    assert response.status_code == 409
    assert "two players" in response.json()["detail"]
    assert world(table) == state


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, code",
    [
        ({"paused_at": "now", "remaining_when_paused": 600.0}, "paused"),
        ({"status": "on_break"}, "on_break"),
        ({"status": "registering"}, "not_running"),
        ({"status": "finished"}, "not_running"),
    ],
)
def test_start_refused_when_the_tournament_cannot_deal(api, change, code):
    tournament, table = make_table(stacks=(1000, 1000, 1000))
    for name, value in change.items():
        setattr(tournament, name, timezone.now() if value == "now" else value)
    tournament.save()
    state = world(table)
    response = api.post("/api/hands/", {"table": table.pk}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == code
    assert world(table) == state


@pytest.mark.django_db
def test_hand_for_hand_deals_although_the_clock_is_paused(api):
    """R8.6: hand-for-hand pauses the clock between rounds, but the hands are still dealt."""
    tournament, table = make_table(stacks=(1000, 1000, 1000))
    tournament.paused_at = timezone.now()
    tournament.remaining_when_paused = 600.0
    tournament.hand_for_hand = True
    tournament.save()
    assert api.post("/api/hands/", {"table": table.pk}, format="json").status_code == 201


@pytest.mark.django_db
def test_start_refused_at_a_table_halted_for_balancing(api):
    """R8.3: a table three or more players short stops dealing until it is balanced."""
    _tournament, table = make_table(stacks=(1000, 1000), table_size=8, other_tables=(8,))
    state = world(table)
    response = api.post("/api/hands/", {"table": table.pk}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "table_halted"
    assert "R8.3" in response.json()["detail"]
    assert world(table) == state


@pytest.mark.django_db
def test_unknown_table_or_hand_is_404(api):
    assert api.post("/api/hands/", {"table": 999}, format="json").status_code == 404
    assert api.get("/api/hands/999/").status_code == 404
    assert api.get("/api/tables/999/current-hand/").status_code == 404


@pytest.mark.django_db
def test_a_hand_plays_on_after_errors(api, running):
    """The errors above leave a hand that still plays to the end normally."""
    table, tablet = running
    tablet.act(3, "check")
    tablet.act(1, "raise", 30)
    final = play_out(tablet)
    assert final["status"] == "finished"
    assert sum(e.chips for e in Entry.objects.filter(tournament=table.tournament)) == 4000


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["events/?after=--1", "events/?after=²", "events/?after=x"])
def test_a_bad_after_is_400_naming_it(api, running, query):
    _, tablet = running
    response = api.get(f"/api/hands/{tablet.hand_id}/{query}")
    assert response.status_code == 400 and "after" in response.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["table=²", "table=-3", "tournament=--", "tournament=1.5"])
def test_a_bad_hand_list_filter_is_400_naming_it(api, running, query):
    response = api.get(f"/api/hands/?{query}")
    assert response.status_code == 400 and query.split("=")[0] in response.json()["detail"]


@pytest.mark.django_db
def test_events_after_a_seq_are_only_the_later_ones(api, running):
    _, tablet = running
    assert tablet.act(1, "call").status_code == 200
    everything = api.get(f"/api/hands/{tablet.hand_id}/events/").json()["events"]
    assert api.get(f"/api/hands/{tablet.hand_id}/events/?after=-1").status_code == 400  # seqs start at 0
    later = api.get(f"/api/hands/{tablet.hand_id}/events/?after={tablet.seq - 1}").json()["events"]
    assert everything[0]["seq"] == 0 and [e["seq"] for e in later] == [tablet.seq]
