"""R6.1: a player all-in can win from each opponent only as much as they put in themselves; chips no
one else matched go back to their owner, folded or not (a small blind above an all-in big blind when
everyone folds). Whole hands with exact figures, then properties of the pot building and of random
hands."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealing.engine import Hand, HandConfig, positions
from dealing.engine.pots import build_pots, unmatched

from .handkit import awards, check_winnings_R6_1, final_stacks, money, show_all, start


def returns(hand):
    return [(e["seat"], e["amount"]) for e in hand.events if e["type"] == "return"]


@pytest.mark.parametrize("betting", ["no_limit", "pot_limit", "fixed_limit"])
def test_big_blind_all_in_for_less_than_the_small_blind_wins_only_what_it_put_in_R6_1(betting):
    hand = start((1000, 1000, 6), sb=10, bb=20, betting=betting)  # button 1, blinds 2 and 3 (6 chips)
    hand.act(1, "fold")
    hand.act(2, "fold")
    assert hand.done
    assert returns(hand) == [(2, 4)]  # the 4 of the small blind the big blind did not match
    assert awards(hand) == [(0, 3, 12, "pot")]
    assert final_stacks(hand) == {1: 1000, 2: 994, 3: 12}


def test_heads_up_big_blind_all_in_for_less_than_the_small_blind_R6_1_R3_5():
    hand = start((1000, 6), sb=10, bb=20)  # heads-up: the button (seat 1) posts the small blind
    hand.act(1, "fold")
    assert returns(hand) == [(1, 4)]
    assert final_stacks(hand) == {1: 994, 2: 12}


def test_short_big_blind_with_per_player_antes_wins_its_own_amount_from_each_R6_1_R3_4():
    # Antes first (from left of the button): the big blind antes 2, then posts its last 4 chips.
    hand = start((1000, 1000, 6), sb=10, bb=20, ante=2, ante_kind="per_player")
    hand.act(1, "fold")
    hand.act(2, "fold")
    # The big blind put in 6 (ante and blind): it wins the button's ante (2) and 6 of the small
    # blind's 12; the small blind's other 6 go back.
    assert returns(hand) == [(2, 6)]
    assert awards(hand) == [(0, 3, 14, "pot")]
    assert final_stacks(hand) == {1: 998, 2: 994, 3: 14}


def test_big_blind_all_in_on_its_ante_wins_one_ante_from_each_R6_1_R3_4_R3_7():
    hand = start((1000, 1000, 1), sb=10, bb=20, ante=2, ante_kind="per_player")  # antes 1, no blind
    hand.act(1, "fold")
    hand.act(2, "fold")
    assert returns(hand) == [(1, 1), (2, 11)]  # the button's second ante chip too
    assert final_stacks(hand) == {1: 999, 2: 999, 3: 3}


def test_short_big_blind_with_a_big_blind_ante_posts_the_blind_first_and_wins_6_R6_1_R3_4():
    hand = start((1000, 1000, 6), sb=10, bb=20, ante=20, ante_kind="big_blind")
    assert [e["blind"] for e in hand.events if e["type"] == "post"] == ["small_blind", "big_blind"]
    hand.act(1, "fold")
    hand.act(2, "fold")
    assert returns(hand) == [(2, 4)]
    assert final_stacks(hand) == {1: 1000, 2: 994, 3: 12}


def test_big_blind_ante_is_dead_money_the_big_blind_keeps_all_of_it_when_everyone_folds_R3_4():
    hand = start((1000, 1000, 30), sb=10, bb=20, ante=20, ante_kind="big_blind")  # blind 20, ante 10
    hand.act(1, "fold")
    hand.act(2, "fold")
    assert returns(hand) == [(3, 10)]  # the part of the big blind nobody called, at the end of the round
    assert awards(hand) == [(0, 3, 30, "pot")]  # its own 10, the small blind's 10 and the ante 10
    assert final_stacks(hand) == {1: 1000, 2: 990, 3: 40}


def test_short_big_blind_wins_6_from_each_caller_and_the_small_blind_R6_1():
    # Button 1, small blind 2, big blind 3 (6 chips), seat 4 under the gun.
    hand = start((1000, 1000, 6, 1000), sb=10, bb=20)
    hand.act(4, "call")
    hand.act(1, "raise", 60)
    hand.act(2, "fold")
    hand.act(4, "fold")
    assert returns(hand) == [(1, 40)]  # the raise nobody called
    # Main pot: 6 from each of the four; the rest (14 + 14 + 4) only the button can win.
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(24, (1, 3)), (32, (1,))]
    show_all(
        hand,
        {3: ["Kc", "Kh", "3d", "5d", "9c"], 1: ["7c", "7d", "3h", "8c", "9s"]},
        boards=[["Qc", "7h"], ["4s"], ["2d"]],
    )  # board Kd Qc 7h 4s 2d: three kings for the big blind beat the button's three sevens
    assert awards(hand) == [(0, 3, 24, "pot"), (1, 1, 32, "pot")]
    assert final_stacks(hand) == {1: 1012, 2: 990, 3: 24, 4: 980}


def test_unmatched_chips_go_back_as_soon_as_the_player_folds_R6_1():
    hand = start((1000, 1000, 1000, 6), sb=10, bb=20, button=2)  # small blind 3, big blind 4 (6 chips)
    hand.act(1, "fold")
    hand.act(2, "fold")
    hand.act(3, "fold")
    assert hand.events[-4:-2] == [
        {"type": "action", "seat": 3, "action": "fold", "amount": 0, "to": 10, "all_in": False},
        {"type": "return", "seat": 3, "amount": 4},
    ]
    assert final_stacks(hand) == {1: 1000, 2: 1000, 3: 994, 4: 12}


def test_returned_chips_leave_the_pots_and_replay_the_same_R6_1_R6_7():
    hand = start((1000, 1000, 6), sb=10, bb=20)
    hand.act(1, "fold")
    hand.act(2, "fold")
    again = Hand.replay(hand.events)
    assert again.view(public=False) == hand.view(public=False)
    assert sum(s["stack"] for s in hand.result()["stacks"]) == 2006


# -- properties ---------------------------------------------------------------------------------------


contribution_lists = st.lists(
    st.tuples(st.sampled_from([0, 1, 5, 6, 10, 20, 40]) | st.integers(0, 500), st.booleans()),
    min_size=2,
    max_size=8,
).filter(lambda c: any(live for _, live in c))


@given(contribution_lists, st.sampled_from([0, 0, 7, 20]))
def test_pots_hold_only_what_players_still_in_can_win_and_the_rest_goes_back_R6_1_R6_7(raw, dead):
    contributions = [(seat + 1, put_in, live) for seat, (put_in, live) in enumerate(raw)]
    pots = build_pots(contributions, dead)
    back = dict(unmatched(contributions))
    # R6.7: every chip is in a pot or goes back to its owner.
    assert sum(p.amount for p in pots) + sum(back.values()) == sum(c for _, c, _ in contributions) + dead
    top = max(c for _, c, live in contributions if live)
    for seat, put_in, live in contributions:
        assert back.get(seat, 0) == max(0, put_in - top)  # only chips nobody still in matched
        if live and put_in:
            # A player still in can win exactly what each opponent put in, up to their own amount.
            winnable = sum(p.amount for p in pots if seat in p.eligible)
            assert winnable == sum(min(other, put_in) for _, other, _ in contributions) + dead
    for pot in pots:
        assert pot.eligible and all(live for seat, _, live in contributions if seat in pot.eligible)


@st.composite
def short_stacked_hands(draw):
    """Small tables with short stacks, blinds and antes, and a lot of folding: the cases where a
    short all-in faces players who put in more."""
    count = draw(st.integers(2, 5))
    seats = sorted(draw(st.sets(st.integers(1, 8), min_size=count, max_size=count)))
    big_blind = draw(st.sampled_from([10, 20]))
    small_blind = draw(st.sampled_from([big_blind // 2, big_blind]))
    stacks = draw(st.lists(st.integers(1, 3 * big_blind) | st.integers(1, 60 * big_blind), min_size=count))
    where = positions.first_hand(seats, draw(st.sampled_from(seats)))
    ante_kind = draw(st.sampled_from(["none", "per_player", "big_blind"]))
    config = HandConfig(
        game=draw(st.sampled_from(["courchevel", "courchevel_hilo"])),
        betting=draw(st.sampled_from(["fixed_limit", "pot_limit", "no_limit"])),
        seats=[(seat, f"p{seat}", stack) for seat, stack in zip(seats, stacks)],
        button_seat=where.button,
        small_blind_seat=where.small_blind,
        big_blind_seat=where.big_blind,
        small_blind=small_blind,
        big_blind=big_blind,
        ante={"none": 0, "per_player": 5, "big_blind": big_blind}[ante_kind],
        ante_kind=ante_kind,
        smallest_chip=5,
    )
    return config, draw(st.binary(min_size=32, max_size=32))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(short_stacked_hands(), st.data())
def test_random_hands_no_one_wins_from_an_opponent_more_than_they_put_in_R6_1_R6_7(setup, data):
    config, seed = setup
    hand = Hand.start(config, seed=seed)
    total = sum(s.stack for s in config.seats)
    while not hand.done:
        options = hand.options()
        choice = data.draw(st.sampled_from(["fold", "fold", "passive", "min", "all_in"]))
        if choice == "fold":
            hand.act(options.seat, "fold")
        elif choice == "min" and options.raise_kind:
            hand.act(options.seat, options.raise_kind, options.min_to)
        elif choice == "all_in" and options.raise_kind:
            hand.act(options.seat, options.raise_kind, options.max_to)
        else:
            hand.act(options.seat, "call" if options.call else "check")
        view = hand.view(public=False)
        assert sum(p["stack"] for p in view["players"]) + view["pot_total"] == total  # R6.7
        if not hand.done:
            assert sum(p.amount for p in hand.pots()) == view["pot_total"]
    assert sum(s["stack"] for s in hand.result()["stacks"]) == total
    put_in, dead, won = money(hand)
    assert sum(won.values()) == sum(put_in.values()) + dead
    check_winnings_R6_1(hand)
