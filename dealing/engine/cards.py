"""Card codes (R2.1): rank ``23456789TJQKA`` then suit ``cdhs``, e.g. ``As``, ``Td``, ``2c``.

Inside the engine a card is an int 0..51, ``rank_index * 4 + suit_index`` (rank-major, suits c d h s),
which is also its position in the unshuffled deck (RULES section 7).
"""

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
    "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}
CODES = [r + s for r in RANKS for s in SUITS]
_INDEX = {code: i for i, code in enumerate(CODES)}


class CardError(ValueError):
    """A card code, or a set of cards, that breaks R2.1/R2.2."""


def parse_card(code: object) -> int:
    """Parse one strict card code into its index. ``10h``, ``AH``, ``1s`` and ``""`` are refused."""
    if not isinstance(code, str):
        raise CardError(f"card code must be a string like 'As', not {code!r} (R2.1)")
    index = _INDEX.get(code)
    if index is None:
        raise CardError(
            f"{code!r} is not a card code: use a rank from {RANKS} then a suit from {SUITS}, "
            f"e.g. 'As', 'Td', '2c' (R2.1)"
        )
    return index


def parse_cards(codes: Iterable[object], count: int | None = None, what: str = "cards") -> list[int]:
    """Parse several card codes, refusing duplicates and (when ``count`` is given) a wrong number."""
    if isinstance(codes, str):
        raise CardError(f"{what} must be a list of card codes, not the string {codes!r}")
    cards = [parse_card(code) for code in codes]
    if count is not None and len(cards) != count:
        raise CardError(f"{what} must be exactly {count} cards, got {len(cards)} (R2.2)")
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"duplicate card {CODES[card]} in {what} (R2.1: one 52-card deck)")
        seen.add(card)
    return cards


def format_card(card: int) -> str:
    return CODES[card]


def format_cards(cards: Iterable[int]) -> list[str]:
    return [CODES[c] for c in cards]


def rank_of(card: int) -> int:
    """0 for a deuce … 12 for an ace."""
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3
