"""Betting: order of play (R4.3-R4.5) and the three structures (R5.1-R5.6), through the hand engine."""

import pytest

from dealing.engine import Hand, HandConfig, RuleError

from .handkit import call_or_check, config, start


def flop(hand, cards=("Qc", "7h")):
    assert hand.awaiting == "board"
    hand.enter_board(list(cards))


def unchanged(hand, action, *args):
    """Apply an illegal action: it raises and the hand is exactly as before."""
    before_events = [dict(e) for e in hand.events]
    before_view = hand.view(public=False)
    with pytest.raises(RuleError) as error:
        hand.act(*args)
    assert hand.events == before_events
    assert hand.view(public=False) == before_view
    return error.value


# -- order of play -------------------------------------------------------------------------------------


def test_preflop_starts_left_of_the_big_blind_and_the_big_blind_acts_last_R4_3():
    hand = start((500,) * 5, sb=5, bb=10)  # button 1, small blind 2, big blind 3
    order = []
    while hand.awaiting == "action":
        order.append(hand.to_act)
        options = hand.options()
        if hand.to_act == 3:
            assert options.actions == ("fold", "check", "raise")  # the big blind is live: its option
        call_or_check(hand)
    assert order == [4, 5, 1, 2, 3]


def test_later_streets_start_with_the_first_active_player_left_of_the_button_R4_4():
    hand = start((500,) * 4)  # button 1, small blind 2, big blind 3
    hand.act(4, "call")
    hand.act(1, "call")
    hand.act(2, "fold")
    hand.act(3, "check")
    flop(hand)
    assert hand.to_act == 3  # the small blind folded: the big blind is first left of the button


def test_dead_button_on_an_empty_seat_R4_4_R3_6():
    seats = [(1, "a", 500), (2, "b", 500), (4, "c", 500), (5, "d", 500)]
    cfg = HandConfig(
        game="courchevel",
        betting="no_limit",
        seats=seats,
        button_seat=3,
        small_blind_seat=4,
        big_blind_seat=5,
        small_blind=5,
        big_blind=10,
        deal_mode="entered",
    )
    hand = Hand.start(cfg)
    hand.enter_board(["2c"])
    assert hand.to_act == 1
    call_or_check(hand, 4)
    flop(hand)
    assert hand.to_act == 4


def test_wrong_seat_is_refused_and_changes_nothing_R4_3():
    hand = start((500,) * 4)
    error = unchanged(hand, None, 1, "call")
    assert error.code == "not_your_turn" and error.rule == "R4.3"
    assert error.params == {"seat": 1, "to_act": 4}


def test_the_round_goes_on_until_everyone_matches_the_last_raise_R4_5():
    hand = start((500,) * 3)  # button 1 acts first
    hand.act(1, "call")
    hand.act(2, "call")
    hand.act(3, "raise", 40)
    assert hand.to_act == 1  # those who called must act again
    error = unchanged(hand, None, 1, "check")
    assert error.code == "cannot_check" and error.rule == "R4.5"
    hand.act(1, "call")
    hand.act(2, "call")
    assert hand.awaiting == "board"


def test_heads_up_the_button_acts_first_before_the_flop_and_last_after_R3_5():
    hand = start((500, 500), sb=5, bb=10)  # seat 1 is the button and small blind
    assert [e["seat"] for e in hand.events if e["type"] == "post"] == [1, 2]
    assert hand.to_act == 1
    hand.act(1, "call")
    hand.act(2, "check")
    flop(hand)
    assert hand.to_act == 2
    hand.act(2, "check")
    assert hand.to_act == 1


def test_when_at_most_one_player_can_bet_the_board_is_run_out_R4_6():
    hand = Hand.start(config((300, 1000, 1000), mode="seeded", bb=10), seed=bytes(32))
    hand.act(1, "all_in")
    hand.act(2, "call")
    hand.act(3, "fold")
    # Seat 2 could still bet but has nobody to bet against: no more betting, the board comes out.
    assert hand.done
    kinds = [e["type"] for e in hand.events]
    last_action = max(i for i, k in enumerate(kinds) if k == "action")
    assert kinds[last_action + 1 :].count("board") == 3
    assert "action" not in kinds[last_action + 1 :]
    assert len(hand.board) == 5


# -- no limit ------------------------------------------------------------------------------------------


def test_preflop_minimum_raise_is_twice_the_big_blind_R5_5():
    hand = start((500,) * 3, sb=1, bb=2)
    options = hand.options()
    assert (options.call, options.raise_kind, options.min_to) == (2, "raise", 4)  # call 2 or raise to >= 4
    error = unchanged(hand, None, 1, "raise", 3)
    assert (error.code, error.rule) == ("below_minimum", "R5.5")
    assert str(error) == "raise to 3 is below the minimum raise to 4 (R5.5)"
    assert error.params == {"amount": 3, "minimum": 4, "maximum": 500}
    hand.act(1, "raise", 4)


def _flop_bet(stacks=(500, 500, 500), bet=5, **kwargs):
    hand = start(stacks, sb=1, bb=2, **kwargs)
    call_or_check(hand, 3)
    flop(hand)
    hand.act(2, "bet", bet)
    return hand


def test_no_limit_minimum_raise_bet_5_raise_to_10_R5_3():
    hand = _flop_bet(bet=5)
    options = hand.options()
    assert (options.min_to, options.max_to) == (10, 498)  # the largest bet is the player's stack
    error = unchanged(hand, None, 3, "raise", 9)
    assert str(error) == "raise to 9 is below the minimum raise to 10 (R5.3)"
    error = unchanged(hand, None, 3, "raise", 499)
    assert error.code == "more_than_stack"
    hand.act(3, "raise", 10)


def test_no_limit_raise_to_30_is_below_the_minimum_raise_to_40_R5_3():
    hand = _flop_bet(bet=20)
    error = unchanged(hand, None, 3, "raise", 30)
    assert str(error) == "raise to 30 is below the minimum raise to 40 (R5.3)"
    assert (error.code, error.rule, error.params["minimum"]) == ("below_minimum", "R5.3", 40)


def test_a_raise_adds_at_least_the_last_raise_R5_3():
    hand = _flop_bet(bet=10)
    hand.act(3, "raise", 35)  # adds 25
    assert hand.options().min_to == 60


def test_smallest_bet_is_the_big_blind_R5_3():
    hand = start((500,) * 3, sb=5, bb=10)
    call_or_check(hand, 3)
    flop(hand)
    assert hand.options().min_to == 10
    error = unchanged(hand, None, 2, "bet", 9)
    assert error.code == "below_minimum"


def test_all_in_for_less_than_the_minimum_is_allowed():
    hand = start((500, 500, 18), sb=5, bb=10)
    call_or_check(hand, 3)
    flop(hand)
    hand.act(2, "check")
    options = hand.options()
    assert (options.min_to, options.max_to) == (8, 8)  # all-in is the only bet seat 3 can make
    hand.act(3, "bet", 8)
    assert hand.events[-1]["all_in"] is True
    # An opening bet all-in for less than the big blind: a raise goes to at least that bet plus a big blind.
    options = hand.options()
    assert (options.seat, options.call, options.raise_kind, options.min_to) == (1, 8, "raise", 18)
    error = unchanged(hand, None, 1, "raise", 17)
    assert (error.code, error.rule, error.params["minimum"]) == ("below_minimum", "R5.3", 18)


def test_incomplete_all_in_does_not_reopen_the_betting_R5_4():
    hand = start((1000, 1000, 1000, 1000, 150), sb=5, bb=10)
    hand.act(4, "raise", 100)  # a full raise of 90
    hand.act(5, "raise", 150)  # all-in: 50 more, less than a full raise
    options = hand.options()
    assert options.seat == 1 and options.min_to == 240  # seat 1 has not acted: may raise a full raise
    hand.act(1, "call")
    hand.act(2, "fold")
    hand.act(3, "fold")
    options = hand.options()
    assert options.seat == 4 and options.call == 50
    assert options.raise_kind is None and options.raise_blocked == "not_reopened"
    error = unchanged(hand, None, 4, "raise", 300)
    assert (error.code, error.rule) == ("betting_not_reopened", "R5.4")
    hand.act(4, "call")
    assert hand.awaiting == "board"


def test_a_full_raise_after_an_incomplete_all_in_reopens_the_betting_R5_4():
    hand = start((1000, 1000, 1000, 1000, 150), sb=5, bb=10)
    hand.act(4, "raise", 100)
    hand.act(5, "all_in")
    hand.act(1, "raise", 240)
    hand.act(2, "fold")
    hand.act(3, "fold")
    assert hand.options().raise_kind == "raise"


def test_no_cap_on_raises_in_no_limit_and_pot_limit_R5_4():
    for betting in ("no_limit", "pot_limit"):
        hand = start((100000, 100000), sb=1, bb=2, betting=betting)
        for _ in range(10):
            options = hand.options()
            hand.act(options.seat, "raise", options.min_to)
        assert hand.options().raise_kind == "raise"


def test_short_big_blind_does_not_lower_the_call_R5_6():
    hand = start((1000, 1000, 60), sb=50, bb=100)
    post = hand.events[-2]
    assert (post["blind"], post["amount"], post["all_in"]) == ("big_blind", 60, True)
    assert hand.options().call == 100  # not 60
    hand.act(1, "call")
    assert hand.options().call == 50
    hand.act(2, "call")
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(180, (1, 2, 3)), (80, (1, 2))]


def test_no_option_for_the_big_blind_when_the_small_blind_is_all_in_short_R4_6():
    hand = start((3, 1000), sb=5, bb=10)  # heads-up: seat 1 (button) posts 3 of the 5 small blind
    # The small blind is all-in for less than the big blind: no one left to bet against, no option.
    assert hand.awaiting == "show" and hand.must_show
    assert [e["amount"] for e in hand.events if e["type"] == "return"] == [7]


def test_small_blind_must_still_call_the_full_big_blind_when_the_big_blind_is_short_R5_6():
    hand = start((1000, 3), sb=5, bb=10)  # seat 2 posts 3 of the 10 big blind
    assert hand.options().call == 5


# -- pot limit -----------------------------------------------------------------------------------------


def test_pot_limit_pot_100_bet_100_raise_to_400_R5_2():
    hand = start((5000, 5000), sb=25, bb=50, betting="pot_limit")
    hand.act(1, "call")
    hand.act(2, "check")  # pot 100
    flop(hand)
    assert hand.options().min_to == 50  # the smallest bet is the big blind
    hand.act(2, "bet", 100)
    options = hand.options()
    assert (options.min_to, options.max_to) == (200, 400)
    error = unchanged(hand, None, 1, "raise", 401)
    assert (error.code, error.rule) == ("above_maximum", "R5.2")
    assert str(error) == "raise to 401 is above the pot-limit maximum raise to 400 (R5.2)"
    hand.act(1, "raise", 400)


def test_pot_limit_preflop_counts_blinds_in_full_even_dead_or_short_R5_2():
    full = start((1000, 1000, 1000, 1000), sb=5, bb=10, betting="pot_limit")
    assert full.options().max_to == 35  # call 10, pot 25, raise 25: to 35
    dead = start(
        (1000, 1000, 1000, 1000),
        sb=5,
        bb=10,
        betting="pot_limit",
        seat_numbers=(1, 3, 4, 5),  # seat 2, the small blind's, is empty: a dead small blind (R3.6)
        small_blind_seat=None,
        big_blind_seat=3,
    )
    assert dead.options().max_to == 35
    short = start((1000, 1000, 4, 1000), sb=5, bb=10, betting="pot_limit")  # big blind posts 4
    assert short.options().max_to == 35
    assert short.options().call == 10


# -- fixed limit ---------------------------------------------------------------------------------------


def test_fixed_limit_2_4_small_bet_then_big_bet_R5_1():
    hand = start((500,) * 3, sb=1, bb=2, betting="fixed_limit")
    assert (hand.config.small_bet, hand.config.big_bet) == (2, 4)
    options = hand.options()
    assert (options.call, options.min_to, options.max_to) == (2, 4, 4)
    error = unchanged(hand, None, 1, "raise", 6)
    assert (error.code, error.rule) == ("fixed_amount", "R5.1")
    call_or_check(hand, 3)
    flop(hand)
    assert (hand.options().min_to, hand.options().max_to) == (2, 2)  # flop: small bet
    call_or_check(hand, 3)
    hand.enter_board(["4s"])
    assert hand.options().min_to == 4  # turn: big bet
    hand.act(2, "bet", 4)
    assert hand.options().min_to == 8
    call_or_check(hand, 2)
    hand.enter_board(["2d"])
    assert hand.options().min_to == 4  # river: big bet


def test_fixed_limit_15_30_with_10_15_blinds_R5_1_R3_2():
    hand = start((500,) * 3, sb=10, bb=15, betting="fixed_limit", small_bet=15, big_bet=30)
    assert hand.options().call == 15 and hand.options().min_to == 30
    hand.act(1, "call")
    assert hand.options().call == 5  # the small blind completes
    hand.act(2, "raise", 30)
    assert hand.options().min_to == 45


def test_fixed_limit_cap_counts_the_big_blind_as_the_first_bet_R5_1():
    hand = start((500,) * 4, sb=1, bb=2, betting="fixed_limit")
    hand.act(4, "raise", 4)  # 2 bets
    hand.act(1, "raise", 6)  # 3
    hand.act(2, "raise", 8)  # 4: capped
    options = hand.options()
    assert options.raise_kind is None and options.raise_blocked == "capped"
    error = unchanged(hand, None, 3, "raise", 10)
    assert (error.code, error.rule) == ("betting_capped", "R5.1")


def test_fixed_limit_cap_holds_heads_up_and_lifts_only_when_told_R5_1():
    capped = start((500, 500), sb=1, bb=2, betting="fixed_limit")
    for to in (4, 6, 8):
        capped.act(capped.to_act, "raise", to)
    assert capped.options().raise_blocked == "capped"
    uncapped = start((500, 500), sb=1, bb=2, betting="fixed_limit", cap_raises=False)
    for to in (4, 6, 8, 10, 12):
        uncapped.act(uncapped.to_act, "raise", to)
    assert uncapped.options().min_to == 14


def _fixed_limit_flop(short_stack):
    hand = start((1000, 1000, short_stack), sb=5, bb=10, betting="fixed_limit")
    call_or_check(hand, 3)
    flop(hand)
    hand.act(2, "bet", 10)
    return hand


def test_fixed_limit_all_in_of_half_a_bet_or_more_is_a_raise_R5_1():
    hand = _fixed_limit_flop(26)
    hand.act(3, "all_in")  # to 16: 6 more, at least half of 10
    assert hand.events[-1]["to"] == 16
    assert hand.options().min_to == 26  # the next raise is a full bet above it
    hand.act(1, "call")
    options = hand.options()
    assert options.seat == 2 and options.raise_kind == "raise"  # reopened for the first bettor
    hand.act(2, "raise", 26)


def test_fixed_limit_all_in_of_less_than_half_a_bet_does_not_reopen_R5_1():
    hand = _fixed_limit_flop(23)
    hand.act(3, "all_in")  # to 13: 3 more, less than half of 10
    options = hand.options()
    assert options.seat == 1 and (options.call, options.min_to) == (13, 20)  # call it or complete it
    hand.act(1, "call")
    options = hand.options()
    assert options.raise_blocked == "not_reopened" and options.call == 3
    error = unchanged(hand, None, 2, "raise", 20)
    assert (error.code, error.rule) == ("betting_not_reopened", "R5.1")


def test_fixed_limit_completing_a_short_all_in_reopens_R5_1():
    hand = _fixed_limit_flop(23)
    hand.act(3, "all_in")
    hand.act(1, "raise", 20)  # completes the bet
    assert hand.options().min_to == 30


# -- misc action errors --------------------------------------------------------------------------------


def test_bad_amounts_and_actions_are_refused():
    hand = start((500,) * 3)
    for args, code in [
        ((1, "raise", 20.0), "bad_amount"),
        ((1, "raise", True), "bad_amount"),
        ((1, "raise", None), "bad_amount"),
        ((1, "bet", 20), "must_raise"),
        ((1, "shove"), "unknown_action"),
        ((1, "check"), "cannot_check"),
        ((1, "call", 7), "bad_call"),
    ]:
        assert unchanged(hand, None, *args).code == code, args
    call_or_check(hand, 3)
    flop(hand)
    assert unchanged(hand, None, 2, "raise", 20).code == "must_bet"
    assert unchanged(hand, None, 2, "call").code == "nothing_to_call"


def test_no_bet_or_raise_against_players_all_in_R4_6():
    hand = start((1000, 1000, 50), sb=5, bb=10)
    hand.act(1, "fold")
    hand.act(2, "raise", 1000)  # all-in
    options = hand.options()
    assert options.seat == 3 and options.raise_kind is None and options.call_all_in
    hand.act(3, "call")
    assert [e for e in hand.events if e["type"] == "return"] == [{"type": "return", "seat": 2, "amount": 950}]


def test_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting_R5_4():
    # Seats 4 and 5 are short: each all-in alone is less than a full raise, together they are more.
    hand = start((1000, 1000, 1000, 1000, 150, 215), sb=5, bb=10)
    hand.act(4, "raise", 100)
    hand.act(5, "all_in")  # to 150: 50 more
    hand.act(6, "all_in")  # to 215: 65 more
    hand.act(1, "call")
    hand.act(2, "fold")
    hand.act(3, "fold")
    options = hand.options()
    assert options.seat == 4 and options.call == 115
    # Facing 115 more, at least the last full raise (90): seat 4 may raise, by at least 90.
    assert options.raise_kind == "raise" and options.min_to == 305


def test_fixed_limit_cap_after_the_flop_is_bet_raise_re_raise_cap_R5_1():
    # Pre-flop the big blind is the first bet; on later streets the four are all voluntary.
    hand = start((500,) * 4, sb=1, bb=2, betting="fixed_limit")
    call_or_check(hand, 4)
    flop(hand)
    for seat, kind, to in [(2, "bet", 2), (3, "raise", 4), (4, "raise", 6), (1, "raise", 8)]:
        options = hand.options()
        assert (options.seat, options.raise_kind, options.min_to) == (seat, kind, to)
        hand.act(seat, kind, to)
    options = hand.options()
    assert (options.seat, options.call, options.raise_blocked) == (2, 6, "capped")
    error = unchanged(hand, None, 2, "raise", 10)
    assert (error.code, error.rule) == ("betting_capped", "R5.1")


def test_fixed_limit_half_bet_all_in_counts_towards_the_cap_R5_1():
    hand = start((500, 500, 500, 5), sb=1, bb=2, betting="fixed_limit", button=4)  # seat 3 is under the gun
    hand.act(3, "raise", 4)  # 2 bets
    hand.act(4, "all_in")  # to 5: 1 more, half of a bet of 2: a raise, the 3rd bet
    assert hand.events[-1]["to"] == 5
    hand.act(1, "raise", 7)  # 4th bet: capped
    options = hand.options()
    assert options.seat == 2 and options.raise_blocked == "capped"


@pytest.mark.parametrize("short_stack, to, reopened", [(25, 15, True), (24, 14, False)])
def test_fixed_limit_all_in_of_exactly_half_a_bet_reopens_and_less_does_not_R5_1(short_stack, to, reopened):
    hand = _fixed_limit_flop(short_stack)  # seat 2 bets 10 on the flop
    hand.act(3, "all_in")  # 5 more is exactly half a bet; 4 more is less
    assert hand.events[-1]["to"] == to
    assert hand.options().min_to == (to + 10 if reopened else 20)
    hand.act(1, "call")
    options = hand.options()
    assert options.seat == 2
    if reopened:
        assert (options.raise_kind, options.min_to) == ("raise", 25)
    else:
        assert options.raise_kind is None and options.raise_blocked == "not_reopened"


def test_short_big_blind_in_fixed_limit_keeps_the_full_bet_to_call_and_raise_R5_6():
    hand = start((1000, 1000, 6, 1000), sb=5, bb=10, betting="fixed_limit")  # big blind (seat 3) posts 6
    assert [(e["seat"], e["amount"], e["all_in"]) for e in hand.events if e["type"] == "post"] == [
        (2, 5, False),
        (3, 6, True),
    ]
    options = hand.options()
    assert (options.seat, options.call, options.min_to, options.max_to) == (4, 10, 20, 20)


def test_negative_and_non_integer_bet_amounts_are_refused_and_change_nothing():
    hand = start((500,) * 3)
    for args, code in [
        ((1, "raise", -20), "below_minimum"),
        ((1, "raise", 25.0), "bad_amount"),
        ((1, "raise", False), "bad_amount"),
        ((1, "raise", "40"), "bad_amount"),
        ((1, "call", -10), "bad_call"),
        ((1, "call", 10.0), "bad_call"),
        ((1, "fold", 0), "unexpected_amount"),
    ]:
        assert unchanged(hand, None, *args).code == code, args
