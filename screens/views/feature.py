"""The feature table (a stream, the room's screens) and the console's all-in panel.

The feature page needs no sign-in: it is sent only what ``snapshots.feature_data`` lets out, the
hands the dealer has turned face up (R6.2) with each player's all-in equity. The console panel shows
the director the tables whose all-in is face up, with the same equity, and lets the floor release a
run-out held by hand-for-hand (R8.6, TDA RP-8F).
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from dealing import services as dealing_services
from dealing.equity import hand_equity
from dealing.models import Hand
from dealing.permissions import can_correct
from tables.models import Table
from tournaments.models import Tournament

from .staff import console_can


def feature_labels() -> dict:
    return {
        "table": _("Table %(number)s"),
        "hand": _("Hand #%(number)s"),
        "pot": _("Pot"),
        "folded": _("Folded"),
        "all_in": _("All-in"),
        "face_down": _("Face down"),
        "equity": _("Equity"),
        "high": _("High"),
        "low": _("Low"),
        "scoop": _("Scoop"),
        "exact": _("exact, every board"),
        "sampled": _("sampled, ± one standard error"),
        "no_hand": _("Waiting for the next hand"),
        "wins": _("wins"),
        "offline": _("Reconnecting…"),
        "gone": _("This table is gone."),
        "streets": {
            "preflop": _("First flop card"),
            "flop": _("Flop"),
            "turn": _("Turn"),
            "river": _("River"),
        },
    }


def feature(request, table_id: int):
    """The feature table's page: everything comes over its public socket."""
    table = get_object_or_404(Table.objects.select_related("tournament"), pk=table_id)
    return render(
        request,
        "feature.html",
        {
            "table": table,
            "tournament": table.tournament,
            "ws_path": f"/ws/feature/{table.pk}/",
            "labels": feature_labels(),
        },
    )


# --- the console's all-in panel ---------------------------------------------------------------------


def all_in_tables(tournament: Tournament) -> list[dict]:
    """The running hands of ``tournament`` whose betting closed with an all-in: the table, what it
    waits for, and once the hands are face up each player's equity."""
    rows = []
    hands = (
        # Only the hands in a run-out, picked by the database: at a big event 1,250 hands run at once.
        Hand.objects.filter(table__tournament=tournament, status=Hand.Status.RUNNING, state__runout=True)
        .select_related("table", "table__tournament")
        .order_by("table__number")
    )
    for hand in hands:
        view = dealing_services.public_view(hand)
        if not view.get("runout"):
            continue
        equity = hand_equity(hand, view)
        shares = {p["seat"]: p for p in equity["players"]} if equity else {}
        rows.append(
            {
                "hand": hand,
                "table": hand.table,
                "phase": view["phase"],
                "board": view["board"],
                "hold": dealing_services.runout_hold(hand, view=view),
                "players": [
                    {
                        "seat": p["seat"],
                        "player": p["player"],
                        "cards": p["cards"] if p["shown"] else None,
                        "percent": _percent(shares[p["seat"]]["share"]) if p["seat"] in shares else None,
                        "error": _percent(shares[p["seat"]]["share_error"]) if p["seat"] in shares else None,
                    }
                    for p in view["players"]
                    if not p["folded"]
                ],
                "method": equity["method"] if equity else None,
            }
        )
    return rows


def _percent(value: float) -> float:
    return round(value * 100, 1)


@console_can("corrections")
@require_POST
def console_release_runout(request, tournament_id: int, hand_id: int):
    """The floor lets a table deal its all-in's run-out during hand-for-hand (R8.6, TDA RP-8F)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id, table__tournament=tournament)
    back = redirect(reverse("console", args=[tournament.pk]) + "#all-ins")
    if not can_correct(request.user):
        messages.error(request, _("Only a floor person may release a run-out."))
        return back
    try:
        dealing_services.release_runout(hand, actor=request.user)
    except dealing_services.DealingError as exc:
        messages.error(request, str(exc.message))
        return back
    messages.success(request, _("Table %(number)s may deal its run-out.") % {"number": hand.table.number})
    return back
