"""verify_hand / verify_tournament and the verification endpoints (RULES section 7)."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from dealing import vault
from dealing.engine import hand_seed
from dealing.models import EventLogError, Hand, HandEvent, HandSecret
from dealing.verification import verify_hand, verify_tournament
from tests.factories import MASTER_SEED, make_table

from .tablet import RaiseOnce, Tablet, play_out


def finished_hand(api, **kwargs):
    _tournament, table = make_table(**{"stacks": (1000, 1000, 1000), "extra_entries": 1, **kwargs})
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    play_out(Tablet(api, hand_id), RaiseOnce())
    return Hand.objects.select_related("table__tournament").get(pk=hand_id)


def tamper(event: HandEvent, payload: dict) -> None:
    """What an attacker with database access does: events refuse to change through the ORM."""
    import json

    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {HandEvent._meta.db_table} SET payload = %s WHERE id = %s",
            [json.dumps(payload), event.pk],
        )


def tamper_dealt(hand_id: int, seq: int, payload: dict) -> None:
    """The same on the hand's secrets, where the dealt cards are kept (the log holds them blank)."""
    events = {**vault.dealt_events(Hand(pk=hand_id)), str(seq): payload}
    HandSecret.objects.filter(hand_id=hand_id).update(events=events)


def hole_event(hand_id: int) -> tuple[HandEvent, dict]:
    """The first hole event and its cards as dealt."""
    row = HandEvent.objects.filter(hand_id=hand_id, type="hole").first()
    return row, vault.dealt_events(Hand(pk=hand_id))[str(row.seq)]


def run(command, *args):
    from io import StringIO

    out = StringIO()
    try:
        call_command(command, *args, stdout=out)
        return 0, out.getvalue()
    except CommandError as error:
        return error.returncode, out.getvalue() + str(error)


@pytest.mark.django_db
def test_an_honest_hand_verifies(api):
    hand = finished_hand(api)
    code, out = run("verify_hand", str(hand.pk))
    assert code == 0, out
    assert "commitment" in out and "master seed" in out and "MISMATCH" not in out
    report = verify_hand(hand)
    assert report.ok
    assert {c.name for c in report.checks} >= {
        "commitment",
        "master seed",
        "config",
        "deck",
        "awards",
        "result",
    }
    # the seed is the one the master seed derives for table 1, hand 1 (RULES 7.5)
    assert vault.seed_of(hand) == hand_seed(MASTER_SEED, 1, 1)


@pytest.mark.django_db
def test_verify_hand_catches_a_tampered_dealt_card(api):
    hand = finished_hand(api)
    hole, dealt = hole_event(hand.pk)
    assert hole.payload["cards"] is None  # the log keeps the hole cards blank
    cards = list(dealt["cards"])
    board = HandEvent.objects.filter(hand=hand, type="board").last().payload["cards"]
    cards[0] = next(c for c in ("As", "Ks", "Qs", "Js", "Ts", "9s") if c not in cards and c not in board)
    tamper_dealt(hand.pk, hole.seq, {**dealt, "cards": cards})
    code, out = run("verify_hand", str(hand.pk))
    assert code != 0
    assert f"event {hole.seq}" in out and "dealt cards differ" in out
    assert "MISMATCH" in out


@pytest.mark.django_db
def test_verify_hand_catches_a_tampered_award(api):
    hand = finished_hand(api)
    award = HandEvent.objects.filter(hand=hand, type="award").first()
    tamper(award, {**award.payload, "amount": award.payload["amount"] + 100})
    report = verify_hand(hand)
    assert not report.ok
    failed = [c for c in report.checks if not c.ok]
    assert any(c.name == f"event {award.seq}" and "award" in c.detail for c in failed)
    assert any(c.name == "awards" for c in failed)


@pytest.mark.django_db
def test_verify_hand_catches_a_tampered_action(api):
    hand = finished_hand(api)
    action = HandEvent.objects.filter(hand=hand, type="action", payload__action="raise").first()
    tamper(
        action, {**action.payload, "to": action.payload["to"] + 20, "amount": action.payload["amount"] + 20}
    )
    assert not verify_hand(hand).ok


@pytest.mark.django_db
def test_verify_hand_catches_a_wrong_seed(api):
    hand = finished_hand(api)
    HandSecret.objects.filter(hand=hand).update(seed=bytes(32))
    hand.refresh_from_db()
    report = verify_hand(hand)
    failed = {c.name for c in report.checks if not c.ok}
    assert {"commitment", "master seed", "deck"} <= failed
    code, out = run("verify_hand", str(hand.pk))
    assert code != 0 and "FAIL commitment" in out


@pytest.mark.django_db
def test_verify_hand_catches_a_seed_not_from_the_master_seed(api):
    """A hand whose seed (and commitment) were swapped together still fails the master-seed check."""
    from dealing.engine import seed_commitment

    hand = finished_hand(api)
    other = hand_seed(MASTER_SEED, 1, 2)
    HandSecret.objects.filter(hand=hand).update(seed=other)
    Hand.objects.filter(pk=hand.pk).update(seed_commitment=seed_commitment(other))
    hand.refresh_from_db()
    failed = {c.name for c in verify_hand(hand).checks if not c.ok}
    assert "master seed" in failed and "commitment" not in failed


@pytest.mark.django_db
def test_verify_tournament_command_and_endpoint(api):
    hand = finished_hand(api)
    tournament = hand.table.tournament
    tournament.master_seed_commitment = __import__("hashlib").sha256(MASTER_SEED).hexdigest()
    tournament.save(update_fields=["master_seed_commitment"])
    code, out = run("verify_tournament", str(tournament.pk))
    assert code == 0, out
    assert "1 hands checked, 0 with mismatches" in out
    body = api.get(f"/api/tournaments/{tournament.pk}/verify-hands/").json()
    assert body["ok"] is True and body["hands_checked"] == 1
    assert api.get(f"/api/hands/{hand.pk}/verify/").json()["ok"] is True

    award = HandEvent.objects.filter(hand=hand, type="award").first()
    tamper(award, {**award.payload, "seat": 99})
    code, out = run("verify_tournament", str(tournament.pk))
    assert code != 0 and "1 with mismatches" in out
    assert verify_tournament(tournament).ok is False
    assert api.get(f"/api/hands/{hand.pk}/verify/").json()["ok"] is False


@pytest.mark.django_db
def test_a_running_hand_is_not_verified_and_unknown_ids_fail(api):
    _, table = make_table(stacks=(1000, 1000))
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    assert api.get(f"/api/hands/{hand_id}/verify/").status_code == 409
    code, out = run("verify_hand", str(hand_id))
    assert code != 0 and "still running" in out
    assert run("verify_hand", "9999")[0] != 0
    assert run("verify_tournament", "9999")[0] != 0


@pytest.mark.django_db
def test_events_are_never_changed_or_deleted_through_django(api):
    hand = finished_hand(api)
    event = HandEvent.objects.filter(hand=hand).first()
    event.payload = {"type": "start"}
    with pytest.raises(EventLogError):
        event.save()
    with pytest.raises(EventLogError):
        event.delete()
    with pytest.raises(EventLogError):
        HandEvent.objects.filter(hand=hand).update(type="x")
    with pytest.raises(EventLogError):
        HandEvent.objects.filter(hand=hand).delete()
    assert verify_hand(hand).ok


@pytest.mark.django_db
def test_fresh_seeds_are_random_committed_and_verify(api):
    """RULES 7.5: without a master seed each hand gets 32 fresh bytes; never the same twice."""
    hand = finished_hand(api, seeding="fresh")
    table = hand.table
    second_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    second = Hand.objects.get(pk=second_id)
    assert len(vault.seed_of(hand)) == 32 and vault.seed_of(hand) != vault.seed_of(second)
    assert vault.seed_of(hand) != hand_seed(MASTER_SEED, table.number, hand.number)
    report = verify_hand(hand)
    assert report.ok and "master seed" not in {c.name for c in report.checks}


@pytest.mark.django_db
def test_a_running_hand_with_a_tampered_log_is_refused_not_guessed(api):
    """With the cache gone, a log that no longer replays gives a clear 409, never a made-up state."""
    _, table = make_table(stacks=(1000, 1000, 1000))
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    hole, dealt = hole_event(hand_id)
    tamper_dealt(hand_id, hole.seq, {**dealt, "cards": ["2c", "2d", "2h", "2s", "3c"]})
    Hand.objects.filter(pk=hand_id).update(state=None)
    response = api.get(f"/api/hands/{hand_id}/")
    assert response.status_code == 409 and response.json()["code"] == "log_mismatch"
    assert f"verify_hand {hand_id}" in response.json()["detail"]
    seq = HandEvent.objects.filter(hand_id=hand_id).count() - 1
    acted = api.post(
        f"/api/hands/{hand_id}/actions/",
        {"client_action_id": "x", "expected_seq": seq, "seat": 1, "action": "fold"},
        format="json",
    )
    assert acted.status_code == 409 and acted.json()["code"] == "log_mismatch"
