"""The clock under real Celery: beat's one-second tick run by a worker process (R8.2), and a worker
killed in the middle of a level change (acks_late: the change happens once, never twice, never lost)."""

import time
from datetime import timedelta

import psycopg
from django.db import connection
from django.utils import timezone

from config import health
from tests.factories import level, make_tournament
from tournaments.models import Tournament

from .processes import wait_for


def running_tournament(seconds_left: float) -> Tournament:
    """A running tournament whose first one-minute level ends ``seconds_left`` from now."""
    return make_tournament(
        name="Integration",
        players=2,
        starting_stack=10000,
        levels=[level(25, 50, minutes=1), level(50, 100, minutes=1), level(75, 150, minutes=1)],
        started_at=timezone.now() - timedelta(seconds=60 - seconds_left),
    )


def fresh(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def test_beat_and_worker_advance_the_level_on_time(processes):
    """R8.2: the level changes when its time is up, not before and at most a tick or two after."""
    processes.worker()
    processes.beat()
    # Both are up when a tick has gone from beat through Redis to the worker and been recorded.
    wait_for(lambda: health.last_tick_age() is not None, timeout=60, what="the first clock tick")

    tournament = running_tournament(seconds_left=4)
    level_ends = tournament.level_started_at + timedelta(minutes=1)
    version = tournament.clock_version

    def advanced():
        current = fresh(tournament)
        return (current, timezone.now()) if current.level_index != 0 else None

    current, seen_at = wait_for(advanced, timeout=30, interval=0.05, what="the level to change")
    assert seen_at >= level_ends, "the level changed before its time was up"
    assert (seen_at - level_ends).total_seconds() < 3.0, f"the level changed {seen_at - level_ends} late"
    assert current.level_index == 1
    assert current.clock_version == version + 1
    # The new level starts when the old one ended (stored timestamps, not when the tick ran).
    assert current.level_started_at == level_ends
    # The web servers see the ticks the worker records (shared Redis cache): /healthz's clock is ok.
    healthy, results = health.run_checks(["clock", "redis", "channel_layer", "database"])
    assert healthy, results


def _waiting_on_lock(test_db_name: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'"
            " AND query LIKE 'UPDATE \"tournaments_tournament\"%%'",
            [test_db_name],
        )
        return cursor.fetchone()[0] > 0


def test_worker_killed_mid_level_change_leaves_exactly_one_change(processes, service_env):
    from tournaments.tasks import advance_clocks

    tournament = running_tournament(seconds_left=-1)  # the level is already over: a change is due
    version = tournament.clock_version
    test_db = connection.settings_dict["NAME"]
    # A short visibility timeout so the restarted worker takes back the message the killed one held.
    worker_env = {"CELERY_VISIBILITY_TIMEOUT": "2"}

    # Another session holds the tournament row: the worker's compare-and-set UPDATE waits on it,
    # inside its transaction, in the middle of the level change.
    with psycopg.connect(service_env["DATABASE_URL"].replace("postgres://", "postgresql://")) as blocker:
        blocker.execute("SELECT 1 FROM tournaments_tournament WHERE id = %s FOR UPDATE", [tournament.pk])
        worker = processes.worker("worker-1", extra_env=worker_env)
        advance_clocks.delay()
        wait_for(lambda: _waiting_on_lock(test_db), timeout=60, what="the worker to be mid level change")
        processes.kill(worker)  # kill -9, the whole process group
        blocker.rollback()

    # The killed worker's transaction never committed: no change yet, and nobody else to make one.
    time.sleep(1.0)
    assert fresh(tournament).clock_version == version
    assert fresh(tournament).level_index == 0

    # A new worker takes the unacknowledged message back (acks_late) and makes the change, once.
    time.sleep(2.5)  # past the visibility timeout
    processes.worker("worker-2", extra_env=worker_env)
    wait_for(lambda: fresh(tournament).level_index == 1, timeout=60, what="the redelivered level change")
    # More ticks, late and repeated, change nothing more.
    for _ in range(3):
        advance_clocks.delay()
    wait_for(
        lambda: health.last_tick_age() is not None and health.last_tick_age() < 1.0,
        timeout=30,
        what="the later ticks to run",
    )
    time.sleep(1.0)
    current = fresh(tournament)
    assert current.level_index == 1
    assert current.clock_version == version + 1
