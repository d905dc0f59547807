"""The clock screen a room sees (a paired clock device or staff), and the site's home page."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from config.permissions import is_staff
from tournaments.models import Tournament

from ..models import DeviceKind
from ..pairing import device_from_cookies


def clock_labels() -> dict:
    """Everything the clock script writes on screen, translated."""
    return {
        "level": _("Level"),
        "break": _("Break"),
        "blinds": _("Blinds"),
        "ante": _("Ante"),
        "bb_ante": _("BB ante"),
        "bets": _("Bets"),
        "next": _("Next"),
        "next_break": _("Next break in"),
        "players": _("Players"),
        "entries": _("Entries"),
        "average": _("Average stack"),
        "pool": _("Prize pool"),
        "paused": _("PAUSED"),
        "not_started": _("Starting soon"),
        "last_level": _("Last level"),
        "color_up": _("Color-up: %(chips)s chips leave play"),
        "chip_race": _("Chip race at the end of the break"),
        "race_result": _("Chip race won by: %(winners)s"),
        "table": _("Table"),
        "hand_for_hand": _("HAND FOR HAND"),
        "seed_commitment": _("Seed commitment"),
        "offline": _("Reconnecting…"),
        "revoked": _("This screen was unpaired by the director."),
        "unauthorized": _("This screen is not paired."),
        "payouts": _("Payouts"),
        "sound_on": _("Tap to turn sound on"),
    }


def home(request):
    if is_staff(request.user):
        return redirect("console-list")
    return render(request, "home.html")


def clock_screen(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    device = device_from_cookies(request.COOKIES, DeviceKind.CLOCK, tournament.pk)
    if device is None and not is_staff(request.user):
        return render(
            request, "pair.html", {"reason": _("This screen is not paired for this tournament.")}, status=403
        )
    return render(
        request,
        "clock.html",
        {
            "tournament": tournament,
            "ws_path": f"/ws/tournaments/{tournament.pk}/clock/",
            "labels": clock_labels(),
        },
    )
