"""An input written under its caller's guard (config.prepared.WriteGuard: a tablet's device still
paired): decided only while the guard holds, checked in the input's own statement (PostgreSQL) or
under the hand's lock; when it fails, GuardFailed and nothing written, whichever path the input took
(a hand kept in memory or not, an ordinary input or the one that ends the hand)."""

import pytest

from config.prepared import GuardFailed, WriteGuard
from dealing import hand_cache, services
from dealing.models import HandEvent
from tables.models import Table
from tests.factories import make_table

from .replay import next_input

pytestmark = pytest.mark.django_db(transaction=True)  # hands are kept only after a commit

HOLDS, FAILS = WriteGuard("1 = %s", (1,)), WriteGuard("1 = %s", (0,))


def _written(hand):
    hand.refresh_from_db()
    version = Table.objects.values_list("version", flat=True).get(pk=hand.table_id)
    return hand.state_seq, hand.status, HandEvent.objects.filter(hand=hand).count(), version


@pytest.mark.parametrize("kept", [True, False], ids=["hand kept", "hand not kept"])
def test_an_input_whose_guard_fails_writes_nothing_and_one_whose_guard_holds_is_applied(staff, kept):
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    if not kept:
        hand_cache.clear()
    before = _written(hand)
    seq = before[0]
    with pytest.raises(GuardFailed):
        services.apply_input(hand, next_input(hand), expected_seq=seq, client_action_id="g1", guard=FAILS)
    assert _written(hand) == before
    result = services.apply_input(
        hand, next_input(hand), expected_seq=seq, client_action_id="g1", guard=HOLDS
    )
    assert result.first_seq == seq + 1 and _written(hand)[0] == result.last_seq


def test_the_input_that_ends_the_hand_is_not_recorded_when_its_guard_fails(staff):
    """Two players: the small blind folds and the hand is over (the end is written under the lock)."""
    _, table = make_table(stacks=(1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    before = _written(hand)
    view = services.snapshot(hand)["full"]
    fold = {"type": "action", "seat": view["to_act"], "action": "fold"}
    with pytest.raises(GuardFailed):
        services.apply_input(hand, fold, expected_seq=before[0], client_action_id="f1", guard=FAILS)
    assert _written(hand) == before
    services.apply_input(hand, fold, expected_seq=before[0], client_action_id="f1", guard=HOLDS)
    assert _written(hand)[1] != before[1]  # now it is over
