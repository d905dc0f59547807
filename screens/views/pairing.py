"""Pairing a screen: a code typed or scanned, or a demo link, becomes the device's cookie."""

from __future__ import annotations

from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext as _

from config import throttling

from ..models import Device
from ..pairing import PairingError, device_for_token, redeem_pairing_code

DEVICE_COOKIE_MAX_AGE = 365 * 24 * 3600


def _set_device_cookie(response, request, device: Device, token: str):
    response.set_cookie(
        device.cookie_name,
        token,
        max_age=DEVICE_COOKIE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


# docs/api-errors.md: a code that is not 8 letters and digits (or a bad screen name) is malformed
# (400), a code of no pairing 404, a code already used or expired a conflict with its state (409).
PAIRING_STATUS = {
    "bad_code": 400,
    "bad_label": 400,
    "unknown_code": 404,
    "used_code": 409,
    "expired_code": 409,
    "bad_language": 400,
}


def pair(request, code: str = ""):
    """A screen enters (or scans) a pairing code and becomes a paired device. Tries are limited per
    address (``THROTTLE_RATES["pairing"]``): past it, 429 with Retry-After and no code is looked at."""
    error = None
    status = 200
    wait = None
    if request.method == "POST":
        code = request.POST.get("code", "")[:32]
        wait = throttling.take("pairing", throttling.client_ip(request), throttling.rate_for("pairing"))
        if wait is not None:
            error = _("Too many pairing attempts from this screen: try again in %(seconds)s s.") % {
                "seconds": wait
            }
            status = 429
        else:
            try:
                device, token = redeem_pairing_code(
                    code, label=request.POST.get("label", ""), language=request.POST.get("language", "")[:10]
                )
            except PairingError as exc:
                error = exc.message
                status = PAIRING_STATUS.get(exc.code, 400)
            else:
                return _set_device_cookie(HttpResponseRedirect(device.screen_path()), request, device, token)
    response = render(request, "pair.html", {"code": code, "error": error}, status=status)
    if wait is not None:
        response["Retry-After"] = str(wait)
    return response


def demo_screen(request, token: str):
    """Demo links (``serve --demo``): a demo device's token opens its screen already paired."""
    device = device_for_token(token)
    if device is None or not device.is_demo:
        raise Http404(_("This demo link is not valid (or the device was revoked)."))
    return _set_device_cookie(HttpResponseRedirect(device.screen_path()), request, device, token)
