"""Deals at the final table, as pure functions (no Django): ICM, chip chop and a custom split.

Every kind shares the prizes still to be won (``prizes``, best place first, one per player left)
less an amount left to play for, which the winner takes on top of their deal amount.

- **ICM** (Malmuth-Harville): each player's equity in the prizes. The amount left to play for is
  taken off the top of the table first ("flattened from the top": first prize comes down towards
  second, then both together towards third ...), so the prizes the deal shares never increase down
  the table and nobody's share falls below the lowest prize left. Exact up to ``EXACT_ICM_PLAYERS``
  players (``tournaments.icm``, 2^n states); beyond that a seeded Monte Carlo of the same finish
  order (``MONTE_CARLO_SAMPLES`` orders, each drawn by sorting exponential clocks of rate = chips,
  which is Malmuth-Harville exactly), with the standard error of every amount reported.
- **Chip chop** (the usual floor method): every player is guaranteed the lowest prize still to be
  won (the prize for busting next); the rest is shared in proportion to chips.
- **Custom**: the players' own amounts, which must add up exactly.

Amounts are whole currency units. Rounding down leaves a few units over; they go one each to the
largest fractions, ties to more chips then to the earlier player, so the total is always exact; for
ICM and chip chop more chips never get less (the kinds are monotonic, floats' last digits are not).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field
from fractions import Fraction

from dealing.engine.errors import RuleError

from . import icm

ICM = "icm"
CHIP_CHOP = "chip_chop"
CUSTOM = "custom"
KINDS = (ICM, CHIP_CHOP, CUSTOM)

# Exact ICM as far as the console's ICM panel goes; Monte Carlo beyond, up to MAX_PLAYERS.
EXACT_ICM_PLAYERS = icm.MAX_PLAYERS
# A deal is made at the final table, or the last two or three: beyond that nobody chops.
MAX_PLAYERS = 30
MONTE_CARLO_SAMPLES = 20_000
MONTE_CARLO_SEED = 14


class DealError(RuleError):
    """A deal that cannot be made as asked."""


@dataclass(frozen=True)
class Proposal:
    kind: str
    amounts: list[int]  # per player, in the order the stacks were given
    without_deal: list[int]  # each player's ICM value of the prizes as they stand (no deal)
    prize_money: int  # the prizes still to be won: the deal amounts plus the amount left to play for
    left_to_play_for: int
    method: str  # "exact", "monte_carlo", "chip_chop" or "custom"
    samples: int = 0
    standard_error: float = 0.0  # Monte Carlo only: the largest standard error of an amount, in units
    minimum: list[int] = field(default_factory=list)  # chip chop: the guaranteed lowest prize each


def max_left_to_play_for(prizes: list[int]) -> int:
    """Most that can be left to play for: nobody's share may fall below the lowest prize left."""
    return sum(prizes) - len(prizes) * (prizes[-1] if prizes else 0)


def propose(
    kind: str,
    stacks: list[int],
    prizes: list[int],
    left_to_play_for: int = 0,
    custom: list[int] | None = None,
    *,
    seed: int = MONTE_CARLO_SEED,
    samples: int = MONTE_CARLO_SAMPLES,
) -> Proposal:
    """Each player's deal amount. ``prizes`` has one prize per player (0 for places not paid)."""
    _check(kind, stacks, prizes, left_to_play_for)
    total = sum(prizes) - left_to_play_for
    flattened = flatten_from_top(prizes, left_to_play_for)
    (values, plain), error = _icm_values(stacks, [flattened, [Fraction(p) for p in prizes]], seed, samples)
    without_deal = _whole(plain, sum(prizes), stacks)
    if kind == ICM:
        exact = len(stacks) <= EXACT_ICM_PLAYERS
        return Proposal(
            kind,
            _ordered(_whole(values, total, stacks), stacks),
            without_deal,
            sum(prizes),
            left_to_play_for,
            "exact" if exact else "monte_carlo",
            0 if exact else samples,
            error,
        )
    if kind == CHIP_CHOP:
        floor = prizes[-1]
        rest = total - floor * len(stacks)
        chips = sum(stacks)
        values = [floor + Fraction(rest * s, chips) for s in stacks]
        return Proposal(
            kind,
            _ordered(_whole(values, total, stacks), stacks),
            without_deal,
            sum(prizes),
            left_to_play_for,
            "chip_chop",
            minimum=[floor] * len(stacks),
        )
    amounts = _check_custom(custom, len(stacks), total)
    return Proposal(kind, amounts, without_deal, sum(prizes), left_to_play_for, "custom")


def _whole_number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(kind, stacks, prizes, left_to_play_for) -> None:
    if kind not in KINDS:
        raise DealError("bad_kind", "A deal is ICM, a chip chop or a custom split.", params={"kinds": KINDS})
    if not 2 <= len(stacks) <= MAX_PLAYERS:
        raise DealError(
            "players",
            f"A deal is made by 2 to {MAX_PLAYERS} players.",
            params={"minimum": 2, "maximum": MAX_PLAYERS, "players": len(stacks)},
        )
    if not all(_whole_number(s) and s > 0 for s in stacks):
        raise DealError("bad_stack", "Every stack must be a whole number of chips above 0.")
    if len(prizes) != len(stacks) or not all(_whole_number(p) and p >= 0 for p in prizes):
        raise DealError("bad_prizes", "Give one prize of at least 0 for every player left.")
    if any(later > earlier for earlier, later in itertools.pairwise(prizes)):
        raise DealError("prizes_not_descending", "A lower place cannot be paid more than a higher one.")
    most = max_left_to_play_for(prizes)
    if not _whole_number(left_to_play_for) or not 0 <= left_to_play_for <= most:
        raise DealError(
            "left_to_play_for",
            f"The amount left to play for must be from 0 to {most}: nobody's share can fall below "
            "the lowest prize left.",
            params={"minimum": 0, "maximum": most, "value": left_to_play_for},
        )


def _check_custom(custom, players: int, total: int) -> list[int]:
    if not isinstance(custom, list) or len(custom) != players:
        raise DealError("custom_amounts", "Give an amount for every player in the deal.")
    if not all(_whole_number(a) and a >= 0 for a in custom):
        raise DealError("custom_amounts", "Every amount must be a whole number of at least 0.")
    difference = sum(custom) - total
    if difference:
        raise DealError(
            "custom_total",
            f"The amounts add up to {sum(custom)}, not {total}: "
            + (f"{difference} too much." if difference > 0 else f"{-difference} short."),
            params={"total": total, "sum": sum(custom), "difference": difference},
        )
    return list(custom)


def flatten_from_top(prizes: list[int], left: int) -> list[Fraction]:
    """The prizes less ``left``, taken off the top: the top k prizes come down to one level h (the
    first k for which h is still at least the next prize), the others stay. Never increasing."""
    prizes = [Fraction(p) for p in prizes]
    top = Fraction(0)
    for k in range(1, len(prizes) + 1):
        top += prizes[k - 1]
        level = (top - left) / k
        if k == len(prizes) or level >= prizes[k]:
            return [level] * k + prizes[k:]
    return prizes


def _icm_values(stacks, tables: list[list[Fraction]], seed: int, samples: int) -> tuple[list, float]:
    """ICM equities for each prize table (one Monte Carlo run serves them all), and the largest
    standard error of one (0 when exact)."""
    if len(stacks) <= EXACT_ICM_PLAYERS:
        return [icm.equities(list(stacks), [float(p) for p in table]) for table in tables], 0.0
    return monte_carlo(stacks, [[float(p) for p in table] for table in tables], seed, samples)


def monte_carlo(
    stacks: list[int], tables: list[list[float]], seed: int, samples: int
) -> tuple[list[list[float]], float]:
    """ICM equities estimated from ``samples`` Malmuth-Harville finish orders, for each prize table,
    and the largest standard error of one. Sorting exponential clocks of rate = chips picks each next
    finisher with chance proportional to chips among those left: exactly Malmuth-Harville."""
    rng = random.Random(seed)
    n = len(stacks)
    sums = [[0.0] * n for _ in tables]
    squares = [[0.0] * n for _ in tables]
    players = range(n)
    for _ in range(samples):
        clocks = [rng.expovariate(s) for s in stacks]
        order = sorted(players, key=clocks.__getitem__)
        for table, total, square in zip(tables, sums, squares):
            for place, player in enumerate(order):
                prize = table[place]
                total[player] += prize
                square[player] += prize * prize
    means = [[value / samples for value in total] for total in sums]
    error = max(
        math.sqrt(max(0.0, square[i] / samples - mean[i] ** 2) / max(1, samples - 1))
        for mean, square in zip(means, squares)
        for i in players
    )
    return means, error


def _whole(values, total: int, stacks: list[int]) -> list[int]:
    """Whole amounts adding up to ``total``: floors, then one unit each to the largest fractions
    (ties: more chips, then the earlier player)."""
    floors = [math.floor(v) for v in values]
    n = len(values)
    order = sorted(range(n), key=lambda i: (-(values[i] - floors[i]), -stacks[i], i))
    spare = total - sum(floors)
    if spare >= 0:
        every, extra = divmod(spare, n)  # ``every`` is 0 unless floats drifted from their sum
        for i in range(n):
            floors[i] += every
        for i in order[:extra]:
            floors[i] += 1
    else:  # floats summed a unit above the total: the smallest fractions give it back
        for i in order[::-1][:-spare]:
            floors[i] -= 1
    return floors


def _ordered(amounts: list[int], stacks: list[int]) -> list[int]:
    """More chips never get less: the amounts in decreasing order to the players by chips (the kinds
    are monotonic in chips; this only undoes a float's last digit between near-equal stacks)."""
    by_chips = sorted(range(len(stacks)), key=lambda i: (-stacks[i], i))
    result = [0] * len(stacks)
    for i, amount in zip(by_chips, sorted(amounts, reverse=True)):
        result[i] = amount
    return result


__all__ = [
    "CHIP_CHOP",
    "CUSTOM",
    "EXACT_ICM_PLAYERS",
    "ICM",
    "KINDS",
    "MAX_PLAYERS",
    "DealError",
    "Proposal",
    "flatten_from_top",
    "max_left_to_play_for",
    "monte_carlo",
    "propose",
]
