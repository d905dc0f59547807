"""Hands and their events in the admin: read-only, because the events are the truth and are never
changed (corrections and misdeals are made through the dealing service, which records who and why)."""

from django.contrib import admin

from .models import Hand, HandEvent


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class HandEventInline(admin.TabularInline):
    model = HandEvent
    fields = ["seq", "type", "payload", "actor", "device", "client_action_id", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["seq"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        # Hole cards and burns of a running hand stay hidden from anyone without the deck-prep permission.
        if not request.user.has_perm("dealing.view_deck"):
            qs = qs.exclude(type="hole", hand__status=Hand.Status.RUNNING)
        return qs


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "table", "number", "status", "deal_mode", "started_at", "finished_at"]
    list_filter = ["status", "deal_mode", "table__tournament"]
    search_fields = ["seed_commitment"]
    # The seed and the state snapshot (which holds the hole cards) are not shown here.
    fields = ["table", "number", "status", "deal_mode", "seed_commitment", "config", "seats", "result",
              "started_by", "started_at", "finished_at"]
    readonly_fields = fields
    inlines = [HandEventInline]


@admin.register(HandEvent)
class HandEventAdmin(ReadOnlyAdmin):
    list_display = ["hand", "seq", "type", "actor", "device", "client_action_id", "created_at"]
    list_filter = ["type"]
    fields = ["hand", "seq", "type", "payload", "actor", "device", "client_action_id", "request_digest",
              "created_at"]
    readonly_fields = fields

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if not request.user.has_perm("dealing.view_deck"):
            qs = qs.exclude(type="hole", hand__status=Hand.Status.RUNNING)
        return qs
