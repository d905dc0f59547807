"""Pages: the clock screen, pairing, the director console.

Server-rendered; the live parts are filled in by small scripts from the WebSocket snapshots. The
console's buttons post plain forms to thin views that call the services, then come back to the page
(post/redirect/get); a refused change is shown as a message naming the problem and changes nothing.
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import user_passes_test
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .devices import (
    Announcement,
    Device,
    DeviceKind,
    FloorCall,
    PairingError,
    answer_floor_call,
    create_pairing_code,
    device_for_token,
    device_from_cookies,
    redeem_pairing_code,
    revoke_device,
)
from .errors import TournamentError
from .models import AuditEntry, Entry, Player, Tournament, tournament_changed

DEVICE_COOKIE_MAX_AGE = 365 * 24 * 3600
ICM_MAX_PLAYERS = 12

# The console is for active staff; anyone else is sent to the sign-in page.
staff_member_required = user_passes_test(lambda u: u.is_active and u.is_staff, login_url="login")


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
        "hand_for_hand": _("HAND FOR HAND"),
        "seed_commitment": _("Seed commitment"),
        "offline": _("Reconnecting…"),
        "revoked": _("This screen was unpaired by the director."),
        "unauthorized": _("This screen is not paired."),
        "payouts": _("Payouts"),
        "sound_on": _("Tap to turn sound on"),
    }


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


def _is_staff(request) -> bool:
    return request.user.is_authenticated and request.user.is_staff


# --- public pages ---------------------------------------------------------------------------------


def home(request):
    if _is_staff(request):
        return redirect("console-list")
    return render(request, "home.html")


def clock_screen(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    device = device_from_cookies(request.COOKIES, DeviceKind.CLOCK, tournament.pk)
    if device is None and not _is_staff(request):
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


# --- the director console -------------------------------------------------------------------------


@staff_member_required
def console_list(request):
    tournaments = Tournament.objects.order_by("-created_at")
    return render(request, "console/list.html", {"tournaments": tournaments})


def _back(request, tournament: Tournament, anchor: str = ""):
    target = request.POST.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}):
        return redirect(target)
    return redirect(reverse("console", args=[tournament.pk]) + (f"#{anchor}" if anchor else ""))


def _error_text(exc) -> str:
    if isinstance(exc, ValidationError):
        if hasattr(exc, "error_dict"):
            return "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())
        return " ".join(exc.messages)
    return str(getattr(exc, "message", None) or exc)


def _service_errors():

    return (TournamentError, ValidationError)


def _payouts(tournament: Tournament) -> tuple[list[dict], list[dict]]:
    """Prizes by place, and each remaining player's ICM value when few are left."""
    from . import icm, services

    table = services.payout_table(tournament)
    active = list(
        tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("player").order_by("-chips")
    )
    rows = []
    equities = []
    if active and table and len(active) <= ICM_MAX_PLAYERS:
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


@staff_member_required
def console(request, tournament_id: int):
    from dealing.models import Hand
    from tables.models import Move, Table

    from . import services

    tournament = get_object_or_404(Tournament.objects.select_related("structure"), pk=tournament_id)
    levels = list(tournament.structure.levels.order_by("order"))
    entries = tournament.entries.select_related("player").order_by("status", "place", "player__name")
    tables = (
        Table.objects.filter(tournament=tournament)
        .prefetch_related("seat_set__entry__player")
        .order_by("number")
    )
    moves = Move.objects.filter(tournament=tournament, status__in=[Move.Status.PENDING, Move.Status.DONE])
    hands = (
        Hand.objects.filter(table__tournament=tournament).select_related("table").order_by("-started_at")[:30]
    )
    payouts, icm_rows = _payouts(tournament)
    devices = (
        Device.objects.filter(tournament=tournament)
        .select_related("table")
        .order_by("revoked_at", "kind", "id")
    )
    audit = AuditEntry.objects.filter(tournament=tournament).select_related("actor")[:50]
    return render(
        request,
        "console/tournament.html",
        {
            "tournament": tournament,
            "levels": levels,
            "entries": entries,
            "tables": tables,
            "moves": moves.select_related("entry__player", "from_table", "to_table"),
            "hands": hands,
            "payouts": payouts,
            "prize_pool": services.prize_pool(tournament),
            "icm_rows": icm_rows,
            "devices": devices,
            "audit": audit,
            "announcement": Announcement.objects.filter(tournament=tournament, active=True).first(),
            "floor_calls": FloorCall.objects.filter(
                tournament=tournament, answered_at__isnull=True
            ).select_related("table"),
            "clock_state": services.clock_state(tournament),
            "ws_path": f"/ws/tournaments/{tournament.pk}/director/",
            "labels": clock_labels(),
            "players": Player.objects.exclude(
                entries__in=tournament.entries.filter(status=Entry.Status.ACTIVE)
            ).order_by("name")[:500],
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


@staff_member_required
@require_POST
def console_clock(request, tournament_id: int, action: str):
    from . import services

    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if action not in CLOCK_ACTIONS:
        raise Http404(_("No such clock action."))
    try:
        if action == "start":
            services.start_tournament(tournament, actor=request.user)
        elif action == "open_registration":
            services.open_registration(tournament, actor=request.user)
        elif action == "pause":
            services.pause_clock(tournament, actor=request.user)
        elif action == "resume":
            services.resume_clock(tournament, actor=request.user)
        elif action == "add_time":
            try:
                seconds = int(request.POST.get("seconds", ""))
            except ValueError:
                raise ValidationError({"seconds": _("Give a whole number of seconds.")}) from None
            services.add_time(tournament, seconds, actor=request.user)
        elif action in ("next_level", "previous_level", "jump"):
            state = services.clock_state(tournament)
            if action == "jump":
                try:
                    index = int(request.POST.get("index", ""))
                except ValueError:
                    raise ValidationError({"index": _("Choose a level.")}) from None
            else:
                index = state.level_index + (1 if action == "next_level" else -1)
            services.jump_to_level(tournament, index, actor=request.user)
        elif action in ("hand_for_hand_on", "hand_for_hand_off"):
            services.set_hand_for_hand(tournament, action.endswith("_on"), actor=request.user)
    except _service_errors() as exc:
        messages.error(request, _error_text(exc))
    return _back(request, tournament, "clock")


@staff_member_required
@require_POST
def console_announce(request, tournament_id: int):
    from django.db import transaction

    tournament = get_object_or_404(Tournament, pk=tournament_id)
    text = request.POST.get("text", "").strip()
    with transaction.atomic():
        Announcement.objects.filter(tournament=tournament, active=True).update(active=False)
        if text:
            if len(text) > 300:
                messages.error(request, _("An announcement has at most 300 characters."))
                return _back(request, tournament, "clock")
            Announcement.objects.create(tournament=tournament, text=text, created_by=request.user)
        from .audit import AuditAction, record_audit

        record_audit(request.user, AuditAction.ANNOUNCEMENT, tournament, data={"text": text})
        tournament_changed(tournament.pk)
    return _back(request, tournament, "clock")


@staff_member_required
@require_POST
def console_register(request, tournament_id: int):
    from django.db import transaction

    from . import services

    tournament = get_object_or_404(Tournament, pk=tournament_id)
    name = request.POST.get("name", "").strip()
    player_id = request.POST.get("player", "")
    try:
        with transaction.atomic():
            if player_id:
                if not (player_id.isascii() and player_id.isdigit()):
                    raise ValidationError({"player": _("Choose a player from the list.")})
                player = get_object_or_404(Player, pk=player_id)
            elif name:
                player = Player.objects.filter(name=name).first() or Player.objects.create(name=name[:200])
            else:
                raise ValidationError({"name": _("Give the player's name.")})
            entry = services.register(tournament, player, actor=request.user)
        messages.success(request, _("%(entry)s is registered.") % {"entry": entry})
    except _service_errors() as exc:
        messages.error(request, _error_text(exc))
    return _back(request, tournament, "entries")


@staff_member_required
@require_POST
def console_bust(request, tournament_id: int, entry_id: int):
    """A director's manual bust-out (hands bust players themselves; this is the floor's correction)."""
    from django.db import transaction

    from . import services

    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    reason = request.POST.get("reason", "").strip() or _("Busted by the director")
    try:
        with transaction.atomic():
            start_chips = entry.chips
            if entry.chips:
                entry = services.set_chips(entry, 0, reason=reason, actor=request.user)
            services.bust_entries(
                tournament, [(entry, start_chips)], actor=request.user, hand_label="console"
            )
    except _service_errors() as exc:
        messages.error(request, _error_text(exc))
    return _back(request, tournament, "entries")


@staff_member_required
@require_POST
def console_pair(request, tournament_id: int):
    from tables.models import Table

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


@staff_member_required
@require_POST
def console_revoke(request, tournament_id: int, device_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    device = get_object_or_404(Device, pk=device_id, tournament=tournament)
    revoke_device(device, actor=request.user, reason=request.POST.get("reason", ""))
    messages.success(request, _("%(device)s is revoked.") % {"device": device.label})
    return _back(request, tournament, "devices")


@staff_member_required
@require_POST
def console_answer_floor(request, tournament_id: int, call_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    call = get_object_or_404(FloorCall, pk=call_id, tournament=tournament)
    answer_floor_call(call, actor=request.user)
    return _back(request, tournament, "clock")


@staff_member_required
def console_hand(request, tournament_id: int, hand_id: int):
    """One hand's history and its verification (RULES section 7), for the director."""
    from dealing import histories
    from dealing.models import Hand
    from dealing.verification import verify_hand

    tournament = get_object_or_404(Tournament, pk=tournament_id)
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id, table__tournament=tournament)
    history = histories.hand_history(hand, "text") if hand.is_over else ""
    report = verify_hand(hand)
    return render(
        request,
        "console/hand.html",
        {"tournament": tournament, "hand": hand, "history": history, "report": report},
    )
