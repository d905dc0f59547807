"""The pure clock (R8.2) with time travel: everything follows from stored timestamps and ``now``."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import clock
from tournaments.clock import Clock, ClockError, Period

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
# Level 1 (20 min), level 2 (20 min), a 10-minute break, level 3 (20 min), level 4 (30 min, last).
PERIODS = [Period(1200), Period(1200), Period(600, is_break=True), Period(1200), Period(1800)]


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def started() -> Clock:
    return clock.start(PERIODS, Clock(), T0)


def test_a_stopped_clock_shows_the_full_first_level():
    state = clock.state(PERIODS, Clock(), at(5000))
    assert (state.level_index, state.remaining, state.running, state.started) == (0, 1200, False, False)
    assert state.seconds_to_next_break == 2400


def test_running_clock_counts_down_and_rolls_into_the_next_level_on_time():
    c = started()
    assert clock.state(PERIODS, c, at(1199)).level_index == 0
    assert clock.state(PERIODS, c, at(1199)).remaining == pytest.approx(1)
    state = clock.state(PERIODS, c, at(1200))
    assert state.level_index == 1 and state.remaining == 1200
    assert state.level_ends_at == at(2400)
    assert state.next_break_at == at(2400)


def test_break_is_reported_and_next_break_is_none_after_the_last_break():
    state = clock.state(PERIODS, started(), at(2400 + 60))
    assert state.is_break and state.level_index == 2 and state.remaining == 540
    after = clock.state(PERIODS, started(), at(3000 + 10))
    assert not after.is_break and after.next_break_at is None and after.seconds_to_next_break is None


def test_last_level_stays_in_force_at_zero():
    state = clock.state(PERIODS, started(), at(10 * 3600))
    assert state.level_index == 4 and state.remaining == 0 and state.is_last_level


def test_pause_just_before_a_level_boundary_keeps_the_second_that_was_left():
    """Pause at 19:59 of level 1, wait five minutes, resume: level 1 still has 1 second."""
    paused = clock.pause(PERIODS, started(), at(1199))
    assert clock.state(PERIODS, paused, at(1199 + 300)).level_index == 0
    assert clock.state(PERIODS, paused, at(1199 + 300)).remaining == pytest.approx(1)
    resumed = clock.resume(PERIODS, paused, at(1199 + 300))
    assert clock.state(PERIODS, resumed, at(1199 + 300.5)).remaining == pytest.approx(0.5)
    assert clock.state(PERIODS, resumed, at(1199 + 301)).level_index == 1


def test_pause_after_the_boundary_was_crossed_pauses_in_the_new_level():
    """A clock left running across a boundary (no tick) pauses in the level in force then."""
    paused = clock.pause(PERIODS, started(), at(1500))
    assert paused.level_index == 1 and paused.remaining_when_paused == pytest.approx(900)
    state = clock.state(PERIODS, paused, at(99999))
    assert (state.level_index, state.remaining, state.running) == (1, 900, False)


def test_add_time_to_a_break_extends_only_the_break():
    c = started()
    on_break = at(2400 + 120)  # two minutes into the break
    longer = clock.add_time(PERIODS, c, on_break, 100)
    assert clock.state(PERIODS, longer, on_break).remaining == pytest.approx(580)
    assert clock.state(PERIODS, longer, at(3050)).is_break  # would have ended at 3000 without the 100 s
    after = clock.state(PERIODS, longer, at(3100))
    assert after.level_index == 3 and after.remaining == 1200  # the next level keeps its full length


def test_time_left_never_exceeds_the_levels_own_length():
    """Adding 7,200 s to a 20-minute level is refused: at most the time already run can be added back,
    and the error carries the allowed range."""
    c = started()
    assert clock.add_time_range(PERIODS, c, at(0)) == (-1200, 0)
    with pytest.raises(ClockError) as error:
        clock.add_time(PERIODS, c, at(300), 7200)
    assert error.value.code == "too_much_time" and error.value.rule == "R8.2"
    assert (error.value.params["minimum"], error.value.params["maximum"]) == (-900, 300)
    back_to_full = clock.add_time(PERIODS, c, at(300), 300)
    assert clock.state(PERIODS, back_to_full, at(300)).remaining == pytest.approx(1200)
    with pytest.raises(ClockError):
        clock.add_time(PERIODS, back_to_full, at(300), 1)


def test_remove_time_cannot_go_below_zero_and_exactly_zero_ends_the_level():
    c = started()
    with pytest.raises(ClockError) as error:
        clock.add_time(PERIODS, c, at(1000), -201)
    assert error.value.code == "not_enough_time"
    ended = clock.add_time(PERIODS, c, at(1000), -200)
    assert clock.state(PERIODS, ended, at(1000)).level_index == 1


def test_add_time_while_paused_changes_the_paused_remainder():
    paused = clock.pause(PERIODS, started(), at(600))
    more = clock.add_time(PERIODS, paused, at(700), 60)
    assert more.paused and clock.state(PERIODS, more, at(5000)).remaining == pytest.approx(660)


def test_restart_in_the_middle_of_a_level_shows_the_same_instant():
    """A server restart reloads the stored clock: nothing is lost or added."""
    c = started()
    before = clock.state(PERIODS, c, at(1800))
    reloaded = Clock(c.level_index, c.level_started_at, c.paused_at, c.remaining_when_paused)
    assert clock.state(PERIODS, reloaded, at(1800)) == before


def test_advance_twice_is_the_same_as_once():
    c = started()
    once = clock.advance(PERIODS, c, at(2500))
    assert once.level_index == 2 and once.level_started_at == at(2400)
    assert clock.advance(PERIODS, once, at(2500)) == once


def test_catch_up_after_downtime_lands_on_the_exact_level_and_start():
    """The server was down 55 minutes: level 1, level 2 and the break passed; level 3 began at 50:00."""
    caught_up = clock.advance(PERIODS, started(), at(3300))
    assert caught_up == Clock(3, at(3000))
    assert clock.state(PERIODS, caught_up, at(3300)).remaining == 900


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 8000), min_size=1, max_size=6))
def test_advancing_at_any_sequence_of_ticks_equals_advancing_straight_to_the_end(ticks):
    """Late, early, repeated or missing ticks never change where the clock is."""
    c = started()
    ticks = sorted(ticks)
    stepped = c
    for t in ticks:
        stepped = clock.advance(PERIODS, stepped, at(t))
    assert stepped == clock.advance(PERIODS, c, at(ticks[-1]))
    assert clock.state(PERIODS, stepped, at(ticks[-1])) == clock.state(PERIODS, c, at(ticks[-1]))


def test_jump_gives_the_level_its_full_time_running_or_paused():
    running = clock.jump(PERIODS, started(), at(100), 3)
    assert clock.state(PERIODS, running, at(100)).remaining == 1200
    paused = clock.jump(PERIODS, clock.pause(PERIODS, started(), at(50)), at(100), 4)
    assert paused.paused and clock.state(PERIODS, paused, at(500)).remaining == 1800
    with pytest.raises(ClockError) as error:
        clock.jump(PERIODS, started(), at(100), 5)
    assert error.value.code == "no_such_level"


def test_wrong_state_operations_are_refused():
    with pytest.raises(ClockError, match="not running"):
        clock.pause(PERIODS, Clock(), T0)
    with pytest.raises(ClockError, match="not paused"):
        clock.resume(PERIODS, started(), T0)
    with pytest.raises(ClockError, match="already been started"):
        clock.start(PERIODS, started(), T0)


def test_hand_for_hand_round_loses_at_most_two_minutes_R8_6():
    paused = clock.pause(PERIODS, started(), at(600))  # 600 s left
    slow = clock.hand_for_hand_round(PERIODS, paused, 400)
    assert slow.remaining_when_paused == pytest.approx(480)
    quick = clock.hand_for_hand_round(PERIODS, paused, 45)
    assert quick.remaining_when_paused == pytest.approx(555)


def test_hand_for_hand_rounds_carry_into_the_next_level():
    paused = clock.pause(PERIODS, started(), at(1150))  # 50 s left in level 1
    after = clock.hand_for_hand_round(PERIODS, paused, 300)  # loses 120 s: 70 s into level 2
    assert after.level_index == 1 and after.remaining_when_paused == pytest.approx(1130)


def test_level_numbers_skip_breaks_and_next_hand_after_a_break_uses_the_next_level():
    assert [clock.level_number(PERIODS, i) for i in range(5)] == [1, 2, None, 3, 4]
    assert clock.play_index_for_next_hand(PERIODS, 2) == 3
    assert clock.play_index_for_next_hand(PERIODS, 1) == 1
    assert clock.play_index_for_next_hand([Period(60), Period(60, True)], 1) == 0
