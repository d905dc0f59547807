"""The floor and the room: a tablet calls the floor, a floor person answers; the director sets the
clock screens' announcement. Services: one transaction each, audited, announced after the commit."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.validators import validate_line
from tables.models import table_changed
from tournaments.audit import AuditAction, record_audit
from tournaments.models import Tournament, tournament_changed

from .models import Announcement, FloorCall

ANNOUNCEMENT_MAX_LENGTH = 300


def call_floor(table, *, actor=None, device_label: str = "") -> FloorCall:
    """A table asks for a floor person. A second press while one is open changes nothing."""
    with transaction.atomic():
        open_call = (
            FloorCall.objects.select_for_update().filter(table=table, answered_at__isnull=True).first()
        )
        if open_call is not None:
            return open_call
        call = FloorCall.objects.create(
            tournament_id=table.tournament_id, table=table, device_label=device_label
        )
        record_audit(
            actor if getattr(actor, "pk", None) else None,
            AuditAction.FLOOR_CALLED,
            table,
            device_label=device_label,
        )
        tournament_changed(table.tournament_id)
        table_changed(table.pk)
    return call


def answer_floor_call(call: FloorCall, *, actor=None) -> FloorCall:
    with transaction.atomic():
        call = FloorCall.objects.select_for_update().get(pk=call.pk)
        if call.answered_at is None:
            call.answered_at = timezone.now()
            call.answered_by = actor if getattr(actor, "pk", None) else None
            call.save(update_fields=["answered_at", "answered_by"])
            record_audit(call.answered_by, AuditAction.FLOOR_ANSWERED, call.table)
            tournament_changed(call.tournament_id)
            table_changed(call.table_id)
    return call


def set_announcement(tournament: Tournament, text: str, *, actor=None) -> Announcement | None:
    """Show ``text`` on the tournament's clock screens in place of the current banner ("" clears it).

    Checked before anything is written: a refused text leaves the current banner on the screens.
    """
    text = (text or "").strip()
    validate_line(text)  # one line: no control, bidirectional or invisible characters
    if len(text) > ANNOUNCEMENT_MAX_LENGTH:
        raise ValidationError(
            {"text": _("An announcement has at most %(max)s characters.") % {"max": ANNOUNCEMENT_MAX_LENGTH}}
        )
    with transaction.atomic():
        Announcement.objects.filter(tournament=tournament, active=True).update(active=False)
        shown = None
        if text:
            shown = Announcement.objects.create(
                tournament=tournament, text=text, created_by=actor if getattr(actor, "pk", None) else None
            )
        record_audit(actor, AuditAction.ANNOUNCEMENT, tournament, data={"text": text})
        tournament_changed(tournament.pk)
    return shown
