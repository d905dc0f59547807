"""What every page's template may ask of the signed-in user: which console areas its role opens."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from .roles import capabilities_of


def capabilities(request):
    """``{% if can.seating %}``: evaluated only by pages that ask (one query for the user's groups)."""
    return {"can": SimpleLazyObject(lambda: capabilities_of(getattr(request, "user", None)))}
