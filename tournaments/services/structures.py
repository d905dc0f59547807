"""Blind structures and their levels: create, copy, edit while no tournament has played them."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .. import chips
from .. import clock as clockmath
from ..audit import AuditAction, record_audit
from ..errors import RuleError, StateError
from ..models import Betting, BlindStructure, Level, Tournament, clock_changed
from ..selectors import clock_of, periods_of
from .common import MAX_STACK, Status


def validate_level(level: Level, betting: str) -> None:
    """The checks every level passes, whoever writes it (API, admin, copies)."""
    errors = {}
    if level.is_break:
        if level.color_up and (
            not isinstance(level.color_up, list)
            or not all(isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in level.color_up)
        ):
            errors["color_up"] = _("List the chip denominations colored up as whole numbers above 0.")
    else:
        if level.big_blind <= 0:
            errors["big_blind"] = _("The big blind must be more than 0.")
        elif level.big_blind > MAX_STACK:
            errors["big_blind"] = _("The big blind is too large.")
        if level.small_blind > level.big_blind:
            errors["small_blind"] = _("The small blind cannot be more than the big blind (R3.2).")
        if level.ante_kind == "none" and level.ante:
            errors["ante"] = _("A level without an ante must have ante 0 (R3.4).")
        if level.ante_kind != "none" and level.ante <= 0:
            errors["ante"] = _("Give the ante amount, or choose no ante (R3.4).")
        if level.ante > level.big_blind * 2:
            errors["ante"] = _("The ante cannot be more than twice the big blind.")
        if betting == Betting.FIXED_LIMIT:
            if level.small_bet != level.big_blind:
                errors["small_bet"] = _("In fixed limit the small bet equals the big blind (R3.3).")
            if level.big_bet != 2 * level.small_bet:
                errors["big_bet"] = _("In fixed limit the big bet is twice the small bet (R3.3).")
        elif level.small_bet or level.big_bet:
            errors["small_bet"] = _("Only fixed-limit levels have a small and big bet.")
        if level.color_up:
            errors["color_up"] = _("Chips are colored up only at breaks (R8.7).")
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def copy_structure(structure: BlindStructure, *, name: str = "", actor=None) -> BlindStructure:
    """A private, editable copy of a structure (templates are never edited in place)."""
    copy = BlindStructure.objects.create(
        name=(name or structure.name)[:100],
        betting=structure.betting,
        is_template=False,
        description=structure.description,
        starting_stack=structure.starting_stack,
        chip_denominations=list(structure.chip_denominations or []),
    )
    Level.objects.bulk_create(
        Level(
            structure=copy,
            order=level.order,
            is_break=level.is_break,
            duration_minutes=level.duration_minutes,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            ante_kind=level.ante_kind,
            small_bet=level.small_bet,
            big_bet=level.big_bet,
            color_up=list(level.color_up or []),
        )
        for level in structure.levels.order_by("order")
    )
    record_audit(actor, AuditAction.STRUCTURE_COPY, copy, data={"from": structure.pk})
    return copy


FIELD_NAMES = {
    "small_blind": _("small blind"),
    "big_blind": _("big blind"),
    "ante": _("ante"),
    "small_bet": _("small bet"),
    "big_bet": _("big bet"),
}


def check_levels_in_chips(levels: list[Level], denominations: list[int]) -> None:
    """R5.7: every amount of every level is a whole number of the smallest chip in play then.

    Refused before anyone plays the structure: the engine would refuse such a hand mid-event.
    """
    if not denominations:
        return  # no chip set given: amounts in single chips
    problems = chips.amounts_not_in_chips(levels, denominations)
    if not problems:
        return
    first = problems[0]
    numbers = clockmath.level_numbers([clockmath.Period(0, level.is_break) for level in levels])
    by_order = {level.order: number for level, number in zip(levels, numbers)}
    raise RuleError(
        _(
            "Level %(level)s: the %(field)s of %(amount)s is not a whole number of the smallest chip in play "
            "then (%(chip)s). Change the level or the chip set (R5.7)."
        )
        % {
            "level": by_order.get(first.level_order, first.level_order + 1),
            "field": FIELD_NAMES[first.field],
            "amount": first.amount,
            "chip": first.smallest_chip,
        },
        code="not_in_chips",
        field="levels",
        rule="R5.7",
        params={
            "level_order": first.level_order,
            "field": first.field,
            "amount": first.amount,
            "smallest_chip": first.smallest_chip,
            "problems": len(problems),
        },
    )


def _check_structure_chips(structure: BlindStructure, tournament: Tournament | None) -> None:
    denominations = tournament.chip_denominations if tournament is not None else structure.chip_denominations
    check_levels_in_chips(list(structure.levels.order_by("order")), denominations)


def _structure_editable(structure: BlindStructure, order: int | None) -> Tournament | None:
    """Templates are read-only; a running tournament's past and current levels are history."""
    if structure.is_template:
        raise StateError(_("Templates cannot be edited: copy the template first."), code="template")
    tournament = Tournament.objects.filter(structure=structure).first()
    if tournament is None:
        return None
    if tournament.status == Status.FINISHED:
        raise StateError(_("The tournament is finished; its levels cannot change."), code="finished")
    if tournament.level_started_at or tournament.paused_at:
        current = clockmath.state(periods_of(tournament), clock_of(tournament), timezone.now()).level_index
        if order is not None and order <= current:
            raise StateError(
                _("Only levels after the current one can be changed while the clock runs."),
                code="level_in_play",
                field="order",
            )
    return tournament


@transaction.atomic
def add_level(structure: BlindStructure, *, actor=None, **fields) -> Level:
    """Add a level (or break) at ``order`` (default: the end), moving later ones down."""
    count = structure.levels.count()
    order = fields.pop("order", None)
    order = count if order is None else order
    if not 0 <= order <= count:
        raise ValidationError(
            {"order": _("The position must be between 0 and %(count)s.") % {"count": count}}
        )
    tournament = _structure_editable(structure, order)
    level = Level(structure=structure, order=order, **fields)
    validate_level(level, structure.betting)
    # Shift in two steps so the unique (structure, order) constraint holds at each statement.
    later = structure.levels.filter(order__gte=order)
    later.update(order=F("order") + 100000)
    structure.levels.filter(order__gte=100000).update(order=F("order") - 100000 + 1)
    level.full_clean(exclude=["structure", "order"])
    level.save()
    _check_structure_chips(structure, tournament)
    _structure_changed(tournament, actor, AuditAction.LEVEL_ADD, level)
    return level


@transaction.atomic
def update_level(level: Level, *, actor=None, **fields) -> Level:
    tournament = _structure_editable(level.structure, level.order)
    for name, value in fields.items():
        setattr(level, name, value)
    validate_level(level, level.structure.betting)
    level.full_clean(exclude=["structure"])
    level.save()
    _check_structure_chips(level.structure, tournament)
    _structure_changed(tournament, actor, AuditAction.LEVEL_UPDATE, level, fields)
    return level


@transaction.atomic
def delete_level(level: Level, *, actor=None) -> None:
    structure = level.structure
    tournament = _structure_editable(structure, level.order)
    if not structure.levels.exclude(pk=level.pk).filter(is_break=False).exists():
        raise StateError(_("A structure needs at least one level of play."), code="last_level")
    order = level.order
    level.delete()
    structure.levels.filter(order__gt=order).update(order=F("order") + 100000)
    structure.levels.filter(order__gte=100000).update(order=F("order") - 100000 - 1)
    _check_structure_chips(structure, tournament)
    _structure_changed(tournament, actor, AuditAction.LEVEL_DELETE, structure, {"order": order})


def _structure_changed(tournament, actor, action, target, data=None):
    record_audit(actor, action, target, data=_jsonable(data or {}), tournament=tournament)
    if tournament is not None:
        # Durations feed the clock: every screen must recompute.
        Tournament.objects.filter(pk=tournament.pk).update(clock_version=F("clock_version") + 1)
        clock_changed(tournament.pk)


def audit_value(value):
    return value if isinstance(value, (int, str, bool, list, type(None), float)) else str(value)


def _jsonable(data: dict) -> dict:
    return {
        k: (v if isinstance(v, (int, str, bool, list, type(None), float)) else str(v))
        for k, v in data.items()
    }


@transaction.atomic
def create_structure(
    *, name: str, betting: str, levels: list[dict], description: str = "", starting_stack: int = 0, actor=None
) -> BlindStructure:
    """A new editable structure from a list of level dicts (in order)."""
    if not any(not fields.get("is_break") for fields in levels):
        raise ValidationError({"levels": _("A structure needs at least one level of play.")})
    structure = BlindStructure.objects.create(
        name=name, betting=betting, description=description, starting_stack=starting_stack
    )
    for order, fields in enumerate(levels):
        fields = {k: v for k, v in fields.items() if k != "order"}
        level = Level(structure=structure, order=order, **fields)
        try:
            validate_level(level, betting)
            level.full_clean(exclude=["structure"])
        except ValidationError as exc:
            raise ValidationError({f"levels.{order}.{k}": v for k, v in exc.message_dict.items()}) from exc
        level.save()
    record_audit(actor, AuditAction.STRUCTURE_CREATE, structure)
    return structure
