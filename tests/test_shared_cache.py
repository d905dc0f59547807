"""The Redis cache keeps one client (one connection pool) per process: Django makes a cache object
per thread and async context, and under daphne each request is both, so with Django's own backend
every request opened a new Redis connection for the rate limit's one read (issue 11)."""

import threading

from asgiref.sync import async_to_sync, sync_to_async
from django.test import override_settings

SHARED = {"default": {"BACKEND": "config.cache.SharedRedisCache", "LOCATION": "redis://127.0.0.1:1/0"}}


def _client_in_a_new_context():
    # What a request under daphne does: a fresh async context and a thread of its own.
    from django.core.cache import caches

    return caches["default"]._cache


@override_settings(CACHES=SHARED)
def test_every_request_context_and_thread_shares_one_redis_client():
    from django.core.cache import caches

    here = caches["default"]._cache
    found = []
    thread = threading.Thread(target=lambda: found.append(caches["default"]._cache))
    thread.start()
    thread.join(10)
    in_request = async_to_sync(sync_to_async(_client_in_a_new_context, thread_sensitive=False))()
    assert found == [here] and in_request is here
    assert caches["default"] is not None  # no connection is made until a command is sent


def test_django_own_backend_would_make_one_client_per_thread():
    """Why the shared one: the same check with Django's RedisCache gives a new client per thread."""
    own = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }
    with override_settings(CACHES=own):
        from django.core.cache import caches

        here = caches["default"]._cache
        found = []
        thread = threading.Thread(target=lambda: found.append(caches["default"]._cache))
        thread.start()
        thread.join(10)
        assert found and found[0] is not here
