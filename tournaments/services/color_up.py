"""Color-up and chip race at a break (R8.7)."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from dealing.engine.shuffle import hand_seed, shuffled_deck
from tables.models import Seat, Table

from .. import chiprace
from ..audit import AuditAction, record_audit
from ..errors import StateError
from ..models import ChipRace, Entry, Tournament, clock_changed
from ..selectors import clock_state
from .common import Status, locked


@transaction.atomic
def color_up(tournament: Tournament, *, actor=None, rng=None, now=None) -> chiprace.RaceResult:
    """At a break, take the break's colored-up chips out of play and race off the odd chips (R8.7).

    Done once per break, between hands (no table may have a hand running); each table races its own
    odd chips in seat order, and every card dealt is recorded with the seed (``ChipRace``). The new smallest chip is what pots are split in from then on (R6.5).
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
    old_unit = tournament.smallest_chip or denominations[0]
    new_unit = staying[0]
    if new_unit % old_unit:
        raise StateError(
            _("The new smallest chip must be a multiple of the old one."),
            code="bad_denominations",
            field="chip_denominations",
        )
    # Each table races its own odd chips with its own deck, shuffled from one recorded seed.
    seed = bytes(rng.getrandbits(8) for _i in range(32)) if rng is not None else secrets.token_bytes(32)
    entries = {e.pk: e for e in tournament.entries.select_for_update().filter(status=Entry.Status.ACTIVE)}
    seats = Seat.objects.filter(table__tournament=tournament, entry__in=list(entries)).select_related("table")
    by_table: dict[int, list[tuple[int, Entry]]] = {}
    for seat in seats.order_by("table__number", "number"):
        by_table.setdefault(seat.table.number, []).append((seat.number, entries.pop(seat.entry_id)))
    if entries:  # not seated (none once the tables are drawn): raced together, in entry order
        by_table[0] = [(0, entry) for entry in sorted(entries.values(), key=lambda e: e.pk)]
    winners, saved, tables, changed = [], [], [], []
    for number, seated in sorted(by_table.items()):
        race = chiprace.chip_race(
            [(entry.pk, entry.chips) for _seat, entry in seated],
            old_unit,
            new_unit,
            deck=shuffled_deck(hand_seed(seed, number, 0)),
        )
        cards = {r.key: r for r in race.dealt}
        rows = []
        for seat, entry in seated:
            if entry.pk in cards or entry.pk in race.saved:
                dealt = cards.get(entry.pk)
                rows.append(
                    {
                        "seat": seat,
                        "entry": entry.pk,
                        "name": str(entry),
                        "odd_chips": dealt.odd_chips if dealt else 0,
                        "cards": list(dealt.cards) if dealt else [],
                        "best": dealt.best if dealt else None,
                        "won": entry.pk in race.winners,
                        "saved": entry.pk in race.saved,
                    }
                )
            if entry.chips != race.stacks[entry.pk]:
                entry.chips = race.stacks[entry.pk]
                changed.append(entry)
        if rows:
            tables.append({"table": number, "players": rows})
        winners.extend(race.winners)
        saved.extend(race.saved)
    Entry.objects.bulk_update(changed, ["chips"])
    ChipRace.objects.create(
        tournament=tournament,
        level_order=level.order,
        old_chip=old_unit,
        new_chip=new_unit,
        colored_up=leaving,
        seed=seed,
        tables=tables,
    )
    result = chiprace.RaceResult(
        stacks={e.pk: e.chips for e in tournament.entries.filter(status=Entry.Status.ACTIVE)},
        winners=winners,
        saved=saved,
    )
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
            "race_seed": seed.hex(),
            "tables": tables,
        },
    )
    clock_changed(tournament.pk, every_table=True)  # each table's chip race cards (R8.7)
    return result
