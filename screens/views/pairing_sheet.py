"""The pairing sheet: one code and QR code for every table's tablet, printed in one go while the room is
set up (a dealer scans the card at the table), instead of pairing 1,250 tablets one by one."""

from __future__ import annotations

import segno
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments.models import Tournament

from ..pairing import SHEET_MINUTES, create_table_pairing_codes
from .staff import console_can

# Any of the eight QR masks is valid; choosing the best one costs about 4 ms a code (1,250 codes: 5 s),
# a fixed one about 1 ms, and a printed code scans well either way.
QR_MASK = 2


def qr_svg(url: str) -> str:
    return segno.make(url, error="m", mask=QR_MASK, boost_error=False).svg_inline(
        scale=3, dark="#111", light="#fff"
    )


@console_can("devices")
@require_POST
def pairing_sheet(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    lines = create_table_pairing_codes(
        tournament=tournament, actor=request.user, only_unpaired=request.POST.get("all") != "1"
    )
    base = request.build_absolute_uri("/")[:-1]
    cards = []
    for line in lines:
        url = base + reverse("pair-code", args=[line.new.code])
        cards.append({"table": line.table.number, "code": line.new.display, "url": url, "qr": qr_svg(url)})
    return render(
        request,
        "console/pairing_sheet.html",
        {"tournament": tournament, "cards": cards, "hours": SHEET_MINUTES // 60},
    )
