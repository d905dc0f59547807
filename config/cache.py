"""Django's Redis cache with one connection pool per process (a leaf: it imports no app).

Django makes a cache object per thread and async context (``django.core.cache.caches``), and each
made its own Redis client with its own connection pool. Under daphne every request runs in a new
context, so every request opened a new Redis connection, a connect and a handshake for the rate
limit's one read. redis-py's pools are thread-safe: one per process serves them all.
"""

from __future__ import annotations

import os
import threading

from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property

_clients: dict = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    @cached_property
    def _cache(self):
        # The process id: a forked worker (Celery's prefork pool) makes its own.
        key = (os.getpid(), tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
