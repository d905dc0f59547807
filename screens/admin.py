"""The admin for paired devices and what the screens show. Codes and tokens are stored as hashes
and never shown; pairing and revoking go through the console (the services audit them)."""

from django.contrib import admin

from .models import Announcement, Device, FloorCall, PairingCode


@admin.register(Device)
class DeviceAdmin(admin.ModelAdmin):
    list_display = (
        "label",
        "kind",
        "tournament",
        "table",
        "is_demo",
        "created_at",
        "last_seen_at",
        "revoked_at",
    )
    list_filter = ("kind", "is_demo")
    search_fields = ("label",)
    exclude = ("token_hash",)
    readonly_fields = (
        "kind",
        "tournament",
        "table",
        "user",
        "is_demo",
        "created_by",
        "last_seen_at",
        "revoked_at",
    )


@admin.register(PairingCode)
class PairingCodeAdmin(admin.ModelAdmin):
    list_display = ("kind", "tournament", "table", "created_at", "expires_at", "used_at")
    exclude = ("code_hash",)

    def has_add_permission(self, request):
        return False  # codes are made by the console, shown once

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    list_display = ("text", "tournament", "active", "created_at")
    list_filter = ("active",)


@admin.register(FloorCall)
class FloorCallAdmin(admin.ModelAdmin):
    list_display = ("table", "tournament", "device_label", "called_at", "answered_at")
