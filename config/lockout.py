"""Sign-in lockout: repeated wrong passwords lock a username at an address, and an address, for a while.

- ``LockoutModelBackend`` (``AUTHENTICATION_BACKENDS``): counts each failed sign-in under the
  username and the client's address, and the address alone; once either is locked it refuses at
  once, without hashing the password (a locked-out guesser costs the server nothing). A success
  clears the username's count at that address.
- ``LoginLockoutMiddleware``: a sign-in form posted while locked is answered 429 with
  ``Retry-After`` (the console's /login/ and the admin's), before any view runs.

Limits (settings): ``LOGIN_FAILURES_PER_USER_AND_IP`` (5) and ``LOGIN_FAILURES_PER_IP`` (30) within
``LOGIN_LOCKOUT_SECONDS`` (15 min). Counts are in the cache: Redis in production, so every web server
counts together (``config.throttling``). A leaf: it imports no app.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.utils.translation import gettext as _

from config import throttling

USER_AND_IP = "login-user-ip"
IP = "login-ip"


def _limits() -> tuple[int, int, int]:
    return (
        settings.LOGIN_FAILURES_PER_USER_AND_IP,
        settings.LOGIN_FAILURES_PER_IP,
        settings.LOGIN_LOCKOUT_SECONDS,
    )


def _user_key(username: str | None, ip: str) -> str:
    return f"{(username or '').strip().casefold()}|{ip}"


def locked_for(request, username: str | None) -> int | None:
    """Seconds until ``username`` may try to sign in again from this request's address, or None."""
    per_user, per_ip, seconds = _limits()
    ip = throttling.client_ip(request) if request is not None else ""
    waits = [
        throttling.blocked_for(USER_AND_IP, _user_key(username, ip), per_user, seconds),
        throttling.blocked_for(IP, ip, per_ip, seconds),
    ]
    waits = [w for w in waits if w is not None]
    return max(waits) if waits else None


def record_failure(request, username: str | None) -> None:
    per_user, per_ip, seconds = _limits()
    ip = throttling.client_ip(request) if request is not None else ""
    throttling.hit(USER_AND_IP, _user_key(username, ip), seconds, per_user)
    throttling.hit(IP, ip, seconds, per_ip)


def record_success(request, username: str | None) -> None:
    ip = throttling.client_ip(request) if request is not None else ""
    throttling.reset(USER_AND_IP, _user_key(username, ip))


class LockoutModelBackend(ModelBackend):
    """Django's model backend behind the lockout."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        if locked_for(request, username) is not None:
            # Stops authenticate() for every backend, before any password is hashed.
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            record_failure(request, username)
        else:
            record_success(request, username)
        return user


class LoginLockoutMiddleware:
    """A sign-in form posted while locked out: 429 with Retry-After, the form and the wait shown."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and request.path in settings.LOGIN_PATHS:
            wait = locked_for(request, request.POST.get("username", ""))
            if wait is not None:
                minutes = max(1, (wait + 59) // 60)
                response = render(
                    request,
                    "login.html",
                    {
                        "locked": _(
                            "Too many failed sign-ins: try again in %(minutes)s min. Nothing was checked."
                        )
                        % {"minutes": minutes}
                    },
                    status=429,
                )
                response["Retry-After"] = str(wait)
                return response
        return self.get_response(request)
