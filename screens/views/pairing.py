"""Pairing a screen: a code typed or scanned, or a demo link, becomes the device's cookie."""

from __future__ import annotations

from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext as _

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


def pair(request, code: str = ""):
    """A screen enters (or scans) a pairing code and becomes a paired device."""
    error = None
    if request.method == "POST":
        code = request.POST.get("code", "")
        try:
            device, token = redeem_pairing_code(code, label=request.POST.get("label", ""))
        except PairingError as exc:
            error = exc.message
        else:
            return _set_device_cookie(HttpResponseRedirect(device.screen_path()), request, device, token)
    return render(request, "pair.html", {"code": code, "error": error}, status=400 if error else 200)


def demo_screen(request, token: str):
    """Demo links (``serve --demo``): a demo device's token opens its screen already paired."""
    device = device_for_token(token)
    if device is None or not device.is_demo:
        raise Http404(_("This demo link is not valid (or the device was revoked)."))
    return _set_device_cookie(HttpResponseRedirect(device.screen_path()), request, device, token)
