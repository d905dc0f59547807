"""The registration desk: find a player by name, register, re-enter, rebuy, add-on, void, and answer
with the table and seat (and a seat card to print). The entries table shows where everyone is.

Names are matched with case, accents and spacing ignored (``Player.objects.matching``): "ana lima"
is Ana Lima, and the existing player is offered first. Every change is a service call; a refusal
is said in a message and changes nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config import text
from tables import services as tables_services
from tables.models import Seat
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Alternate, Entry, Player, Tournament

from .staff import console_can
from .staff import error_text as _error_text

FILTERS = ("all", "in", "out", "unseated")


def _seats(tournament: Tournament) -> dict[int, Seat]:
    return {
        seat.entry_id: seat
        for seat in Seat.objects.filter(table__tournament=tournament, entry__isnull=False).select_related(
            "table"
        )
    }


def seat_phrase(entry: Entry, seat: Seat | None) -> str:
    if seat is None:
        return _("%(name)s is registered: the seat comes with the draw.") % {"name": entry}
    return _("%(name)s is registered: table %(table)s, seat %(seat)s") % {
        "name": entry,
        "table": seat.table.number,
        "seat": seat.number,
    }


def matches(tournament: Tournament, query: str, limit: int = 8) -> list[dict]:
    """Players whose name matches ``query``, the same player (name key) first, then names containing it;
    each with what can be done for them here now."""
    key = text.name_key(query or "")
    if not key:
        return []
    exact = list(Player.objects.matching(query)[:1])
    others = list(
        Player.objects.filter(name_key__contains=key)
        .exclude(pk__in=[p.pk for p in exact])
        .order_by("name")[:limit]
    )
    players = exact + others
    entries = {}
    for entry in tournament.entries.filter(player__in=players).order_by("number"):
        entries[entry.player_id] = entry  # the latest entry of each player
    seats = _seats(tournament)
    return [
        {
            "player": player,
            "same": i == 0 and bool(exact),
            "entry": entries.get(player.pk),
            "seat": seats.get(entries[player.pk].pk) if player.pk in entries else None,
        }
        for i, player in enumerate(players)
    ]


def _entry_rows(tournament: Tournament, chosen: str, query: str) -> list[dict]:
    seats = _seats(tournament)
    entries = tournament.entries.select_related("player").order_by("player__name", "number")
    key = text.name_key(query or "")
    rows = []
    for entry in entries:
        seat = seats.get(entry.pk)
        active = entry.status == Entry.Status.ACTIVE
        if chosen == "in" and not active:
            continue
        if chosen == "out" and active:
            continue
        if chosen == "unseated" and (seat is not None or not active):
            continue
        if key and key not in entry.player.name_key:
            continue
        rows.append({"entry": entry, "seat": seat, "active": active})
    rows.sort(
        key=lambda r: (
            not r["active"],
            r["seat"].table.number if r["seat"] else 0,
            r["seat"].number if r["seat"] else 0,
            r["entry"].place or 0,
        )
    )
    return rows


DESK_PAGE = 100


@console_can("view")
def desk(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    chosen = request.GET.get("show", "all")
    chosen = chosen if chosen in FILTERS else "all"
    query = request.GET.get("q", "")[:100]
    last = None
    last_id = request.GET.get("entry", "")
    if last_id.isascii() and last_id.isdigit() and len(last_id) <= 18:
        last = tournament.entries.select_related("player").filter(pk=last_id).first()
    # 100 a page: a 10,000-entry field is not one page of forms.
    page = Paginator(_entry_rows(tournament, chosen, query), DESK_PAGE).get_page(request.GET.get("page"))
    players_in = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    context = {
        "tournament": tournament,
        "alternates": list(services.waiting_alternates(tournament)),
        "room": tournament.max_players is None or players_in < tournament.max_players,
        "offer": _alternate_offer(request),
        "rows": page.object_list,
        "page": page,
        "show": chosen,
        "filters": [
            ("all", _("Everyone")),
            ("in", _("Still in")),
            ("out", _("Out")),
            ("unseated", _("Without a seat")),
        ],
        "query": query,
        "last": last,
        "last_seat": _seats(tournament).get(last.pk) if last else None,
        "registration_open": services.registration_open(tournament),
        "drawn": tournament.tables.exists(),
        "counts": {
            "entries": tournament.entries.count(),
            "in": players_in,
            "max": tournament.max_players,
        },
        "prize_pool": services.prize_pool(tournament),
    }
    return render(request, "console/desk.html", context)


@console_can("view")
def desk_search(request, tournament_id: int):
    """The players matching what is typed, as a fragment the desk shows under the name field."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    query = request.GET.get("name", "")[:100]
    return render(
        request,
        "console/_desk_matches.html",
        {"tournament": tournament, "matches": matches(tournament, query), "query": query},
    )


def _to_desk(tournament: Tournament, entry: Entry | None = None):
    url = reverse("console-desk", args=[tournament.pk])
    return redirect(f"{url}?entry={entry.pk}" if entry else url)


def _alternate_offer(request) -> dict | None:
    """After "the field is full": the player to offer a place on the alternates list (by id when one
    was chosen from the matches, else by the name typed)."""
    player_id = request.GET.get("alternate_player", "")
    if player_id.isascii() and player_id.isdigit() and len(player_id) <= 18:
        player = Player.objects.filter(pk=player_id).first()
        if player is not None:
            return {"player": player.pk, "name": player.name}
    name = request.GET.get("alternate", "").strip()[:64]
    return {"player": "", "name": name} if name else None


def _posted_player(request) -> Player:
    """The player the desk's form names: one chosen from the matches, or the name typed (the existing
    player of that name, else a new one)."""
    player_id = request.POST.get("player", "")
    if player_id:
        if not (player_id.isascii() and player_id.isdigit() and len(player_id) <= 18):
            raise ValidationError({"player": _("Choose a player from the list.")})
        return get_object_or_404(Player, pk=player_id)
    if request.POST.get("name", "").strip():
        return services.player_named(request.POST["name"])
    raise ValidationError({"name": _("Type the player's name.")})


@console_can("entries")
@require_POST
def desk_register(request, tournament_id: int):
    """Register (or re-enter) the player of this name: the existing one when the name matches."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        with transaction.atomic():
            player = _posted_player(request)
            entry = services.register(tournament, player, actor=request.user)
    except (TournamentError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
        if getattr(exc, "code", "") == "field_full":
            # The player row made for a new name was rolled back: the offer carries the name.
            offer = (
                {"alternate_player": player.pk} if request.POST.get("player") else {"alternate": player.name}
            )
            return redirect(f"{reverse('console-desk', args=[tournament.pk])}?{urlencode(offer)}")
        return _to_desk(tournament)
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    if entry.number > 1:
        message = _("%(name)s re-enters (entry %(number)s): table %(table)s, seat %(seat)s") % {
            "name": entry.player,
            "number": entry.number,
            "table": seat.table.number if seat else "–",
            "seat": seat.number if seat else "–",
        }
    else:
        message = seat_phrase(entry, seat)
    messages.success(request, message)
    return _to_desk(tournament, entry)


def _entry_action(request, tournament_id: int, entry_id: int, operation, done):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament=tournament)
    try:
        result = operation(entry)
    except (TournamentError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
        return _to_desk(tournament)
    seat = Seat.objects.select_related("table").filter(entry=entry).first() if result is not None else None
    messages.success(request, done(entry, seat))
    return _to_desk(tournament, entry if result is not None else None)


def _where(seat: Seat | None) -> str:
    if seat is None:
        return ""
    return _("table %(table)s, seat %(seat)s") % {"table": seat.table.number, "seat": seat.number}


@console_can("entries")
@require_POST
def desk_rebuy(request, tournament_id: int, entry_id: int):
    return _entry_action(
        request,
        tournament_id,
        entry_id,
        lambda e: services.rebuy(e, actor=request.user),
        lambda e, seat: (
            _("%(name)s rebuys: %(chips)s chips, %(where)s")
            % {"name": e, "chips": Entry.objects.get(pk=e.pk).chips, "where": _where(seat)}
        ),
    )


@console_can("entries")
@require_POST
def desk_addon(request, tournament_id: int, entry_id: int):
    return _entry_action(
        request,
        tournament_id,
        entry_id,
        lambda e: services.addon(e, actor=request.user),
        lambda e, seat: (
            _("%(name)s takes the add-on: %(chips)s chips, %(where)s")
            % {"name": e, "chips": Entry.objects.get(pk=e.pk).chips, "where": _where(seat)}
        ),
    )


@console_can("entries")
@require_POST
def desk_void(request, tournament_id: int, entry_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament=tournament)
    name = str(entry)
    try:
        seat = services.void_entry(entry, reason=request.POST.get("reason", ""), actor=request.user)
    except (TournamentError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
        return _to_desk(tournament)
    if seat is None:
        messages.success(request, _("The entry of %(name)s is voided.") % {"name": name})
    else:
        messages.success(
            request,
            _("The entry of %(name)s is voided: table %(table)s, seat %(seat)s is free.")
            % {"name": name, "table": seat.table.number, "seat": seat.number},
        )
    return _to_desk(tournament)


@console_can("entries")
@require_POST
def desk_alternate_add(request, tournament_id: int):
    """Put the player refused for a full field on the alternates list."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        with transaction.atomic():
            player = _posted_player(request)
            services.add_alternate(tournament, player, actor=request.user)
    except (TournamentError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
        return _to_desk(tournament)
    messages.success(
        request,
        _("%(name)s is on the alternates list (number %(number)s).")
        % {"name": player, "number": services.waiting_alternates(tournament).count()},
    )
    return _to_desk(tournament)


@console_can("entries")
@require_POST
def desk_alternate_seat(request, tournament_id: int):
    """A seat is free: the first alternate registers and gets it (R8.1)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        alternate = services.seat_next_alternate(tournament, actor=request.user)
    except (TournamentError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
        return _to_desk(tournament)
    entry = alternate.entry
    messages.success(
        request, seat_phrase(entry, Seat.objects.select_related("table").filter(entry=entry).first())
    )
    return _to_desk(tournament, entry)


@console_can("entries")
@require_POST
def desk_alternate_withdraw(request, tournament_id: int, alternate_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    alternate = get_object_or_404(
        Alternate.objects.select_related("player", "tournament"), pk=alternate_id, tournament=tournament
    )
    try:
        services.withdraw_alternate(alternate, actor=request.user)
    except (TournamentError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, _("%(name)s is off the alternates list.") % {"name": alternate.player})
    return _to_desk(tournament)


@console_can("seating")
@require_POST
def desk_draw(request, tournament_id: int):
    """The seat draw (R8.1) for everyone registered so far; later entries are seated as they come."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        draw = tables_services.draw_seats(tournament, actor=request.user)
    except (TournamentError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(
            request,
            _("Seats are drawn: %(players)s players at %(tables)s tables.")
            % {"players": len(draw.assignment), "tables": tournament.tables.count()},
        )
    return _to_desk(tournament)


@console_can("view")
def seat_card(request, tournament_id: int, entry_id: int):
    """A card to hand the player: name, table, seat, chips (printable)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament=tournament)
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    return render(request, "console/seat_card.html", {"tournament": tournament, "entry": entry, "seat": seat})
