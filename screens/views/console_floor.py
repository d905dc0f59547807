"""The floor page: chip counts per table, busts and their undo, removing a player, the corrections of a
hand in progress (void a misdeal, take back the last input), and voiding an entry that has not played.

Each area is for the roles that may use it (``screens.roles.CAPABILITIES``). A change is a plain form
that calls one service and comes back to the page (post/redirect/get); a refused change shows the
page again with a message naming the problem, changes nothing, and answers 400 (malformed), 409
(not possible now) or 422 (against a rule).
"""

from __future__ import annotations

import re

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from config.errors import ServiceError
from dealing import services as dealing
from dealing.models import Hand
from tables.models import Seat, Table
from tournaments import services
from tournaments.models import Entry, Tournament

from ..roles import may, refusal
from .staff import console_can
from .staff import error_text as _error_text

FLOOR_AREAS = ("chip_counts", "busts", "corrections")
# A big event has a thousand tables: the page lists this many of each kind, the rest by table number.
SHOWN = 40

# Why a player with chips leaves the tournament (the floor's words); "other" needs the details.
REMOVE_REASONS = {
    "disqualification": gettext_lazy("Disqualification"),
    "no_show": gettext_lazy("No-show"),
    "other": gettext_lazy("Other"),
}


ACTIONS = {
    "fold": gettext_lazy("fold"),
    "check": gettext_lazy("check"),
    "call": gettext_lazy("call"),
    "bet": gettext_lazy("bet"),
    "raise": gettext_lazy("raise"),
    "all_in": gettext_lazy("all-in"),
}


class Malformed(Exception):
    """A form value that is not what the page sends (400)."""


def _number(value: str, message: str) -> int:
    value = (value or "").strip()
    if not (value.isascii() and value.isdigit() and len(value) <= 18):
        raise Malformed(message)
    return int(value)


CHIP_COUNT = re.compile(r"\d+|\d{1,3}(?:([ ,.\u202f])\d{3})(?:\1\d{3})*")


def _chips(value: str) -> int:
    """A typed chip count: digits, or digits in thousands groups ("12,500", "12 500", "12.500")."""
    value = (value or "").strip()
    if value.startswith("-") and CHIP_COUNT.fullmatch(value[1:]):
        raise Malformed(
            _("Chips must be a whole number from 0 to %(max)s, not %(value)s.")
            % {"max": services.MAX_CHIPS, "value": value}
        )
    if not (value.isascii() and CHIP_COUNT.fullmatch(value)) or len(value) > 24:
        raise Malformed(_("“%(value)s” is not a number of chips.") % {"value": value[:20]})
    return int(re.sub(r"\D", "", value))


def _status_of(exc) -> int:
    if isinstance(exc, ServiceError):
        return exc.status
    return 400


def _table_of(tournament: Tournament, number: str | int | None) -> Table | None:
    if number in (None, ""):
        return None
    if isinstance(number, str):
        number = number.strip()
        if not (number.isascii() and number.isdigit() and len(number) <= 6):
            return None
    return Table.objects.filter(tournament=tournament, number=int(number)).first()


def _input_label(event) -> str:
    """A hand's input in the floor's words: "Seat 3: raise to 60", "Board: Ah Kd 5c"."""
    payload = event.payload or {}
    seat = payload.get("seat")
    if event.type == "action":
        action = ACTIONS.get(payload.get("action", ""), payload.get("action", ""))
        if payload.get("to") and payload.get("action") in ("bet", "raise"):
            return _("Seat %(seat)s: %(action)s to %(to)s") % {
                "seat": seat,
                "action": action,
                "to": payload["to"],
            }
        return _("Seat %(seat)s: %(action)s") % {"seat": seat, "action": action}
    if event.type == "board":
        cards = " ".join(payload.get("cards") or [])
        return _("Board: %(cards)s") % {"cards": cards} if cards else _("Board cards")
    if event.type == "show":
        return _("Seat %(seat)s shows") % {"seat": seat}
    if event.type == "muck":
        return _("Seat %(seat)s mucks") % {"seat": seat}
    return _("All hands face up")


def _hands_in_progress(tournament: Tournament, table: Table | None) -> list[dict]:
    hands = Hand.objects.filter(table__tournament=tournament, status=Hand.Status.RUNNING).select_related(
        "table"
    )
    if table is not None:
        hands = hands.filter(table=table)
    rows = []
    for hand in hands.order_by("table__number")[:SHOWN]:
        events = dealing.event_rows(hand)
        last = dealing.last_input(hand, events)
        rows.append(
            {
                "hand": hand,
                "seq": events[-1].seq if events else -1,
                "last_input": _input_label(last) if last is not None else "",
            }
        )
    return rows


def _seats(table: Table) -> list[Seat]:
    return list(
        Seat.objects.filter(table=table, entry__isnull=False, entry__status=Entry.Status.ACTIVE)
        .select_related("entry__player")
        .order_by("number")
    )


def _page(request, tournament: Tournament, *, table: Table | None = None, status: int = 200, typed=None):
    can = {area: may(request.user, area) for area in (*FLOOR_AREAS, "entries")}
    seats = _seats(table) if table is not None else []
    active = tournament.entries.filter(status=Entry.Status.ACTIVE)
    context = {
        "tournament": tournament,
        "table": table,
        "seats": seats,
        "table_total": sum(seat.entry.chips for seat in seats),
        "typed": typed or {},
        "tables": Table.objects.filter(tournament=tournament)
        .exclude(status=Table.Status.BROKEN)
        .order_by("number")[:SHOWN],
        "remove_reasons": REMOVE_REASONS,
    }
    if can["busts"]:
        context["no_chips"] = list(
            active.filter(chips=0).select_related("player").order_by("player__name")[:SHOWN]
        )
        context["recent_busts"] = list(
            tournament.entries.filter(status=Entry.Status.BUSTED)
            .select_related("player")
            .order_by("-busted_at", "-pk")[:10]
        )
    if can["corrections"]:
        context["hands"] = _hands_in_progress(tournament, table)
    if can["entries"] and tournament.started_at is not None:
        # The entries that may not have played yet: those registered since the start (late entries).
        context["late_entries"] = list(
            active.filter(created_at__gte=tournament.started_at)
            .select_related("player")
            .order_by("-created_at")[:SHOWN]
        )
    return render(request, "console/floor.html", context, status=status)


def _refused(request, tournament: Tournament, exc, *, table: Table | None = None, typed=None):
    """The page again, with the problem named and the status it stands for; nothing was changed."""
    messages.error(request, _error_text(exc))
    return _page(request, tournament, table=table, status=_status_of(exc), typed=typed)


def _back(tournament: Tournament, table: Table | None = None, anchor: str = ""):
    url = reverse("console-floor", args=[tournament.pk])
    if table is not None:
        url += f"?table={table.number}"
    return redirect(url + (f"#{anchor}" if anchor else ""))


def _require_floor_area(user) -> None:
    if not any(may(user, area) for area in FLOOR_AREAS):
        raise PermissionDenied(refusal(user, "busts"))


@console_can("view")
def floor(request, tournament_id: int):
    _require_floor_area(request.user)
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    typed = request.GET.get("table", "")
    table = _table_of(tournament, typed)
    if typed and table is None:
        messages.error(request, _("There is no table %(number)s.") % {"number": typed.strip()[:6]})
        return _page(request, tournament, status=404)
    return _page(request, tournament, table=table)


@console_can("chip_counts")
@require_POST
def count_table(request, tournament_id: int, table_number: int):
    """One table's count, saved at once (one service call): the totals before and after are said."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    table = get_object_or_404(Table, tournament=tournament, number=table_number)
    counts, typed = {}, {}
    try:
        for key, value in request.POST.items():
            if not key.startswith("chips-"):
                continue
            entry_id = _number(key[len("chips-") :], _("The count names a player the page does not know."))
            typed[entry_id] = value
            if value.strip():  # a seat left blank is not counted: its chips stay as they are
                counts[entry_id] = _chips(value)
        result = services.count_table(table, counts, reason=_("chip count"), actor=request.user)
    except (Malformed, ValidationError, ServiceError) as exc:
        return _refused(request, tournament, exc, table=table, typed=typed)
    messages.success(
        request,
        _("Table %(table)s counted: %(before)s chips before, %(after)s after (%(changed)s stacks changed).")
        % {
            "table": table.number,
            "before": result.before,
            "after": result.after,
            "changed": len(result.changed),
        },
    )
    return _back(tournament, table, "count")


def _entry(tournament: Tournament, entry_id: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament=tournament)


@console_can("busts")
@require_POST
def bust(request, tournament_id: int, entry_id: int):
    """A player with no chips is out (R8.8); a player with chips is removed instead, with a reason."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry = _entry(tournament, entry_id)
    table = _table_of(tournament, request.POST.get("table"))
    try:
        # The chips at the start of the hand are unknown here: one chip ranks the player below any
        # other bust of the same hand that the hands themselves record (R8.6).
        services.bust_entries(tournament, [(entry, 1)], actor=request.user, hand_label="floor")
    except (ValidationError, ServiceError) as exc:
        return _refused(request, tournament, exc, table=table)
    messages.success(request, _("%(entry)s is out.") % {"entry": entry})
    return _back(tournament, table, "busts")


@console_can("busts")
@require_POST
def remove(request, tournament_id: int):
    """Disqualification, no-show or another reason: the player leaves with their chips."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    table = _table_of(tournament, request.POST.get("table"))
    kind = request.POST.get("kind", "")
    details = request.POST.get("details", "").strip()[:400]
    try:
        entry = _entry(tournament, _number(request.POST.get("entry", ""), _("Choose the player to remove.")))
        if kind not in REMOVE_REASONS:
            raise ValidationError({"kind": _("Choose why the player is removed.")})
        if kind == "other" and not details:
            raise ValidationError({"details": _("Say why the player is removed.")})
        reason = f"{REMOVE_REASONS[kind]}: {details}" if details else str(REMOVE_REASONS[kind])
        chips = entry.chips
        services.remove_entry(entry, reason=reason, actor=request.user)
    except (Malformed, ValidationError, ServiceError) as exc:
        return _refused(request, tournament, exc, table=table)
    messages.success(
        request,
        _("%(entry)s is removed from the tournament (%(reason)s) with %(chips)s chips.")
        % {"entry": entry, "reason": reason, "chips": chips},
    )
    return _back(tournament, table, "busts")


@console_can("busts")
@require_POST
def undo_bust(request, tournament_id: int, entry_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry = _entry(tournament, entry_id)
    try:
        chips = _chips(request.POST.get("chips", ""))
        entry = services.undo_bust(
            entry, reason=request.POST.get("reason", ""), chips=chips, actor=request.user
        )
    except (Malformed, ValidationError, ServiceError) as exc:
        return _refused(request, tournament, exc)
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    if seat is None:
        messages.success(
            request, _("%(entry)s is back in with %(chips)s chips.") % {"entry": entry, "chips": chips}
        )
    else:
        messages.success(
            request,
            _("%(entry)s is back in with %(chips)s chips: table %(table)s, seat %(seat)s.")
            % {"entry": entry, "chips": chips, "table": seat.table.number, "seat": seat.number},
        )
    return _back(tournament, anchor="busts")


def _hand(tournament: Tournament, hand_id: int) -> Hand:
    return get_object_or_404(Hand.objects.select_related("table"), pk=hand_id, table__tournament=tournament)


def _expected_seq(request) -> int:
    return _number(
        request.POST.get("expected_seq", ""),
        _("This page is out of date: reload it and try again (nothing was changed)."),
    )


@console_can("corrections")
@require_POST
def void_hand(request, tournament_id: int, hand_id: int):
    """A misdeal: the hand is voided and every chip goes back to where it was at its start."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    hand = _hand(tournament, hand_id)
    try:
        dealing.void_hand(
            hand,
            actor=request.user,
            reason=request.POST.get("reason", ""),
            expected_seq=_expected_seq(request),
        )
    except (Malformed, ServiceError) as exc:
        return _refused(request, tournament, exc, table=hand.table)
    messages.success(
        request,
        _("Hand %(hand)s is void (misdeal): the chips are back as they were, and the table deals it again.")
        % {"hand": hand.label},
    )
    return _back(tournament, hand.table, "corrections")


@console_can("corrections")
@require_POST
def correct_last_input(request, tournament_id: int, hand_id: int):
    """The last input of a hand in progress is taken back; the dealer enters the right one."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    hand = _hand(tournament, hand_id)
    try:
        last = dealing.last_input(hand)
        taken_back = _input_label(last) if last is not None else ""
        dealing.correct_last_action(
            hand,
            actor=request.user,
            reason=request.POST.get("reason", ""),
            expected_seq=_expected_seq(request),
        )
    except (Malformed, ServiceError) as exc:
        return _refused(request, tournament, exc, table=hand.table)
    messages.success(
        request,
        _("Hand %(hand)s: “%(input)s” is taken back; the dealer enters the right input.")
        % {"hand": hand.label, "input": taken_back},
    )
    return _back(tournament, hand.table, "corrections")


@console_can("entries")
@require_POST
def void_entry(request, tournament_id: int, entry_id: int):
    """An entry registered by mistake, voided while it has not been dealt a hand."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry = _entry(tournament, entry_id)
    name = str(entry)
    try:
        reason = request.POST.get("reason", "").strip()
        if not reason:
            raise ValidationError({"reason": _("Say why the entry is voided.")})
        seat = services.void_entry(entry, reason=reason, actor=request.user)
    except (ValidationError, ServiceError) as exc:
        return _refused(request, tournament, exc)
    if seat is None:
        messages.success(request, _("The entry of %(name)s is voided.") % {"name": name})
    else:
        messages.success(
            request,
            _("The entry of %(name)s is voided: table %(table)s, seat %(seat)s is free.")
            % {"name": name, "table": seat.table.number, "seat": seat.number},
        )
    return _back(tournament, anchor="void")
