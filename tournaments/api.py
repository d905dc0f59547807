"""The tournaments API: thin DRF views over tournaments.services.

Reads are public (nothing secret: the master seed only once finished); writes need a staff user.
Errors: 400 names the field (DRF validation), 409 a wrong state, 422 a broken rule; all carry
``detail`` and, for 409/422, ``code``, ``field`` and ``rule`` when they apply.
"""

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import ReferenceNotFound, Unprocessable, error_responses
from config.permissions import IsStaffOrReadOnly as StaffOrReadOnly

from . import icm, services
from . import serializers as s
from .models import BlindStructure, Entry, Level, Player, Tournament


class IsStaffOrReadOnly(StaffOrReadOnly):
    message = _("Only tournament staff can change this.")


DESCRIBED = {
    400: _("Bad input: the message names the field and the problem. Nothing changed."),
    403: _("Not allowed: writes need a staff user whose role makes this change (``detail`` says which)."),
    404: _("No such object."),
    409: _("Not possible in the current state (e.g. a clock operation in the wrong state). Nothing changed."),
    422: _("Against a rule (the rule number is in ``rule``). Nothing changed."),
}


def errors(*codes: int, ok=None, ok_code: int = 200) -> dict:
    """The responses of an operation, with the error responses it can give documented."""
    return error_responses(DESCRIBED, *codes, ok=ok, ok_code=ok_code)


WRITE_ERRORS = (400, 403, 404, 409, 422)


def _valid(serializer_class, request, **kwargs):
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# ---------------------------------------------------------------- structures and levels


@extend_schema_view(
    list=extend_schema(summary="Blind structures (templates and tournament copies)"),
    retrieve=extend_schema(responses=errors(404, ok=s.StructureSerializer)),
)
class StructureViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = BlindStructure.objects.prefetch_related("levels").order_by("-is_template", "name", "id")
    serializer_class = s.StructureSerializer
    permission_classes = [IsStaffOrReadOnly]
    write_capability = "setup"  # the writes each role may make: config.roles.CAPABILITIES

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.request.query_params.get("templates") in ("1", "true"):
            queryset = queryset.filter(is_template=True)
        return queryset

    @extend_schema(
        request=s.StructureCreateSerializer,
        responses=errors(*WRITE_ERRORS, ok=s.StructureSerializer, ok_code=201),
        summary="Create a structure from a list of levels",
    )
    def create(self, request):
        data = _valid(s.StructureCreateSerializer, request)
        levels = [dict(level) for level in data.pop("levels", [])]
        structure = services.create_structure(levels=levels, actor=request.user, **data)
        return Response(s.StructureSerializer(structure).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.CopyStructureSerializer,
        responses=errors(*WRITE_ERRORS, ok=s.StructureSerializer, ok_code=201),
        summary="Copy a structure (a template) to edit it",
    )
    @action(detail=True, methods=["post"])
    def copy(self, request, pk=None):
        data = _valid(s.CopyStructureSerializer, request)
        copy = services.copy_structure(self.get_object(), name=data.get("name", ""), actor=request.user)
        return Response(s.StructureSerializer(copy).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.LevelSerializer,
        responses=errors(*WRITE_ERRORS, ok=s.LevelSerializer, ok_code=201),
        summary="Add a level or break (at ``order``, default the end)",
    )
    @action(detail=True, methods=["post"], url_path="levels")
    def add_level(self, request, pk=None):
        structure = self.get_object()
        data = _valid(s.LevelSerializer, request)
        level = services.add_level(structure, actor=request.user, **data)
        return Response(s.LevelSerializer(level).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    retrieve=extend_schema(responses=errors(404, ok=s.LevelSerializer)),
    partial_update=extend_schema(
        request=s.LevelUpdateSerializer,
        responses=errors(*WRITE_ERRORS, ok=s.LevelSerializer),
        summary="Edit a level (not of a template; not a level already played)",
    ),
    destroy=extend_schema(responses=errors(403, 404, 409, ok=None, ok_code=204)),
)
class LevelViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = Level.objects.select_related("structure")
    serializer_class = s.LevelSerializer
    permission_classes = [IsStaffOrReadOnly]
    write_capability = "setup"
    http_method_names = ["get", "patch", "delete", "head", "options"]

    def partial_update(self, request, pk=None):
        level = self.get_object()
        data = _valid(s.LevelUpdateSerializer, request, partial=True)
        level = services.update_level(level, actor=request.user, **data)
        return Response(s.LevelSerializer(level).data)

    def destroy(self, request, pk=None):
        services.delete_level(self.get_object(), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# ---------------------------------------------------------------- tournaments


@extend_schema_view(
    list=extend_schema(summary="Tournaments"),
    retrieve=extend_schema(responses=errors(404, ok=s.TournamentSerializer)),
)
class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = Tournament.objects.select_related("structure").order_by("-created_at", "-id")
    serializer_class = s.TournamentSerializer
    permission_classes = [IsStaffOrReadOnly]
    write_capabilities = {
        "create": "setup",
        "partial_update": "setup",
        "open_registration": "clock",
        "start": "clock",
        "finish": "clock",
        "color_up": "chip_counts",
        "clock_pause": "clock",
        "clock_resume": "clock",
        "clock_add_time": "clock",
        "clock_jump": "clock",
        "clock_hand_for_hand": "clock",
        "clock_hand_for_hand_round": "clock",
        "entries": "entries",
        "bust": "busts",
    }
    http_method_names = ["get", "post", "patch", "head", "options"]

    def _fresh(self, tournament):
        return Response(s.TournamentSerializer(Tournament.objects.get(pk=tournament.pk)).data)

    @extend_schema(
        request=s.TournamentWriteSerializer,
        responses=errors(*WRITE_ERRORS, ok=s.TournamentSerializer, ok_code=201),
        summary="Create a tournament with a copy of a blind structure",
    )
    def create(self, request):
        data = _valid(s.TournamentWriteSerializer, request)
        tournament = services.create_tournament(actor=request.user, **data)
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.TournamentUpdateSerializer,
        responses=errors(*WRITE_ERRORS, ok=s.TournamentSerializer),
        summary="Edit a tournament (payouts, late registration ... while it runs)",
    )
    def partial_update(self, request, pk=None):
        tournament = self.get_object()
        data = _valid(s.TournamentUpdateSerializer, request, partial=True, instance=tournament)
        services.update_tournament(tournament, actor=request.user, **data)
        return self._fresh(tournament)

    def _lifecycle(self, request, operation):
        tournament = self.get_object()
        operation(tournament, actor=request.user)
        return self._fresh(tournament)

    @extend_schema(
        request=None,
        responses=errors(403, 404, 409, ok=s.TournamentSerializer),
        summary="planned -> registering",
    )
    @action(detail=True, methods=["post"], url_path="open-registration")
    def open_registration(self, request, pk=None):
        return self._lifecycle(request, services.open_registration)

    @extend_schema(
        request=None,
        responses=errors(403, 404, 409, ok=s.TournamentSerializer),
        summary="registering -> running: starts the clock (needs players seated)",
    )
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        return self._lifecycle(request, services.start_tournament)

    @extend_schema(
        request=None,
        responses=errors(403, 404, 409, ok=s.TournamentSerializer),
        summary="-> finished (one player left); reveals a master seed",
    )
    @action(detail=True, methods=["post"])
    def finish(self, request, pk=None):
        return self._lifecycle(request, services.finish_tournament)

    @extend_schema(
        request=None,
        responses=errors(403, 404, 409, ok=s.ColorUpResultSerializer),
        summary="At a break: color up the break's chips and race off the odd ones (R8.7)",
    )
    @action(detail=True, methods=["post"], url_path="color-up")
    def color_up(self, request, pk=None):
        tournament = self.get_object()
        result = services.color_up(tournament, actor=request.user)
        tournament.refresh_from_db()
        return Response(
            s.ColorUpResultSerializer(
                {
                    "chip_denominations": tournament.chip_denominations,
                    "smallest_chip": tournament.smallest_chip,
                    "race_winners": result.winners,
                    "saved": result.saved,
                }
            ).data
        )

    # -- the clock

    @extend_schema(responses=errors(404, ok=s.ClockSerializer), summary="The clock now")
    @action(detail=True, methods=["get"])
    def clock(self, request, pk=None):
        return Response(s.ClockSerializer(s.clock_payload(self.get_object())).data)

    def _clock(self, request, operation, arguments=lambda data: (), serializer=s.ClockChangeSerializer):
        """A clock change with its optional ``clock_version`` (409 ``clock_moved`` when stale)."""
        tournament = self.get_object()
        data = _valid(serializer, request)
        services.change_clock(
            tournament,
            operation,
            *arguments(data),
            expected_version=data.get("clock_version"),
            actor=request.user,
        )
        tournament = Tournament.objects.get(pk=tournament.pk)
        return Response(s.ClockSerializer(s.clock_payload(tournament)).data)

    @extend_schema(
        request=s.ClockChangeSerializer,
        responses=errors(400, 403, 404, 409, ok=s.ClockSerializer),
        summary="Pause the clock",
    )
    @action(detail=True, methods=["post"], url_path="clock/pause")
    def clock_pause(self, request, pk=None):
        return self._clock(request, services.pause_clock)

    @extend_schema(
        request=s.ClockChangeSerializer,
        responses=errors(400, 403, 404, 409, ok=s.ClockSerializer),
        summary="Resume the clock",
    )
    @action(detail=True, methods=["post"], url_path="clock/resume")
    def clock_resume(self, request, pk=None):
        return self._clock(request, services.resume_clock)

    @extend_schema(
        request=s.AddTimeSerializer,
        responses=errors(400, 403, 404, 409, 422, ok=s.ClockSerializer),
        summary="Add (or remove, negative) time in the current level or break",
        description=str(
            _(
                "The level's time left stays from 0 to the level's own length: outside that, 422 "
                "(rule R8.2) with the allowed range in params.minimum and params.maximum."
            )
        ),
    )
    @action(detail=True, methods=["post"], url_path="clock/add-time")
    def clock_add_time(self, request, pk=None):
        return self._clock(
            request, services.add_time, lambda data: (data["seconds"],), serializer=s.AddTimeSerializer
        )

    @extend_schema(
        request=s.JumpSerializer,
        responses=errors(400, 403, 404, 409, 422, ok=s.ClockSerializer),
        summary="Jump to a level (full time)",
    )
    @action(detail=True, methods=["post"], url_path="clock/jump")
    def clock_jump(self, request, pk=None):
        return self._clock(
            request, services.jump_to_level, lambda data: (data["level_index"],), serializer=s.JumpSerializer
        )

    @extend_schema(
        request=s.HandForHandSerializer,
        responses=errors(400, 403, 404, 409, ok=s.ClockSerializer),
        summary="Hand-for-hand on (pauses the clock) or off (R8.6)",
    )
    @action(detail=True, methods=["post"], url_path="clock/hand-for-hand")
    def clock_hand_for_hand(self, request, pk=None):
        return self._clock(
            request,
            services.set_hand_for_hand,
            lambda data: (data["on"],),
            serializer=s.HandForHandSerializer,
        )

    @extend_schema(
        request=s.ClockChangeSerializer,
        responses=errors(400, 403, 404, 409, ok=s.ClockSerializer),
        summary="A hand-for-hand round finished: the clock loses at most 2 minutes (R8.6)",
    )
    @action(detail=True, methods=["post"], url_path="clock/hand-for-hand-round")
    def clock_hand_for_hand_round(self, request, pk=None):
        return self._clock(request, services.hand_for_hand_round_finished)

    # -- entries

    @extend_schema(
        methods=["get"],
        responses=errors(404, ok=s.EntrySerializer(many=True)),
        summary="Entries (best place first, then chips)",
    )
    @extend_schema(
        methods=["post"],
        request=s.REGISTER_SCHEMA,
        responses=errors(*WRITE_ERRORS, ok=s.EntrySerializer, ok_code=201),
        summary="Register a player (a re-entry if they busted before)",
    )
    @action(detail=True, methods=["get", "post"])
    def entries(self, request, pk=None):
        tournament = self.get_object()
        if request.method == "GET":
            entries = tournament.entries.select_related("player").order_by("status", "place", "-chips", "id")
            return Response(s.EntrySerializer(entries, many=True).data)
        data = _valid(s.RegisterSerializer, request)
        with transaction.atomic():
            player = data.get("player") or services.player_named(data["name"])
            entry = services.register(tournament, player, actor=request.user)
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.BustSerializer,
        responses=errors(*WRITE_ERRORS, ok=s.EntrySerializer(many=True)),
        summary="Players out of chips on one hand get their places (R8.6, R8.8)",
    )
    @action(detail=True, methods=["post"])
    def bust(self, request, pk=None):
        tournament = self.get_object()
        data = _valid(s.BustSerializer, request)
        ids = [item["entry"] for item in data["busts"]]
        found = Entry.objects.in_bulk(ids)
        missing = [i for i in ids if i not in found or found[i].tournament_id != tournament.pk]
        if missing:
            raise ReferenceNotFound(
                "busts", _("entry %(id)s is not in this tournament.") % {"id": missing[0]}
            )
        pairs = [(found[item["entry"]], item["chips_at_start"]) for item in data["busts"]]
        busted = services.bust_entries(tournament, pairs, actor=request.user, hand_label=data["hand_label"])
        fresh = (
            Entry.objects.select_related("player")
            .filter(pk__in=[e.pk for e in busted])
            .order_by("place", "id")
        )
        return Response(s.EntrySerializer(fresh, many=True).data)

    # -- prizes

    @extend_schema(
        responses=errors(404, ok=s.PayoutsSerializer),
        summary="Prize pool, payout table, each finisher's prize",
    )
    @action(detail=True, methods=["get"])
    def payouts(self, request, pk=None):
        tournament = self.get_object()
        pool = services.prize_pool(tournament)
        table = services.payout_table(tournament)
        finishers = (
            tournament.entries.filter(place__isnull=False).select_related("player").order_by("place", "id")
        )
        return Response(
            s.PayoutsSerializer(
                {
                    "prize_pool": pool,
                    "field_size": tournament.entries.count(),
                    "places_paid": len(table),
                    "table": [
                        {
                            "place": i,
                            "amount": amount,
                            "percent": round(100 * amount / pool, 2) if pool else 0,
                        }
                        for i, amount in enumerate(table, start=1)
                    ],
                    "finishers": [
                        {
                            "entry": e.pk,
                            "player": e.player.name,
                            "place": e.place,
                            "place_shared_to": e.place_shared_to,
                            "prize": e.prize,
                        }
                        for e in finishers
                    ],
                }
            ).data
        )

    @extend_schema(
        responses=errors(404, 422, ok=s.ICMResultSerializer),
        summary="ICM equity of the players left, for the prizes still to be won",
    )
    @action(detail=True, methods=["get"])
    def icm(self, request, pk=None):
        tournament = self.get_object()
        active = list(
            tournament.entries.filter(status=Entry.Status.ACTIVE, chips__gt=0).order_by("-chips", "id")
        )
        table = services.payout_table(tournament)[: len(active)]
        stacks = [e.chips for e in active]
        try:
            equities = icm.equities(stacks, table or [0])
        except icm.ICMError as exc:
            raise Unprocessable(detail=str(_("ICM: %(problem)s") % {"problem": exc.message})) from exc
        return Response(
            {
                "entries": [e.pk for e in active],
                "stacks": stacks,
                "payouts": table,
                "equities": [round(x, 2) for x in equities],
            }
        )

    @extend_schema(
        responses=errors(403, 404, ok=s.AuditEntrySerializer(many=True)), summary="Who did what (staff only)"
    )
    @action(detail=True, methods=["get"], permission_classes=[permissions.IsAdminUser])
    def audit(self, request, pk=None):
        tournament = self.get_object()
        return Response(
            s.AuditEntrySerializer(tournament.audit_entries.select_related("actor")[:500], many=True).data
        )


# ---------------------------------------------------------------- players and entries


class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    queryset = Player.objects.order_by("name", "id")
    serializer_class = s.PlayerSerializer
    permission_classes = [IsStaffOrReadOnly]
    write_capability = "entries"
    http_method_names = ["get", "post", "patch", "head", "options"]

    @extend_schema(responses=errors(400, 403, ok=s.PlayerSerializer, ok_code=201))
    def create(self, request, *args, **kwargs):
        return super().create(request, *args, **kwargs)

    @extend_schema(responses=errors(400, 403, 404, ok=s.PlayerSerializer))
    def partial_update(self, request, *args, **kwargs):
        return super().partial_update(request, *args, **kwargs)


class EntryViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = Entry.objects.select_related("player", "tournament")
    serializer_class = s.EntrySerializer
    permission_classes = [IsStaffOrReadOnly]
    write_capabilities = {
        "reenter": "entries",
        "rebuy": "entries",
        "addon": "entries",
        "chips": "chip_counts",
        "remove": "busts",
        "undo_bust": "busts",
    }

    def _fresh(self, entry, code=status.HTTP_200_OK):
        return Response(
            s.EntrySerializer(Entry.objects.select_related("player").get(pk=entry.pk)).data, status=code
        )

    @extend_schema(
        request=None,
        responses=errors(403, 404, 409, 422, ok=s.EntrySerializer, ok_code=201),
        summary="Re-enter: a new entry for this busted player (during late registration)",
    )
    @action(detail=True, methods=["post"])
    def reenter(self, request, pk=None):
        entry = self.get_object()
        new = services.register(entry.tournament, entry.player, actor=request.user)
        return self._fresh(new, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=errors(403, 404, 409, 422, ok=s.EntrySerializer), summary="Rebuy")
    @action(detail=True, methods=["post"])
    def rebuy(self, request, pk=None):
        return self._fresh(services.rebuy(self.get_object(), actor=request.user))

    @extend_schema(request=None, responses=errors(403, 404, 409, 422, ok=s.EntrySerializer), summary="Add-on")
    @action(detail=True, methods=["post"])
    def addon(self, request, pk=None):
        return self._fresh(services.addon(self.get_object(), actor=request.user))

    @extend_schema(
        request=s.SetChipsSerializer,
        responses=errors(*WRITE_ERRORS, ok=s.EntrySerializer),
        summary="Correct a chip count (with a reason)",
    )
    @action(detail=True, methods=["post"])
    def chips(self, request, pk=None):
        data = _valid(s.SetChipsSerializer, request)
        return self._fresh(
            services.set_chips(self.get_object(), data["chips"], reason=data["reason"], actor=request.user)
        )

    @extend_schema(
        request=s.RemoveEntrySerializer,
        responses=errors(*WRITE_ERRORS, ok=s.EntrySerializer),
        summary="Remove a player with chips from the tournament (disqualification, no-show), with a reason",
    )
    @action(detail=True, methods=["post"])
    def remove(self, request, pk=None):
        data = _valid(s.RemoveEntrySerializer, request)
        return self._fresh(
            services.remove_entry(self.get_object(), reason=data["reason"], actor=request.user)
        )

    @extend_schema(
        request=s.UndoBustSerializer,
        responses=errors(*WRITE_ERRORS, ok=s.EntrySerializer),
        summary="Undo a bust (with a reason); the audit log keeps the record",
    )
    @action(detail=True, methods=["post"], url_path="undo-bust")
    def undo_bust(self, request, pk=None):
        data = _valid(s.UndoBustSerializer, request)
        return self._fresh(
            services.undo_bust(
                self.get_object(), reason=data["reason"], chips=data.get("chips"), actor=request.user
            )
        )


class ICMView(APIView):
    """Chips in, each player's prize equity out (Malmuth-Harville)."""

    permission_classes = [permissions.AllowAny]
    # Open to anyone and exponential in the field: its own, lower rate (settings.THROTTLE_RATES).
    throttle_scope = "icm"

    @extend_schema(
        request=s.ICMRequestSerializer,
        responses=errors(400, 422, ok=s.ICMResultSerializer),
        summary="ICM calculator for deals",
    )
    def post(self, request):
        data = _valid(s.ICMRequestSerializer, request)
        s.check_payouts_descending(data["payouts"])
        try:
            equities = icm.equities(data["stacks"], data["payouts"])
        except icm.ICMError as exc:
            raise Unprocessable(detail=str(exc.message)) from exc
        return Response(
            {
                "stacks": data["stacks"],
                "payouts": data["payouts"],
                "equities": [round(x, 2) for x in equities],
            }
        )
