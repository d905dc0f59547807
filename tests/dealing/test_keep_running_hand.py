"""A server that has just started keeps no hand: a tablet's socket, as it connects, has its table's
running hand rebuilt and kept (dealing.services.keep_running_hand), so the table's next input is not
the one that rebuilds it on the dealers' thread. The kept hand is exactly the stored one, and never
replaces a newer one."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dealing import hand_cache, services
from dealing.models import Hand
from tests.factories import make_table

from .replay import next_input, replayed_view

pytestmark = pytest.mark.django_db(transaction=True)  # as a server: every write committed


def _restarted_server_with_a_hand_in_play(staff):
    """A hand dealt and two actions in, then the server restarts: nothing kept."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    sent = {}
    for ref in ("a1", "a2"):
        hand.refresh_from_db()
        sent[ref] = (next_input(hand), hand.state_seq)
        services.apply_input(hand, sent[ref][0], expected_seq=sent[ref][1], client_action_id=ref, actor=staff)
    hand_cache.clear()
    hand.refresh_from_db()
    return table, hand, sent


def _log_reads(captured) -> int:
    return sum("MAX(seq)" in q["sql"] for q in captured.captured_queries)


@pytest.mark.parametrize("kept", [True, False])
def test_the_next_input_after_a_restart_does_not_rebuild_the_hand(staff, monkeypatch, kept):
    table, hand, _sent = _restarted_server_with_a_hand_in_play(staff)
    if kept:
        assert services.keep_running_hand(table.pk)
        assert hand_cache.table_of(hand.pk) == table.pk
    call = next_input(hand)  # (the test's own replay of the hand)
    rebuilds, real = [], services.engine_hand
    monkeypatch.setattr(services, "engine_hand", lambda *a, **k: rebuilds.append(1) or real(*a, **k))
    with CaptureQueriesContext(connection) as captured:
        services.apply_input(hand, call, expected_seq=hand.state_seq, client_action_id="a3", actor=staff)
    if kept:
        assert rebuilds == [] and _log_reads(captured) == 0
    else:  # what every table's first input after a restart did
        assert rebuilds == [1] and _log_reads(captured) >= 1
    hand.refresh_from_db()
    assert services.full_view(hand) == replayed_view(hand)


def test_a_retry_of_an_input_from_before_the_restart_is_still_answered_from_the_log(staff):
    """The kept hand knows the ids of the inputs in its log: a tablet that resends its last input
    (its answer was lost as the server went down) gets the first answer, and nothing is done twice."""
    table, hand, sent = _restarted_server_with_a_hand_in_play(staff)
    services.keep_running_hand(table.pk)
    before = hand.state_seq
    body, expected_seq = sent["a2"]
    again = services.apply_input(hand, body, expected_seq=expected_seq, client_action_id="a2", actor=staff)
    assert again.replayed
    hand.refresh_from_db()
    assert hand.state_seq == before


def test_a_hand_kept_by_an_input_is_not_replaced_by_an_older_rebuild(staff):
    table, hand, _sent = _restarted_server_with_a_hand_in_play(staff)
    services.apply_input(
        hand, next_input(hand), expected_seq=hand.state_seq, client_action_id="a3", actor=staff
    )
    kept = hand_cache._kept[hand.pk]
    assert services.keep_running_hand(table.pk)
    assert hand_cache._kept[hand.pk] is kept


def test_a_table_without_a_running_hand_keeps_nothing(staff):
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    assert not services.keep_running_hand(table.pk)
    hand = services.start_next_hand(table, actor=staff)
    Hand.objects.filter(pk=hand.pk).update(status=Hand.Status.FINISHED)
    hand_cache.clear()
    assert not services.keep_running_hand(table.pk)
    assert hand_cache.table_of(hand.pk) is None
