"""Celery tasks of the tables app. Thin: they call services.

``balance_tournament`` is queued after every bust-out and every hand that ends. It is idempotent:
the decision counts the moves already made or pending, so running it twice, late or after a restart
moves nobody twice.
"""

import logging

from celery import shared_task

from config.locks import gave_up_waiting
from tournaments.models import Tournament

from . import services

logger = logging.getLogger(__name__)

AGAIN = 0.5  # seconds before a balance that gave way runs again


@shared_task(name="tables.tasks.balance_tournament", ignore_result=True)
def balance_tournament(tournament_id: int) -> int:
    """Balance, break or draw the final table of one tournament (R8.3-R8.5). Returns moves made."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.status == Tournament.Status.FINISHED:
        return 0
    if services.seating_plan(tournament).review_moves:
        return 0  # the director applies the suggested moves
    try:
        # Balanced: no lock on the field (every bust and the tables' hands would wait for it).
        return len(services.balance_if_due(tournament))
    except Exception as error:
        if not gave_up_waiting(error):
            raise
        # A dealer holding a table it needed waits for the tournament this held (config.locks): it
        # gave way, changed nothing, and balances again in a moment.
        logger.info(
            "balance of tournament %s gave way to a table's input; again in %s s", tournament_id, AGAIN
        )
        balance_tournament.apply_async((tournament_id,), countdown=AGAIN)
        return 0


@shared_task(name="tables.tasks.balance_running_tournaments", ignore_result=True)
def balance_running_tournaments() -> int:
    """Beat's backstop: a rebalance queued after a commit can be lost (a worker killed between the
    commit and the queueing); balancing every running tournament now and then repairs that."""
    moved = 0
    for pk in Tournament.objects.filter(
        status__in=[Tournament.Status.RUNNING, Tournament.Status.ON_BREAK]
    ).values_list("pk", flat=True):
        moved += balance_tournament(pk)
    return moved
