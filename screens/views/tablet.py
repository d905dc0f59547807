"""The dealer tablet page and its small API.

The page's live state comes over the table's socket. Betting actions go to the dealing API with a
client_action_id, so a retried request never acts twice. The page never holds the device token: its
requests are authenticated by the tablet's HttpOnly device cookie, named by ``X-Device-Table``, with
Django's CSRF check (``screens.auth.DeviceCookieAuthentication``). Calling the floor and
acknowledging a seat move are here.
"""

from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from config import throttling
from config.api import Conflict, StrictIntegerField, StrictRegexField, to_api_exception
from config.errors import ServiceError
from config.permissions import is_staff
from dealing import services as dealing_services
from dealing.models import Hand
from dealing.serializers import MAX_SEQ, CorrectionSerializer
from tables import services as tables_services
from tables.models import Move, Table
from tournaments.errors import TournamentError
from tournaments.services import floor_pin_matches

from ..auth import DeviceCookieAuthentication, DeviceTokenAuthentication, actor_and_device
from ..floor import call_floor
from ..models import DeviceKind
from ..pairing import device_from_cookies
from ..permissions import StaffOrTableDevicePermission


def tablet_labels() -> dict:
    return {
        "seat": _("Seat"),
        "button": _("Button"),
        "sb": _("SB"),
        "bb": _("BB"),
        "to_act": _("To act"),
        "board": _("Board"),
        "exposed": _("Exposed flop card"),
        "pot": _("Pot"),
        "side_pot": _("Side pot"),
        "main_pot": _("Main pot"),
        "offline_banner": _(
            "No connection to the server. Tap an input and it is sent as soon as the connection is back."
        ),
        "offline_queued": _(
            "No connection to the server: %(input)s waits and is sent as soon as the connection is back."
        ),
        "fold": _("Fold"),
        "fold_confirm": _("Check is free: tap again to fold"),
        "check": _("Check"),
        "call": _("Call"),
        "bet": _("Bet"),
        "raise_to": _("Raise to"),
        "all_in": _("All-in"),
        "pot_bet": _("Pot"),
        "start_hand": _("Deal next hand"),
        "no_hand": _("No hand in progress"),
        "high": _("High"),
        "low": _("Low"),
        "no_low": _("No qualifying low"),
        "wins": _("wins"),
        "winners": _("Winners"),
        "move": _("Seat move"),
        "move_to": _("%(name)s: move to table %(table)s, seat %(seat)s"),
        "move_in": _("%(name)s arrives from table %(table)s: seat %(seat)s"),
        "race_title": _("Chip race: %(old)s chips raced for %(chip)s chips"),
        "race_won": _("wins a chip"),
        "race_saved": _("keeps one chip (never raced out)"),
        "acknowledge": _("Done"),
        "after_hand": _("after this hand"),
        "halted": _("Dealing stopped"),
        "call_floor": _("Call the floor"),
        "floor_called": _("The floor has been called"),
        "failed": _("That did not go through"),
        "retry": _("Try again"),
        "undo": _("Undo last input"),
        "undo_help": _(
            "The floor takes the last input back: give the reason, and the floor types the floor PIN."
        ),
        "undo_reason": _("Reason, e.g. the dealer tapped the wrong seat"),
        "undo_pin": _("Floor PIN"),
        "undo_confirm": _("Take it back"),
        "cancel": _("Cancel"),
        "offline": _("Reconnecting…"),
        "revoked": _("This tablet was unpaired by the director."),
        "unauthorized": _("This tablet is not paired."),
        "commitment": _("Commitment"),
        "hand": _("Hand"),
        "amount": _("Amount"),
        "clear": _("Clear"),
        "enter_cards": _("Enter cards"),
        "card_used": _("That card is already used"),
        "bet_label": _("Bet"),
        "folded": _("Folded"),
        "all_in_label": _("All-in"),
        "level": _("Level"),
        "ante": _("Ante"),
        "bb_ante": _("BB ante"),
        "on_break": _("Break"),
        "time_left": _("%(time)s left"),
        "break_no_deal": _("Break: no hand is dealt until play resumes (R8.7)."),
        "color_up_now": _("Color-up at this break: the %(chips)s chips leave the table (R8.7)."),
        "last_hand": _("The level ends within 90 seconds: this is the last hand of the level (TDA RP-7)."),
        "muck": _("Muck"),
        "deal_mode": _("Deal mode"),
        "seeded": _("Seeded deck (verifiable shuffle)"),
        "entered": _("Entered cards (dealer's own deck)"),
        "min": _("Min"),
        "half_pot": _("½ pot"),
        "three_quarters_pot": _("¾ pot"),
        "max": _("Max"),
        "shows": _("shows"),
        "stack": _("Stack"),
        "seat_hole": _("Hole cards for seat %(seat)s"),
        "board_cards": _("Board cards"),
        "board_exposed": _("Enter the exposed first flop card"),
        "board_flop": _("Enter the flop's other two cards"),
        "board_turn": _("Enter the turn"),
        "board_river": _("Enter the river"),
        "seat_shows": _("Seat %(seat)s · %(name)s shows: enter the five cards"),
        "mucked": _("mucked"),
        "mode_seeded_help": _(
            "Seeded deck: the tablet deals from a shuffle anyone can check after the hand; deal the cards "
            "it shows."
        ),
        "mode_entered_help": _(
            "Entered cards: deal your own deck and tap each card on the grid as it is dealt."
        ),
        "face_up": _("Turn the hands face up"),
        "face_up_hint": _("All-in: turn every hand still in face up before the board is dealt (R6.2)."),
        "face_up_enter": _("All-in, hands face up (R6.2): enter seat %(seat)s's cards"),
        "deal_flop": _("Deal the flop"),
        "deal_turn": _("Deal the turn"),
        "deal_river": _("Deal the river"),
        "run_out": _("Run-out: no more betting (R4.6)"),
    }


def tablet(request, table_id: int):
    table = get_object_or_404(Table.objects.select_related("tournament"), pk=table_id)
    device = device_from_cookies(request.COOKIES, DeviceKind.TABLET, table.pk)
    if device is None and not is_staff(request.user):
        return render(
            request, "pair.html", {"reason": _("This tablet is not paired for this table.")}, status=403
        )
    return render(
        request,
        "tablet.html",
        {
            "table": table,
            "tournament": table.tournament,
            "ws_path": f"/ws/tables/{table.pk}/",
            "labels": tablet_labels(),
            "device": device,
        },
    )


def service_worker(request):
    """The tablet's service worker, served under /tablet/ so that it may control the tablet pages."""
    path = finders.find("live/tablet-sw.js")
    if path is None:
        raise Http404("live/tablet-sw.js")
    with open(path, "rb") as source:
        response = HttpResponse(source.read(), content_type="application/javascript")
    response["Cache-Control"] = "no-cache"  # a new version is picked up at the next load
    return response


# --- the tablet's own small API (call the floor, acknowledge a move) -------------------------------

TABLET_ERRORS = {
    401: OpenApiResponse(description=gettext_lazy("The device is not paired or was revoked.")),
    403: OpenApiResponse(description=gettext_lazy("Not staff and not this table's paired tablet.")),
    404: OpenApiResponse(description=gettext_lazy("No such table (or move at this table).")),
}


class TabletView(APIView):
    authentication_classes = [DeviceTokenAuthentication, DeviceCookieAuthentication, SessionAuthentication]
    permission_classes = [StaffOrTableDevicePermission]

    def table(self, table_id):
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise NotFound(gettext_lazy("No such table."))
        return table


class CallFloorView(TabletView):
    @extend_schema(
        summary="A dealer tablet calls the floor to its table",
        request=None,
        responses={200: OpenApiTypes.OBJECT, **TABLET_ERRORS},
    )
    def post(self, request, table_id):
        table = self.table(table_id)
        actor, device = actor_and_device(request)
        call = call_floor(table, actor=actor, device_label=device)
        return Response({"floor_call": call.pk, "called_at": call.called_at})


class AcknowledgeMoveView(TabletView):
    @extend_schema(
        summary="The dealer saw a moved player arrive or leave",
        request=None,
        responses={
            200: OpenApiTypes.OBJECT,
            **TABLET_ERRORS,
            409: OpenApiResponse(description=gettext_lazy("The move is not done yet.")),
        },
    )
    def post(self, request, table_id, move_id):
        table = self.table(table_id)
        move = Move.objects.filter(pk=move_id).first()
        if move is None or table.pk not in (move.to_table_id, move.from_table_id):
            raise NotFound(gettext_lazy("No such move at this table."))
        actor, _device = actor_and_device(request)
        try:
            move = tables_services.acknowledge_move(move, actor=actor)
        except TournamentError as exc:
            raise Conflict(str(exc)) from None
        return Response({"move": move.pk, "status": move.status})


class FloorUndoSerializer(CorrectionSerializer):
    pin = StrictRegexField(r"^\d{4,8}$", help_text=gettext_lazy("The floor's PIN, 4 to 8 digits."))
    expected_seq = StrictIntegerField(min_value=0, max_value=MAX_SEQ)


class FloorUndoView(TabletView):
    """The floor person at the table approves taking back the last input with the floor's PIN (issue
    15 item 6): the correction is recorded like any other, with its reason and "approved on the
    tablet with the floor PIN". Tries are counted per table (``THROTTLE_RATES["floor_pin"]``)."""

    @extend_schema(
        summary="Take back the last input of this table's hand, approved with the floor's PIN",
        request=FloorUndoSerializer,
        responses={
            200: OpenApiTypes.OBJECT,
            **TABLET_ERRORS,
            409: OpenApiResponse(description=gettext_lazy("No hand runs, or it moved on: reload.")),
            429: OpenApiResponse(description=gettext_lazy("Too many PIN tries at this table.")),
        },
    )
    def post(self, request, table_id):
        table = self.table(table_id)
        wait = throttling.take("floor_pin", str(table.pk), throttling.rate_for("floor_pin"))
        if wait is not None:
            response = Response(
                {
                    "detail": _("Too many PIN tries at this table: try again in %(seconds)s s.")
                    % {"seconds": wait},
                    "code": "throttled",
                },
                status=429,
            )
            response["Retry-After"] = str(wait)
            return response
        serializer = FloorUndoSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if not floor_pin_matches(table.tournament, data["pin"]):
            return Response(
                {"detail": _("That is not the floor's PIN: nothing was taken back."), "code": "bad_pin"},
                status=403,
            )
        hand = Hand.objects.filter(table=table, status=Hand.Status.RUNNING).order_by("-number").first()
        if hand is None:
            raise Conflict(_("No hand is running at this table: there is nothing to take back."))
        actor, device = actor_and_device(request)
        reason = _("%(reason)s (approved on the tablet with the floor PIN)") % {"reason": data["reason"]}
        try:
            hand = dealing_services.correct_last_action(
                hand, actor=actor, reason=reason, expected_seq=data["expected_seq"], device=device
            )
        except ServiceError as exc:
            raise to_api_exception(exc) from None
        return Response({"hand": hand.pk, "seq": hand.state_seq})
