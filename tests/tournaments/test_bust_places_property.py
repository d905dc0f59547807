"""Whatever the order and grouping of busts, places and prizes add up (R8.6, R8.8)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables import services as tables_services
from tests.factories import zero
from tournaments import services
from tournaments.models import Entry, Player

pytestmark = pytest.mark.django_db


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_places_cover_the_field_once_and_prizes_sum_to_the_pool(planned, data):
    players = data.draw(st.integers(2, 9), label="players")
    tournament = planned(buy_in=100)
    services.open_registration(tournament)
    for i in range(players):
        services.register(tournament, Player.objects.create(name=f"H{i}"))
    tables_services.draw_seats(tournament)
    services.start_tournament(tournament)
    left = list(tournament.entries.order_by("id"))
    while len(left) > 1:
        count = data.draw(st.integers(1, len(left) - 1), label="busting on this hand")
        busting = data.draw(st.permutations(left), label="who")[:count]
        chips = data.draw(st.lists(st.sampled_from([100, 500, 500, 2000]), min_size=count, max_size=count))
        services.bust_entries(tournament, [(zero(e), c) for e, c in zip(busting, chips)])
        left = [e for e in left if e not in busting]
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    entries = list(Entry.objects.filter(tournament=tournament))
    covered = [e.place for e in entries if e.place_shared_to is None]
    for first, last in {(e.place, e.place_shared_to) for e in entries if e.place_shared_to is not None}:
        sharing = Entry.objects.filter(tournament=tournament, place=first, place_shared_to=last).count()
        assert sharing == last - first + 1
        covered.extend(range(first, last + 1))
    assert sorted(covered) == list(range(1, players + 1))
    prizes = list(Entry.objects.filter(tournament=tournament).values_list("prize", flat=True))
    assert sum(prizes) == services.prize_pool(tournament) == 100 * players


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_bust_pays_its_places_as_the_whole_table_would_R8_6_R8_8(running, data):
    """A bust works out only the places it takes (and those it re-ranks in hand-for-hand): after every
    bust, and every undone bust, the prizes are exactly what working out the whole field gives."""
    players = data.draw(st.integers(3, 12), label="players")
    tournament = running(players, payout_percentages=[40, 25, 15, 12, 8])
    left = list(tournament.entries.order_by("id"))
    busted: list[Entry] = []

    def prizes():
        return dict(Entry.objects.filter(tournament=tournament).values_list("pk", "prize"))

    while len(left) > 2:
        step = data.draw(st.sampled_from(["bust", "bust", "bust", "undo", "hand_for_hand"]), label="step")
        tournament.refresh_from_db()
        if step == "undo" and busted:
            entry = busted.pop(data.draw(st.integers(0, len(busted) - 1), label="undone"))
            services.undo_bust(entry, reason="misread hand", chips=1000)
            left.append(entry)
        elif step == "hand_for_hand":
            services.set_hand_for_hand(tournament, not tournament.hand_for_hand)
        else:
            count = data.draw(st.integers(1, min(3, len(left) - 2)), label="busting on this hand")
            busting = data.draw(st.permutations(left), label="who")[:count]
            chips = data.draw(st.lists(st.sampled_from([500, 500, 2000]), min_size=count, max_size=count))
            services.bust_entries(tournament, [(zero(e), c) for e, c in zip(busting, chips)])
            left = [e for e in left if e not in busting]
            busted += busting
        after_the_step = prizes()
        services.recompute_prizes(tournament)  # the whole field, from the table
        assert prizes() == after_the_step
    assert sum(prizes().values()) <= services.prize_pool(tournament)
