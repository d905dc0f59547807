"""API shapes of the tournaments app. Field checks live here; rules live in services."""

import itertools

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from config.api import (
    MAX_ID,
    LineField,
    PlayerNameField,
    StrictBooleanField,
    StrictChoiceField,
    StrictIdField,
    StrictIntegerField,
    StrictModelSerializer,
    StrictNumberField,
    StrictPrimaryKeyRelatedField,
    StrictRegexField,
    StrictSerializer,
)

from . import clock as clockmath
from . import selectors, services
from .errors import RuleError
from .icm import MAX_PLAYERS
from .models import AuditEntry, Betting, BlindStructure, Entry, Level, Player, Tournament

MAX_CHIPS = services.MAX_CHIPS
MAX_LEVELS = 500  # far more levels and breaks than any structure has
MAX_PLAYERS_PER_BUST = 500
# A structure sent whole: the longest shipped template has 35 levels and breaks; 60 keeps the largest
# body the schema allows under the API's 64 KiB (config.limits).
MAX_LEVELS_PER_STRUCTURE = 60


class LevelSerializer(StrictModelSerializer):
    number = serializers.SerializerMethodField(help_text=_("The level number players use; null for a break."))
    order = StrictIntegerField(
        required=False, min_value=0, max_value=MAX_LEVELS, help_text=_("Position, 0-based; default: the end.")
    )
    color_up = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=MAX_CHIPS), required=False, max_length=20
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


class LevelUpdateSerializer(LevelSerializer):
    """Edit a level: everything but its position (a level is not moved; delete and add it)."""

    order = serializers.IntegerField(read_only=True)


class StructureSerializer(serializers.ModelSerializer):
    levels = LevelSerializer(many=True, read_only=True)

    class Meta:
        model = BlindStructure
        fields = ["id", "name", "betting", "is_template", "description", "starting_stack", "levels"]
        read_only_fields = ["is_template"]


class StructureCreateSerializer(StrictModelSerializer):
    name = LineField(max_length=100)
    levels = LevelSerializer(many=True, required=False, max_length=MAX_LEVELS_PER_STRUCTURE)

    class Meta:
        model = BlindStructure
        fields = ["id", "name", "betting", "description", "starting_stack", "levels"]
        extra_kwargs = {
            "starting_stack": {"max_value": services.MAX_STACK},
            "description": {"max_length": 2000},
        }


class CopyStructureSerializer(StrictSerializer):
    name = LineField(max_length=100, required=False, allow_blank=True)


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
            "max_players",
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
            "clock_runs_during_deal",
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


class TournamentWriteSerializer(StrictModelSerializer):
    """Create (with a structure to copy) or edit a tournament."""

    name = LineField(max_length=200)
    structure = StrictPrimaryKeyRelatedField(
        queryset=BlindStructure.objects.all(),
        help_text=_("A template (or any structure): the tournament gets a copy."),
    )
    starting_stack = StrictIntegerField(
        min_value=1,
        max_value=services.MAX_STACK,
        required=False,
        help_text=_("Default: the structure's suggested starting stack."),
    )
    betting = StrictChoiceField(
        choices=Betting.choices, required=False, help_text=_("Default: the structure's betting.")
    )
    payout_percentages = serializers.ListField(
        child=StrictNumberField(min_value=0, max_value=100),
        required=False,
        max_length=1000,
        help_text=_("Percent of the pool by place, best first, summing to 100; empty for the default curve."),
    )
    chip_denominations = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=MAX_CHIPS), required=False, max_length=20
    )

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
            "max_players",
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
            "clock_runs_during_deal",
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
        return [int(v) if v == int(v) else round(float(v), 3) for v in value]

    def validate(self, attrs):
        structure = attrs.get("structure")
        if self.instance is None and "starting_stack" not in attrs:
            if not structure or not structure.starting_stack:
                raise serializers.ValidationError({"starting_stack": _("Give a starting stack.")})
            attrs["starting_stack"] = structure.starting_stack
        return attrs


class TournamentUpdateSerializer(TournamentWriteSerializer):
    """Edit a tournament: its structure is fixed (edit the tournament's own levels instead)."""

    structure = serializers.PrimaryKeyRelatedField(read_only=True)


@extend_schema_field(
    {
        "type": "integer",
        "minimum": -clockmath.MAX_REMAINING_SECONDS,
        "maximum": clockmath.MAX_REMAINING_SECONDS,
        "anyOf": [{"maximum": -1}, {"minimum": 1}],
    }
)
class NonZeroSecondsField(StrictIntegerField):
    """Seconds to add (negative: remove), never 0."""

    def __init__(self, **kwargs):
        super().__init__(
            min_value=-clockmath.MAX_REMAINING_SECONDS, max_value=clockmath.MAX_REMAINING_SECONDS, **kwargs
        )

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if value == 0:
            raise serializers.ValidationError(_("Give a number of seconds other than 0."))
        return value


def clock_version_field():
    return StrictIntegerField(
        required=False,
        min_value=0,
        max_value=MAX_ID,
        help_text=_(
            "Optional: the clock_version this change was made against; 409 clock_moved if the clock has "
            "changed since (a repeated or stale request changes nothing)."
        ),
    )


class ClockChangeSerializer(StrictSerializer):
    clock_version = clock_version_field()


class AddTimeSerializer(StrictSerializer):
    seconds = NonZeroSecondsField(
        help_text=_(
            "Seconds to add; negative to remove. The level's time left stays from 0 to the level's own "
            "length: outside that, 422 with the allowed range (minimum, maximum)."
        ),
    )
    clock_version = clock_version_field()


class JumpSerializer(StrictSerializer):
    level_index = StrictIntegerField(
        min_value=0, max_value=MAX_LEVELS, help_text=_("0-based position in the structure.")
    )
    clock_version = clock_version_field()


class HandForHandSerializer(StrictSerializer):
    on = StrictBooleanField()
    clock_version = clock_version_field()


COUNTRY_PATTERN = r"^[A-Z]{2}$"


class PlayerSerializer(StrictModelSerializer):
    name = PlayerNameField()
    nickname = LineField(max_length=100, required=False, allow_blank=True)
    country = StrictRegexField(
        COUNTRY_PATTERN,
        max_length=2,
        required=False,
        allow_blank=True,
        help_text=_("ISO 3166 two-letter code, upper case (e.g. FR), or empty."),
    )

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


class RegisterSerializer(StrictSerializer):
    player = StrictPrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    name = PlayerNameField(
        required=False,
        help_text=_(
            "Instead of ``player``: a name. An existing player whose name matches (case, accents and "
            "spacing ignored) is registered; else a new player is made."
        ),
    )

    def validate(self, attrs):
        if ("player" in attrs) == ("name" in attrs):
            raise serializers.ValidationError({"player": _("Give either an existing player or a new name.")})
        return attrs


class RegisterPlayerSerializer(StrictSerializer):
    """Register an existing player by id."""

    player = StrictPrimaryKeyRelatedField(queryset=Player.objects.all())


class RegisterNameSerializer(StrictSerializer):
    """Register by name: an existing player whose name matches (case, accents and spacing ignored),
    else a new player."""

    name = PlayerNameField()


REGISTER_SCHEMA = PolymorphicProxySerializer(
    component_name="Register",
    serializers=[RegisterPlayerSerializer, RegisterNameSerializer],
    resource_type_field_name=None,
)


class SetChipsSerializer(StrictSerializer):
    chips = StrictIntegerField(min_value=0, max_value=MAX_CHIPS)
    reason = LineField(max_length=500)


class RemoveEntrySerializer(StrictSerializer):
    reason = LineField(
        max_length=500, help_text=_("Why the player leaves with chips: disqualification, no-show …")
    )


class UndoBustSerializer(StrictSerializer):
    reason = LineField(max_length=500)
    chips = StrictIntegerField(
        min_value=1,
        max_value=MAX_CHIPS,
        required=False,
        help_text=_("Default: the chips at the start of the bust hand."),
    )


class BustItemSerializer(StrictSerializer):
    entry = StrictIdField()
    chips_at_start = StrictIntegerField(
        min_value=1, max_value=MAX_CHIPS, help_text=_("The entry's chips at the start of the hand.")
    )


class BustSerializer(StrictSerializer):
    busts = serializers.ListField(
        child=BustItemSerializer(), allow_empty=False, min_length=1, max_length=MAX_PLAYERS_PER_BUST
    )
    hand_label = LineField(max_length=100, required=False, allow_blank=True, default="")


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


class ICMRequestSerializer(StrictSerializer):
    stacks = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=MAX_CHIPS), min_length=1, max_length=MAX_PLAYERS
    )
    payouts = serializers.ListField(
        child=StrictIntegerField(min_value=0, max_value=MAX_CHIPS * 1000),
        min_length=1,
        max_length=MAX_PLAYERS,
    )


def check_payouts_descending(payouts: list[int]) -> None:
    """A lower place never pays more than a higher one: a rule on the values (422), not their shape."""
    if any(later > earlier for earlier, later in itertools.pairwise(payouts)):
        raise RuleError(
            _("payouts: A lower place cannot pay more than a higher one."),
            code="payouts_not_descending",
            field="payouts",
        )


class ICMResultSerializer(serializers.Serializer):
    stacks = serializers.ListField(child=serializers.IntegerField())
    payouts = serializers.ListField(child=serializers.IntegerField())
    equities = serializers.ListField(child=serializers.FloatField())
    entries = serializers.ListField(child=serializers.IntegerField(), required=False)


class AuditEntrySerializer(serializers.ModelSerializer):
    actor = serializers.SerializerMethodField(help_text=_("Who did it; null for a device or the system."))

    class Meta:
        model = AuditEntry
        fields = ["id", "at", "actor", "device_label", "action", "target", "reason", "data"]

    def get_actor(self, entry) -> str | None:
        return str(entry.actor) if entry.actor_id else None


class ColorUpResultSerializer(serializers.Serializer):
    chip_denominations = serializers.ListField(child=serializers.IntegerField())
    smallest_chip = serializers.IntegerField()
    race_winners = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("Entries that won a chip.")
    )
    saved = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("Entries given one chip so as not to be raced out.")
    )
