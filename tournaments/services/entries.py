"""Players in and out: registration and re-entry, rebuy, add-on, chip counts, busts and their
places (R8.8, R8.6), undoing a bust. Seats come from the tables app (registration seats you,
busting frees your seat)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.prepared import update_row
from config.validators import clean_player_name
from tables import services as tables_services
from tables.models import Seat, Table, table_changed

from .. import clock as clockmath
from ..audit import AuditAction, record_audit
from ..errors import RuleError, StateError
from ..flight_selectors import check_registration
from ..models import Deal, Entry, Player, Tournament, clock_changed, tournament_changed
from ..selectors import clock_of, entry_totals, levels_of, periods_of, registration_open
from .common import MAX_CHIPS, Status, locked
from .prizes import recompute_prizes


def player_named(name: str) -> Player:
    """The player of this name for a registration: an existing player whose name matches with case,
    accents and spacing ignored ("ana lima" is "Ana Lima"), else a new player. The name is checked
    first (1 to 64 characters, no control, bidi or invisible characters): ValidationError names the
    problem."""
    name = clean_player_name(name)
    return Player.objects.matching(name).first() or Player.objects.create(name=name)


def _seat_if_drawn(entry: Entry) -> None:
    """A late entry gets a seat at once (R8.1) when the tables are already drawn."""
    if (
        Table.objects.filter(tournament=entry.tournament).exists()
        and not Seat.objects.filter(entry=entry).exists()
    ):
        tables_services.seat_entry(entry)


def _not_in_a_hand(entry: Entry) -> None:
    """Chips change only between hands: the dealing service writes each stack back when the hand
    ends, so a rebuy, add-on or recount made while the player's table is mid-hand would be lost."""
    seat = Seat.objects.select_related("table").filter(entry=entry, table__hand_in_progress=True).first()
    if seat is not None:
        raise StateError(
            _("%(entry)s is in a hand at table %(table)s: change the chips when that hand is over.")
            % {"entry": entry, "table": seat.table.number},
            code="in_a_hand",
        )


def players_in(tournament: Tournament) -> int:
    """The players still in (active entries): what the maximum field size counts."""
    return tournament.entries.filter(status=Entry.Status.ACTIVE).count()


def check_room(tournament: Tournament) -> None:
    """The one place that decides whether the field has room for one more player (``max_players``).
    The caller holds the tournament row lock, so two desks cannot both take the last seat."""
    if tournament.max_players is not None and players_in(tournament) >= tournament.max_players:
        raise StateError(
            _("The field is full: %(max)s players are in, the most this tournament seats.")
            % {"max": tournament.max_players},
            code="field_full",
            params={"max": tournament.max_players},
        )


@transaction.atomic
def register(tournament: Tournament, player: Player, *, actor=None, now=None) -> Entry:
    """A first entry or a re-entry (a new Entry, full starting stack)."""
    tournament = locked(tournament)
    if not registration_open(tournament, now):
        raise StateError(_("Registration is closed."), code="registration_closed")
    check_registration(tournament, player)  # a multi-day event's own limits (docs/festivals.md)
    entries = list(tournament.entries.filter(player=player).order_by("number"))
    if any(e.status == Entry.Status.ACTIVE for e in entries):
        raise StateError(
            _("%(player)s already has chips in this tournament.") % {"player": player},
            code="already_active",
            field="player",
        )
    if entries:
        if tournament.status == Status.REGISTERING:
            raise StateError(_("Re-entries open when the tournament starts."), code="reentry_closed")
        if len(entries) - 1 >= tournament.max_reentries:
            raise RuleError(
                _("%(player)s has used all %(count)s re-entries.")
                % {"player": player, "count": tournament.max_reentries},
                code="no_reentries_left",
                field="player",
            )
    check_room(tournament)
    entry = Entry.objects.create(
        tournament=tournament,
        player=player,
        number=(entries[-1].number + 1) if entries else 1,
        chips=tournament.starting_stack,
    )
    _seat_if_drawn(entry)
    record_audit(actor, AuditAction.ENTRY_REENTER if entries else AuditAction.ENTRY_REGISTER, entry)
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return entry


@transaction.atomic
def rebuy(entry: Entry, *, actor=None, now=None) -> Entry:
    """Add the rebuy stack to an entry at or below the starting stack, during late registration."""
    tournament = locked(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    _not_in_a_hand(entry)
    if tournament.rebuys_allowed == 0:
        raise RuleError(_("This tournament has no rebuys."), code="no_rebuys")
    if entry.status != Entry.Status.ACTIVE:
        raise StateError(_("A busted player comes back with a re-entry, not a rebuy."), code="busted")
    if not registration_open(tournament, now) or tournament.status == Status.REGISTERING:
        raise StateError(_("Rebuys are possible only during late registration."), code="rebuy_closed")
    if entry.rebuys >= tournament.rebuys_allowed:
        raise RuleError(
            _("All %(count)s rebuys are used.") % {"count": tournament.rebuys_allowed}, code="no_rebuys_left"
        )
    if entry.chips > tournament.starting_stack:
        raise RuleError(
            _("A rebuy is possible only at or below the starting stack."),
            code="too_many_chips",
            field="chips",
        )
    entry.chips += tournament.rebuy_stack or tournament.starting_stack
    entry.rebuys += 1
    entry.save(update_fields=["chips", "rebuys"])
    record_audit(actor, AuditAction.ENTRY_REBUY, entry, data={"chips": entry.chips})
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return entry


@transaction.atomic
def addon(entry: Entry, *, actor=None, now=None) -> Entry:
    tournament = locked(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    _not_in_a_hand(entry)
    if not tournament.addon_allowed:
        raise RuleError(_("This tournament has no add-on."), code="no_addon")
    if entry.status != Entry.Status.ACTIVE:
        raise StateError(_("Only a player with chips can take the add-on."), code="busted")
    if entry.addon_taken:
        raise RuleError(_("The add-on has already been taken."), code="addon_taken")
    if not registration_open(tournament, now):
        raise StateError(_("The add-on is over (it closes with late registration)."), code="addon_closed")
    entry.chips += tournament.addon_stack or tournament.starting_stack
    entry.addon_taken = True
    entry.save(update_fields=["chips", "addon_taken"])
    record_audit(actor, AuditAction.ENTRY_ADDON, entry, data={"chips": entry.chips})
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return entry


@transaction.atomic
def set_chips(entry: Entry, chips: int, *, reason: str, actor=None) -> Entry:
    """A director's count correction. Hands write stacks themselves; this is for the floor."""
    if isinstance(chips, bool) or not isinstance(chips, int) or not 0 <= chips <= MAX_CHIPS:
        raise ValidationError(
            {"chips": _("Chips must be a whole number from 0 to %(max)s.") % {"max": MAX_CHIPS}}
        )
    if not reason.strip():
        raise ValidationError({"reason": _("Say why the count changes.")})
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    _not_in_a_hand(entry)
    if entry.status != Entry.Status.ACTIVE:
        raise StateError(_("The entry is busted: undo the bust first."), code="busted")
    if entry.tournament.status == Status.FINISHED:
        raise StateError(_("The tournament is finished."), code="finished")
    before = entry.chips
    entry.chips = chips
    entry.save(update_fields=["chips"])
    record_audit(actor, AuditAction.ENTRY_SET_CHIPS, entry, reason, {"before": before, "after": chips})
    tournament_changed(entry.tournament_id)
    return entry


@dataclass(frozen=True)
class TableCount:
    """One table's chip count: the table's total before and after, and the entries whose count changed."""

    table: Table
    before: int
    after: int
    changed: list[Entry]


@transaction.atomic
def count_table(
    table: Table, counts: dict[int, int], *, reason: str = "chip count", actor=None
) -> TableCount:
    """The floor's count of a whole table (at a break, or between hands): ``counts`` maps each counted
    entry to its chips. One transaction: every count is checked before any is written, so a refused
    count changes nothing. A count of 0 does not bust (R8.8: busting is its own action)."""
    for chips in counts.values():
        if isinstance(chips, bool) or not isinstance(chips, int) or not 0 <= chips <= MAX_CHIPS:
            raise ValidationError(
                {"chips": _("Chips must be a whole number from 0 to %(max)s.") % {"max": MAX_CHIPS}}
            )
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the count changes.")})
    if not counts:
        raise ValidationError({"chips": _("Enter the chips counted at the table.")})
    # The table row is what a new hand locks first: counting and dealing wait for each other.
    table = Table.objects.select_for_update(no_key=True).select_related("tournament").get(pk=table.pk)
    if table.tournament.status == Status.FINISHED:
        raise StateError(_("The tournament is finished."), code="finished")
    if table.hand_in_progress:
        raise StateError(
            _("Table %(table)s is in a hand: count it between hands or at the break.")
            % {"table": table.number},
            code="in_a_hand",
        )
    seated = {
        seat.entry_id: seat.entry
        for seat in Seat.objects.select_related("entry__player").filter(table=table, entry__isnull=False)
    }
    for entry_id in counts:
        if entry_id not in seated:
            raise StateError(
                _("A player counted is no longer at table %(table)s: reload the table and count again.")
                % {"table": table.number},
                code="not_at_table",
            )
    entries = Entry.objects.select_for_update().in_bulk(list(seated))
    before = sum(entry.chips for entry in entries.values() if entry.status == Entry.Status.ACTIVE)
    changed = []
    for entry_id, chips in counts.items():
        entry = entries[entry_id]
        if entry.status != Entry.Status.ACTIVE:
            raise StateError(_("%(entry)s is already out.") % {"entry": entry}, code="already_busted")
        if entry.chips != chips:
            record_audit(
                actor,
                AuditAction.ENTRY_SET_CHIPS,
                entry,
                reason.strip(),
                {"before": entry.chips, "after": chips},
            )
            entry.chips = chips
            changed.append(entry)
    Entry.objects.bulk_update(changed, ["chips"])
    after = sum(entry.chips for entry in entries.values() if entry.status == Entry.Status.ACTIVE)
    if changed:
        tournament_changed(table.tournament_id)
        table_changed(table.pk)
    return TableCount(table=table, before=before, after=after, changed=changed)


def bust_entries(
    tournament: Tournament,
    busts: list[tuple[Entry | int, int]],
    *,
    actor=None,
    hand_label: str = "",
    now: datetime | None = None,
    savepoint: bool = True,
) -> list[Entry]:
    """Players out of chips after one hand get their places (R8.8, R8.6).

    ``busts`` pairs each entry (0 chips; an Entry or its id: it is read again under its lock) with its
    chips at the start of the hand. With N players in before the hand and k busting, they take places
    N-k+1..N: more starting chips, better place; equal starting chips share the places (and later
    split their prizes). While late registration is open the field is not final, so those busts are
    placed when it closes (``place_late_registration_busts``). When one player is left and
    registration is over, the tournament is finished.

    ``savepoint=False``: the caller's transaction is this one's (the dealer's input that ended the
    hand), so a refusal here fails that input whole; no savepoint of its own.
    """
    with transaction.atomic(savepoint=savepoint):
        return _bust_entries(tournament, busts, actor, hand_label, now)


def _bust_entries(tournament, busts, actor, hand_label: str, now: datetime | None) -> list[Entry]:
    now = now or timezone.now()
    tournament = locked(tournament)
    if tournament.status not in (Status.RUNNING, Status.ON_BREAK):
        raise StateError(_("Players bust only while the tournament runs."), code="wrong_status")
    if not busts:
        raise ValidationError({"busts": _("Name at least one entry.")})
    ids = [getattr(entry, "pk", entry) for entry, _chips in busts]
    if len(set(ids)) != len(ids):
        raise ValidationError({"busts": _("An entry is listed twice.")})
    # Locked with their players' names (the audit's labels) and the tournament already locked: no
    # further read per bust on the dealer's hand end.
    fresh = Entry.objects.select_for_update(of=("self",)).select_related("player").in_bulk(ids)
    for current in fresh.values():
        if current.tournament_id == tournament.pk:
            current.tournament = tournament
    pairs = []
    for entry_id, (_entry, start_chips) in zip(ids, busts):
        current = fresh.get(entry_id)
        if current is None or current.tournament_id != tournament.pk:
            raise ValidationError({"busts": _("Entry %(id)s is not in this tournament.") % {"id": entry_id}})
        if current.status != Entry.Status.ACTIVE:
            raise StateError(
                _("%(entry)s is already out.") % {"entry": current}, code="already_busted", field="busts"
            )
        if current.chips != 0:
            raise RuleError(
                _("%(entry)s still has %(chips)s chips and cannot bust (R8.8).")
                % {"entry": current, "chips": current.chips},
                code="has_chips",
                field="busts",
                rule="R8.8",
            )
        if (
            isinstance(start_chips, bool)
            or not isinstance(start_chips, int)
            or not 0 < start_chips <= MAX_CHIPS
        ):
            raise ValidationError(
                {
                    "busts": _("Chips at the start of the hand must be a whole number above 0 for %(entry)s.")
                    % {"entry": current}
                }
            )
        pairs.append((current, start_chips))

    # While late registration is open the field is not final: those busts are placed when it closes.
    levels = levels_of(tournament)
    placing = not registration_open(tournament, now, levels)
    # Once the field is final the busts take places and prizes: one pass over the entries counts the
    # players left, the prize pool's figures (which no bust changes) for the payout table, and the
    # busts of late registration still to place (usually none: they are read only when there are some).
    totals = entry_totals(tournament) if placing else None
    if placing and totals["unplaced"]:
        place_late_registration_busts(tournament, now, levels=levels)
    players_left = totals["left"] if totals else tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    # R8.6: in hand-for-hand one round (a hand at every table) counts as one hand, so this round's
    # earlier busts at other tables are ranked again together with these.
    same_hand = _busted_earlier_this_round(tournament) if placing else []
    best_place = players_left - len(pairs) + 1  # the best place this hand's busts can take
    for entry, start_chips in pairs:
        entry.status = Entry.Status.BUSTED
        entry.chips_at_start_of_bust_hand = start_chips
        entry.bust_hand_label = hand_label[:100]
        entry.busted_at = now
    for entry, place, shared_to in _ranked([e for e, _c in pairs] + same_hand, best_place):
        entry.place, entry.place_shared_to = (place, shared_to) if placing else (None, None)
    bust_fields = ["status", "place", "place_shared_to", "chips_at_start_of_bust_hand", "bust_hand_label"]
    for entry, start_chips in pairs:
        # The statement built once (config.prepared): this runs in the dealer's input that ends the hand.
        update_row(Entry, entry.pk, busted_at=entry.busted_at, **{f: getattr(entry, f) for f in bust_fields})
        record_audit(
            actor,
            AuditAction.ENTRY_BUST,
            entry,
            data={
                "place": entry.place,
                "shared_to": entry.place_shared_to,
                "chips_at_start": start_chips,
                "hand": hand_label,
            },
        )
    for entry in same_hand:
        before = Entry.objects.values_list("place", "place_shared_to").get(pk=entry.pk)
        if before != (entry.place, entry.place_shared_to):
            entry.save(update_fields=["place", "place_shared_to"])
            record_audit(
                actor,
                AuditAction.ENTRY_PLACE,
                entry,
                data={"before": list(before), "place": entry.place, "shared_to": entry.place_shared_to},
                reason=str(_("Hand-for-hand: busts of one round are ranked together (R8.6).")),
            )

    # Counted before these busts, under the tournament's lock: whether one player is left needs no
    # read (and then one row, not the whole field of 10,000).
    left = players_left - len(pairs)
    if left <= 1 and not registration_open(tournament, now, levels):
        close_tournament(tournament, list(tournament.entries.filter(status=Entry.Status.ACTIVE)[:2]), now)
    else:
        # Only these places changed (the same hand's earlier busts included, R8.6): not the field's.
        recompute_prizes(tournament, placed=[e for e, _c in pairs] + same_hand, totals=totals)
        tournament_changed(tournament.pk)
        tables_services.release_and_rebalance(tournament, entries=[e.pk for e, _c in pairs], locked=True)
    return [pair[0] for pair in pairs]


@transaction.atomic
def remove_entry(entry: Entry, *, reason: str, actor=None, now: datetime | None = None) -> Entry:
    """Take a player out of the tournament with their chips: a disqualification or a no-show.

    Only a hand busts a player who has chips in play (R8.8); this is the director's separate action,
    with a reason, that takes the chips out of play explicitly (audited with the count) and then
    places the player as a bust at the current count of players.
    """
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the player is removed (disqualified, no-show …).")})
    tournament = locked(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != Entry.Status.ACTIVE:
        raise StateError(_("%(entry)s is already out.") % {"entry": entry}, code="already_busted")
    _not_in_a_hand(entry)
    chips = entry.chips
    if chips == 0:
        raise StateError(
            _("%(entry)s has no chips: bust the player instead (R8.8).") % {"entry": entry},
            code="no_chips",
            rule="R8.8",
        )
    entry.chips = 0
    entry.save(update_fields=["chips"])
    record_audit(actor, AuditAction.ENTRY_REMOVE, entry, reason, {"chips_removed": chips})
    bust_entries(tournament, [(entry, chips)], actor=actor, hand_label=str(_("removed")), now=now)
    entry.refresh_from_db()
    return entry


@transaction.atomic
def void_entry(entry: Entry, *, reason: str = "", actor=None) -> Seat | None:
    """Undo a registration made by mistake, before the entry has played: any time before the start,
    and after it while the entry has not been dealt a hand (a late entry voided at once). The entry
    leaves the field, its seat and the prize pool; the audit log keeps who it was and why it went.
    Returns the seat it leaves free (None before the draw)."""
    tournament = locked(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if tournament.status == Status.FINISHED:
        raise StateError(_("The tournament is finished; its entries stand."), code="finished")
    if tournament.status not in (Status.PLANNED, Status.REGISTERING):
        if entry.status != Entry.Status.ACTIVE:
            raise StateError(
                _("%(entry)s has played and is out: the entry stands.") % {"entry": entry}, code="played"
            )
        # The seat's table row is what a new hand locks first: no hand can deal the entry in meanwhile.
        Table.objects.select_for_update(no_key=True).filter(seat_set__entry=entry).first()
        hand_label = _first_hand_dealt(entry)
        if hand_label:
            raise StateError(
                _("%(entry)s has played (hand %(hand)s): an entry that has been dealt in is not voided.")
                % {"entry": entry, "hand": hand_label},
                code="played",
            )
    seat = tables_services.unseat_entry(entry)
    record_audit(
        actor,
        AuditAction.ENTRY_VOID,
        tournament,
        (reason or "").strip(),
        {
            "entry": entry.pk,
            "player": entry.player_id,
            "name": str(entry),
            "number": entry.number,
            "table": seat.table.number if seat else None,
            "seat": seat.number if seat else None,
        },
    )
    entry.delete()
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return seat


def _first_hand_dealt(entry: Entry) -> str:
    """The label of the first hand this entry was dealt into, or "" if none (a running hand counts).

    Only the hands since its registration at the tables it has sat at (its seat, its moves) are read:
    a late entry voided at once has none. The dealing app depends on this one, so its model is looked
    up by name."""
    hand_model = apps.get_model("dealing", "Hand")
    tables = set(Seat.objects.filter(entry=entry).values_list("table_id", flat=True))
    for from_table, to_table in entry.moves.values_list("from_table_id", "to_table_id"):
        tables.update(t for t in (from_table, to_table) if t is not None)
    hands = (
        hand_model.objects.filter(table_id__in=tables, started_at__gte=entry.created_at)
        .select_related("table")
        .order_by("started_at")
    )
    for hand in hands.iterator():
        if any(seat.get("entry") == entry.pk for seat in (hand.seats or {}).values()):
            return hand.label
    return ""


def _busted_earlier_this_round(tournament: Tournament) -> list[Entry]:
    """Entries that busted, placed, at another table during the current hand-for-hand round."""
    started = tournament.hand_for_hand_round_started_at
    if not tournament.hand_for_hand or started is None:
        return []
    return list(
        tournament.entries.select_for_update().filter(
            status=Entry.Status.BUSTED, place__isnull=False, busted_at__gte=started
        )
    )


def _ranked(entries: list[Entry], best_place: int) -> list[tuple[Entry, int, int | None]]:
    """Places for players who bust on the same hand (R8.6, R8.8), from ``best_place`` down: more chips
    at the start of the hand finish higher; equal starting chips share the places (and their prizes)."""
    ordered = sorted(entries, key=lambda e: (-e.chips_at_start_of_bust_hand, e.pk))
    ranked, place, i = [], best_place, 0
    while i < len(ordered):
        chips = ordered[i].chips_at_start_of_bust_hand
        group = [e for e in ordered[i:] if e.chips_at_start_of_bust_hand == chips]
        for entry in group:
            ranked.append((entry, place, place + len(group) - 1 if len(group) > 1 else None))
        place += len(group)
        i += len(group)
    return ranked


@transaction.atomic
def undo_bust(entry: Entry, *, reason: str, chips: int | None = None, actor=None) -> Entry:
    """Put a busted entry back in with ``chips`` (default: its chips at the start of the bust hand)."""
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the bust is undone.")})
    tournament = locked(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != Entry.Status.BUSTED:
        raise StateError(_("%(entry)s is not busted.") % {"entry": entry}, code="not_busted")
    if tournament.status == Status.FINISHED:
        raise StateError(_("The tournament is finished; its results stand."), code="finished")
    if Deal.objects.filter(tournament=tournament).exclude(shares__entry=entry).exists():
        # The deal shared the prizes between the players then left: one more would break its total.
        raise StateError(
            _("%(entry)s busted before the deal the players left made: the bust stands.") % {"entry": entry},
            code="deal_made",
        )
    if tournament.entries.filter(player_id=entry.player_id, status=Entry.Status.ACTIVE).exists():
        raise StateError(
            _("%(player)s has re-entered and already has chips in this tournament.")
            % {"player": entry.player},
            code="already_active",
            field="player",
        )
    if chips is None:
        chips = entry.chips_at_start_of_bust_hand or 0
    if isinstance(chips, bool) or not isinstance(chips, int) or not 0 < chips <= MAX_CHIPS:
        raise ValidationError({"chips": _("Give the chips the player has, a whole number above 0.")})
    if entry.place is not None:
        _close_place_gap(tournament, entry)
    before = {"place": entry.place, "shared_to": entry.place_shared_to, "hand": entry.bust_hand_label}
    entry.status = Entry.Status.ACTIVE
    entry.chips = chips
    entry.place = None
    entry.place_shared_to = None
    entry.prize = 0
    entry.busted_at = None
    entry.save(update_fields=["status", "chips", "place", "place_shared_to", "prize", "busted_at"])
    _seat_if_drawn(entry)
    record_audit(actor, AuditAction.ENTRY_UNDO_BUST, entry, reason, {**before, "chips": chips})
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return entry


def _close_place_gap(tournament: Tournament, undone: Entry) -> None:
    """The undone entry is back in, so everyone placed above it busted with one more player left than
    counted: each drops one place; its own shared group loses one member (R8.8, R8.6)."""
    above = list(
        tournament.entries.select_for_update()
        .filter(place__isnull=False, place__lte=undone.place)
        .exclude(pk=undone.pk)
    )
    for entry in above:
        if entry.place_shared_to is not None and entry.place < undone.place:
            entry.place_shared_to += 1
        entry.place += 1
        if entry.place_shared_to is not None and entry.place_shared_to <= entry.place:
            entry.place_shared_to = None
    Entry.objects.bulk_update(above, ["place", "place_shared_to"])


def place_late_registration_busts(
    tournament: Tournament, now: datetime | None = None, *, levels: list | None = None
) -> int:
    """Give places to entries that busted while late registration was open, once it has closed (R8.8).

    They finish below everyone still in and everyone who busted later: with E entries and P such
    busts, places E-P+1..E, a later bust finishing higher; on one hand, more chips at its start finish
    higher and equal chips share (R8.6). Idempotent: only unplaced busts are placed. Returns how many.
    ``levels``: the structure's levels when the caller has read them already.
    """
    if registration_open(tournament, now, levels):
        return 0
    pending = list(
        tournament.entries.select_for_update()
        .filter(status=Entry.Status.BUSTED, place__isnull=True)
        .order_by("-busted_at", "-chips_at_start_of_bust_hand", "pk")
    )
    if not pending:
        return 0
    place = tournament.entries.count() - len(pending) + 1
    i = 0
    while i < len(pending):
        key = (pending[i].busted_at, pending[i].chips_at_start_of_bust_hand)
        group = [e for e in pending[i:] if (e.busted_at, e.chips_at_start_of_bust_hand) == key]
        for entry in group:
            entry.place = place
            entry.place_shared_to = place + len(group) - 1 if len(group) > 1 else None
        place += len(group)
        i += len(group)
    Entry.objects.bulk_update(pending, ["place", "place_shared_to"])
    record_audit(
        None,
        AuditAction.ENTRIES_PLACE_LATE_REGISTRATION_BUSTS,
        tournament,
        data={"places": {e.pk: e.place for e in pending}},
    )
    recompute_prizes(tournament)
    tournament_changed(tournament.pk)
    return len(pending)


def close_tournament(tournament: Tournament, active: list[Entry], now: datetime) -> None:
    for winner in active:
        winner.place = 1
        winner.place_shared_to = None
        winner.save(update_fields=["place", "place_shared_to"])
    periods = periods_of(tournament)
    current = clockmath.state(periods, clock_of(tournament), now)
    tournament.status = Status.FINISHED
    tournament.finished_at = now
    if current.running:
        tournament.paused_at = now
        tournament.remaining_when_paused = current.remaining
        tournament.level_index = current.level_index
    tournament.clock_version += 1
    tournament.save()
    place_late_registration_busts(tournament, now)
    recompute_prizes(tournament)
    clock_changed(tournament.pk)
