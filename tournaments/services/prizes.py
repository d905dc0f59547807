"""Prizes: each placed entry's prize from the current payout table (R8.6 shared places split), or
from the deal the players left made; and the director's own payout table in amounts."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from config.prepared import PreparedQuery

from .. import payouts as payoutmath
from ..audit import AuditAction, record_audit
from ..errors import RuleError, StateError
from ..models import Deal, DealShare, Entry, Tournament, tournament_changed
from ..selectors import payout_table, prize_pool
from .common import MAX_CHIPS, Status, locked


def recompute_prizes(
    tournament: Tournament, *, placed: Iterable[Entry] | None = None, totals: dict[str, int] | None = None
) -> None:
    """Each placed entry's prize from the current table; shared places split their prizes (R8.6).

    After a deal, each player in it is paid their deal amount (from the deal on, still in or not),
    and whoever finishes first also the amount left to play for; the places above the deal keep the
    table's prizes.

    ``placed``: only these entries' places changed (a bust): only their places are worked out, with
    everyone who shares them, as the pool and the table stand. Late on a big Day 1 the whole field's
    prizes meant reading 8,000 placed entries at every bust (a quarter of a second in the dealer's
    input that ended the hand). With a deal made, everything is worked out as always.

    ``totals``: ``entry_totals`` as read in this transaction, when the caller has them (the pool's
    figures: entries, re-entries, rebuys and add-ons)."""
    deal = _deal_of.first(tournament.pk)
    if placed is not None and deal is None:
        groups = {(e.place, e.place_shared_to or e.place) for e in placed if e.place is not None}
        if not groups:
            return
        # Everyone in those places: a shared place splits its prizes among all who share it.
        members = tournament.entries.filter(
            place__gte=min(first for first, _last in groups), place__lte=max(first for first, _last in groups)
        ).order_by("place", "pk")
        sharing = [e for e in members if (e.place, e.place_shared_to or e.place) in groups]
        changed = _prizes_by_place(tournament, sharing, {}, totals)
        if changed:
            Entry.objects.bulk_update(changed, ["prize"])
        return
    dealt = dict(DealShare.objects.filter(deal=deal).values_list("entry_id", "amount")) if deal else {}
    placed_entries = list(tournament.entries.filter(place__isnull=False).order_by("place", "pk"))
    changed = _prizes_by_place(tournament, placed_entries, dealt)
    for entry in tournament.entries.filter(pk__in=dealt):
        prize = dealt[entry.pk] + (deal.left_to_play_for if entry.place == 1 else 0)
        if entry.prize != prize:
            entry.prize = prize
            changed.append(entry)
    active_with_prize = (
        tournament.entries.filter(place__isnull=True).exclude(prize=0).exclude(pk__in=list(dealt))
    )
    for entry in active_with_prize:
        entry.prize = 0
        changed.append(entry)
    if changed:
        Entry.objects.bulk_update(changed, ["prize"])


# Read at every bust (the dealer's input that ends the hand): its SQL built once (config.prepared).
_deal_of = PreparedQuery(lambda tournament_id: Deal.objects.filter(tournament_id=tournament_id)[:1])


def _prizes_by_place(
    tournament: Tournament, placed: list[Entry], dealt: dict[int, int], totals: dict[str, int] | None = None
) -> list[Entry]:
    """The placed entries (in place order) not in a deal get their place's prize; returns those whose
    prize changed. The table is worked out only when someone holds a place: a registration before the
    first bust (10,000 of them at a big event) costs two small reads, not a payout table of the field."""
    if not placed:
        return []
    amounts = payout_table(tournament, totals)
    changed = []
    groups: dict[tuple[int, int], list[Entry]] = {}
    for entry in placed:
        if entry.pk not in dealt:
            groups.setdefault((entry.place, entry.place_shared_to or entry.place), []).append(entry)
    for (first, last), members in groups.items():
        padded = amounts + [0] * max(0, last - len(amounts))
        shares = payoutmath.split_shared(padded, first, last)
        # Fewer members than places (an undone bust): each still gets an equal share of the range.
        for entry, prize in zip(members, shares):
            if entry.prize != prize:
                entry.prize = prize
                changed.append(entry)
    return changed


MAX_PLACES = 10_000


@transaction.atomic
def set_payout_table(tournament: Tournament, amounts: list[int], *, actor=None) -> Tournament:
    """The director's own payout table: whole amounts by place, best first, never increasing, adding
    up exactly to the prize pool as it stands. An empty list goes back to the percentages.

    Places already finished keep their prizes (a busted player's prize does not move under them); a
    finished tournament, or one with a deal, keeps its table."""
    tournament = locked(tournament)
    if not isinstance(amounts, list) or len(amounts) > MAX_PLACES:
        raise ValidationError({"amounts": _("List at most %(max)s amounts.") % {"max": MAX_PLACES}})
    for amount in amounts:
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_CHIPS:
            raise ValidationError(
                {"amounts": _("Every prize must be a whole number from 1 to %(max)s.") % {"max": MAX_CHIPS}}
            )
    if tournament.status == Status.FINISHED:
        raise StateError(_("The tournament is finished: its prizes stand."), code="finished")
    if Deal.objects.filter(tournament=tournament).exists():
        raise StateError(
            _("The players left made a deal: the payout table can no longer change."), code="deal_made"
        )
    if any(later > earlier for earlier, later in itertools.pairwise(amounts)):
        raise RuleError(
            _("A lower place cannot be paid more than a higher one."), code="not_descending", field="amounts"
        )
    pool = prize_pool(tournament)
    if amounts and sum(amounts) != pool:
        difference = sum(amounts) - pool
        raise RuleError(
            _("The prizes add up to %(sum)s, not the prize pool of %(pool)s: %(difference)s too much.")
            % {"sum": sum(amounts), "pool": pool, "difference": difference}
            if difference > 0
            else _("The prizes add up to %(sum)s, not the prize pool of %(pool)s: %(difference)s short.")
            % {"sum": sum(amounts), "pool": pool, "difference": -difference},
            code="not_the_pool",
            field="amounts",
            params={"sum": sum(amounts), "pool": pool, "difference": difference},
        )
    before = payout_table(tournament)
    old_amounts = list(tournament.payout_amounts)
    tournament.payout_amounts = list(amounts)
    after = payout_table(tournament)
    finished = tournament.entries.filter(place__isnull=False).values_list("place", "place_shared_to")
    for place in sorted({p for first, last in finished for p in range(first, (last or first) + 1)}):
        was = before[place - 1] if place <= len(before) else 0
        now = after[place - 1] if place <= len(after) else 0
        if was != now:
            raise StateError(
                _("Place %(place)s is already finished, paid %(amount)s: a finished place keeps its prize.")
                % {"place": place, "amount": was},
                code="place_paid",
                field="amounts",
                params={"place": place, "amount": was},
            )
    tournament.save(update_fields=["payout_amounts"])
    record_audit(
        actor,
        AuditAction.PAYOUTS_SET,
        tournament,
        data={"before": before, "after": after, "amounts_before": old_amounts},
    )
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return tournament
