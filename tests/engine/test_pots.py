"""Pot building and splitting on their own (R6.1, R6.4, R6.5); whole hands are in test_hand_showdown."""

from dealing.engine.pots import Pot, award, build_pots, halves, split


def test_unequal_all_ins_make_a_main_pot_and_side_pots_R6_1():
    pots = build_pots([(1, 100, True), (2, 300, True), (3, 600, True), (4, 600, True)])
    assert pots == [Pot(400, (1, 2, 3, 4)), Pot(600, (2, 3, 4)), Pot(600, (3, 4))]


def test_folded_chips_stay_in_the_pots_they_reached_R6_1():
    pots = build_pots([(1, 100, True), (2, 250, False), (3, 400, True)])
    # Seat 2 folded: its chips are in both pots, it can win neither.
    assert pots == [Pot(300, (1, 3)), Pot(450, (3,))]


def test_levels_with_the_same_players_merge_and_dead_money_joins_the_main_pot_R3_4():
    pots = build_pots([(1, 50, True), (2, 120, False), (3, 120, True)], dead=30)
    assert pots == [Pot(50 * 3 + 30, (1, 3)), Pot(140, (3,))]


def test_split_in_units_odd_chips_from_the_first_left_of_the_button_R6_5():
    assert split(40, [3, 4, 1], 1) == [(3, 14), (4, 13), (1, 13)]
    assert split(40, [3, 4, 1], 5) == [(3, 15), (4, 15), (1, 10)]
    assert split(42, [3, 4, 1], 5) == [(3, 17), (4, 15), (1, 10)]  # 2 chips below a unit: with the first


def test_hilo_halves_odd_unit_to_the_high_R6_5():
    assert halves(35, 5) == (20, 15)
    assert halves(30, 1) == (15, 15)
    assert halves(31, 1) == (16, 15)


def test_award_high_low_and_no_low_R6_4():
    pot = Pot(100, (1, 2, 3))
    order = [2, 3, 1]
    assert award(pot, order, {1: 9, 2: 5, 3: 9}, {2: 200}, 1) == [
        (3, 25, "high"),
        (1, 25, "high"),
        (2, 50, "low"),
    ]
    assert award(pot, order, {1: 9, 2: 5, 3: 1}, {}, 1) == [(1, 100, "pot")]  # no qualifying low
    assert award(pot, order, {1: 9, 2: 5, 3: 1}, None, 1) == [(1, 100, "pot")]  # high-only game
    assert award(Pot(100, (2,)), order, {}, {}, 1) == [(2, 100, "pot")]  # uncontested
