"""Small console actions on paired screens that the console's main views do not hold: a screen's
language (its form is in the devices list of templates/console/tournament.html)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import Tournament

from ..models import Device
from ..pairing import PairingError, set_device_language
from .staff import console_can

# Only a forged form can send these: 400 for a language not offered, 409 for a revoked screen.
LANGUAGE_STATUS = {"bad_language": 400, "revoked": 409}


@console_can("devices")
@require_POST
def device_language(request, tournament_id: int, device_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    device = get_object_or_404(Device, pk=device_id, tournament=tournament)
    try:
        device = set_device_language(device, request.POST.get("language", "")[:10], actor=request.user)
    except PairingError as exc:
        return HttpResponse(
            str(exc.message), status=LANGUAGE_STATUS.get(exc.code, 400), content_type="text/plain"
        )
    messages.success(
        request,
        _("%(device)s will show its screen in the chosen language from its next load.")
        % {"device": device.label},
    )
    return redirect(reverse("console", args=[tournament.pk]) + "#devices")
