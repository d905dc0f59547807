"""Shared by the services modules: chip limits, the tournament row lock."""

from __future__ import annotations

from ..models import Tournament

MAX_CHIPS = 10**12


MAX_STACK = 10**9


Status = Tournament.Status


def locked(tournament: Tournament) -> Tournament:
    # NO KEY: rows that only refer to the tournament still commit meanwhile (tables.services._lock).
    return Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
