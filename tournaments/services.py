"""Every write of the tournaments app: plain functions, each in one transaction.

Views, tasks and other apps call these; nothing else changes a tournament, an entry or a clock.
Errors are ``TournamentError`` subclasses with a translated message, a ``code`` and the field or
rule concerned; the API turns ``StateError`` into 409, ``RuleError`` into 422 and Django's
``ValidationError`` into 400.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from dealing.engine import seed_commitment
from tables import services as tables_services
from tables.models import Seat, Table

from . import chiprace
from . import clock as clockmath
from . import payouts as payoutmath
from .audit import AuditAction, record_audit
from .errors import RuleError, StateError
from .models import Betting, BlindStructure, Entry, Level, Player, Tournament, tournament_changed

MAX_CHIPS = 10**12
MAX_STACK = 10**9
Status = Tournament.Status


# ---------------------------------------------------------------- structures


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
    _structure_changed(tournament, actor, AuditAction.LEVEL_DELETE, structure, {"order": order})


def _structure_changed(tournament, actor, action, target, data=None):
    record_audit(actor, action, target, data=_jsonable(data or {}), tournament=tournament)
    if tournament is not None:
        # Durations feed the clock: every screen must recompute.
        Tournament.objects.filter(pk=tournament.pk).update(clock_version=F("clock_version") + 1)
        tournament_changed(tournament.pk)


def _plain(value):
    return value if isinstance(value, (int, str, bool, list, type(None), float)) else str(value)


def _jsonable(data: dict) -> dict:
    return {
        k: (v if isinstance(v, (int, str, bool, list, type(None), float)) else str(v))
        for k, v in data.items()
    }


# ---------------------------------------------------------------- tournaments


@transaction.atomic
def create_tournament(*, structure: BlindStructure, actor=None, **fields) -> Tournament:
    """A new tournament with its own copy of ``structure`` (a template or another structure)."""
    betting = fields.get("betting") or structure.betting
    if structure.betting != betting:
        raise ValidationError({"structure": _("The structure is for a different betting structure.")})
    if not structure.levels.filter(is_break=False).exists():
        raise ValidationError({"structure": _("The structure has no levels of play.")})
    fields["betting"] = betting
    tournament = Tournament(structure=structure, **fields)
    tournament.full_clean(exclude=["structure"])
    _check_tournament_fields(tournament)
    tournament.structure = copy_structure(structure, name=fields.get("name", ""), actor=actor)
    if tournament.seeding == Tournament.Seeding.MASTER:
        tournament.master_seed = secrets.token_bytes(32)
        tournament.master_seed_commitment = seed_commitment(tournament.master_seed)
    tournament.save()
    record_audit(actor, AuditAction.TOURNAMENT_CREATE, tournament)
    tournament_changed(tournament.pk)
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


EDITABLE_WHILE_RUNNING = {
    "name",
    "late_registration_until_level",
    "max_reentries",
    "rebuys_allowed",
    "guarantee",
    "payout_percentages",
    "percent_paid",
    "payout_unit",
}


@transaction.atomic
def update_tournament(tournament: Tournament, *, actor=None, **fields) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
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
    if "seeding" in fields and fields["seeding"] != tournament.seeding:
        raise ValidationError({"seeding": _("The seeding mode is fixed when the tournament is created.")})
    if "betting" in fields and fields["betting"] != tournament.betting:
        raise ValidationError({"betting": _("The betting structure is fixed with the blind structure.")})
    old = {name: getattr(tournament, name) for name in fields}
    for name, value in fields.items():
        setattr(tournament, name, value)
    tournament.full_clean()
    _check_tournament_fields(tournament)
    tournament.save()
    if "starting_stack" in fields and old["starting_stack"] != tournament.starting_stack:
        # Not started yet (checked above), so no hand has been played: every entry holds the starting stack.
        tournament.entries.filter(status=Entry.Status.ACTIVE).update(chips=tournament.starting_stack)
    record_audit(
        actor,
        AuditAction.TOURNAMENT_UPDATE,
        tournament,
        data={name: {"before": _plain(old[name]), "after": _plain(value)} for name, value in fields.items()},
    )
    place_late_registration_busts(tournament)
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return tournament


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def open_registration(tournament: Tournament, *, actor=None) -> Tournament:
    tournament = _locked(tournament)
    if tournament.status != Status.PLANNED:
        raise StateError(
            _("cannot open registration: the tournament is %(status)s")
            % {"status": tournament.get_status_display()},
            code="wrong_status",
        )
    tournament.status = Status.REGISTERING
    tournament.save(update_fields=["status"])
    record_audit(actor, AuditAction.TOURNAMENT_OPEN_REGISTRATION, tournament)
    tournament_changed(tournament.pk)
    return tournament


def seated_count(tournament: Tournament) -> int:
    """Players in a seat."""
    return Seat.objects.filter(
        table__tournament=tournament, entry__isnull=False, entry__status=Entry.Status.ACTIVE
    ).count()


@transaction.atomic
def start_tournament(tournament: Tournament, *, actor=None, now: datetime | None = None) -> Tournament:
    """registering -> running: starts the clock at the current level."""
    now = now or timezone.now()
    tournament = _locked(tournament)
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
    _store_clock(tournament, clockmath.start(periods_of(tournament), clock_of(tournament), now), now)
    record_audit(actor, AuditAction.TOURNAMENT_START, tournament, data={"players": seated})
    return tournament


@transaction.atomic
def finish_tournament(tournament: Tournament, *, actor=None, now: datetime | None = None) -> Tournament:
    """The last player standing wins; the clock stops; a master seed is revealed (RULES §7)."""
    now = now or timezone.now()
    tournament = _locked(tournament)
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
    _finish(tournament, active, now)
    record_audit(actor, AuditAction.TOURNAMENT_FINISH, tournament)
    return tournament


def place_late_registration_busts(tournament: Tournament, now: datetime | None = None) -> int:
    """Give places to entries that busted while late registration was open, once it has closed (R8.8).

    They finish below everyone still in and everyone who busted later: with E entries and P such
    busts, places E-P+1..E, a later bust finishing higher; on one hand, more chips at its start finish
    higher and equal chips share (R8.6). Idempotent: only unplaced busts are placed. Returns how many.
    """
    if registration_open(tournament, now):
        return 0
    pending = list(
        tournament.entries.select_for_update()
        .filter(status=Entry.Status.BUSTED, place__isnull=True)
        .order_by("-busted_at", "-chips_at_start_of_bust_hand", "pk")
    )
    if not pending:
        return 0
    place = tournament.entries.count() - len(pending) + 1
    i = 0
    while i < len(pending):
        key = (pending[i].busted_at, pending[i].chips_at_start_of_bust_hand)
        group = [e for e in pending[i:] if (e.busted_at, e.chips_at_start_of_bust_hand) == key]
        for entry in group:
            entry.place = place
            entry.place_shared_to = place + len(group) - 1 if len(group) > 1 else None
        place += len(group)
        i += len(group)
    Entry.objects.bulk_update(pending, ["place", "place_shared_to"])
    record_audit(
        None,
        AuditAction.ENTRIES_PLACE_LATE_REGISTRATION_BUSTS,
        tournament,
        data={"places": {e.pk: e.place for e in pending}},
    )
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return len(pending)


def _finish(tournament: Tournament, active: list[Entry], now: datetime) -> None:
    for winner in active:
        winner.place = 1
        winner.place_shared_to = None
        winner.save(update_fields=["place", "place_shared_to"])
    periods = periods_of(tournament)
    current = clockmath.state(periods, clock_of(tournament), now)
    tournament.status = Status.FINISHED
    tournament.finished_at = now
    if current.running:
        tournament.paused_at = now
        tournament.remaining_when_paused = current.remaining
        tournament.level_index = current.level_index
    tournament.clock_version += 1
    tournament.save()
    place_late_registration_busts(tournament, now)
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)


# ---------------------------------------------------------------- the clock


def periods_of(tournament: Tournament) -> list[clockmath.Period]:
    return [
        clockmath.Period(seconds=level.duration_minutes * 60, is_break=level.is_break)
        for level in tournament.structure.levels.order_by("order")
    ]


def clock_of(tournament: Tournament) -> clockmath.Clock:
    return clockmath.Clock(
        level_index=tournament.level_index,
        level_started_at=tournament.level_started_at,
        paused_at=tournament.paused_at,
        remaining_when_paused=tournament.remaining_when_paused,
    )


def clock_state(tournament: Tournament, now: datetime | None = None) -> clockmath.ClockState:
    return clockmath.state(periods_of(tournament), clock_of(tournament), now or timezone.now())


def _store_clock(tournament: Tournament, new: clockmath.Clock, now: datetime, **extra) -> None:
    """Save a new clock: bump the version, follow breaks with the status, tell the screens."""
    tournament.level_index = new.level_index
    tournament.level_started_at = new.level_started_at
    tournament.paused_at = new.paused_at
    tournament.remaining_when_paused = new.remaining_when_paused
    for name, value in extra.items():
        setattr(tournament, name, value)
    if tournament.status != Status.FINISHED:
        periods = periods_of(tournament)
        is_break = clockmath.state(periods, new, now).is_break
        tournament.status = Status.ON_BREAK if is_break else Status.RUNNING
    tournament.clock_version += 1
    tournament.save()
    tournament_changed(tournament.pk)
    place_late_registration_busts(tournament, now)


def _clock_op(tournament: Tournament, op, *args, actor=None, action: str, now=None, data=None, **extra):
    now = now or timezone.now()
    tournament = _locked(tournament)
    if tournament.status not in (Status.RUNNING, Status.ON_BREAK):
        raise StateError(
            _("The clock can only be changed while the tournament runs (it is %(status)s).")
            % {"status": tournament.get_status_display()},
            code="wrong_status",
        )
    try:
        new = op(periods_of(tournament), clock_of(tournament), now, *args)
    except clockmath.ClockError as exc:
        raise StateError(_clock_message(exc), code=exc.code, rule=exc.rule, params=exc.params) from exc
    _store_clock(tournament, new, now, **extra)
    record_audit(actor, action, tournament, data=data)
    return tournament


def _clock_message(exc: clockmath.ClockError):
    messages = {
        "already_started": _("The clock has already been started."),
        "not_running": _("The clock is not running."),
        "not_paused": _("The clock is not paused."),
        "not_started": _("The clock has not been started."),
        "not_enough_time": _("Cannot remove more time than is left in the level."),
        "too_much_time": _("A level cannot have more than 24 hours left."),
        "no_such_level": _("There is no level at that position."),
        "hand_for_hand": _("Hand-for-hand is on: the clock moves only as rounds finish (R8.6)."),
    }
    return messages.get(exc.code, exc.message)


def _not_hand_for_hand(tournament):
    if tournament.hand_for_hand:
        raise StateError(
            _clock_message(clockmath.ClockError("hand_for_hand", "")), code="hand_for_hand", rule="R8.6"
        )


@transaction.atomic
def pause_clock(tournament, *, actor=None, now=None):
    tournament = _locked(tournament)
    _not_hand_for_hand(tournament)
    return _clock_op(tournament, clockmath.pause, actor=actor, action=AuditAction.CLOCK_PAUSE, now=now)


@transaction.atomic
def resume_clock(tournament, *, actor=None, now=None):
    tournament = _locked(tournament)
    _not_hand_for_hand(tournament)
    return _clock_op(tournament, clockmath.resume, actor=actor, action=AuditAction.CLOCK_RESUME, now=now)


@transaction.atomic
def add_time(tournament, seconds: int, *, actor=None, now=None):
    return _clock_op(
        tournament,
        clockmath.add_time,
        seconds,
        actor=actor,
        action=AuditAction.CLOCK_ADD_TIME,
        now=now,
        data={"seconds": seconds},
    )


@transaction.atomic
def jump_to_level(tournament, index: int, *, actor=None, now=None):
    count = tournament.structure.levels.count()
    if not 0 <= index < count:
        raise ValidationError(
            {
                "level_index": _("There is no level at position %(index)s (0 to %(last)s).")
                % {"index": index, "last": count - 1}
            }
        )
    return _clock_op(
        tournament,
        clockmath.jump,
        index,
        actor=actor,
        action=AuditAction.CLOCK_JUMP,
        now=now,
        data={"level_index": index},
    )


@transaction.atomic
def set_hand_for_hand(tournament, on: bool, *, actor=None, now=None):
    """Hand-for-hand on pauses the clock; off resumes it (R8.6), unless the director had paused it
    before hand-for-hand began."""
    now = now or timezone.now()
    tournament = _locked(tournament)
    if bool(tournament.hand_for_hand) == bool(on):
        raise StateError(
            _("Hand-for-hand is already on.") if on else _("Hand-for-hand is already off."),
            code="unchanged",
            field="on",
            rule="R8.6",
        )

    paused_before = tournament.paused_at is not None

    def toggle(periods, clock, when):
        if on:
            return clockmath.pause(periods, clock, when) if clock.running else clock
        if tournament.paused_before_hand_for_hand:
            return clock
        return clockmath.resume(periods, clock, when) if clock.paused else clock

    return _clock_op(
        tournament,
        toggle,
        actor=actor,
        action=AuditAction.CLOCK_HAND_FOR_HAND,
        now=now,
        data={"on": on},
        hand_for_hand=on,
        hand_for_hand_round_started_at=now if on else None,
        paused_before_hand_for_hand=paused_before if on else False,
    )


@transaction.atomic
def hand_for_hand_round_finished(tournament, *, now=None, actor=None, round_started_at=None) -> Tournament:
    """Every table finished its hand-for-hand hand: the clock loses that round's time, at most 2 min (R8.6).

    The ticker calls this when it sees the round complete (``dealing.hand_for_hand``), passing the
    round start it saw, so a second ticker that saw the same round changes nothing; the director can
    also call it (API ``clock/hand-for-hand-round/``).
    """
    now = now or timezone.now()
    tournament = _locked(tournament)
    if not tournament.hand_for_hand:
        raise StateError(_("Hand-for-hand is off."), code="hand_for_hand_off", rule="R8.6")
    if round_started_at is not None and tournament.hand_for_hand_round_started_at != round_started_at:
        return tournament  # someone else already closed this round
    started = tournament.hand_for_hand_round_started_at or now
    seconds = max(0.0, (now - started).total_seconds())

    def deduct(periods, clock, when):
        return clockmath.hand_for_hand_round(periods, clock, seconds)

    return _clock_op(
        tournament,
        deduct,
        actor=actor,
        action=AuditAction.CLOCK_HAND_FOR_HAND_ROUND,
        now=now,
        data={"seconds": round(seconds, 1)},
        hand_for_hand_round_started_at=now,
    )


def advance_clock(tournament: Tournament, now: datetime | None = None) -> bool:
    """Write levels that elapsed into the stored clock, by compare-and-set on ``clock_version``.

    Returns whether this call changed anything. Twice, late or after a restart, the result is the
    same: the stored clock is a pure function of the old one and ``now``.
    """
    now = now or timezone.now()
    if tournament.status not in (Status.RUNNING, Status.ON_BREAK):
        return False
    periods = periods_of(tournament)
    old = clock_of(tournament)
    new = clockmath.advance(periods, old, now)
    is_break = clockmath.state(periods, new, now).is_break
    status = Status.ON_BREAK if is_break else Status.RUNNING
    if new == old and status == tournament.status:
        return False
    with transaction.atomic():
        updated = Tournament.objects.filter(pk=tournament.pk, clock_version=tournament.clock_version).update(
            level_index=new.level_index,
            level_started_at=new.level_started_at,
            status=status,
            clock_version=F("clock_version") + 1,
        )
        if updated:
            tournament_changed(tournament.pk)
            fresh = Tournament.objects.select_for_update().get(pk=tournament.pk)
            place_late_registration_busts(fresh, now)
    return bool(updated)


def level_for_next_hand(tournament: Tournament, now: datetime | None = None) -> Level:
    """The level a hand dealt now is played at (R8.2): the clock's level, never a break.

    During a break (or when the clock sits on one) it is the first level after the break.
    """
    levels = list(tournament.structure.levels.order_by("order"))
    periods = [clockmath.Period(level.duration_minutes * 60, level.is_break) for level in levels]
    index = clockmath.state(periods, clock_of(tournament), now or timezone.now()).level_index
    return levels[clockmath.play_index_for_next_hand(periods, index)]


def registration_open(tournament: Tournament, now: datetime | None = None) -> bool:
    """Before the start, and until the end of level ``late_registration_until_level`` and the break after it."""
    if tournament.status == Status.REGISTERING:
        return True
    if tournament.status not in (Status.RUNNING, Status.ON_BREAK):
        return False
    periods = periods_of(tournament)
    index = clockmath.state(periods, clock_of(tournament), now or timezone.now()).level_index
    number = 0
    for i in range(index, -1, -1):  # the current level, or the level before this break
        number = clockmath.level_number(periods, i) or 0
        if number:
            break
    return number <= tournament.late_registration_until_level


# ---------------------------------------------------------------- players and entries


def _seat_if_drawn(entry: Entry) -> None:
    """A late entry gets a seat at once (R8.1) when the tables are already drawn."""
    if (
        Table.objects.filter(tournament=entry.tournament).exists()
        and not Seat.objects.filter(entry=entry).exists()
    ):
        tables_services.seat_entry(entry)


def _not_in_a_hand(entry: Entry) -> None:
    """Chips change only between hands: the dealing service writes each stack back when the hand
    ends, so a rebuy, add-on or recount made while the player's table is mid-hand would be lost."""
    seat = Seat.objects.select_related("table").filter(entry=entry, table__hand_in_progress=True).first()
    if seat is not None:
        raise StateError(
            _("%(entry)s is in a hand at table %(table)s: change the chips when that hand is over.")
            % {"entry": entry, "table": seat.table.number},
            code="in_a_hand",
        )


@transaction.atomic
def register(tournament: Tournament, player: Player, *, actor=None, now=None) -> Entry:
    """A first entry or a re-entry (a new Entry, full starting stack)."""
    tournament = _locked(tournament)
    if not registration_open(tournament, now):
        raise StateError(_("Registration is closed."), code="registration_closed")
    entries = list(tournament.entries.filter(player=player).order_by("number"))
    if any(e.status == Entry.Status.ACTIVE for e in entries):
        raise StateError(
            _("%(player)s already has chips in this tournament.") % {"player": player},
            code="already_active",
            field="player",
        )
    if entries:
        if tournament.status == Status.REGISTERING:
            raise StateError(_("Re-entries open when the tournament starts."), code="reentry_closed")
        if len(entries) - 1 >= tournament.max_reentries:
            raise RuleError(
                _("%(player)s has used all %(count)s re-entries.")
                % {"player": player, "count": tournament.max_reentries},
                code="no_reentries_left",
                field="player",
            )
    entry = Entry.objects.create(
        tournament=tournament,
        player=player,
        number=(entries[-1].number + 1) if entries else 1,
        chips=tournament.starting_stack,
    )
    _seat_if_drawn(entry)
    record_audit(actor, AuditAction.ENTRY_REENTER if entries else AuditAction.ENTRY_REGISTER, entry)
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return entry


@transaction.atomic
def rebuy(entry: Entry, *, actor=None, now=None) -> Entry:
    """Add the rebuy stack to an entry at or below the starting stack, during late registration."""
    tournament = _locked(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    _not_in_a_hand(entry)
    if tournament.rebuys_allowed == 0:
        raise RuleError(_("This tournament has no rebuys."), code="no_rebuys")
    if entry.status != Entry.Status.ACTIVE:
        raise StateError(_("A busted player comes back with a re-entry, not a rebuy."), code="busted")
    if not registration_open(tournament, now) or tournament.status == Status.REGISTERING:
        raise StateError(_("Rebuys are possible only during late registration."), code="rebuy_closed")
    if entry.rebuys >= tournament.rebuys_allowed:
        raise RuleError(
            _("All %(count)s rebuys are used.") % {"count": tournament.rebuys_allowed}, code="no_rebuys_left"
        )
    if entry.chips > tournament.starting_stack:
        raise RuleError(
            _("A rebuy is possible only at or below the starting stack."),
            code="too_many_chips",
            field="chips",
        )
    entry.chips += tournament.rebuy_stack or tournament.starting_stack
    entry.rebuys += 1
    entry.save(update_fields=["chips", "rebuys"])
    record_audit(actor, AuditAction.ENTRY_REBUY, entry, data={"chips": entry.chips})
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return entry


@transaction.atomic
def addon(entry: Entry, *, actor=None, now=None) -> Entry:
    tournament = _locked(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    _not_in_a_hand(entry)
    if not tournament.addon_allowed:
        raise RuleError(_("This tournament has no add-on."), code="no_addon")
    if entry.status != Entry.Status.ACTIVE:
        raise StateError(_("Only a player with chips can take the add-on."), code="busted")
    if entry.addon_taken:
        raise RuleError(_("The add-on has already been taken."), code="addon_taken")
    if not registration_open(tournament, now):
        raise StateError(_("The add-on is over (it closes with late registration)."), code="addon_closed")
    entry.chips += tournament.addon_stack or tournament.starting_stack
    entry.addon_taken = True
    entry.save(update_fields=["chips", "addon_taken"])
    record_audit(actor, AuditAction.ENTRY_ADDON, entry, data={"chips": entry.chips})
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return entry


@transaction.atomic
def set_chips(entry: Entry, chips: int, *, reason: str, actor=None) -> Entry:
    """A director's count correction. Hands write stacks themselves; this is for the floor."""
    if isinstance(chips, bool) or not isinstance(chips, int) or not 0 <= chips <= MAX_CHIPS:
        raise ValidationError(
            {"chips": _("Chips must be a whole number from 0 to %(max)s.") % {"max": MAX_CHIPS}}
        )
    if not reason.strip():
        raise ValidationError({"reason": _("Say why the count changes.")})
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    _not_in_a_hand(entry)
    if entry.status != Entry.Status.ACTIVE:
        raise StateError(_("The entry is busted: undo the bust first."), code="busted")
    if entry.tournament.status == Status.FINISHED:
        raise StateError(_("The tournament is finished."), code="finished")
    before = entry.chips
    entry.chips = chips
    entry.save(update_fields=["chips"])
    record_audit(actor, AuditAction.ENTRY_SET_CHIPS, entry, reason, {"before": before, "after": chips})
    tournament_changed(entry.tournament_id)
    return entry


@transaction.atomic
def bust_entries(
    tournament: Tournament,
    busts: list[tuple[Entry, int]],
    *,
    actor=None,
    hand_label: str = "",
    now: datetime | None = None,
) -> list[Entry]:
    """Players out of chips after one hand get their places (R8.8, R8.6).

    ``busts`` pairs each entry (0 chips) with its chips at the start of the hand. With N players in
    before the hand and k busting, they take places N-k+1..N: more starting chips, better place;
    equal starting chips share the places (and later split their prizes). While late registration
    is open the field is not final, so those busts are placed when it closes
    (``place_late_registration_busts``). When one player is left and registration is over, the
    tournament is finished.
    """
    now = now or timezone.now()
    tournament = _locked(tournament)
    if tournament.status not in (Status.RUNNING, Status.ON_BREAK):
        raise StateError(_("Players bust only while the tournament runs."), code="wrong_status")
    if not busts:
        raise ValidationError({"busts": _("Name at least one entry.")})
    ids = [entry.pk for entry, _chips in busts]
    if len(set(ids)) != len(ids):
        raise ValidationError({"busts": _("An entry is listed twice.")})
    fresh = Entry.objects.select_for_update().in_bulk(ids)
    pairs = []
    for entry, start_chips in busts:
        current = fresh.get(entry.pk)
        if current is None or current.tournament_id != tournament.pk:
            raise ValidationError({"busts": _("Entry %(id)s is not in this tournament.") % {"id": entry.pk}})
        if current.status != Entry.Status.ACTIVE:
            raise StateError(
                _("%(entry)s is already out.") % {"entry": current}, code="already_busted", field="busts"
            )
        if current.chips != 0:
            raise RuleError(
                _("%(entry)s still has %(chips)s chips and cannot bust (R8.8).")
                % {"entry": current, "chips": current.chips},
                code="has_chips",
                field="busts",
                rule="R8.8",
            )
        if (
            isinstance(start_chips, bool)
            or not isinstance(start_chips, int)
            or not 0 < start_chips <= MAX_CHIPS
        ):
            raise ValidationError(
                {
                    "busts": _("Chips at the start of the hand must be a whole number above 0 for %(entry)s.")
                    % {"entry": current}
                }
            )
        pairs.append((current, start_chips))

    # While late registration is open the field is not final: those busts are placed when it closes.
    placing = not registration_open(tournament, now)
    if placing:
        place_late_registration_busts(tournament, now)
    players_left = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    place = players_left - len(pairs) + 1  # the best place this hand's busts can take
    pairs.sort(key=lambda pair: (-pair[1], pair[0].pk))
    i = 0
    while i < len(pairs):
        group = [pair for pair in pairs[i:] if pair[1] == pairs[i][1]]
        for entry, start_chips in group:
            entry.status = Entry.Status.BUSTED
            entry.place = place if placing else None
            entry.place_shared_to = place + len(group) - 1 if placing and len(group) > 1 else None
            entry.chips_at_start_of_bust_hand = start_chips
            entry.bust_hand_label = hand_label[:100]
            entry.busted_at = now
            entry.save(
                update_fields=[
                    "status",
                    "place",
                    "place_shared_to",
                    "chips_at_start_of_bust_hand",
                    "bust_hand_label",
                    "busted_at",
                ]
            )
            record_audit(
                actor,
                AuditAction.ENTRY_BUST,
                entry,
                data={
                    "place": entry.place,
                    "shared_to": entry.place_shared_to,
                    "chips_at_start": start_chips,
                    "hand": hand_label,
                },
            )
        place += len(group)
        i += len(group)

    remaining = list(tournament.entries.filter(status=Entry.Status.ACTIVE))
    if len(remaining) <= 1 and not registration_open(tournament, now):
        _finish(tournament, remaining, now)
    else:
        recompute_prizes(tournament)
        tournament_changed(tournament.pk)
        tables_services.release_and_rebalance(tournament)
    return [pair[0] for pair in pairs]


@transaction.atomic
def undo_bust(entry: Entry, *, reason: str, chips: int | None = None, actor=None) -> Entry:
    """Put a busted entry back in with ``chips`` (default: its chips at the start of the bust hand)."""
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the bust is undone.")})
    tournament = _locked(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != Entry.Status.BUSTED:
        raise StateError(_("%(entry)s is not busted.") % {"entry": entry}, code="not_busted")
    if tournament.status == Status.FINISHED:
        raise StateError(_("The tournament is finished; its results stand."), code="finished")
    if tournament.entries.filter(player_id=entry.player_id, status=Entry.Status.ACTIVE).exists():
        raise StateError(
            _("%(player)s has re-entered and already has chips in this tournament.")
            % {"player": entry.player},
            code="already_active",
            field="player",
        )
    if chips is None:
        chips = entry.chips_at_start_of_bust_hand or 0
    if isinstance(chips, bool) or not isinstance(chips, int) or not 0 < chips <= MAX_CHIPS:
        raise ValidationError({"chips": _("Give the chips the player has, a whole number above 0.")})
    if entry.place is not None:
        _close_place_gap(tournament, entry)
    before = {"place": entry.place, "shared_to": entry.place_shared_to, "hand": entry.bust_hand_label}
    entry.status = Entry.Status.ACTIVE
    entry.chips = chips
    entry.place = None
    entry.place_shared_to = None
    entry.prize = 0
    entry.busted_at = None
    entry.save(update_fields=["status", "chips", "place", "place_shared_to", "prize", "busted_at"])
    _seat_if_drawn(entry)
    record_audit(actor, AuditAction.ENTRY_UNDO_BUST, entry, reason, {**before, "chips": chips})
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return entry


def _close_place_gap(tournament: Tournament, undone: Entry) -> None:
    """The undone entry is back in, so everyone placed above it busted with one more player left than
    counted: each drops one place; its own shared group loses one member (R8.8, R8.6)."""
    above = list(
        tournament.entries.select_for_update()
        .filter(place__isnull=False, place__lte=undone.place)
        .exclude(pk=undone.pk)
    )
    for entry in above:
        if entry.place_shared_to is not None and entry.place < undone.place:
            entry.place_shared_to += 1
        entry.place += 1
        if entry.place_shared_to is not None and entry.place_shared_to <= entry.place:
            entry.place_shared_to = None
    Entry.objects.bulk_update(above, ["place", "place_shared_to"])


# ---------------------------------------------------------------- prizes


def prize_pool(tournament: Tournament) -> int:
    """Buy-ins (without the fee), rebuys and add-ons, or the guarantee if that is more."""
    totals = tournament.entries.aggregate(
        entries=models.Count("id"),
        rebuys=Sum("rebuys"),
        addons=models.Count("id", filter=models.Q(addon_taken=True)),
    )
    collected = (
        totals["entries"] * tournament.buy_in
        + (totals["rebuys"] or 0) * tournament.rebuy_price
        + totals["addons"] * tournament.addon_price
    )
    return max(collected, tournament.guarantee)


def payout_shares(tournament: Tournament, field_size: int | None = None) -> list[Fraction]:
    if field_size is None:
        field_size = tournament.entries.count()
    if tournament.payout_percentages:
        shares = payoutmath.check_percentages(tournament.payout_percentages)
        if 0 < field_size < len(shares):
            # More places than entries: nobody could win the places below the field, so the places
            # there are share the whole pool in the same proportions.
            shares = [share / sum(shares[:field_size]) for share in shares[:field_size]]
        return shares
    return payoutmath.default_percentages(payoutmath.places_paid(field_size, tournament.percent_paid))


def payout_table(tournament: Tournament) -> list[int]:
    """Prize by place (index 0 is first) for the field as it stands."""
    return payoutmath.payout_amounts(
        prize_pool(tournament), payout_shares(tournament), tournament.payout_unit
    )


def recompute_prizes(tournament: Tournament) -> None:
    """Each placed entry's prize from the current table; shared places split their prizes (R8.6)."""
    amounts = payout_table(tournament)
    placed = list(tournament.entries.filter(place__isnull=False).order_by("place", "pk"))
    changed = []
    groups: dict[tuple[int, int], list[Entry]] = {}
    for entry in placed:
        groups.setdefault((entry.place, entry.place_shared_to or entry.place), []).append(entry)
    for (first, last), members in groups.items():
        padded = amounts + [0] * max(0, last - len(amounts))
        shares = payoutmath.split_shared(padded, first, last)
        # Fewer members than places (an undone bust): each still gets an equal share of the range.
        for entry, prize in zip(members, shares):
            if entry.prize != prize:
                entry.prize = prize
                changed.append(entry)
    active_with_prize = tournament.entries.filter(place__isnull=True).exclude(prize=0)
    for entry in active_with_prize:
        entry.prize = 0
        changed.append(entry)
    if changed:
        Entry.objects.bulk_update(changed, ["prize"])


def master_seed_hex(tournament: Tournament) -> str | None:
    """The master seed, only once the tournament is over (RULES §7)."""
    if tournament.status != Status.FINISHED or not tournament.master_seed:
        return None
    return bytes(tournament.master_seed).hex()


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


@transaction.atomic
def color_up(tournament: Tournament, *, actor=None, rng=None, now=None) -> chiprace.RaceResult:
    """At a break, take the break's colored-up chips out of play and race off the odd chips (R8.7).

    Done once per break, between hands (no table may have a hand running), in seat order when the
    tables app has seats. The new smallest chip is what pots are split in from then on (R6.5).
    """
    tournament = _locked(tournament)
    if tournament.status != Status.ON_BREAK:
        raise StateError(_("Chips are colored up only at a break (R8.7)."), code="not_on_break", rule="R8.7")
    level = tournament.structure.levels.get(order=clock_state(tournament, now).level_index)
    leaving = sorted(set(level.color_up or []))
    if not leaving:
        raise StateError(_("This break has no color-up."), code="no_color_up", rule="R8.7")
    denominations = sorted(tournament.chip_denominations or [])
    if not denominations:
        raise StateError(
            _("Set the tournament's chip denominations first."),
            code="no_denominations",
            field="chip_denominations",
        )
    if not set(leaving) & set(denominations):
        raise StateError(_("These chips are already colored up."), code="already_colored_up", rule="R8.7")
    staying = [chip for chip in denominations if chip not in leaving]
    if not staying:
        raise StateError(_("A color-up cannot take every chip out of play."), code="no_chips_left")
    if Table.objects.filter(tournament=tournament, hand_in_progress=True).exists():
        raise StateError(
            _("A hand is still running: color up when every table has finished."),
            code="hand_running",
            rule="R8.7",
        )
    seat_order = {
        entry_id: i
        for i, entry_id in enumerate(
            Seat.objects.filter(table__tournament=tournament, entry__isnull=False)
            .order_by("table__number", "number")
            .values_list("entry_id", flat=True)
        )
    }
    entries = sorted(
        tournament.entries.select_for_update().filter(status=Entry.Status.ACTIVE),
        key=lambda e: (seat_order.get(e.pk, len(seat_order)), e.pk),
    )
    old_unit = tournament.smallest_chip or denominations[0]
    new_unit = staying[0]
    if new_unit % old_unit:
        raise StateError(
            _("The new smallest chip must be a multiple of the old one."),
            code="bad_denominations",
            field="chip_denominations",
        )
    result = chiprace.chip_race([(e.pk, e.chips) for e in entries], old_unit, new_unit, rng)
    changed = []
    for entry in entries:
        if entry.chips != result.stacks[entry.pk]:
            entry.chips = result.stacks[entry.pk]
            changed.append(entry)
    Entry.objects.bulk_update(changed, ["chips"])
    tournament.chip_denominations = staying
    tournament.smallest_chip = new_unit
    tournament.save(update_fields=["chip_denominations", "smallest_chip"])
    record_audit(
        actor,
        AuditAction.TOURNAMENT_COLOR_UP,
        tournament,
        data={
            "removed": leaving,
            "smallest_chip": new_unit,
            "race_winners": result.winners,
            "saved": result.saved,
        },
    )
    tournament_changed(tournament.pk)
    return result
