"""Chips in real denominations (R5.7, R6.5, R8.7), as pure functions (no Django).

Every blind, ante and fixed-limit bet must be a whole number of the smallest chip in play at its
level; the smallest chip goes up when a break colors up the small chips. A tournament whose levels
are not in chips would have its hands refused mid-event (the engine refuses a bet that is not in
chips), so the structure is checked against the chip set before anyone plays it.
"""

from __future__ import annotations

from dataclasses import dataclass

AMOUNT_FIELDS = ("small_blind", "big_blind", "ante", "small_bet", "big_bet")


@dataclass(frozen=True)
class NotInChips:
    """One amount of one level that the chips in play at that level cannot make."""

    level_order: int
    field: str
    amount: int
    smallest_chip: int


def _get(level, name, default=None):
    return level.get(name, default) if isinstance(level, dict) else getattr(level, name, default)


def smallest_chip_at_each_level(levels: list, denominations: list[int]) -> list[int]:
    """The smallest chip in play during each level (after the color-ups of the breaks before it)."""
    in_play = sorted(set(denominations or [1]))
    smallest = []
    for level in levels:
        smallest.append(in_play[0])
        if _get(level, "is_break"):
            leaving = set(_get(level, "color_up") or [])
            staying = [chip for chip in in_play if chip not in leaving]
            in_play = staying or in_play
    return smallest


def amounts_not_in_chips(levels: list, denominations: list[int]) -> list[NotInChips]:
    """Every level amount that is not a whole number of the smallest chip in play at that level."""
    problems = []
    for index, (level, chip) in enumerate(zip(levels, smallest_chip_at_each_level(levels, denominations))):
        if _get(level, "is_break"):
            continue
        order = _get(level, "order", index)
        for name in AMOUNT_FIELDS:
            amount = _get(level, name) or 0
            if amount % chip:
                problems.append(NotInChips(order, name, amount, chip))
    return problems
