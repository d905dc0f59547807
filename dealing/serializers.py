"""What the dealing API reads and writes.

Secrecy (RULES 7.6): ``hand_data`` is the only way a hand leaves the server. While a hand runs it
carries the public view only (no seed, no deck order, no burn, no hole card that has not been
shown) unless the user has the deck-prep permission ``dealing.view_deck``.
"""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from dealing.engine.hand import public_event

from . import services, vault
from .models import Hand, HandEvent
from .permissions import can_view_deck

INPUT_TYPES = [
    ("action", _("Betting action")),
    ("board", _("Board cards entered by the dealer")),
    ("show", _("Hand shown at showdown (entered cards)")),
    ("muck", _("Hand mucked at showdown")),
]
ACTIONS = ["fold", "check", "call", "bet", "raise", "all_in"]


class StartHandSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, help_text=_("The table to deal the next hand at."))
    deal_mode = serializers.ChoiceField(
        choices=Hand.DealMode.choices,
        required=False,
        help_text=_("Seeded deck or entered cards; default: as the table's last hand, else seeded."),
    )
    client_action_id = serializers.CharField(
        max_length=64,
        required=False,
        help_text=_("Optional: sent again, it returns the hand it started instead of a 409."),
    )


class InputSerializer(serializers.Serializer):
    client_action_id = serializers.CharField(
        max_length=64, help_text=_("Unique per input, chosen by the tablet; a retry repeats it.")
    )
    expected_seq = serializers.IntegerField(
        min_value=0, help_text=_("The last event sequence number the tablet has seen.")
    )
    type = serializers.ChoiceField(choices=INPUT_TYPES, default="action")
    seat = serializers.IntegerField(required=False, min_value=1, max_value=8)
    action = serializers.ChoiceField(choices=ACTIONS, required=False)
    amount = serializers.IntegerField(
        required=False, min_value=0, help_text=_("For bet and raise: the total bet for the round (raise to).")
    )
    cards = serializers.ListField(child=serializers.CharField(max_length=3), required=False, max_length=5)

    def validate(self, data):
        kind = data.get("type", "action")
        needed = {
            "action": ("seat", "action"),
            "board": ("cards",),
            "show": ("seat", "cards"),
            "muck": ("seat",),
        }
        errors = {
            name: _("This field is required for a %(type)s.") % {"type": kind}
            for name in needed[kind]
            if name not in data
        }
        if kind == "action" and data.get("action") in ("bet", "raise") and "amount" not in data:
            errors["amount"] = _("Say the total to bet or raise to.")
        if errors:
            raise serializers.ValidationError(errors)
        return data


class CorrectionSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)
    expected_seq = serializers.IntegerField(min_value=0, required=False)


class VoidSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class HandSummarySerializer(serializers.ModelSerializer):
    table_number = serializers.IntegerField(source="table.number", read_only=True)
    tournament = serializers.IntegerField(source="table.tournament_id", read_only=True)

    class Meta:
        model = Hand
        fields = [
            "id",
            "tournament",
            "table",
            "table_number",
            "number",
            "status",
            "deal_mode",
            "seed_commitment",
            "started_at",
            "finished_at",
        ]


class HandStateSerializer(serializers.Serializer):
    """Documents the shape of ``hand_data`` for the schema."""

    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    table = serializers.IntegerField()
    table_number = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    deal_mode = serializers.CharField()
    seq = serializers.IntegerField(help_text=_("The last event: send it as expected_seq."))
    seed_commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text=_("Only once the hand is over (or deck prep)."))
    state = serializers.DictField(
        help_text=_("The engine's view of the hand: board, players, pots, options.")
    )
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class ActionResultSerializer(serializers.Serializer):
    replayed = serializers.BooleanField(help_text=_("True: a retry, answered from the log; nothing new."))
    first_seq = serializers.IntegerField()
    last_seq = serializers.IntegerField()
    events = serializers.ListField(child=serializers.DictField())
    hand = HandStateSerializer()


def sees_secrets(hand: Hand, user) -> bool:
    return hand.is_over or can_view_deck(user)


def hand_data(hand: Hand, user) -> dict:
    """The hand as this user may see it now: the secrets are read only for those who may see them."""
    secret = sees_secrets(hand, user)
    state = services.full_view(hand) if secret else services.public_view(hand)
    return {
        "id": hand.pk,
        "tournament": hand.table.tournament_id,
        "table": hand.table_id,
        "table_number": hand.table.number,
        "number": hand.number,
        "status": hand.status,
        "deal_mode": hand.deal_mode,
        "seq": hand.state_seq,
        "seed_commitment": hand.seed_commitment,
        "seed": vault.seed_hex(hand) if secret else None,
        "state": state,
        "started_at": hand.started_at,
        "finished_at": hand.finished_at,
    }


def event_data(row: HandEvent, *, secret: bool, dealt: dict | None = None) -> dict | None:
    """One stored event as this user may see it; None when it must stay hidden.

    The engine's ``public_event`` decides: the hole cards and the burns stay hidden while the hand
    runs (shown hands are separate ``show`` events). The log stores them blank; with ``secret`` the
    event as dealt comes from the hand's secrets (``dealt``, ``vault.dealt_events``)."""
    payload = vault.dealt_payload(row, dealt) if secret and dealt else row.payload
    if not secret:
        payload = public_event(payload)
        if payload is None:
            return None
    return {
        "seq": row.seq,
        "type": row.type,
        "payload": payload,
        "device": row.device,
        "actor": row.actor.get_username() if row.actor_id else None,
        "at": row.created_at,
    }


def events_data(hand: Hand, rows, user) -> list[dict]:
    secret = sees_secrets(hand, user)
    dealt = vault.dealt_events(hand) if secret else None
    out = []
    for row in rows:
        data = event_data(row, secret=secret, dealt=dealt)
        if data is not None:
            out.append(data)
    return out
