"""A paired tablet's dealer inputs over its own socket: the same services, checks and answers as the
dealing HTTP API (``POST /api/hands/<id>/actions/`` and ``POST /api/hands/``), without an HTTP
request per input.

Why: at a big event (1,250 tables, 250 inputs a second on two cores) an input's HTTP request cost
more than the input itself: the request's parsing, the middleware, DRF's authentication and its
throttle's cache round trip, and then the tablet's ``refresh`` message after the answer. Over the
socket the tablet is already known (its device cookie, checked again at each input as the HTTP path
checks it at each request: see below), and the snapshot that shows the input follows the answer on
the same socket.

The device is read at a socket's first input and again a minute later (its "last seen" is touched
then, and its label and language follow an edit within that minute). In between, the input's write
is made under the device's own check as SQL (``pairing.tablet_guard``: the token still held by an
active tablet of this table), in the input's one statement (a deal, a hand's end: in the read that
locks its table or hand): a revoked device acts no more from its next input, even if the message
that closes its socket was lost, and an input costs no read of the device. A failed check writes
nothing; the device is read again and the input decided on it. An input refused for any other
reason (400, 404, 409...) also reads the device again, so a revoked tablet is told 401 first, as over
HTTP.
Measured with tests/bench/load_event.py on two cores: the event carried 145 inputs a second over
HTTP and 245-250 over the sockets, and daphne's CPU per input went from 11.8 to 7.8 ms.

A message is ``{"type": "input", "ref": r, "hand": id, "input": {...}}`` (an action, cards, a
show or muck, a run-out step: ``dealing.serializers.InputSerializer``) or ``{"type": "deal", "ref": r,
"input": {"table": id, ...}}`` (``StartHandSerializer``). The answer is ``{"type": "answer", "ref": r,
"status": s, "body": {...}}`` with the status and the error body the HTTP API gives (400, 401, 403,
404, 409, 422, 429, 503: ``docs/api-errors.md``), in the device's language. Staff using a tablet page
have no device on the socket: they are answered ``{"type": "answer", "ref": r, "http": true}`` and
send over HTTP, where their session is checked at each request.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from types import SimpleNamespace

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers
from rest_framework.utils.encoders import JSONEncoder

from config import json_text, live
from config.api import StrictIdField, exception_handler
from config.overload import RETRY_AFTER_SECONDS
from config.prepared import GuardFailed, WriteGuard
from dealing import services
from dealing.permissions import DealingPermission, body_table_id, hand_for_check
from dealing.serializers import InputSerializer, StartHandSerializer
from tables.models import Table

from .models import Device, DeviceKind
from .pairing import device_from_cookies, tablet_guard

logger = logging.getLogger(__name__)

KINDS = ("input", "deal")
MAX_REF = 64  # the client's reference for its input, echoed in the answer
DEVICE_READ_EVERY = 60.0  # seconds: as often as a device's "last seen" is touched (screens.pairing)


@dataclass
class SocketDevice:
    """What one tablet socket knows of its device between inputs (its consumer holds it; the
    socket's inputs are taken one at a time)."""

    device: Device | None = None
    read_at: float = float("-inf")
    guard: WriteGuard | None = None

    def current(self) -> Device | None:
        """The device as read less than ``DEVICE_READ_EVERY`` ago, with its check, or None (read it
        again)."""
        if (
            self.device is not None
            and self.guard is not None
            and time.monotonic() - self.read_at < DEVICE_READ_EVERY
        ):
            return self.device
        return None


@dataclass
class Answer:
    """What the socket sends back, and what the consumer does next."""

    status: int
    body: dict = field(default_factory=dict)
    # After a 2xx: the snapshot that shows the input is the one at this hand and seq (or later).
    hand_id: int | None = None
    seq: int | None = None
    # The device's own language (set at pairing), when it has one.
    language: str | None = None
    # What the input's transaction announced to this table's group: the consumer acts on it at once,
    # as it does on the layer's copy that follows (and is then recognized by its id).
    announced: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def stale(self) -> bool:
        return self.status == 409 and self.body.get("code") == "stale"


def _error(exc: Exception) -> Answer:
    """The HTTP API's own error body and status for ``exc`` (``config.api.exception_handler``)."""
    if isinstance(exc, ObjectDoesNotExist):
        exc = exceptions.NotFound()
    response = exception_handler(exc, {})
    if response is None:
        raise exc
    return Answer(response.status_code, dict(response.data))


class _DealMessage(serializers.Serializer):
    """The message around a deal's input (its ``type`` and ``ref`` are the consumer's). Checked before
    the input itself, which the API's own serializer checks after who may send it (the HTTP API's
    order). 400, nothing changed."""

    input = serializers.DictField()


class _InputMessage(_DealMessage):
    hand = StrictIdField()


NOT_PAIRED = _("This device is not paired or has been revoked. Pair it again.")


def _device(cookies: dict, table_id: int) -> Device | None:
    """The tablet's device, read again at each input as the HTTP path reads it at each request: a
    device revoked since the socket opened acts no more, even if its revocation message was lost."""
    device = device_from_cookies(cookies, DeviceKind.TABLET, table_id)
    if device is None or device.user is None or not device.user.is_active:
        return None
    return device


def apply(cookies: dict, table_id: int, message: dict, known: SocketDevice | None = None) -> Answer:
    """One input message of the tablet socket of ``table_id``: checked and applied as the HTTP API
    would (one transaction in the service), answered with the API's status and body. ``known``: the
    socket's device, kept between its inputs."""
    with live.kept_announcements() as sent:
        answer = _apply(cookies, table_id, message, known if known is not None else SocketDevice())
    if answer.ok:
        group = live.table_group(table_id)
        answer.announced = [sent_message for to, sent_message in sent if to == group]
    return answer


def _read_device(cookies: dict, table_id: int, known: SocketDevice) -> Device | None:
    known.device = _device(cookies, table_id)
    known.read_at = time.monotonic()
    known.guard = tablet_guard(cookies, table_id) if known.device is not None else None
    return known.device


def _apply(cookies: dict, table_id: int, message: dict, known: SocketDevice) -> Answer:
    device, kept = None, False
    try:
        # The socket's device, checked where the input is written (an action) or its table locked (a
        # deal): no read of it at each input.
        device = known.current()
        kept = device is not None
        if device is None:
            device = _read_device(cookies, table_id, known)
        if device is None:
            answer = _error(exceptions.AuthenticationFailed(NOT_PAIRED))
        else:
            if message["type"] == "deal":
                body = _validated(_DealMessage, message)["input"]

                def run(device):
                    return _deal(device, table_id, body, known.guard)
            else:
                envelope = _validated(_InputMessage, message)

                def run(device):
                    return _act(device, envelope["hand"], envelope["input"], known.guard)

            try:
                answer = run(device)
            except GuardFailed:  # nothing written: the device changed since it was read
                device, kept = _read_device(cookies, table_id, known), False  # read just now
                answer = _again(run, device) if device is not None else None
                if answer is None:
                    answer = _error(exceptions.AuthenticationFailed(NOT_PAIRED))
    except (OperationalError, InterfaceError) as error:  # as config.overload answers HTTP
        logger.warning("overloaded, answered 503 on a tablet socket (table %s): %s", table_id, error)
        answer = Answer(
            503,
            {
                "detail": _("The server is busy: nothing was changed. Try again in a moment."),
                "code": "overloaded",
                "params": {"retry_after": RETRY_AFTER_SECONDS},
            },
        )
    except Exception as error:  # the API's answer for what it knows; anything else is logged, 500
        try:
            answer = _error(error)
        except Exception:  # never a traceback to the tablet
            logger.exception("tablet socket input failed (table %s)", table_id)
            answer = Answer(
                500,
                {
                    "detail": _("Something went wrong on the server. Nothing was changed by this request."),
                    "code": "error",
                },
            )
    if (
        kept
        and not answer.ok
        and answer.status not in (401, 503)
        and _revoked_since(cookies, table_id, known)
    ):
        answer = _error(exceptions.AuthenticationFailed(NOT_PAIRED))  # as over HTTP: 401 first
    answer.language = (device.language or None) if device is not None else None
    return answer


def _revoked_since(cookies: dict, table_id: int, known: SocketDevice) -> bool:
    """After a refusal decided on the socket's device as read before: is it revoked now?"""
    try:
        return _read_device(cookies, table_id, known) is None
    except (OperationalError, InterfaceError):  # the refusal stands; the next input reads it again
        known.device = None
        return False


_serializers = threading.local()


def _validated(serializer_class, data: dict) -> dict:
    """The API serializer's validated data for ``data``, or its ValidationError (400), from one
    instance per thread and class whose fields are bound once. DRF builds a serializer's fields anew
    for every instance (a deep copy of each field and its validators): at 250 inputs a second that was
    6% of a server's CPU and a reference cycle per input for the garbage collector.
    ``run_validation`` is what DRF runs for a nested serializer: nothing of one call is kept for the
    next (the HTTP API's answers for the same bodies are compared in the tests)."""
    serializer = _serializers.__dict__.get(serializer_class)
    if serializer is None:
        serializer = _serializers.__dict__[serializer_class] = serializer_class()
    return serializer.run_validation(data)


def _forbidden() -> Answer:
    return _error(exceptions.PermissionDenied(DealingPermission.message))


def _again(run, device: Device) -> Answer | None:
    """The input once more on the device just read; None if it was revoked again meanwhile."""
    try:
        return run(device)
    except GuardFailed:
        return None


def _act(device: Device, hand_id: int, body: dict, guard: WriteGuard | None = None) -> Answer:
    hand = hand_for_check(hand_id)
    if hand is None:
        return _error(exceptions.NotFound())
    if not device.may_operate_table(hand.table_id):
        return _forbidden()
    data = _validated(InputSerializer, body)
    result = services.apply_input(
        hand,
        {k: data[k] for k in services.INPUT_FIELDS if k in data},
        expected_seq=data["expected_seq"],
        client_action_id=data["client_action_id"],
        actor=device.user,
        device=device.label,
        guard=guard,
    )
    return Answer(
        200,
        {
            "replayed": result.replayed,
            "first_seq": result.first_seq,
            "last_seq": result.last_seq,
            "hand": {"id": result.hand.pk, "seq": result.last_seq, "status": result.hand.status},
        },
        hand_id=result.hand.pk,
        seq=result.last_seq,
    )


def _deal(device: Device, table_id: int, body: dict, guard: WriteGuard | None = None) -> Answer:
    # Who may, before what was sent is checked: the HTTP API's order (dealing.permissions).
    if not device.may_operate_table(body_table_id(body)):
        return _forbidden()
    data = _validated(StartHandSerializer, body)
    hand = services.start_next_hand(
        Table(pk=table_id),  # the service locks and reads the table itself
        actor=device.user,
        device=device.label,
        deal_mode=data.get("deal_mode"),
        client_action_id=data.get("client_action_id"),
        expected_blinds={k: data[k] for k in services.BLIND_FIELDS if k in data},
        guard=guard,
    )
    return Answer(
        200 if hand.replayed else 201,
        {"hand": {"id": hand.pk, "seq": hand.state_seq, "status": hand.status}},
        hand_id=hand.pk,
        seq=hand.state_seq,
    )


def browser_language(scope: dict) -> str:
    """The language the tablet's browser asked for when the socket opened (Accept-Language, the
    language cookie), as Django's LocaleMiddleware picks it for the HTTP API."""
    headers = dict(scope.get("headers") or ())
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    request = SimpleNamespace(
        COOKIES=scope.get("cookies") or {}, META={"HTTP_ACCEPT_LANGUAGE": accept}, path_info="/"
    )
    return translation.get_language_from_request(request)


def encode(ref, answer: Answer, fallback_language: str) -> str:
    """The answer as the socket sends it, its texts in the device's language (else the browser's)."""
    language = (
        answer.language if answer.language in {c for c, _n in settings.LANGUAGES} else fallback_language
    )
    with translation.override(language):  # the lazy texts are made in it
        return json_text.dumps(
            {"type": "answer", "ref": ref, "status": answer.status, "body": answer.body}, _drf_default
        )


_drf_default = JSONEncoder().default  # what the HTTP API's renderer knows (lazy texts, dates...)


def throttled(wait: int) -> Answer:
    return _error(exceptions.Throttled(wait=wait))
