"""What every console page shares: the staff check, and a service's refusal as one line of text."""

from __future__ import annotations

from django.contrib.auth.decorators import user_passes_test
from django.core.exceptions import ValidationError

from config.permissions import is_staff

# The console is for active staff; anyone else is sent to the sign-in page.
staff_member_required = user_passes_test(is_staff, login_url="login")


def error_text(exc) -> str:
    if isinstance(exc, ValidationError):
        if hasattr(exc, "error_dict"):
            return "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())
        return " ".join(exc.messages)
    return str(getattr(exc, "message", None) or exc)
