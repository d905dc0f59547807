from django.contrib import admin

from .models import Move, Seat, SeatDraw, SeatingPlan, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "entry", "waits_for_big_blind", "locked", "lock_reason", "seated_at"]
    # Seats change through tables.services (balancing, moves, locks), never by hand here.
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = [
        "number",
        "tournament",
        "seats",
        "status",
        "hand_in_progress",
        "button_seat",
        "big_blind_seat",
        "break_order",
    ]
    list_filter = ["status", "tournament"]
    readonly_fields = [
        "tournament",
        "number",
        "seats",
        "status",
        "button_seat",
        "big_blind_seat",
        "hand_in_progress",
        "break_order",
        "broken_at",
        "version",
    ]
    inlines = [SeatInline]

    def has_add_permission(self, request):
        return False


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = [
        "entry",
        "from_table",
        "from_seat",
        "to_table",
        "to_seat",
        "reason",
        "status",
        "created_at",
        "acknowledged_at",
    ]
    list_filter = ["reason", "status", "tournament"]
    readonly_fields = [f.name for f in Move._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(SeatDraw)
class SeatDrawAdmin(admin.ModelAdmin):
    list_display = ["tournament", "kind", "created_at"]
    list_filter = ["kind", "tournament"]
    readonly_fields = ["tournament", "kind", "seed_hex", "assignment", "created_at"]
    exclude = ["seed"]

    @admin.display(description="seed")
    def seed_hex(self, draw):
        return bytes(draw.seed).hex()

    def has_add_permission(self, request):
        return False


@admin.register(SeatingPlan)
class SeatingPlanAdmin(admin.ModelAdmin):
    list_display = [
        "tournament",
        "allowed_difference",
        "relaxed_difference",
        "relaxed_above_tables",
        "review_moves",
        "final_redraw_at",
    ]
    # Changed through the API (tables.services.update_plan), which records who changed what.
    readonly_fields = [f.name for f in SeatingPlan._meta.fields]

    def has_add_permission(self, request):
        return False
