"""The clock screen a room sees (a paired clock device or staff), and the site's home page."""

from __future__ import annotations

import segno
from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from config.permissions import is_staff
from tournaments.models import Tournament

from .. import seating_chart
from ..models import DeviceKind
from ..pairing import device_from_cookies


def clock_labels() -> dict:
    """Everything the clock script writes on screen, translated."""
    return {
        "level": _("Level"),
        # A flight of a multi-day event (docs/festivals.md): the event's totals across its flights.
        "flight_label": _("%(flight)s · %(event)s"),
        "flight_line": _("%(left)s left of %(entries)s entries across the event"),
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
        "no_payouts": _("No prize pool yet"),
        "registering": _("Registration open"),
        "late_reg": _("Late registration"),
        "late_reg_open": _("Open until the end of level %(level)s"),
        "late_reg_closes_in": _("Closes in %(time)s"),
        "late_reg_closed": _("Closed"),
        "reentries": _("Re-entries"),
        "chips_in_play": _("Chips in play"),
        "time_of_day": _("Time"),
        "recent_moves": _("Seat moves"),
        "move_line": _(
            "%(name)s: table %(from_table)s seat %(from_seat)s → table %(to_table)s seat %(to_seat)s"
        ),
        "seat_line": _("%(name)s: table %(to_table)s seat %(to_seat)s"),
        "no_moves": _("No seat moves yet"),
        "schedule": _("Blind schedule"),
        "chip_leaders": _("Chip leaders"),
        "final_table": _("FINAL TABLE"),
        "finished": _("Tournament over"),
        "winner": _("Winner"),
        "places_paid": _("Places paid"),
        "hfh_round": _("Hand %(round)s"),
        "hfh_taken": _("%(time)s taken off the clock"),
        "hfh_note": _("Every table plays one hand, then waits for the others"),
        "last_minute": _("LAST MINUTE"),
        "level_up": _("Blinds up!"),
        "tables_left": _("Tables"),
        "scan": _("Your seat, the payouts and the clock on your phone"),
        "game_courchevel": _("Courchevel"),
        "game_courchevel_hilo": _("Courchevel Hi/Lo"),
        "betting_fixed_limit": _("Fixed Limit"),
        "betting_pot_limit": _("Pot Limit"),
        "betting_no_limit": _("No Limit"),
        "seating_chart": _("Seating chart"),
        "seat": _("Seat"),
        "chart_page": _("Page %(page)s of %(pages)s"),
        "chart_legend": _("Table · seat"),
        "chart_players": _("%(players)s players seated"),
    }


def player_page_qr(request, tournament_id: int) -> tuple[str, str]:
    """The players' page's address and its QR code as inline SVG (nothing from another host)."""
    url = request.build_absolute_uri(reverse("player-page", args=[tournament_id]))
    return url, segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff", border=2)


def screen_language(request, devices) -> str | None:
    """A clock screen speaks its device's language (set at pairing or in the console); staff, and
    a device with no language, their browser's (Django's LocaleMiddleware)."""
    choices = {code for code, _name in settings.LANGUAGES}
    for device in devices:
        if device is not None and device.language in choices:
            return device.language
    return None


def home(request):
    if is_staff(request.user):
        return redirect("console-list")
    return render(request, "home.html")


PANELS = ("payouts", "schedule", "moves", "leaders", "late", "time")
MAX_FESTIVAL = 4


def _options(request) -> dict:
    """Kiosk mode (sound without a tap, no hint) and the side panels the director picked
    (``?panels=payouts,schedule``; by default every panel that has something to show, in turn)."""
    picked = [p for p in request.GET.get("panels", "").split(",") if p in PANELS]
    return {
        "kiosk": request.GET.get("kiosk") in ("1", "true", "yes"),
        "panels": ",".join(picked or PANELS),
    }


def _not_paired(request):
    return render(
        request, "pair.html", {"reason": _("This screen is not paired for this tournament.")}, status=403
    )


def _render_in(language: str | None, request, template: str, context: dict):
    if language is None:
        return render(request, template, context)
    with translation.override(language):
        response = render(request, template, {**context, "labels": clock_labels()})
    response.headers["Content-Language"] = language
    return response


def clock_screen(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    device = device_from_cookies(request.COOKIES, DeviceKind.CLOCK, tournament.pk)
    if device is None and not is_staff(request.user):
        return _not_paired(request)
    url, qr = player_page_qr(request, tournament.pk)
    context = {
        "tournament": tournament,
        "chart_url": reverse("clock-seating-chart", args=[tournament.pk]),
        "ws_path": f"/ws/tournaments/{tournament.pk}/clock/",
        "labels": clock_labels(),
        "player_url": url,
        "qr": qr,
        **_options(request),
    }
    return _render_in(screen_language(request, [device]), request, "clock.html", context)


def festival_screen(request):
    """Several tournaments on one screen (a festival's flights side by side): ``?t=4&t=5``. The
    screen must be paired for every one of them (or be staff)."""
    ids = []
    for raw in request.GET.getlist("t")[:MAX_FESTIVAL]:
        if raw.isascii() and raw.isdigit() and int(raw) not in ids and int(raw) < 2**63:
            ids.append(int(raw))
    tournaments = list(Tournament.objects.filter(pk__in=ids))
    if not tournaments:
        raise Http404(_("Name the tournaments to show: ?t=<id>&t=<id>."))
    tournaments.sort(key=lambda t: ids.index(t.pk))
    devices = [device_from_cookies(request.COOKIES, DeviceKind.CLOCK, t.pk) for t in tournaments]
    if not is_staff(request.user) and any(d is None for d in devices):
        return _not_paired(request)
    screens = []
    for t in tournaments:
        url, qr = player_page_qr(request, t.pk)
        screens.append(
            {"tournament": t, "ws_path": f"/ws/tournaments/{t.pk}/clock/", "qr": qr, "player_url": url}
        )
    context = {"screens": screens, "labels": clock_labels(), **_options(request)}
    return _render_in(screen_language(request, devices), request, "clock_festival.html", context)


CHART_CACHE = "private, no-cache"


def seating_chart_page(request, tournament_id: int):
    """One page of the seating chart a clock screen shows while the director has it on (JSON:
    ``rows`` of [name, table, seat], alphabetical). For the tournament's paired clock screens and
    staff; 409 while the chart is off; ``?page=`` from 1; an ETag per version and page."""
    tournament = Tournament.objects.filter(pk=tournament_id).only("pk").first()
    if tournament is None:
        raise Http404(_("No such tournament."))
    device = device_from_cookies(request.COOKIES, DeviceKind.CLOCK, tournament.pk)
    if device is None and not is_staff(request.user):
        return JsonResponse({"detail": _("This screen is not paired for this tournament.")}, status=403)
    raw = request.GET.get("page", "1")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6 and int(raw) >= 1):
        return JsonResponse({"detail": _("A page is a whole number from 1.")}, status=400)
    if not seating_chart.chart_on(tournament.pk):
        return JsonResponse({"detail": _("The seating chart is not on the clock screens.")}, status=409)
    chart = seating_chart.chart(tournament.pk)
    index = int(raw) - 1
    if index >= len(chart.pages):
        return JsonResponse(
            {"detail": _("The chart has %(pages)s pages.") % {"pages": len(chart.pages)}}, status=404
        )
    etag = chart.etags[index]
    sent = request.headers.get("If-None-Match", "")
    response = (
        HttpResponse(status=304)
        if etag in [tag.strip().removeprefix("W/") for tag in sent.split(",")]
        else HttpResponse(chart.pages[index], content_type="application/json")
    )
    response["ETag"] = etag
    response["Cache-Control"] = CHART_CACHE
    return response
