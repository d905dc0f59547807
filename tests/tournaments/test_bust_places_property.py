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
