"""All-in as the rules say, through the API and the services: when betting closes with an all-in the
dealer turns every hand face up (R6.2, TDA 16), a recorded ``face_up`` event, and only from then on
are the hole cards public; the board is then dealt street by street on the dealer's taps. Under
hand-for-hand the run-out waits for the floor's release (R8.6, TDA RP-8F)."""

import json

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from dealing import services
from dealing.models import Hand, HandEvent
from dealing.verification import verify_hand
from screens.snapshots import table_data
from tests.factories import make_table

from .tablet import Tablet

pytestmark = pytest.mark.django_db


def all_in_called(api, **table):
    tournament, table = make_table(stacks=(100, 100), **table)
    data = api.post("/api/hands/", {"table": table.pk}, format="json").json()
    tablet = Tablet(api, data["id"])
    state = tablet.state()
    assert tablet.act(state["to_act"], "all_in").status_code == 200
    assert tablet.act(tablet.state()["to_act"], "call").status_code == 200
    return tournament, table, tablet


def test_the_hands_stay_hidden_until_the_dealer_turns_them_face_up_R6_2(api, anon):
    _, table, tablet = all_in_called(api)
    hand = Hand.objects.get(pk=tablet.hand_id)
    full = services.full_view(hand)
    secret = [card for p in full["players"] for card in p["cards"]]
    assert len(secret) == 10
    public = anon.get(f"/api/hands/{hand.pk}/").json()
    assert public["state"]["phase"] == "face_up" and len(public["state"]["board"]) == 1
    events = anon.get(f"/api/hands/{hand.pk}/events/").json()["events"]
    screen = table_data(table)
    for payload in (public, events, screen):
        text = json.dumps(payload, default=str)
        assert not any(f'"{card}"' in text for card in secret), "a hole card leaked before face-up"

    response = tablet.send({"type": "face_up"})
    assert response.status_code == 200, response.json()
    types = [e["type"] for e in response.json()["events"]]
    assert types == ["face_up", "show", "show"]
    public = anon.get(f"/api/hands/{hand.pk}/").json()
    assert sorted(c for p in public["state"]["players"] for c in p["cards"]) == sorted(secret)
    events = anon.get(f"/api/hands/{hand.pk}/events/").json()["events"]
    assert [e["type"] for e in events if e["type"] in ("face_up", "show")] == ["face_up", "show", "show"]
    screen = table_data(table)
    assert all(p["cards"] for p in screen["hand"]["state"]["players"])
    assert len(public["state"]["board"]) == 1  # nothing dealt yet: the flop waits for the tap


def test_the_board_is_dealt_street_by_street_on_the_dealers_taps_and_verifies_R4_4(api):
    _, _table, tablet = all_in_called(api)
    tablet.send({"type": "face_up"})
    sizes = []
    for street in ("flop", "turn", "river"):
        state = tablet.state()
        assert state["deal_next"] == street
        response = tablet.send({"type": "deal"})
        assert response.status_code == 200, response.json()
        assert response.json()["events"][0]["type"] == "board"
        sizes.append(len(response.json()["hand"]["state"]["board"]))
    assert sizes == [3, 4, 5]
    hand = Hand.objects.get(pk=tablet.hand_id)
    assert hand.status == Hand.Status.FINISHED and hand.result["board"] == hand.state["board"]
    report = verify_hand(hand)
    assert report.ok, report.to_dict()


def test_a_deal_before_face_up_or_board_cards_in_a_seeded_hand_are_refused(api):
    _, _table, tablet = all_in_called(api)
    response = tablet.send({"type": "deal"})
    assert response.status_code == 409 and response.json()["code"] == "not_waiting"
    response = tablet.send({"type": "face_up", "seat": 1})
    assert response.status_code == 400
    tablet.send({"type": "face_up"})
    response = tablet.send({"type": "face_up"})
    assert response.status_code == 409


def test_the_floor_corrects_a_street_or_the_face_up_and_the_deck_deals_the_same_cards(api, floor):
    _, _table, tablet = all_in_called(api)
    tablet.send({"type": "face_up"})
    flop = tablet.send({"type": "deal"}).json()["hand"]["state"]["board"]
    hand = Hand.objects.get(pk=tablet.hand_id)
    services.correct_last_action(
        hand, actor=floor, reason="dealt too early", expected_seq=services.last_seq(hand)
    )
    state = tablet.state()
    assert len(state["board"]) == 1 and state["deal_next"] == "flop"
    assert tablet.send({"type": "deal"}).json()["hand"]["state"]["board"] == flop  # same deck (R7)
    services.correct_last_action(hand, actor=floor, reason="again", expected_seq=services.last_seq(hand))
    services.correct_last_action(hand, actor=floor, reason="face-up", expected_seq=services.last_seq(hand))
    assert tablet.state()["phase"] == "face_up"
    tablet.send({"type": "face_up"})
    for _ in range(3):
        tablet.send({"type": "deal"})
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and hand.state["board"][:3] == flop
    report = verify_hand(hand)
    assert report.ok, report.to_dict()


def hand_for_hand(tournament):
    tournament.hand_for_hand = True
    tournament.hand_for_hand_round_started_at = timezone.now() - timezone.timedelta(seconds=5)
    tournament.paused_at = timezone.now()
    tournament.remaining_when_paused = 600.0
    tournament.save()


def test_hand_for_hand_the_run_out_waits_for_the_floors_release_R8_6(api, floor, staff):
    tournament, table = make_table(stacks=(100, 100), other_tables=(2,))
    hand_for_hand(tournament)
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    tablet = Tablet(api, hand_id)
    release = f"/api/hands/{hand_id}/release/"
    floor_api = APIClient()
    floor_api.force_authenticate(floor)
    # Betting still open: nothing to release.
    response = floor_api.post(release)
    assert response.status_code == 409 and response.json()["code"] == "no_runout"
    tablet.act(tablet.state()["to_act"], "all_in")
    tablet.act(tablet.state()["to_act"], "call")
    data = tablet.refresh()
    assert "floor" in data["hold"]
    assert table_data(table)["hand"]["hold"] == data["hold"]
    # The hands may be turned face up; the board waits.
    assert tablet.send({"type": "face_up"}).status_code == 200
    response = tablet.send({"type": "deal"})
    assert response.status_code == 409 and response.json()["code"] == "awaiting_floor"
    assert response.json()["rule"] == "R8.6"
    options = api.get(f"/api/hands/{hand_id}/options/").json()
    assert options["awaiting"] == "board" and options["deal_next"] == "flop" and "floor" in options["hold"]
    assert len(tablet.state()["board"]) == 1
    # Only the floor role releases (the director here has no dealing.change_hand).
    assert api.post(release).status_code == 403
    response = floor_api.post(release)
    assert response.status_code == 200 and response.json()["hold"] == ""
    count = HandEvent.objects.filter(hand_id=hand_id).count()
    assert floor_api.post(release).status_code == 200
    assert HandEvent.objects.filter(hand_id=hand_id).count() == count  # released once
    assert HandEvent.objects.filter(hand_id=hand_id, type="release").get().actor == floor
    for _ in range(3):
        tablet.refresh()
        assert tablet.send({"type": "deal"}).status_code == 200
    hand = Hand.objects.get(pk=hand_id)
    assert hand.status == Hand.Status.FINISHED
    assert verify_hand(hand).ok


def test_a_release_stops_counting_when_the_floor_takes_back_the_call_it_released(api, floor):
    tournament, table = make_table(stacks=(100, 100), other_tables=(2,))
    hand_for_hand(tournament)
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    tablet = Tablet(api, hand_id)
    tablet.act(tablet.state()["to_act"], "all_in")
    tablet.act(tablet.state()["to_act"], "call")
    hand = Hand.objects.get(pk=hand_id)
    services.release_runout(hand, actor=floor)
    assert services.runout_hold(hand) == ""
    services.correct_last_action(hand, actor=floor, reason="misheard", expected_seq=services.last_seq(hand))
    tablet.act(tablet.state()["to_act"], "call")
    assert services.runout_hold(Hand.objects.get(pk=hand_id)) != ""


def test_without_hand_for_hand_nothing_waits_for_the_floor(api):
    _, _table, tablet = all_in_called(api)
    assert tablet.refresh()["hold"] == ""
    tablet.send({"type": "face_up"})
    assert tablet.send({"type": "deal"}).status_code == 200
