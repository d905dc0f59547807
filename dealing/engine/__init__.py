"""The Courchevel rules as pure Python: cards, the verifiable shuffle, hand evaluation, betting and
the hand state machine. Nothing here imports Django; the Django apps wrap it.
"""

from . import positions
from .betting import Options
from .cards import CardError, format_card, format_cards, parse_card, parse_cards
from .errors import ConfigError, RuleError
from .evaluator import evaluate_high, evaluate_low
from .hand import GAMES, Hand, HandConfig, SeatConfig
from .history import to_phh, to_text
from .positions import Positions
from .shuffle import UNSHUFFLED_DECK, hand_seed, seed_commitment, shuffled_deck

# Equity, EquityError, PlayerEquity and all_in_equity (dealing.engine.equity) load on first use:
# see __getattr__ below.
__all__ = [
    "GAMES",
    "UNSHUFFLED_DECK",
    "CardError",
    "ConfigError",
    "Equity",
    "EquityError",
    "Hand",
    "HandConfig",
    "Options",
    "PlayerEquity",
    "Positions",
    "RuleError",
    "SeatConfig",
    "all_in_equity",
    "evaluate_high",
    "evaluate_low",
    "format_card",
    "format_cards",
    "hand_seed",
    "parse_card",
    "parse_cards",
    "positions",
    "seed_commitment",
    "shuffled_deck",
    "to_phh",
    "to_text",
]

_EQUITY_NAMES = {"Equity", "EquityError", "PlayerEquity", "all_in_equity"}


def __getattr__(name: str):
    """The equity calculator needs NumPy, which the rest of the engine does not: it is imported on
    first use, so that dealing a hand neither waits for NumPy nor needs it installed."""
    if name in _EQUITY_NAMES:
        from . import equity  # NumPy only when asked for (see above)

        return getattr(equity, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
