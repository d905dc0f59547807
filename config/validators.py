"""Django validators for typed text (``config.text``), with messages in the reader's language.

Used by the models (admin forms), the API serializers and the console's views, so a bad name is
refused the same way everywhere (400 in the API). A leaf: it imports no app.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from config import text

MESSAGES = {
    "control": _("Control characters (such as a new line or a tab, here %(character)s) are not allowed."),
    "bidi": _(
        "Bidirectional formatting characters (which reorder text on screen, here %(character)s) are not allowed."
    ),
    "invisible": _("Invisible characters (such as a zero-width space, here %(character)s) are not allowed."),
    "blank": _("Give the player's name."),
    "too_long": _("At most %(max_length)s characters (this one has %(length)s)."),
}


def problem_message(problem: text.TextProblem) -> str:
    template = MESSAGES.get(problem.code)
    if template is None:
        return str(problem)
    try:
        return str(template) % problem.params
    except (KeyError, TypeError, ValueError):
        return str(problem)


def as_validation_error(problem: text.TextProblem) -> ValidationError:
    return ValidationError(problem_message(problem), code=problem.code)


def validate_line(value: str) -> None:
    """A one-line text (a label, a reason, a tournament's name): no control, bidi or invisible
    characters."""
    try:
        text.check_line(value)
    except text.TextProblem as problem:
        raise as_validation_error(problem) from None


def validate_player_name(value: str) -> None:
    """A player's name: 1 to 64 characters once normalised, no control, bidi or invisible characters."""
    try:
        text.clean_name(value)
    except text.TextProblem as problem:
        raise as_validation_error(problem) from None


def clean_player_name(value: str) -> str:
    """The name as stored (``config.text.clean_name``), or ValidationError naming the problem."""
    try:
        return text.clean_name(value)
    except text.TextProblem as problem:
        raise as_validation_error(problem) from None
