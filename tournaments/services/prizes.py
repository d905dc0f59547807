"""Prizes: each placed entry's prize from the current payout table (R8.6 shared places split)."""

from __future__ import annotations

from .. import payouts as payoutmath
from ..models import Entry, Tournament
from ..selectors import payout_table


def recompute_prizes(tournament: Tournament) -> None:
    """Each placed entry's prize from the current table; shared places split their prizes (R8.6)."""
    placed = list(tournament.entries.filter(place__isnull=False).order_by("place", "pk"))
    # The table is worked out only when someone holds a place: a registration before the first bust
    # (10,000 of them at a big event) costs two small reads, not a payout table of the whole field.
    amounts = payout_table(tournament) if placed else []
    changed = []
    groups: dict[tuple[int, int], list[Entry]] = {}
    for entry in placed:
        groups.setdefault((entry.place, entry.place_shared_to or entry.place), []).append(entry)
    for (first, last), members in groups.items():
        padded = amounts + [0] * max(0, last - len(amounts))
        shares = payoutmath.split_shared(padded, first, last)
        # Fewer members than places (an undone bust): each still gets an equal share of the range.
        for entry, prize in zip(members, shares):
            if entry.prize != prize:
                entry.prize = prize
                changed.append(entry)
    active_with_prize = tournament.entries.filter(place__isnull=True).exclude(prize=0)
    for entry in active_with_prize:
        entry.prize = 0
        changed.append(entry)
    if changed:
        Entry.objects.bulk_update(changed, ["prize"])
