"""All-in equity where it is shown: the calculator behind the API and, for a live hand, the equity of
its face-up players only (R6.2: once the dealer has turned the hands face up).

Only public cards go in: the hands shown and the board. Burns, the deck and unshown hole cards are
never used (a stream would learn something from them), so the figures are what anyone watching the
table could work out. A live hand's answer is cached per hand and event (the same board and hands
always give the same answer, sampled ones included: the seed is the hand's id).
"""

from __future__ import annotations

from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from dealing import engine
from dealing.engine import RuleError
from dealing.engine.cards import BOARD_CARDS

from .messages import engine_message
from .models import Hand

# The equity calculator's own refusals, worded for a translator; the engine's others (cards, player
# counts) go through dealing.messages like every engine error.
ERRORS = {
    "invalid_card": _(
        "%(card)s is not a card code: a rank from 23456789TJQKA then a suit from cdhs, e.g. As, Td, 2c."
    ),
    "card_not_string": _("%(card)s is not a card code."),
    "duplicate_card": _("%(card)s appears twice (%(what)s): there is one 52-card deck."),
    "wrong_card_count": _("%(what)s must be exactly %(count)s cards, not %(got)s."),
    "too_many_board_cards": _("The board has at most %(count)s cards, not %(got)s."),
    "too_few_players": _("Give at least %(minimum)s hands, separated by vs."),
    "too_many_players": _("At most %(maximum)s players can be dealt in, not %(got)s."),
    "not_enough_cards": _(
        "Only %(left)s cards are left in the deck, too few for the %(needed)s board cards to come."
    ),
    "bad_samples": _("--samples must be a whole number of boards, at least 1."),
    "bad_seed": _("--seed must be a whole number, 0 or more."),
}
CACHE_SECONDS = 3600


def refusal(error: RuleError) -> str:
    """The calculator's refusal in the reader's language, with its rule number when it has one."""
    template = ERRORS.get(error.code)
    if template is None:
        return engine_message(error)
    try:
        text = str(template) % error.params
    except (KeyError, TypeError, ValueError):
        return engine_message(error)
    return f"{text} ({error.rule})" if error.rule else text


def calculate(hands, board=(), *, dead=(), game: str, samples: int | None = None, seed: int | None = None):
    """``dealing.engine.all_in_equity`` (exact, or sampled with a standard error). Raises the
    engine's ``RuleError`` (``CardError``, ``EquityError``) for cards or settings it refuses."""
    return engine.all_in_equity(hands, board, dead=dead, game=game, samples=samples, seed=seed)


def result_data(result, players: list[dict] | None = None) -> dict:
    """An ``Equity`` as JSON; ``players`` (seat, name) are merged into the players' rows in order."""
    data = result.to_dict()
    rows = []
    for index, player in enumerate(data.pop("players")):
        row = {"cards": player.pop("hole"), **player}
        if players is not None:
            row = {"seat": players[index]["seat"], "player": players[index]["player"], **row}
        rows.append(row)
    data["players"] = rows
    return data


def face_up_players(view: dict) -> list[dict] | None:
    """The players still in a hand's public view when every one of them is face up, else None
    (in entered mode the hands are entered one by one: the figures wait for the last)."""
    contenders = [p for p in view["players"] if not p["folded"] and not p["mucked"]]
    if len(contenders) < 2 or not all(p["shown"] and p["cards"] for p in contenders):
        return None
    return contenders


def hand_equity(hand: Hand, view: dict) -> dict | None:
    """The equity of a running hand's face-up players from its public ``view``, or None when the hand
    is over, has fewer than two hands face up or has its whole board."""
    if hand.status != Hand.Status.RUNNING or len(view["board"]) >= BOARD_CARDS:
        return None
    players = face_up_players(view)
    if players is None:
        return None
    key = f"dealing:equity:{hand.pk}:{hand.state_seq}"
    cached = cache.get(key)
    if cached is None:
        result = calculate(
            [p["cards"] for p in players], view["board"], game=hand.config["game"], seed=hand.pk
        )
        cached = result_data(result, players)
        cache.set(key, cached, CACHE_SECONDS)
    return cached
