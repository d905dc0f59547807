"""The alternates list: when the field is full (``Tournament.max_players``), players wait in the order
they came and the first one takes the next seat a bust frees. Seating goes through ``register``, so an
alternate gets a full starting stack and a drawn seat (R8.1) and the prize pool grows as usual."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from ..audit import AuditAction, record_audit
from ..errors import StateError
from ..models import Alternate, Entry, Player, Tournament
from ..selectors import registration_open
from .common import locked
from .entries import check_room, register


def waiting_alternates(tournament: Tournament):
    return tournament.alternates.filter(status=Alternate.Status.WAITING).select_related("player")


def _registration_open(tournament: Tournament, now) -> None:
    if not registration_open(tournament, now):
        raise StateError(_("Registration is closed."), code="registration_closed")


@transaction.atomic
def add_alternate(tournament: Tournament, player: Player, *, actor=None, now=None) -> Alternate:
    """Put the player at the end of the alternates list; only when the field is full (else: register)."""
    tournament = locked(tournament)
    _registration_open(tournament, now)
    if tournament.entries.filter(player=player, status=Entry.Status.ACTIVE).exists():
        raise StateError(
            _("%(player)s already has chips in this tournament.") % {"player": player},
            code="already_active",
            field="player",
        )
    if waiting_alternates(tournament).filter(player=player).exists():
        raise StateError(
            _("%(player)s is already on the alternates list.") % {"player": player},
            code="already_waiting",
            field="player",
        )
    try:
        check_room(tournament)
    except StateError:
        pass
    else:
        raise StateError(
            _("The field is not full: register %(player)s instead.") % {"player": player},
            code="field_not_full",
        )
    alternate = Alternate.objects.create(
        tournament=tournament,
        player=player,
        added_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    record_audit(actor, AuditAction.ALTERNATE_ADD, alternate, data={"player": player.pk})
    return alternate


@transaction.atomic
def seat_next_alternate(tournament: Tournament, *, actor=None, now=None) -> Alternate:
    """The first waiting alternate takes the seat a bust freed: registered, and marked seated."""
    tournament = locked(tournament)
    _registration_open(tournament, now)
    alternate = waiting_alternates(tournament).select_for_update(of=("self",)).first()
    if alternate is None:
        raise StateError(_("Nobody is on the alternates list."), code="no_alternates")
    check_room(tournament)
    entry = register(tournament, alternate.player, actor=actor, now=now)
    alternate.status = Alternate.Status.SEATED
    alternate.entry = entry
    alternate.save(update_fields=["status", "entry"])
    record_audit(actor, AuditAction.ALTERNATE_SEAT, alternate, data={"entry": entry.pk})
    return alternate


@transaction.atomic
def withdraw_alternate(alternate: Alternate, *, actor=None) -> Alternate:
    """The player leaves the list (gone home, or plays another event)."""
    locked(alternate.tournament)
    alternate = Alternate.objects.select_for_update().get(pk=alternate.pk)
    if alternate.status != Alternate.Status.WAITING:
        raise StateError(
            _("%(player)s is no longer waiting.") % {"player": alternate.player},
            code="not_waiting",
        )
    alternate.status = Alternate.Status.WITHDRAWN
    alternate.save(update_fields=["status"])
    record_audit(actor, AuditAction.ALTERNATE_WITHDRAW, alternate)
    return alternate
