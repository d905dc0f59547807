"""The tables API: the seating chart, moves (pending, done, suggested), director overrides.

Reads are open; writes need tournament staff. Service errors become 409 (state), 422 (rule) or 400
(bad field) with a ``detail`` naming the problem; nothing is changed when a request is refused.
"""

from django.db.models import Prefetch, Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import Conflict, ReferenceNotFound, error_responses, int_query, int_query_schema
from config.permissions import IsStaffOrReadOnly
from tournaments.models import Entry, Tournament

from . import services
from .models import Move, Seat, SeatDraw, Table
from .serializers import (
    MAX_TABLE_NUMBER,
    BreakOrderResultSerializer,
    BreakOrderSerializer,
    LockSerializer,
    ManualMoveSerializer,
    MoveSerializer,
    SeatDrawSerializer,
    SeatEntrySerializer,
    SeatingChartSerializer,
    SeatingPlanSerializer,
    SeatSerializer,
    TableSerializer,
)

DESCRIBED = {
    400: _("A field is missing or wrong."),
    403: _("Only tournament staff may do this."),
    404: _("No such tournament, table, seat or move."),
    409: _("Not possible in the current seating (taken seat, busted player, broken table, move not done)."),
    422: _("Against a rule (a ninth seat, R2.7)."),
}


def errors(*codes):
    return error_responses(DESCRIBED, *codes)


class DirectorOrReadOnly(IsStaffOrReadOnly):
    message = _("Only tournament staff may change the seating.")


def _tables(tournament):
    seats = Seat.objects.select_related("entry", "entry__player").order_by("number")
    return Table.objects.filter(tournament=tournament).prefetch_related(Prefetch("seat_set", queryset=seats))


def _moves(tournament):
    return Move.objects.filter(tournament=tournament).select_related(
        "entry", "entry__player", "from_table", "to_table", "actor"
    )


class TablesView(APIView):
    permission_classes = [DirectorOrReadOnly]
    # Every write here is the seating's (config.roles.CAPABILITIES): the director and the floor.
    write_capability = "seating"


class SeatingChartView(TablesView):
    @extend_schema(
        responses={200: SeatingChartSerializer, **errors(404)},
        summary="The seating chart: every table, its seats and players, and the moves waiting",
    )
    def get(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        halted = services.halted_reasons(tournament)
        data = {
            "tournament": tournament.pk,
            "plan": services.seating_plan(tournament),
            "tables": _tables(tournament).filter(status=Table.Status.ACTIVE),
            "pending_moves": _moves(tournament).filter(status=Move.Status.PENDING),
        }
        return Response(SeatingChartSerializer(data, context={"halted": halted}).data)


class DrawView(TablesView):
    @extend_schema(
        request=None,
        responses={201: SeatDrawSerializer, **errors(403, 404, 409, 422)},
        summary="Draw the seats of every active entry at random (R8.1)",
    )
    def post(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        draw = services.draw_seats(tournament, actor=request.user)
        return Response(SeatDrawSerializer(draw).data, status=status.HTTP_201_CREATED)


class SeatDrawListView(TablesView):
    @extend_schema(
        responses={200: SeatDrawSerializer(many=True), **errors(404)},
        summary="Every seat draw with the seed that decided it, to check it afterwards",
    )
    def get(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        return Response(SeatDrawSerializer(SeatDraw.objects.filter(tournament=tournament), many=True).data)


class SeatEntryView(TablesView):
    @extend_schema(
        request=SeatEntrySerializer,
        responses={201: SeatSerializer, **errors(400, 403, 404, 409)},
        summary="Seat a late entry, re-entry or alternate at a random open seat (R8.1)",
    )
    def post(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        body = SeatEntrySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = Entry.objects.filter(tournament=tournament, pk=body.validated_data["entry"]).first()
        if entry is None:
            raise ReferenceNotFound(
                "entry", _("No entry %(id)s in this tournament.") % {"id": body.validated_data["entry"]}
            )
        seat = services.seat_entry(entry, actor=request.user)
        if seat is None:
            raise Conflict(_("The seats are not drawn yet: the draw will seat this entry."))
        return Response(SeatSerializer(seat).data, status=status.HTTP_201_CREATED)


class TableListView(TablesView):
    @extend_schema(
        responses={200: TableSerializer(many=True), **errors(404)},
        summary="Every table of the tournament, broken ones included",
    )
    def get(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        halted = services.halted_reasons(tournament)
        return Response(TableSerializer(_tables(tournament), many=True, context={"halted": halted}).data)


class TableDetailView(TablesView):
    @extend_schema(responses={200: TableSerializer, **errors(404)}, summary="One table and its seats")
    def get(self, request, table_id):
        table = get_object_or_404(
            _tables(Tournament.objects.filter(tables__pk=table_id).first()), pk=table_id
        )
        return Response(
            TableSerializer(table, context={"halted": {table.pk: services.halted_reason(table)}}).data
        )


class MoveListView(TablesView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status",
                str,
                enum=Move.Status.values,
                description="Only moves with this status (pending, done, acknowledged...)",
            ),
            OpenApiParameter(
                "table",
                int_query_schema(1, MAX_TABLE_NUMBER),
                description="Only moves from or to this table number",
            ),
        ],
        responses={200: MoveSerializer(many=True), **errors(400, 404)},
        summary="Moves: pending (waiting for a hand), done (to acknowledge), acknowledged",
    )
    def get(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        moves = _moves(tournament)
        wanted = request.query_params.get("status")
        if wanted:
            if wanted not in Move.Status.values:
                raise ValidationError({"status": _("Unknown status %(status)s.") % {"status": wanted}})
            moves = moves.filter(status=wanted)
        table = int_query(request, "table", maximum=MAX_TABLE_NUMBER)
        if table is not None:
            moves = moves.filter(Q(from_table__number=table) | Q(to_table__number=table))
        return Response(MoveSerializer(moves, many=True).data)


class SuggestedMovesView(TablesView):
    @extend_schema(
        responses={200: MoveSerializer(many=True), **errors(404)},
        summary="What balancing would do now (R8.3-R8.5), without doing it",
    )
    def get(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        return Response(MoveSerializer(services.suggested_moves(tournament), many=True).data)


class ApplyMovesView(TablesView):
    @extend_schema(
        request=None,
        responses={200: MoveSerializer(many=True), **errors(403, 404, 409)},
        summary="Balance now: make the moves balancing decides (idempotent)",
    )
    def post(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        moves = services.balance(tournament, actor=request.user)
        return Response(MoveSerializer(moves, many=True).data)


class ManualMoveView(TablesView):
    @extend_schema(
        request=ManualMoveSerializer,
        responses={201: MoveSerializer, **errors(400, 403, 404, 409, 422)},
        summary="Move a player by hand, with a reason (waits for the hand if they are in one)",
    )
    def post(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        body = ManualMoveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        entry = Entry.objects.filter(tournament=tournament, pk=data["entry"]).first()
        if entry is None:
            raise ReferenceNotFound("entry", _("No entry %(id)s in this tournament.") % {"id": data["entry"]})
        table = Table.objects.filter(tournament=tournament, number=data["table"]).first()
        if table is None:
            raise ReferenceNotFound(
                "table", _("No table %(number)s in this tournament.") % {"number": data["table"]}
            )
        move = services.move_entry(entry, table, data["seat"], reason=data["reason"], actor=request.user)
        return Response(MoveSerializer(move).data, status=status.HTTP_201_CREATED)


class AcknowledgeMoveView(TablesView):
    @extend_schema(
        request=None,
        responses={200: MoveSerializer, **errors(403, 404, 409)},
        summary="The dealer saw the move (acknowledging twice changes nothing)",
    )
    def post(self, request, move_id):
        move = get_object_or_404(Move, pk=move_id)
        move = services.acknowledge_move(move, actor=request.user)
        return Response(MoveSerializer(_moves(move.tournament).get(pk=move.pk)).data)


class SeatLockView(TablesView):
    def _seat(self, table_id, number):
        # The table first: a lookup by primary key turns an id too large for the database into a 404.
        table = get_object_or_404(Table, pk=table_id)
        return get_object_or_404(
            Seat.objects.select_related("table", "table__tournament"), table=table, number=number
        )

    @extend_schema(
        request=LockSerializer,
        responses={200: SeatSerializer, **errors(400, 403, 404, 409)},
        summary="Lock a seat: its player is not moved by balancing; if empty it stays empty",
    )
    def post(self, request, table_id, number):
        seat = self._seat(table_id, number)
        body = LockSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        seat = services.lock_seat(seat, reason=body.validated_data["reason"], actor=request.user)
        return Response(SeatSerializer(seat).data)

    @extend_schema(request=None, responses={200: SeatSerializer, **errors(403, 404)}, summary="Unlock a seat")
    def delete(self, request, table_id, number):
        seat = self._seat(table_id, number)
        seat = services.unlock_seat(seat, actor=request.user)
        return Response(SeatSerializer(seat).data)


class BreakOrderView(TablesView):
    @extend_schema(
        responses={200: BreakOrderResultSerializer, **errors(404)},
        summary="The breaking order of the active tables, first to break first (R8.4)",
    )
    def get(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        tables = Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE).order_by(
            "-break_order", "-number"
        )
        return Response({"order": [t.number for t in tables]})

    @extend_schema(
        request=BreakOrderSerializer,
        responses={200: BreakOrderResultSerializer, **errors(400, 403, 404, 422)},
        summary="Change the breaking order (R8.4)",
    )
    def put(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        body = BreakOrderSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tables = services.set_break_order(tournament, body.validated_data["order"], actor=request.user)
        return Response({"order": [t.number for t in tables]})


class SeatingPlanView(TablesView):
    @extend_schema(
        responses={200: SeatingPlanSerializer, **errors(404)},
        summary="How tables are balanced: allowed difference, review mode (R8.3, R8.5)",
    )
    def get(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        return Response(SeatingPlanSerializer(services.seating_plan(tournament)).data)

    @extend_schema(
        request=SeatingPlanSerializer,
        responses={200: SeatingPlanSerializer, **errors(400, 403, 404)},
        summary="Change how tables are balanced",
    )
    def patch(self, request, tournament_id):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        body = SeatingPlanSerializer(services.seating_plan(tournament), data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        plan = services.update_plan(tournament, actor=request.user, **body.validated_data)
        return Response(SeatingPlanSerializer(plan).data)
