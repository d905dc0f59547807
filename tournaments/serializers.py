"""API shapes of the tournaments app. Field checks live here; rules live in services."""

import itertools

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from . import clock as clockmath
from . import selectors, services
from .icm import MAX_PLAYERS
from .models import AuditEntry, Betting, BlindStructure, Entry, Level, Player, Tournament

MAX_CHIPS = services.MAX_CHIPS
MAX_ID = 2**63 - 1  # the largest id a database row can have


class LevelSerializer(serializers.ModelSerializer):
    number = serializers.SerializerMethodField(help_text=_("The level number players use; null for a break."))
    order = serializers.IntegerField(
        required=False, min_value=0, help_text=_("Position, 0-based; default: the end.")
    )
    color_up = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_CHIPS), required=False
    )

    class Meta:
        model = Level
        fields = [
            "id",
            "order",
            "number",
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
        extra_kwargs = {
            name: {"max_value": MAX_CHIPS}
            for name in ["small_blind", "big_blind", "ante", "small_bet", "big_bet"]
        }

    def get_number(self, level) -> int | None:
        if level.is_break:
            return None
        # One query per structure, not per level: numbers of all its levels, cached for this response.
        cache = self.root.context.setdefault("level_numbers", {}) if self.root else {}
        if level.structure_id not in cache:
            rows = list(
                Level.objects.filter(structure_id=level.structure_id)
                .order_by("order")
                .values_list("order", "is_break")
            )
            numbers = clockmath.level_numbers([clockmath.Period(0, is_break) for _order, is_break in rows])
            cache[level.structure_id] = {order: n for (order, _b), n in zip(rows, numbers)}
        return cache[level.structure_id].get(level.order)


class StructureSerializer(serializers.ModelSerializer):
    levels = LevelSerializer(many=True, read_only=True)

    class Meta:
        model = BlindStructure
        fields = ["id", "name", "betting", "is_template", "description", "starting_stack", "levels"]
        read_only_fields = ["is_template"]


class StructureCreateSerializer(serializers.ModelSerializer):
    levels = LevelSerializer(many=True, required=False)

    class Meta:
        model = BlindStructure
        fields = ["id", "name", "betting", "description", "starting_stack", "levels"]


class CopyStructureSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False, allow_blank=True)


class ClockSerializer(serializers.Serializer):
    """The clock at the server's instant; screens count down from ``level_ends_at``."""

    clock_version = serializers.IntegerField()
    server_time = serializers.DateTimeField()
    started = serializers.BooleanField()
    running = serializers.BooleanField()
    paused = serializers.BooleanField()
    hand_for_hand = serializers.BooleanField()
    level_index = serializers.IntegerField()
    level_number = serializers.IntegerField(allow_null=True)
    is_break = serializers.BooleanField()
    remaining_seconds = serializers.FloatField()
    level_ends_at = serializers.DateTimeField(allow_null=True)
    next_break_at = serializers.DateTimeField(allow_null=True)
    seconds_to_next_break = serializers.FloatField(allow_null=True)
    level = LevelSerializer()
    next_level = LevelSerializer(allow_null=True)
    level_for_next_hand = LevelSerializer()


def clock_payload(tournament: Tournament, now=None) -> dict:
    now = now or timezone.now()
    levels = selectors.levels_of(tournament)
    periods = selectors.periods(levels)
    state = selectors.clock_state(tournament, now, levels)
    index = state.level_index
    next_hand = clockmath.play_index_for_next_hand(periods, index)
    return {
        "clock_version": tournament.clock_version,
        "server_time": now,
        "started": state.started,
        "running": state.running,
        "paused": tournament.paused_at is not None,
        "hand_for_hand": tournament.hand_for_hand,
        "level_index": index,
        "level_number": clockmath.level_number(periods, index),
        "is_break": state.is_break,
        "remaining_seconds": round(state.remaining, 3),
        "level_ends_at": state.level_ends_at,
        "next_break_at": state.next_break_at,
        "seconds_to_next_break": state.seconds_to_next_break,
        "level": levels[index],
        "next_level": levels[index + 1] if index + 1 < len(levels) else None,
        "level_for_next_hand": levels[next_hand],
    }


class TournamentSerializer(serializers.ModelSerializer):
    """A tournament as anyone may see it: the master seed only once the tournament is over."""

    master_seed = serializers.SerializerMethodField(
        help_text=_("Revealed only when finished (RULES section 7).")
    )
    clock = serializers.SerializerMethodField()
    prize_pool = serializers.SerializerMethodField()
    entries_count = serializers.SerializerMethodField()
    players_left = serializers.SerializerMethodField()
    registration_open = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "game",
            "betting",
            "status",
            "starting_stack",
            "seats_per_table",
            "structure",
            "late_registration_until_level",
            "max_reentries",
            "rebuys_allowed",
            "rebuy_stack",
            "addon_allowed",
            "addon_stack",
            "buy_in",
            "fee",
            "rebuy_price",
            "addon_price",
            "guarantee",
            "payout_percentages",
            "percent_paid",
            "payout_unit",
            "seeding",
            "master_seed_commitment",
            "master_seed",
            "chip_denominations",
            "smallest_chip",
            "hand_for_hand",
            "clock_version",
            "clock",
            "prize_pool",
            "entries_count",
            "players_left",
            "registration_open",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_master_seed(self, tournament) -> str | None:
        return services.master_seed_hex(tournament)

    @extend_schema_field(ClockSerializer)
    def get_clock(self, tournament) -> dict:
        return ClockSerializer(clock_payload(tournament)).data

    def get_prize_pool(self, tournament) -> int:
        return services.prize_pool(tournament)

    def get_entries_count(self, tournament) -> int:
        return tournament.entries.count()

    def get_players_left(self, tournament) -> int:
        return tournament.entries.filter(status=Entry.Status.ACTIVE).count()

    def get_registration_open(self, tournament) -> bool:
        return services.registration_open(tournament)


class TournamentWriteSerializer(serializers.ModelSerializer):
    """Create (with a structure to copy) or edit a tournament."""

    structure = serializers.PrimaryKeyRelatedField(
        queryset=BlindStructure.objects.all(),
        help_text=_("A template (or any structure): the tournament gets a copy."),
    )
    starting_stack = serializers.IntegerField(
        min_value=1,
        max_value=services.MAX_STACK,
        required=False,
        help_text=_("Default: the structure's suggested starting stack."),
    )
    betting = serializers.ChoiceField(
        choices=Betting.choices, required=False, help_text=_("Default: the structure's betting.")
    )
    payout_percentages = serializers.ListField(
        child=serializers.DecimalField(max_digits=7, decimal_places=3, min_value=0),
        required=False,
        help_text=_("Percent of the pool by place, best first, summing to 100; empty for the default curve."),
    )
    chip_denominations = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False)

    class Meta:
        model = Tournament
        fields = [
            "name",
            "game",
            "betting",
            "structure",
            "starting_stack",
            "seats_per_table",
            "late_registration_until_level",
            "max_reentries",
            "rebuys_allowed",
            "rebuy_stack",
            "addon_allowed",
            "addon_stack",
            "buy_in",
            "fee",
            "rebuy_price",
            "addon_price",
            "guarantee",
            "payout_percentages",
            "percent_paid",
            "payout_unit",
            "seeding",
            "chip_denominations",
            "smallest_chip",
        ]
        extra_kwargs = {
            name: {"max_value": MAX_CHIPS}
            for name in [
                "rebuy_stack",
                "addon_stack",
                "buy_in",
                "fee",
                "rebuy_price",
                "addon_price",
                "guarantee",
                "payout_unit",
                "smallest_chip",
            ]
        }

    def validate_payout_percentages(self, value):
        return [int(v) if v == int(v) else float(v) for v in value]

    def validate(self, attrs):
        structure = attrs.get("structure")
        if self.instance is None and "starting_stack" not in attrs:
            if not structure or not structure.starting_stack:
                raise serializers.ValidationError({"starting_stack": _("Give a starting stack.")})
            attrs["starting_stack"] = structure.starting_stack
        return attrs


class AddTimeSerializer(serializers.Serializer):
    seconds = serializers.IntegerField(
        min_value=-24 * 3600, max_value=24 * 3600, help_text=_("Seconds to add; negative to remove.")
    )

    def validate_seconds(self, value):
        if value == 0:
            raise serializers.ValidationError(_("Give a number of seconds other than 0."))
        return value


class JumpSerializer(serializers.Serializer):
    level_index = serializers.IntegerField(min_value=0, help_text=_("0-based position in the structure."))


class HandForHandSerializer(serializers.Serializer):
    on = serializers.BooleanField()


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "nickname", "country"]


class EntrySerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "tournament",
            "player",
            "player_name",
            "number",
            "status",
            "chips",
            "rebuys",
            "addon_taken",
            "place",
            "place_shared_to",
            "prize",
            "busted_at",
            "chips_at_start_of_bust_hand",
            "bust_hand_label",
            "created_at",
        ]
        read_only_fields = fields


class RegisterSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    name = serializers.CharField(
        max_length=200, required=False, help_text=_("A new player's name (instead of ``player``).")
    )

    def validate(self, attrs):
        if bool(attrs.get("player")) == bool(attrs.get("name", "").strip()):
            raise serializers.ValidationError({"player": _("Give either an existing player or a new name.")})
        return attrs


class SetChipsSerializer(serializers.Serializer):
    chips = serializers.IntegerField(min_value=0, max_value=MAX_CHIPS)
    reason = serializers.CharField(max_length=500)


class RemoveEntrySerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=500, help_text=_("Why the player leaves with chips: disqualification, no-show …")
    )


class UndoBustSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)
    chips = serializers.IntegerField(
        min_value=1,
        max_value=MAX_CHIPS,
        required=False,
        help_text=_("Default: the chips at the start of the bust hand."),
    )


class BustItemSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    chips_at_start = serializers.IntegerField(
        min_value=1, max_value=MAX_CHIPS, help_text=_("The entry's chips at the start of the hand.")
    )


class BustSerializer(serializers.Serializer):
    busts = BustItemSerializer(many=True, allow_empty=False)
    hand_label = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class PayoutRowSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    amount = serializers.IntegerField()
    percent = serializers.FloatField()


class FinisherSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.CharField()
    place = serializers.IntegerField()
    place_shared_to = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField()


class PayoutsSerializer(serializers.Serializer):
    prize_pool = serializers.IntegerField()
    field_size = serializers.IntegerField()
    places_paid = serializers.IntegerField()
    table = PayoutRowSerializer(many=True)
    finishers = FinisherSerializer(many=True)


class ICMRequestSerializer(serializers.Serializer):
    stacks = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_CHIPS), min_length=1, max_length=MAX_PLAYERS
    )
    payouts = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_CHIPS * 1000),
        min_length=1,
        max_length=MAX_PLAYERS,
    )

    def validate_payouts(self, value):
        if any(later > earlier for earlier, later in itertools.pairwise(value)):
            raise serializers.ValidationError(_("A lower place cannot pay more than a higher one."))
        return value


class ICMResultSerializer(serializers.Serializer):
    stacks = serializers.ListField(child=serializers.IntegerField())
    payouts = serializers.ListField(child=serializers.IntegerField())
    equities = serializers.ListField(child=serializers.FloatField())
    entries = serializers.ListField(child=serializers.IntegerField(), required=False)


class AuditEntrySerializer(serializers.ModelSerializer):
    actor = serializers.StringRelatedField()

    class Meta:
        model = AuditEntry
        fields = ["id", "at", "actor", "device_label", "action", "target", "reason", "data"]


class ColorUpResultSerializer(serializers.Serializer):
    chip_denominations = serializers.ListField(child=serializers.IntegerField())
    smallest_chip = serializers.IntegerField()
    race_winners = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("Entries that won a chip.")
    )
    saved = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("Entries given one chip so as not to be raced out.")
    )
