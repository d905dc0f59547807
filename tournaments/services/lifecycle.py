"""A tournament's life: create and edit it, open registration, start, finish."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from dealing.engine import seed_commitment
from tables.services import seated_count

from .. import clock as clockmath
from .. import payouts as payoutmath
from ..audit import AuditAction, record_audit
from ..errors import RuleError, StateError
from ..models import MAX_PLAYERS, BlindStructure, Deal, Entry, Tournament, clock_changed
from ..selectors import clock_of, periods_of
from .clock_control import store_clock
from .common import Status, locked
from .entries import close_tournament, place_late_registration_busts
from .prizes import recompute_prizes
from .structures import audit_value, check_levels_in_chips, copy_structure


@transaction.atomic
def create_tournament(*, structure: BlindStructure, actor=None, **fields) -> Tournament:
    """A new tournament with its own copy of ``structure`` (a template or another structure)."""
    betting = fields.get("betting") or structure.betting
    if structure.betting != betting:
        raise ValidationError({"structure": _("The structure is for a different betting structure.")})
    if not structure.levels.filter(is_break=False).exists():
        raise ValidationError({"structure": _("The structure has no levels of play.")})
    fields["betting"] = betting
    if "chip_denominations" not in fields and structure.chip_denominations:
        # The structure's chip set (R5.7): a template never leaves a tournament in single chips.
        fields["chip_denominations"] = list(structure.chip_denominations)
        fields.setdefault("smallest_chip", min(structure.chip_denominations))
    tournament = Tournament(structure=structure, **fields)
    tournament.full_clean(exclude=["structure"])
    _check_tournament_fields(tournament)
    check_levels_in_chips(list(structure.levels.order_by("order")), tournament.chip_denominations)
    tournament.structure = copy_structure(structure, name=fields.get("name", ""), actor=actor)
    if tournament.seeding == Tournament.Seeding.MASTER:
        tournament.master_seed = secrets.token_bytes(32)
        tournament.master_seed_commitment = seed_commitment(tournament.master_seed)
    tournament.save()
    record_audit(actor, AuditAction.TOURNAMENT_CREATE, tournament)
    clock_changed(tournament.pk)
    return tournament


def _check_tournament_fields(tournament: Tournament) -> None:
    errors = {}
    if tournament.payout_percentages:
        try:
            payoutmath.check_percentages(tournament.payout_percentages)
        except payoutmath.PayoutError as exc:
            errors["payout_percentages"] = exc.message
    denominations = tournament.chip_denominations
    if denominations and (
        not isinstance(denominations, list)
        or not all(isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in denominations)
    ):
        errors["chip_denominations"] = _("List the chip denominations as whole numbers above 0.")
    elif denominations and tournament.smallest_chip not in denominations:
        errors["smallest_chip"] = _("The smallest chip must be one of the denominations.")
    if tournament.starting_stack % max(1, tournament.smallest_chip):
        errors["starting_stack"] = _("The starting stack must be a whole number of the smallest chip.")
    if errors:
        raise ValidationError(errors)


def _check_room_for_players_in(tournament: Tournament) -> None:
    """A maximum field size below the players already in would take seats away: refused (422)."""
    players = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    if tournament.max_players < players:
        raise RuleError(
            _(
                "The maximum field size must be at least %(min)s (the players in now) and at most %(max)s, or empty for no limit."
            )
            % {"min": max(2, players), "max": MAX_PLAYERS},
            code="max_players_below_field",
            field="max_players",
            params={"min": max(2, players), "max": MAX_PLAYERS},
        )


EDITABLE_WHILE_RUNNING = {
    "name",
    "late_registration_until_level",
    "max_reentries",
    "max_players",
    "rebuys_allowed",
    "guarantee",
    "payout_percentages",
    "percent_paid",
    "payout_unit",
    "clock_runs_during_deal",
}

# What the prize pool and the payout table are made of: fixed once the players left made a deal.
MONEY_FIELDS = {
    "buy_in",
    "guarantee",
    "payout_percentages",
    "percent_paid",
    "payout_unit",
    "rebuy_price",
    "addon_price",
}


@transaction.atomic
def update_tournament(tournament: Tournament, *, actor=None, **fields) -> Tournament:
    tournament = locked(tournament)
    if tournament.status == Status.FINISHED:
        raise StateError(_("The tournament is finished and cannot be changed."), code="finished")
    if tournament.status in (Status.RUNNING, Status.ON_BREAK):
        fixed = sorted(set(fields) - EDITABLE_WHILE_RUNNING)
        if fixed:
            raise StateError(
                _("%(field)s cannot change once the tournament has started.") % {"field": fixed[0]},
                code="started",
                field=fixed[0],
            )
    money = sorted(name for name in set(fields) & MONEY_FIELDS if fields[name] != getattr(tournament, name))
    if money and Deal.objects.filter(tournament=tournament).exists():
        raise StateError(
            _("%(field)s cannot change: the players left made a deal on these prizes.") % {"field": money[0]},
            code="deal_made",
            field=money[0],
        )
    if "seeding" in fields and fields["seeding"] != tournament.seeding:
        raise ValidationError({"seeding": _("The seeding mode is fixed when the tournament is created.")})
    if "betting" in fields and fields["betting"] != tournament.betting:
        raise ValidationError({"betting": _("The betting structure is fixed with the blind structure.")})
    old = {name: getattr(tournament, name) for name in fields}
    for name, value in fields.items():
        setattr(tournament, name, value)
    tournament.full_clean()
    _check_tournament_fields(tournament)
    if {"chip_denominations", "smallest_chip"} & set(fields):
        check_levels_in_chips(
            list(tournament.structure.levels.order_by("order")), tournament.chip_denominations
        )
    if fields.get("max_players") is not None:
        _check_room_for_players_in(tournament)
    tournament.save()
    if "starting_stack" in fields and old["starting_stack"] != tournament.starting_stack:
        # Not started yet (checked above), so no hand has been played: every entry holds the starting stack.
        tournament.entries.filter(status=Entry.Status.ACTIVE).update(chips=tournament.starting_stack)
    record_audit(
        actor,
        AuditAction.TOURNAMENT_UPDATE,
        tournament,
        data={
            name: {"before": audit_value(old[name]), "after": audit_value(value)}
            for name, value in fields.items()
        },
    )
    place_late_registration_busts(tournament)
    recompute_prizes(tournament)
    clock_changed(tournament.pk)
    return tournament


@transaction.atomic
def open_registration(tournament: Tournament, *, actor=None) -> Tournament:
    tournament = locked(tournament)
    if tournament.status != Status.PLANNED:
        raise StateError(
            _("cannot open registration: the tournament is %(status)s")
            % {"status": tournament.get_status_display()},
            code="wrong_status",
        )
    tournament.status = Status.REGISTERING
    # A console post made before this (a repeated "open registration") is refused as stale.
    tournament.clock_version += 1
    tournament.save(update_fields=["status", "clock_version"])
    record_audit(actor, AuditAction.TOURNAMENT_OPEN_REGISTRATION, tournament)
    clock_changed(tournament.pk)
    return tournament


@transaction.atomic
def start_tournament(tournament: Tournament, *, actor=None, now: datetime | None = None) -> Tournament:
    """registering -> running: starts the clock at the current level."""
    now = now or timezone.now()
    tournament = locked(tournament)
    if tournament.status != Status.REGISTERING:
        raise StateError(
            _("cannot start: the tournament is %(status)s") % {"status": tournament.get_status_display()},
            code="wrong_status",
        )
    seated = seated_count(tournament)
    if seated == 0:
        raise StateError(_("cannot start: no players seated"), code="no_players")
    if seated == 1:
        raise StateError(_("cannot start: only one player seated"), code="one_player")
    tournament.started_at = now
    store_clock(tournament, clockmath.start(periods_of(tournament), clock_of(tournament), now), now)
    record_audit(actor, AuditAction.TOURNAMENT_START, tournament, data={"players": seated})
    return tournament


@transaction.atomic
def finish_tournament(tournament: Tournament, *, actor=None, now: datetime | None = None) -> Tournament:
    """The last player standing wins; the clock stops; a master seed is revealed (RULES §7)."""
    now = now or timezone.now()
    tournament = locked(tournament)
    if tournament.status not in (Status.RUNNING, Status.ON_BREAK):
        raise StateError(
            _("cannot finish: the tournament is %(status)s") % {"status": tournament.get_status_display()},
            code="wrong_status",
        )
    active = list(tournament.entries.filter(status=Entry.Status.ACTIVE))
    if len(active) > 1:
        raise StateError(
            _("cannot finish: %(count)s players still have chips") % {"count": len(active)},
            code="players_left",
        )
    close_tournament(tournament, active, now)
    record_audit(actor, AuditAction.TOURNAMENT_FINISH, tournament)
    return tournament
