"""DRF authentication for paired devices.

- ``Authorization: Device <token>`` (``DeviceTokenAuthentication``): API clients holding a token.
- The tablet page's own requests (``DeviceCookieAuthentication``): the HttpOnly device cookie set at
  pairing, named by the ``X-Device-Table`` header, with Django's CSRF check as for a session, so
  the page never holds the token and another site cannot act with the cookie.

``request.user`` becomes the device's service account (never staff) and ``request.auth`` the Device,
which answers ``may_operate_table(table_id)`` for the permission checks of other apps.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from config.converters import whole_number

from .models import Device, DeviceKind, device_cookie_name
from .pairing import TOKEN_HEADER_KEYWORD, device_for_token, device_from_cookies


class DeviceTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Device <token>``. A revoked or unknown token is refused (401)."""

    keyword = TOKEN_HEADER_KEYWORD

    def authenticate(self, request):
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(_("The device token header needs exactly one token."))
        device = device_for_token(parts[1].decode(errors="ignore"), touch=True)
        if device is None or device.user is None or not device.user.is_active:
            raise exceptions.AuthenticationFailed(
                _("This device is not paired or has been revoked. Pair it again.")
            )
        # request.user is the device's service account (never staff); request.auth is the Device.
        return device.user, device

    def authenticate_header(self, request):
        return self.keyword


DEVICE_TABLE_HEADER = "X-Device-Table"


class DeviceCookieAuthentication(authentication.SessionAuthentication):
    """The dealer tablet page: the device cookie of the table named by ``X-Device-Table``.

    No header or no cookie: not this scheme (None). A cookie that is unknown or revoked: 401. A valid
    cookie: the request must pass Django's CSRF check (403 otherwise), exactly as a session must."""

    def authenticate(self, request):
        table = request.headers.get(DEVICE_TABLE_HEADER)
        if table is None:
            return None
        table_id = whole_number(table, minimum=1)
        if table_id is None or device_cookie_name(DeviceKind.TABLET, table_id) not in request.COOKIES:
            return None
        device = device_from_cookies(request.COOKIES, DeviceKind.TABLET, table_id)
        if device is None or device.user is None or not device.user.is_active:
            raise exceptions.AuthenticationFailed(
                _("This device is not paired or has been revoked. Pair it again.")
            )
        self.enforce_csrf(request)
        return device.user, device

    def authenticate_header(self, request):
        return TOKEN_HEADER_KEYWORD


class DeviceCookieScheme(OpenApiAuthenticationExtension):
    """Documents the tablet page's cookie authentication in the OpenAPI schema."""

    target_class = "screens.auth.DeviceCookieAuthentication"
    name = "deviceCookie"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": "dev_t<table id>",
            "description": str(
                _(
                    "The tablet page: its HttpOnly device cookie, with the X-Device-Table header naming "
                    "the table and Django's CSRF token in X-CSRFToken."
                )
            ),
        }


class DeviceTokenScheme(OpenApiAuthenticationExtension):
    """Documents the device token in the OpenAPI schema."""

    target_class = "screens.auth.DeviceTokenAuthentication"
    name = "deviceToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": str(_('A paired dealer tablet: "Device <token>". Revoked tokens are refused.')),
        }


def request_device(request) -> Device | None:
    device = getattr(request, "auth", None)
    return device if isinstance(device, Device) else None


def actor_and_device(request) -> tuple[object | None, str]:
    """(the user, or None, and the device label or "") to record who acted."""
    device = request_device(request)
    user = getattr(request, "user", None)
    return (user if getattr(user, "is_authenticated", False) else None), (device.label if device else "")
