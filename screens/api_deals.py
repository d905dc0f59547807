"""The deal API: propose (no write) and record a deal at the final table, for the director.

Here rather than in tournaments.api because who may make a deal is a console role
(``screens.roles.may(user, "payouts")``), decided in one place; the work is the tournaments
services'. 400 malformed, 409 not possible now (not running, already a deal, too many players, chips
changed), 422 against the deal's rules (not everyone agreed, a custom split that does not add up,
too much left to play for: with the allowed range).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import (
    StrictChoiceField,
    StrictIdField,
    StrictIntegerField,
    StrictSerializer,
    error_responses,
)
from tournaments import services
from tournaments.models import Deal, Tournament
from tournaments.selectors import deal_of
from tournaments.services.common import MAX_CHIPS

from .roles import may

DESCRIBED = {
    400: _("Bad input: the message names the field and the problem. Nothing changed."),
    403: _("Not allowed: deals are for the director."),
    404: _("No such tournament (or no deal recorded)."),
    409: _("Not possible now (not running, a deal already made, too many players, the chips changed)."),
    422: _("Against the deal's rules (everyone must agree; amounts must add up; the allowed range)."),
}


class IsDirector(permissions.BasePermission):
    message = _("Only the director can make a deal.")

    def has_permission(self, request, view):
        return may(request.user, "payouts")


class AmountSerializer(StrictSerializer):
    entry = StrictIdField()
    amount = StrictIntegerField(min_value=0, max_value=MAX_CHIPS)


class ProposeSerializer(StrictSerializer):
    kind = StrictChoiceField(choices=Deal.Kind.choices)
    left_to_play_for = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, default=0)
    amounts = AmountSerializer(
        many=True, required=False, help_text=_("A custom split: every player's amount.")
    )


class RecordSerializer(ProposeSerializer):
    agreed = serializers.ListField(
        child=StrictIdField(),
        max_length=100,
        help_text=_("The entries of every player left, who all agreed."),
    )
    expected = AmountSerializer(
        many=True,
        required=False,
        help_text=_("The amounts the players were shown: refused (409) if they changed."),
    )


class ShareSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.CharField()
    chips = serializers.IntegerField()
    amount = serializers.IntegerField()
    without_deal = serializers.IntegerField(
        help_text=_("ICM value of the prizes as they stand, without a deal.")
    )


class ProposalSerializer(serializers.Serializer):
    kind = serializers.CharField()
    method = serializers.CharField(help_text=_("exact, monte_carlo, chip_chop or custom."))
    samples = serializers.IntegerField()
    standard_error = serializers.FloatField(
        help_text=_("Monte Carlo: the largest standard error of an amount.")
    )
    prize_money = serializers.IntegerField()
    left_to_play_for = serializers.IntegerField()
    shares = ShareSerializer(many=True)


class DealSerializer(ProposalSerializer):
    id = serializers.IntegerField()
    recorded_at = serializers.DateTimeField()


def _amounts(items) -> dict[int, int] | None:
    return None if items is None else {item["entry"]: item["amount"] for item in items}


def _valid(serializer_class, request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class DealProposalView(APIView):
    permission_classes = [IsDirector]

    @extend_schema(
        request=ProposeSerializer,
        responses=error_responses(DESCRIBED, 400, 403, 404, 409, 422, ok=ProposalSerializer),
        summary="What each player left would get in a deal (nothing is recorded)",
    )
    def post(self, request, tournament_id: int):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        data = _valid(ProposeSerializer, request)
        proposal, entries = services.propose_deal(
            tournament,
            data["kind"],
            left_to_play_for=data["left_to_play_for"],
            custom=_amounts(data.get("amounts")),
        )
        return Response(
            {
                "kind": proposal.kind,
                "method": proposal.method,
                "samples": proposal.samples,
                "standard_error": round(proposal.standard_error, 2),
                "prize_money": proposal.prize_money,
                "left_to_play_for": proposal.left_to_play_for,
                "shares": [
                    {"entry": e.pk, "player": str(e), "chips": e.chips, "amount": a, "without_deal": w}
                    for e, a, w in zip(entries, proposal.amounts, proposal.without_deal)
                ],
            }
        )


def _deal_body(deal: Deal) -> dict:
    return {
        "id": deal.pk,
        "kind": deal.kind,
        "method": deal.method,
        "samples": deal.samples,
        "standard_error": round(deal.standard_error, 2),
        "prize_money": deal.prize_money,
        "left_to_play_for": deal.left_to_play_for,
        "recorded_at": deal.recorded_at,
        "shares": [
            {
                "entry": s.entry_id,
                "player": str(s.entry),
                "chips": s.chips,
                "amount": s.amount,
                "without_deal": s.without_deal,
            }
            for s in deal.shares.all()
        ],
    }


class DealView(APIView):
    permission_classes = [IsDirector]

    @extend_schema(
        responses=error_responses(DESCRIBED, 403, 404, ok=DealSerializer), summary="The deal recorded"
    )
    def get(self, request, tournament_id: int):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        deal = deal_of(tournament)
        if deal is None:
            return Response({"detail": str(_("No deal is recorded.")), "code": "no_deal"}, status=404)
        return Response(DealSerializer(_deal_body(deal)).data)

    @extend_schema(
        request=RecordSerializer,
        responses=error_responses(DESCRIBED, 400, 403, 404, 409, 422, ok=DealSerializer, ok_code=201),
        summary="Record the deal every player left agreed to, and pay it out",
    )
    def post(self, request, tournament_id: int):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        data = _valid(RecordSerializer, request)
        services.record_deal(
            tournament,
            data["kind"],
            agreed=data["agreed"],
            left_to_play_for=data["left_to_play_for"],
            custom=_amounts(data.get("amounts")),
            expected=_amounts(data.get("expected")),
            actor=request.user,
        )
        return Response(DealSerializer(_deal_body(deal_of(tournament))).data, status=status.HTTP_201_CREATED)
