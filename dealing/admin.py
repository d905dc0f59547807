"""Hands and their events in the admin: read-only, because the events are the truth and are never
changed (corrections and misdeals are made through the dealing service, which records who and why).

The admin never shows the secrets of a running hand (seed, burns, hole cards): the deck-prep role
reads them through the API (``/api/hands/{id}/deck/``), which checks ``dealing.view_deck``.
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from . import vault
from .models import Hand, HandEvent
from .serializers import event_data


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.display(description=_("payload"))
def shown_payload(event: HandEvent):
    over = event.hand.is_over  # a finished hand's cards are public: put them back from its secrets
    data = event_data(event, secret=over, dealt=vault.dealt_events(event.hand) if over else None)
    return data["payload"] if data is not None else _("(hidden until the hand is over)")


class HandEventInline(admin.TabularInline):
    model = HandEvent
    fields = ["seq", "type", shown_payload, "actor", "device", "client_action_id", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["seq"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "table", "number", "status", "deal_mode", "started_at", "finished_at"]
    list_filter = ["status", "deal_mode", "table__tournament"]
    search_fields = ["seed_commitment"]
    # The seed and the state snapshot (which holds the hole cards) are not shown here.
    fields = [
        "table",
        "number",
        "status",
        "deal_mode",
        "seed_commitment",
        "config",
        "seats",
        "result",
        "started_by",
        "started_at",
        "finished_at",
    ]
    readonly_fields = fields
    inlines = [HandEventInline]


@admin.register(HandEvent)
class HandEventAdmin(ReadOnlyAdmin):
    list_display = ["hand", "seq", "type", "actor", "device", "client_action_id", "created_at"]
    list_filter = ["type"]
    fields = [
        "hand",
        "seq",
        "type",
        shown_payload,
        "actor",
        "device",
        "client_action_id",
        "request_digest",
        "created_at",
    ]
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("hand")
