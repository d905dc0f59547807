"""Shared by the services modules: chip limits, the tournament row lock."""

from __future__ import annotations

from ..models import Tournament, lock_tournament

MAX_CHIPS = 10**12


MAX_STACK = 10**9


Status = Tournament.Status


def locked(tournament: Tournament) -> Tournament:
    return lock_tournament(tournament.pk)
