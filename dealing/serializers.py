"""What the dealing API reads and writes.

Secrecy (RULES 7.6): ``hand_data`` is the only way a hand leaves the server. While a hand runs it
carries the public view only (no seed, no deck order, no burn, no hole card that has not been
shown) unless the user has the deck-prep permission ``dealing.view_deck``.
"""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from config.api import (
    LineField,
    StrictChoiceField,
    StrictIdField,
    StrictIntegerField,
    StrictRegexField,
    StrictSerializer,
)
from dealing.engine.hand import public_event
from tournaments.services import MAX_CHIPS

from . import services, vault
from .models import Hand, HandEvent
from .permissions import can_view_deck

INPUT_TYPES = [
    ("action", _("Betting action")),
    ("board", _("Board cards entered by the dealer")),
    ("show", _("Hand shown at showdown (entered cards)")),
    ("muck", _("Hand mucked at showdown")),
    ("face_up", _("All-in: the dealer turns every hand still in face up (R6.2)")),
    ("deal", _("All-in, seeded deck: deal the next street of the run-out")),
]
ACTIONS = ["fold", "check", "call", "bet", "raise", "all_in"]
MAX_SEATS = 8  # R2.7


CARD_PATTERN = r"^[2-9TJQKA][cdhs]$"
CLIENT_ACTION_ID_PATTERN = r"^[A-Za-z0-9._:-]{1,64}$"
MAX_SEQ = 100_000  # far more events than any hand has
CARD_ERRORS = {
    "invalid": _("Not a card code: a rank from 23456789TJQKA then a suit from cdhs, e.g. As, Td, 2c (R2.1).")
}


def card_field():
    return StrictRegexField(CARD_PATTERN, max_length=2, error_messages=CARD_ERRORS)


def client_action_id_field(**kwargs):
    return StrictRegexField(
        CLIENT_ACTION_ID_PATTERN,
        max_length=64,
        error_messages={"invalid": _("Use 1 to 64 letters, digits, dots, colons, dashes or underscores.")},
        **kwargs,
    )


class StartHandSerializer(StrictSerializer):
    table = StrictIdField(help_text=_("The table to deal the next hand at."))
    deal_mode = StrictChoiceField(
        choices=Hand.DealMode.choices,
        required=False,
        help_text=_("Seeded deck or entered cards; default: as the table's last hand, else seeded."),
    )
    client_action_id = client_action_id_field(
        required=False,
        help_text=_(
            "Optional: sent again, it answers 200 with the hand it started (201 the first time) "
            "instead of dealing another."
        ),
    )
    small_blind = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=MAX_CHIPS,
        help_text=_("Optional check: the small blind the tablet shows; 422 (R8.2) if the level's differs."),
    )
    big_blind = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=MAX_CHIPS,
        help_text=_("Optional check: the big blind the tablet shows; 422 (R8.2) if the level's differs."),
    )
    ante = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=MAX_CHIPS,
        help_text=_("Optional check: the ante the tablet shows; 422 (R8.2) if the level's differs."),
    )


# What each input type takes besides client_action_id, expected_seq and type: (required, allowed).
INPUT_FIELDS = {
    "action": (("seat", "action"), ("seat", "action", "amount")),
    "board": (("cards",), ("cards",)),
    "show": (("seat", "cards"), ("seat", "cards")),
    "muck": (("seat",), ("seat",)),
    "face_up": ((), ()),
    "deal": ((), ()),
}


class InputSerializer(StrictSerializer):
    client_action_id = client_action_id_field(
        help_text=_("Unique per input, chosen by the tablet; a retry repeats it.")
    )
    expected_seq = StrictIntegerField(
        min_value=0, max_value=MAX_SEQ, help_text=_("The last event sequence number the tablet has seen.")
    )
    type = StrictChoiceField(choices=INPUT_TYPES, default="action")
    seat = StrictIntegerField(required=False, min_value=1, max_value=MAX_SEATS)
    action = StrictChoiceField(choices=ACTIONS, required=False)
    amount = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=MAX_CHIPS,
        help_text=_(
            "For bet and raise: the total bet for the round (raise to); for call, optional and equal to "
            "the call. The allowed range is the hand's (422 with minimum and maximum)."
        ),
    )
    cards = serializers.ListField(
        child=card_field(),
        required=False,
        min_length=1,
        max_length=52,
        help_text=_(
            "Card codes (R2.1): the board cards just turned up (1, then 2, 1, 1) or the five hole cards "
            "shown. A wrong number for the step, a card given twice or already used is 422."
        ),
    )

    def validate(self, data):
        kind = data.get("type", "action")
        required, allowed = INPUT_FIELDS[kind]
        errors = {
            name: _("This field is required for a %(type)s.") % {"type": kind}
            for name in required
            if name not in data
        }
        for name in ("seat", "action", "amount", "cards"):
            if name in data and name not in allowed:
                errors[name] = _("A %(type)s does not take this field.") % {"type": kind}
        action = data.get("action")
        if kind == "action" and action in ("bet", "raise") and "amount" not in data:
            errors["amount"] = _("Say the total to bet or raise to.")
        if kind == "action" and action in ("fold", "check", "all_in") and "amount" in data:
            errors["amount"] = _("A %(action)s takes no amount.") % {"action": action}
        if errors:
            raise serializers.ValidationError(errors)
        return data


# The schema of an input: one of these shapes (``InputSerializer`` checks exactly them). A body that
# fits none (a fold with an amount, a board with a seat, a bet without one) is 400.
def _input_variant(name: str, kind: str, *, type_required: bool, fields: dict, doc: str):
    attrs = {
        "__doc__": doc,
        "__module__": __name__,
        "client_action_id": client_action_id_field(
            help_text=_("Unique per input, chosen by the tablet; a retry repeats it.")
        ),
        "expected_seq": StrictIntegerField(
            min_value=0, max_value=MAX_SEQ, help_text=_("The last event sequence number the tablet has seen.")
        ),
        "type": StrictChoiceField(choices=[(kind, kind)], required=type_required),
        **fields,
    }
    return type(name, (StrictSerializer,), attrs)


def _seat():
    return StrictIntegerField(min_value=1, max_value=MAX_SEATS)


def _cards():
    return serializers.ListField(
        child=card_field(), min_length=1, max_length=52, help_text=InputSerializer().fields["cards"].help_text
    )


def _amount(required: bool):
    return StrictIntegerField(
        required=required,
        min_value=1,
        max_value=MAX_CHIPS,
        help_text=InputSerializer().fields["amount"].help_text,
    )


INPUT_VARIANTS = [
    _input_variant(
        "BetInput",
        "action",
        type_required=False,
        fields={
            "seat": _seat(),
            "action": StrictChoiceField(choices=[("bet", "bet"), ("raise", "raise")]),
            "amount": _amount(True),
        },
        doc="A bet or a raise to ``amount`` (the player's total bet this round).",
    ),
    _input_variant(
        "CallInput",
        "action",
        type_required=False,
        fields={
            "seat": _seat(),
            "action": StrictChoiceField(choices=[("call", "call")]),
            "amount": _amount(False),
        },
        doc="A call (``amount``, if sent, must be the call).",
    ),
    _input_variant(
        "PlainActionInput",
        "action",
        type_required=False,
        fields={
            "seat": _seat(),
            "action": StrictChoiceField(choices=[("fold", "fold"), ("check", "check"), ("all_in", "all_in")]),
        },
        doc="A fold, check or all-in: no amount.",
    ),
    _input_variant(
        "BoardInput",
        "board",
        type_required=True,
        fields={"cards": _cards()},
        doc="Entered mode: the board cards just turned up.",
    ),
    _input_variant(
        "ShowInput",
        "show",
        type_required=True,
        fields={"seat": _seat(), "cards": _cards()},
        doc="Entered mode: the five hole cards a player shows.",
    ),
    _input_variant("MuckInput", "muck", type_required=True, fields={"seat": _seat()}, doc="A hand mucked."),
    _input_variant(
        "FaceUpInput",
        "face_up",
        type_required=True,
        fields={},
        doc="All-in, seeded deck: every hand still in is turned face up (R6.2) before the run-out.",
    ),
    _input_variant(
        "DealInput",
        "deal",
        type_required=True,
        fields={},
        doc="All-in, seeded deck: deal the next street of the run-out (flop, turn, river) from the deck.",
    ),
]
INPUT_SCHEMA = PolymorphicProxySerializer(
    component_name="HandInput", serializers=INPUT_VARIANTS, resource_type_field_name=None
)


class CorrectionSerializer(StrictSerializer):
    reason = LineField(max_length=500)
    expected_seq = StrictIntegerField(min_value=0, max_value=MAX_SEQ, required=False)


class VoidSerializer(StrictSerializer):
    reason = LineField(max_length=500)


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
    hold = serializers.CharField(
        help_text=_(
            "Hand-for-hand: why the all-in's run-out waits for the floor's release (R8.6), else empty."
        )
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


def hand_data(hand: Hand, user, *, seq: int | None = None) -> dict:
    """The hand as this user may see it now: the secrets are read only for those who may see them.

    ``seq``: the hand's last event, when the caller just wrote it (no read to check the views)."""
    secret = sees_secrets(hand, user)
    state = services.full_view(hand) if secret else services.public_view(hand, seq=seq)
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
        "hold": services.runout_hold(hand, view=state),
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
