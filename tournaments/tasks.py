"""Celery tasks of the tournaments app. Thin: they call services.

``advance_clocks`` runs every second from Celery beat in production and from the in-process ticker
of ``manage.py serve``. It is idempotent: each clock is advanced by compare-and-set on
``clock_version`` to a state that depends only on the stored clock and the time, so running it twice,
late or after a restart gives the same result (levels missed while the server was down are caught up).
"""

import logging

from celery import shared_task
from django.utils import timezone

from config.health import record_tick

from .models import Tournament
from .services import advance_clock

logger = logging.getLogger(__name__)


@shared_task(name="tournaments.tasks.advance_clocks", ignore_result=True)
def advance_clocks() -> int:
    """Advance every running clock that has a level (or break) due. Returns how many changed."""
    now = timezone.now()
    changed = 0
    running = Tournament.objects.filter(
        status__in=[Tournament.Status.RUNNING, Tournament.Status.ON_BREAK],
        level_started_at__isnull=False,
        paused_at__isnull=True,
    ).select_related("structure")
    for tournament in running:
        try:
            if advance_clock(tournament, now):
                changed += 1
        except Exception:  # one broken tournament must not stop every other clock
            logger.exception("advancing the clock of tournament %s failed", tournament.pk)
    record_tick()
    return changed
