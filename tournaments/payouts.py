"""Prize pools and payout tables, as pure functions (no Django).

The default table pays about ``percent_paid`` of the field (15% unless the tournament says otherwise)
on a harmonic curve (place i gets a share proportional to 1/i), with the classic 65/35 and 50/30/20
for two and three places. Amounts are whole numbers rounded to a unit that suits the size of the pool;
whatever rounding leaves over goes to first place, so the table always sums exactly to the pool.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

from dealing.engine.errors import RuleError

SMALL_TABLES = {1: [100], 2: [65, 35], 3: [50, 30, 20]}


class PayoutError(RuleError):
    """A payout table that cannot be paid."""


def places_paid(field_size: int, percent_paid: int = 15) -> int:
    """How many places are paid: ``percent_paid`` of the field, rounded, at least one."""
    if field_size <= 0:
        return 0
    return max(1, min(field_size, (field_size * percent_paid + 50) // 100))


def default_percentages(paid: int) -> list[Fraction]:
    """Share of the pool by place (fractions summing to 1) for ``paid`` places."""
    return list(_default_percentages(paid))


@functools.lru_cache(maxsize=256)
def _default_percentages(paid: int) -> tuple[Fraction, ...]:
    # Exact fractions of a big field cost milliseconds; every clock screen asks for the same ones.
    if paid <= 0:
        return ()
    if paid in SMALL_TABLES:
        return tuple(Fraction(p, 100) for p in SMALL_TABLES[paid])
    # Place p gets 1/p of the weight. Summing 1,500 Fractions makes every partial sum's denominator
    # grow (a quarter of a second); whole weights over one common multiple give the same fractions.
    common = math.lcm(*range(1, paid + 1))
    weights = [common // place for place in range(1, paid + 1)]
    total = sum(weights)
    return tuple(Fraction(w, total) for w in weights)


def check_percentages(percentages: list) -> list[Fraction]:
    """A director's own table: positive numbers, best place first, summing to 100."""
    if not isinstance(percentages, list) or not percentages:
        raise PayoutError("empty", "Give at least one percentage.")
    shares = []
    for value in percentages:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise PayoutError("not_a_number", "Every percentage must be a number.", params={"value": value})
        try:
            share = Fraction(str(value))
        except (ValueError, ZeroDivisionError):
            raise PayoutError(
                "not_a_number", "Every percentage must be a number.", params={"value": value}
            ) from None
        if share <= 0:
            raise PayoutError(
                "not_positive", "Every percentage must be more than 0.", params={"value": value}
            )
        shares.append(share)
    if any(later > earlier for earlier, later in itertools.pairwise(shares)):
        raise PayoutError("not_descending", "A lower place cannot be paid more than a higher one.")
    if sum(shares) != 100:
        raise PayoutError(
            "not_100", "The percentages must add up to 100.", params={"sum": float(sum(shares))}
        )
    return [share / 100 for share in shares]


def rounding_unit(pool: int, shares: list[Fraction]) -> int:
    """The largest power of ten that still leaves the smallest prize at least 100 units.

    ``shares`` are best place first and never increase (the default table and ``check_percentages``),
    so the last is the smallest: no comparisons of 1,500 fractions with huge denominators."""
    smallest = pool * shares[-1] if shares else pool
    unit = 1
    while unit * 10 * 100 <= smallest:
        unit *= 10
    return unit


def payout_amounts(pool: int, shares: list[Fraction], unit: int = 0) -> list[int]:
    """Whole amounts per place, multiples of ``unit`` except first place, summing exactly to ``pool``."""
    if pool < 0:
        raise PayoutError("negative_pool", "The prize pool cannot be negative.")
    if not shares:
        return []
    return list(_payout_amounts(pool, tuple(shares), unit))


@functools.lru_cache(maxsize=256)
def _payout_amounts(pool: int, shares: tuple[Fraction, ...], unit: int) -> tuple[int, ...]:
    # A 10,000-entry field pays 1,500 places: a quarter of a second of Fraction arithmetic, the same
    # for every screen until the pool or the field changes.
    unit = unit or rounding_unit(pool, shares)
    # In whole numbers over the shares' common denominator: exactly pool * share, without a Fraction
    # (and its gcd) per operation.
    denominator = math.lcm(*(share.denominator for share in shares))
    parts = [pool * share.numerator * (denominator // share.denominator) for share in shares]
    step = denominator * unit
    amounts = [part // step * unit for part in parts]
    # Hand out whole units left over by the largest remainders, then the odd change to first place.
    spare_units = (pool - sum(amounts)) // unit
    order = sorted(range(len(shares)), key=lambda i: (-(parts[i] % step), i))
    for i in order[:spare_units]:
        amounts[i] += unit
    amounts[0] += pool - sum(amounts)
    return tuple(amounts)


def split_shared(amounts: list[int], first_place: int, last_place: int) -> list[int]:
    """Players sharing places first..last (1-based) share those prizes equally (R8.6).

    The odd units that do not divide go one each to the first players in the list given.
    """
    count = last_place - first_place + 1
    total = sum(amounts[first_place - 1 : last_place])
    share, odd = divmod(total, count)
    return [share + (1 if i < odd else 0) for i in range(count)]
