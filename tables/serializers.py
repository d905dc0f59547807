"""What the tables API shows and accepts."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from config.api import LineField, StrictIdField, StrictIntegerField, StrictModelSerializer, StrictSerializer

from .models import Move, Seat, SeatDraw, SeatingPlan, Table


class SeatSerializer(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()
    chips = serializers.SerializerMethodField()

    class Meta:
        model = Seat
        fields = ["id", "number", "entry", "player", "chips", "waits_for_big_blind", "locked", "lock_reason"]

    def get_player(self, seat) -> str | None:
        return str(seat.entry) if seat.entry_id else None

    def get_chips(self, seat) -> int | None:
        return seat.entry.chips if seat.entry_id else None


class TableSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    halted = serializers.SerializerMethodField(
        help_text=_("Why the table must not deal now, or null (R8.3-R8.5).")
    )
    seating = SeatSerializer(source="seat_set", many=True, read_only=True)

    class Meta:
        model = Table
        fields = [
            "id",
            "number",
            "seats",
            "status",
            "button_seat",
            "big_blind_seat",
            "hand_in_progress",
            "break_order",
            "version",
            "players",
            "halted",
            "seating",
        ]

    def get_players(self, table) -> int:
        return sum(1 for seat in table.seat_set.all() if seat.entry_id)

    def get_halted(self, table) -> str | None:
        return self.context.get("halted", {}).get(table.pk)


class MoveSerializer(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()
    from_table = serializers.SerializerMethodField()
    to_table = serializers.SerializerMethodField()
    actor = serializers.SerializerMethodField()

    class Meta:
        model = Move
        fields = [
            "id",
            "entry",
            "player",
            "from_table",
            "from_seat",
            "to_table",
            "to_seat",
            "reason",
            "status",
            "created_at",
            "applied_at",
            "acknowledged_at",
            "actor",
            "note",
        ]

    def get_player(self, move) -> str:
        return str(move.entry)

    def get_from_table(self, move) -> int | None:
        return move.from_table.number if move.from_table_id else None

    def get_to_table(self, move) -> int:
        return move.to_table.number

    def get_actor(self, move) -> str | None:
        return move.actor.get_username() if move.actor_id else None


class SeatDrawSerializer(serializers.ModelSerializer):
    seed = serializers.SerializerMethodField(
        help_text=_("The OS-random seed, hex; replay with balancing.DrawRandom.")
    )

    class Meta:
        model = SeatDraw
        fields = ["id", "kind", "seed", "assignment", "created_at"]

    def get_seed(self, draw) -> str:
        return bytes(draw.seed).hex()


class SeatingPlanSerializer(StrictModelSerializer):
    class Meta:
        model = SeatingPlan
        fields = [
            "allowed_difference",
            "relaxed_difference",
            "relaxed_above_tables",
            "final_table_seats",
            "two_table_seats",
            "review_moves",
            "final_redraw_at",
        ]
        read_only_fields = ["final_redraw_at"]


class SeatingChartSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    plan = SeatingPlanSerializer()
    tables = TableSerializer(many=True)
    pending_moves = MoveSerializer(many=True)


MAX_TABLE_NUMBER = 10_000
MAX_TABLES = 1_000  # in one break order (its largest body stays under the API's 64 KiB)


class ManualMoveSerializer(StrictSerializer):
    entry = StrictIdField(help_text=_("The entry to move."))
    table = StrictIntegerField(
        min_value=1, max_value=MAX_TABLE_NUMBER, help_text=_("The table number to move to.")
    )
    seat = StrictIntegerField(
        min_value=1, max_value=8, help_text=_("The seat number at that table (1 to 8, R2.7).")
    )
    reason = LineField(max_length=200)


class SeatEntrySerializer(StrictSerializer):
    entry = StrictIdField(help_text=_("An active entry without a seat (late entry, re-entry, alternate)."))


class LockSerializer(StrictSerializer):
    reason = LineField(max_length=200)


class BreakOrderSerializer(StrictSerializer):
    order = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=MAX_TABLE_NUMBER),
        allow_empty=False,
        min_length=1,
        max_length=MAX_TABLES,
        help_text=_("Every active table number, the first to break first (R8.4)."),
    )


class BreakOrderResultSerializer(serializers.Serializer):
    order = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("The active tables, the first to break first (R8.4).")
    )
