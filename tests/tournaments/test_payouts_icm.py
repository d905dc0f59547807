"""Payout tables and the ICM calculator against worked examples."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import icm, payouts


@pytest.mark.parametrize("field, paid", [(1, 1), (5, 1), (10, 2), (20, 3), (24, 4), (100, 15), (1000, 150)])
def test_about_fifteen_percent_of_the_field_is_paid(field, paid):
    assert payouts.places_paid(field) == paid


def test_default_curve_for_four_places_is_harmonic_and_exact():
    """Shares 1 : 1/2 : 1/3 : 1/4 of 12,000 are 48%, 24%, 16%, 12%, rounded to tens."""
    amounts = payouts.payout_amounts(12000, payouts.default_percentages(4))
    assert amounts == [5760, 2880, 1920, 1440]


def test_three_places_pay_50_30_20_and_the_odd_change_goes_to_first():
    """12,345 at 50/30/20: 6172.5, 3703.5, 2469 in tens: 6170, 3700, 2460 leave 15; the largest
    remainder (2469) gets a ten, first place the last 5."""
    amounts = payouts.payout_amounts(12345, payouts.default_percentages(3))
    assert amounts == [6175, 3700, 2470]
    assert sum(amounts) == 12345


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 60))
def test_payouts_always_sum_exactly_to_the_pool_and_never_increase_down_the_table(pool, paid):
    amounts = payouts.payout_amounts(pool, payouts.default_percentages(paid))
    assert sum(amounts) == pool
    assert all(a >= 0 for a in amounts)
    # Rounding can move a prize by one unit at most, never above the place before it.
    assert all(later <= earlier for earlier, later in itertools.pairwise(amounts))


def test_director_percentages_are_checked():
    assert payouts.check_percentages([60, 40]) == [Fraction(3, 5), Fraction(2, 5)]
    for bad, code in [
        ([50, 30], "not_100"),
        ([30, 70], "not_descending"),
        ([100, 0], "not_positive"),
        ([], "empty"),
        (["x"], "not_a_number"),
    ]:
        with pytest.raises(payouts.PayoutError) as error:
            payouts.check_percentages(bad)
        assert error.value.code == code


def test_shared_places_split_their_prizes_R8_6():
    """Two players tied for 2nd-3rd of 500/300/200 each get 250; odd units go to the first listed."""
    assert payouts.split_shared([500, 300, 200], 2, 3) == [250, 250]
    assert payouts.split_shared([100, 51, 50], 2, 3) == [51, 50]
    assert payouts.split_shared([500, 300, 200, 0], 3, 4) == [100, 100]


def test_icm_three_players_50_30_20_by_hand():
    """Stacks 5000/3000/2000, prizes 50/30/20 (Malmuth-Harville, worked by hand).

    First: 1/2, 3/10, 1/5. A second: B first then A of A+C (3/10 * 5/7) plus C first then A of
    A+B (1/5 * 5/8) = 19/56; A third 9/56. B second: 1/2 * 3/5 + 1/5 * 3/8 = 3/8; B third 13/40.
    C second: 1/2 * 2/5 + 3/10 * 2/7 = 2/7; C third 18/35.
    """
    a = 50 * Fraction(1, 2) + 30 * Fraction(19, 56) + 20 * Fraction(9, 56)
    b = 50 * Fraction(3, 10) + 30 * Fraction(3, 8) + 20 * Fraction(13, 40)
    c = 50 * Fraction(1, 5) + 30 * Fraction(2, 7) + 20 * Fraction(18, 35)
    assert a + b + c == 100
    result = icm.equities([5000, 3000, 2000], [50, 30, 20])
    assert result == pytest.approx([float(a), float(b), float(c)], abs=1e-9)
    assert result == pytest.approx([38.392857, 32.75, 28.857143], abs=1e-6)


def test_icm_heads_up_is_chip_proportional_and_equal_stacks_are_equal():
    assert icm.equities([3000, 1000], [100, 0]) == pytest.approx([75, 25])
    assert icm.equities([700, 700, 700, 700], [40, 30, 20, 10]) == pytest.approx([25, 25, 25, 25])


def test_icm_pays_only_the_places_given_and_refuses_bad_input():
    result = icm.equities([5000, 3000, 2000], [100])
    assert result == pytest.approx([50, 30, 20])
    with pytest.raises(icm.ICMError):
        icm.equities([100, 0], [10, 5])
    with pytest.raises(icm.ICMError):
        icm.equities([1] * (icm.MAX_PLAYERS + 1), [1])
