"""API writes follow the same roles as the console (config.roles.CAPABILITIES): the registration desk
registers but cannot bust, move or deal; the floor busts, moves and corrects but cannot run the clock
or set the tournament up; a paired tablet keeps its rights at its own table (issue 14 item 9)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import get_resolver
from rest_framework.permissions import SAFE_METHODS
from rest_framework.test import APIClient

from config.permissions import IsStaffOrReadOnly
from screens import roles
from tests import factories

pytestmark = pytest.mark.django_db


def _client(role):
    user = get_user_model().objects.create_user(f"api-{role}".replace(" ", "-").lower(), is_staff=True)
    user.groups.set([roles.ensure_roles()[role]])
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def running():
    return factories.make_tournament(players=4, stage="running", name="API Roles Cup")


def _bust(client, tournament):
    entry = tournament.entries.order_by("pk").first()
    entry.chips = 0
    entry.save(update_fields=["chips"])
    return client.post(
        f"/api/tournaments/{tournament.pk}/bust/",
        {"busts": [{"entry": entry.pk, "chips_at_start": 1}]},
        format="json",
    )


def _manual_move(client, tournament):
    entry = tournament.entries.order_by("pk").first()
    return client.post(
        f"/api/tournaments/{tournament.pk}/moves/manual/",
        {"entry": entry.pk, "table": 1, "seat": 8, "reason": "R2.7 test"},
        format="json",
    )


def test_the_desk_registers_through_the_api():
    tournament = factories.make_tournament(players=2, stage="registering", name="Desk API Cup")
    response = _client(roles.DESK).post(
        f"/api/tournaments/{tournament.pk}/entries/", {"name": "Ana Lima"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert tournament.entries.filter(player__name="Ana Lima").exists()


def test_the_desk_cannot_bust_or_move_and_is_told_why(running):
    desk = _client(roles.DESK)
    for response in (_bust(desk, running), _manual_move(desk, running)):
        assert response.status_code == 403
        assert "registration desk" in response.json()["detail"]
    assert running.entries.filter(status="active").count() == 4  # nobody was busted


def test_the_desk_cannot_deal_a_hand(running):
    table = running.tables.first()
    response = _client(roles.DESK).post("/api/hands/", {"table": table.pk}, format="json")
    assert response.status_code == 403
    assert "run hands" in response.json()["detail"]
    assert not table.hands.exists()


def test_the_floor_busts_and_moves(running):
    floor = _client(roles.FLOOR)
    assert _bust(floor, running).status_code == 200
    assert running.entries.filter(status="busted").count() == 1
    # Seat 8 of table 1 may be taken: any answer but 403 shows the role let the move through.
    assert _manual_move(floor, running).status_code != 403


def test_the_floor_cannot_run_the_clock_or_change_the_settings(running):
    floor = _client(roles.FLOOR)
    version = running.clock_version
    pause = floor.post(
        f"/api/tournaments/{running.pk}/clock/pause/", {"clock_version": version}, format="json"
    )
    assert pause.status_code == 403
    assert "run the clock" in pause.json()["detail"] and "floor" in pause.json()["detail"]
    rename = floor.patch(f"/api/tournaments/{running.pk}/", {"name": "Renamed"}, format="json")
    assert rename.status_code == 403
    running.refresh_from_db()
    assert running.name == "API Roles Cup" and running.paused_at is None


def test_the_director_runs_the_clock(running):
    response = _client(roles.DIRECTOR).post(
        f"/api/tournaments/{running.pk}/clock/pause/",
        {"clock_version": running.clock_version},
        format="json",
    )
    assert response.status_code == 200, response.content


def _api_views():
    """(route, view class, action map or None) of every API URL."""

    def walk(patterns, prefix=""):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            else:
                yield prefix + str(p.pattern), p.callback

    for route, callback in walk(get_resolver().url_patterns):
        cls = getattr(callback, "cls", None)
        if route.startswith("api/") and cls is not None:
            yield route, cls, getattr(callback, "actions", None)


def test_every_staff_write_of_the_api_names_its_capability():
    """A write that names none would be for the director alone by default: never open to every role
    by accident, but a floor or desk task silently refused. Each write says whose it is."""
    unnamed = []
    for route, cls, actions in _api_views():
        if not any(issubclass(p, IsStaffOrReadOnly) for p in cls.permission_classes):
            continue
        methods = actions.items() if actions else ((m, m) for m in cls.http_method_names if hasattr(cls, m))
        for method, key in methods:
            if method.upper() in SAFE_METHODS or method == "options":
                continue
            handler = getattr(cls, key, None)
            extra = getattr(handler, "kwargs", {}).get("permission_classes")
            if extra is not None and not any(issubclass(p, IsStaffOrReadOnly) for p in extra):
                continue  # the action sets its own permission (e.g. the audit log: admins only)
            capability = getattr(cls, "write_capabilities", {}).get(key) or getattr(
                cls, "write_capability", None
            )
            if capability not in roles.CAPABILITIES:
                unnamed.append(f"{method.upper()} {route} ({cls.__name__}.{key})")
    assert not unnamed, unnamed
