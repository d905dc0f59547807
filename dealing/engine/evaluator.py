"""Hand evaluation for Courchevel: exactly two of the five hole cards with exactly three of the five
board cards (R2.3). High hands rank as standard poker (R2.4); lows are ace-to-five, 8 or better (R2.5).

Values compare with ``<``, ``==``, ``>`` (greater is better) and name themselves as a dealer says them.
This straightforward version is the reference; a faster one may replace it behind the same interface.
"""

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from .cards import RANKS, parse_cards

HIGH_CATEGORIES = (
    "High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush", "Full house",
    "Four of a kind", "Straight flush",
)
_PLURAL = {
    "2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes", "7": "sevens",
    "8": "eights", "9": "nines", "T": "tens", "J": "jacks", "Q": "queens", "K": "kings", "A": "aces",
}
_SINGULAR = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
    "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}


@dataclass(frozen=True, order=True)
class HighValue:
    """A high hand: ``key`` is (category 0..8, tie-break ranks…), ranks 0 (deuce) … 12 (ace)."""

    key: tuple[int, ...]
    cards: tuple[str, ...] = field(default=(), compare=False)

    @property
    def category(self) -> str:
        return HIGH_CATEGORIES[self.key[0]]

    @property
    def name(self) -> str:
        cat, ranks = self.key[0], [RANKS[r] for r in self.key[1:]]
        if cat == 8:
            return "Royal flush" if ranks[0] == "A" else f"Straight flush, {_SINGULAR[ranks[0]]} high"
        if cat == 7:
            return f"Four of a kind, {_PLURAL[ranks[0]]}"
        if cat == 6:
            return f"Full house, {_PLURAL[ranks[0]]} full of {_PLURAL[ranks[1]]}"
        if cat == 5:
            return f"Flush, {_SINGULAR[ranks[0]]} high"
        if cat == 4:
            return f"Straight, {_SINGULAR[ranks[0]]} high"
        if cat == 3:
            return f"Three of a kind, {_PLURAL[ranks[0]]}"
        if cat == 2:
            return f"Two pair, {_PLURAL[ranks[0]]} and {_PLURAL[ranks[1]]}"
        if cat == 1:
            return f"One pair, {_PLURAL[ranks[0]]}"
        return f"High card, {_SINGULAR[ranks[0]]}"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, order=True)
class LowValue:
    """A qualifying ace-to-five low. ``key`` is the negated ranks from the highest down (ace = 1),
    so that greater is better: 5-4-3-2-A is the greatest."""

    key: tuple[int, ...]
    cards: tuple[str, ...] = field(default=(), compare=False)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The low's ranks from the highest down, ace as 1: (8, 6, 4, 2, 1)."""
        return tuple(-k for k in self.key)

    @property
    def name(self) -> str:
        return "-".join("A" if r == 1 else str(r) for r in self.ranks) + " low"

    def __str__(self) -> str:
        return self.name


def _high5(ranks: list[int], suits: list[int]) -> tuple[int, ...]:
    counts = Counter(ranks)
    # Sort ranks by (count, rank) descending: the natural tie-break order.
    ordered = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len(set(suits)) == 1
    straight_high = None
    if len(counts) == 5:
        hi, lo = max(ranks), min(ranks)
        if hi - lo == 4:
            straight_high = hi
        elif set(ranks) == {12, 0, 1, 2, 3}:  # A-2-3-4-5: the ace plays low (R2.4)
            straight_high = 3
    if straight_high is not None and flush:
        return (8, straight_high)
    if shape[0] == 4:
        return (7, *ordered)
    if shape == [3, 2]:
        return (6, *ordered)
    if flush:
        return (5, *ordered)
    if straight_high is not None:
        return (4, straight_high)
    if shape[0] == 3:
        return (3, *ordered)
    if shape == [2, 2, 1]:
        return (2, *ordered)
    if shape[0] == 2:
        return (1, *ordered)
    return (0, *ordered)


def _check(hole, board) -> tuple[list[int], list[int]]:
    hole_cards = parse_cards(hole, 5, "hole cards")
    board_cards = parse_cards(board, 5, "board")
    parse_cards([*hole, *board], 10, "hole cards and board")  # no card in both
    return hole_cards, board_cards


def evaluate_high(hole, board) -> HighValue:
    """The best high hand from exactly two hole cards and three board cards (R2.3, R2.4)."""
    from .cards import CODES

    hole_cards, board_cards = _check(hole, board)
    best: tuple[int, ...] | None = None
    best_cards: tuple[int, ...] = ()
    for pair in combinations(hole_cards, 2):
        for triple in combinations(board_cards, 3):
            five = pair + triple
            key = _high5([c >> 2 for c in five], [c & 3 for c in five])
            if best is None or key > best:
                best, best_cards = key, five
    assert best is not None
    return HighValue(best, tuple(CODES[c] for c in best_cards))


def evaluate_low(hole, board) -> LowValue | None:
    """The best 8-or-better ace-to-five low from two hole and three board cards, or None (R2.5)."""
    from .cards import CODES

    hole_cards, board_cards = _check(hole, board)
    best: tuple[int, ...] | None = None
    best_cards: tuple[int, ...] = ()
    for pair in combinations(hole_cards, 2):
        for triple in combinations(board_cards, 3):
            five = pair + triple
            low_ranks = [1 if (c >> 2) == 12 else (c >> 2) + 2 for c in five]
            if len(set(low_ranks)) != 5 or max(low_ranks) > 8:
                continue
            key = tuple(-r for r in sorted(low_ranks, reverse=True))
            if best is None or key > best:
                best, best_cards = key, five
    if best is None:
        return None
    return LowValue(best, tuple(CODES[c] for c in best_cards))
