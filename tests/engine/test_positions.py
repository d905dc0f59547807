"""The dead-button rule: where the button and the blinds go from hand to hand (R3.1, R3.5, R3.6, R6.6)."""

import random

import pytest

from dealing.engine import ConfigError, positions
from dealing.engine.positions import Positions


def test_first_hand_blinds_sit_left_of_the_button_R3_1():
    assert positions.first_hand([2, 4, 5, 7], button=4) == Positions(4, 5, 7)
    assert positions.first_hand([2, 4, 5, 7], button=7) == Positions(7, 2, 4)


def test_first_hand_heads_up_the_button_is_the_small_blind_R3_5():
    assert positions.first_hand([3, 8], button=8) == Positions(8, 8, 3)


def test_first_hand_button_must_be_a_player_R3_1():
    with pytest.raises(ConfigError) as error:
        positions.first_hand([1, 2, 3], button=5)
    assert error.value.code == "button_not_occupied"


def test_fewer_than_two_players_is_refused_R2_7():
    with pytest.raises(ConfigError) as error:
        positions.first_hand([4], button=4)
    assert error.value.code == "too_few_players"


def test_everything_moves_one_seat_clockwise_R6_6():
    assert positions.next_hand([1, 2, 3, 4], button=1, small_blind=2, big_blind=3) == Positions(2, 3, 4)
    assert positions.next_hand([1, 2, 3, 4], button=3, small_blind=4, big_blind=1) == Positions(4, 1, 2)


def test_big_blind_skips_empty_seats_R3_6():
    assert positions.next_hand([1, 3, 6, 8], button=1, small_blind=3, big_blind=6) == Positions(3, 6, 8)


def test_big_blind_busts_so_next_hand_has_a_dead_small_blind_R3_6():
    # Seat 3 was big blind and busted: the big blind moves on to seat 4, nobody posts the small blind.
    where = positions.next_hand([1, 2, 4, 5], button=1, small_blind=2, big_blind=3)
    assert where == Positions(2, None, 4)
    # The hand after, the button goes to the empty seat where the small blind would have been.
    after = positions.next_hand(
        [1, 2, 4, 5], button=where.button, small_blind=where.small_blind, big_blind=where.big_blind
    )
    assert after == Positions(3, 4, 5)


def test_small_blind_busts_so_next_hand_has_a_dead_button_R3_6():
    where = positions.next_hand([1, 3, 4], button=1, small_blind=2, big_blind=3)
    assert where == Positions(2, 3, 4)  # seat 2 is empty: a dead button


def test_becoming_heads_up_nobody_posts_the_big_blind_twice_R3_5():
    for gone in (1, 2, 3):  # whoever of button, small blind, big blind busts
        left = [s for s in (1, 2, 3) if s != gone]
        where = positions.next_hand(left, button=1, small_blind=2, big_blind=3)
        assert where.big_blind != 3, gone  # seat 3 was big blind: not again
        assert where.small_blind == where.button  # heads-up the button posts the small blind
        assert {where.button, where.big_blind} == set(left)


def test_heads_up_blinds_alternate_R3_5():
    where = positions.first_hand([2, 5], button=2)
    seen = []
    for _ in range(4):
        where = positions.next_hand(
            [2, 5], button=where.button, small_blind=where.small_blind, big_blind=where.big_blind
        )
        seen.append(where.big_blind)
        assert where.button == where.small_blind
    assert seen == [2, 5, 2, 5]


def test_from_heads_up_to_three_players_the_blinds_keep_moving_R3_6():
    # Heads-up with 1 on the button; a player sits down in seat 3 (between the button and the big blind).
    where = positions.next_hand([1, 3, 5], button=1, small_blind=1, big_blind=5)
    assert where.big_blind == 1 and where.small_blind == 5
    assert where.button == 3


def test_big_blind_moves_one_player_clockwise_every_hand_with_busts_R3_6():
    rng = random.Random(7)
    for _ in range(200):
        seats = sorted(rng.sample(range(1, 10), rng.randint(3, 9)))
        where = positions.first_hand(seats, rng.choice(seats))
        while len(seats) > 2:
            if rng.random() < 0.3:
                seats.remove(rng.choice(seats))
            previous = where
            where = positions.next_hand(
                seats,
                button=previous.button,
                small_blind=previous.small_blind,
                big_blind=previous.big_blind,
                table_size=9,
            )
            # The big blind is the next player after last hand's big blind seat: never the same twice.
            expected = next((s for s in seats if s > previous.big_blind), seats[0])
            assert where.big_blind == expected
            assert where.big_blind != previous.big_blind
            if len(seats) == 2:
                assert where.small_blind == where.button  # R3.5
            elif where.small_blind is not None:
                assert where.small_blind == previous.big_blind
                assert where.small_blind in seats
            assert where.button not in (where.big_blind, where.small_blind) or len(seats) == 2


def test_a_table_plays_down_to_one_player_hand_after_hand_R6_6():
    """Positions from the dead-button rule always make a valid hand, down to heads-up (R3.5, R3.6)."""
    from dealing.engine import Hand, HandConfig

    rng = random.Random(3)
    for _ in range(20):
        stacks = {seat: rng.randint(5, 60) for seat in sorted(rng.sample(range(1, 10), rng.randint(2, 8)))}
        total = sum(stacks.values())
        where = positions.first_hand(list(stacks), rng.choice(list(stacks)))
        hands = 0
        while len(stacks) > 1:
            config = HandConfig(
                game="courchevel_hilo",
                betting="no_limit",
                seats=[(seat, f"p{seat}", chips) for seat, chips in stacks.items()],
                button_seat=where.button,
                small_blind_seat=where.small_blind,
                big_blind_seat=where.big_blind,
                small_blind=5,
                big_blind=10,
                deal_mode="seeded",
            )
            hand = Hand.start(config, seed=rng.randbytes(32))
            while not hand.done:
                options = hand.options()
                hand.act(
                    options.seat,
                    "all_in"
                    if options.raise_kind and rng.random() < 0.5
                    else "call"
                    if options.call
                    else "check",
                )
            stacks = {seat: chips for seat, chips in hand.stacks().items() if chips}
            assert sum(stacks.values()) == total
            if len(stacks) > 1:
                where = positions.next_hand(
                    list(stacks),
                    button=where.button,
                    small_blind=where.small_blind,
                    big_blind=where.big_blind,
                    table_size=9,
                )
            hands += 1
        assert hands >= 1
