"""Request limits (docs/security.md): how big a request body, how deep a JSON document and how big a
WebSocket message may be. Too big is 413, too deep 400, never a 500.

- ``BodyLimit`` (ASGI, ``config.asgi``): a body over ``REQUEST_MAX_BODY_BYTES`` is refused before
  Django reads it (by its Content-Length, or as it streams in without one).
- ``BodyLimitMiddleware`` (Django): the same rule by Content-Length, for any other server or client.
- ``LimitedJSONParser`` (DRF's JSON parser for every API view): at most ``API_MAX_JSON_BYTES``
  bytes and ``API_MAX_JSON_DEPTH`` levels of nesting, checked before the document is decoded.
- ``websocket_json``: the consumers' decoder, at most ``WEBSOCKET_MAX_MESSAGE_BYTES`` and the same
  depth (daphne refuses bigger frames and messages itself, ``manage.py serve`` and compose set it).

A leaf: imports no app.
"""

from __future__ import annotations

import io
import json
import re

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser

# JSON strings (with their escapes) are removed before the brackets are counted.
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def max_body() -> int:
    return settings.REQUEST_MAX_BODY_BYTES


def json_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest, counted without decoding it (the
    decoder itself would recurse and fail on a deep enough document)."""
    depth = deepest = 0
    for bracket in _JSON_BRACKET.findall(_JSON_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def too_large_message(limit: int) -> str:
    return _("The request is too large: at most %(limit)s bytes are accepted.") % {"limit": limit}


def too_deep_message(limit: int) -> str:
    return _("The JSON document is nested too deeply: at most %(limit)s levels are accepted.") % {
        "limit": limit
    }


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"
    extra = {"code": "too_large"}  # added to the error body by config.api.exception_handler


class TooDeep(exceptions.ParseError):
    default_code = "too_deep"
    extra = {"code": "too_deep"}


class LimitedJSONParser(JSONParser):
    """DRF's JSON parser (strict: no NaN or Infinity) with a size and a nesting limit."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.API_MAX_JSON_BYTES
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestTooLarge(too_large_message(limit), code="too_large")
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as error:
            raise exceptions.ParseError(
                _("The request body is not valid %(encoding)s text.") % {"encoding": encoding}
            ) from error
        depth = settings.API_MAX_JSON_DEPTH
        if json_depth(text) > depth:
            raise TooDeep(too_deep_message(depth), code="too_deep")
        return super().parse(io.BytesIO(raw), media_type, parser_context)


class WebSocketMessageError(ValueError):
    """A WebSocket message that is too big (close code 1009) or not a small JSON document (1007)."""

    def __init__(self, close_code: int):
        super().__init__(close_code)
        self.close_code = close_code


CLOSE_INVALID_DATA = 1007
CLOSE_TOO_BIG = 1009


def websocket_json(text_data: str | None, bytes_data: bytes | None):
    """A client's WebSocket message decoded, or WebSocketMessageError: text only, at most
    WEBSOCKET_MAX_MESSAGE_BYTES, nested at most API_MAX_JSON_DEPTH levels, valid JSON."""
    if text_data is None:  # binary frames are not part of the protocol
        raise WebSocketMessageError(CLOSE_INVALID_DATA)
    if len(text_data.encode()) > settings.WEBSOCKET_MAX_MESSAGE_BYTES:
        raise WebSocketMessageError(CLOSE_TOO_BIG)
    if json_depth(text_data) > settings.API_MAX_JSON_DEPTH:
        raise WebSocketMessageError(CLOSE_INVALID_DATA)
    try:
        return json.loads(text_data)
    except ValueError:
        raise WebSocketMessageError(CLOSE_INVALID_DATA) from None


def _declared_length(value) -> int | None:
    """A Content-Length header as a number; -1 when it is not one."""
    if value in (None, "", b""):
        return None
    text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
    return int(text) if text.isascii() and text.isdigit() and len(text) < 20 else -1


def bad_length_message() -> str:
    return _("Content-Length must be a whole number of bytes.")


def too_large_response(request, limit: int) -> HttpResponse:
    message = too_large_message(limit)
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message, "code": "too_large"}, status=413)
    body = loader.render_to_string("413.html", {"message": message}, request)
    return HttpResponse(body, status=413)


def bad_length_response(request) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": bad_length_message(), "code": "bad_length"}, status=400)
    return defaults.bad_request(request, None)


class BodyLimitMiddleware:
    """413 for a request whose Content-Length is over REQUEST_MAX_BODY_BYTES (400 when it is not a
    number), before anything reads the body."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        length = _declared_length(request.META.get("CONTENT_LENGTH"))
        if length == -1:
            return bad_length_response(request)
        if length is not None and length > max_body():
            return too_large_response(request, max_body())
        return self.get_response(request)


class BodyLimit:
    """ASGI: refuse an HTTP request body over REQUEST_MAX_BODY_BYTES with 413 before the application
    sees it (Django's ASGI handler would first read all of it, to memory and then to disk)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = max_body()
        declared = _declared_length(dict(scope.get("headers", [])).get(b"content-length"))
        if declared == -1:
            return await self._refuse(send, 400, "bad_length", limit)
        if declared is not None and declared > limit:
            return await self._refuse(send, 413, "too_large", limit)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            body = message.get("body", b"")
            size += len(body)
            if size > limit:
                return await self._refuse(send, 413, "too_large", limit)
            chunks.append(body)
            if not message.get("more_body", False):
                break
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(send, status_code: int, error_code: str, limit: int) -> None:
        # Before Django: no request, so no language of its own; the site's default language.
        with translation.override(settings.LANGUAGE_CODE):
            message = too_large_message(limit) if error_code == "too_large" else bad_length_message()
        body = json.dumps({"detail": message, "code": error_code}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status_code,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
