"""The tournament clock as pure functions over stored timestamps (R8.2). No Django here.

A tournament stores only four things: the level index, the instant the current level started
(``level_started_at``), the instant the clock was paused (``paused_at``) and the seconds that were
left when it was paused (``remaining_when_paused``). Everything a screen shows is computed from those
and the instant ``now``, so every screen and server computes the same answer and nothing drifts.

- Not started: ``level_started_at`` and ``paused_at`` are both None.
- Running: ``level_started_at`` is set and ``paused_at`` is None. Adding time moves
  ``level_started_at`` later, so "started at" means "the level would have started then had it
  always been this long".
- Paused: ``paused_at`` and ``remaining_when_paused`` are set.

A running clock walks forward through as many levels and breaks as have elapsed (so a server that
was down catches up exactly); ``advance`` writes that walk back as a new stored clock, and doing it
twice or late gives the same result. The last level never ends: it stays in force at 0 seconds.

Hand-for-hand (R8.6): the clock is paused while it is on, and each finished round of hands takes
the time that round took off the clock, at most two minutes (``HAND_FOR_HAND_MAX_SECONDS``), so the
clock loses at most two minutes per hand however slow the slowest table is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from dealing.engine.errors import RuleError

HAND_FOR_HAND_MAX_SECONDS = 120
MAX_REMAINING_SECONDS = 24 * 3600


class ClockError(RuleError):
    """A clock operation that is not possible in the clock's state."""

    default_rule = "R8.2"


@dataclass(frozen=True)
class Period:
    """One level of play or one break, with its length in seconds."""

    seconds: int
    is_break: bool = False


@dataclass(frozen=True)
class Clock:
    level_index: int = 0
    level_started_at: datetime | None = None
    paused_at: datetime | None = None
    remaining_when_paused: float | None = None

    @property
    def started(self) -> bool:
        return self.level_started_at is not None or self.paused_at is not None

    @property
    def running(self) -> bool:
        return self.level_started_at is not None and self.paused_at is None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


@dataclass(frozen=True)
class ClockState:
    level_index: int
    remaining: float  # seconds left in the current level or break
    level_ends_at: datetime | None  # None unless running
    next_break_at: datetime | None  # None unless running and a break lies ahead
    seconds_to_next_break: float | None  # None when no break lies ahead
    is_break: bool
    running: bool
    started: bool
    is_last_level: bool


def _check(periods: list[Period]) -> None:
    if not periods:
        raise ClockError("no_levels", "The structure has no levels.")


def _walk(periods: list[Period], index: int, started_at: datetime, now: datetime) -> tuple[int, datetime]:
    """Walk a running clock forward to ``now``: the level in force and when it (virtually) started."""
    index = min(index, len(periods) - 1)
    while index < len(periods) - 1:
        ends = started_at + timedelta(seconds=periods[index].seconds)
        if now < ends:
            break
        started_at = ends
        index += 1
    return index, started_at


def _seconds_to_next_break(periods: list[Period], index: int, remaining: float) -> float | None:
    seconds = remaining
    for period in periods[index + 1 :]:
        if period.is_break:
            return seconds
        seconds += period.seconds
    return None


def state(periods: list[Period], clock: Clock, now: datetime) -> ClockState:
    """Everything a screen shows about the clock at ``now``."""
    _check(periods)
    last = len(periods) - 1
    if clock.running:
        index, started_at = _walk(periods, clock.level_index, clock.level_started_at, now)
        ends_at = started_at + timedelta(seconds=periods[index].seconds)
        remaining = max(0.0, (ends_at - now).total_seconds())
        to_break = _seconds_to_next_break(periods, index, remaining)
        return ClockState(
            level_index=index,
            remaining=remaining,
            level_ends_at=ends_at,
            next_break_at=now + timedelta(seconds=to_break) if to_break is not None else None,
            seconds_to_next_break=to_break,
            is_break=periods[index].is_break,
            running=True,
            started=True,
            is_last_level=index == last,
        )
    index = min(clock.level_index, last)
    if clock.paused:
        remaining = max(0.0, float(clock.remaining_when_paused or 0.0))
    else:
        remaining = float(periods[index].seconds)
    return ClockState(
        level_index=index,
        remaining=remaining,
        level_ends_at=None,
        next_break_at=None,
        seconds_to_next_break=_seconds_to_next_break(periods, index, remaining),
        is_break=periods[index].is_break,
        running=False,
        started=clock.started,
        is_last_level=index == last,
    )


def advance(periods: list[Period], clock: Clock, now: datetime) -> Clock:
    """The stored clock brought up to ``now``: same instant shown, levels that elapsed written in.

    Idempotent: ``advance(advance(c, t), t) == advance(c, t)``, and advancing at t1 then t2 equals
    advancing straight to t2. A paused or stopped clock is returned unchanged.
    """
    _check(periods)
    if not clock.running:
        return clock
    index, started_at = _walk(periods, clock.level_index, clock.level_started_at, now)
    return Clock(level_index=index, level_started_at=started_at)


def start(periods: list[Period], clock: Clock, now: datetime) -> Clock:
    _check(periods)
    if clock.started:
        raise ClockError("already_started", "The clock has already been started.")
    return Clock(level_index=min(clock.level_index, len(periods) - 1), level_started_at=now)


def pause(periods: list[Period], clock: Clock, now: datetime) -> Clock:
    if not clock.running:
        raise ClockError("not_running", "The clock is not running.")
    current = advance(periods, clock, now)
    remaining = state(periods, current, now).remaining
    return Clock(current.level_index, current.level_started_at, now, remaining)


def resume(periods: list[Period], clock: Clock, now: datetime) -> Clock:
    _check(periods)
    if not clock.paused:
        raise ClockError("not_paused", "The clock is not paused.")
    seconds = periods[clock.level_index].seconds
    remaining = float(clock.remaining_when_paused or 0.0)
    return Clock(clock.level_index, now - timedelta(seconds=seconds - remaining))


def add_time_range(periods: list[Period], clock: Clock, now: datetime) -> tuple[int, int]:
    """The seconds that may be added now (negative: removed): the level's time left stays from 0 to
    the level's own length, so at most what is left can be removed and at most what has run added."""
    current = advance(periods, clock, now)
    remaining = state(periods, current, now).remaining
    length = periods[current.level_index].seconds
    return -math.floor(remaining), max(0, math.floor(length - remaining))


def add_time(periods: list[Period], clock: Clock, now: datetime, seconds: float) -> Clock:
    """Add (or, with a negative number, remove) time from the current level or break.

    The time left stays from 0 to the level's own length: removing exactly what is left ends the
    level now; removing more, or adding more than has run, is refused with the allowed range.
    """
    if not clock.started:
        raise ClockError("not_started", "The clock has not been started.")
    current = advance(periods, clock, now)
    remaining = state(periods, current, now).remaining
    length = periods[current.level_index].seconds
    new_remaining = remaining + seconds
    minimum, maximum = add_time_range(periods, clock, now)
    params = {"remaining": round(remaining), "seconds": seconds, "minimum": minimum, "maximum": maximum}
    if new_remaining < 0:
        raise ClockError(
            "not_enough_time", "Cannot remove more time than is left in the level.", params=params
        )
    if new_remaining > min(length, MAX_REMAINING_SECONDS) + 1e-6:
        raise ClockError(
            "too_much_time",
            "A level cannot have more time left than its own length.",
            params={**params, "length": round(length)},
        )
    if current.paused:
        return Clock(current.level_index, current.level_started_at, current.paused_at, new_remaining)
    return Clock(current.level_index, current.level_started_at + timedelta(seconds=seconds))


def jump(periods: list[Period], clock: Clock, now: datetime, index: int) -> Clock:
    """Go to level ``index`` (0-based, breaks included) with its full time."""
    _check(periods)
    if not 0 <= index < len(periods):
        raise ClockError(
            "no_such_level",
            "There is no level at that position.",
            params={"index": index, "levels": len(periods)},
        )
    if clock.paused:
        return Clock(index, now, now, float(periods[index].seconds))
    if clock.running:
        return Clock(index, now)
    return Clock(index)


def deduct_paused(periods: list[Period], clock: Clock, seconds: float) -> Clock:
    """Take ``seconds`` off a paused clock, moving on through levels if it runs out."""
    _check(periods)
    if not clock.paused:
        raise ClockError("not_paused", "The clock is not paused.")
    index = clock.level_index
    remaining = float(clock.remaining_when_paused or 0.0) - seconds
    while remaining <= 0 and index < len(periods) - 1:
        index += 1
        remaining += periods[index].seconds
    return Clock(index, clock.level_started_at, clock.paused_at, max(0.0, remaining))


def hand_for_hand_round(periods: list[Period], clock: Clock, round_seconds: float) -> Clock:
    """A round of hand-for-hand finished after ``round_seconds``: the clock loses at most 2 minutes (R8.6)."""
    lost = min(max(0.0, round_seconds), HAND_FOR_HAND_MAX_SECONDS)
    return deduct_paused(periods, clock, lost)


def level_numbers(periods: list[Period]) -> list[int | None]:
    """Each period's level number as players say it (breaks are not counted); None for a break."""
    numbers, number = [], 0
    for period in periods:
        number += 0 if period.is_break else 1
        numbers.append(None if period.is_break else number)
    return numbers


def level_number(periods: list[Period], index: int) -> int | None:
    """The level's number as players say it (breaks are not counted), or None for a break."""
    return level_numbers(periods[: index + 1])[index]


def play_index_for_next_hand(periods: list[Period], index: int) -> int:
    """The level a hand dealt now is played at: the current one, or after a break the next level (R8.2)."""
    _check(periods)
    for i in range(index, len(periods)):
        if not periods[i].is_break:
            return i
    for i in range(index, -1, -1):
        if not periods[i].is_break:
            return i
    raise ClockError("no_levels", "The structure has only breaks.")
