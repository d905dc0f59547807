"""R8.6: in hand-for-hand one round counts as one hand, whichever table a player busts at."""

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import entries_of, zero
from tournaments import services
from tournaments.models import AuditEntry, Entry

pytestmark = pytest.mark.django_db


def _bust(tournament, entry, chips_at_start, hand):
    tournament.refresh_from_db()
    services.bust_entries(tournament, [(zero(entry), chips_at_start)], hand_label=hand)
    entry.refresh_from_db()
    return entry


def test_busts_at_two_tables_in_one_round_are_ranked_by_starting_chips_R8_6(running):
    tournament = running(10)
    services.set_hand_for_hand(tournament, True)
    big, small = entries_of(tournament)[:2]
    big = _bust(tournament, big, 3000, "table 1 hand 7")
    assert big.place == 10  # alone so far
    small = _bust(tournament, small, 1000, "table 2 hand 9")
    big.refresh_from_db()
    assert (big.place, small.place) == (9, 10)  # more chips at the start of the hand finish higher
    assert AuditEntry.objects.filter(action="entry.place", target__contains=str(big.pk)).exists()


def test_equal_starting_stacks_in_one_round_share_places_and_prizes_R8_6(running):
    tournament = running(10, payout_percentages=[50, 30, 20])
    services.set_hand_for_hand(tournament, True)
    for entry in entries_of(tournament)[:6]:
        _bust(tournament, entry, 500 + entry.pk, "earlier")  # down to the bubble: 4 left
    services.set_hand_for_hand(tournament, False)
    services.set_hand_for_hand(tournament, True)  # a new round
    x, y = entries_of(tournament)[6:8]
    x = _bust(tournament, x, 2000, "table 1")
    y = _bust(tournament, y, 2000, "table 2")
    x.refresh_from_db()
    assert (x.place, x.place_shared_to) == (3, 4) and (y.place, y.place_shared_to) == (3, 4)
    assert x.prize == y.prize and x.prize > 0  # third place's prize split two ways


def test_a_new_round_is_a_new_hand_R8_6(running):
    tournament = running(10)
    services.set_hand_for_hand(tournament, True)
    first, second = entries_of(tournament)[:2]
    first = _bust(tournament, first, 1000, "round 1")
    services.hand_for_hand_round_finished(tournament, now=timezone.now())
    second = _bust(tournament, second, 3000, "round 2")
    first.refresh_from_db()
    assert (first.place, second.place) == (10, 9)  # busted later, finished higher, whatever the chips


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chips=st.lists(st.sampled_from([500, 1000, 1000, 3000]), min_size=2, max_size=5))
def test_one_rounds_busts_take_the_bottom_places_in_order_of_starting_chips_R8_6(running, chips):
    tournament = running(9)
    services.set_hand_for_hand(tournament, True)
    busted = [
        _bust(tournament, entry, stack, f"table {i}")
        for i, (entry, stack) in enumerate(zip(entries_of(tournament), chips))
    ]
    for entry in busted:
        entry.refresh_from_db()
    covered = []
    for entry in busted:
        covered.extend(range(entry.place, (entry.place_shared_to or entry.place) + 1))
        for other in busted:
            if other.chips_at_start_of_bust_hand > entry.chips_at_start_of_bust_hand:
                assert other.place < entry.place
            if other.chips_at_start_of_bust_hand == entry.chips_at_start_of_bust_hand:
                assert (other.place, other.place_shared_to) == (entry.place, entry.place_shared_to)
    assert sorted(set(covered)) == list(range(9 - len(chips) + 1, 10))
    assert Entry.objects.filter(tournament=tournament, status="active").count() == 9 - len(chips)
