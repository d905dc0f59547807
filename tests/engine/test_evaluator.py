"""R2.3–R2.6: Courchevel high and 8-or-better low hands.

The fast evaluator is checked against a brute-force reference written here, independently of the
tables in dealing/engine/evaluator.py (10 hole pairs × 10 board triples, each five cards scored from
scratch), on thousands of random deals, and against pokerkit's Omaha-style evaluators on a few hundred.
"""

import random
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealing.engine import evaluate_high, evaluate_low
from dealing.engine.cards import CODES, parse_cards
from dealing.engine.evaluator import (
    NO_LOW,
    HighValue,
    LowValue,
    evaluate_hand,
    high_strength,
    hilo_strengths,
    low_strength,
    prepare_board,
)

RANK_VALUE = {r: i for i, r in enumerate("23456789TJQKA", start=2)}  # deuce 2 .. ace 14


# --- the reference ------------------------------------------------------------------------------


def reference_five(cards: tuple[str, ...]) -> tuple[int, ...]:
    """(category 0..8, tie-break ranks as 0 = deuce .. 12 = ace) of exactly five cards."""
    values = sorted((RANK_VALUE[c[0]] for c in cards), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    distinct = sorted(set(values), reverse=True)
    straight_top = None
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        straight_top = distinct[0]
    if distinct == [14, 5, 4, 3, 2]:
        straight_top = 5
    groups = sorted(((values.count(v), v) for v in distinct), reverse=True)
    shape = [n for n, _ in groups]
    tie = [v - 2 for _, v in groups]
    if straight_top and flush:
        return (8, straight_top - 2)
    if shape == [4, 1]:
        return (7, *tie)
    if shape == [3, 2]:
        return (6, *tie)
    if flush:
        return (5, *tie)
    if straight_top:
        return (4, straight_top - 2)
    if shape == [3, 1, 1]:
        return (3, *tie)
    if shape == [2, 2, 1]:
        return (2, *tie)
    if shape == [2, 1, 1, 1]:
        return (1, *tie)
    return (0, *tie)


def reference_low_five(cards: tuple[str, ...]) -> tuple[int, ...] | None:
    """The five low ranks from the highest down (ace = 1), or None unless 8-or-better."""
    ranks = sorted((1 if c[0] == "A" else RANK_VALUE[c[0]] for c in cards), reverse=True)
    if len(set(ranks)) < 5 or ranks[0] > 8:
        return None
    return tuple(ranks)


def reference(hole, board):
    """Best high key and best low ranks over every 2 + 3 combination (R2.3), separately (R2.6)."""
    highs, lows = [], []
    for pair in combinations(hole, 2):
        for triple in combinations(board, 3):
            highs.append(reference_five(pair + triple))
            low = reference_low_five(pair + triple)
            if low is not None:
                lows.append(low)
    return max(highs), (min(lows) if lows else None)


def deal(rng: random.Random) -> tuple[list[str], list[str]]:
    cards = rng.sample(CODES, 10)
    return cards[:5], cards[5:]


def uses_two_and_three(value, hole, board):
    return (
        len(value.cards) == 5
        and len(set(value.cards) & set(hole)) == 2
        and len(set(value.cards) & set(board)) == 3
    )


# --- random deals against the reference ------------------------------------------------------------


def test_fast_evaluator_matches_the_reference_on_2000_seeded_random_deals():
    rng = random.Random(20261130)
    results = []
    for _ in range(2000):
        hole, board = deal(rng)
        high, low = evaluate_hand(hole, board)
        ref_high, ref_low = reference(hole, board)
        assert high.key == ref_high, (hole, board)
        assert reference_five(high.cards) == ref_high and uses_two_and_three(high, hole, board)
        if ref_low is None:
            assert low is None, (hole, board)
        else:
            assert low.ranks == ref_low, (hole, board)
            assert reference_low_five(low.cards) == ref_low and uses_two_and_three(low, hole, board)
        results.append((high, ref_high, low, ref_low))
    # Values order hands exactly as the reference does, across different deals too.
    for (h1, r1, l1, rl1), (h2, r2, l2, rl2) in pairwise(results):
        assert (h1 < h2, h1 == h2, h1 > h2) == (r1 < r2, r1 == r2, r1 > r2)
        if l1 and l2:
            assert (l1 < l2, l1 == l2) == (rl1 > rl2, rl1 == rl2)  # a smaller reference low is better


@settings(max_examples=300, deadline=None)
@given(st.permutations(CODES))
def test_fast_evaluator_matches_the_reference_hypothesis(deck):
    hole, board = deck[:5], deck[5:10]
    ref_high, ref_low = reference(hole, board)
    assert evaluate_high(hole, board).key == ref_high
    low = evaluate_low(hole, board)
    assert (low.ranks if low else None) == ref_low


def test_flush_heavy_deals_match_the_reference():
    """Random deals are mostly flush-free: deal from two suits so the flush path is exercised."""
    rng = random.Random(7)
    two_suits = [c for c in CODES if c[1] in "hs"]
    for _ in range(600):
        cards = rng.sample(two_suits, 10)
        hole, board = cards[:5], cards[5:]
        ref_high, _ = reference(hole, board)
        high = evaluate_high(hole, board)
        assert high.key == ref_high, (hole, board)
        assert reference_five(high.cards) == ref_high and uses_two_and_three(high, hole, board)


def test_int_fast_paths_agree_with_the_values():
    rng = random.Random(3)
    for _ in range(300):
        hole, board = deal(rng)
        h, b = parse_cards(hole), parse_cards(board)
        high, low = evaluate_hand(hole, board)
        prepared = prepare_board(b)
        assert high_strength(h, b) == high_strength(h, prepared) == high.strength
        assert low_strength(h, b) == (low.strength if low else NO_LOW)
        assert hilo_strengths(h, prepared) == (high.strength, low.strength if low else NO_LOW)
        assert HighValue.from_strength(high.strength).name == high.name
        assert LowValue.from_strength(low_strength(h, b)) == low


def test_matches_pokerkit_on_random_deals():
    """pokerkit's Omaha evaluators with five hole cards play exactly two hole and three board cards."""
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random(11)
    for _ in range(150):
        hole, board = deal(rng)
        other_hole, other_board = deal(rng)
        ours = evaluate_high(hole, board), evaluate_high(other_hole, other_board)
        theirs = (
            pokerkit.OmahaHoldemHand.from_game("".join(hole), "".join(board)),
            pokerkit.OmahaHoldemHand.from_game("".join(other_hole), "".join(other_board)),
        )
        assert (ours[0] < ours[1], ours[0] == ours[1]) == (theirs[0] < theirs[1], theirs[0] == theirs[1])
        try:
            their_low = pokerkit.OmahaEightOrBetterLowHand.from_game("".join(hole), "".join(board))
        except ValueError:
            their_low = None
        our_low = evaluate_low(hole, board)
        assert (our_low is None) == (their_low is None), (hole, board)
        if our_low:
            assert sorted(our_low.ranks) == sorted(
                1 if c.rank.value == "A" else RANK_VALUE[c.rank.value] for c in their_low.cards
            )


# --- the rules, by example ------------------------------------------------------------------------------


def test_r2_3_four_hearts_in_the_hand_and_one_on_the_board_is_no_flush():
    high = evaluate_high(["Ah", "Kh", "8h", "6h", "2c"], ["Qh", "9s", "7d", "4c", "3s"])
    assert high.category == "High card"
    assert high.name == "High card, ace"


def test_r2_3_a_flush_on_the_board_needs_two_hole_cards_of_its_suit():
    board = ["2h", "7h", "9h", "Jh", "Kh"]
    assert evaluate_high(["Ah", "As", "Ac", "Qd", "3c"], board).name == "One pair, aces"  # one heart only
    flush = evaluate_high(["Ah", "3h", "Ac", "Qd", "3c"], board)
    assert flush.name == "Flush, ace high"
    assert set(flush.cards) == {"Ah", "3h", "Kh", "Jh", "9h"}


def test_r2_3_a_straight_on_the_board_does_not_play_alone():
    high = evaluate_high(["As", "Ad", "Kh", "Qc", "2d"], ["9c", "8d", "7h", "6s", "5c"])
    assert high.name == "One pair, aces"
    assert set(high.cards) == {"As", "Ad", "9c", "8d", "7h"}


def test_r2_3_four_of_a_kind_in_the_hand_plays_as_a_pair():
    high = evaluate_high(["Ac", "Ad", "Ah", "As", "Kc"], ["2c", "3d", "7h", "8s", "Jc"])
    assert high.name == "One pair, aces"


def test_r2_3_exactly_three_board_cards_with_trips_on_the_board():
    high = evaluate_high(["7c", "7s", "2d", "3d", "4d"], ["Kh", "Kd", "Ks", "7h", "9c"])
    assert high.name == "Full house, kings full of sevens"
    assert set(high.cards) == {"7c", "7s", "Kh", "Kd", "Ks"}
    # Quads on the board play as trips: the fourth king cannot be the fourth board card.
    quads = evaluate_high(["Qc", "Qs", "2d", "3d", "4d"], ["Kh", "Kd", "Ks", "Kc", "9c"])
    assert quads.name == "Full house, kings full of queens"


@pytest.mark.parametrize(
    "hole, board, name",
    [
        (["Ah", "Kh", "2c", "3d", "4s"], ["Qh", "Jh", "Th", "5c", "6d"], "Royal flush"),
        (["9h", "8h", "2c", "3d", "4s"], ["7h", "6h", "5h", "Kc", "Kd"], "Straight flush, nine high"),
        (["Ks", "Kd", "2c", "3d", "4s"], ["Kh", "Kc", "5h", "9c", "Jd"], "Four of a kind, kings"),
        (["Ks", "Jd", "2c", "3d", "4s"], ["Kh", "Jc", "Jh", "9c", "6d"], "Full house, jacks full of kings"),
        (["Ks", "Qs", "2c", "3d", "4h"], ["9s", "7s", "5s", "9c", "6d"], "Flush, king high"),
        (["Ts", "9d", "2c", "3d", "4h"], ["8s", "7c", "6s", "Kc", "Kd"], "Straight, ten high"),
        (["Ts", "Td", "2c", "3d", "4h"], ["Tc", "7c", "6s", "Kc", "Qd"], "Three of a kind, tens"),
        (["Ts", "6d", "2c", "3d", "4h"], ["Tc", "6c", "Js", "Kc", "Qd"], "Two pair, tens and sixes"),
        (["Ts", "6d", "2c", "3d", "4h"], ["Tc", "9c", "Js", "Kc", "Qd"], "One pair, tens"),
    ],
)
def test_r2_4_high_hands_name_themselves_as_a_dealer_says_them(hole, board, name):
    assert evaluate_high(hole, board).name == name
    assert str(evaluate_high(hole, board)) == name


def test_r2_4_the_categories_rank_in_standard_order():
    hands = [
        (["Ts", "6d", "2c", "3d", "4h"], ["Tc", "9c", "Js", "Kc", "Qd"]),  # one pair
        (["Ts", "6d", "2c", "3d", "4h"], ["Tc", "6c", "Js", "Kc", "Qd"]),  # two pair
        (["Ts", "Td", "2c", "3d", "4h"], ["Tc", "7c", "6s", "Kc", "Qd"]),  # trips
        (["As", "2d", "9c", "9d", "Kh"], ["3c", "4s", "5h", "Jc", "Qd"]),  # wheel
        (["Ts", "9d", "2c", "3d", "4h"], ["8s", "7c", "6s", "Kc", "Kd"]),  # straight
        (["Ks", "Qs", "2c", "3d", "4h"], ["9s", "7s", "5s", "9c", "6d"]),  # flush
        (["Ks", "Jd", "2c", "3d", "4s"], ["Kh", "Jc", "Jh", "9c", "6d"]),  # full house
        (["Ks", "Kd", "2c", "3d", "4s"], ["Kh", "Kc", "5h", "9c", "Jd"]),  # quads
        (["Ah", "2h", "9c", "9d", "Ks"], ["3h", "4h", "5h", "Jc", "Qd"]),  # steel wheel
        (["9h", "8h", "2c", "3d", "4s"], ["7h", "6h", "5h", "Kc", "Kd"]),  # straight flush
    ]
    values = [evaluate_high(hole, board) for hole, board in hands]
    assert values == sorted(values) and len(set(values)) == len(values)


def test_r2_4_the_wheel_is_the_lowest_straight():
    wheel = evaluate_high(["As", "2d", "9c", "9d", "Kh"], ["3c", "4s", "5h", "Jc", "Qd"])
    six_high = evaluate_high(["6s", "2d", "9c", "9d", "Kh"], ["3c", "4s", "5h", "Jc", "Qd"])
    assert wheel.name == "Straight, five high" and six_high.name == "Straight, six high"
    assert wheel < six_high
    assert wheel > evaluate_high(["As", "Ad", "9c", "9d", "Kh"], ["Ac", "4s", "5h", "Jc", "Qd"])  # trips
    # The ace does not go round the corner: Q-K-A-2-3 is no straight.
    assert (
        evaluate_high(["Qs", "Kd", "7c", "8d", "9h"], ["Ac", "2s", "3h", "Jc", "Jd"]).name
        == "One pair, jacks"
    )
    steel = evaluate_high(["Ah", "2h", "9c", "9d", "Ks"], ["3h", "4h", "5h", "Jc", "Qd"])
    assert steel.name == "Straight flush, five high"
    assert steel < evaluate_high(["6h", "2h", "9c", "9d", "Ks"], ["3h", "4h", "5h", "Jc", "Qd"])


def test_equal_hands_tie_and_kickers_decide():
    board = ["Kh", "9d", "5c", "3s", "2h"]
    a = evaluate_high(["Ks", "Qd", "8c", "7c", "6d"], board)
    b = evaluate_high(["Kc", "Qs", "8d", "7d", "6s"], board)
    c = evaluate_high(["Kd", "Js", "8h", "7h", "6h"], board)
    assert a == b and a > c
    assert a.cards != b.cards


LADDER = [  # R2.5, weakest to strongest: (hole pair, board triple)
    ("8-7-6-5-4", ["8c", "7d"], ["6h", "5s", "4c"]),
    ("8-7-6-5-3", ["8c", "7d"], ["6h", "5s", "3c"]),
    ("8-6-4-2-A", ["8c", "6d"], ["4h", "2s", "Ac"]),
    ("8-4-3-2-A", ["8c", "4d"], ["3h", "2s", "Ac"]),
    ("7-6-5-4-2", ["7c", "6d"], ["5h", "4s", "2c"]),
    ("7-6-5-2-A", ["7c", "6d"], ["5h", "2s", "Ac"]),
    ("7-5-4-3-2", ["7c", "5d"], ["4h", "3s", "2c"]),
    ("6-5-4-3-2", ["6c", "5d"], ["4h", "3s", "2c"]),
    ("6-4-3-2-A", ["6c", "4d"], ["3h", "2s", "Ac"]),
    ("5-4-3-2-A", ["5c", "4d"], ["3h", "2s", "Ac"]),
]
FILLER_HOLE = ["Kc", "Kd", "Qh"]
FILLER_BOARD = ["Ts", "9c"]


def test_r2_5_the_ten_lows_of_the_rules_in_order():
    lows = []
    for name, pair, triple in LADDER:
        low = evaluate_low(pair + FILLER_HOLE, triple + FILLER_BOARD)
        assert low is not None and low.name == f"{name} low"
        assert set(low.cards) == set(pair + triple)
        lows.append(low)
    for weaker, stronger in pairwise(lows):
        assert weaker < stronger and stronger > weaker and weaker != stronger
    assert max(lows).name == "5-4-3-2-A low"


def test_r2_5_six_four_low_beats_six_five_low():
    assert evaluate_low(["6c", "4d", "Kc", "Kd", "Qh"], ["3h", "2s", "Ac", "Ts", "9c"]) > evaluate_low(
        ["6c", "5d", "Kc", "Kd", "Qh"], ["3h", "2s", "Ac", "Ts", "9c"]
    )


def test_r2_5_a_low_needs_five_different_ranks_of_eight_or_lower():
    # A nine is never part of a low.
    assert evaluate_low(["9c", "7d", "Kc", "Kd", "Qh"], ["6h", "5s", "4c", "Ts", "Jc"]) is None
    # Pairs do not make a low: 7-7 in the hand cannot use the second seven.
    assert evaluate_low(["7c", "7d", "Kc", "Kd", "Qh"], ["7h", "5s", "4c", "Ts", "Jc"]) is None
    # Only two low cards on the board: no low for anyone (R2.3 needs three board cards).
    assert evaluate_low(["Ac", "2d", "3c", "4d", "5h"], ["6h", "7s", "Kc", "Ts", "Jc"]) is None
    # Hole cards that pair the board's only low cards make no low ("counterfeited").
    assert evaluate_low(["Ac", "2d", "Kc", "Kd", "Qh"], ["Ah", "2s", "3c", "Jc", "Qd"]) is None
    # The best low may come from a pair that avoids the board's ranks.
    low = evaluate_low(["Ac", "2d", "4c", "Kd", "Qh"], ["Ah", "2s", "3c", "7s", "8c"])
    assert low.name == "7-4-3-2-A low"


def test_r2_5_straights_and_flushes_do_not_count_against_a_low():
    hole, board = ["Ah", "2h", "Kc", "Kd", "Qs"], ["3h", "4h", "5h", "Jc", "Td"]
    assert evaluate_low(hole, board).name == "5-4-3-2-A low"
    assert evaluate_high(hole, board).name == "Straight flush, five high"


def test_r2_6_high_and_low_may_use_different_hole_pairs():
    hole, board = ["Kc", "Kd", "Ah", "2c", "9s"], ["Ks", "7d", "3h", "4s", "Qc"]
    high, low = evaluate_hand(hole, board)
    assert high.name == "Three of a kind, kings" and {"Kc", "Kd"} <= set(high.cards)
    assert low.name == "7-4-3-2-A low" and {"Ah", "2c"} <= set(low.cards)
    assert (high, low) == (evaluate_high(hole, board), evaluate_low(hole, board))


def test_values_sort_and_hash_for_tie_detection():
    board = ["Kh", "9d", "5c", "3s", "2h"]
    a = evaluate_high(["Ks", "Qd", "8c", "7c", "6d"], board)
    b = evaluate_high(["Kc", "Qs", "8d", "7d", "6s"], board)
    assert len({a, b}) == 1
    assert max([a, b]) == a


def test_r2_5_low_strength_ints_run_from_eight_seven_to_the_wheel():
    hole = parse_cards(["8c", "7d", "Kc", "Kd", "Qh"])
    assert low_strength(hole, parse_cards(["6h", "5s", "4c", "Ts", "9c"])) == 7
    assert (
        low_strength(parse_cards(["5c", "4d", "Kc", "Kd", "Qh"]), parse_cards(["3h", "2s", "Ac", "Ts", "9c"]))
        == 224
    )


def test_the_module_documentation_example_runs():
    import doctest

    from dealing.engine import evaluator

    result = doctest.testmod(evaluator)
    assert result.attempted >= 3 and result.failed == 0


@settings(max_examples=200, deadline=None)
@given(st.permutations(CODES), st.permutations("cdhs"))
def test_renaming_the_suits_changes_no_hand(deck, suits):
    """Suits have no rank (R2.4): swapping them consistently keeps every value, high and low."""
    rename = dict(zip("cdhs", suits))
    hole, board = deck[:5], deck[5:10]
    renamed = [c[0] + rename[c[1]] for c in hole], [c[0] + rename[c[1]] for c in board]
    high, low = evaluate_hand(hole, board)
    other_high, other_low = evaluate_hand(*renamed)
    assert high == other_high and high.name == other_high.name
    assert low == other_low


def test_r2_4_high_strengths_cover_the_7462_distinct_poker_hands():
    assert HighValue.from_strength(0).key == (0, 5, 3, 2, 1, 0)  # 7-5-4-3-2, the worst hand
    assert HighValue.from_strength(0).name == "High card, seven"
    assert HighValue.from_strength(7461).name == "Royal flush"
    categories = [HighValue.from_strength(s).key[0] for s in range(7462)]
    assert categories == sorted(categories)
    assert [categories.count(c) for c in range(9)] == [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]
    with pytest.raises(IndexError):
        _ = HighValue.from_strength(7462).name
