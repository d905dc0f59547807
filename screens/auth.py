"""DRF authentication for paired devices: ``Authorization: Device <token>``.

``request.user`` becomes the device's service account (never staff) and ``request.auth`` the Device,
which answers ``may_operate_table(table_id)`` for the permission checks of other apps.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from .models import Device
from .pairing import TOKEN_HEADER_KEYWORD, device_for_token


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
