"""Production settings: `check --deploy` is clean, and unsafe settings refuse to start."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args, **env):
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {
    "DJANGO_ENV": "production",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
    "DJANGO_ALLOWED_HOSTS": "td.example.com",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://td.example.com",
}


def test_check_deploy_is_clean_in_production():
    # Every check of every app, the deployment (security) checks with them: not even a warning.
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_check_deploy_catches_an_unsafe_production_setting():
    """The check above can fail: plain-HTTP production (no HTTPS redirect) is reported."""
    result = manage(
        "check",
        "--deploy",
        "--tag",
        "security",
        "--fail-level",
        "WARNING",
        **PRODUCTION,
        DJANGO_SECURE_SSL_REDIRECT="false",
    )
    assert result.returncode != 0
    assert "security.W008" in result.stderr


def test_production_refuses_debug():
    result = manage("check", **{**PRODUCTION, "DJANGO_DEBUG": "1"})
    assert result.returncode != 0
    assert "DJANGO_DEBUG must be off" in result.stderr


def test_production_refuses_the_default_secret_key():
    env = {k: v for k, v in PRODUCTION.items() if k != "DJANGO_SECRET_KEY"}
    result = manage("check", **env)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_serves_healthz_over_plain_http_but_redirects_pages():
    """Container healthchecks call http://127.0.0.1:8000/healthz; everything else goes to HTTPS."""
    code = (
        "import django; django.setup();"
        "from django.test import Client; c = Client();"
        "print(c.get('/healthz?check=database', HTTP_HOST='td.example.com').status_code,"
        " c.get('/admin/', HTTP_HOST='td.example.com').status_code)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
            **PRODUCTION,
            "DJANGO_SETTINGS_MODULE": "config.settings",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    healthz_status, admin_status = result.stdout.split()
    assert healthz_status == "200" and admin_status == "301"


DEFAULT_LAYER = "channels_redis.pubsub.RedisPubSubChannelLayer"


def _layer(**env) -> subprocess.CompletedProcess:
    code = "from django.conf import settings; print(settings.CHANNEL_LAYERS['default']['BACKEND'])"
    return manage("shell", "--no-imports", "-c", code, REDIS_URL="redis://127.0.0.1:6379/0", **env)


def test_the_channel_layer_is_chosen_by_name_and_a_wrong_name_is_refused():
    """docs/production.md: CHANNEL_LAYER picks channels-redis's pub/sub layer or its list-based one;
    a typo refuses to start instead of silently running the other."""
    assert _layer(CHANNEL_LAYER="pubsub").stdout.strip() == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert _layer(CHANNEL_LAYER="core").stdout.strip() == "channels_redis.core.RedisChannelLayer"
    assert _layer().stdout.strip() == DEFAULT_LAYER
    refused = _layer(CHANNEL_LAYER="pubsbu")
    assert refused.returncode != 0 and "CHANNEL_LAYER is core or pubsub, not 'pubsbu'" in refused.stderr
