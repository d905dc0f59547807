"""The chip race at a color-up (R8.7), as a pure function (no Django).

When the smallest chips leave play, each player keeps what makes whole new chips. The odd chips
left over are raced: every player with odd chips is dealt one card per old chip (from seat 1 on),
and the highest cards win the new chips, at most one per player. As many new chips are raced as the
odd chips make, rounded half up. Nobody is raced out: a player left with no chips gets one chip of
the smallest new denomination.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class RaceResult:
    stacks: dict  # key -> chips after the race
    winners: list  # keys that won a new chip in the race
    saved: list  # keys given one chip so as not to be raced out


def chip_race(
    stacks: list[tuple[object, int]], old_unit: int, new_unit: int, rng: random.Random | None = None
) -> RaceResult:
    """``stacks`` in seat order (key, chips); chips are multiples of ``old_unit``."""
    if old_unit <= 0 or new_unit <= old_unit or new_unit % old_unit:
        raise ValueError("The new smallest chip must be a larger multiple of the old one.")
    rng = rng or random.SystemRandom()
    kept = {key: chips - chips % new_unit for key, chips in stacks}
    odd = [(key, chips % new_unit) for key, chips in stacks if chips % new_unit]
    total = sum(chips for _key, chips in odd)
    to_race = min(len(odd), (total + new_unit // 2) // new_unit)
    # Each player's best card: one card per old chip, dealt in seat order.
    best = {key: max(rng.random() for _ in range(chips // old_unit)) for key, chips in odd}
    winners = sorted(best, key=best.__getitem__, reverse=True)[:to_race]
    for key in winners:
        kept[key] += new_unit
    saved = [key for key, _chips in stacks if kept[key] == 0 and dict(stacks)[key] > 0]
    for key in saved:
        kept[key] = new_unit
    return RaceResult(stacks=kept, winners=winners, saved=saved)
