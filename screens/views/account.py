"""The signed-in staff member's own settings: the console's language, kept on the account."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..staff_language import set_staff_language
from .staff import console_can
from .staff import error_text as _error_text


@console_can("view")
@require_POST
def staff_language(request):
    """The language picked in the header's form; the page it came from comes back in it."""
    target = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        target = reverse("console-list")
    try:
        language = set_staff_language(request.user, request.POST.get("language", ""))
    except ValidationError as exc:  # only a hand-made post: the form offers the languages alone
        return HttpResponseBadRequest(_error_text(exc), content_type="text/plain; charset=utf-8")
    # The confirmation is said in the language just chosen.
    with translation.override(language or translation.get_language_from_request(request)):
        messages.success(request, _("The console speaks your language now."))
    return redirect(target)
