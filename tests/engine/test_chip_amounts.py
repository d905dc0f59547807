"""R5.7: bets are made in chips. Every bet and raise-to is a multiple of the smallest chip in play,
except an all-in; the options offer only such amounts (the minimum rounded up, the pot-limit maximum
rounded down), and blinds and antes must be in the chips in play."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealing.engine import ConfigError, Hand, HandConfig, RuleError, positions

from .handkit import config, start


def refused(hand, *args) -> RuleError:
    before = [dict(e) for e in hand.events]
    with pytest.raises(RuleError) as error:
        hand.act(*args)
    assert hand.events == before
    return error.value


# -- configuration ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings_, field",
    [
        ({"sb": 25, "bb": 60, "smallest_chip": 25}, "big_blind"),
        ({"sb": 10, "bb": 50, "smallest_chip": 25}, "small_blind"),
        ({"sb": 25, "bb": 50, "smallest_chip": 25, "ante": 10, "ante_kind": "per_player"}, "ante"),
        ({"sb": 25, "bb": 50, "smallest_chip": 25, "ante": 60, "ante_kind": "big_blind"}, "ante"),
        ({"sb": 10, "bb": 15, "smallest_chip": 10, "betting": "fixed_limit"}, "big_blind"),
    ],
)
def test_blinds_and_antes_must_be_whole_chips_R5_7(settings_, field):
    with pytest.raises(ConfigError) as error:
        config(**settings_)
    assert (error.value.code, error.value.rule, error.value.params["field"]) == (
        "not_in_chips",
        "R5.7",
        field,
    )
    assert error.value.params["smallest_chip"] == settings_["smallest_chip"]


def test_fixed_limit_15_30_with_10_15_blinds_in_chips_of_5_R5_7_R3_2():
    cfg = config(sb=10, bb=15, smallest_chip=5, betting="fixed_limit")
    assert (cfg.small_bet, cfg.big_bet) == (15, 30)  # multiples of the chip, as the big blind is


def test_short_stacks_still_post_what_they_have_R5_7_R3_7():
    hand = start((1000, 30, 40), sb=25, bb=50, smallest_chip=25)  # stacks need not be whole chips
    posts = [(e["seat"], e["amount"], e["all_in"]) for e in hand.events if e["type"] == "post"]
    assert posts == [(2, 25, False), (3, 40, True)]


# -- options and actions ------------------------------------------------------------------------------


def test_options_say_the_step_and_a_raise_between_chips_is_refused_R5_7():
    hand = start((1000, 1000, 1000), sb=25, bb=50, smallest_chip=25)
    options = hand.options()
    assert (options.step, options.min_to, options.max_to) == (25, 100, 1000)
    assert options.to_dict()["step"] == 25
    error = refused(hand, 1, "raise", 110)
    assert (error.code, error.rule) == ("not_in_chips", "R5.7")
    assert error.params == {"amount": 110, "minimum": 100, "maximum": 1000, "step": 25, "all_in": 1000}
    assert str(error) == (
        "raise to 110 is not a whole number of the smallest chip (25): raise to a multiple of 25 "
        "from 100 to 1000 (R5.7)"
    )
    hand.act(1, "raise", 125)


def test_a_player_may_always_go_all_in_in_whatever_chips_they_have_R5_7():
    hand = start((137, 1000, 1000), sb=25, bb=50, smallest_chip=25)
    options = hand.options()
    assert (options.min_to, options.max_to) == (100, 137)
    error = refused(hand, 1, "raise", 130)
    assert error.code == "not_in_chips" and error.params["all_in"] == 137
    assert "or all-in to 137" in str(error)
    hand.act(1, "raise", 137)
    assert hand.events[-1]["all_in"] is True


def test_all_in_below_the_minimum_is_offered_as_it_is_R5_7():
    hand = start((80, 1000, 1000), sb=25, bb=50, smallest_chip=25)
    options = hand.options()
    assert (options.min_to, options.max_to) == (80, 80)
    hand.act(1, "all_in")
    assert hand.events[-1]["to"] == 80


def test_minimum_raise_after_an_odd_all_in_rounds_up_R5_7_R5_3():
    hand = start((1000, 85, 1000, 1000), sb=25, bb=50, smallest_chip=25)  # big blind 3, seat 4 first
    hand.act(4, "call")
    hand.act(1, "call")
    hand.act(2, "all_in")  # to 85: 35 more, less than a full raise
    options = hand.options()
    assert (options.seat, options.min_to) == (3, 150)  # 85 + 50 = 135, rounded up to whole chips
    hand.act(3, "raise", 150)


def test_minimum_raise_after_an_odd_full_raise_rounds_up_R5_7_R5_3():
    hand = start((130, 1000, 1000), sb=25, bb=50, smallest_chip=25)
    hand.act(1, "all_in")  # to 130: a full raise of 80
    assert hand.options().min_to == 225  # 130 + 80 = 210, rounded up


def test_pot_limit_maximum_rounds_down_unless_it_is_the_all_in_R5_7_R5_2():
    # Seat 4 under the gun goes all-in to 60 (not a full raise); the button may raise the pot:
    # call 60, pot 25 + 50 + 60 + 60 = 195, so to 255, rounded down to 250.
    hand = start((1000, 1000, 1000, 60), sb=25, bb=50, smallest_chip=25, betting="pot_limit")
    hand.act(4, "all_in")
    options = hand.options()
    assert (options.seat, options.min_to, options.max_to) == (1, 125, 250)
    error = refused(hand, 1, "raise", 255)
    assert (error.code, error.rule) == ("above_maximum", "R5.2")
    error = refused(hand, 1, "raise", 240)
    assert (error.code, error.rule) == ("not_in_chips", "R5.7")
    hand.act(1, "raise", 250)

    short = start((240, 1000, 1000, 60), sb=25, bb=50, smallest_chip=25, betting="pot_limit")
    short.act(4, "all_in")
    assert short.options().max_to == 240  # all-in within the pot: allowed in any amount
    short.act(1, "raise", 240)


def test_fixed_limit_bet_after_an_odd_half_bet_all_in_rounds_up_R5_7_R5_1():
    # 10/20 fixed limit in chips of 5. Seat 1 (under the gun, 3-handed: the button) is all-in to 32:
    # 12 more, at least half a bet, so a raise; the next raise is a bet more, to 52, in chips: 55.
    hand = start((32, 1000, 1000), sb=10, bb=20, smallest_chip=5, betting="fixed_limit")
    hand.act(1, "all_in")
    options = hand.options()
    assert (options.seat, options.min_to, options.max_to, options.step) == (2, 55, 55, 5)
    error = refused(hand, 2, "raise", 52)
    assert (error.code, error.rule) == ("fixed_amount", "R5.1")
    hand.act(2, "raise", 55)
    assert hand.options().min_to == 75  # and on to the cap of four bets, in whole bets from there


def test_fixed_limit_short_all_in_stays_legal_R5_7_R5_1():
    hand = start((33, 1000, 1000), sb=10, bb=20, smallest_chip=5, betting="fixed_limit")
    assert (hand.options().min_to, hand.options().max_to) == (33, 33)  # all-in for less than a raise
    hand.act(1, "raise", 33)


# -- property -----------------------------------------------------------------------------------------


@st.composite
def chip_hands(draw):
    chip = draw(st.sampled_from([5, 25]))
    count = draw(st.integers(2, 6))
    seats = sorted(draw(st.sets(st.integers(1, 8), min_size=count, max_size=count)))
    betting = draw(st.sampled_from(["fixed_limit", "pot_limit", "no_limit"]))
    big_blind = chip * draw(st.sampled_from([2, 3, 4, 10]))
    small_blind = chip * draw(st.integers(1, big_blind // chip))
    stacks = draw(st.lists(st.integers(1, 4 * big_blind) | st.integers(1, 80 * big_blind), min_size=count))
    where = positions.first_hand(seats, draw(st.sampled_from(seats)))
    ante_kind = draw(st.sampled_from(["none", "per_player", "big_blind"]))
    return HandConfig(
        game="courchevel",
        betting=betting,
        seats=[(seat, f"p{seat}", stack) for seat, stack in zip(seats, stacks)],
        button_seat=where.button,
        small_blind_seat=where.small_blind,
        big_blind_seat=where.big_blind,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=0 if ante_kind == "none" else chip,
        ante_kind=ante_kind,
        smallest_chip=chip,
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chip_hands(), st.binary(min_size=32, max_size=32), st.data())
def test_every_amount_offered_is_in_chips_or_all_in_and_others_are_refused_R5_7(config_, seed, data):
    hand = Hand.start(config_, seed=seed)
    step = config_.smallest_chip
    while not hand.done:
        options = hand.options()
        assert options.step == step
        if options.raise_kind is None or data.draw(st.booleans()):
            hand.act(options.seat, "call" if options.call else "check")
            continue
        all_in_to = options.player_bet + options.stack
        low, high = options.min_to, options.max_to
        for amount in (low, high):
            assert amount % step == 0 or amount == all_in_to
        # Every multiple of the step between the two is offered, as are the bounds; nothing else.
        legal = [a for a in range(low, high + 1) if a % step == 0] + [low, high]
        odd = [a for a in range(low, high + 1) if a % step and a != all_in_to]
        if odd:
            error = refused(hand, options.seat, options.raise_kind, data.draw(st.sampled_from(odd)))
            assert (error.code, error.rule) in (("not_in_chips", "R5.7"), ("fixed_amount", "R5.1"))
            assert error.params["step"] == step if error.code == "not_in_chips" else True
        to = data.draw(st.sampled_from(legal))
        event = hand.act(options.seat, options.raise_kind, to)
        assert event["to"] == to
        assert to % step == 0 or event["all_in"]
