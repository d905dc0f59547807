"""The floor's PIN: typed on a dealer tablet by the floor person at the table, it approves the undo of
the last input there (issue 15 item 6). Set by the director in the console, stored only as a hash,
and tried a few times a minute per table at most (``screens.views.tablet``)."""

from __future__ import annotations

from django.contrib.auth.hashers import check_password, make_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..audit import AuditAction, record_audit
from ..models import Tournament
from .common import locked

PIN_DIGITS = (4, 8)


@transaction.atomic
def set_floor_pin(tournament: Tournament, pin: str, *, actor=None) -> Tournament:
    """A PIN of 4 to 8 digits, or "" to turn the tablets' undo off."""
    pin = (pin or "").strip()
    low, high = PIN_DIGITS
    if pin and not (pin.isascii() and pin.isdigit() and low <= len(pin) <= high):
        raise ValidationError(
            {"pin": _("The floor PIN is %(low)s to %(high)s digits.") % {"low": low, "high": high}}
        )
    tournament = locked(tournament)
    tournament.floor_pin_hash = make_password(pin) if pin else ""
    tournament.save(update_fields=["floor_pin_hash"])
    record_audit(actor, AuditAction.TOURNAMENT_FLOOR_PIN, tournament, data={"set": bool(pin)})
    return tournament


def floor_pin_matches(tournament: Tournament, pin: str) -> bool:
    """Whether ``pin`` is the floor's PIN (never when none is set)."""
    return bool(tournament.floor_pin_hash) and check_password((pin or "").strip(), tournament.floor_pin_hash)
