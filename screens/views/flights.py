"""The director console's pages for multi-day events (docs/festivals.md) and the structure simulator's
preview of a tournament (docs/simulator.md).

Server-rendered, post/redirect/get like the rest of the console: each button posts a plain form to a
thin view that calls one service, then comes back to the page; a refused change is shown as a
message naming the problem and changes nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables import services as tables_services
from tables.models import Table
from tournaments import flight_selectors as fs
from tournaments import services, simulation, simulator
from tournaments.errors import TournamentError
from tournaments.models import BlindStructure, Entry, Event, Flight, Game, Tournament
from tournaments.services import flights as flight_services

from .staff import console_can

SERVICE_ERRORS = (TournamentError, ValidationError)


def _error_text(exc) -> str:
    if isinstance(exc, ValidationError):
        if hasattr(exc, "error_dict"):
            return "; ".join(" ".join(msgs) for msgs in exc.message_dict.values())
        return " ".join(exc.messages)
    return str(getattr(exc, "message", None) or exc)


def _number(post, name: str, *, default: int = 0, label: str = "") -> int:
    value = (post.get(name) or "").strip().replace(",", "").replace(" ", "")
    if not value:
        return default
    if not (value.isascii() and value.isdigit() and len(value) <= 15):
        raise ValidationError({name: _("%(field)s: give a whole number.") % {"field": label or name}})
    return int(value)


def _flight(tournament_id: int) -> Flight:
    return get_object_or_404(
        Flight.objects.select_related("event", "tournament"), tournament_id=tournament_id
    )


def _to_flight(tournament_id: int, anchor: str = ""):
    return redirect(reverse("console-flight", args=[tournament_id]) + (f"#{anchor}" if anchor else ""))


# ---------------------------------------------------------------- events


@console_can("view")
def events(request):
    return render(
        request,
        "console/flights/events.html",
        {
            "events": [fs.event_totals(event) for event in Event.objects.order_by("-created_at")[:50]],
            "templates": BlindStructure.objects.filter(is_template=True).order_by("betting", "name"),
            "games": Game.choices,
            "stack_rules": Event.StackRule.choices,
        },
    )


@console_can("setup")
@require_POST
def event_create(request):
    post = request.POST
    try:
        structure_id = _number(post, "structure", label=_("Structure"))
        structure = BlindStructure.objects.filter(pk=structure_id).first()
        if structure is None:
            raise ValidationError({"structure": _("Choose a blind structure.")})
        labels = [label.strip() for label in (post.get("flights") or "").split(",") if label.strip()]
        event = flight_services.create_event(
            name=(post.get("name") or "").strip() or _("Multi-day event"),
            structure=structure,
            flights=labels,
            game=post.get("game") or Game.COURCHEVEL,
            starting_stack=_number(
                post, "starting_stack", default=structure.starting_stack or 0, label=_("Starting stack")
            )
            or 1,
            seats_per_table=_number(post, "seats_per_table", default=8, label=_("Seats per table")),
            late_registration_until_level=_number(
                post, "late_registration_until_level", label=_("Late registration")
            ),
            buy_in=_number(post, "buy_in", label=_("Buy-in")),
            fee=_number(post, "fee", label=_("Fee")),
            stop_after_level=_number(post, "stop_after_level", label=_("Play stops after level")),
            stop_at_players=_number(post, "stop_at_players", label=_("Play stops at players left")),
            stack_rule=post.get("stack_rule") or Event.StackRule.BEST,
            pays_day1_finishers=post.get("pays_day1_finishers") == "on",
            late_stack=_number(post, "late_stack", label=_("Late entry stack")),
            late_until_level=_number(post, "late_until_level", label=_("Late registration on day 2")),
            actor=request.user,
        )
    except SERVICE_ERRORS as exc:
        messages.error(request, _error_text(exc))
        return redirect("console-events")
    messages.success(request, _("%(event)s is created: its flights take registrations.") % {"event": event})
    return redirect("console-event", event.pk)


@console_can("view")
def event_page(request, event_id: int):
    event = get_object_or_404(Event, pk=event_id)
    totals = fs.event_totals(event)
    next_day = event.flights.filter(day__gt=1, drawn_at__isnull=True).order_by("day").first()
    return render(
        request,
        "console/flights/event.html",
        {"event": event, "totals": totals, "results": fs.results(event), "next_day": next_day},
    )


@console_can("setup")
@require_POST
def event_next_day(request, event_id: int):
    event = get_object_or_404(Event, pk=event_id)
    try:
        day = flight_services.draw_next_day(event, actor=request.user)
    except SERVICE_ERRORS as exc:
        messages.error(request, _error_text(exc))
        return redirect("console-event", event.pk)
    messages.success(
        request,
        _("%(day)s is drawn: every survivor has a seat with their bagged chips.") % {"day": day.label},
    )
    return _to_flight(day.tournament_id)


# ---------------------------------------------------------------- one flight or day


def _tables(tournament: Tournament) -> list[dict]:
    rows = []
    tables = Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE).order_by("number")
    for table in tables.prefetch_related("seat_set__entry__player", "seat_set__entry__bag"):
        seats = [
            seat
            for seat in table.seat_set.all()
            if seat.entry is not None and seat.entry.status == Entry.Status.ACTIVE
        ]
        unbagged = [seat for seat in seats if not hasattr(seat.entry, "bag")]
        rows.append(
            {
                "table": table,
                "seats": seats,
                "unbagged": unbagged,
                "chips": sum(seat.entry.chips for seat in unbagged),
            }
        )
    return rows


@console_can("view")
def flight_page(request, tournament_id: int):
    flight = _flight(tournament_id)
    tournament = flight.tournament
    snapshot = fs.flight_snapshot(tournament)
    winner = tournament.entries.filter(place=1).select_related("player").first()
    return render(
        request,
        "console/flights/flight.html",
        {
            "flight": flight,
            "tournament": tournament,
            "snapshot": snapshot,
            "stop": snapshot["stop"],
            "tables": _tables(tournament),
            "drawn": Table.objects.filter(tournament=tournament).exists(),
            "entries": tournament.entries.filter(status=Entry.Status.ACTIVE).count(),
            "busted": tournament.entries.filter(status=Entry.Status.BUSTED)
            .select_related("player")
            .order_by("place", "-busted_at"),
            "registration_open": services.registration_open(tournament),
            "winner": winner,
        },
    )


def _flight_action(request, tournament_id: int, operation, success: str, anchor: str = ""):
    flight = _flight(tournament_id)
    try:
        operation(flight)
    except SERVICE_ERRORS as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, success)
    return _to_flight(flight.tournament_id, anchor)


@console_can("entries")
@require_POST
def flight_register(request, tournament_id: int):
    name = request.POST.get("name", "")

    def register(flight):
        with transaction.atomic():
            if not name.strip():
                raise ValidationError({"name": _("Give the player's name.")})
            services.register(flight.tournament, services.player_named(name), actor=request.user)

    return _flight_action(
        request, tournament_id, register, _("%(name)s is registered.") % {"name": name.strip()}
    )


@console_can("seating")
@require_POST
def flight_draw(request, tournament_id: int):
    return _flight_action(
        request,
        tournament_id,
        lambda flight: tables_services.draw_seats(flight.tournament, actor=request.user),
        _("Seats are drawn."),
        "tables",
    )


@console_can("clock")
@require_POST
def flight_start(request, tournament_id: int):
    return _flight_action(
        request,
        tournament_id,
        lambda flight: services.start_tournament(flight.tournament, actor=request.user),
        _("The clock is running."),
    )


@console_can("busts")
@require_POST
def flight_eliminate(request, tournament_id: int, entry_id: int):
    flight = _flight(tournament_id)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, tournament=flight.tournament
    )

    def eliminate(flight):
        by_id = _number(request.POST, "by", label=_("Won by"))
        winner = Entry.objects.filter(pk=by_id, tournament=flight.tournament).first()
        if winner is None:
            raise ValidationError({"by": _("Choose the player who won the chips.")})
        flight_services.eliminate(entry, by=winner, actor=request.user)

    return _flight_action(
        request, tournament_id, eliminate, _("%(entry)s is out.") % {"entry": entry}, "tables"
    )


@console_can("clock")
@require_POST
def flight_stop(request, tournament_id: int):
    return _flight_action(
        request,
        tournament_id,
        lambda flight: flight_services.stop_play(flight.tournament, actor=request.user),
        _("Play has stopped: count and bag each table."),
        "tables",
    )


@console_can("chip_counts")
@require_POST
def flight_bag(request, tournament_id: int, table_number: int):
    post = request.POST

    def bag(flight):
        counts = []
        for key in post:
            if not key.startswith("chips-"):
                continue
            entry_id = key.removeprefix("chips-")
            if not (entry_id.isascii() and entry_id.isdigit() and len(entry_id) <= 18):
                raise ValidationError({"bags": _("The form is out of date: reload the page.")})
            chips = _number(post, key, default=-1, label=_("Chips"))
            if chips < 0:
                raise ValidationError({"bags": _("Give every survivor's count.")})
            counts.append({"entry": int(entry_id), "chips": chips, "bag": post.get(f"bag-{entry_id}", "")})
        flight_services.bag_table(flight.tournament, table_number, counts, actor=request.user)

    return _flight_action(
        request, tournament_id, bag, _("Table %(table)s is bagged.") % {"table": table_number}, "tables"
    )


@console_can("view")
def flight_bags(request, tournament_id: int):
    """The bag-and-tag sheet: printable (a print style sheet hides everything but the sheet)."""
    flight = _flight(tournament_id)
    bags = flight.bags.select_related("player").order_by("table_number", "seat_number")
    return render(
        request,
        "console/flights/bags.html",
        {"flight": flight, "bags": bags, "total": sum(b.chips for b in bags)},
    )


# ---------------------------------------------------------------- the simulator's preview


def duration_text(seconds) -> str:
    """A simulated time as the floor reads it: \"5 h 40\"."""
    if seconds is None:
        return "–"
    minutes = round(seconds / 60)
    return _("%(hours)d h %(minutes)02d") % {"hours": minutes // 60, "minutes": minutes % 60}


@console_can("setup")
def simulation_preview(request, tournament_id: int):
    """How long this tournament as configured will run, before anyone plays it."""
    tournament = get_object_or_404(Tournament.objects.select_related("structure"), pk=tournament_id)
    so_far = simulation.expected_field(tournament)
    error, report = "", None
    form = {
        "entries": request.GET.get("entries") or str(max(so_far[0], 2) if so_far[0] >= 2 else 100),
        "reentries": request.GET.get("reentries") or str(so_far[1]),
        "hours": request.GET.get("hours") or "",
    }
    try:
        entries = _number(request.GET, "entries", default=int(form["entries"]), label=_("Entries"))
        reentries = _number(request.GET, "reentries", default=so_far[1], label=_("Re-entries"))
        hours = None
        if form["hours"]:
            try:
                hours = float(form["hours"].replace(",", "."))
            except ValueError:
                raise ValidationError({"hours": _("Give the hours the event has, e.g. 8 or 7.5.")}) from None
        config = simulation.config_of(tournament, entries, reentries)
        report = simulation.simulate(config, runs=1000, seed=0, hours=hours)
    except ValidationError as exc:
        error = _error_text(exc)
    except simulator.SimulationError as exc:
        error = simulation.error_message(exc)
    rows = []
    if report:
        for level in report["levels"]:
            rows.append({**level, "starts": duration_text(level["starts_at"])})
    return render(
        request,
        "console/flights/simulation.html",
        {
            "tournament": tournament,
            "form": form,
            "error": error,
            "report": report,
            "rows": rows,
            "length": report and {k: duration_text(v) for k, v in report["length"].items()},
            "bubble": report and {k: duration_text(v) for k, v in report["bubble"].items()},
            "final_table": report and {k: duration_text(v) for k, v in report["final_table"].items()},
            "late_close": report and duration_text(report["late_registration_closes_at"]),
            "fit_length": report
            and report["fit"]
            and duration_text(report["fit"]["length_with_those_levels"]["median"]),
            "templates": report
            and report["fit"]
            and [
                {"name": t["name"], "length": duration_text(t["median_length"])}
                for t in report["fit"]["templates"]
            ],
        },
    )
