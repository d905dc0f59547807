"""Entered-card mode: a dealer with a physical deck enters the board and the hands shown (R2.1, R4.2)."""

import json

import pytest

from dealing.engine import Hand, RuleError

from .handkit import call_or_check, check_down, config, show_all


def entered(stacks=(1000, 1000, 1000), **kwargs) -> Hand:
    return Hand.start(config(stacks, mode="entered", **kwargs))


def test_no_betting_before_the_first_flop_card_is_turned_up_R4_2():
    hand = entered()
    assert (hand.awaiting, hand.board_needed, hand.to_act) == ("board", 1, None)
    with pytest.raises(RuleError) as error:
        hand.act(1, "call")
    assert error.value.code == "not_waiting"
    hand.enter_board(["Kd"])
    assert hand.awaiting == "action" and hand.to_act == 1


def test_board_cards_are_checked_R2_1():
    hand = entered()
    for cards, code in [
        (["Kd", "Qd"], "wrong_card_count"),
        (["10h"], "bad_cards"),
        ([], "wrong_card_count"),
        ("Kd", "bad_cards"),
    ]:
        with pytest.raises(RuleError) as error:
            hand.enter_board(cards)
        assert error.value.code == code
        assert hand.board == [] and hand.awaiting == "board"
    hand.enter_board(["Kd"])
    call_or_check(hand, 3)
    assert hand.board_needed == 2
    with pytest.raises(RuleError) as error:
        hand.enter_board(["Kd", "2c"])
    assert (error.value.code, error.value.rule) == ("card_used", "R2.1")
    with pytest.raises(RuleError) as error:
        hand.enter_board(["2c", "2c"])
    assert (error.value.code, error.value.rule) == ("duplicate_card", "R2.1")
    hand.enter_board(["2c", "3c"])
    assert hand.board == ["Kd", "2c", "3c"]


def test_hands_are_shown_in_order_with_unused_cards():
    hand = entered()
    hand.enter_board(["Kd"])
    check_down(hand, [["Qc", "7h"], ["4s"], ["2d"]])
    assert hand.to_show == 2
    with pytest.raises(RuleError) as error:
        hand.show(3, ["As", "3c", "Jh", "Jd", "9c"])
    assert (error.value.code, error.value.rule) == ("not_your_turn", "R6.2")
    with pytest.raises(RuleError) as error:
        hand.show(2, ["As", "3c", "Jh", "Jd", "Kd"])  # Kd is on the board
    assert error.value.code == "card_used"
    with pytest.raises(RuleError) as error:
        hand.show(2, ["As", "3c", "Jh", "Jd"])  # R2.2: five hole cards
    assert (error.value.code, error.value.rule) == ("wrong_card_count", "R2.2")
    assert error.value.params["count"] == 5 and error.value.params["got"] == 4
    hand.show(2, ["As", "3c", "Jh", "Jd", "9c"])
    with pytest.raises(RuleError) as error:
        hand.show(3, ["As", "5c", "6h", "6d", "9d"])  # As was just shown by seat 2
    assert error.value.code == "card_used"


def test_unseen_cards_stay_unknown():
    hand = entered()
    hand.enter_board(["Kd"])
    check_down(hand, [["Qc", "7h"], ["4s"], ["2d"]])
    hand.show(2, ["As", "3c", "Jh", "Jd", "9c"])
    hand.muck(3)
    hand.show(1, ["Ah", "3d", "Js", "Tc", "9d"])
    full = hand.view(public=False)
    assert {p["seat"]: p["cards"] for p in full["players"]} == {
        1: ["Ah", "3d", "Js", "Tc", "9d"],
        2: ["As", "3c", "Jh", "Jd", "9c"],
        3: None,
    }
    assert not any(e["type"] == "hole" for e in hand.events)


def test_entered_hand_replays_from_json():
    hand = entered((300, 500, 800), game="courchevel_hilo", betting="pot_limit")
    hand.enter_board(["Kd"])
    hand.act(1, "raise", 35)
    hand.act(2, "call")
    hand.act(3, "call")
    check_down(hand, [["Qc", "7h"], ["4s"], ["2d"]])
    show_all(
        hand,
        {
            2: ["As", "3c", "Jh", "Jd", "9c"],
            3: ["Kh", "Ks", "Th", "9s", "8d"],
            1: ["Qh", "Qs", "Jc", "Tc", "9d"],
        },
    )
    again = Hand.replay(json.loads(json.dumps(hand.events)))
    assert again.result() == hand.result() and again.view(False) == hand.view(False)


def test_enter_board_is_refused_in_seeded_mode():
    hand = Hand.start(config(mode="seeded"), seed=bytes(32))
    with pytest.raises(RuleError) as error:
        hand.enter_board(["2c"])
    assert error.value.code == "not_waiting"
