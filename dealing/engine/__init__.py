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

__all__ = [
    "GAMES",
    "UNSHUFFLED_DECK",
    "CardError",
    "ConfigError",
    "Hand",
    "HandConfig",
    "Options",
    "Positions",
    "RuleError",
    "SeatConfig",
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
