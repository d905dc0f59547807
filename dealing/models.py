"""Hands dealt at the tables and their append-only event logs.

The events are the truth. ``Hand.state`` is only a cache of the public view after the last event
(``state_seq``): when it is missing, stale or unreadable the hand is rebuilt by replaying its events.
Events are never updated or deleted; a correction or a misdeal is a new event.

Secrets at rest (RULES 7.6, docs/dealing.md "Secrets at rest"): the seed, the full view and the
secret parts of the dealt events (hole cards, burns) are kept in ``HandSecret`` only. ``Hand`` and
``HandEvent`` hold nothing that is not public, so no admin page, filter, search, ordering or API that
queries them can learn a secret; ``HandSecret`` has no admin page, no API of its own and is refused as
a lookup path (``config.admin_guard``). Only ``dealing.vault`` reads and writes it.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class EventLogError(Exception):
    """Raised when code tries to rewrite history (update or delete a HandEvent)."""


class Hand(models.Model):
    class DealMode(models.TextChoices):
        SEEDED = "seeded", _("Seeded deck")
        ENTERED = "entered", _("Entered cards")

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        VOIDED = "voided", _("Voided (misdeal)")

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField(_("hand number"))
    # The engine config exactly as the hand started with it (seats, stacks, button, blinds, bets ...).
    config = models.JSONField(_("engine config"))
    deal_mode = models.CharField(
        _("deal mode"), max_length=10, choices=DealMode.choices, default=DealMode.SEEDED
    )
    # Indexed: every deal checks that its seed was never used (RULES 7.5), over every hand ever dealt.
    seed_commitment = models.CharField(_("seed commitment"), max_length=64, blank=True, db_index=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.RUNNING)
    # Cache of the engine's public view after event ``state_seq``; rebuilt from the events when
    # unusable. The full view (with the seed and every hole card) is in ``HandSecret.state``.
    state = models.JSONField(_("state snapshot"), null=True, blank=True)
    state_seq = models.IntegerField(_("snapshot sequence"), default=-1)
    # Who was dealt in: {"seat number": {"entry": entry id, "chips": chips at the start}} (R8.6 ranking).
    seats = models.JSONField(_("seats dealt in"), default=dict)
    result = models.JSONField(_("result"), null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Indexed: the console lists the latest hands of an event that deals a hundred thousand.
    started_at = models.DateTimeField(_("started at"), auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_hand_number_per_table"),
        ]
        permissions = [
            ("view_deck", _("Can see the seed, deck and hole cards of a hand in progress")),
        ]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")

    def __str__(self):
        return _("Table %(table)s hand %(number)s") % {"table": self.table_id, "number": self.number}

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.RUNNING

    @property
    def label(self) -> str:
        """How a hand is named in audit entries and bust records."""
        table_number = getattr(self.table, "number", self.table_id)
        return f"T{table_number}#{self.number}"


class HandSecret(models.Model):
    """What only the deck-prep role may see while the hand runs (and everyone once it is over).

    Read and written by ``dealing.vault`` alone; never registered in the admin, never a lookup path
    (``is_secret``: ``config.admin_guard`` refuses any admin lookup that reaches this model)."""

    is_secret = True

    hand = models.OneToOneField(
        Hand, on_delete=models.CASCADE, primary_key=True, related_name="secret", editable=False
    )
    # Secret until the hand is over (RULES section 7.6); None for a hand with entered cards.
    seed = models.BinaryField(_("seed"), null=True, blank=True, editable=False)
    # Cache of the engine's full view (seed, burns, every hole card) after event ``state_seq``.
    state = models.JSONField(_("full view"), null=True, blank=True, editable=False)
    state_seq = models.IntegerField(_("full view sequence"), default=-1, editable=False)
    # The dealt events whose stored payload is blanked in the log, as dealt: {"seq": event}
    # (hole cards, board cards with their burn). Entries are only ever added, like the log.
    events = models.JSONField(_("secret events"), default=dict, editable=False)

    class Meta:
        verbose_name = _("hand secret")
        verbose_name_plural = _("hand secrets")
        default_permissions = ()

    def __str__(self):
        return _("Secrets of hand %(id)s") % {"id": self.hand_id}


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise EventLogError("Hand events are append-only: they are never changed.")

    def delete(self):
        raise EventLogError("Hand events are append-only: they are never deleted.")


class HandEvent(models.Model):
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField(_("sequence"))
    type = models.CharField(_("type"), max_length=40)
    payload = models.JSONField(_("payload"), default=dict)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    device = models.CharField(_("device"), max_length=100, blank=True)
    # Set on the first event written for a tablet's request; a retry with the same id is answered
    # from the log instead of acting twice.
    client_action_id = models.CharField(_("client action id"), max_length=64, null=True, blank=True)
    # SHA-256 of the request body that produced this event group (empty on the rest of the group).
    request_digest = models.CharField(_("request digest"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["hand", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name="unique_event_seq"),
            models.UniqueConstraint(fields=["hand", "client_action_id"], name="unique_client_action_id"),
        ]
        verbose_name = _("hand event")
        verbose_name_plural = _("hand events")

    def __str__(self):
        return f"{self.hand_id}:{self.seq} {self.type}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise EventLogError("Hand events are append-only: they are never changed.")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise EventLogError("Hand events are append-only: they are never deleted.")
