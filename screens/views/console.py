"""The director console: one tournament's clock, entries, seating, payouts, hands and devices.

Server-rendered; its panels are refreshed live from the director socket's snapshots. Buttons post
plain forms to thin views that call the services, then come back to the page (post/redirect/get); a
refused change is shown as a message naming the problem and changes nothing.
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from dealing import histories
from dealing.models import Hand
from dealing.verification import verify_hand
from tables.models import Table, seated_players
from tournaments import icm, selectors, services
from tournaments.errors import TournamentError
from tournaments.models import AuditEntry, Entry, Player, Tournament

from .. import console_lists, snapshots
from ..floor import answer_floor_call, set_announcement
from ..models import Announcement, Device, DeviceKind, FloorCall
from ..pairing import PairingError, create_pairing_code, revoke_device
from ..roles import opens_console
from . import console_break, console_controls, console_seating
from .clock import clock_labels
from .staff import console_can
from .staff import error_text as _error_text


@console_can("view")
def console_list(request):
    tournaments = Tournament.objects.order_by("-created_at")
    return render(request, "console/list.html", {"tournaments": tournaments})


def _back(request, tournament: Tournament, anchor: str = ""):
    target = request.POST.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}):
        return redirect(target)
    return redirect(reverse("console", args=[tournament.pk]) + (f"#{anchor}" if anchor else ""))


def _service_errors():
    return (TournamentError, ValidationError)


def _payouts(tournament: Tournament, totals: dict[str, int]) -> tuple[list[dict], list[dict]]:
    """Prizes by place, and each remaining player's ICM value when few are left. ``totals``: the
    entries' figures (``selectors.entry_totals``), read once for the page."""
    table = services.payout_table(tournament, totals)
    # A field bigger than ICM takes is not read at all (the players left are counted in ``totals``).
    active = []
    if 0 < totals["left"] <= icm.MAX_PLAYERS:
        active = list(
            tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("player").order_by("-chips")
        )
    rows = []
    equities = []
    if active and table and len(active) <= icm.MAX_PLAYERS:
        # ICM is exponential in the field: offered once the field is down to about a table and a half.
        try:
            equities = icm.equities([e.chips for e in active], table[: len(active)])
        except icm.ICMError:  # e.g. no chips in play: the console simply shows no ICM then
            equities = []
    for place, amount in enumerate(table, start=1):
        rows.append({"place": place, "amount": amount})
    icm_rows = [
        {"name": str(entry), "chips": entry.chips, "equity": round(eq)} for entry, eq in zip(active, equities)
    ]
    return rows, icm_rows


def _known_players(tournament: Tournament):
    """The names the entry form offers: players known to the room and not playing this tournament now.
    NOT EXISTS per player, not NOT IN over the field's entries: at 10,000 entries 4 ms instead of 8."""
    playing = Entry.objects.filter(player=OuterRef("pk"), tournament=tournament, status=Entry.Status.ACTIVE)
    return Player.objects.filter(~Exists(playing)).order_by("name")[:500]


# The page and the director socket's snapshot list the same (screens.snapshots decides).
CONSOLE_ENTRIES = snapshots.CONSOLE_ENTRIES_LISTED
CONSOLE_FULL_TABLES = snapshots.CONSOLE_TABLES_WITH_SEATS
CONSOLE_DEVICES = snapshots.CONSOLE_DEVICES_LISTED


@console_can("view")
def console(request, tournament_id: int):
    # With the console's own version (snapshots.director_version), read before the state it versions.
    tournament = get_object_or_404(
        Tournament.objects.select_related("structure").annotate(console_bumps=F("console_counter__version")),
        pk=tournament_id,
    )
    if not opens_console(request.user):
        # The registration desk's console is the desk: the one page its role works on.
        return redirect("console-desk", tournament.pk)
    levels = list(tournament.structure.levels.order_by("order"))
    # A big event has 10,000 entries and 1,250 tables: the console shows the first few entries (or
    # those named in the search) and, past a room's worth, each table as one line; the registration
    # desk and the seating chart have them all.
    query = request.GET.get("q", "")[:100]
    # The entries' figures, one pass for the page: the count, the prize pool and the payout table.
    totals = selectors.entry_totals(tournament)
    entry_count = totals["entries"]
    entries = snapshots.console_entries(tournament, query, limit=CONSOLE_ENTRIES)
    table_count = Table.objects.filter(tournament=tournament).count()
    tables = Table.objects.filter(tournament=tournament).order_by("number")
    if table_count <= CONSOLE_FULL_TABLES:
        tables = list(tables.prefetch_related("seat_set__entry__player"))
        table_rows = [{"pk": t.pk, "number": t.number, "status": t.status} for t in tables]
        table_lines = ""
    else:
        # One line a table, rendered in Python (screens.console_lists): 1,250 rows, not model instances.
        tables = table_rows = list(
            tables.annotate(players=seated_players()).values(
                "pk", "number", "status", "hand_in_progress", "players"
            )
        )
        table_lines = console_lists.compact_table_lines(table_rows)
    hands = (
        Hand.objects.filter(table__tournament=tournament).select_related("table").order_by("-started_at")[:30]
    )
    payouts, icm_rows = _payouts(tournament, totals)
    # 1,350 screens at a big event: the first few (clocks first), or those whose label is searched.
    devices = snapshots.console_devices(tournament)
    device_query = request.GET.get("device", "")[:100]
    if device_query:
        devices = devices.filter(label__icontains=device_query)
    device_count = Device.objects.filter(tournament=tournament).count()
    devices = list(devices[:CONSOLE_DEVICES])
    audit = AuditEntry.objects.filter(tournament=tournament).select_related("actor")[:50]
    clock_state = services.clock_state(tournament)
    phase = console_controls.phase_of(tournament, clock_state)
    return render(
        request,
        "console/tournament.html",
        {
            "tournament": tournament,
            # The version of what the page shows, as its live snapshots count (snapshots.director_version).
            "page_version": tournament.version + (tournament.console_bumps or 0),
            "levels": levels,
            "entries": entries,
            "tables": tables,
            "table_lines": table_lines,
            "table_options": console_lists.table_options(table_rows),
            "moves": snapshots.console_moves(tournament),
            "hands": hands,
            "payouts": payouts,
            "payout_rows": console_lists.payout_rows(payouts),
            "prize_pool": services.prize_pool(tournament, totals),
            "icm_rows": icm_rows,
            "icm_max_players": icm.MAX_PLAYERS,
            "devices": devices,
            "audit": audit,
            "announcement": Announcement.objects.filter(tournament=tournament, active=True).first(),
            "floor_calls": FloorCall.objects.filter(
                tournament=tournament, answered_at__isnull=True
            ).select_related("table"),
            "clock_state": clock_state,
            "phase": phase,
            "phase_label": console_controls.phase_label(phase),
            "offers": console_controls.offers(tournament, phase, clock_state),
            "level_choices": console_controls.level_choices(tournament, levels),
            "hand_for_hand_tables": console_controls.hand_for_hand_tables(tournament),
            "color_up": console_break.color_up_offered(tournament, levels, clock_state),
            "entry_count": entry_count,
            "device_count": device_count,
            "device_query": device_query,
            "entry_query": query,
            "compact_tables": table_count > CONSOLE_FULL_TABLES,
            **console_seating.seating_context(request, tournament),
            "ws_path": f"/ws/tournaments/{tournament.pk}/director/",
            "labels": clock_labels(),
            "live_labels": console_controls.live_labels(tournament),
            "players": _known_players(tournament),
        },
    )


CLOCK_ACTIONS = {
    "start",
    "pause",
    "resume",
    "add_time",
    "jump",
    "next_level",
    "previous_level",
    "hand_for_hand_on",
    "hand_for_hand_off",
    "open_registration",
}


def _whole_number(value: str, field: str, message) -> int:
    """A form's whole number: ASCII digits with an optional sign, else ValidationError on ``field``."""
    digits = value[1:] if value[:1] in ("-", "+") else value
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 18):
        raise ValidationError({field: message})
    return int(value)


def _clock_operation(action: str, post):
    """The service call a clock button stands for, and its arguments."""
    if action == "start":
        return services.start_tournament, ()
    if action == "open_registration":
        return services.open_registration, ()
    if action == "pause":
        return services.pause_clock, ()
    if action == "resume":
        return services.resume_clock, ()
    if action == "add_time":
        seconds = _whole_number(post.get("seconds", ""), "seconds", _("Give a whole number of seconds."))
        return services.add_time, (seconds,)
    if action == "jump":
        return services.jump_to_level, (_whole_number(post.get("index", ""), "index", _("Choose a level.")),)
    if action in ("next_level", "previous_level"):
        step = 1 if action == "next_level" else -1

        def step_level(tournament, **kwargs):
            # Read inside the locked transaction: the level the version check was made against.
            index = services.clock_state(tournament).level_index + step
            return services.jump_to_level(tournament, index, **kwargs)

        return step_level, ()
    return services.set_hand_for_hand, (action.endswith("_on"),)


@console_can("clock")
@require_POST
def console_clock(request, tournament_id: int, action: str):
    """A clock button. Each form carries the clock version it was shown with (``clock_version``, kept
    current by console.js): a repeated or stale post changes nothing and says the clock has moved."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if action not in CLOCK_ACTIONS:
        raise Http404(_("No such clock action."))
    try:
        version = request.POST.get("clock_version", "")
        if not (version.isascii() and version.isdigit() and len(version) <= 18):
            raise ValidationError(
                {
                    "clock_version": _(
                        "This page is out of date: reload it and try again (nothing was changed)."
                    )
                }
            )
        operation, args = _clock_operation(action, request.POST)
        services.change_clock(tournament, operation, *args, expected_version=int(version), actor=request.user)
    except _service_errors() as exc:
        messages.error(request, _error_text(exc))
    return _back(request, tournament, "clock")


@console_can("clock")
@require_POST
def console_announce(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        set_announcement(tournament, request.POST.get("text", ""), actor=request.user)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    return _back(request, tournament, "clock")


@console_can("clock")
@require_POST
def console_floor_pin(request, tournament_id: int):
    """The floor's PIN that approves an undo on a tablet (issue 15 item 6); empty turns it off."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        tournament = services.set_floor_pin(tournament, request.POST.get("pin", ""), actor=request.user)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(
            request,
            _("The floor PIN is set: the tablets can undo an input with it.")
            if tournament.floor_pin_hash
            else _("The floor PIN is off: only the console can take an input back."),
        )
    return _back(request, tournament, "devices")


@console_can("entries")
@require_POST
def console_register(request, tournament_id: int):

    tournament = get_object_or_404(Tournament, pk=tournament_id)
    name = request.POST.get("name", "")
    player_id = request.POST.get("player", "")
    try:
        with transaction.atomic():
            if player_id:
                if not (player_id.isascii() and player_id.isdigit() and len(player_id) <= 18):
                    raise ValidationError({"player": _("Choose a player from the list.")})
                player = get_object_or_404(Player, pk=player_id)
            elif name.strip():
                # "ana lima" registers Ana Lima when she is known: case, accents and spacing ignored.
                player = services.player_named(name)
            else:
                raise ValidationError({"name": _("Give the player's name.")})
            entry = services.register(tournament, player, actor=request.user)
        messages.success(request, _("%(entry)s is registered.") % {"entry": entry})
    except _service_errors() as exc:
        messages.error(request, _error_text(exc))
    return _back(request, tournament, "entries")


@console_can("busts")
@require_POST
def console_bust(request, tournament_id: int, entry_id: int):
    """Bust a player who has no chips left (R8.8); a player with chips is removed instead."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    try:
        # The chips at the start of the hand are unknown here: one chip ranks the player below any
        # other bust of the same hand that the hands themselves record.
        services.bust_entries(tournament, [(entry, 1)], actor=request.user, hand_label="console")
    except _service_errors() as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, _("%(entry)s is out.") % {"entry": entry})
    return _back(request, tournament, "entries")


@console_can("busts")
@require_POST
def console_remove(request, tournament_id: int, entry_id: int):
    """Disqualification or no-show: the player leaves with their chips, for the reason given."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    try:
        entry = services.remove_entry(entry, reason=request.POST.get("reason", ""), actor=request.user)
    except _service_errors() as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, _("%(entry)s is removed from the tournament.") % {"entry": entry})
    return _back(request, tournament, "entries")


@console_can("devices")
@require_POST
def console_pair(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    kind = request.POST.get("kind", "")
    table = None
    table_id = request.POST.get("table", "")
    if kind == DeviceKind.TABLET and table_id.isascii() and table_id.isdigit():
        # Anything else is no table: the pairing service then says a tablet needs one.
        table = Table.objects.filter(tournament=tournament, pk=table_id).first()
    try:
        new = create_pairing_code(tournament=tournament, kind=kind, table=table, actor=request.user)
    except PairingError as exc:
        messages.error(request, exc.message)
        return _back(request, tournament, "devices")
    url = request.build_absolute_uri(reverse("pair-code", args=[new.code]))
    qr = segno.make(url, error="m").svg_inline(scale=6, dark="#111", light="#fff")
    return render(
        request,
        "console/pairing.html",
        {"tournament": tournament, "new": new, "url": url, "qr": qr, "table": table},
    )


@console_can("devices")
@require_POST
def console_revoke(request, tournament_id: int, device_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    device = get_object_or_404(Device, pk=device_id, tournament=tournament)
    revoke_device(device, actor=request.user, reason=request.POST.get("reason", ""))
    messages.success(request, _("%(device)s is revoked.") % {"device": device.label})
    return _back(request, tournament, "devices")


@console_can("corrections")
@require_POST
def console_answer_floor(request, tournament_id: int, call_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    call = get_object_or_404(FloorCall, pk=call_id, tournament=tournament)
    answer_floor_call(call, actor=request.user)
    return _back(request, tournament, "clock")


@console_can("view")
def console_all_ins(request, tournament_id: int):
    """The all-ins panel alone, for the live console to swap in when a run-out moves on: its
    equities are worked out here, per panel, never in the snapshot every director shares."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "console/all_ins_panel.html", {"tournament": tournament})


@console_can("view")
def console_hand(request, tournament_id: int, hand_id: int):
    """One hand's history and its verification (RULES section 7), for the director."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id, table__tournament=tournament)
    history = histories.hand_history(hand, "text") if hand.is_over else ""
    report = verify_hand(hand)
    return render(
        request,
        "console/hand.html",
        {"tournament": tournament, "hand": hand, "history": history, "report": report},
    )
