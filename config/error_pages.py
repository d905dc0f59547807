"""The error pages: plain, translated, and never a traceback or the list of URLs (that is DEBUG's
page, shown only when DJANGO_DEBUG=1 asks for it). Under ``/api/`` the same errors are JSON in the
API's error shape (``{"detail": ...}``), so an API client never gets an HTML page.

A leaf (imports no app): ``config.urls`` names these as ``handler400`` ... ``handler500``.
"""

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

API_PREFIX = "/api/"


def _is_api(request) -> bool:
    return request.path.startswith(API_PREFIX)


def _json(message: str, status: int) -> JsonResponse:
    return JsonResponse({"detail": message}, status=status)


def bad_request(request, exception=None):
    if _is_api(request):
        return _json(_("Bad request."), 400)
    return defaults.bad_request(request, exception)


def permission_denied(request, exception=None):
    if _is_api(request):
        return _json(_("You do not have permission to do that."), 403)
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception=None):
    if _is_api(request):
        return _json(_("Not found."), 404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    if _is_api(request):
        return _json(_("Something went wrong on the server. Nothing was changed by this request."), 500)
    return defaults.server_error(request)
