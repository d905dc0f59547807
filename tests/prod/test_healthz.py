"""/healthz: every part it reports, and the part named when one fails."""

import time

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.utils import OperationalError

from config import health

pytestmark = pytest.mark.django_db

CLOSED_PORT_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1: connection refused at once


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_healthy_when_every_part_answers(client):
    from channels.layers import get_channel_layer

    health.record_tick()
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok"
    assert body["failing"] == []
    assert body["checks"]["database"]["ok"]
    assert body["checks"]["channel_layer"]["ok"]
    assert body["checks"]["channel_layer"]["backend"] == type(get_channel_layer()).__name__
    assert 0 <= body["checks"]["clock"]["last_tick_age_seconds"] < 5
    assert response["Cache-Control"].startswith("max-age=0")


def test_no_clock_tick_yet_is_unhealthy(client):
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["clock"]
    assert "no clock tick" in body["checks"]["clock"]["error"]
    # The other parts are still reported, and healthy.
    assert body["checks"]["database"]["ok"] and body["checks"]["channel_layer"]["ok"]


def test_stale_clock_tick_names_its_age(client, settings):
    settings.HEALTHZ_MAX_TICK_AGE = 30
    cache.set(health.LAST_TICK_KEY, time.time() - 95)
    response = client.get("/healthz")
    assert response.status_code == 503
    error = response.json()["checks"]["clock"]["error"]
    assert "95." in error and "limit 30" in error


def test_database_failure_is_named(client, monkeypatch):
    health.record_tick()

    def broken_cursor(*args, **kwargs):
        raise OperationalError("could not connect to server: Connection refused")

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["database"]
    assert "Connection refused" in body["checks"]["database"]["error"]


def test_channel_layer_failure_is_named(client, settings):
    health.record_tick()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [CLOSED_PORT_URL]},
        }
    }
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["channel_layer"]


def test_redis_checked_only_when_configured(client, settings):
    settings.REDIS_URL = ""
    health.record_tick()
    assert "redis" not in client.get("/healthz").json()["checks"]
    settings.REDIS_URL = CLOSED_PORT_URL
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["redis"]
    assert "refused" in body["checks"]["redis"]["error"].lower()


def test_subset_of_checks(client, settings):
    settings.REDIS_URL = ""
    # No tick recorded: the web containers' own check leaves the clock out and passes.
    response = client.get("/healthz?check=database,channel_layer,redis")
    assert response.status_code == 200
    assert set(response.json()["checks"]) == {"database", "channel_layer", "redis"}
    assert response.json()["checks"]["redis"]["skipped"] == "not configured"


def test_unknown_check_is_a_clear_400(client):
    response = client.get("/healthz?check=database,disk")
    assert response.status_code == 400
    assert "disk" in response.json()["detail"]


def test_only_safe_methods(client):
    assert client.post("/healthz").status_code == 405


def test_command_line_exit_code(capsys):
    assert health.main(["database"]) == 0
    assert health.main(["clock"]) == 1
    assert "clock: FAILING no clock tick" in capsys.readouterr().out
    health.record_tick()
    assert health.main([]) == 0
