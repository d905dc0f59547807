"""Celery tasks of the dealing app. Thin: they call the hand-for-hand rules.

``close_hand_for_hand_rounds`` runs every second from Celery beat (and from the ticker of
``manage.py serve``). A round normally closes when its last hand commits; this is the backstop for
a commit whose follow-up was lost (a worker killed between the commit and the close). Idempotent:
a round is closed by compare-and-set on the tournament's clock, once.
"""

import logging

from celery import shared_task

from tournaments.models import Tournament

from .hand_for_hand import close_round_if_complete

logger = logging.getLogger(__name__)


@shared_task(name="dealing.tasks.close_hand_for_hand_rounds", ignore_result=True)
def close_hand_for_hand_rounds() -> int:
    """Close every hand-for-hand round whose tables have all finished. Returns how many closed."""
    closed = 0
    for tournament in Tournament.objects.filter(
        status__in=[Tournament.Status.RUNNING, Tournament.Status.ON_BREAK], hand_for_hand=True
    ):
        try:
            if close_round_if_complete(tournament):
                closed += 1
        except Exception:  # one broken tournament must not stop every other round
            logger.exception("closing the hand-for-hand round of tournament %s failed", tournament.pk)
    return closed
