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


def test_demo_users_are_separate_roles_and_none_is_a_superuser():
    from django.contrib.auth import get_user_model

    demo = load_demo()
    assert [username for _role, username, _password in demo.users] == [
        "director",
        "floor",
        "desk",
        "deckprep",
    ]
    users = {
        u.username: u
        for u in get_user_model().objects.filter(username__in=["director", "floor", "desk", "deckprep"])
    }
    assert not any(u.is_superuser for u in users.values())
    assert [g.name for g in users["director"].groups.all()] == ["Director"]
    assert [g.name for g in users["floor"].groups.all()] == ["Floor"]
    assert [g.name for g in users["desk"].groups.all()] == ["Registration desk"]
    assert [g.name for g in users["deckprep"].groups.all()] == ["Deck prep"]
    # Separation of duties: the director and the floor never see a running hand's deck; deck prep
    # sees it but is not staff (no console, no writes).
    assert users["director"].is_staff and not users["director"].has_perm("dealing.view_deck")
    assert users["floor"].is_staff and users["floor"].has_perm("dealing.change_hand")
    assert not users["floor"].has_perm("dealing.view_deck")
    assert users["deckprep"].has_perm("dealing.view_deck") and not users["deckprep"].is_staff
    # The registration desk is staff (the desk page) but may change no hand and see no deck.
    assert users["desk"].is_staff and not users["desk"].has_perm("dealing.change_hand")
    assert not users["desk"].has_perm("dealing.view_deck")
    for _role, username, password in demo.users:
        assert authenticate(username=username, password=password) is not None


def test_each_demo_revokes_the_previous_demo_devices():
    from screens.demo import demo_links
    from screens.models import Device

    demo = load_demo()
    first = demo_links(demo.tournament, "http://127.0.0.1:8000")
    first_ids = set(Device.objects.filter(is_demo=True).values_list("pk", flat=True))
    demo_links(demo.tournament, "http://127.0.0.1:8000")
    assert Device.objects.filter(pk__in=first_ids, revoked_at__isnull=True).count() == 0
    assert Device.objects.filter(is_demo=True, revoked_at__isnull=True).count() == len(first_ids)
    assert len(first) > 2
