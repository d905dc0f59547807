"""Translated messages for the engine's rule errors.

The pure engine raises ``RuleError(code, English message, rule, params)``; a person at a tablet reads
the message in their language, so the API words each code here through Django's translation
functions, filled from ``params``. An unknown code (or params that do not fit) keeps the engine's
English message rather than failing.
"""

from django.utils.translation import gettext_lazy as _

# Several templates for one code: the first whose placeholders the params fill is used.
TEMPLATES = {
    "not_your_turn": [
        _("It is seat %(to_act)s's turn to act, not seat %(seat)s."),
        _("Seat %(to_show)s shows first, not seat %(seat)s."),
    ],
    "not_waiting": [_("The hand is not waiting for that now: it waits for %(awaiting)s.")],
    "hand_over": [_("The hand is over.")],
    "below_minimum": [_("%(amount)s is below the minimum of %(minimum)s (the most allowed is %(maximum)s).")],
    "above_maximum": [
        _("%(amount)s is above the maximum of %(maximum)s (the least allowed is %(minimum)s).")
    ],
    "more_than_stack": [
        _("%(amount)s is more than the player has: the allowed range is %(minimum)s to %(maximum)s.")
    ],
    "fixed_amount": [_("In fixed limit the bet or raise is to exactly %(minimum)s, not %(amount)s.")],
    "bad_amount": [_("Give the amount as a whole number of chips, not %(amount)s.")],
    "betting_capped": [_("Betting is capped at %(cap)s bets this round: call or fold.")],
    "cannot_raise": [_("The player has too few chips to raise: call all-in or fold.")],
    "no_opponent_to_bet": [_("Every other player is all-in or folded: there is nobody left to bet against.")],
    "betting_not_reopened": [
        _("The betting was not reopened for this player (only a full raise reopens it): call or fold.")
    ],
    "must_raise": [_("There is a bet of %(current_bet)s to this player: raise, call or fold, not bet.")],
    "must_bet": [_("Nobody has bet yet: bet or check, not raise.")],
    "cannot_check": [_("There is a bet to this player: call %(call)s, raise or fold.")],
    "nothing_to_call": [_("There is no bet to call: check or bet.")],
    "bad_call": [_("The call is %(call)s, not %(amount)s.")],
    "unexpected_amount": [_("This action takes no amount (got %(amount)s).")],
    "unknown_action": [_("Unknown action %(action)s: use fold, check, call, bet, raise or all-in.")],
    "bad_cards": [
        _(
            "%(cards)s: give new card codes, a rank from 23456789TJQKA then a suit from cdhs "
            "(e.g. As, Td, 2c), as many as the dealer turns up."
        )
    ],
    "card_used": [_("%(cards)s already used in this hand: enter the cards actually turned up.")],
    "wrong_card_count": [_("This step takes exactly %(count)s cards, not %(got)s.")],
    "duplicate_card": [_("%(card)s is given twice: there is one 52-card deck.")],
    "must_show": [_("A player is all-in, so every hand still in is turned face up.")],
    "not_the_deck": [
        _("%(cards)s are not the next cards of this hand's deck: a seeded run-out deals its own.")
    ],
    "too_few_players": [_("A hand needs at least two players.")],
    "too_many_players": [_("At most %(maximum)s players can be dealt in.")],
    "not_in_chips": [
        _(
            "%(amount)s is not a whole number of the smallest chip in play (%(step)s): bet or raise to a "
            "multiple of %(step)s from %(minimum)s to %(maximum)s, or all-in to %(all_in)s."
        ),
        _(
            "The %(field)s of %(value)s is not a whole number of the smallest chip in play (%(smallest_chip)s)."
        ),
    ],
    "cap_not_liftable": [
        _(
            "The fixed-limit cap is lifted only when the tournament is down to two players, and "
            "%(players)s are dealt in."
        )
    ],
    "player_between_blinds": [
        _(
            "Seat %(seats)s is dealt in between the small and the big blind: the big blind follows the small blind."
        )
    ],
    "player_between_button_and_blind": [
        _("Seat %(seats)s is dealt in between the button and the blinds: the blinds are left of the button.")
    ],
    "no_dead_small_blind_seat": [
        _("There is no empty seat between the button and the big blind for a dead small blind.")
    ],
}


def _plain(value):
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return value


def engine_message(error) -> str:
    """The engine error's message in the user's language, ending with the rule number."""
    params = {key: _plain(value) for key, value in (getattr(error, "params", None) or {}).items()}
    text = None
    for template in TEMPLATES.get(getattr(error, "code", ""), []):
        try:
            text = str(template) % params
            break
        except (KeyError, TypeError, ValueError):
            continue
    if text is None:
        return str(getattr(error, "message", error))
    rule = getattr(error, "rule", "")
    return f"{text} ({rule})" if rule else text
