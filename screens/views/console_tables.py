"""The console's seating page: seat locks and reservations, opening a table and breaking one now, a
manual move with a reason, the recent moves, and the seating chart on the clock screens.

Thin post/redirect/get views over ``tables.services`` (which decides every rule): a refused change
comes back as a message naming the problem and changes nothing. Anyone on the console may look;
only the roles with ``seating`` get the forms (``console_can`` on every write, ``can.seating`` in
the template).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.text import name_key
from tables import services as tables_services
from tables.models import Move, Seat, Table
from tournaments.errors import TournamentError
from tournaments.models import Entry, Tournament

from .staff import console_can
from .staff import error_text as _error_text

# Past a room's worth of tables the page lists one line a table (the printable chart has every seat).
PAGE_FULL_TABLES = 30
RECENT_MOVES = 20


def _back(tournament: Tournament, anchor: str = ""):
    return redirect(reverse("console-seating", args=[tournament.pk]) + (f"#{anchor}" if anchor else ""))


def _number(post, field: str, label, *, required: bool = True) -> int | None:
    raw = (post.get(field) or "").strip()
    if not raw and not required:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6):
        raise ValidationError({field: _("Give %(what)s as a whole number.") % {"what": label}})
    return int(raw)


def _table(tournament: Tournament, number: int) -> Table:
    table = Table.objects.filter(tournament=tournament, number=number).first()
    if table is None:
        raise ValidationError({"table": _("There is no table %(number)s.") % {"number": number}})
    return table


def _seat(tournament: Tournament, post) -> Seat:
    table = _table(tournament, _number(post, "table", _("the table")))
    number = _number(post, "seat", _("the seat"))
    seat = Seat.objects.filter(table=table, number=number).first()
    if seat is None:
        raise ValidationError(
            {
                "seat": _("Table %(table)s has seats 1 to %(seats)s (R2.7).")
                % {"table": table.number, "seats": table.seats}
            }
        )
    return seat


def _player(tournament: Tournament, typed: str) -> Entry:
    """The player still in whose name was typed (case and accents ignored); a part of a name will do
    when it names one player only."""
    key = name_key(typed)
    if not key:
        raise ValidationError({"player": _("Type the player's name.")})
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("player")
    found = list(active.filter(player__name_key=key)[:2]) or list(
        active.filter(player__name_key__contains=key)[:6]
    )
    if not found:
        raise ValidationError({"player": _("No player still in is called %(name)s.") % {"name": typed}})
    if len(found) > 1:
        raise ValidationError(
            {
                "player": _("Several players match %(name)s: %(names)s. Type the whole name.")
                % {"name": typed, "names": ", ".join(str(e) for e in found[:5])}
            }
        )
    return found[0]


def _run(request, done, call):
    """Call the service; a refusal is a message and nothing changes."""
    try:
        result = call()
    except (TournamentError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
        return None
    messages.success(request, done(result))
    return result


@console_can("view")
def seating_page(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    tables = Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE).order_by("number")
    compact = tables.count() > PAGE_FULL_TABLES
    if not compact:
        tables = tables.prefetch_related("seat_set__entry__player")
    held = (
        Seat.objects.filter(table__tournament=tournament, table__status=Table.Status.ACTIVE, locked=True)
        .select_related("table", "entry__player")
        .order_by("table__number", "number")
    )
    moves = (
        Move.objects.filter(tournament=tournament)
        .exclude(status=Move.Status.CANCELLED)
        .select_related("entry__player", "from_table", "to_table", "actor")
        .order_by("-created_at", "-id")[:RECENT_MOVES]
    )
    plan = tables_services.seating_plan(tournament) if tournament.tables.exists() else None
    return render(
        request,
        "console/seating.html",
        {
            "tournament": tournament,
            "tables": tables,
            "compact": compact,
            "held": held,
            "moves": moves,
            "plan": plan,
            "default_seats": tournament.seats_per_table,
        },
    )


@console_can("seating")
@require_POST
def lock_seat(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    _run(
        request,
        lambda seat: (
            _("Table %(table)s seat %(seat)s is locked: %(reason)s.")
            % {"table": seat.table.number, "seat": seat.number, "reason": seat.lock_reason}
        ),
        lambda: tables_services.lock_seat(
            _seat(tournament, request.POST), reason=request.POST.get("reason", ""), actor=request.user
        ),
    )
    return _back(tournament, "locks")


@console_can("seating")
@require_POST
def reserve_seat(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    _run(
        request,
        lambda seat: (
            _("Table %(table)s seat %(seat)s is kept for %(name)s.")
            % {"table": seat.table.number, "seat": seat.number, "name": seat.reserved_for}
        ),
        lambda: tables_services.reserve_seat(
            _seat(tournament, request.POST),
            player_name=request.POST.get("player", ""),
            reason=request.POST.get("reason", ""),
            actor=request.user,
        ),
    )
    return _back(tournament, "locks")


@console_can("seating")
@require_POST
def unlock_seat(request, tournament_id: int, seat_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    seat = get_object_or_404(Seat.objects.select_related("table"), pk=seat_id, table__tournament=tournament)
    _run(
        request,
        lambda s: (
            _("Table %(table)s seat %(seat)s is free again.") % {"table": seat.table.number, "seat": s.number}
        ),
        lambda: tables_services.unlock_seat(seat, actor=request.user),
    )
    return _back(tournament, "locks")


@console_can("seating")
@require_POST
def open_table(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    _run(
        request,
        lambda table: (
            _("Table %(table)s is open (%(seats)s seats); balancing fills it.")
            % {"table": table.number, "seats": table.seats}
        ),
        lambda: tables_services.open_table(
            tournament,
            number=_number(request.POST, "number", _("the table number"), required=False),
            seats=_number(request.POST, "seats", _("the number of seats"), required=False),
            actor=request.user,
        ),
    )
    return _back(tournament, "tables")


@console_can("seating")
@require_POST
def break_table(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)

    def done(moves):
        return _("Table %(table)s is broken: %(moves)s players moved (R8.4).") % {
            "table": request.POST.get("table"),
            "moves": len(moves),
        }

    _run(
        request,
        done,
        lambda: tables_services.break_table(
            _table(tournament, _number(request.POST, "table", _("the table"))), actor=request.user
        ),
    )
    return _back(tournament, "moves")


@console_can("seating")
@require_POST
def move_player(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)

    def done(move):
        text = _("%(name)s moves to table %(table)s, seat %(seat)s.") % {
            "name": move.entry,
            "table": move.to_table.number,
            "seat": move.to_seat,
        }
        if move.status == Move.Status.PENDING:
            text += " " + _("(after the hand at their table)")
        return text

    def call():
        entry = _player(tournament, request.POST.get("player", ""))
        table = _table(tournament, _number(request.POST, "table", _("the table")))
        seat = _number(request.POST, "seat", _("the seat"))
        return tables_services.move_entry(
            entry, table, seat, reason=request.POST.get("reason", ""), actor=request.user
        )

    _run(request, done, call)
    return _back(tournament, "moves")


@console_can("seating")
@require_POST
def chart_on_clock(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    on = request.POST.get("on") == "1"
    _run(
        request,
        lambda plan: (
            _("The clock screens show the seating chart.")
            if plan.chart_on_clock
            else _("The clock screens show the clock again.")
        ),
        lambda: tables_services.show_chart_on_clock(tournament, on, actor=request.user),
    )
    return _back(tournament)
