"""Main pot and side pots (R6.1), and splitting a pot between winners (R6.3-R6.5).

Pots are built from what each player put in over the whole hand. Each level of contribution makes a
pot that the players who reached it (and have not folded) can win; neighbouring levels with the same
players merge. Dead money (a big-blind ante, R3.4) goes into the main pot.

A player can win from each opponent only as much as they put in themselves (R6.1): chips above the
largest contribution of every player still in the hand are in no pot. ``unmatched`` names them; they
go back to their owners, even to players who folded (a small blind larger than an all-in big blind).
"""

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # seats that can win it, clockwise order

    def to_dict(self) -> dict:
        return {"amount": self.amount, "eligible": list(self.eligible)}


def build_pots(contributions: Sequence[tuple[int, int, bool]], dead: int = 0) -> list[Pot]:
    """``contributions`` are (seat, chips put in, still in the hand) in clockwise order.

    A pot ends at each amount that a player still in put in: the players who reached it can win it.
    Folded players' chips fill the pots their amount reaches. Chips above every amount of a player
    still in (only folded players reached them) are in no pot: see ``unmatched`` (R6.1)."""
    levels = sorted({put_in for _, put_in, live in contributions if live and put_in > 0})
    pots: list[list] = []
    previous = 0
    for level in levels:
        amount = 0
        eligible = []
        for seat, put_in, live in contributions:
            if put_in > previous:
                amount += (put_in if put_in < level else level) - previous
                if live and put_in >= level:
                    eligible.append(seat)
        pots.append([amount, eligible])
        previous = level
    if pots:
        pots[0][0] += dead
    elif dead:
        pots.append([dead, [seat for seat, _, live in contributions if live]])
    return [Pot(amount, tuple(eligible)) for amount, eligible in pots]


def unmatched(contributions: Sequence[tuple[int, int, bool]]) -> list[tuple[int, int]]:
    """The chips that no player still in the hand can win (R6.1), as (seat, chips) to give back: what
    each player put in above the largest amount put in by a player still in. Only players out of the
    hand (folded) can have any, and only when every player still in put in less: a small blind above
    an all-in big blind when everyone else folds, say. ``contributions`` as for ``build_pots``."""
    top = 0
    for _, put_in, live in contributions:
        if live and put_in > top:
            top = put_in
    return [(seat, put_in - top) for seat, put_in, _ in contributions if put_in > top]


def split(amount: int, winners_in_order: Sequence[int], unit: int) -> list[tuple[int, int]]:
    """Split ``amount`` equally in units of the smallest chip; odd units go one at a time to the
    winners in the order given (the first left of the button first, R6.5). Returns (seat, chips)."""
    units, rest = divmod(amount, unit)
    each, odd = divmod(units, len(winners_in_order))
    shares = []
    for i, seat in enumerate(winners_in_order):
        share = each * unit + (unit if i < odd else 0) + (rest if i == 0 else 0)
        shares.append((seat, share))
    return shares


def halves(amount: int, unit: int) -> tuple[int, int]:
    """High and low halves of a Hi/Lo pot; an odd unit goes to the high (R6.5)."""
    units, _rest = divmod(amount, unit)
    low = (units // 2) * unit
    return amount - low, low


def best(values: dict[int, object], order: Sequence[int]) -> list[int]:
    """The seats of ``order`` holding the best value, in that order (values compare, greater is
    better; seats without a value are left out)."""
    top = None
    winners: list[int] = []
    for seat in order:
        value = values.get(seat)
        if value is None:
            continue
        if top is None or value > top:
            top, winners = value, [seat]
        elif value == top:
            winners.append(seat)
    return winners


def award(
    pot: Pot, order: Sequence[int], high: dict[int, object], low: dict[int, object] | None, unit: int
) -> list[tuple[int, int, str]]:
    """Share one pot. ``order`` lists seats clockwise from the first left of the button; ``high`` and
    ``low`` map the seats that showed (or won uncontested) to their hand values; ``low`` is None in
    a high-only game and holds only qualifying lows. Returns (seat, chips, "high" | "low" | "pot")."""
    contenders = [seat for seat in order if seat in pot.eligible]
    if len(contenders) == 1:
        return [(contenders[0], pot.amount, "pot")]
    high_winners = best(high, contenders)
    low_winners = best(low, contenders) if low is not None else []
    if not low_winners:
        # R6.3, and R6.4: no qualifying low in this pot, the high takes all of it.
        return [(seat, chips, "pot") for seat, chips in split(pot.amount, high_winners, unit)]
    high_half, low_half = halves(pot.amount, unit)
    return [(seat, chips, "high") for seat, chips in split(high_half, high_winners, unit)] + [
        (seat, chips, "low") for seat, chips in split(low_half, low_winners, unit)
    ]
