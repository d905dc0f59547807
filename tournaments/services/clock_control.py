"""The clock: pause, resume, add time, jump, hand-for-hand on/off and its rounds (R8.6), and
``advance_clock`` by compare-and-set on ``clock_version`` (the beat task's write)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .. import clock as clockmath
from ..audit import AuditAction, record_audit
from ..errors import RuleError, StateError
from ..flight_selectors import day_stop_index
from ..models import Tournament, clock_changed
from ..selectors import clock_of, periods_of
from .common import Status, locked
from .entries import place_late_registration_busts


def store_clock(tournament: Tournament, new: clockmath.Clock, now: datetime, **extra) -> None:
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
    clock_changed(tournament.pk)
    place_late_registration_busts(tournament, now)


def clock_op(tournament: Tournament, op, *args, actor=None, action: str, now=None, data=None, **extra):
    now = now or timezone.now()
    tournament = locked(tournament)
    if tournament.status not in (Status.RUNNING, Status.ON_BREAK):
        raise StateError(
            _("The clock can only be changed while the tournament runs (it is %(status)s).")
            % {"status": tournament.get_status_display()},
            code="wrong_status",
        )
    try:
        new = op(periods_of(tournament), clock_of(tournament), now, *args)
    except clockmath.ClockError as exc:
        # Too much time added or removed breaks a rule (422, with the range); the rest is the state.
        error = RuleError if exc.code in CLOCK_RULE_CODES else StateError
        raise error(_clock_message(exc), code=exc.code, rule=exc.rule, params=exc.params) from exc
    store_clock(tournament, new, now, **extra)
    record_audit(actor, action, tournament, data=data)
    return tournament


CLOCK_RULE_CODES = {"not_enough_time", "too_much_time"}


def expect_clock_version(tournament: Tournament, expected: int | None) -> None:
    """A change made against another clock version is refused (409 ``clock_moved``): a repeated or
    stale request changes nothing. Call it with the tournament row locked."""
    if expected is not None and tournament.clock_version != expected:
        raise StateError(
            _(
                "The clock has already moved since this was sent: nothing was changed. Check the clock and try again."
            ),
            code="clock_moved",
            field="clock_version",
            params={"clock_version": tournament.clock_version, "expected": expected},
        )


@transaction.atomic
def change_clock(tournament: Tournament, operation, *args, expected_version: int | None = None, **kwargs):
    """Run a clock or lifecycle ``operation`` only if the clock is still at ``expected_version``
    (None: whatever it is), in one transaction with the tournament locked."""
    tournament = locked(tournament)
    expect_clock_version(tournament, expected_version)
    return operation(tournament, *args, **kwargs)


def _clock_message(exc: clockmath.ClockError):
    params = exc.params
    if exc.code == "not_enough_time":
        return (
            _(
                "Cannot remove more time than is left in the level (%(remaining)s s): add from %(minimum)s to "
                "%(maximum)s seconds."
            )
            % params
        )
    if exc.code == "too_much_time":
        return (
            _(
                "A level cannot have more time left than its own length (%(length)s s): add from %(minimum)s "
                "to %(maximum)s seconds."
            )
            % params
        )
    messages = {
        "already_started": _("The clock has already been started."),
        "not_running": _("The clock is not running."),
        "not_paused": _("The clock is not paused."),
        "not_started": _("The clock has not been started."),
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
    tournament = locked(tournament)
    _not_hand_for_hand(tournament)
    return clock_op(tournament, clockmath.pause, actor=actor, action=AuditAction.CLOCK_PAUSE, now=now)


@transaction.atomic
def resume_clock(tournament, *, actor=None, now=None):
    tournament = locked(tournament)
    _not_hand_for_hand(tournament)
    return clock_op(tournament, clockmath.resume, actor=actor, action=AuditAction.CLOCK_RESUME, now=now)


@transaction.atomic
def add_time(tournament, seconds: int, *, actor=None, now=None):
    return clock_op(
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
        raise RuleError(
            _("There is no level at position %(index)s (0 to %(last)s).")
            % {"index": index, "last": count - 1},
            code="no_such_level",
            field="level_index",
            rule="R8.2",
            params={"level_index": index, "minimum": 0, "maximum": count - 1},
        )
    return clock_op(
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
    tournament = locked(tournament)
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

    tournament = clock_op(
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
    clock_changed(tournament.pk, every_table=True)  # each tablet's hand-for-hand wait (R8.6)
    return tournament


@transaction.atomic
def hand_for_hand_round_finished(tournament, *, now=None, actor=None, round_started_at=None) -> Tournament:
    """Every table finished its hand-for-hand hand: the clock loses that round's time, at most 2 min (R8.6).

    The ticker calls this when it sees the round complete (``dealing.hand_for_hand``), passing the
    round start it saw, so a second ticker that saw the same round changes nothing; the director can
    also call it (API ``clock/hand-for-hand-round/``).
    """
    now = now or timezone.now()
    tournament = locked(tournament)
    if not tournament.hand_for_hand:
        raise StateError(_("Hand-for-hand is off."), code="hand_for_hand_off", rule="R8.6")
    if round_started_at is not None and tournament.hand_for_hand_round_started_at != round_started_at:
        return tournament  # someone else already closed this round
    started = tournament.hand_for_hand_round_started_at or now
    seconds = max(0.0, (now - started).total_seconds())

    def deduct(periods, clock, when):
        return clockmath.hand_for_hand_round(periods, clock, seconds)

    tournament = clock_op(
        tournament,
        deduct,
        actor=actor,
        action=AuditAction.CLOCK_HAND_FOR_HAND_ROUND,
        now=now,
        data={"seconds": round(seconds, 1)},
        hand_for_hand_round_started_at=now,
    )
    clock_changed(tournament.pk, every_table=True)  # a new round: every table may deal again (R8.6)
    return tournament


def _stop_for_the_day(
    tournament, periods, old: clockmath.Clock, new: clockmath.Clock, now
) -> clockmath.Clock:
    """A flight whose play stops after a level (docs/festivals.md): when its clock passes the end of
    that level it waits, paused, at the start of the next period with its full time, for the floor
    to stop play and bag; the next day resumes there."""
    stop = day_stop_index(tournament, periods)
    if stop is None or old.level_index > stop or new.level_index <= stop:
        return new
    return clockmath.Clock(
        level_index=stop + 1,
        level_started_at=now,
        paused_at=now,
        remaining_when_paused=float(periods[stop + 1].seconds),
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
    if new.level_index != old.level_index:
        new = _stop_for_the_day(tournament, periods, old, new, now)
    is_break = clockmath.state(periods, new, now).is_break
    status = Status.ON_BREAK if is_break else Status.RUNNING
    if new == old and status == tournament.status:
        return False
    with transaction.atomic():
        updated = Tournament.objects.filter(pk=tournament.pk, clock_version=tournament.clock_version).update(
            level_index=new.level_index,
            level_started_at=new.level_started_at,
            paused_at=new.paused_at,
            remaining_when_paused=new.remaining_when_paused,
            status=status,
            clock_version=F("clock_version") + 1,
        )
        if updated:
            clock_changed(tournament.pk)
            fresh = locked(tournament)
            place_late_registration_busts(fresh, now)
    return bool(updated)
