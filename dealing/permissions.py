"""Who may do what with hands: the one place that decides it.

Writes (start a hand, act, enter cards) need authenticated staff or the dealer tablet paired to
that table (device tokens of ``tournaments.devices``); corrections need a floor person. Seeing the
secret parts of a hand in progress (seed, deck order, unshown hole cards) needs the
``dealing.view_deck`` permission (the deck-prep role); everyone else only ever gets the public view.
"""

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission


def can_operate(user) -> bool:
    """May run hands at a table (dealer, floor, director)."""
    return bool(user and user.is_authenticated and user.is_staff)


def can_correct(user) -> bool:
    """May void a hand or correct an action (a floor person): staff with the change permission."""
    return can_operate(user) and user.has_perm("dealing.change_hand")


def can_view_deck(user) -> bool:
    """The deck-prep role: may see the seed, the deck and every hole card before the hand is over."""
    return bool(user and user.is_authenticated and user.has_perm("dealing.view_deck"))


def tablet_on_its_table(request, view) -> bool:
    """A paired dealer tablet (``Authorization: Device <token>``) acting at its own table."""
    try:
        from tournaments.devices import TabletOnItsTablePermission
    except ImportError:  # the live screens' device pairing is optional here
        return False
    return TabletOnItsTablePermission().has_permission(request, view)


class DealingPermission(BasePermission):
    """Reads are open (they only carry the public view); writes need staff or the table's tablet."""

    message = _("Only tournament staff or this table's paired tablet may run hands.")

    def has_permission(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        return can_operate(request.user) or tablet_on_its_table(request, view)


class FloorPermission(BasePermission):
    message = _("Only a floor person (staff with the dealing.change_hand permission) may correct a hand.")

    def has_permission(self, request, view):
        return can_correct(request.user)


class DeckPrepPermission(BasePermission):
    message = _("Only the deck-prep role (dealing.view_deck) may see a running hand's deck.")

    def has_permission(self, request, view):
        return can_view_deck(request.user)
