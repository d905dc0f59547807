"""``{% languages_in_their_own_names as LANGUAGES %}``: the available languages as (code, name in that
language) pairs, for every language select (a screen's, a staff member's).

Django's ``get_language_info`` per option cost the console's page about 5 ms at 17 devices listed,
each with its own select; the names do not depend on the active language, so they are worked out
once per process."""

import functools

from django import template
from django.conf import settings
from django.utils.translation import get_language_info

register = template.Library()


@register.simple_tag
def languages_in_their_own_names() -> tuple[tuple[str, str], ...]:
    return _languages(tuple(code for code, _name in settings.LANGUAGES))


@functools.cache
def _languages(codes: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((code, get_language_info(code)["name_local"]) for code in codes)
