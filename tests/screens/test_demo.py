"""The demo that ``make run`` shows: a Courchevel Hi/Lo tournament in progress."""

import pytest
from django.contrib.auth import authenticate

from screens.demo import load_demo
from tournaments import services

pytestmark = pytest.mark.django_db


def test_demo_is_a_running_hilo_tournament_with_a_director_who_can_sign_in():
    demo = load_demo()
    tournament = demo.tournament
    assert tournament.game == "courchevel_hilo" and tournament.status == "running"
    assert tournament.entries.count() == 24
    assert sum(tournament.entries.values_list("chips", flat=True)) == 24 * tournament.starting_stack
    state = services.clock_state(tournament)
    assert state.running and state.level_index == 1
    user = authenticate(username=demo.username, password=demo.password)
    assert user is not None and user.is_staff
    assert services.seated_count(tournament) == 24
    again = load_demo()
    assert not again.created and again.tournament.pk == tournament.pk
    assert authenticate(username="director", password=demo.password) is None  # a fresh password each time
