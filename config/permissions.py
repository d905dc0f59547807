"""The one staff check, the roles' capabilities, and the API permission built on them (a leaf: it
imports no app).

Staff are the tournament's people: director, floor, registration desk and dealers signed in with a
password. Paired devices act through service accounts that are never staff. What each role may do is
``config.roles.CAPABILITIES``; ``may`` answers from it for the console and every API alike.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from . import roles


def is_staff(user) -> bool:
    """An active, signed-in member of the tournament staff."""
    return bool(user is not None and user.is_authenticated and user.is_active and user.is_staff)


def roles_of(user) -> set[str]:
    """The console roles of a staff user (empty for anyone else)."""
    if not is_staff(user):
        return set()
    cached = getattr(user, "_console_roles", None)
    if cached is None:
        names = {name for name in user.groups.values_list("name", flat=True) if name in roles.STAFF}
        if user.is_superuser or not names:
            names.add(roles.DIRECTOR)
        cached = user._console_roles = frozenset(names)
    return set(cached)


def may(user, capability: str) -> bool:
    """Whether this user's role may use that console area or API write (``roles.CAPABILITIES``)."""
    return bool(roles_of(user) & roles.CAPABILITIES[capability])


def capabilities_of(user) -> dict[str, bool]:
    """Every capability's answer for this user, for templates (``{% if can.seating %}``)."""
    mine = roles_of(user)
    return {name: bool(mine & allowed) for name, allowed in roles.CAPABILITIES.items()}


def refusal(user, capability: str) -> str:
    """What a refused staff member reads: their role, what it may not do, and who may."""
    mine = sorted(str(roles.ROLE_LABELS[name]) for name in roles_of(user))
    allowed = sorted(str(roles.ROLE_LABELS[name]) for name in roles.CAPABILITIES[capability])
    return _("Your role (%(role)s) may not %(what)s: that is for %(allowed)s.") % {
        "role": ", ".join(mine),
        "what": roles.CAPABILITY_LABELS[capability],
        "allowed": ", ".join(allowed),
    }


def write_capability(request, view) -> str:
    """The capability a write needs: the view's ``write_capabilities`` by action (a viewset's action
    name, else the HTTP method), else its ``write_capability``. A write that names none is for the
    director alone, so a new endpoint is never open to every role by accident."""
    key = getattr(view, "action", None) or request.method.lower()
    return (
        getattr(view, "write_capabilities", {}).get(key) or getattr(view, "write_capability", None) or "setup"
    )


class IsStaffOrReadOnly(BasePermission):
    """Anyone may read; a write needs staff whose role has the write's capability (403 says which)."""

    def has_permission(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        if not is_staff(request.user):
            return False
        capability = write_capability(request, view)
        if may(request.user, capability):
            return True
        # DRF makes the permission anew for each request: the message is this refusal's own.
        self.message = refusal(request.user, capability)
        return False
