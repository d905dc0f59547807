"""Pots, showdown order and awards (R6.1-R6.5, R6.7), with exact boards entered by the dealer."""

import pytest

from dealing.engine import Hand, RuleError

from .handkit import awards, call_or_check, check_down, config, final_stacks, show_all, start

BOARD = [["Qc", "7h"], ["4s"], ["2d"]]  # with the first flop card Kd: Kd Qc 7h 4s 2d


def test_hilo_side_pots_of_different_all_ins_where_a_side_pot_has_no_low_R6_1_R6_4():
    hand = start((100, 300, 600, 600), game="courchevel_hilo", sb=5, bb=10)
    hand.act(4, "all_in")
    hand.act(1, "call")
    hand.act(2, "call")
    hand.act(3, "call")
    assert [(p.amount, p.eligible) for p in hand.pots()] == [
        (400, (1, 2, 3, 4)),
        (600, (2, 3, 4)),
        (600, (3, 4)),
    ]
    show_all(
        hand,
        {
            1: ["As", "3c", "Jh", "Jd", "9c"],  # best low 7-4-3-2-A
            2: ["5c", "6c", "Js", "9h", "8c"],  # low 7-6-5-4-2
            3: ["Kh", "Ks", "Th", "9s", "8d"],  # three kings, no low
            4: ["Qh", "Qs", "Jc", "Tc", "9d"],  # three queens, no low
        },
        BOARD,
    )
    assert hand.done
    assert awards(hand) == [
        (0, 3, 200, "high"),
        (0, 1, 200, "low"),
        (1, 3, 300, "high"),
        (1, 2, 300, "low"),
        (2, 3, 600, "pot"),  # no qualifying low among seats 3 and 4: the high takes it all
    ]
    assert final_stacks(hand) == {1: 200, 2: 300, 3: 1100, 4: 0}
    hands = {h["seat"]: h for h in hand.result()["hands"]}
    assert hands[1]["low"] == "7-4-3-2-A low" and hands[3]["low"] is None
    assert hands[3]["high"] == "Three of a kind, kings"
    assert hand.result()["busted"] == [4]


TIED = {
    1: ["Ah", "Kh", "9c", "8c", "3h"],
    2: ["Js", "Ts", "6d", "5d", "3s"],
    3: ["Ac", "Kc", "9d", "8d", "3c"],
    4: ["Ad", "Ks", "9h", "8h", "3d"],
}


def test_three_way_tie_odd_chip_goes_first_left_of_the_button_R6_3_R6_5():
    hand = start((1000,) * 4, sb=5, bb=10)  # button 1
    check_down(hand, BOARD)
    show_all(hand, TIED)
    # Pot 40 among seats 1, 3 and 4: 13 each and the odd chip to seat 3, the first tied left of the button.
    assert sorted(awards(hand), key=lambda a: a[1]) == [
        (0, 1, 13, "pot"),
        (0, 3, 14, "pot"),
        (0, 4, 13, "pot"),
    ]


def test_odd_chips_go_in_units_of_the_smallest_chip_R6_5():
    hand = start((1000,) * 4, sb=5, bb=10, smallest_chip=5)
    check_down(hand, BOARD)
    show_all(hand, TIED)
    # 40 is 8 chips of 5: 2 each and the 2 odd chips to seats 3 then 4.
    assert sorted(awards(hand), key=lambda a: a[1]) == [
        (0, 1, 10, "pot"),
        (0, 3, 15, "pot"),
        (0, 4, 15, "pot"),
    ]


def test_hilo_odd_unit_goes_to_the_high_half_R6_5():
    hand = start(
        (1000, 1000, 1000),
        game="courchevel_hilo",
        sb=5,
        bb=10,
        smallest_chip=5,
        ante=5,
        ante_kind="big_blind",
    )
    call_or_check(hand, 3)  # pot 30 + 5 ante = 35: seven chips of 5
    check_down(hand, BOARD)
    show_all(
        hand,
        {
            1: ["Kh", "Ks", "Th", "9s", "9d"],  # three kings, no low
            2: ["As", "3c", "Jh", "Jd", "9c"],  # low 7-4-3-2-A
            3: ["Qh", "Qs", "Jc", "Tc", "8d"],
        },
    )
    assert awards(hand) == [(0, 1, 20, "high"), (0, 2, 15, "low")]


def test_hilo_pot_quartered_when_two_tie_for_low_R6_4():
    hand = start((1000, 1000, 1000), game="courchevel_hilo", sb=10, bb=20)
    call_or_check(hand, 3)  # pot 60
    check_down(hand, BOARD)
    show_all(
        hand,
        {
            1: ["Kh", "Ks", "Th", "9s", "9d"],  # high
            2: ["As", "3c", "Jh", "Jd", "9c"],  # 7-4-3-2-A
            3: ["Ad", "3d", "Js", "Tc", "8d"],  # 7-4-3-2-A too
        },
    )
    assert awards(hand) == [(0, 1, 30, "high"), (0, 2, 15, "low"), (0, 3, 15, "low")]


def test_hilo_one_player_scoops_both_halves_with_different_pairs_R6_4_R2_6():
    hand = start((1000, 1000), game="courchevel_hilo", sb=10, bb=20)
    call_or_check(hand, 2)
    check_down(hand, BOARD)
    show_all(hand, {1: ["Ks", "Kh", "As", "3c", "9d"], 2: ["Qh", "Jh", "Td", "9s", "9c"]})
    assert awards(hand) == [(0, 1, 20, "high"), (0, 1, 20, "low")]
    hands = hand.result()["hands"]
    # R2.6: the high uses the kings, the low the ace and three.
    assert set(hands[0]["high_cards"]) & {"Ks", "Kh"} == {"Ks", "Kh"}
    assert set(hands[0]["low_cards"]) & {"As", "3c"} == {"As", "3c"}


def test_exactly_two_hole_cards_four_hearts_on_board_is_no_flush_R2_3():
    hand = start((1000, 1000), sb=10, bb=20, board1="Ah")
    call_or_check(hand, 2)
    check_down(hand, [["Kh", "Qh"], ["Jh"], ["2c"]])
    show_all(hand, {1: ["Th", "3c", "4c", "5d", "6d"], 2: ["2h", "3h", "9c", "9d", "8s"]})
    hands = {h["seat"]: h["high"] for h in hand.result()["hands"]}
    assert hands[1] == "High card, ace"  # no royal flush, no straight: only one hole card fits
    assert hands[2].startswith("Flush")  # two hearts in the hand make the flush
    assert awards(hand) == [(0, 2, 40, "pot")]


def test_everyone_all_in_before_the_flop_hands_are_turned_up_before_the_board_R4_6_R6_2():
    hand = start((200, 300, 400), game="courchevel_hilo", sb=10, bb=20)
    hand.act(1, "all_in")
    hand.act(2, "all_in")
    hand.act(3, "call")  # covers everyone
    assert hand.awaiting == "show" and hand.must_show
    # The last to bet or raise (seat 2) shows first, then clockwise.
    assert hand.to_show == 2
    with pytest.raises(RuleError) as error:
        hand.muck(2)
    assert (error.value.code, error.value.rule) == ("must_show", "R6.2")
    order = show_all(
        hand,
        {
            1: ["As", "3c", "Jh", "Jd", "9c"],
            2: ["Kh", "Ks", "Th", "9s", "8d"],
            3: ["Qh", "Qs", "Jc", "Tc", "9d"],
        },
        BOARD,
    )
    assert order == [2, 3, 1]
    kinds = [e["type"] for e in hand.events]
    assert kinds.index("show") < kinds.index("board", kinds.index("action"))  # shown before the flop
    assert hand.done
    total = {s["seat"]: s["stack"] for s in hand.result()["stacks"]}
    assert sum(total.values()) == 900  # R6.7


def test_showdown_order_last_aggressor_on_the_river_shows_first_R6_2():
    hand = start((1000,) * 3, sb=5, bb=10)
    call_or_check(hand, 3)
    check_down_until_river = [["Qc", "7h"], ["4s"]]
    while hand.street != 3 or hand.awaiting == "board":
        if hand.awaiting == "board":
            hand.enter_board(check_down_until_river.pop(0) if check_down_until_river else ["2d"])
        else:
            call_or_check(hand)
    hand.act(2, "check")
    hand.act(3, "bet", 10)
    hand.act(1, "call")
    hand.act(2, "call")
    assert hand.to_show == 3


def test_showdown_order_without_a_bet_starts_left_of_the_button_R6_2():
    hand = start((1000,) * 3, button=2, sb=5, bb=10)  # button 2, small blind 3, big blind 1
    check_down(hand, BOARD)
    assert hand.to_show == 3


def test_a_player_may_muck_and_the_last_one_wins_without_showing_R6_2():
    hand = start((1000,) * 3, sb=5, bb=10)
    check_down(hand, BOARD)
    assert hand.to_show == 2
    hand.muck(2)
    hand.muck(3)
    assert hand.done
    assert awards(hand) == [(0, 1, 30, "pot")]
    assert [e["type"] for e in hand.events].count("show") == 0


def test_last_player_in_wins_without_showdown_R4_5():
    hand = start((1000,) * 3, sb=5, bb=10)
    hand.act(1, "raise", 30)
    hand.act(2, "fold")
    hand.act(3, "fold")
    assert hand.done
    assert [e for e in hand.events if e["type"] == "return"] == [{"type": "return", "seat": 1, "amount": 20}]
    assert awards(hand) == [(0, 1, 25, "pot")]
    assert final_stacks(hand) == {1: 1015, 2: 995, 3: 990}


def test_antes_are_dead_money_and_short_antes_make_side_pots_R3_4_R3_7():
    hand = start((1000, 1000, 3, 1000), sb=5, bb=10, ante=5, ante_kind="per_player")
    post = {(e["seat"], e["blind"]): e for e in hand.events if e["type"] == "post"}
    assert post[(3, "ante")]["amount"] == 3 and post[(3, "ante")]["all_in"]  # posts what they have
    assert (3, "big_blind") not in post  # nothing left for the big blind
    assert hand.options().call == 10  # antes are not part of the bet; R5.6 the big blind stays 10
    call_or_check(hand, 3)  # seats 4, 1, 2
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(12, (1, 2, 3, 4)), (36, (1, 2, 4))]


def test_big_blind_ante_goes_to_the_main_pot_blind_first_when_short_R3_4_R3_7():
    hand = start((1000, 1000, 130), sb=50, bb=100, ante=100, ante_kind="big_blind")
    posts = [(e["seat"], e["blind"], e["amount"], e["all_in"]) for e in hand.events if e["type"] == "post"]
    assert posts == [
        (2, "small_blind", 50, False),
        (3, "big_blind", 100, False),
        (3, "big_blind_ante", 30, True),
    ]
    hand.act(1, "call")
    hand.act(2, "call")
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(330, (1, 2, 3))]


def test_a_nine_low_does_not_qualify_so_the_high_takes_the_pot_R2_5_R6_4():
    hand = start((1000, 1000), game="courchevel_hilo", sb=10, bb=20, board1="9d")
    call_or_check(hand, 2)
    check_down(hand, [["6c", "5h"], ["Ks"], ["Kd"]])  # board 9 6 5 K K: a low must use the 9
    show_all(hand, {1: ["As", "2c", "Jh", "Jd", "Qc"], 2: ["Qh", "Qs", "Th", "Ts", "8d"]})
    hands = {h["seat"]: h for h in hand.result()["hands"]}
    assert hands[1]["low"] is None  # 9-6-5-2-A is not 8 or better
    assert hands[2]["high"] == "Two pair, kings and queens"
    assert awards(hand) == [(0, 2, 40, "pot")]


def test_the_wheel_is_the_lowest_straight_R2_4():
    hand = start((1000, 1000), sb=10, bb=20, board1="3d")
    call_or_check(hand, 2)
    check_down(hand, [["4c", "5h"], ["Kh"], ["Qd"]])
    show_all(hand, {1: ["As", "2c", "Jh", "Jd", "9c"], 2: ["6s", "2h", "Th", "Ts", "8d"]})
    hands = {h["seat"]: h["high"] for h in hand.result()["hands"]}
    assert hands[1] == "Straight, five high" and hands[2] == "Straight, six high"
    assert awards(hand) == [(0, 2, 40, "pot")]


def test_chips_are_conserved_after_every_action_R6_7():
    hand = start((500, 120, 800, 60), game="courchevel_hilo", sb=5, bb=10, ante=2, ante_kind="per_player")
    total = 500 + 120 + 800 + 60

    def in_play():
        view = hand.view(public=False)
        return sum(p["stack"] for p in view["players"]) + view["pot_total"]

    for seat, action, amount in [
        (4, "all_in", None),
        (1, "raise", 200),
        (2, "all_in", None),
        (3, "call", None),
    ]:
        hand.act(seat, action, amount)
        assert in_play() == total
    while hand.awaiting == "action" or hand.awaiting == "board":
        if hand.awaiting == "board":
            hand.enter_board({1: ["Qc", "7h"], 2: ["4s"], 3: ["2d"]}[hand.street])
        else:
            call_or_check(hand)
        assert in_play() == total
    show_all(
        hand,
        {
            s: c
            for s, c in zip(
                (1, 2, 3, 4),
                (
                    ["As", "3c", "Jh", "Jd", "9c"],
                    ["5c", "6c", "Js", "9h", "8c"],
                    ["Kh", "Ks", "Th", "9s", "8d"],
                    ["Qh", "Qs", "Jc", "Tc", "9d"],
                ),
            )
        },
        BOARD,
    )
    assert hand.done and sum(final_stacks(hand).values()) == total


def _to_river(hand, turn_actions):
    """Call the hand to the turn, play ``turn_actions`` there, and enter the river."""
    call_or_check(hand, len(hand.config.seats))
    hand.enter_board(["Qc", "7h"])
    call_or_check(hand, len(hand.config.seats))
    hand.enter_board(["4s"])
    for seat, action, amount in turn_actions:
        hand.act(seat, action, amount)
    hand.enter_board(["2d"])


def test_showdown_order_the_river_aggressor_then_clockwise_R6_2():
    hand = start((1000,) * 4, sb=5, bb=10)  # button 1: left of it are seats 2, 3, 4, 1
    _to_river(hand, [(2, "check", None), (3, "check", None), (4, "check", None), (1, "check", None)])
    hand.act(2, "check")
    hand.act(3, "bet", 20)
    hand.act(4, "raise", 40)  # the last to bet or raise
    hand.act(1, "call")
    hand.act(2, "call")
    hand.act(3, "call")
    assert show_all(hand, TIED) == [4, 1, 2, 3]


def test_a_bet_on_an_earlier_street_does_not_decide_the_showdown_order_R6_2():
    hand = start((1000,) * 4, sb=5, bb=10)
    _to_river(
        hand,
        [
            (2, "check", None),
            (3, "check", None),
            (4, "bet", 20),
            (1, "call", None),
            (2, "call", None),
            (3, "call", None),
        ],
    )
    call_or_check(hand, 4)  # the river is checked: no bet in the last round
    assert show_all(hand, TIED) == [2, 3, 4, 1]  # first left of the button, then clockwise


def test_no_muck_at_the_river_when_a_player_is_all_in_R6_2():
    hand = start((1000, 1000, 100), sb=5, bb=10)
    hand.act(1, "raise", 100)
    hand.act(2, "call")
    hand.act(3, "call")  # seat 3 is all-in; seats 1 and 2 bet on into a side pot
    hand.enter_board(["Qc", "7h"])
    hand.act(2, "bet", 50)
    hand.act(1, "call")
    hand.enter_board(["4s"])
    call_or_check(hand, 2)
    hand.enter_board(["2d"])
    call_or_check(hand, 2)
    assert hand.must_show and hand.to_show == 2
    with pytest.raises(RuleError) as error:
        hand.muck(2)
    assert (error.value.code, error.value.rule) == ("must_show", "R6.2")
    assert show_all(hand, TIED) == [2, 3, 1]


def test_all_in_on_the_flop_every_hand_is_turned_up_before_the_turn_and_river_R6_2_R4_6():
    hand = Hand.start(config((1000, 300, 1000), mode="seeded"), seed=bytes(32))
    call_or_check(hand, 3)
    hand.act(2, "bet", 290)  # all-in
    hand.act(3, "call")
    hand.act(1, "fold")
    kinds = [e["type"] for e in hand.events]
    last_action = max(i for i, kind in enumerate(kinds) if kind == "action")
    tail = [(e["type"], e.get("seat"), e.get("street")) for e in hand.events[last_action + 1 :]]
    assert tail[:4] == [
        ("show", 2, None),
        ("show", 3, None),
        ("board", None, "turn"),
        ("board", None, "river"),
    ]
    assert hand.done


def test_odd_chip_goes_left_of_the_button_round_the_table_R6_5():
    hand = start((1000,) * 4, button=3, sb=5, bb=10)  # left of the button: seats 4, 1, 2, 3
    check_down(hand, BOARD)
    show_all(hand, TIED)
    # Seats 1, 3 and 4 tie for 40: seat 4 is the first of them left of the button, not seat 1.
    assert awards(hand) == [(0, 4, 14, "pot"), (0, 1, 13, "pot"), (0, 3, 13, "pot")]


def test_hilo_odd_unit_to_the_high_then_the_low_tie_odd_unit_left_of_the_button_R6_5():
    hand = start(
        (1000, 1000, 1000),
        game="courchevel_hilo",
        sb=5,
        bb=10,
        smallest_chip=5,
        ante=5,
        ante_kind="big_blind",
    )  # button 1: left of it are seats 2, 3, 1
    call_or_check(hand, 3)  # pot 35: seven chips of 5
    check_down(hand, BOARD)
    show_all(
        hand,
        {
            1: ["Ad", "3d", "Js", "Tc", "8d"],  # low 7-4-3-2-A
            2: ["Kh", "Ks", "Th", "9s", "9d"],  # three kings, no low
            3: ["As", "3c", "Jh", "Jd", "9c"],  # low 7-4-3-2-A too
        },
    )
    # High 20 (the odd chip of 5), low 15 shared by seats 3 and 1: 10 to seat 3, first left of the button.
    assert awards(hand) == [(0, 2, 20, "high"), (0, 3, 10, "low"), (0, 1, 5, "low")]
