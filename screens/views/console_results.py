"""The finish: the results (places, names, prizes, the deal), as a page to print and as CSV."""

from __future__ import annotations

import csv

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.selectors import deal_of

from .staff import console_can


def result_rows(tournament: Tournament, deal=None) -> list[dict]:
    """Everyone placed, best first, then those still in (by chips) and busts not placed yet. With a
    deal, each of its players' rows says their deal amount and, for the winner, what was left to
    play for."""
    entries = list(tournament.entries.select_related("player"))
    dealt = {share.entry_id: share.amount for share in deal.shares.all()} if deal else {}
    placed = sorted((e for e in entries if e.place), key=lambda e: (e.place, e.player.name))
    active = sorted(
        (e for e in entries if not e.place and e.status == Entry.Status.ACTIVE), key=lambda e: -e.chips
    )
    waiting = [e for e in entries if not e.place and e.status != Entry.Status.ACTIVE]
    rows = []
    for entry in placed:
        shared = entry.place_shared_to and entry.place_shared_to != entry.place
        rows.append(
            {
                "place": f"{entry.place}–{entry.place_shared_to}" if shared else str(entry.place),
                "entry": entry,
                "prize": entry.prize,
                "state": "placed",
            }
        )
    # A player of the deal still in already has their deal amount.
    rows += [
        {"place": "", "entry": e, "prize": e.prize if e.pk in dealt else 0, "state": "in"} for e in active
    ]
    rows += [{"place": "", "entry": e, "prize": 0, "state": "waiting"} for e in waiting]
    for row in rows:
        row["deal"] = dealt.get(row["entry"].pk)
        won = row["deal"] is not None and row["entry"].place == 1
        row["left_won"] = deal.left_to_play_for if won else 0
    return rows


@console_can("view")
def results(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    deal = deal_of(tournament)
    rows = result_rows(tournament, deal)
    return render(
        request,
        "console/results.html",
        {
            "tournament": tournament,
            "rows": rows,
            "prize_pool": services.prize_pool(tournament),
            "paid": sum(r["prize"] for r in rows),
            "entries": tournament.entries.count(),
            "payouts": list(enumerate(services.payout_table(tournament), start=1)),
            "deal": deal,
        },
    )


@console_can("view")
def results_csv(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = slugify(tournament.name) or f"tournament-{tournament.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}-results.csv"'
    response.write("\ufeff")  # spreadsheets then read the names' accents right
    writer = csv.writer(response)
    deal = deal_of(tournament)
    header = [_("Place"), _("Player"), _("Entry"), _("Prize"), _("Rebuys"), _("Add-on"), _("Status")]
    if deal:
        header += [_("Deal (%(kind)s)") % {"kind": deal.get_kind_display()}, _("Left to play for, won")]
    writer.writerow(header)
    for row in result_rows(tournament, deal):
        entry = row["entry"]
        name = entry.player.name
        if name[:1] in ("=", "+", "-", "@"):
            name = "'" + name  # never a formula in a spreadsheet
        writer.writerow(
            [
                row["place"],
                name,
                entry.number,
                row["prize"],
                entry.rebuys,
                _("yes") if entry.addon_taken else "",
                entry.get_status_display(),
                *([row["deal"] if row["deal"] is not None else "", row["left_won"] or ""] if deal else []),
            ]
        )
    return response
