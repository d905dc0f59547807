"""Overload answers 503 with Retry-After, never 500 (a leaf: it imports no app).

Under a burst the database pool can run out of connections (the pool's wait times out) or
PostgreSQL refuses new clients; Django raises ``OperationalError`` from the view. That is not the
request's fault and it changed nothing (the transaction rolled back): the client should simply send
it again a moment later. Tablets retry with the same ``client_action_id``, so a retry never acts twice.
"""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 2


class OverloadMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        return overloaded(request, exception)


def overloaded(request, exception) -> HttpResponse | None:
    """The 503 for a database that could not be had (``exception``), or None for any other error."""
    if not isinstance(exception, OperationalError | InterfaceError):
        return None
    logger.warning("overloaded, answered 503: %s %s: %s", request.method, request.path, exception)
    message = _("The server is busy: nothing was changed. Try again in a moment.")
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message, "code": "overloaded"}, status=503)
    else:
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
