"""The players' page (public, phone-sized): ``/p/<tournament>/``.

The page itself is the same for everyone of a language (labels only, cached a minute); its data is
``data.json``, one encoded snapshot per tournament version (``screens.player_page``) with an ETag:
a phone that already has this version gets 304 after one indexed read of the version. Finding a
seat asks ``seat/?name=`` which searches the same snapshot's index.
"""

from __future__ import annotations

import json

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.models import Tournament

from .. import player_page as pages
from .. import snapshots
from .clock import clock_labels

# Phones may keep a snapshot 5 s without asking; after that they ask with If-None-Match.
DATA_CACHE = "public, max-age=5, stale-while-revalidate=30"
PAGE_CACHE = "public, max-age=60"
SEARCH_MAX = 64


def player_labels() -> dict:
    return {
        **clock_labels(),
        "find_seat": _("Find my seat"),
        "flight_survivors": _("%(players)s players"),
        "your_name": _("Your name"),
        "no_match": _("No player of that name"),
        "seat_at": _("Table %(table)s, seat %(seat)s"),
        "not_seated": _("Not seated yet"),
        "busted_place": _("Finished %(place)s."),
        "type_more": _("Type at least two letters"),
        "structure": _("Structure"),
        "level_col": _("Level"),
        "minutes": _("Min"),
        "updated": _("Updated %(time)s"),
        "players_left": _("Players left"),
        "status_registering": _("Registration open"),
        "status_planned": _("Planned"),
        "status_running": _("Running"),
        "status_on_break": _("On break"),
        "status_finished": _("Finished"),
    }


def _snapshot(tournament_id: int) -> pages.PlayerSnapshot:
    try:
        return pages.snapshot(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(_("No such tournament.")) from None


@require_GET
def player_page_view(request, tournament_id: int):
    tournament = Tournament.objects.filter(pk=tournament_id).only("pk", "name").first()
    if tournament is None:
        raise Http404(_("No such tournament."))
    response = render(request, "player.html", {"tournament": tournament, "labels": player_labels()})
    response["Cache-Control"] = PAGE_CACHE
    return response


def _matches(request, etag: str) -> bool:
    sent = request.headers.get("If-None-Match", "")
    return any(tag.strip().removeprefix("W/") == etag for tag in sent.split(",")) or sent.strip() == "*"


def _cached(response, snap, cache=DATA_CACHE):
    response["ETag"] = snap.etag
    response["Cache-Control"] = cache
    # The page counts the clock down from the server's time, as the clock screens do.
    response["X-Server-Time"] = str(snapshots.server_time_ms())
    return response


@require_GET
def player_data(request, tournament_id: int):
    snap = _snapshot(tournament_id)
    if _matches(request, snap.etag):
        return _cached(HttpResponse(status=304), snap)
    return _cached(HttpResponse(snap.text, content_type="application/json"), snap)


@require_GET
def find_seat(request, tournament_id: int):
    name = request.GET.get("name", "")
    if len(name) > SEARCH_MAX:
        return JsonResponse({"detail": _("A name has at most 64 characters.")}, status=400)
    snap = _snapshot(tournament_id)
    if len(name.strip()) < 2:
        return JsonResponse({"detail": _("Type at least two letters of the name.")}, status=400)
    body = json.dumps({"version": snap.version, "results": pages.find_seats(snap, name)})
    return _cached(HttpResponse(body, content_type="application/json"), snap, "public, max-age=10")
