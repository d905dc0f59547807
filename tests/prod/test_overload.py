"""Overload (no database connection to be had in time) answers 503 with Retry-After, never 500,
and changes nothing; a PostgreSQL database gets a bounded connection pool."""

import pytest
from django.db import OperationalError

from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_api(django_user_model):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user("td", is_staff=True))
    return client


def test_a_pool_timeout_is_a_503_with_retry_after_and_a_clear_body(director_api, monkeypatch):
    def no_connection(*args, **kwargs):
        raise OperationalError("couldn't get a connection after 5.00 sec")

    monkeypatch.setattr(services, "create_structure", no_connection)
    response = director_api.post(
        "/api/structures/", {"name": "Busy", "betting": "no_limit", "levels": []}, format="json"
    )
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert response.json()["code"] == "overloaded" and "nothing was changed" in response.json()["detail"]


def test_postgresql_gets_a_bounded_pool(monkeypatch):
    import importlib

    import config.settings as settings_module

    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@127.0.0.1:5432/db")
    monkeypatch.setenv("DATABASE_POOL", "1")  # CI runs this suite with the pool off
    monkeypatch.setenv("DATABASE_POOL_MAX", "12")
    try:
        reloaded = importlib.reload(settings_module)
        database = reloaded.DATABASES["default"]
        assert database["OPTIONS"]["pool"]["max_size"] == 12 and database["CONN_MAX_AGE"] == 0
    finally:
        monkeypatch.undo()
        importlib.reload(settings_module)


def test_a_console_action_is_not_run_again_when_the_database_is_simply_busy(
    client, django_user_model, monkeypatch
):
    """Only a lock cycle's give-way is run again (config.locks.run_giving_way): a pool that has no
    connection to give answers 503 at once, after one attempt, not after three waits of 5 s."""
    from tests import factories

    tournament = factories.make_tournament(players=3)
    entry = factories.zero(factories.entries_of(tournament)[0])
    calls = []

    def no_connection(*args, **kwargs):
        calls.append(args)
        raise OperationalError("couldn't get a connection after 5.00 sec")

    monkeypatch.setattr(services, "bust_entries", no_connection)
    client.force_login(django_user_model.objects.create_user("td", password="pw", is_staff=True))
    response = client.post(f"/console/{tournament.pk}/entries/{entry.pk}/bust/")
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert "nothing was changed" in response.content.decode()
    assert len(calls) == 1
