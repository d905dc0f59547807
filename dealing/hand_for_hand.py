"""R8.6 hand-for-hand, as the hands see it: which table waits, and when a round is complete.

During hand-for-hand every table in play deals one hand of the round; a table that has dealt its
hand waits until every other table has finished theirs. The round's time comes off the clock (at
most 2 minutes a hand) when the last table finishes: ``tournaments.services`` does the clock's part
by compare-and-set, so closing the same round twice (the hand's commit and the ticker) changes it once.
"""

from __future__ import annotations

from django.db.models import Count, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import Seat, Table
from tournaments.models import Entry, Tournament
from tournaments.services import hand_for_hand_round_finished

from .models import Hand


def _round(tournament: Tournament) -> tuple[set[int], object]:
    """(the tables in play, the hands of this round that were not voided)."""
    tables = set(
        Seat.objects.filter(
            table__tournament=tournament, table__status=Table.Status.ACTIVE, entry__status=Entry.Status.ACTIVE
        )
        .values("table_id")
        .annotate(players=Count("id"))
        .filter(players__gte=2)
        .values_list("table_id", flat=True)
    )
    hands = Hand.objects.filter(
        table__tournament=tournament, started_at__gte=tournament.hand_for_hand_round_started_at
    ).exclude(status=Hand.Status.VOIDED)
    return tables, hands


def _in_a_round(tournament: Tournament) -> bool:
    return bool(tournament.hand_for_hand and tournament.hand_for_hand_round_started_at is not None)


def waiting_reason(table) -> str | None:
    """Why ``table`` must wait before its next hand, or None when it may deal.

    A table that has dealt its hand of this round waits for the others. Asked before every new hand
    and by the tablet's snapshot.
    """
    tournament = table.tournament if isinstance(table, Table) else Table.objects.get(pk=table).tournament
    if not _in_a_round(tournament):
        return None
    if (
        Hand.objects.filter(
            table_id=table.pk,
            started_at__gte=tournament.hand_for_hand_round_started_at,
        )
        .exclude(status=Hand.Status.VOIDED)
        .exists()
    ):
        return str(_("Hand-for-hand: wait until every table has finished this hand (R8.6)."))
    return None


def close_round_if_complete(tournament: Tournament) -> bool:
    """When every table in play has finished its hand of the round, close the round (R8.6).

    The round's time runs from its start to the moment the last table finished, so the result does
    not depend on when this is called. Returns whether a round was closed.
    """
    if not _in_a_round(tournament):
        return False
    started = tournament.hand_for_hand_round_started_at
    tables, hands = _round(tournament)
    if not tables or hands.filter(status=Hand.Status.RUNNING).exists():
        return False
    finished = hands.filter(status=Hand.Status.FINISHED)
    if not tables <= set(finished.values_list("table_id", flat=True)):
        return False
    ended = finished.aggregate(last=Max("finished_at"))["last"] or timezone.now()
    hand_for_hand_round_finished(tournament, now=max(ended, started), round_started_at=started)
    return True


def close_round_after_commit(tournament_id: int) -> None:
    """The hand that just committed may have been the round's last: close it now rather than at the
    next tick (idempotent, the ticker may close the same round, only once)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:
        close_round_if_complete(tournament)
