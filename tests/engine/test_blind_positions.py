"""A hand configuration refuses positions no table can produce: the fixed-limit cap lifted with more
than two players dealt in (R5.1), and blinds that are not the players next left of the button
(R3.1), with a dead small blind or dead button only as the dead-button rule gives them (R3.6). Every
position ``positions`` gives, hand after hand with players leaving and arriving, is accepted."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealing.engine import ConfigError, HandConfig, positions

from .handkit import config


def place(numbers, button, small, big, **extra) -> HandConfig:
    return config(
        (1000,) * len(numbers),
        seat_numbers=numbers,
        button=button,
        small_blind_seat=small,
        big_blind_seat=big,
        **extra,
    )


def refused(*args, **kwargs) -> ConfigError:
    with pytest.raises(ConfigError) as error:
        place(*args, **kwargs)
    return error.value


# -- the fixed-limit cap ------------------------------------------------------------------------------


def test_the_cap_cannot_be_lifted_with_three_players_dealt_in_R5_1():
    error = refused((1, 2, 3), 1, 2, 3, betting="fixed_limit", cap_raises=False)
    assert (error.code, error.rule) == ("cap_not_liftable", "R5.1")
    assert error.params == {"field": "cap_raises", "players": 3}


def test_the_cap_can_be_lifted_heads_up_R5_1():
    assert place((1, 2), 1, 1, 2, betting="fixed_limit", cap_raises=False).cap_raises is False


def test_pot_and_no_limit_have_no_cap_to_lift_R5_4():
    # The flag only means something in fixed limit: with no cap at all, False is no contradiction.
    assert place((1, 2, 3), 1, 2, 3, betting="no_limit", cap_raises=False).cap_raises is False


# -- blinds left of the button ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "numbers, button, small, big, code, rule",
    [
        ((1, 2, 3, 4), 1, 2, 4, "player_between_blinds", "R3.1"),  # seat 3 between the blinds
        ((1, 2, 3), 1, 3, 2, "player_between_blinds", "R3.1"),  # blinds the wrong way round
        ((1, 2, 3, 4), 1, 3, 4, "player_between_button_and_blind", "R3.1"),  # seat 2 skipped
        ((2, 5, 7), 7, 5, 2, "player_between_blinds", "R3.1"),  # round the end of the table
        ((1, 2, 4, 5), 3, 5, 1, "player_between_button_and_blind", "R3.1"),  # dead button, seat 4 skipped
        ((1, 2, 3, 4), 1, None, 3, "player_between_button_and_blind", "R3.6"),  # seat 2 dealt in, no SB
        ((1, 2, 3, 5), 2, None, 3, "no_dead_small_blind_seat", "R3.6"),  # no seat for a dead SB
    ],
)
def test_blinds_no_button_can_give_are_refused_R3_1_R3_6(numbers, button, small, big, code, rule):
    error = refused(numbers, button, small, big)
    assert (error.code, error.rule) == (code, rule)
    assert str(error).endswith(f"({rule})")


@pytest.mark.parametrize(
    "numbers, button, small, big",
    [
        ((2, 5, 7), 7, 2, 5),  # round the end of the table
        ((1, 2, 4, 5), 3, 4, 5),  # dead button on an empty seat
        ((1, 3, 4, 5), 1, None, 3),  # dead small blind on empty seat 2
        ((1, 4, 5, 6), 2, None, 4),  # dead button and dead small blind
        ((2, 3, 5), 8, None, 2),  # dead small blind round the end of the table (seat 9 or 1)
    ],
)
def test_positions_the_dead_button_rule_gives_are_accepted_R3_1_R3_6(numbers, button, small, big):
    assert place(numbers, button, small, big).big_blind_seat == big


def test_heads_up_the_button_is_the_small_blind_R3_5():
    assert place((3, 8), 8, 8, 3).small_blind_seat == 8
    assert refused((3, 8), 8, 3, 8).code == "heads_up_button"


# -- property: whatever the dead-button rule gives is accepted ----------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.sets(st.integers(1, 9), min_size=2, max_size=8),
    st.integers(0, 100),
    st.lists(st.tuples(st.sampled_from(["bust", "join", "same", "forget"]), st.integers(1, 9)), max_size=25),
    st.sampled_from(["no_limit", "fixed_limit"]),
)
def test_every_position_the_dead_button_rule_gives_makes_a_valid_config_R3_1_R3_5_R3_6(
    first, pick, changes, betting
):
    seats = sorted(first)
    where = positions.first_hand(seats, seats[pick % len(seats)])
    for change, seat in changes:
        place(seats, where.button, where.small_blind, where.big_blind, betting=betting)
        if change == "bust" and len(seats) > 2 and seat in seats:
            seats.remove(seat)
        elif change == "join" and seat not in seats and len(seats) < 8:
            seats = sorted([*seats, seat])
        # "forget": the table knows only its button and big blind (no hand of its own to read the
        # small blind from), so the small blind is taken to be the player before the big blind, as
        # the dealing service does.
        small = positions.previous_seat(seats, where.big_blind) if change == "forget" else where.small_blind
        where = positions.next_hand(
            seats, button=where.button, small_blind=small, big_blind=where.big_blind, table_size=9
        )
    place(seats, where.button, where.small_blind, where.big_blind, betting=betting)
