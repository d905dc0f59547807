"""Each staff member's console language, kept on their account (``StaffLanguage``): the one place that
sets it, and the middleware that speaks it on that user's pages."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from config.permissions import is_staff

from .models import StaffLanguage


@transaction.atomic
def set_staff_language(user, language: str) -> str:
    """Keep ``language`` (a code of settings.LANGUAGES) for this staff user; "" goes back to the
    browser's language. Returns the code kept."""
    if not is_staff(user):
        raise ValidationError({"language": _("Only staff choose a console language.")})
    language = (language or "").strip()
    if not language:
        StaffLanguage.objects.filter(user=user).delete()
        return ""
    if language not in dict(settings.LANGUAGES):
        raise ValidationError(
            {
                "language": _("Choose one of the languages: %(codes)s.")
                % {"codes": ", ".join(code for code, _name in settings.LANGUAGES)}
            }
        )
    StaffLanguage.objects.update_or_create(user=user, defaults={"language": language})
    return language


def staff_language_of(user) -> str:
    """The language this user chose, or "" (the browser's)."""
    if not is_staff(user):
        return ""
    return StaffLanguage.objects.filter(user=user).values_list("language", flat=True).first() or ""


class StaffLanguageMiddleware:
    """After sign-in is known: a staff member's own language wins over the browser's (LocaleMiddleware
    has already picked that one). Requests without a session (screens, tablets, the API's tokens) are
    not looked at."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.staff_language = ""
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            language = staff_language_of(getattr(request, "user", None))
            if language:
                request.staff_language = language
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
