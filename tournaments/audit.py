"""Who did what, when and why: ``record_audit`` and the list of things the audit log records.

A leaf under the services of every app (it imports only the tournaments models), so tables and
dealing record their own actions without reaching up into the tournaments workflows.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from config.prepared import insert_rows

from .models import AuditEntry, Tournament


class AuditAction(models.TextChoices):
    """Every action the audit log records, named ``<what>.<verb>`` (the stored value)."""

    ALTERNATE_ADD = "alternate.add", _("Added to the alternates list")
    ALTERNATE_SEAT = "alternate.seat", _("Alternate seated")
    ALTERNATE_WITHDRAW = "alternate.withdraw", _("Alternate withdrawn")
    ANNOUNCEMENT = "announcement", _("Announcement set")
    CLOCK_ADD_TIME = "clock.add_time", _("Time added or removed")
    CLOCK_HAND_FOR_HAND = "clock.hand_for_hand", _("Hand-for-hand on or off")
    CLOCK_HAND_FOR_HAND_ROUND = "clock.hand_for_hand_round", _("Hand-for-hand round closed")
    CLOCK_JUMP = "clock.jump", _("Clock moved to a level")
    CLOCK_PAUSE = "clock.pause", _("Clock paused")
    CLOCK_RESUME = "clock.resume", _("Clock resumed")
    DEAL_RECORD = "deal.record", _("Deal recorded")
    DEAL_TALK_END = "deal.talk_end", _("Deal talk ended")
    DEAL_TALK_START = "deal.talk_start", _("Deal talk started")
    DEVICE_PAIRED = "device.paired", _("Device paired")
    DEVICE_REVOKED = "device.revoked", _("Device revoked")
    DEVICE_PAIRING_SHEET = "device.pairing_sheet", _("Pairing sheet printed for the tables")
    ENTRIES_PLACE_LATE_REGISTRATION_BUSTS = (
        "entries.place_late_registration_busts",
        _("Late-registration busts placed"),
    )
    ENTRY_ADDON = "entry.addon", _("Add-on")
    ENTRY_BUST = "entry.bust", _("Bust")
    ENTRY_PLACE = "entry.place", _("Place changed")
    ENTRY_REMOVE = "entry.remove", _("Removed from the tournament")
    ENTRY_REBUY = "entry.rebuy", _("Rebuy")
    ENTRY_REENTER = "entry.reenter", _("Re-entry")
    ENTRY_REGISTER = "entry.register", _("Registration")
    ENTRY_SET_CHIPS = "entry.set_chips", _("Chip count set")
    ENTRY_UNDO_BUST = "entry.undo_bust", _("Bust undone")
    ENTRY_VOID = "entry.void", _("Entry voided")
    EVENT_CREATE = "event.create", _("Multi-day event created")
    EVENT_NEXT_DAY = "event.next_day", _("Next day drawn with the survivors")
    FLIGHT_BAG = "flight.bag", _("Table bagged")
    FLIGHT_CLOSE = "flight.close", _("Flight closed")
    FLIGHT_ELIMINATE = "flight.eliminate", _("Player eliminated by another")
    FLIGHT_STOP = "flight.stop", _("Play stopped for the day")
    FLOOR_ANSWERED = "floor.answered", _("Floor call answered")
    FLOOR_CALLED = "floor.called", _("Floor called")
    HAND_CORRECT = "hand.correct", _("Hand corrected")
    HAND_VOID = "hand.void", _("Hand voided")
    LEVEL_ADD = "level.add", _("Level added")
    LEVEL_DELETE = "level.delete", _("Level deleted")
    LEVEL_UPDATE = "level.update", _("Level changed")
    PAYOUTS_SET = "payouts.set", _("Payout table edited")
    STRUCTURE_COPY = "structure.copy", _("Structure copied")
    STRUCTURE_CREATE = "structure.create", _("Structure created")
    TABLES_ACKNOWLEDGE_MOVE = "tables.acknowledge_move", _("Move acknowledged")
    TABLES_BALANCE = "tables.balance", _("Tables balanced")
    TABLES_BREAK_TABLE = "tables.break_table", _("Table broken by the director")
    TABLES_CHART_ON_CLOCK = "tables.chart_on_clock", _("Seating chart on the clock screens on or off")
    TABLES_BREAK_ORDER = "tables.break_order", _("Breaking order set")
    TABLES_DRAW = "tables.draw", _("Seat draw")
    TABLES_LOCK_SEAT = "tables.lock_seat", _("Seat locked")
    TABLES_MOVE = "tables.move", _("Manual move")
    TABLES_OPEN = "tables.open", _("Table opened")
    TABLES_PLAN = "tables.plan", _("Seating plan changed")
    TABLES_RESERVE_SEAT = "tables.reserve_seat", _("Seat reserved")
    TABLES_SEAT_ENTRY = "tables.seat_entry", _("Entry seated")
    TABLES_UNLOCK_SEAT = "tables.unlock_seat", _("Seat unlocked")
    TOURNAMENT_COLOR_UP = "tournament.color_up", _("Color-up and chip race")
    TOURNAMENT_CREATE = "tournament.create", _("Tournament created")
    TOURNAMENT_FLOOR_PIN = "tournament.floor_pin", _("Floor PIN for the tablets set")
    TOURNAMENT_FINISH = "tournament.finish", _("Tournament finished")
    TOURNAMENT_OPEN_REGISTRATION = "tournament.open_registration", _("Registration opened")
    TOURNAMENT_START = "tournament.start", _("Tournament started")
    TOURNAMENT_UPDATE = "tournament.update", _("Tournament changed")


def record_audit(
    actor,
    action: AuditAction,
    target=None,
    reason: str = "",
    data: dict | None = None,
    *,
    tournament: Tournament | None = None,
    device_label: str = "",
) -> AuditEntry:
    """Write who did what. ``actor`` is a user, a device (anything else: its label is kept) or None.

    ``target`` is a model instance (its tournament is found when it has one) or a short string.
    """
    user = actor if isinstance(actor, AbstractBaseUser) and actor.is_authenticated else None
    anonymous = getattr(actor, "is_anonymous", False) and not getattr(actor, "label", "")
    if actor is not None and user is None and not device_label and not anonymous:
        device_label = str(getattr(actor, "label", "") or actor)[:100]
    if tournament is None and target is not None:
        if isinstance(target, Tournament):
            tournament = target
        else:
            tournament = getattr(target, "tournament", None)
            if tournament is None and getattr(target, "table", None) is not None:
                tournament = getattr(target.table, "tournament", None)
    if isinstance(target, models.Model):
        target_label = f"{target._meta.model_name}:{target.pk} {target}"[:200]
    else:
        target_label = str(target or "")[:200]
    entry = AuditEntry(
        tournament=tournament if isinstance(tournament, Tournament) else None,
        actor=user,
        device_label=device_label[:100],
        action=action,
        target=target_label,
        reason=reason or "",
        data=data or {},
    )
    # The INSERT built once (config.prepared): a bust writes one in the dealer's input.
    insert_rows([entry])
    return entry
