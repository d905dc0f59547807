"""Fixtures for the live-screen tests: a small running tournament with seated tables."""

import pytest
from django.contrib.auth import get_user_model


def make_tournament(*, level_minutes=20, players=6, seats_per_table=8, game="courchevel_hilo",
                    betting="pot_limit", name="Live test", start=True, master_seed=False):
    from tables.services import draw_seats
    from tournaments import services
    from tournaments.models import BlindStructure, Level, Player

    structure = BlindStructure.objects.create(name=f"{name} levels", betting=betting)
    rows = [
        dict(small_blind=10, big_blind=20),
        dict(small_blind=15, big_blind=30, ante=5, ante_kind="per_player"),
        dict(is_break=True, color_up=[5]),
        dict(small_blind=25, big_blind=50, ante=50, ante_kind="big_blind"),
        dict(small_blind=50, big_blind=100, ante=100, ante_kind="big_blind"),
    ]
    for order, row in enumerate(rows):
        Level.objects.create(structure=structure, order=order, duration_minutes=level_minutes, **row)
    fields = dict(name=name, game=game, betting=betting, starting_stack=3000, buy_in=100,
                  seats_per_table=seats_per_table)
    if master_seed:
        fields["seeding"] = "master"
    tournament = services.create_tournament(structure=structure, **fields)
    services.open_registration(tournament)
    for i in range(players):
        services.register(tournament, Player.objects.create(name=f"Player {i + 1}"))
    if players:
        draw_seats(tournament)
    if start and players >= 2:
        services.start_tournament(tournament)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def tournament(db):
    return make_tournament()


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("director", password="pw-director-1", is_staff=True)


@pytest.fixture
def plain_user(db):
    return get_user_model().objects.create_user("someone", password="pw-someone-1")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
