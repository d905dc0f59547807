"""Shared API plumbing: strict request fields and one error shape for every 4xx.

The status policy is ``docs/api-errors.md``: 400 a malformed request (wrong JSON type, unknown
field, out of range, not a card, a bad name), 409 a conflict with the current state, 422 a
well-formed request that breaks a rule (with its rule number and the allowed range), 429 too many
requests (with ``Retry-After``). Every error body has a human-readable ``detail`` naming the problem
and a stable ``code``; validation errors add the per-field messages under ``errors``.
"""

from collections.abc import Mapping

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config import text, validators
from config.errors import ServiceError


class Conflict(exceptions.APIException):
    """The request is well formed but the thing is in the wrong state for it (409)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The request conflicts with the current state."
    default_code = "conflict"


class Unprocessable(exceptions.APIException):
    """The request is well formed but breaks a rule (422)."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = "The request breaks a rule."
    default_code = "unprocessable"


def rule_exception(exc: DjangoValidationError) -> exceptions.APIException:
    """A service's ValidationError: the request had the right shape (the serializer took it) but a
    value does not fit the rest of the data (the structure, the tables, the chips in play): 422 with
    the per-field messages and the service's code when it gave one."""
    errors = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
    codes = [e.code for e in exc.error_list if getattr(e, "code", None)] if hasattr(exc, "error_list") else []
    if hasattr(exc, "error_dict"):
        codes = [e.code for items in exc.error_dict.values() for e in items if getattr(e, "code", None)]
    api_exc = Unprocessable(detail="; ".join(_flatten(errors)))
    field = next(iter(errors)) if hasattr(exc, "error_dict") else None
    api_exc.extra = {
        "code": codes[0] if codes else "invalid_value",
        **({"field": field} if field else {}),
        "errors": errors,
    }
    return api_exc


def to_api_exception(exc: ServiceError) -> exceptions.APIException:
    api_exc = (Unprocessable if exc.status == 422 else Conflict)(detail=str(exc.message))
    api_exc.extra = exc.body()
    return api_exc


class ErrorSerializer(serializers.Serializer):
    """Every 4xx body: ``detail`` names the field and the problem."""

    detail = serializers.CharField()
    code = serializers.CharField(
        required=False,
        help_text=_("A stable code for the problem, e.g. invalid (400), stale (409), below_minimum (422)."),
    )
    field = serializers.CharField(required=False, help_text=_("The field concerned, when there is one."))
    rule = serializers.CharField(required=False, help_text=_("The rule broken, e.g. R5.3."))
    params = serializers.DictField(
        required=False, help_text=_("The figures involved, e.g. the allowed range.")
    )
    errors = serializers.DictField(required=False, help_text=_("Per-field messages (400)."))
    seq = serializers.IntegerField(required=False, help_text=_("A hand's last event (stale requests)."))
    hand = serializers.DictField(required=False, help_text=_("A hand's current state (stale requests)."))


def error_responses(described: dict, *codes: int, ok=None, ok_code: int = 200) -> dict:
    """An operation's responses for drf-spectacular, each error code documented with its meaning."""
    responses = {ok_code: ok} if ok is not None or ok_code == 204 else {}
    for code in codes:
        responses[code] = OpenApiResponse(ErrorSerializer, description=str(described[code]))
    return responses


def _flatten(detail, prefix=""):
    """Turn DRF's nested error detail into 'field: message' lines."""
    if isinstance(detail, dict):
        lines = []
        for key, value in detail.items():
            name = key if key != "non_field_errors" else ""
            lines.extend(_flatten(value, f"{prefix}{name}." if name else prefix))
        return lines
    if isinstance(detail, list):
        lines = []
        for item in detail:
            lines.extend(_flatten(item, prefix))
        return lines
    label = prefix.rstrip(".")
    return [f"{label}: {detail}" if label else str(detail)]


def exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        exc = to_api_exception(exc)
    elif isinstance(exc, DjangoValidationError):
        exc = rule_exception(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"detail": "; ".join(_flatten(data)), "code": "invalid", "errors": data}
    elif isinstance(exc, exceptions.Throttled):
        wait = int(exc.wait or 1) if exc.wait is not None else 1
        response.data = {
            "detail": str(_("Too many requests: try again in %(seconds)s s.") % {"seconds": wait}),
            "code": "throttled",
            "params": {"retry_after": wait},
        }
        response["Retry-After"] = str(wait)
    elif isinstance(data, dict) and "detail" in data:
        extra = getattr(exc, "extra", None)
        codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
        code = codes if isinstance(codes, str) else getattr(exc, "default_code", "error")
        response.data = {**data, "code": code, **(extra or {})}
    return response


def error_response(message: str, code: int, **extra) -> Response:
    return Response({"detail": message, **extra}, status=code)


# ---------------------------------------------------------------- strict input (docs/api-errors.md)
# A request body is JSON. Amounts and ids are JSON integers: "200", 300.0, 400e0 and true are refused
# (400), and so is any field the operation does not take (a client that sends blinds in a deal request
# learns they were not used instead of believing they were). Every API serializer derives from
# StrictSerializer or StrictModelSerializer, so the rule holds everywhere and the schema says it
# (additionalProperties: false, see ``schema_hooks``).

MAX_ID = 2**63 - 1  # the largest id a database row can have


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer only: a string, a float (even ``300.0`` or ``400e0``) or a boolean is refused."""

    default_error_messages = {
        "invalid": _("Give a whole number as a JSON integer (not a string, a decimal or true/false).")
    }

    def to_internal_value(self, data):
        if type(data) is not int:  # bool is a subclass of int: refused too
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIdField(StrictIntegerField):
    """A row id: a JSON integer from 1 to 2^63 - 1."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)


class StrictNumberField(serializers.FloatField):
    """A JSON number (integer or decimal), never a string or a boolean."""

    default_error_messages = {"invalid": _("Give a number (a JSON number, not a string or true/false).")}

    def to_internal_value(self, data):
        if type(data) not in (int, float):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """JSON true or false only: "true", 1 or "yes" are refused."""

    default_error_messages = {"invalid": _("Give true or false (a JSON boolean).")}

    def to_internal_value(self, data):
        if type(data) is not bool:
            self.fail("invalid")
        return data


class StrictCharField(serializers.CharField):
    """A JSON string only (DRF would turn 12 or true into "12" or "True")."""

    default_error_messages = {"invalid": _("Give a text (a JSON string).")}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictRegexField(StrictCharField, serializers.RegexField):
    """A JSON string matching a pattern (the schema states the pattern)."""

    def __init__(self, regex, **kwargs):
        serializers.RegexField.__init__(self, regex, **kwargs)


class StrictChoiceField(serializers.ChoiceField):
    """One of the choices, of the choices' own JSON type (``"8"`` is not the choice 8)."""

    def to_internal_value(self, data):
        kinds = {type(key) for key in self.choices}
        if kinds and type(data) not in kinds:
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class ReferenceNotFound(exceptions.NotFound):
    """A body field names a row that does not exist (or is not part of this tournament): 404, like an
    id in the path, with the field named."""

    default_code = "not_found"

    def __init__(self, field: str, detail):
        super().__init__(detail=f"{field}: {detail}")
        self.extra = {"field": field}


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_ID})
class StrictPrimaryKeyRelatedField(serializers.PrimaryKeyRelatedField):
    """A related row by its id, given as a JSON integer (1 to 2^63 - 1); an id of no row is 404."""

    def to_internal_value(self, data):
        if type(data) is not int:
            self.fail("incorrect_type", data_type=type(data).__name__)
        if not 1 <= data <= MAX_ID:
            raise serializers.ValidationError(
                _("Give an id from 1 to %(maximum)s.") % {"maximum": MAX_ID}, code="max_value"
            )
        try:
            return self.get_queryset().get(pk=data)
        except ObjectDoesNotExist:
            raise ReferenceNotFound(
                self.field_name, _("no such object (id %(id)s).") % {"id": data}
            ) from None


class StrictFieldsMixin:
    """Refuses a body that is not an object and any field the serializer does not write (400)."""

    default_error_messages = {"unknown_field": _("Unknown field: this request does not take it.")}

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            writable = {name for name, field in self.fields.items() if not field.read_only}
            read_only = {name for name, field in self.fields.items() if field.read_only}
            errors = {}
            for key in data:
                if key in writable:
                    continue
                if key in read_only:
                    errors[key] = [_("This field is read-only: leave it out of the request.")]
                else:
                    errors[key] = [_("Unknown field: this request does not take it.")]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


class StrictSerializer(StrictFieldsMixin, serializers.Serializer):
    """The base of every API request serializer (plain)."""


class StrictModelSerializer(StrictFieldsMixin, serializers.ModelSerializer):
    """The base of every API model serializer: strict fields for the model's columns too."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.IntegerField: StrictIntegerField,
        models.BigIntegerField: StrictIntegerField,
        models.SmallIntegerField: StrictIntegerField,
        models.PositiveIntegerField: StrictIntegerField,
        models.PositiveBigIntegerField: StrictIntegerField,
        models.PositiveSmallIntegerField: StrictIntegerField,
        models.BooleanField: StrictBooleanField,
        models.CharField: StrictCharField,
        models.TextField: StrictCharField,
        models.FloatField: StrictNumberField,
    }
    serializer_related_field = StrictPrimaryKeyRelatedField
    serializer_choice_field = StrictChoiceField

    # A column's own range when the model gives none (the schema states it, the database holds it).
    INTEGER_RANGES = {
        models.SmallIntegerField: (-(2**15), 2**15 - 1),
        models.PositiveSmallIntegerField: (0, 2**15 - 1),
        models.IntegerField: (-(2**31), 2**31 - 1),
        models.PositiveIntegerField: (0, 2**31 - 1),
        models.BigIntegerField: (-(2**63), 2**63 - 1),
        models.PositiveBigIntegerField: (0, 2**63 - 1),
    }

    def build_standard_field(self, field_name, model_field):
        field_class, kwargs = super().build_standard_field(field_name, model_field)
        if issubclass(field_class, StrictIntegerField):
            for model_class in type(model_field).__mro__:
                if model_class in self.INTEGER_RANGES:
                    low, high = self.INTEGER_RANGES[model_class]
                    kwargs.setdefault("min_value", low)
                    kwargs.setdefault("max_value", high)
                    break
        return field_class, kwargs


class LineField(StrictCharField):
    """One line of text (a reason, a label, a tournament's name): without control, bidirectional or
    invisible characters (400 naming the character; the schema's pattern is that class), then
    NFC-normalised and trimmed. ``max_length`` counts the text as sent."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        try:
            data = text.clean_line(data, max_length=self.max_length)
        except text.TextProblem as problem:
            raise serializers.ValidationError(
                validators.problem_message(problem), code=problem.code
            ) from None
        return super().to_internal_value(data)


class LineFieldSchema(OpenApiSerializerFieldExtension):
    """A one-line text in the schema: its length as sent and the pattern of ``config.text`` (one
    schema, not drf-spectacular's oneOf for a field that may be blank)."""

    target_class = "config.api.LineField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        field = self.target
        # drf-spectacular adds the empty text (maxLength 0) as a oneOf of its own for a field that may be
        # blank: the pattern then covers the rest.
        schema = {
            "type": "string",
            "pattern": text.NONEMPTY_LINE_PATTERN if field.allow_blank else text.FILLED_LINE_PATTERN,
        }
        if field.max_length is not None:
            schema["maxLength"] = field.max_length
        if not field.allow_blank:
            schema["minLength"] = 1
        return schema


@extend_schema_field(
    {
        "type": "string",
        "minLength": 1,
        "maxLength": text.NAME_MAX_LENGTH,
        "pattern": text.FILLED_LINE_PATTERN,
        "description": "1 to 64 characters; no control, bidirectional or invisible characters.",
    }
)
class PlayerNameField(StrictCharField):
    """A player's name: 1 to 64 characters as typed, no control, bidi or invisible characters; stored
    NFC-normalised, trimmed, inner spaces collapsed (``config.text.clean_name``)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", None)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        try:
            return text.clean_name(data)
        except text.TextProblem as problem:
            raise serializers.ValidationError(
                validators.problem_message(problem), code=problem.code
            ) from None


# ---------------------------------------------------------------- query parameters


def int_query_schema(minimum: int = 1, maximum: int = MAX_ID) -> dict:
    return {"type": "integer", "minimum": minimum, "maximum": maximum}


def int_query(request, name: str, *, minimum: int = 1, maximum: int = MAX_ID) -> int | None:
    """A whole-number query parameter (ASCII digits) from ``minimum`` to ``maximum``; None when
    absent or empty; 400 naming it otherwise."""
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    digits = value[1:] if value.startswith("-") else value
    number = int(value) if digits.isascii() and digits.isdigit() and len(digits) <= 20 else None
    if number is None or not minimum <= number <= maximum:
        raise exceptions.ValidationError(
            {
                name: [
                    _("Give a whole number from %(minimum)s to %(maximum)s.")
                    % {"minimum": minimum, "maximum": maximum}
                ]
            }
        )
    return number


def choice_query(request, name: str, choices) -> str | None:
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    if value not in choices:
        raise exceptions.ValidationError(
            {name: [_("Use one of: %(choices)s.") % {"choices": ", ".join(choices)}]}
        )
    return value
