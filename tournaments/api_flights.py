"""The API of multi-day events (docs/festivals.md) and of the structure simulator (docs/simulator.md):
thin DRF views over ``tournaments.services.flights``, ``tournaments.flight_selectors`` and
``tournaments.simulation``.

Event and flight reads are public (nothing secret: counts, bags, places, prizes); writes and the
simulator (it costs CPU) need a staff user. 400 a malformed request, 404 no such event or flight,
409 not possible now, 422 against a rule (a bag count that does not add up: R6.7).
"""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import (
    MAX_ID,
    LineField,
    ReferenceNotFound,
    StrictBooleanField,
    StrictChoiceField,
    StrictIdField,
    StrictIntegerField,
    StrictNumberField,
    StrictPrimaryKeyRelatedField,
    StrictSerializer,
    Unprocessable,
    int_query,
    int_query_schema,
)
from config.permissions import is_staff

from . import flight_selectors as fs
from . import simulation, simulator
from .api import WRITE_ERRORS, IsStaffOrReadOnly, errors
from .models import AnteKind, Bag, Betting, BlindStructure, Entry, Event, Flight, Game, Tournament
from .services import MAX_CHIPS, MAX_STACK
from .services import flights as flight_services


class IsStaff(BasePermission):
    message = _("Only tournament staff can run the simulator.")

    def has_permission(self, request, view):
        return is_staff(request.user)


def _valid(serializer_class, request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# ---------------------------------------------------------------- shapes


class DayStopSerializer(StrictSerializer):
    day = StrictIntegerField(min_value=2, max_value=flight_services.MAX_DAYS)
    stop_after_level = StrictIntegerField(min_value=0, max_value=500, required=False, default=0)
    stop_at_players = StrictIntegerField(min_value=0, max_value=10_000, required=False, default=0)


class EventCreateSerializer(StrictSerializer):
    name = LineField(max_length=200)
    structure = StrictPrimaryKeyRelatedField(
        queryset=BlindStructure.objects.all(), help_text=_("Every flight and day gets its own copy.")
    )
    flights = serializers.ListField(
        child=LineField(max_length=40),
        min_length=1,
        max_length=flight_services.MAX_FLIGHTS,
        help_text=_("The starting flights' labels, e.g. Day 1A, Day 1B, Day 1C."),
    )
    days = StrictIntegerField(min_value=2, max_value=flight_services.MAX_DAYS, required=False, default=2)
    day_stops = DayStopSerializer(
        many=True,
        required=False,
        max_length=flight_services.MAX_DAYS,
        help_text=_("With three days or more: where each later day but the last stops and bags."),
    )
    game = StrictChoiceField(choices=Game.choices)
    betting = StrictChoiceField(choices=Betting.choices, required=False)
    starting_stack = StrictIntegerField(min_value=1, max_value=MAX_STACK)
    seats_per_table = StrictIntegerField(min_value=2, max_value=8, required=False, default=8)
    late_registration_until_level = StrictIntegerField(min_value=0, max_value=500, required=False, default=0)
    max_reentries = StrictIntegerField(min_value=0, max_value=100, required=False, default=0)
    buy_in = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False, default=0)
    fee = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False, default=0)
    guarantee = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False, default=0)
    payout_percentages = serializers.ListField(
        child=StrictNumberField(min_value=0, max_value=100), required=False, max_length=1000
    )
    percent_paid = StrictIntegerField(min_value=1, max_value=100, required=False, default=15)
    payout_unit = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False, default=0)
    stack_rule = StrictChoiceField(
        choices=Event.StackRule.choices,
        required=False,
        default=Event.StackRule.BEST,
        help_text=_("A player who survives several flights keeps the best stack, or all of them added up."),
    )
    stop_after_level = StrictIntegerField(
        min_value=0, max_value=500, required=False, default=0, help_text=_("Play stops after this level.")
    )
    stop_at_players = StrictIntegerField(
        min_value=0,
        max_value=10_000,
        required=False,
        default=0,
        help_text=_("Or when this many players are left in the flight."),
    )
    pays_day1_finishers = StrictBooleanField(required=False, default=False)
    late_stack = StrictIntegerField(
        min_value=0,
        max_value=MAX_STACK,
        required=False,
        default=0,
        help_text=_("Late entries into day 2 get this stack (0: day 2 is for the survivors only)."),
    )
    late_until_level = StrictIntegerField(min_value=0, max_value=500, required=False, default=0)


class StopSerializer(serializers.Serializer):
    after_level = serializers.IntegerField()
    at_players = serializers.IntegerField()
    players_left = serializers.IntegerField()
    level = serializers.IntegerField(allow_null=True)
    reached = serializers.BooleanField()
    by_level = serializers.BooleanField()
    by_players = serializers.BooleanField()
    stopped = serializers.BooleanField()
    closed = serializers.BooleanField()


class SurvivorSerializer(serializers.Serializer):
    player = serializers.CharField()
    chips = serializers.IntegerField()
    bag = serializers.CharField()
    status = serializers.CharField(
        help_text=_("bagged, carried (to the next day) or set_aside (a bigger bag counts).")
    )


class FlightRowSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    label = serializers.CharField()
    day = serializers.IntegerField()
    status = serializers.CharField(
        help_text=_("The flight's tournament: planned, registering, running, on_break, finished.")
    )
    entries = serializers.IntegerField()
    players_left = serializers.IntegerField()
    chips_in_play = serializers.IntegerField()
    registration_open = serializers.BooleanField()
    play_stopped = serializers.BooleanField()
    closed = serializers.BooleanField()
    drawn = serializers.BooleanField()
    survivors = SurvivorSerializer(many=True)
    stop = StopSerializer(allow_null=True)


class PlaceAmountSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    amount = serializers.IntegerField()


class EventTotalsSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    name = serializers.CharField()
    entries = serializers.IntegerField(
        help_text=_("Every buy-in: all flights and late entries into later days.")
    )
    players = serializers.IntegerField()
    prize_pool = serializers.IntegerField()
    places_paid = serializers.IntegerField()
    payouts = PlaceAmountSerializer(many=True)
    players_left = serializers.IntegerField()
    chips_in_play = serializers.IntegerField()
    average_stack = serializers.IntegerField()
    stack_rule = serializers.ChoiceField(choices=Event.StackRule.choices)
    pays_day1_finishers = serializers.BooleanField()
    flights = FlightRowSerializer(many=True)


class FlightSnapshotSerializer(serializers.Serializer):
    label = serializers.CharField()
    day = serializers.IntegerField()
    last_day = serializers.BooleanField()
    stop = StopSerializer(allow_null=True)
    event = EventTotalsSerializer()


class ResultSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    flight = serializers.CharField()
    place = serializers.IntegerField()
    place_shared_to = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField()


class ResultsSerializer(serializers.Serializer):
    prize_pool = serializers.IntegerField()
    entries = serializers.IntegerField()
    payouts = PlaceAmountSerializer(many=True)
    results = ResultSerializer(many=True)


class BagItemSerializer(StrictSerializer):
    entry = StrictIdField()
    chips = StrictIntegerField(min_value=1, max_value=MAX_CHIPS)
    bag = LineField(max_length=20, help_text=_("The number on the bag the chips are sealed in."))


class BagTableSerializer(StrictSerializer):
    table = StrictIntegerField(min_value=1, max_value=10_000)
    bags = BagItemSerializer(many=True, min_length=1, max_length=8)


class BagRowSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.name")
    flight = serializers.CharField(source="flight.label")
    status = serializers.CharField(
        help_text=_("bagged, carried (to the next day) or set_aside (a bigger bag counts).")
    )

    class Meta:
        model = Bag
        fields = [
            "id",
            "flight",
            "bag_number",
            "player",
            "chips",
            "table_number",
            "seat_number",
            "status",
            "bagged_at",
        ]


class EliminateSerializer(StrictSerializer):
    entry = StrictIdField(help_text=_("The player who is out."))
    by = StrictIdField(help_text=_("The player at the same table who won their chips."))


class EliminatedSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    status = serializers.CharField()
    place = serializers.IntegerField(allow_null=True, help_text=_("Null while late registration is open."))


class NextDaySerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    label = serializers.CharField()
    day = serializers.IntegerField()
    players = serializers.IntegerField()
    tables = serializers.IntegerField()
    level_index = serializers.IntegerField(
        help_text=_("The period of the structure the day's clock starts at.")
    )


# -- the simulator


class LevelSpecSerializer(StrictSerializer):
    minutes = StrictIntegerField(min_value=1, max_value=600)
    small_blind = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False, default=0)
    big_blind = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False, default=0)
    ante = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False, default=0)
    ante_kind = StrictChoiceField(choices=AnteKind.choices, required=False, default="none")
    small_bet = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False, default=0)
    big_bet = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False, default=0)
    is_break = StrictBooleanField(required=False, default=False)


class SimulationOptionsMixin(serializers.Serializer):
    runs = StrictIntegerField(min_value=1, max_value=simulation.MAX_RUNS, required=False, default=1000)
    seed = StrictIntegerField(min_value=0, max_value=2**32 - 1, required=False, default=0)
    hours = StrictNumberField(
        min_value=0.1,
        max_value=72,
        required=False,
        allow_null=True,
        default=None,
        help_text=_("Fit to my schedule: propose a level length and a template that fit in this many hours."),
    )


class SimulationRequestSerializer(StrictSerializer, SimulationOptionsMixin):
    game = StrictChoiceField(choices=Game.choices)
    betting = StrictChoiceField(choices=Betting.choices)
    structure = StrictPrimaryKeyRelatedField(
        queryset=BlindStructure.objects.all(),
        required=False,
        help_text=_("A stored structure, or give levels."),
    )
    levels = LevelSpecSerializer(many=True, required=False, max_length=120)
    starting_stack = StrictIntegerField(min_value=1, max_value=MAX_STACK)
    entries = StrictIntegerField(min_value=2, max_value=100_000)
    reentries = StrictIntegerField(min_value=0, max_value=100_000, required=False, default=0)
    seats_per_table = StrictIntegerField(min_value=2, max_value=8, required=False, default=8)
    late_registration_until_level = StrictIntegerField(min_value=0, max_value=500, required=False, default=0)
    places_paid = StrictIntegerField(
        min_value=1, max_value=100_000, required=False, allow_null=True, default=None
    )
    percent_paid = StrictIntegerField(min_value=1, max_value=100, required=False, default=15)
    hands_per_hour = StrictNumberField(
        min_value=1, max_value=200, required=False, allow_null=True, default=None
    )


class SpreadSerializer(serializers.Serializer):
    median = serializers.FloatField(allow_null=True)
    p10 = serializers.FloatField(allow_null=True)
    p90 = serializers.FloatField(allow_null=True)


class LevelForecastSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    index = serializers.IntegerField()
    starts_at = serializers.FloatField(help_text=_("Seconds after the start, breaks included."))
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    players_left = SpreadSerializer()
    average_stack_bb = SpreadSerializer()
    still_running = serializers.FloatField()


class TemplateFitSerializer(serializers.Serializer):
    name = serializers.CharField()
    median_length = serializers.FloatField(allow_null=True)


class FitSerializer(serializers.Serializer):
    hours = serializers.FloatField()
    level_minutes = serializers.IntegerField()
    level_minutes_fit = serializers.BooleanField()
    length_with_those_levels = SpreadSerializer()
    templates = TemplateFitSerializer(many=True)
    best_template = serializers.CharField(allow_null=True)
    best_template_fits = serializers.BooleanField()


class SimulationReportSerializer(serializers.Serializer):
    runs = serializers.IntegerField()
    seed = serializers.IntegerField()
    hands_per_hour = serializers.FloatField()
    entries = SpreadSerializer()
    places_paid = SpreadSerializer()
    late_registration_closes_at = serializers.FloatField(allow_null=True)
    players_at_close = SpreadSerializer()
    length = SpreadSerializer(help_text=_("Seconds from the start to the winner, breaks included."))
    bubble = SpreadSerializer()
    final_table = SpreadSerializer()
    end_level = SpreadSerializer()
    runs_out_of_levels = serializers.FloatField()
    levels = LevelForecastSerializer(many=True)
    config = serializers.DictField()
    fit = FitSerializer(allow_null=True)


def _run(config, *, runs, seed, hours):
    try:
        return simulation.simulate(config, runs=runs, seed=seed, hours=hours)
    except simulator.SimulationError as exc:
        api_exc = Unprocessable(detail=simulation.error_message(exc))
        api_exc.extra = {
            "code": exc.code,
            **({"field": exc.params["field"]} if "field" in exc.params else {}),
        }
        raise api_exc from exc


# ---------------------------------------------------------------- events


class EventViewSet(viewsets.GenericViewSet):
    queryset = Event.objects.order_by("-created_at", "-id")
    permission_classes = [IsStaffOrReadOnly]
    write_capabilities = {"create": "setup", "next_day": "setup"}  # config.roles.CAPABILITIES
    serializer_class = EventTotalsSerializer

    @extend_schema(responses=errors(ok=EventTotalsSerializer(many=True)), summary="Multi-day events")
    def list(self, request):
        return Response([fs.event_totals(event) for event in self.get_queryset()[:100]])

    @extend_schema(
        request=EventCreateSerializer,
        responses=errors(*WRITE_ERRORS, ok=EventTotalsSerializer, ok_code=201),
        summary="Create a multi-day event: its starting flights (registration open) and later days",
    )
    def create(self, request):
        data = _valid(EventCreateSerializer, request)
        if "day_stops" in data:
            data["day_stops"] = [dict(item) for item in data["day_stops"]]
        event = flight_services.create_event(actor=request.user, **data)
        return Response(fs.event_totals(event), status=status.HTTP_201_CREATED)

    @extend_schema(
        responses=errors(404, ok=EventTotalsSerializer),
        summary="The event's totals: entries, one prize pool and payout table, each flight and its survivors",
    )
    def retrieve(self, request, pk=None):
        return Response(fs.event_totals(self.get_object()))

    @extend_schema(
        responses=errors(404, ok=ResultsSerializer),
        summary="Places across the event and their prizes",
    )
    @action(detail=True, methods=["get"])
    def results(self, request, pk=None):
        event = self.get_object()
        table = fs.payout_table(event)
        return Response(
            {
                "prize_pool": fs.prize_pool(event),
                "entries": fs.field_size(event),
                "payouts": [{"place": i, "amount": a} for i, a in enumerate(table, start=1)],
                "results": fs.results(event),
            }
        )

    @extend_schema(
        request=None,
        responses=errors(403, 404, 409, ok=NextDaySerializer),
        summary="Draw the next day: every survivor with their bagged chips, seated at random (R8.1)",
    )
    @action(detail=True, methods=["post"], url_path="next-day")
    def next_day(self, request, pk=None):
        day = flight_services.draw_next_day(self.get_object(), actor=request.user)
        tournament = Tournament.objects.get(pk=day.tournament_id)
        return Response(
            {
                "tournament": tournament.pk,
                "label": day.label,
                "day": day.day,
                "players": tournament.entries.count(),
                "tables": tournament.tables.count(),
                "level_index": tournament.level_index,
            }
        )


# ---------------------------------------------------------------- flights (by their tournament's id)


class FlightViewSet(viewsets.GenericViewSet):
    """A flight or day, named by its tournament's id."""

    queryset = Flight.objects.select_related("event", "tournament")
    permission_classes = [IsStaffOrReadOnly]
    write_capabilities = {"stop": "clock", "bag": "chip_counts", "eliminate": "busts"}
    serializer_class = FlightSnapshotSerializer

    def get_object(self):
        # By the tournament's id; one that no database row can have (beyond 64 bits) is a 404 too.
        pk = str(self.kwargs["pk"])
        if not (pk.isascii() and pk.isdigit() and len(pk) <= 19 and int(pk) <= MAX_ID):
            raise Http404
        flight = get_object_or_404(self.get_queryset(), tournament_id=int(pk))
        self.check_object_permissions(self.request, flight)
        return flight

    @extend_schema(
        responses=errors(404, ok=FlightSnapshotSerializer),
        summary="A flight: its label and day, where its play stops, and the event's totals",
    )
    def retrieve(self, request, pk=None):
        return Response(fs.flight_snapshot(self.get_object().tournament))

    @extend_schema(
        request=None,
        responses=errors(403, 404, 409, ok=FlightSnapshotSerializer),
        summary="Stop play for the day once the stop level is over or the stop number of players is reached",
    )
    @action(detail=True, methods=["post"])
    def stop(self, request, pk=None):
        flight = self.get_object()
        flight_services.stop_play(flight.tournament, actor=request.user)
        return Response(fs.flight_snapshot(flight.tournament))

    @extend_schema(
        request=BagTableSerializer,
        responses=errors(*WRITE_ERRORS, ok=BagRowSerializer(many=True), ok_code=201),
        summary="Bag one table: each survivor's count and bag number; the counts must add up (R6.7)",
    )
    @action(detail=True, methods=["post"])
    def bag(self, request, pk=None):
        flight = self.get_object()
        data = _valid(BagTableSerializer, request)
        counts = [dict(item) for item in data["bags"]]
        bags = flight_services.bag_table(flight.tournament, data["table"], counts, actor=request.user)
        rows = Bag.objects.filter(pk__in=[b.pk for b in bags]).select_related("player", "flight")
        return Response(BagRowSerializer(rows, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        responses=errors(404, ok=BagRowSerializer(many=True)),
        summary="The bag-and-tag sheet: every bag of the flight, by table and seat",
    )
    @action(detail=True, methods=["get"])
    def bags(self, request, pk=None):
        flight = self.get_object()
        return Response(BagRowSerializer(flight.bags.select_related("player", "flight"), many=True).data)

    @extend_schema(
        request=EliminateSerializer,
        responses=errors(*WRITE_ERRORS, ok=EliminatedSerializer),
        summary="A player is out: their chips go to the player who won them, then the bust is placed (R8.8)",
    )
    @action(detail=True, methods=["post"])
    def eliminate(self, request, pk=None):
        flight = self.get_object()
        data = _valid(EliminateSerializer, request)
        found = Entry.objects.in_bulk([data["entry"], data["by"]])
        for field in ("entry", "by"):
            entry = found.get(data[field])
            if entry is None or entry.tournament_id != flight.tournament_id:
                raise ReferenceNotFound(field, _("entry %(id)s is not in this flight.") % {"id": data[field]})
        out = flight_services.eliminate(found[data["entry"]], by=found[data["by"]], actor=request.user)
        return Response({"entry": out.pk, "status": out.status, "place": out.place})


# ---------------------------------------------------------------- the simulator


class SimulationView(APIView):
    """A structure and a field in, the forecast out."""

    permission_classes = [IsStaff]

    @extend_schema(
        request=SimulationRequestSerializer,
        responses=errors(400, 403, 404, 422, ok=SimulationReportSerializer),
        summary="Simulate a structure: length, late registration, bubble, final table, field by level",
        description=str(
            _(
                "Times are seconds from the start, breaks included, each as the median with the 10th and "
                "90th percentiles of the runs. With hours, a proposal that fits the event in that schedule."
            )
        ),
    )
    def post(self, request):
        data = _valid(SimulationRequestSerializer, request)
        if ("structure" in data) == ("levels" in data):
            # Well formed either way, but the forecast needs one structure: a rule of the request (422).
            api_exc = Unprocessable(
                detail=str(_("levels: give either a stored structure or its levels, not both."))
            )
            api_exc.extra = {"code": "one_structure", "field": "levels"}
            raise api_exc
        if "structure" in data:
            levels = simulation.structure_levels(data["structure"])
        else:
            levels = simulation.level_specs(
                [dict(level, duration_minutes=level["minutes"]) for level in data["levels"]]
            )
        config = simulator.SimulationConfig(
            game=data["game"],
            betting=data["betting"],
            levels=levels,
            starting_stack=data["starting_stack"],
            entries=data["entries"],
            seats_per_table=data["seats_per_table"],
            reentries=data["reentries"],
            late_registration_until_level=data["late_registration_until_level"],
            places_paid=data["places_paid"],
            percent_paid=data["percent_paid"],
            hands_per_hour=data["hands_per_hour"],
        )
        return Response(_run(config, runs=data["runs"], seed=data["seed"], hours=data["hours"]))


QUERY = [
    OpenApiParameter(
        "entries",
        int_query_schema(2, 100_000),
        description=str(_("Expected entries (default: the entries so far).")),
    ),
    OpenApiParameter(
        "reentries",
        int_query_schema(0, 100_000),
        description=str(_("Expected re-entries (default: so far).")),
    ),
    OpenApiParameter(
        "runs",
        int_query_schema(1, simulation.MAX_RUNS),
        description=str(_("Simulated runs, 1 to 2000 (default 1000).")),
    ),
    OpenApiParameter("seed", int_query_schema(0, 2**32 - 1), description=str(_("Random seed (default 0)."))),
    OpenApiParameter(
        "hours",
        {"type": "number", "minimum": 0.1, "maximum": 72},
        description=str(_("Fit to my schedule: the hours the event has.")),
    ),
]


def simulation_query(request, tournament: Tournament) -> tuple[simulator.SimulationConfig, dict]:
    """The forecast's input for a stored tournament from query parameters (400 naming a bad one)."""
    so_far = simulation.expected_field(tournament)
    entries = int_query(request, "entries", minimum=2, maximum=100_000) or max(so_far[0], 2)
    reentries = int_query(request, "reentries", minimum=0, maximum=100_000)
    runs = int_query(request, "runs", minimum=1, maximum=simulation.MAX_RUNS) or 1000
    seed = int_query(request, "seed", minimum=0, maximum=2**32 - 1) or 0
    hours = None
    raw = request.query_params.get("hours")
    if raw:
        try:
            hours = float(raw)
        except ValueError:
            hours = None
        if hours is None or not 0.1 <= hours <= 72:
            raise serializers.ValidationError({"hours": [_("Give the hours as a number from 0.1 to 72.")]})
    config = simulation.config_of(tournament, entries, so_far[1] if reentries is None else reentries)
    return config, {"runs": runs, "seed": seed, "hours": hours}


class TournamentSimulationView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        parameters=QUERY,
        responses=errors(400, 403, 404, 422, ok=SimulationReportSerializer),
        summary="Simulate this tournament as configured (its structure, stack, tables, late registration)",
    )
    def get(self, request, pk: int):
        tournament = get_object_or_404(Tournament.objects.select_related("structure"), pk=pk)
        config, options = simulation_query(request, tournament)
        return Response(_run(config, **options))
