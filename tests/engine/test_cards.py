"""R2.1/R2.2: strict card codes, and whole-number chip amounts."""

import pytest

from dealing.engine import evaluate_high
from dealing.engine.cards import (
    CODES,
    CardError,
    format_card,
    format_cards,
    parse_board,
    parse_card,
    parse_cards,
    parse_hole,
)

HOLE = ["As", "Kd", "7c", "7h", "2s"]
BOARD = ["Qs", "Jd", "9c", "4h", "3d"]


def test_r2_1_every_code_of_the_deck_round_trips():
    assert len(CODES) == 52 == len(set(CODES))
    for code in CODES:
        assert format_card(parse_card(code)) == code
    assert parse_card("2c") == 0 and parse_card("As") == 51
    assert format_cards(parse_cards(["Td", "9h"])) == ["Td", "9h"]


@pytest.mark.parametrize(
    "bad, hint",
    [
        ("10h", "'Th'"),  # a ten is T
        ("AH", "'Ah'"),  # suits are lower case
        ("as", "'As'"),  # ranks are upper case
        ("1s", "'As'"),  # an ace is A
        ("Xx", None),
        ("", None),
        ("As ", None),
        ("Ahh", None),
    ],
)
def test_r2_1_bad_codes_are_refused_naming_the_input(bad, hint):
    with pytest.raises(CardError) as caught:
        parse_card(bad)
    message = str(caught.value)
    assert repr(bad) in message and "R2.1" in message
    assert caught.value.code == "invalid_card" and caught.value.rule == "R2.1"
    assert caught.value.params == {"card": bad}
    if hint:
        assert hint in message


@pytest.mark.parametrize("bad", [None, 51, b"As", ("A", "s"), 1.5])
def test_r2_1_a_card_code_must_be_a_string(bad):
    with pytest.raises(CardError, match="must be a string") as caught:
        parse_card(bad)
    assert repr(bad) in str(caught.value)


def test_r2_1_a_duplicate_card_is_named():
    with pytest.raises(CardError, match="duplicate card Kd in hole cards") as caught:
        parse_hole(["As", "Kd", "7c", "Kd", "2s"])
    assert caught.value.code == "duplicate_card"
    assert caught.value.params == {"what": "hole cards", "card": "Kd"}


@pytest.mark.parametrize("count", [4, 6])
def test_r2_2_four_or_six_hole_cards_are_refused(count):
    cards = ["As", "Kd", "7c", "7h", "2s", "3d"][:count]
    with pytest.raises(CardError, match=f"hole cards must be exactly 5 cards, got {count}") as caught:
        parse_hole(cards)
    assert caught.value.rule == "R2.2" and caught.value.code == "wrong_card_count"
    with pytest.raises(CardError, match=f"got {count}"):
        evaluate_high(cards, BOARD)


def test_r2_2_the_board_is_five_cards():
    assert parse_board(BOARD) == [parse_card(c) for c in BOARD]
    with pytest.raises(CardError, match="board must be exactly 5 cards, got 3"):
        parse_board(BOARD[:3])


def test_a_string_of_codes_is_not_a_list_of_cards():
    with pytest.raises(CardError, match="must be a list of card codes"):
        parse_cards("AsKd")
    with pytest.raises(CardError, match="must be a list of card codes"):
        evaluate_high("As Kd 7c 7h 2s", BOARD)


def test_r2_1_evaluation_refuses_bad_input_naming_it():
    with pytest.raises(CardError, match="'10h' is not a card code"):
        evaluate_high(["10h", "Kd", "7c", "7h", "2s"], BOARD)
    with pytest.raises(CardError, match="duplicate card 9c in both the hole cards and the board"):
        evaluate_high(["As", "Kd", "9c", "7h", "2s"], BOARD)
    with pytest.raises(CardError, match="duplicate card Qs in board"):
        evaluate_high(HOLE, ["Qs", "Qs", "9c", "4h", "3d"])
    with pytest.raises(CardError, match="must be a list of card codes, not None"):
        evaluate_high(None, BOARD)
    with pytest.raises(CardError, match="must be a string like 'As', not \\['As'\\]"):
        evaluate_high([["As"], "Kd", "7c", "7h", "2s"], BOARD)
    # Any iterable of codes works, not just lists.
    assert evaluate_high(iter(HOLE), tuple(BOARD)) == evaluate_high(HOLE, BOARD)


@pytest.mark.parametrize("bad", [-1, 52, True, "3"])
def test_format_card_refuses_what_is_not_a_card_index(bad):
    with pytest.raises(CardError):
        format_card(bad)


def test_card_errors_are_engine_rule_errors_the_api_can_report():
    from dealing.engine.errors import RuleError

    with pytest.raises(RuleError) as caught:
        parse_card("10h")
    assert caught.value.to_dict()["code"] == "invalid_card" and caught.value.to_dict()["rule"] == "R2.1"
