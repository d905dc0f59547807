import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tables import services as tables_services
from tournaments import services
from tournaments.models import BlindStructure, Entry, Player, Tournament


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("td", is_staff=True)  # no password: hashing is slow


@pytest.fixture
def api(staff):
    client = APIClient()
    client.force_authenticate(staff)
    return client


@pytest.fixture
def anon(db):
    return APIClient()


@pytest.fixture
def template(db):
    """Regular pot limit: 20-minute levels, a 15-minute break after every fourth (shipped by migration)."""
    return BlindStructure.objects.get(name="Regular - Pot Limit", is_template=True)


@pytest.fixture
def make_tournament(template):
    def make(**fields) -> Tournament:
        defaults = {
            "name": "Winter Cup",
            "game": "courchevel_hilo",
            "starting_stack": 20000,
            "buy_in": 100,
            "fee": 10,
        }
        return services.create_tournament(structure=template, **{**defaults, **fields})

    return make


@pytest.fixture
def running(make_tournament):
    """A started tournament with ``players`` entries (all 20,000 chips), seated by the draw."""

    def make(players: int = 10, **fields) -> Tournament:
        tournament = make_tournament(**fields)
        services.open_registration(tournament)
        for i in range(players):
            services.register(tournament, Player.objects.create(name=f"Player {i + 1}"))
        tables_services.draw_seats(tournament)
        services.start_tournament(tournament)
        tournament.refresh_from_db()
        return tournament

    return make


def entries_of(tournament):
    return list(tournament.entries.order_by("id"))


def zero(entry):
    """The hand took every chip (dealing writes stacks back like this)."""
    Entry.objects.filter(pk=entry.pk).update(chips=0)
    entry.refresh_from_db()
    return entry
