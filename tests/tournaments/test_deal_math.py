"""The deal's split as pure functions: ICM, chip chop and a custom split (tournaments.deals)."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import deals, icm


def test_chip_chop_guarantees_the_lowest_prize_left_and_shares_the_rest_by_chips():
    """Prizes 2,500/1,500/1,000 with 500 left to play for: 4,500 to share; each is guaranteed 1,000
    (the prize for busting next), the other 1,500 goes 50/30/20 by chips."""
    p = deals.propose("chip_chop", [2500, 1500, 1000], [2500, 1500, 1000], 500)
    assert p.amounts == [1750, 1450, 1300]
    assert p.minimum == [1000, 1000, 1000]
    assert sum(p.amounts) + p.left_to_play_for == p.prize_money == 5000


def test_icm_without_money_left_is_the_plain_icm_equity_rounded_to_the_unit():
    stacks, prizes = [5000, 3000, 2000], [5000, 3000, 2000]
    p = deals.propose("icm", stacks, prizes)
    exact = icm.equities(stacks, prizes)
    assert p.method == "exact" and p.standard_error == 0
    assert all(abs(a - e) < 1 for a, e in zip(p.amounts, exact))
    assert p.amounts == p.without_deal and sum(p.amounts) == 10000


def test_money_left_to_play_for_comes_off_first_prize_first():
    """500 left of 5,000/3,000/2,000: the deal shares 4,500/3,000/2,000 by ICM."""
    assert deals.flatten_from_top([5000, 3000, 2000], 500) == [4500, 3000, 2000]
    # More than first is above second: the top two come down together.
    assert deals.flatten_from_top([5000, 3000, 2000], 2400) == [2800, 2800, 2000]
    p = deals.propose("icm", [5000, 3000, 2000], [5000, 3000, 2000], 500)
    expected = icm.equities([5000, 3000, 2000], [4500, 3000, 2000])
    assert all(abs(a - e) < 1 for a, e in zip(p.amounts, expected))


def test_the_amount_left_to_play_for_cannot_push_a_share_below_the_lowest_prize():
    with pytest.raises(deals.DealError) as error:
        deals.propose("chip_chop", [2, 1, 1], [2500, 1500, 1000], 2001)
    assert error.value.code == "left_to_play_for"
    assert error.value.params == {"minimum": 0, "maximum": 2000, "value": 2001}
    assert deals.propose("chip_chop", [2, 1, 1], [2500, 1500, 1000], 2000).amounts == [1000, 1000, 1000]


def test_a_custom_split_must_add_up_exactly_and_says_by_how_much_it_does_not():
    with pytest.raises(deals.DealError) as error:
        deals.propose("custom", [3, 2, 1], [2500, 1500, 1000], 500, [2000, 1500, 900])
    assert error.value.code == "custom_total"
    assert error.value.params == {"total": 4500, "sum": 4400, "difference": -100}
    p = deals.propose("custom", [3, 2, 1], [2500, 1500, 1000], 500, [2000, 1500, 1000])
    assert p.amounts == [2000, 1500, 1000]


def test_more_players_than_exact_icm_takes_are_estimated_by_monte_carlo_with_its_error():
    n = deals.EXACT_ICM_PLAYERS + 1
    stacks = [1000 * (i + 1) for i in range(n)]
    prizes = [3000 - 100 * i for i in range(n)]
    p = deals.propose("icm", stacks, prizes, samples=4000)
    assert p.method == "monte_carlo" and p.samples == 4000
    assert 0 < p.standard_error < 20
    assert sum(p.amounts) == sum(prizes)
    # The same seed gives the same deal: a proposal shown twice is the deal recorded.
    assert deals.propose("icm", stacks, prizes, samples=4000).amounts == p.amounts


def test_monte_carlo_agrees_with_the_exact_icm_within_its_standard_error():
    stacks, prizes = [7000, 4000, 2500, 1500, 1000], [5000, 3000, 2000, 1000, 500]
    (estimate,), error = deals.monte_carlo(stacks, [prizes], seed=3, samples=20000)
    exact = icm.equities(stacks, prizes)
    assert all(abs(m - e) < 5 * error for m, e in zip(estimate, exact))


stacks_st = st.lists(st.integers(1, 10**7), min_size=2, max_size=8)


@st.composite
def tables(draw):
    stacks = draw(stacks_st)
    prizes = sorted(
        draw(st.lists(st.integers(0, 10**6), min_size=len(stacks), max_size=len(stacks))), reverse=True
    )
    left = draw(st.integers(0, deals.max_left_to_play_for(prizes)))
    return stacks, prizes, left


@settings(max_examples=150, deadline=None)
@given(tables(), st.sampled_from(["icm", "chip_chop"]))
def test_every_deal_pays_out_exactly_the_prizes_left_and_more_chips_never_get_less(table, kind):
    stacks, prizes, left = table
    p = deals.propose(kind, stacks, prizes, left)
    # The money left to play for is not in the deal amounts: paid once, to the winner.
    assert sum(p.amounts) == sum(prizes) - left
    assert sum(p.without_deal) == sum(prizes)
    for i, j in itertools.permutations(range(len(stacks)), 2):
        if stacks[i] > stacks[j]:
            assert p.amounts[i] >= p.amounts[j]
    # Nobody in a deal gets less than the prize for busting next.
    assert min(p.amounts) >= prizes[-1] - (1 if kind == "icm" else 0)


@settings(max_examples=80, deadline=None)
@given(tables())
def test_a_custom_split_is_taken_only_when_it_adds_up(table):
    stacks, prizes, left = table
    total = sum(prizes) - left
    split = [total // len(stacks)] * len(stacks)
    split[0] += total - sum(split)
    assert deals.propose("custom", stacks, prizes, left, split).amounts == split
    split[-1] += 1
    with pytest.raises(deals.DealError):
        deals.propose("custom", stacks, prizes, left, split)
