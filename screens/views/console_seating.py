"""Seating from the console: how balancing runs (automatic, or suggested moves the director approves
or skips), the breaking order (R8.4), and the seating chart to print.

The decisions are the seating engine's (``tables.services``); these views only ask it and pass on
what the director chose.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables import services as tables_services
from tables.models import Table
from tournaments.errors import TournamentError
from tournaments.models import Entry, Tournament

from .staff import console_can
from .staff import error_text as _error_text

SKIPPED = "console-skipped-moves"


def _skipped(request, tournament: Tournament) -> set[str]:
    return set(request.session.get(SKIPPED, {}).get(str(tournament.pk), []))


def suggestion_key(move) -> str:
    return f"{move.entry_id}:{move.to_table.number}:{move.to_seat}"


def seating_context(request, tournament: Tournament) -> dict:
    """What the console's seating panel shows: the mode, the suggestions, the breaking order."""
    plan = tables_services.seating_plan(tournament) if tournament.tables.exists() else None
    suggestions = []
    if plan is not None and plan.review_moves and tournament.status != Tournament.Status.FINISHED:
        skipped = _skipped(request, tournament)
        names = {}
        for move in tables_services.suggested_moves(tournament):
            key = suggestion_key(move)
            if move.entry_id not in names:
                names[move.entry_id] = str(Entry.objects.select_related("player").get(pk=move.entry_id))
            suggestions.append(
                {"move": move, "key": key, "name": names[move.entry_id], "skipped": key in skipped}
            )
    active = list(
        Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE)
        .order_by("-break_order")
        .values_list("number", flat=True)
    )
    suggestions.sort(key=lambda s: s["skipped"])  # the ones still to decide first
    return {
        "plan": plan,
        "suggestions": suggestions,
        "break_order": active,
        "break_order_value": ", ".join(str(n) for n in active),
    }


def _back(tournament):
    return redirect(reverse("console", args=[tournament.pk]) + "#seating")


@console_can("seating")
@require_POST
def balancing_mode(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    mode = request.POST.get("mode", "")
    if mode not in ("automatic", "review"):
        messages.error(request, _("Choose automatic balancing or suggested moves."))
        return _back(tournament)
    try:
        tables_services.update_plan(tournament, actor=request.user, review_moves=mode == "review")
    except (TournamentError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(
            request,
            _("Balancing is automatic.")
            if mode == "automatic"
            else _("Balancing suggests moves: approve or skip each one."),
        )
    return _back(tournament)


@console_can("seating")
@require_POST
def approve_move(request, tournament_id: int):
    """Make one suggested move (it is decided again now: a stale suggestion is refused)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    key = request.POST.get("key", "")
    current = {suggestion_key(m): m for m in tables_services.suggested_moves(tournament)}
    move = current.get(key)
    if move is None:
        messages.error(
            request, _("That move is no longer suggested: the tables have changed. Nothing was moved.")
        )
        return _back(tournament)
    entry = Entry.objects.select_related("player").get(pk=move.entry_id)
    try:
        done = tables_services.move_entry(
            entry,
            move.to_table,
            move.to_seat,
            reason=_("balancing, approved by the director (%(reason)s)")
            % {"reason": move.get_reason_display()},
            actor=request.user,
        )
    except (TournamentError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
    else:
        text = _("%(name)s moves to table %(table)s, seat %(seat)s.") % {
            "name": entry,
            "table": move.to_table.number,
            "seat": move.to_seat,
        }
        if done.status == done.Status.PENDING:
            text += " " + _("(after the hand at their table)")
        messages.success(request, text)
    return _back(tournament)


@console_can("seating")
@require_POST
def skip_move(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    key = request.POST.get("key", "")[:60]
    store = request.session.get(SKIPPED, {})
    store[str(tournament.pk)] = sorted({*store.get(str(tournament.pk), []), key})[-200:]
    request.session[SKIPPED] = store
    messages.success(request, _("The move is skipped."))
    return _back(tournament)


@console_can("seating")
@require_POST
def break_order(request, tournament_id: int):
    """The breaking order, typed as table numbers, first to break first (R8.4)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    typed = request.POST.get("order", "").replace(";", ",").replace(" ", ",")
    parts = [p for p in typed.split(",") if p]
    try:
        if not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
            raise ValidationError({"order": _("List table numbers separated by commas, e.g. 3, 1, 2.")})
        tables_services.set_break_order(tournament, [int(p) for p in parts], actor=request.user)
    except (TournamentError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, _("Tables break in this order: %(order)s.") % {"order": ", ".join(parts)})
    return _back(tournament)


@console_can("view")
def seating_chart(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    tables = (
        Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE)
        .prefetch_related("seat_set__entry__player")
        .order_by("number")
    )
    return render(request, "console/seating_chart.html", {"tournament": tournament, "tables": tables})
