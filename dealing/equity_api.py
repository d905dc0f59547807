"""The equity API: the all-in calculator (anyone, at its own rate) and a live hand's equity, of its
face-up players only (public: the same cards the table shows)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import StrictChoiceField, StrictIntegerField, StrictSerializer
from config.errors import ServiceError
from dealing.engine import RuleError
from dealing.engine.hand import COURCHEVEL, HOLE_CARDS
from tournaments.models import Game

from . import equity, services
from .api import _hand, errors
from .serializers import card_field

MAX_SAMPLES = 200_000  # ten times the default: a standard error near 0.1% at most
MAX_SEED = 2**63 - 1
FIVE_CARDS = _("A hand is exactly five hole cards (R2.2).")


def _cards(what, *, min_length=0, max_length=52, **kwargs):
    return serializers.ListField(
        child=card_field(), min_length=min_length, max_length=max_length, help_text=what, **kwargs
    )


class EquityRequestSerializer(StrictSerializer):
    hands = serializers.ListField(
        child=_cards(
            _("Five hole cards (R2.2)."),
            min_length=HOLE_CARDS,
            max_length=HOLE_CARDS,
            error_messages={"min_length": FIVE_CARDS, "max_length": FIVE_CARDS},
        ),
        min_length=2,
        max_length=8,
        error_messages={
            "min_length": _("Give at least 2 hands to compare."),
            "max_length": _("At most 8 players can be dealt in (R2.7)."),
        },
        help_text=_('2 to 8 hands face up, five card codes each (R2.1, R2.7), e.g. ["As", "Kd", ...].'),
    )
    board = _cards(_("The board cards dealt so far: 0 to 5."), max_length=5, required=False, default=list)
    dead = _cards(_("Cards out of play (folded hands seen, burns shown)."), required=False, default=list)
    game = StrictChoiceField(
        # The tournaments' own choices: one "Game" enum in the schema, the same labels.
        choices=Game.choices,
        required=False,
        default=COURCHEVEL,
        help_text=_("The game."),
    )
    samples = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=MAX_SAMPLES,
        help_text=_("Sample this many boards instead of counting them all (exact when it fits the time)."),
    )
    seed = StrictIntegerField(
        required=False, min_value=0, max_value=MAX_SEED, help_text=_("Seed of the sampling, to repeat it.")
    )


class PlayerEquitySerializer(serializers.Serializer):
    seat = serializers.IntegerField(required=False, help_text=_("A live hand's seat."))
    player = serializers.CharField(required=False, help_text=_("A live hand's player."))
    cards = serializers.ListField(child=serializers.CharField())
    share = serializers.FloatField(help_text=_("Expected share of the pot, 0 to 1."))
    share_error = serializers.FloatField(help_text=_("Standard error of the share (0 when exact)."))
    high_win = serializers.FloatField()
    high_tie = serializers.FloatField()
    low_win = serializers.FloatField(allow_null=True, help_text=_("Hi/Lo only."))
    low_tie = serializers.FloatField(allow_null=True, help_text=_("Hi/Lo only."))
    scoop = serializers.FloatField(help_text=_("The whole pot alone."))
    split = serializers.FloatField(help_text=_("Part of the pot, not all of it."))


class EquityResultSerializer(serializers.Serializer):
    game = serializers.CharField()
    board = serializers.ListField(child=serializers.CharField())
    dead = serializers.ListField(child=serializers.CharField())
    method = serializers.ChoiceField(choices=["exact", "sampled"])
    boards = serializers.IntegerField(help_text=_("Boards counted."))
    total_boards = serializers.IntegerField(help_text=_("Every remaining board."))
    seed = serializers.IntegerField(allow_null=True, help_text=_("The sampling's seed (sampled only)."))
    no_low = serializers.FloatField(allow_null=True, help_text=_("Hi/Lo: chance that no low qualifies."))
    players = PlayerEquitySerializer(many=True)


class HandEquitySerializer(serializers.Serializer):
    hand = serializers.IntegerField()
    status = serializers.CharField()
    seq = serializers.IntegerField()
    equity = EquityResultSerializer(
        allow_null=True, help_text=_("None until every hand still in is face up (R6.2), and once it is over.")
    )


class EquityRefused(ServiceError):
    """Cards that cannot all be in one deck (422)."""

    status = 422


def _field(error: RuleError) -> str:
    # The part named last is the one given twice ("hand 1 and board": the board's card).
    what = str(error.params.get("what", "")).split(" and ")[-1]
    if "dead" in what:
        return "dead"
    if what == "board" or error.code == "too_many_board_cards":
        return "board"
    return "hands"


class EquityView(APIView):
    """Hands in, each player's high, low, scoop and split chances and expected share out."""

    permission_classes = [permissions.AllowAny]
    # Open to anyone and costly in CPU: its own, lower rate (settings.THROTTLE_RATES).
    throttle_scope = "equity"

    @extend_schema(
        summary="All-in equity calculator (Courchevel, Courchevel Hi/Lo)",
        description=str(
            _(
                "Exact over every remaining board when that fits the time budget, else sampled (20,000 "
                "boards, or samples) with a standard error. A code that is not a card or a hand "
                "without five cards is 400, a card given twice (or too few left to deal) 422, each "
                "naming the field."
            )
        ),
        request=EquityRequestSerializer,
        responses=errors(400, 422, ok=EquityResultSerializer),
    )
    def post(self, request):
        serializer = EquityRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            result = equity.calculate(
                data["hands"],
                data["board"],
                dead=data["dead"],
                game=data["game"],
                samples=data.get("samples"),
                seed=data.get("seed"),
            )
        except RuleError as error:
            # Well formed (every code a card, the counts right) but impossible with one deck: a card
            # given twice, too few cards left. 422 like every broken rule (docs/api-errors.md).
            raise EquityRefused(
                equity.refusal(error),
                code=error.code,
                field=_field(error),
                rule=error.rule or "",
                params={k: v for k, v in error.params.items() if isinstance(v, (str, int))},
            ) from None
        return Response(equity.result_data(result))


class HandEquityView(APIView):
    """A live hand's equity, of its face-up players only (public)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A hand's all-in equity, face-up players only",
        description=str(
            _(
                "Only the hands turned face up (R6.2) and the board: never an unshown hole card, a burn "
                "or the deck. equity is null until every hand still in is face up, and once it is over."
            )
        ),
        responses=errors(404, ok=HandEquitySerializer),
    )
    def get(self, request, pk):
        hand = _hand(pk)
        view = services.public_view(hand)
        return Response(
            {
                "hand": hand.pk,
                "status": hand.status,
                "seq": hand.state_seq,
                "equity": equity.hand_equity(hand, view),
            }
        )
