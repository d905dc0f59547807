"""Floor corrections (a misdeal voids the hand; a mistaken last action is taken back) and hand-history
downloads for a hand, a table and a tournament."""

import pytest
from rest_framework.test import APIClient

from dealing import vault
from dealing.models import Hand, HandEvent, HandSecret
from dealing.verification import verify_hand
from tests.factories import make_table
from tournaments.models import AuditEntry, Entry

from .tablet import Tablet, chips_by_seat, play_out, world
from .test_verify import tamper


@pytest.fixture
def floor_api(floor):
    client = APIClient()
    client.force_authenticate(floor)
    return client


@pytest.mark.django_db
def test_void_returns_every_chip_and_the_redeal_keeps_the_positions(api, floor_api, floor):
    _, table = make_table(stacks=(1000, 700, 1200), extra_entries=1)
    before = chips_by_seat(table)
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    tablet = Tablet(api, hand_id)
    tablet.act(1, "raise", 100)
    tablet.act(2, "call")

    assert api.post(f"/api/hands/{hand_id}/void/", {"reason": "x"}, format="json").status_code == 403
    response = floor_api.post(f"/api/hands/{hand_id}/void/", {"reason": "two cards exposed"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "voided"
    assert chips_by_seat(table) == before
    void = HandEvent.objects.filter(hand_id=hand_id).last()
    assert void.type == "void" and void.payload["reason"] == "two cards exposed" and void.actor == floor
    audit = AuditEntry.objects.get(action="hand.void")
    assert audit.actor == floor and audit.reason == "two cards exposed"
    assert (
        floor_api.post(f"/api/hands/{hand_id}/void/", {"reason": "again"}, format="json").status_code == 409
    )

    voided = Hand.objects.get(pk=hand_id)
    redeal = Hand.objects.get(pk=api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"])
    assert redeal.number == voided.number + 1 and vault.seed_of(redeal) != vault.seed_of(voided)
    for name in ("button_seat", "small_blind_seat", "big_blind_seat"):
        assert redeal.config[name] == voided.config[name]
    assert verify_hand(voided).ok


@pytest.mark.django_db
def test_correct_the_last_action_before_further_action(api, floor_api, floor):
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    tablet = Tablet(api, hand_id)
    tablet.act(1, "call")
    tablet.act(2, "call")
    # seat 3 (big blind) meant to check but the dealer pressed raise: checking closes the round
    assert tablet.act(3, "raise", 60).status_code == 200
    seq = tablet.seq
    assert floor_api.post(f"/api/hands/{hand_id}/correct/", {"reason": ""}, format="json").status_code == 400
    stale = floor_api.post(
        f"/api/hands/{hand_id}/correct/", {"reason": "r", "expected_seq": seq - 1}, format="json"
    )
    assert stale.status_code == 409
    response = floor_api.post(
        f"/api/hands/{hand_id}/correct/",
        {"reason": "dealer pressed raise for a check", "expected_seq": seq},
        format="json",
    )
    assert response.status_code == 200
    state = response.json()["state"]
    assert state["to_act"] == 3 and state["current_bet"] == 20
    assert {p["seat"]: p["stack"] for p in state["players"]}[3] == 980
    correction = HandEvent.objects.filter(hand_id=hand_id).last()
    assert correction.type == "correction" and correction.actor == floor
    assert correction.payload["input"] == {"type": "action", "seat": 3, "action": "raise", "amount": 60}
    assert AuditEntry.objects.filter(action="hand.correct", actor=floor).exists()

    # the check now closes the pre-flop round and the same flop comes off the same deck
    tablet.refresh()
    assert tablet.act(3, "check").status_code == 200
    after = tablet.state()
    assert after["street"] == "flop" and len(after["board"]) == 3
    final = play_out(tablet)
    assert final["status"] == "finished"
    assert sum(chips_by_seat(table).values()) == 3000
    assert verify_hand(Hand.objects.get(pk=hand_id)).ok


@pytest.mark.django_db
def test_correction_that_dealt_cards_takes_them_back(api, floor_api):
    """Seeded mode: the action that closed the round also dealt the flop; correcting it takes the flop
    back, and the right action deals the very same cards again (they come from the seed)."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    tablet = Tablet(api, hand_id)
    tablet.act(1, "call")
    tablet.act(2, "call")
    tablet.act(3, "check")
    flop = tablet.state()["board"]
    assert len(flop) == 3
    corrected = floor_api.post(f"/api/hands/{hand_id}/correct/", {"reason": "misclick"}, format="json").json()
    assert len(corrected["state"]["board"]) == 1 and corrected["state"]["to_act"] == 3
    tablet.refresh()
    tablet.act(3, "check")
    assert tablet.state()["board"] == flop


@pytest.mark.django_db
def test_verify_checks_the_events_a_correction_took_back(api, floor_api):
    """The taken-back flop stays in the log; verification replays it, so rewriting it is caught."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    tablet = Tablet(api, hand_id)
    tablet.act(1, "call")
    tablet.act(2, "call")
    tablet.act(3, "check")
    floor_api.post(f"/api/hands/{hand_id}/correct/", {"reason": "misclick"}, format="json")
    tablet.refresh()
    play_out(tablet)
    hand = Hand.objects.select_related("table__tournament").get(pk=hand_id)
    report = verify_hand(hand)
    assert report.ok, report.lines()
    correction = HandEvent.objects.get(hand=hand, type="correction")
    assert any(c.name == f"correction {correction.seq}" and c.ok for c in report.checks)

    taken_back_board = HandEvent.objects.filter(
        hand=hand, type="board", seq__in=correction.payload["retracts"]
    ).first()
    cards = list(taken_back_board.payload["cards"])
    cards[0] = next(c for c in ("2c", "2d", "2h", "2s", "3c", "3d") if c not in cards)
    # The log's copy alone (it no longer matches the board as dealt, kept with the hand's secrets) ...
    tamper(taken_back_board, {**taken_back_board.payload, "cards": cards})
    report = verify_hand(Hand.objects.select_related("table__tournament").get(pk=hand_id))
    assert not report.ok
    assert any(c.name == f"event {taken_back_board.seq}" and not c.ok for c in report.checks)
    # ... and both copies, consistently: the replay of the correction catches it.
    dealt = vault.dealt_events(hand)
    seq = str(taken_back_board.seq)
    HandSecret.objects.filter(hand=hand).update(events={**dealt, seq: {**dealt[seq], "cards": cards}})
    report = verify_hand(Hand.objects.select_related("table__tournament").get(pk=hand_id))
    assert not report.ok
    assert any(c.name == f"correction {correction.seq}" and not c.ok for c in report.checks)


@pytest.mark.django_db
def test_nothing_to_correct_and_staff_without_floor_rights(api, floor_api):
    _, table = make_table(stacks=(1000, 1000))
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    state = world(table)
    assert api.post(f"/api/hands/{hand_id}/correct/", {"reason": "r"}, format="json").status_code == 403
    response = floor_api.post(f"/api/hands/{hand_id}/correct/", {"reason": "r"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "nothing_to_correct"
    assert world(table) == state


@pytest.mark.django_db
def test_histories_of_a_table_and_a_tournament(api, floor_api):
    tournament, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    for _ in range(2):
        hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
        play_out(Tablet(api, hand_id))
    running = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    anonymous = APIClient()
    phh = anonymous.get(f"/api/tables/{table.pk}/hand-history/")
    assert phh.status_code == 200
    body = phh.content.decode()
    assert "[1]" in body and "[2]" in body and "[3]" not in body  # the running hand is left out
    assert body.count('variant = "_NCV"') == 2
    assert 'attachment; filename="tournament' in phh["Content-Disposition"]
    text = anonymous.get(f"/api/tournaments/{tournament.pk}/hand-history/?output=text").content.decode()
    assert "hand 1" in text and "hand 2" in text and "hand 3" not in text
    assert anonymous.get(f"/api/hands/{running}/history/").status_code == 409
    bad = anonymous.get(f"/api/tables/{table.pk}/hand-history/?output=pdf")
    assert bad.status_code == 400 and "output" in bad.json()["detail"]
    assert Entry.objects.filter(tournament=tournament).count() == 4
