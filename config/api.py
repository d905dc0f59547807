"""Shared API plumbing: one error shape for every 4xx.

Every error body has a human-readable ``detail`` naming the problem, and for validation errors the
per-field messages under ``errors``, so a console or tablet can show exactly what was wrong.
"""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

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


def to_api_exception(exc: ServiceError) -> exceptions.APIException:
    api_exc = (Unprocessable if exc.status == 422 else Conflict)(detail=str(exc.message))
    api_exc.extra = exc.body()
    return api_exc


class ErrorSerializer(serializers.Serializer):
    """Every 4xx body: ``detail`` names the field and the problem."""

    detail = serializers.CharField()
    code = serializers.CharField(required=False, help_text=_("A stable code for the problem (409/422)."))
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
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"detail": "; ".join(_flatten(data)), "errors": data}
    elif isinstance(data, dict) and "detail" in data:
        extra = getattr(exc, "extra", None)
        if extra:
            response.data = {**data, **extra}
    return response


def error_response(message: str, code: int, **extra) -> Response:
    return Response({"detail": message, **extra}, status=code)
