"""Color-up and chip race at a break (R8.7)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tables.models import Seat, Table

from .. import chiprace
from ..audit import AuditAction, record_audit
from ..errors import StateError
from ..models import Entry, Tournament, tournament_changed
from ..selectors import clock_state
from .common import Status, locked


@transaction.atomic
def color_up(tournament: Tournament, *, actor=None, rng=None, now=None) -> chiprace.RaceResult:
    """At a break, take the break's colored-up chips out of play and race off the odd chips (R8.7).

    Done once per break, between hands (no table may have a hand running), in seat order when the
    tables app has seats. The new smallest chip is what pots are split in from then on (R6.5).
    """
    tournament = locked(tournament)
    if tournament.status != Status.ON_BREAK:
        raise StateError(_("Chips are colored up only at a break (R8.7)."), code="not_on_break", rule="R8.7")
    level = tournament.structure.levels.get(order=clock_state(tournament, now).level_index)
    leaving = sorted(set(level.color_up or []))
    if not leaving:
        raise StateError(_("This break has no color-up."), code="no_color_up", rule="R8.7")
    denominations = sorted(tournament.chip_denominations or [])
    if not denominations:
        raise StateError(
            _("Set the tournament's chip denominations first."),
            code="no_denominations",
            field="chip_denominations",
        )
    if not set(leaving) & set(denominations):
        raise StateError(_("These chips are already colored up."), code="already_colored_up", rule="R8.7")
    staying = [chip for chip in denominations if chip not in leaving]
    if not staying:
        raise StateError(_("A color-up cannot take every chip out of play."), code="no_chips_left")
    if Table.objects.filter(tournament=tournament, hand_in_progress=True).exists():
        raise StateError(
            _("A hand is still running: color up when every table has finished."),
            code="hand_running",
            rule="R8.7",
        )
    seat_order = {
        entry_id: i
        for i, entry_id in enumerate(
            Seat.objects.filter(table__tournament=tournament, entry__isnull=False)
            .order_by("table__number", "number")
            .values_list("entry_id", flat=True)
        )
    }
    entries = sorted(
        tournament.entries.select_for_update().filter(status=Entry.Status.ACTIVE),
        key=lambda e: (seat_order.get(e.pk, len(seat_order)), e.pk),
    )
    old_unit = tournament.smallest_chip or denominations[0]
    new_unit = staying[0]
    if new_unit % old_unit:
        raise StateError(
            _("The new smallest chip must be a multiple of the old one."),
            code="bad_denominations",
            field="chip_denominations",
        )
    result = chiprace.chip_race([(e.pk, e.chips) for e in entries], old_unit, new_unit, rng)
    changed = []
    for entry in entries:
        if entry.chips != result.stacks[entry.pk]:
            entry.chips = result.stacks[entry.pk]
            changed.append(entry)
    Entry.objects.bulk_update(changed, ["chips"])
    tournament.chip_denominations = staying
    tournament.smallest_chip = new_unit
    tournament.save(update_fields=["chip_denominations", "smallest_chip"])
    record_audit(
        actor,
        AuditAction.TOURNAMENT_COLOR_UP,
        tournament,
        data={
            "removed": leaving,
            "smallest_chip": new_unit,
            "race_winners": result.winners,
            "saved": result.saved,
        },
    )
    tournament_changed(tournament.pk)
    return result
