"""Rate limits: the API throttles (DRF) and a small counter for the pages (sign-in, pairing).

Counts live in Django's cache: Redis in production (``REDIS_URL``), so every web server counts
together; local memory otherwise. Rates are ``"count/seconds"`` strings in ``settings.THROTTLE_RATES``,
read at each request. Too many requests answer 429 with ``Retry-After`` (docs/api-errors.md).

A leaf: it imports no app.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle


def parse_rate(rate: str | None) -> tuple[int | None, int | None]:
    """``"10/60"`` is 10 requests in 60 seconds; DRF's ``"10/min"`` also reads."""
    if not rate:
        return None, None
    count, period = rate.split("/")
    if period.isdigit():
        return int(count), int(period)
    return int(count), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]


def client_ip(request) -> str:
    """The client's address: behind ``NUM_PROXIES`` proxies, the one the last proxy appended to
    X-Forwarded-For (what the client wrote there itself is ignored); else REMOTE_ADDR."""
    meta = getattr(request, "META", {})
    proxies = getattr(settings, "NUM_PROXIES", 0) or 0
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        addresses = [a.strip() for a in forwarded.split(",") if a.strip()]
        if addresses:
            return addresses[-min(proxies, len(addresses))][:64]
    return meta.get("REMOTE_ADDR", "")[:64]


def _key(name: str, key: str) -> str:
    return f"rl:{name}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"


def _recent(name: str, key: str, seconds: int, now: float) -> list[float]:
    return [t for t in cache.get(_key(name, key), []) if t > now - seconds]


def _wait(hits: list[float], count: int, seconds: int, now: float) -> int | None:
    """Seconds until one more hit is allowed when ``hits`` (the window's, oldest first) already has
    ``count``, else None."""
    if len(hits) < count:
        return None
    return max(1, math.ceil(hits[-count] + seconds - now))


def blocked_for(name: str, key: str, count: int, seconds: int) -> int | None:
    """Seconds until ``key`` may try again when it already has ``count`` hits in the window, else None."""
    now = time.time()
    return _wait(_recent(name, key, seconds, now), count, seconds, now)


def hit(name: str, key: str, seconds: int, keep: int) -> None:
    """Count one hit for ``key`` (at most ``keep`` kept, within the window)."""
    now = time.time()
    hits = [*_recent(name, key, seconds, now), now][-keep:]
    cache.set(_key(name, key), hits, seconds)


def reset(name: str, key: str) -> None:
    cache.delete(_key(name, key))


def take(name: str, key: str, rate: str) -> int | None:
    """One request against ``rate``: None when allowed (and counted), else the seconds to wait."""
    count, seconds = parse_rate(rate)
    if count is None:
        return None
    wait = blocked_for(name, key, count, seconds)
    if wait is None:
        hit(name, key, seconds, count)
    return wait


def rate_for(scope: str) -> str | None:
    return getattr(settings, "THROTTLE_RATES", {}).get(scope)


class LocalRate:
    """One client's rate (``THROTTLE_RATES[scope]``) counted in this process's memory, for a client
    that is one connection (a tablet's socket): the same window as the cache's, no round trip."""

    def __init__(self, scope: str):
        self.count, self.seconds = parse_rate(rate_for(scope))
        self.hits: list[float] = []

    def take(self) -> int | None:
        """None when one more hit is allowed (and counted), else the seconds to wait."""
        if self.count is None:
            return None
        now = time.monotonic()
        self.hits = [t for t in self.hits if t > now - self.seconds][-self.count :]
        wait = _wait(self.hits, self.count, self.seconds, now)
        if wait is None:
            self.hits.append(now)
        return wait


class _SettingsRateThrottle(SimpleRateThrottle):
    """DRF's throttle with the rate read from ``settings.THROTTLE_RATES`` at each request."""

    def __init__(self):  # the scope is known only per request
        pass

    def parse_rate(self, rate):
        return parse_rate(rate)

    def get_ident(self, request):
        return client_ip(request)

    def _who(self, request) -> tuple[str, str]:
        device = getattr(request, "auth", None)
        if device is not None and hasattr(device, "may_operate_table"):
            return "device", f"device:{device.pk}"
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return "user", f"user:{user.pk}"
        return "anon", f"ip:{self.get_ident(request)}"

    def _start(self, scope: str, ident: str) -> bool:
        self.scope = scope
        self.rate = rate_for(scope)
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.key = self.cache_format % {"scope": scope, "ident": ident}
        return self.rate is not None


class ApiRateThrottle(_SettingsRateThrottle):
    """Every API request: per signed-in person (``user``), per paired device (``device``), else per
    address (``anon``)."""

    def allow_request(self, request, view):
        scope, ident = self._who(request)
        if not self._start(scope, ident):
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        return self.key


class ScopedThrottle(_SettingsRateThrottle):
    """A view's own, lower limit (``throttle_scope = "icm"``), per person, device or address."""

    def allow_request(self, request, view):
        scope = getattr(view, "throttle_scope", None)
        if not scope:
            return True
        _kind, ident = self._who(request)
        if not self._start(scope, ident):
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        return self.key
