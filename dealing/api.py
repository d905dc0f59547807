"""The dealing API: thin DRF views over dealing.services.

Reads carry the public view of a running hand (the seed, the deck and unshown hole cards only for
the deck-prep role, ``dealing.view_deck``); writes need the staff check of ``dealing.permissions``.
Errors: 400 names the field, 409 a wrong state (a stale ``expected_seq`` also gets the current
hand), 422 a broken rule (with the rule number and, for amounts, the allowed range). In every
error case nothing changed.
"""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import Conflict, choice_query, error_responses, int_query, int_query_schema
from tables.models import Table
from tournaments.models import Tournament

from . import histories, services, vault
from . import serializers as s
from .models import Hand, HandEvent
from .permissions import DealingPermission, DeckPrepPermission, FloorPermission, can_view_deck
from .verification import verify_hand, verify_tournament

DESCRIBED = {
    400: _(
        "Malformed: a wrong JSON type (amounts, seats and ids are JSON integers), an unknown field, a "
        "number out of range, a code that is not a card. The message names the field. Nothing changed."
    ),
    403: _(
        "Not allowed: writes need tournament staff; corrections a floor person; the deck the deck-prep role."
    ),
    404: _("No such hand or table."),
    409: _(
        "Not possible now: out of turn, the wrong street, a stale expected_seq (the current hand is "
        "included), a finished hand, a table that cannot deal, a hand-for-hand run-out the floor has "
        "not released (awaiting_floor). Nothing changed."
    ),
    422: _(
        "Against a rule (rule and params say which and the allowed range): an amount below the minimum "
        "or above the maximum, a card already used or given twice, the wrong number of cards for the "
        "step, blinds that differ from the level (R8.2), a client_action_id reused for another input. "
        "Nothing changed."
    ),
}


def errors(*codes: int, ok=None, ok_code: int = 200) -> dict:
    return error_responses(DESCRIBED, *codes, ok=ok, ok_code=ok_code)


WRITE_ERRORS = (400, 403, 404, 409, 422)


def _valid(serializer_class, request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _hand(pk) -> Hand:
    return get_object_or_404(Hand.objects.select_related("table", "table__tournament"), pk=pk)


def _viewer(request):
    """Who the answer is for: a paired tablet is never the deck-prep role, so its permissions are
    not read (two queries per input); a person's are."""
    if getattr(getattr(request, "auth", None), "may_operate_table", None) is not None:
        return None
    return request.user


def _device(request) -> str:
    """The device label recorded with an input: only ever the paired device's own, from its token
    (``Authorization: Device …``). A person signed in is recorded as the actor, never as a device."""
    may_operate_table = getattr(getattr(request, "auth", None), "may_operate_table", None)
    return getattr(request.auth, "label", "") if may_operate_table is not None else ""


class HandListView(APIView):
    permission_classes = [DealingPermission]
    # A dealer's input is not wrapped and run again by config.locks.GiveWayMiddleware: it holds its
    # table and is the side that goes through in a lock cycle, and a transaction around it would make
    # a kept hand's one-statement write (dealing.kept_writes) a transaction of its own, and a deal's
    # transaction a savepoint: round trips on every input, as on the tablet's socket, which skips it too.
    gives_way = False

    @extend_schema(
        summary="Hands (filter by table, tournament or status)",
        parameters=[
            OpenApiParameter("table", int_query_schema()),
            OpenApiParameter("tournament", int_query_schema()),
            OpenApiParameter("status", str, enum=Hand.Status.values),
        ],
        responses=errors(400, ok=s.HandSummarySerializer(many=True)),
    )
    def get(self, request):
        hands = Hand.objects.select_related("table").order_by("table__number", "number")
        table = int_query(request, "table")
        tournament = int_query(request, "tournament")
        wanted = choice_query(request, "status", Hand.Status.values)
        if table is not None:
            hands = hands.filter(table_id=table)
        if tournament is not None:
            hands = hands.filter(table__tournament_id=tournament)
        if wanted is not None:
            hands = hands.filter(status=wanted)
        return Response(s.HandSummarySerializer(hands[:500], many=True).data)

    @extend_schema(
        summary="Deal the next hand at a table (200: a retry of a start already made)",
        request=s.StartHandSerializer,
        responses={
            **errors(*WRITE_ERRORS, ok=s.HandStateSerializer, ok_code=201),
            200: s.HandStateSerializer,
        },
    )
    def post(self, request):
        data = _valid(s.StartHandSerializer, request)
        table = Table.objects.filter(pk=data["table"]).first()
        if table is None:
            raise NotFound(_("No table %(id)s.") % {"id": data["table"]})
        hand = services.start_next_hand(
            table,
            actor=request.user,
            device=_device(request),
            deal_mode=data.get("deal_mode"),
            client_action_id=data.get("client_action_id"),
            expected_blinds={k: data[k] for k in services.BLIND_FIELDS if k in data},
        )
        replayed = hand.replayed
        hand = _hand(hand.pk)
        return Response(
            s.hand_data(hand, _viewer(request), seq=None if replayed else hand.state_seq),
            status=status.HTTP_200_OK if replayed else status.HTTP_201_CREATED,
        )


class HandDetailView(APIView):
    permission_classes = [DealingPermission]

    @extend_schema(
        summary="A hand's state (public view while it runs)", responses=errors(404, ok=s.HandStateSerializer)
    )
    def get(self, request, pk):
        return Response(s.hand_data(_hand(pk), request.user))


class CurrentHandView(APIView):
    permission_classes = [DealingPermission]

    @extend_schema(
        summary="The hand running at a table, else its last hand",
        responses=errors(404, ok=s.HandStateSerializer),
    )
    def get(self, request, table_id):
        # The table first: a lookup by primary key turns an id too large for the database into a 404.
        table = get_object_or_404(Table, pk=table_id)
        hand = (
            Hand.objects.select_related("table", "table__tournament")
            .filter(table=table)
            .order_by("-number")
            .first()
        )
        if hand is None:
            raise NotFound(_("No hand has been dealt at this table yet."))
        return Response(s.hand_data(hand, request.user))


class OptionsView(APIView):
    permission_classes = [DealingPermission]

    @extend_schema(
        summary="What the hand waits for and the legal options of the player to act",
        responses=errors(404, ok=OpenApiTypes.OBJECT),
    )
    def get(self, request, pk):
        hand = _hand(pk)
        view = services.public_view(hand)
        return Response(
            {
                "seq": hand.state_seq,
                "status": hand.status,
                "awaiting": None if hand.is_over else view["phase"],
                "to_act": view["to_act"],
                "options": view["options"],
                "board_needed": view["board_needed"],
                "to_show": view["to_show"],
                "must_show": view["must_show"],
                "deal_next": view.get("deal_next"),
                "hold": services.runout_hold(hand, view=view),
            }
        )


class ActionView(APIView):
    permission_classes = [DealingPermission]
    gives_way = False  # a dealer's input, as a deal (HandListView)

    @extend_schema(
        summary=(
            "Apply a tablet input: betting action, board cards, a hand shown or mucked, the hands "
            "turned face up after an all-in, a street of the run-out dealt"
        ),
        description=str(
            _(
                "Idempotent by client_action_id: a retry gets the original result and adds "
                "nothing. expected_seq must be the hand's last event."
            )
        ),
        request=s.INPUT_SCHEMA,
        responses=errors(*WRITE_ERRORS, ok=s.ActionResultSerializer),
    )
    def post(self, request, pk):
        data = _valid(s.InputSerializer, request)
        hand = getattr(self, "permission_hand", None) or _hand(pk)
        body = {k: data[k] for k in services.INPUT_FIELDS if k in data}
        try:
            result = services.apply_input(
                hand,
                body,
                expected_seq=data["expected_seq"],
                client_action_id=data["client_action_id"],
                actor=request.user,
                device=_device(request),
            )
        except services.HandConflict as exc:
            if exc.code == "stale":  # the tablet gets the current state to redraw from
                exc.extra["hand"] = s.hand_data(_hand(pk), request.user)
            raise
        # The hand as the input left it (the service's locked row, with its views just stored).
        hand = result.hand
        viewer = _viewer(request)
        return Response(
            {
                "replayed": result.replayed,
                "first_seq": result.first_seq,
                "last_seq": result.last_seq,
                "events": s.events_data(hand, list(result.events), viewer),
                "hand": s.hand_data(hand, viewer, seq=None if result.replayed else result.last_seq),
            }
        )


class EventsView(APIView):
    permission_classes = [DealingPermission]

    @extend_schema(
        summary="A hand's event log (hole cards and burns hidden while it runs)",
        parameters=[
            OpenApiParameter(
                "after", int_query_schema(0, s.MAX_SEQ), description="Only events after this seq."
            )
        ],
        responses=errors(400, 404, ok=OpenApiTypes.OBJECT),
    )
    def get(self, request, pk):
        hand = _hand(pk)
        rows = HandEvent.objects.filter(hand=hand).select_related("actor").order_by("seq")
        after = int_query(request, "after", minimum=0, maximum=s.MAX_SEQ)
        if after is not None:
            rows = rows.filter(seq__gt=after)
        return Response(
            {"hand": hand.pk, "status": hand.status, "events": s.events_data(hand, rows, request.user)}
        )


class DeckView(APIView):
    permission_classes = [DeckPrepPermission]

    @extend_schema(
        summary="Deck prep: a hand's seed and deck order (needs dealing.view_deck)",
        responses=errors(403, 404, ok=OpenApiTypes.OBJECT),
    )
    def get(self, request, pk):
        hand = _hand(pk)
        deck = services.deck_of(hand)
        return Response(
            {
                "hand": hand.pk,
                "seed_commitment": hand.seed_commitment,
                "seed": vault.seed_hex(hand),
                "deck": deck,
            }
        )


class VoidView(APIView):
    permission_classes = [FloorPermission]

    @extend_schema(
        summary="Void a hand in progress (misdeal): every chip back as it was",
        request=s.VoidSerializer,
        responses=errors(*WRITE_ERRORS, ok=s.HandStateSerializer),
    )
    def post(self, request, pk):
        data = _valid(s.VoidSerializer, request)
        services.void_hand(_hand(pk), actor=request.user, reason=data["reason"], device=_device(request))
        return Response(s.hand_data(_hand(pk), request.user))


class CorrectView(APIView):
    permission_classes = [FloorPermission]

    @extend_schema(
        summary="Take back the last action of a hand in progress (before any further action)",
        request=s.CorrectionSerializer,
        responses=errors(*WRITE_ERRORS, ok=s.HandStateSerializer),
    )
    def post(self, request, pk):
        data = _valid(s.CorrectionSerializer, request)
        hand = _hand(pk)
        expected = data.get("expected_seq")
        if expected is None:
            expected = services.last_seq(hand)
        services.correct_last_action(
            hand, actor=request.user, reason=data["reason"], expected_seq=expected, device=_device(request)
        )
        return Response(s.hand_data(_hand(pk), request.user))


class ReleaseRunoutView(APIView):
    permission_classes = [FloorPermission]

    @extend_schema(
        summary="Hand-for-hand: the floor releases an all-in's run-out (R8.6, TDA RP-8F)",
        description=str(
            _(
                "During hand-for-hand a table whose betting closed with an all-in deals no more board "
                "cards until the floor releases it. Releasing twice changes nothing; 409 when the hand "
                "has no run-out or is over."
            )
        ),
        request=None,
        responses=errors(403, 404, 409, ok=s.HandStateSerializer),
    )
    def post(self, request, pk):
        hand = _hand(pk)
        services.release_runout(hand, actor=request.user, device=_device(request))
        return Response(s.hand_data(_hand(pk), request.user))


# ---------------------------------------------------------------- verification and histories


class VerifyHandView(APIView):
    permission_classes = [DealingPermission]

    @extend_schema(
        summary="Verify a finished hand: commitment, master seed, every dealt card and award",
        responses=errors(404, 409, ok=OpenApiTypes.OBJECT),
    )
    def get(self, request, pk):

        hand = _hand(pk)
        if not hand.is_over:
            raise Conflict(_("The hand is still running: it can be verified once it is over."))
        return Response(verify_hand(hand).to_dict())


class VerifyTournamentView(APIView):
    permission_classes = [DealingPermission]

    @extend_schema(
        summary="Verify every finished hand of a tournament", responses=errors(404, ok=OpenApiTypes.OBJECT)
    )
    def get(self, request, tournament_id):

        tournament = get_object_or_404(Tournament, pk=tournament_id)
        return Response(verify_tournament(tournament).to_dict())


# Not "format": DRF reserves that query parameter for choosing a renderer.
FORMAT_PARAM = OpenApiParameter("output", str, enum=["phh", "text"], description="phh (default) or text")


# A history is a file: PHH (TOML) or plain text, as ``output`` asks.
HISTORY_RESPONSES = {
    (200, "application/toml"): OpenApiTypes.STR,
    (200, "text/plain"): OpenApiTypes.STR,
}


def _format(request) -> str:
    fmt = request.query_params.get("output", "phh")
    if fmt not in histories.FORMATS:
        raise ValidationError({"output": _("Use phh or text.")})
    return fmt


def _download(body: str, fmt: str, name: str) -> HttpResponse:
    content_type, extension = histories.FORMATS[fmt]
    if fmt == "phh" and "[1]" in body[:4]:
        extension = "phhs"
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}.{extension}"'
    return response


class HandHistoryView(APIView):
    permission_classes = [DealingPermission]

    @extend_schema(
        summary="Download one hand's history (PHH or text)",
        parameters=[FORMAT_PARAM],
        responses={**errors(400, 404, 409), **HISTORY_RESPONSES},
    )
    def get(self, request, pk):
        hand = _hand(pk)
        fmt = _format(request)
        if not hand.is_over and not can_view_deck(request.user):
            raise Conflict(_("The hand is still running: its history is available once it is over."))
        return _download(
            histories.hand_history(hand, fmt), fmt, f"table{hand.table.number}-hand{hand.number}"
        )


class TableHistoryView(APIView):
    permission_classes = [DealingPermission]

    @extend_schema(
        summary="Download every finished hand of a table (PHH or text)",
        parameters=[FORMAT_PARAM],
        responses={**errors(400, 404), **HISTORY_RESPONSES},
    )
    def get(self, request, table_id):

        table = get_object_or_404(Table, pk=table_id)
        fmt = _format(request)
        hands = histories.finished_hands(table=table)
        return _download(
            histories.histories(hands, fmt), fmt, f"tournament{table.tournament_id}-table{table.number}"
        )


class TournamentHistoryView(APIView):
    permission_classes = [DealingPermission]

    @extend_schema(
        summary="Download every finished hand of a tournament (PHH or text)",
        parameters=[FORMAT_PARAM],
        responses={**errors(400, 404), **HISTORY_RESPONSES},
    )
    def get(self, request, tournament_id):

        tournament = get_object_or_404(Tournament, pk=tournament_id)
        fmt = _format(request)
        hands = histories.finished_hands(table__tournament=tournament)
        return _download(histories.histories(hands, fmt), fmt, f"tournament{tournament.pk}-hands")
