"""Card codes (R2.1): rank ``23456789TJQKA`` then suit ``cdhs``, e.g. ``As``, ``Td``, ``2c``.

Parsing is strict on purpose: a dealer typing ``10h``, ``AH`` or ``1s`` gets an error naming that
input, never a guess. Inside the engine a card is an int 0..51, ``rank_index * 4 + suit_index``
(rank-major, suits c d h s), which is also its position in the unshuffled deck (RULES section 7).
"""

from collections.abc import Iterable

from .errors import RuleError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = {
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}
CODES = [r + s for r in RANKS for s in SUITS]
_INDEX = {code: i for i, code in enumerate(CODES)}
HOLE_CARDS = 5  # R2.2
BOARD_CARDS = 5  # R2.2


class CardError(RuleError):
    """A card code, or a set of cards, that breaks R2.1/R2.2.

    Like every engine error (``errors.RuleError``) it carries a machine-readable ``code``, the
    ``rule`` it enforces and the ``params`` of the message, so that the Django layer can translate it.
    """

    def __init__(
        self, message: str, *, code: str = "invalid_card", rule: str = "R2.1", params: dict | None = None
    ):
        super().__init__(code, message, rule, params)


def _hint(code: str) -> str:
    """A short 'did you mean' for the usual slips, so the dealer sees how to fix the entry."""
    if len(code) == 3 and code[:2] == "10" and code[2].lower() in SUITS:
        return f"; write a ten as T, e.g. 'T{code[2].lower()}'"
    if len(code) == 2 and code[0] == "1" and code[1].lower() in SUITS:
        return f"; write an ace as A, e.g. 'A{code[1].lower()}'"
    if len(code) == 2 and code[0].upper() in RANKS and code[1].lower() in SUITS:
        return f"; ranks are upper case and suits lower case, e.g. '{code[0].upper()}{code[1].lower()}'"
    return ""


def parse_card(code: object) -> int:
    """Parse one strict card code into its index. ``10h``, ``AH``, ``1s`` and ``""`` are refused."""
    if not isinstance(code, str):
        raise CardError(
            f"a card code must be a string like 'As', not {code!r} (R2.1)",
            code="card_not_string",
            params={"card": repr(code)},
        )
    index = _INDEX.get(code)
    if index is None:
        raise CardError(
            f"{code!r} is not a card code: use a rank from {RANKS} then a suit from {SUITS}, "
            f"e.g. 'As', 'Td', '2c'{_hint(code)} (R2.1)",
            code="invalid_card",
            params={"card": code},
        )
    return index


def parse_cards(codes: Iterable[object], count: int | None = None, what: str = "cards") -> list[int]:
    """Parse several card codes, refusing duplicates and (when ``count`` is given) a wrong number.

    A string of codes is also refused (``"AsKd"`` is one mistyped argument, not two cards)."""
    if isinstance(codes, (str, bytes)) or not isinstance(codes, Iterable):
        raise CardError(
            f"{what} must be a list of card codes, not {codes!r}",
            code="cards_not_list",
            rule="",
            params={"what": what, "cards": repr(codes)},
        )
    codes = list(codes)
    cards = [parse_card(code) for code in codes]
    if count is not None and len(cards) != count:
        rule = "R2.2"
        raise CardError(
            f"{what} must be exactly {count} cards, got {len(cards)}: {' '.join(map(str, codes))} ({rule})",
            code="wrong_card_count",
            rule=rule,
            params={"what": what, "count": count, "got": len(cards)},
        )
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise CardError(
                f"duplicate card {CODES[card]} in {what}: there is one 52-card deck (R2.1)",
                code="duplicate_card",
                params={"what": what, "card": CODES[card]},
            )
        seen.add(card)
    return cards


def parse_hole(codes: Iterable[object]) -> list[int]:
    """A player's five hole cards (R2.2)."""
    return parse_cards(codes, HOLE_CARDS, "hole cards")


def parse_board(codes: Iterable[object]) -> list[int]:
    """The five board cards (R2.2)."""
    return parse_cards(codes, BOARD_CARDS, "board")


def format_card(card: int) -> str:
    """The code of a card index, e.g. ``format_card(51) == 'As'``."""
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
        raise CardError(
            f"card index must be an int 0..51, not {card!r} (R2.1)",
            code="invalid_card_index",
            params={"card": repr(card)},
        )
    return CODES[card]


def format_cards(cards: Iterable[int]) -> list[str]:
    return [format_card(c) for c in cards]


def rank_of(card: int) -> int:
    """0 for a deuce … 12 for an ace."""
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3
