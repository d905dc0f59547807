"""What every console page shares: the staff check, and a service's refusal as one line of text."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import user_passes_test
from django.core.exceptions import PermissionDenied, ValidationError

from config.locks import gives_way
from config.permissions import is_staff

from ..roles import CAPABILITIES, may, refusal

# The console is for active staff; anyone else is sent to the sign-in page.
staff_member_required = user_passes_test(is_staff, login_url="login")


def console_can(capability: str):
    """Staff whose role opens this console area (``screens.roles.CAPABILITIES``); other staff get 403
    with a page saying what their role may not do, and anyone else the sign-in page."""
    if capability not in CAPABILITIES:
        raise ValueError(f"No such console capability: {capability!r}")

    def decorate(view):
        @staff_member_required
        @wraps(view)
        def checked(request, *args, **kwargs):
            if not may(request.user, capability):
                raise PermissionDenied(refusal(request.user, capability))
            return view(request, *args, **kwargs)

        # Read by the test that walks every console URL: each view says which area it belongs to.
        checked.console_capability = capability
        # An action is one transaction, run again when it gave way to a dealer's hand end in a lock
        # cycle (config.locks.GiveWayMiddleware): the director's click goes through instead of a 503.
        return gives_way(checked)

    return decorate


def error_text(exc) -> str:
    if isinstance(exc, ValidationError):
        if hasattr(exc, "error_dict"):
            return "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())
        return " ".join(exc.messages)
    return str(getattr(exc, "message", None) or exc)
