"""The language selects of screens and staff.

``{% languages_in_their_own_names as LANGUAGES %}``: the available languages as (code, name in that
language) pairs. Django's ``get_language_info`` per option cost the console's page about 5 ms at 17
devices listed, each with its own select; the names do not depend on the active language, so they are
worked out once per process.

``{% screen_language_options selected %}``: a screen's select's options, the one it uses selected. The
console lists up to 40 devices, each with this select: rendered by the template loop, their options
were about 4 ms of the page at a big event. They depend only on the page's language and the selected
code, so each pair is rendered once per process."""

import functools

from django import template
from django.conf import settings
from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language, get_language_info, gettext

register = template.Library()


def _codes() -> tuple[str, ...]:
    return tuple(code for code, _name in settings.LANGUAGES)


@register.simple_tag
def languages_in_their_own_names() -> tuple[tuple[str, str], ...]:
    return _languages(_codes())


@register.simple_tag
def screen_language_options(selected: str | None) -> str:
    return _screen_options(get_language(), _codes(), selected or "")


@functools.cache
def _languages(codes: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((code, get_language_info(code)["name_local"]) for code in codes)


@functools.lru_cache(maxsize=256)
def _screen_options(page_language: str | None, codes: tuple[str, ...], selected: str) -> str:
    """The options for ``selected`` on a page in ``page_language`` (its first option is in it)."""
    # The browser's language: a screen that follows what its browser asks for.
    first = format_html(
        '<option value=""{}>{}</option>',
        " selected" if not selected else "",
        gettext("The browser's language"),
    )
    rest = format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((code, " selected" if code == selected else "", name) for code, name in _languages(codes)),
    )
    return first + rest
