"""What every page's template may ask of the signed-in user: which console areas its role opens."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from .roles import capabilities_of, opens_console


def capabilities(request):
    """``{% if can.seating %}``: evaluated only by pages that ask (one query for the user's groups);
    ``can.console`` says whether the tournament console is this user's page (the desk's is the desk)."""

    def answers():
        user = getattr(request, "user", None)
        return {**capabilities_of(user), "console": opens_console(user)}

    return {"can": SimpleLazyObject(answers)}
