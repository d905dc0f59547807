"""Shared reads of the tournaments app: the clock as stored and as it stands now, the level the next
hand is played at, whether registration is open, the prize pool and the payout table.

No writes here (HackSoft's selectors): services, snapshots, serializers and other apps read through
these, so each of these figures is computed in one place.
"""

from __future__ import annotations

import functools
from datetime import datetime
from fractions import Fraction

from django.db import connection
from django.utils import timezone

from config.prepared import PreparedQuery

from . import clock as clockmath
from . import payouts as payoutmath
from .models import Deal, Entry, Level, Tournament

Status = Tournament.Status


# Read for every deal and every clock snapshot: its SQL built once (config.prepared), and by the
# structure's id, so the structure itself is not read for it.
_levels = PreparedQuery(
    lambda structure_id: Level.objects.filter(structure_id=structure_id).order_by("order")
)


def tournament_version(tournament_id: int) -> int:
    """The tournament's screen version as stored now (``tournament_changed`` moves it)."""
    return Tournament.objects.values_list("version", flat=True).get(pk=tournament_id)


def levels_of(tournament: Tournament) -> list[Level]:
    return _levels(tournament.structure_id)


def periods(levels: list[Level]) -> list[clockmath.Period]:
    """The clock's view of a structure's levels: how long each lasts and whether it is a break."""
    return [
        clockmath.Period(seconds=level.duration_minutes * 60, is_break=level.is_break) for level in levels
    ]


def periods_of(tournament: Tournament) -> list[clockmath.Period]:
    return periods(levels_of(tournament))


def clock_of(tournament: Tournament) -> clockmath.Clock:
    return clockmath.Clock(
        level_index=tournament.level_index,
        level_started_at=tournament.level_started_at,
        paused_at=tournament.paused_at,
        remaining_when_paused=tournament.remaining_when_paused,
    )


def clock_state(
    tournament: Tournament, now: datetime | None = None, levels: list[Level] | None = None
) -> clockmath.ClockState:
    """The clock as it stands at ``now``: the one place every screen, API and service reads it from."""
    levels = levels_of(tournament) if levels is None else levels
    return clockmath.state(periods(levels), clock_of(tournament), now or timezone.now())


def level_for_next_hand(
    tournament: Tournament, now: datetime | None = None, levels: list[Level] | None = None
) -> Level:
    """The level a hand dealt now is played at (R8.2): the clock's level, never a break.

    During a break (or when the clock sits on one) it is the first level after the break.
    ``levels``: the structure's levels when the caller has read them already.
    """
    levels = levels_of(tournament) if levels is None else levels
    index = clock_state(tournament, now, levels).level_index
    return levels[clockmath.play_index_for_next_hand(periods(levels), index)]


def registration_open(
    tournament: Tournament, now: datetime | None = None, levels: list[Level] | None = None
) -> bool:
    """Before the start, and until the end of level ``late_registration_until_level`` and the break after it.

    ``levels``: the structure's levels when the caller has read them already."""
    if tournament.status == Status.REGISTERING:
        return True
    if tournament.status not in (Status.RUNNING, Status.ON_BREAK):
        return False
    schedule = periods(levels_of(tournament) if levels is None else levels)
    index = clockmath.state(schedule, clock_of(tournament), now or timezone.now()).level_index
    number = 0
    for i in range(index, -1, -1):  # the current level, or the level before this break
        number = clockmath.level_number(schedule, i) or 0
        if number:
            break
    return number <= tournament.late_registration_until_level


def entry_totals(tournament: Tournament) -> dict[str, int]:
    """One pass over a tournament's entries for every figure counted from them: entries, re-entries,
    rebuys and add-ons (the prize pool), players left and the chips in play (the screens' field), and
    the busted entries with no place yet (busts of late registration, placed when it closes)."""
    with connection.cursor() as cursor:
        cursor.execute(_entry_totals_sql(), [tournament.pk])
        row = cursor.fetchone()
    return {name: int(value or 0) for name, value in zip(_ENTRY_TOTALS, row, strict=True)}


_ENTRY_TOTALS = ("entries", "reentries", "rebuys", "addons", "left", "chips", "unplaced")


@functools.cache
def _entry_totals_sql() -> str:
    """``entry_totals``' statement, built once: every bust and every clock snapshot reads it, and
    Django took longer to build the aggregate than the database to run it."""

    def col(name: str) -> str:
        return connection.ops.quote_name(Entry._meta.get_field(name).column)

    active = f"{col('status')} = '{Entry.Status.ACTIVE}'"
    unplaced = f"{col('status')} = '{Entry.Status.BUSTED}' AND {col('place')} IS NULL"
    figures = (
        "COUNT(*)",
        f"SUM(CASE WHEN {col('number')} > 1 THEN 1 ELSE 0 END)",
        f"SUM({col('rebuys')})",
        f"SUM(CASE WHEN {col('addon_taken')} THEN 1 ELSE 0 END)",
        f"SUM(CASE WHEN {active} THEN 1 ELSE 0 END)",
        f"SUM(CASE WHEN {active} THEN {col('chips')} ELSE 0 END)",
        f"SUM(CASE WHEN {unplaced} THEN 1 ELSE 0 END)",
    )
    table = connection.ops.quote_name(Entry._meta.db_table)
    return f"SELECT {', '.join(figures)} FROM {table} WHERE {col('tournament')} = %s"


def prize_pool(tournament: Tournament, totals: dict[str, int] | None = None) -> int:
    """Buy-ins (without the fee), rebuys and add-ons, or the guarantee if that is more.

    ``totals``: ``entry_totals`` when the caller has read them already."""
    return _pool_and_field(tournament, totals)[0]


def _pool_and_field(tournament: Tournament, totals: dict[str, int] | None = None) -> tuple[int, int]:
    totals = entry_totals(tournament) if totals is None else totals
    collected = (
        totals["entries"] * tournament.buy_in
        + totals["rebuys"] * tournament.rebuy_price
        + totals["addons"] * tournament.addon_price
    )
    return max(collected, tournament.guarantee), totals["entries"]


def payout_shares(tournament: Tournament, field_size: int | None = None) -> list[Fraction]:
    if field_size is None:
        field_size = tournament.entries.count()
    return list(_shares(field_size, tuple(tournament.payout_percentages or ()), tournament.percent_paid))


def _shares(field_size: int, percentages: tuple, percent_paid: int) -> tuple[Fraction, ...]:
    if percentages:
        shares = payoutmath.check_percentages(list(percentages))
        if 0 < field_size < len(shares):
            # More places than entries: nobody could win the places below the field, so the places
            # there are share the whole pool in the same proportions.
            shares = [share / sum(shares[:field_size]) for share in shares[:field_size]]
        return tuple(shares)
    return tuple(payoutmath.default_percentages(payoutmath.places_paid(field_size, percent_paid)))


def payout_table(tournament: Tournament, totals: dict[str, int] | None = None) -> list[int]:
    """Prize by place (index 0 is first) for the field as it stands: the director's own amounts when
    set (``payout_amounts``), else from the percentages. ``totals``: as for ``prize_pool``."""
    pool, field_size = _pool_and_field(tournament, totals)
    if tournament.payout_amounts:
        return list(_amounts_table(pool, field_size, tuple(tournament.payout_amounts)))
    return list(
        _payout_table(
            pool,
            field_size,
            tuple(tournament.payout_percentages or ()),
            tournament.percent_paid,
            tournament.payout_unit,
        )
    )


@functools.lru_cache(maxsize=1024)
def _payout_table(pool: int, field_size: int, percentages: tuple, percent_paid: int, unit: int) -> tuple:
    # A 10,000-entry field pays 1,500 places in exact fractions: costly, and the same for every
    # screen and every hand until the pool or the field changes. Keyed by exactly what it depends on.
    return tuple(payoutmath.payout_amounts(pool, list(_shares(field_size, percentages, percent_paid)), unit))


@functools.lru_cache(maxsize=256)
def _amounts_table(pool: int, field_size: int, amounts: tuple) -> tuple:
    # The director's amounts as typed, while they still add up to the pool and fit the field; after
    # the pool or the field changed, the same proportions of the new pool, to the unit, exact.
    if 0 < field_size < len(amounts):
        amounts = amounts[:field_size]
    made_for = sum(amounts)
    if made_for == pool or made_for == 0:
        return amounts
    return tuple(payoutmath.payout_amounts(pool, [Fraction(a, made_for) for a in amounts], 1))


def deal_of(tournament: Tournament):
    """The tournament's recorded deal with its shares, or None."""
    return Deal.objects.filter(tournament=tournament).prefetch_related("shares__entry__player").first()


def master_seed_hex(tournament: Tournament) -> str | None:
    """The master seed, only once the tournament is over (RULES §7)."""
    if tournament.status != Status.FINISHED or not tournament.master_seed:
        return None
    return bytes(tournament.master_seed).hex()
