"""Running hands kept in memory between inputs (dealing.hand_cache): an input does not replay the hand,
and what it acts on is always what replaying the stored events gives, through corrections and refused
inputs (the events are the truth)."""

import time

import pytest

from dealing import hand_cache, services
from dealing.models import Hand
from dealing.services import DealingError
from tests.factories import make_table

from .replay import next_input, replayed_view

pytestmark = pytest.mark.django_db(transaction=True)  # the kept hands are kept only after a commit


def act(hand: Hand, body: dict, actor) -> int:
    result = services.apply_input(
        hand, body, expected_seq=services.last_seq(hand), client_action_id=f"c{time.time_ns()}", actor=actor
    )
    return result.last_seq


def test_inputs_use_the_kept_hand_and_match_the_replay(staff, monkeypatch):
    """A whole hand of inputs: none of them rebuilds the hand from its log, and after each one the
    dealer's full view (built on demand from the log: an input stores only the public view) equals
    the replay of the stored events."""
    _, table = make_table(stacks=(5000,) * 6, extra_entries=2)
    hand = services.start_next_hand(table, actor=staff)
    rebuilds, inputs_running = [], []
    real = services.engine_hand
    monkeypatch.setattr(
        services, "engine_hand", lambda *a, **k: (inputs_running and rebuilds.append(1)) or real(*a, **k)
    )
    inputs = 0
    while True:
        hand.refresh_from_db()
        if hand.status != Hand.Status.RUNNING:
            break
        body = next_input(hand)
        inputs_running.append(1)
        act(hand, body, staff)
        inputs_running.clear()
        inputs += 1
        hand.refresh_from_db()
        if hand.status == Hand.Status.RUNNING:
            assert services.full_view(hand) == replayed_view(hand)
    assert inputs >= 6
    assert rebuilds == []  # no input replayed the hand


def test_a_correction_moves_the_log_on_and_the_next_input_acts_on_the_corrected_hand(staff, floor):
    """R-floor correction: the kept hand still has the mistaken action; the correction's event means it
    is not used, and the seat that was corrected acts again on the hand as it now stands."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    mistaken = next_input(hand)
    mistaken_seat = mistaken["seat"]
    act(hand, {**mistaken, "action": "fold"}, staff)
    services.correct_last_action(
        Hand.objects.get(pk=hand.pk),
        actor=floor,
        reason="dealer pressed fold",
        expected_seq=services.last_seq(hand),
    )
    hand.refresh_from_db()
    assert services.snapshot(hand)["full"]["to_act"] == mistaken_seat
    act(hand, mistaken, staff)
    hand.refresh_from_db()
    assert services.full_view(hand) == replayed_view(hand)
    assert not any(p["folded"] for p in services.full_view(hand)["players"])


def test_a_refused_input_leaves_nothing_half_done(staff):
    """An input out of turn is refused (the engine's rule error); the next legal input acts on the hand
    as stored, not on a hand the refused one changed."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    act(hand, next_input(hand), staff)
    hand.refresh_from_db()
    body = next_input(hand)
    wrong_seat = next(p["seat"] for p in services.full_view(hand)["players"] if p["seat"] != body["seat"])
    with pytest.raises(DealingError):
        act(hand, {**body, "seat": wrong_seat}, staff)
    act(hand, body, staff)
    hand.refresh_from_db()
    assert services.full_view(hand) == replayed_view(hand)


def test_a_kept_hand_is_used_only_at_the_event_it_was_kept_at():
    kept = hand_cache.Kept(12, object(), 3, {"a1"})
    hand_cache._kept[7] = kept
    assert hand_cache.take(7, 13) is None  # the log moved on: rebuild
    assert hand_cache.take(7, 12) is None  # and it was dropped
    hand_cache._kept[7] = kept
    assert hand_cache.take(7, 12) is kept
    assert hand_cache.take(7, 12) is None  # taken: owned by one input at a time


def _log_reads(captured) -> int:
    return sum("MAX(seq)" in q["sql"] for q in captured.captured_queries)


def test_an_input_on_a_kept_hand_reads_no_log_and_a_retry_still_gets_its_first_answer(staff):
    """The kept hand knows its last event (the hand's row says it) and its inputs' ids: an ordinary input
    reads nothing of the log; a retry of an input (its client_action_id again, after a lost answer)
    still gets the first answer and writes nothing, and the same id with another input is refused."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff, client_action_id="deal-1")
    seq = services.last_seq(hand)
    body = next_input(hand)
    with CaptureQueriesContext(connection) as captured:
        first = services.apply_input(hand, body, expected_seq=seq, client_action_id="in-1", actor=staff)
    assert _log_reads(captured) == 0
    assert first.last_seq > seq and not first.replayed

    # The answer was lost: the tablet sends the same input again, with the same id and expected_seq.
    with CaptureQueriesContext(connection) as captured:
        again = services.apply_input(hand, body, expected_seq=seq, client_action_id="in-1", actor=staff)
    assert again.replayed and (again.first_seq, again.last_seq) == (first.first_seq, first.last_seq)
    assert services.last_seq(hand) == first.last_seq  # nothing written
    assert _log_reads(captured) == 1  # a retry is answered from the log
    # The deal's own id is known too: reused for an input, it is refused, not taken as new.
    hand.refresh_from_db()
    with pytest.raises(DealingError) as refused:
        services.apply_input(
            hand, next_input(hand), expected_seq=first.last_seq, client_action_id="deal-1", actor=staff
        )
    assert refused.value.code == "client_action_id_reused"
    # An input that was made for an event the hand has moved past is refused with the hand's last one.
    hand.refresh_from_db()
    with pytest.raises(DealingError) as stale:
        services.apply_input(hand, next_input(hand), expected_seq=seq, client_action_id="in-2", actor=staff)
    assert stale.value.code == "stale" and stale.value.params["seq"] == first.last_seq
    # And the next input goes on from the hand as stored.
    hand.refresh_from_db()
    act(hand, next_input(hand), staff)
    hand.refresh_from_db()
    assert services.full_view(hand) == replayed_view(hand)


def test_a_hand_moved_on_by_another_server_is_rebuilt_not_acted_on_as_kept(staff):
    """Two servers (a tablet that reconnected to the other one): this process kept the hand at an event
    the log has moved past. The hand's row says so; the hand is rebuilt from the log, and the input acts
    on it as it now stands."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    stale_copy = hand_cache._kept[hand.pk]
    act(hand, next_input(hand), staff)  # "the other server": its keep replaces this one's below
    hand_cache._kept[hand.pk] = stale_copy  # this server still holds the hand as dealt
    hand.refresh_from_db()
    act(hand, next_input(hand), staff)
    hand.refresh_from_db()
    assert services.full_view(hand) == replayed_view(hand)
    assert len([e for e in services.event_rows(hand) if e.type == "action"]) == 2


def test_a_kept_hand_is_checked_against_its_own_table_without_a_read(staff, django_assert_num_queries):
    """Who may act on a hand is decided by its table: for a hand this process keeps, the table comes
    from the kept hand (no read), and a tablet paired to another table is still refused (403) with
    nothing written, while the hand's own tablet acts."""
    from rest_framework.test import APIClient

    from dealing.permissions import hand_for_check
    from screens.models import DeviceKind
    from screens.pairing import create_pairing_code, redeem_pairing_code
    from tables.models import Table

    tournament, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1, other_tables=[2])
    other = Table.objects.filter(tournament=tournament).exclude(pk=table.pk).get()
    hand = services.start_next_hand(table, actor=staff)
    assert hand_cache.table_of(hand.pk) == table.pk  # kept after the deal's commit
    with django_assert_num_queries(0):
        assert hand_for_check(hand.pk).table_id == table.pk

    def tablet(at):
        _device, token = redeem_pairing_code(
            create_pairing_code(tournament=tournament, kind=DeviceKind.TABLET, table=at).code
        )
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Device {token}")
        return client

    body = {**next_input(hand), "expected_seq": services.last_seq(hand), "client_action_id": "k1"}
    refused = tablet(other).post(f"/api/hands/{hand.pk}/actions/", body, format="json")
    assert refused.status_code == 403
    assert services.last_seq(hand) == body["expected_seq"]  # nothing written
    accepted = tablet(table).post(f"/api/hands/{hand.pk}/actions/", body, format="json")
    assert accepted.status_code == 200, accepted.content
    assert services.last_seq(hand) > body["expected_seq"]
