"""Who may do what with hands: the one place that decides it.

Writes (start a hand, act, enter cards) need authenticated staff or the dealer tablet paired to
that table (device tokens of the screens app, through ``request.auth.may_operate_table``); corrections need a floor person. Seeing the
secret parts of a hand in progress (seed, deck order, unshown hole cards) needs the
``dealing.view_deck`` permission (the deck-prep role); everyone else only ever gets the public view.
"""

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from config.permissions import is_staff, may, refusal
from config.prepared import PreparedQuery

from . import hand_cache
from .models import Hand


def can_operate(user) -> bool:
    """May run hands at a table from a staff account (floor, director: ``config.roles``); never the
    registration desk."""
    return is_staff(user) and may(user, "hands")


def can_correct(user) -> bool:
    """May void a hand or correct an action (a floor person): staff whose role corrects, with the
    change permission."""
    return is_staff(user) and may(user, "corrections") and user.has_perm("dealing.change_hand")


def can_view_deck(user) -> bool:
    """The deck-prep role: may see the seed, the deck and every hole card before the hand is over."""
    return bool(user and user.is_authenticated and user.has_perm("dealing.view_deck"))


# The hand's table only, unordered (Hand's default order would join its table), its SQL built once.
hand_table = PreparedQuery(lambda pk: Hand.objects.only("pk", "table_id").filter(pk=pk).order_by()[:1])


def hand_for_check(pk: int) -> Hand | None:
    """The hand ``pk`` with its table only, to decide who may act on it (the HTTP API and the tablet's
    socket): a hand this process keeps between inputs (``dealing.hand_cache``) is not read for it,
    since a hand never changes table; any other hand is read. None if there is no such hand."""
    table_id = hand_cache.table_of(pk)
    if table_id is not None:
        return Hand(pk=pk, table_id=table_id)
    return hand_table.first(pk)


def request_table_id(request, view) -> int | None:
    """The table a dealing API request is about: the hand in the URL (``pk``), a ``table_id`` in the
    URL, or ``table`` in the body (deal the next hand)."""
    kwargs = getattr(view, "kwargs", {}) or {}
    if "table_id" in kwargs:
        return int(kwargs["table_id"])
    if "pk" in kwargs:
        # Only the hand's table: the input's service locks and reads the whole hand next. Kept on the
        # view, so it does not look the hand up again.
        hand = hand_for_check(int(kwargs["pk"]))
        view.permission_hand = hand
        return hand.table_id if hand is not None else None
    return body_table_id(request.data if hasattr(request, "data") else None)


def body_table_id(data) -> int | None:
    """The table a deal request's body names (``table``), checked before the body is validated."""
    table = data.get("table") if isinstance(data, dict) else None
    try:
        return int(table) if table is not None else None
    except (TypeError, ValueError):
        return None


def tablet_on_its_table(request, view) -> bool:
    """A paired dealer tablet (``Authorization: Device <token>``) acting at its own table.

    The device behind ``request.auth`` answers ``may_operate_table``; this app does not need to
    know what a device is (the screens app, above it, does).
    """
    may_operate_table = getattr(getattr(request, "auth", None), "may_operate_table", None)
    return bool(may_operate_table is not None and may_operate_table(request_table_id(request, view)))


class DealingPermission(BasePermission):
    """Reads are open (they only carry the public view); writes need staff or the table's tablet."""

    message = _("Only tournament staff or this table's paired tablet may run hands.")

    def has_permission(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        if can_operate(request.user) or tablet_on_its_table(request, view):
            return True
        if is_staff(request.user):
            self.message = refusal(request.user, "hands")
        return False


class FloorPermission(BasePermission):
    message = _("Only a floor person (staff with the dealing.change_hand permission) may correct a hand.")

    def has_permission(self, request, view):
        if is_staff(request.user) and not may(request.user, "corrections"):
            self.message = refusal(request.user, "corrections")
        return can_correct(request.user)


class DeckPrepPermission(BasePermission):
    message = _("Only the deck-prep role (dealing.view_deck) may see a running hand's deck.")

    def has_permission(self, request, view):
        return can_view_deck(request.user)
