"""The chip race at a color-up (R8.7), as a pure function (no Django).

When the smallest chips leave play, each player keeps what makes whole new chips. The odd chips
left over are raced at each table: every player with odd chips is dealt one card per old chip, one
card at a time around the table from seat 1, and the highest cards win the new chips, at most one
per player. As many new chips are raced as the table's odd chips make, rounded half up. Cards rank
by rank, then by suit (spades, hearts, diamonds, clubs). Nobody is raced out: a player left with no
chips gets one chip of the smallest new denomination.

The cards come from a deck the caller passes in (a table's deck shuffled from a recorded seed, so
anyone can deal the same race again and check it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from dealing.engine.cards import CODES

# A card's place in the race: rank first, then suit (clubs < diamonds < hearts < spades).
RACE_ORDER = {code: index for index, code in enumerate(CODES)}


@dataclass(frozen=True)
class RaceCards:
    key: object
    odd_chips: int
    cards: tuple[str, ...]

    @property
    def best(self) -> str:
        return max(self.cards, key=RACE_ORDER.__getitem__)


@dataclass(frozen=True)
class RaceResult:
    stacks: dict  # key -> chips after the race
    winners: list  # keys that won a new chip in the race
    saved: list  # keys given one chip so as not to be raced out
    dealt: list = field(default_factory=list)  # RaceCards of every player who raced, in seat order


def chip_race(
    stacks: list[tuple[object, int]],
    old_unit: int,
    new_unit: int,
    rng: random.Random | None = None,
    *,
    deck: list[str] | None = None,
) -> RaceResult:
    """``stacks`` in seat order (key, chips), one table; chips are multiples of ``old_unit``.

    ``deck`` is dealt from the top; without one, a deck shuffled by ``rng`` (tests, simulations).
    """
    if old_unit <= 0 or new_unit <= old_unit or new_unit % old_unit:
        raise ValueError("The new smallest chip must be a larger multiple of the old one.")
    if deck is None:
        deck = list(CODES)
        (rng or random.SystemRandom()).shuffle(deck)
    kept = {key: chips - chips % new_unit for key, chips in stacks}
    odd = [(key, chips % new_unit) for key, chips in stacks if chips % new_unit]
    total = sum(chips for _key, chips in odd)
    to_race = min(len(odd), (total + new_unit // 2) // new_unit)
    wanted = {key: chips // old_unit for key, chips in odd}
    if sum(wanted.values()) > len(deck):
        raise ValueError("More odd chips at this table than cards in a deck.")
    cards: dict = {key: [] for key, _chips in odd}
    top = iter(deck)
    for _round in range(max(wanted.values(), default=0)):  # one card at a time around the table
        for key, _chips in odd:
            if len(cards[key]) < wanted[key]:
                cards[key].append(next(top))
    dealt = [RaceCards(key, chips, tuple(cards[key])) for key, chips in odd]
    ranked = sorted(dealt, key=lambda race: RACE_ORDER[race.best], reverse=True)
    winners = [race.key for race in ranked[:to_race]]
    for key in winners:
        kept[key] += new_unit
    saved = [key for key, _chips in stacks if kept[key] == 0 and dict(stacks)[key] > 0]
    for key in saved:
        kept[key] = new_unit
    return RaceResult(stacks=kept, winners=winners, saved=saved, dealt=dealt)
