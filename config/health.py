"""Health of the running service: ``GET /healthz`` and ``python -m config.health``.

Each check names the part that failed: the database, the channel layer (a real send and receive
through it), Redis when configured, and the clock (how long ago the last clock tick ran). The clock
tick is recorded by ``record_tick()`` in the shared cache (Redis in production, so the web servers
see the ticks that the Celery workers run; in-process memory on the embedded defaults, where the
ticker runs inside the web server).

``/healthz`` answers 200 when every check passes, 503 otherwise; ``?check=database,channel_layer``
runs only the named checks (the web containers' own health leaves the clock to the beat's).
"""

import asyncio
import sys
import time
import uuid

from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

LAST_TICK_KEY = "courchevel:clock:last-tick"
TIMEOUT_SECONDS = 3.0


class CheckFailed(Exception):
    pass


def record_tick() -> None:
    """Called by every clock tick (``tournaments.tasks.advance_clocks``)."""
    cache.set(LAST_TICK_KEY, time.time(), timeout=None)


def last_tick_age() -> float | None:
    """Seconds since the last clock tick, or None if no tick was ever recorded."""
    last = cache.get(LAST_TICK_KEY)
    return None if last is None else max(0.0, time.time() - last)


def check_database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise CheckFailed("SELECT 1 did not return 1")
    return {"vendor": connection.vendor}


def check_channel_layer() -> dict:
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        raise CheckFailed("no channel layer configured")
    token = uuid.uuid4().hex

    async def round_trip():
        channel = await layer.new_channel("healthz.")
        await layer.send(channel, {"type": "healthz.ping", "token": token})
        return await asyncio.wait_for(layer.receive(channel), TIMEOUT_SECONDS)

    try:
        message = async_to_sync(round_trip)()
    except TimeoutError:
        raise CheckFailed("a message sent through the channel layer did not come back") from None
    if message.get("token") != token:
        raise CheckFailed("the channel layer returned a different message")
    return {"backend": type(layer).__name__}


def check_redis() -> dict:
    import redis

    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS
    )
    try:
        if not client.ping():
            raise CheckFailed("PING was not answered")
    finally:
        client.close()
    return {}


def check_clock() -> dict:
    age = last_tick_age()
    limit = settings.HEALTHZ_MAX_TICK_AGE
    if age is None:
        raise CheckFailed("no clock tick recorded yet (is celery beat running?)")
    if age > limit:
        raise CheckFailed(f"the last clock tick was {age:.1f}s ago (limit {limit}s)")
    return {"last_tick_age_seconds": round(age, 3)}


def available_checks() -> dict:
    checks = {"database": check_database, "channel_layer": check_channel_layer}
    if settings.REDIS_URL:
        checks["redis"] = check_redis
    checks["clock"] = check_clock
    return checks


def run_checks(names: list[str] | None = None) -> tuple[bool, dict]:
    """Run the named checks (all by default). Returns (healthy, {name: result})."""
    checks = available_checks()
    results = {}
    for name in names or list(checks):
        check = checks.get(name)
        if check is None:
            if name == "redis":  # not configured on the embedded defaults: nothing to check
                results[name] = {"ok": True, "skipped": "not configured"}
            else:
                results[name] = {"ok": False, "error": "unknown check"}
            continue
        started = time.perf_counter()
        try:
            result = {"ok": True, **check()}
        except Exception as error:  # any failure is a failed check, reported by name
            message = str(error) or type(error).__name__
            result = {"ok": False, "error": message}
        result["ms"] = round((time.perf_counter() - started) * 1000, 1)
        results[name] = result
    return all(r["ok"] for r in results.values()), results


@never_cache
@require_safe
def healthz(request):
    requested = [n.strip() for n in request.GET.get("check", "").split(",") if n.strip()]
    known = set(available_checks()) | {"redis"}
    unknown = sorted(set(requested) - known)
    if unknown:
        return JsonResponse(
            {"detail": f"Unknown check: {', '.join(unknown)}. Known: {', '.join(sorted(known))}."},
            status=400,
        )
    healthy, results = run_checks(requested or None)
    failing = [name for name, result in results.items() if not result["ok"]]
    body = {
        "status": "ok" if healthy else "failing",
        "failing": failing,
        "checks": results,
        "time": timezone.now().isoformat(),
    }
    return JsonResponse(body, status=200 if healthy else 503)


def main(argv: list[str]) -> int:
    """``python -m config.health [check ...]``: exit 0 when healthy (container healthchecks)."""
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    healthy, results = run_checks(argv or None)
    for name, result in results.items():
        print(f"{name}: {'ok' if result['ok'] else 'FAILING ' + result['error']}")
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
