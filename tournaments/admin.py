"""Admin for every model of the tournaments app. Clock and entry changes go through the API or the
console (they call services); the admin is for looking things up and fixing descriptive fields."""

from django.contrib import admin

from .models import AuditEntry, Bag, BlindStructure, Entry, Event, Flight, Level, Player, Tournament


class LevelInline(admin.TabularInline):
    model = Level
    extra = 0
    fields = [
        "order",
        "is_break",
        "duration_minutes",
        "small_blind",
        "big_blind",
        "ante",
        "ante_kind",
        "small_bet",
        "big_bet",
        "color_up",
    ]


@admin.register(BlindStructure)
class BlindStructureAdmin(admin.ModelAdmin):
    list_display = ["name", "betting", "is_template", "starting_stack"]
    list_filter = ["is_template", "betting"]
    search_fields = ["name"]
    inlines = [LevelInline]


@admin.register(Level)
class LevelAdmin(admin.ModelAdmin):
    list_display = [
        "structure",
        "order",
        "is_break",
        "duration_minutes",
        "small_blind",
        "big_blind",
        "ante",
        "ante_kind",
        "small_bet",
        "big_bet",
    ]
    list_filter = ["is_break", "ante_kind"]
    list_select_related = ["structure"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = [
        "player",
        "number",
        "status",
        "chips",
        "rebuys",
        "addon_taken",
        "place",
        "place_shared_to",
        "prize",
    ]
    readonly_fields = ["status", "place", "place_shared_to", "prize"]
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "betting", "status", "level_index", "hand_for_hand", "created_at"]
    list_filter = ["status", "game", "betting"]
    search_fields = ["name"]
    readonly_fields = [
        "master_seed_commitment",
        "level_index",
        "level_started_at",
        "paused_at",
        "remaining_when_paused",
        "clock_version",
        "hand_for_hand",
        "hand_for_hand_round_started_at",
        "started_at",
        "finished_at",
        "created_at",
    ]
    raw_id_fields = ["structure"]
    inlines = [EntryInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "nickname", "country"]
    search_fields = ["name", "nickname"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "number", "status", "chips", "place", "prize"]
    list_filter = ["status", "tournament"]
    search_fields = ["player__name"]
    list_select_related = ["player", "tournament"]
    raw_id_fields = ["player", "tournament"]
    readonly_fields = [
        "status",
        "place",
        "place_shared_to",
        "prize",
        "busted_at",
        "chips_at_start_of_bust_hand",
        "bust_hand_label",
    ]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """The audit log is append-only: readable here, never edited or deleted."""

    list_display = ["at", "actor", "device_label", "action", "target", "reason"]
    list_filter = ["action", "tournament"]
    search_fields = ["target", "reason", "action"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """Flights and bags change only through tournaments.services.flights (checked, audited)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class FlightInline(admin.TabularInline):
    model = Flight
    extra = 0
    fields = ["label", "day", "tournament", "play_stopped_at", "closed_at", "drawn_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "buy_in", "stack_rule", "stop_after_level", "stop_at_players", "created_at"]
    search_fields = ["name"]
    fields = ["name", "buy_in", "fee", "guarantee", "payout_percentages", "percent_paid", "payout_unit"]
    inlines = [FlightInline]

    def has_add_permission(self, request):
        return False  # an event is created with its flights (the console or POST /api/events/)


@admin.register(Flight)
class FlightAdmin(ReadOnlyAdmin):
    list_display = ["label", "event", "day", "tournament", "closed_at"]
    list_filter = ["day"]


@admin.register(Bag)
class BagAdmin(ReadOnlyAdmin):
    list_display = ["bag_number", "player", "chips", "flight", "table_number", "seat_number", "status"]
    list_filter = ["status"]
    search_fields = ["bag_number", "player__name"]
