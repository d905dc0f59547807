"""Every write of the tables app: seat draws, balancing, breaking, the final table, director overrides.

Plain functions, each in one transaction that first locks the tournament row (on SQLite the
IMMEDIATE transaction mode serialises writers instead), so two bust-outs at once are decided one
after the other. The rules themselves are decided by the pure ``tables.balancing``; this module
reads the tables into a ``balancing.Field``, asks it, and writes the answer back.

Errors are ``tournaments.services`` errors: ``StateError`` (409) when the seating is not in a state
for the request (an occupied seat, a busted player, a broken table), ``RuleError`` (422) when the
request breaks a rule (a ninth seat, R2.7) and Django's ``ValidationError`` (400) for bad fields.
"""

from __future__ import annotations

import functools
import itertools
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Case, Max, Q, Sum, Value, When
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config import live
from config.celery import app as celery_app
from config.on_commit import once_after_commit
from config.per_version import PerVersion
from config.prepared import PreparedQuery, update_row
from config.text import name_key
from tournaments.audit import AuditAction, record_audit
from tournaments.errors import RuleError, StateError
from tournaments.models import Entry, Tournament, lock_tournament, tournament_changed
from tournaments.selectors import registration_open, tournament_version

from . import balancing
from .bulk import insert_seats, insert_tables
from .models import (
    MAX_SEATS,
    MIN_SEATS,
    Move,
    Seat,
    SeatDraw,
    SeatingPlan,
    Table,
    seated_players,
    table_changed,
    tables_changed,
)

ACTIVE = Entry.Status.ACTIVE

HALT_MESSAGES = {
    "short": _("This table is three or more players short: it waits for players to be moved in (R8.3)."),
    "final_table_redraw": _("The field fits at one table: waiting for the final table redraw (R8.5)."),
    "breaking": _("This table is breaking: its players are being moved (R8.4)."),
    "broken": _("This table is broken."),
    "one_player": _("Fewer than two players are seated at this table."),
}


# A seat with no lock and no reservation (locks and reservations end when their table breaks or the
# final table is drawn: nobody stays at a broken table, and the redraw seats everybody afresh).
UNLOCKED = {"locked": False, "lock_reason": "", "reserved_for": "", "reserved_key": ""}


# ---------------------------------------------------------------- reading the field


def _lock(tournament: Tournament) -> Tournament:
    return lock_tournament(tournament.pk)


def seating_plan(tournament: Tournament) -> SeatingPlan:
    plan, _created = SeatingPlan.objects.get_or_create(tournament=tournament)
    return plan


def _options(plan: SeatingPlan, tournament: Tournament) -> balancing.Options:
    return balancing.Options(
        allowed_difference=plan.allowed_difference,
        relaxed_difference=plan.relaxed_difference,
        relaxed_above_tables=plan.relaxed_above_tables,
        final_table_size=plan.final_table_seats,
        two_table_seats=plan.two_table_seats,
        # R8.5: while late registration is open the field can grow (re-entries are registrations too,
        # refused once it closes), so the final table is not drawn yet.
        can_grow=registration_open(tournament),
        final_redraw_done=plan.final_redraw_at is not None,
    )


def _moved(tournament: Tournament) -> dict[int, int]:
    """R8.3: when each player still in last moved seats (the id of their last move that was made)."""
    return dict(
        Move.objects.filter(
            tournament=tournament,
            status__in=(Move.Status.DONE, Move.Status.ACKNOWLEDGED),
            entry__status=ACTIVE,
        )
        .values("entry_id")
        .annotate(last=Max("pk"))
        .values_list("entry_id", "last")
    )


# What balancing reads of a table, and the seats that matter to it: taken or locked (the rest are open).
_TABLE_READ = (
    "pk",
    "number",
    "seats",
    "button_seat",
    "big_blind_seat",
    "hand_in_progress",
    "break_order",
    "status",
)
_SEATS_READ = Seat.objects.filter(Q(entry__isnull=False) | Q(locked=True))


def _table_states(tables, seats) -> dict[int, balancing.TableState]:
    """The tables' balancing states, from their rows and the rows of their taken or locked seats."""
    by_id = {t.pk: t.number for t in tables}
    states = {
        t.number: balancing.TableState(
            number=t.number,
            size=t.seats,
            button=t.button_seat,
            big_blind=t.big_blind_seat,
            hand_in_progress=t.hand_in_progress,
            break_order=t.break_order,
            broken=t.status == Table.Status.BROKEN,
        )
        for t in tables
    }
    # Sorted here, not by the database: the seats' default order (by table number) made PostgreSQL
    # join and sort 10,000 rows at every balance; only each table's seat order matters (its dict).
    rows = sorted(
        seats.order_by().values_list("table_id", "number", "entry_id", "locked"), key=lambda row: row[:2]
    )
    for table_id, number, entry_id, locked in rows:
        state = states[by_id[table_id]]
        if entry_id is not None:
            state.seats[number] = entry_id
        if locked:
            state.locked_seats.add(number)
    return states


def _as_read(state: balancing.TableState) -> tuple:
    return (
        state.size,
        state.button,
        state.big_blind,
        state.hand_in_progress,
        state.break_order,
        state.broken,
        tuple(sorted(state.seats.items())),
        tuple(sorted(state.locked_seats)),
    )


class _Snapshot:
    """The tournament's tables as a balancing.Field, plus what is needed to write decisions back."""

    def __init__(self, tournament: Tournament, rng=None, *, lock: bool = False):
        self.tournament = tournament
        self.plan = seating_plan(tournament)
        tables = Table.objects.filter(tournament=tournament).order_by("pk")
        if lock:
            # Lock order everywhere in this app: the tournament row, then its tables. A table being
            # dealt (locked by the dealing service) is waited for, so its hand_in_progress is read
            # after that hand has really started.
            self.tables = {t.number: t for t in tables.select_for_update(no_key=True)}
        else:
            # Rows, not model instances (a third of the read at 1,250 tables): the tables a decision
            # changes are read again as instances, under their locks (``confirm``).
            self.tables = {t.number: t for t in tables.values_list(*_TABLE_READ, named=True)}
        self.locked = lock
        states = _table_states(self.tables.values(), _SEATS_READ.filter(table__tournament=tournament))
        # As read, before the decision changes the states: what ``confirm`` compares under the locks.
        self.read = {number: _as_read(state) for number, state in states.items()}
        self.pending_rows = {
            m.entry_id: m
            for m in Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).select_related(
                "from_table", "to_table"
            )
        }
        pending = [
            balancing.Move(
                player=m.entry_id,
                from_table=m.from_table.number,
                from_seat=m.from_seat,
                to_table=m.to_table.number,
                to_seat=m.to_seat,
                reason=m.reason,
                pending=True,
            )
            for m in self.pending_rows.values()
        ]
        # Broken tables stay in the field only while players still sit there (a break waiting for a hand).
        kept = [s for s in states.values() if not s.broken or s.seats]
        self.seed = secrets.token_bytes(balancing.SEED_BYTES)
        self.rng = rng if rng is not None else balancing.DrawRandom(self.seed)
        self.field = balancing.Field(
            kept, _options(self.plan, tournament), rng=self.rng, pending=pending, moved=_moved(tournament)
        )

    def confirm(self, numbers: set[int]) -> bool:
        """Lock the tables ``numbers`` (in id order, the app's lock order) and tell whether they are
        still as this snapshot read them (the caller holds the tournament's lock).

        A decision reads the whole field without locks and then locks only the tables it changes: at
        1,250 tables, locking them all kept every deal and hand end of the event waiting while it
        decided. The tables it does not change only weigh in its choice: a hand dealt or ended there
        meanwhile changes no count (who sits where changes under the tournament's lock, which the
        caller holds), and any later change queues its own balance."""
        if self.locked:
            return True
        rows = list(
            Table.objects.select_for_update(no_key=True)
            .filter(pk__in=[self.tables[number].pk for number in numbers])
            .order_by("pk")
        )
        states = _table_states(rows, _SEATS_READ.filter(table__in=[t.pk for t in rows]))
        if any(_as_read(state) != self.read[number] for number, state in states.items()):
            return False
        self.tables.update((t.number, t) for t in rows)
        return True


def _busted(tournament: Tournament):
    """The tournament's entries that are out (R8.8: they keep no seat and no promised move)."""
    return Entry.objects.filter(tournament=tournament).exclude(status=ACTIVE)


def _release_busted(tournament: Tournament, entries: Iterable[int] | None = None) -> int:
    """Busted players leave their seats and any move promised to them is cancelled (R8.8).
    ``entries``: only these, busted by the caller in this transaction under the tournament's lock
    (the dealer's hand end): named by their ids, not looked for among the field's busts."""
    if entries is None:
        busted = _busted(tournament)
        moves = Move.objects.filter(tournament=tournament, entry__in=busted)
        seats = Seat.objects.filter(table__tournament=tournament, entry__in=busted)
    else:
        ids = list(entries)
        moves, seats = Move.objects.filter(entry_id__in=ids), Seat.objects.filter(entry_id__in=ids)
    moves.filter(status=Move.Status.PENDING).update(status=Move.Status.CANCELLED, note=str(_("busted")))
    # Their tables first (in id order), then the seats: the lock order of this app (the tournament,
    # its tables, their seats). A table dealing its next hand holds its row and then writes its seats;
    # writing a seat there before waiting for that table deadlocked the two. Whose seat is where does
    # not change in between: every move holds the tournament, as this caller does.
    tables = list(
        Table.objects.select_for_update(no_key=True)
        .filter(pk__in=seats.values("table_id"))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if not tables:
        return 0
    released = seats.update(entry=None, waits_for_big_blind=False)
    for table_id in tables:
        table_changed(table_id)
    # Every change of who sits where moves the tournament's version (FieldFigures' cache).
    tournament_changed(tournament.pk)
    return released


# ---------------------------------------------------------------- writing decisions


def _move_row(tournament: Tournament, tables: dict, move: balancing.Move, **fields) -> Move:
    """A decided move as its (unsaved) row; ``tables``: the tables by number."""
    return Move(
        tournament=tournament,
        entry_id=move.player,
        from_table=tables[move.from_table],
        from_seat=move.from_seat,
        to_table=tables[move.to_table],
        to_seat=move.to_seat,
        reason=move.reason,
        **fields,
    )


def _write(
    snapshot: _Snapshot,
    decision: balancing.Decision,
    *,
    actor=None,
    completed=(),
    dropped=(),
    now: datetime | None = None,
) -> list[Move]:
    """Make the decided moves in the database: seats, Move rows, broken tables, draws, audit."""
    now = now or timezone.now()
    tournament = snapshot.tournament
    tables = snapshot.tables
    changed_tables: set[int] = set()
    for number in decision.broken:
        table = tables[number]
        table.status = Table.Status.BROKEN
        table.broken_at = now
        # A table breaking mid-hand keeps hand_in_progress: its players leave when that hand ends.
        table.save(update_fields=["status", "broken_at"])
        Seat.objects.filter(table=table).update(**UNLOCKED)
        changed_tables.add(table.pk)
    for pm in list(dropped) + decision.dropped:
        row = snapshot.pending_rows.get(pm.player)
        if row is None or row.status != Move.Status.PENDING:
            continue  # a move this decision made and replaced (a break rerouting it) was never saved
        row.status = Move.Status.CANCELLED
        row.note = (row.note + " " if row.note else "") + str(_("superseded"))
        row.save(update_fields=["status", "note"])
    draw = None
    drawn = [m for m in decision.moves if m.reason in (balancing.BREAK, balancing.REDRAW)]
    if drawn:
        draw = SeatDraw.objects.create(
            tournament=tournament,
            kind=SeatDraw.Kind.FINAL if decision.final_redraw else SeatDraw.Kind.BREAK,
            seed=snapshot.seed if isinstance(snapshot.rng, balancing.DrawRandom) else b"",
            assignment=[{"entry": m.player, "table": m.to_table, "seat": m.to_seat} for m in drawn],
        )
    # Completed pending moves keep their row; new moves get one.
    rows: list[tuple[Move, balancing.Move]] = []
    for pm in completed:
        row = snapshot.pending_rows[pm.player]
        rows.append((row, pm))
    for m in decision.moves:
        row = _move_row(
            tournament,
            tables,
            m,
            draw=draw,
            actor=actor if getattr(actor, "is_authenticated", False) else None,
        )
        rows.append((row, m))
    # Everybody who moves now stands up first, then sits down: a seat freed by one move may be taken by
    # another, and the database never sees one entry in two seats. A player may move more than once in
    # one decision (a move that waited for the hand is made, then a break or the final redraw takes
    # him on): his seat changes once, from where he sits to where the last move puts him.
    moving_now = [(row, m) for row, m in rows if not m.pending or row.pk is not None]
    start: dict[int, tuple[int, int]] = {}
    end: dict[int, tuple[int, int]] = {}
    for _row, m in moving_now:
        start.setdefault(m.player, (m.from_table, m.from_seat))
        end[m.player] = (m.to_table, m.to_seat)

    # One statement each way, whatever the number of players (a table breaking moves eight): each
    # seat is matched on who sits there (or on being empty), so a count short of the moves means the
    # seating changed since it was read, and the whole decision is taken back.
    def seat_is(number: int, seat: int) -> Q:
        return Q(table_id=tables[number].pk, number=seat)

    if start:
        freed = Seat.objects.filter(
            functools.reduce(
                Q.__or__,
                (seat_is(number, seat) & Q(entry_id=player) for player, (number, seat) in start.items()),
            )
        ).update(entry=None, waits_for_big_blind=False)
        if freed != len(start):
            raise StateError(
                _("Seating changed while moves were decided; try again."), code="seating_changed"
            )
    if end:
        # R8.1: dealt in at once unless seated between the small blind and the button.
        arrivals = [
            (
                seat_is(number, seat),
                player,
                snapshot.field.tables[number].between_small_blind_and_button(seat),
            )
            for player, (number, seat) in end.items()
        ]
        taken = Seat.objects.filter(
            functools.reduce(Q.__or__, (where for where, _p, _w in arrivals)), entry__isnull=True
        ).update(
            entry_id=Case(*(When(where, then=Value(player)) for where, player, _w in arrivals)),
            waits_for_big_blind=Case(
                *(When(where, then=Value(waits)) for where, _p, waits in arrivals), default=Value(False)
            ),
            seated_at=now,
        )
        if taken != len(end):
            raise StateError(
                _("Seating changed while moves were decided; try again."), code="seating_changed"
            )
    for row, m in moving_now:
        row.status = Move.Status.DONE
        row.applied_at = now
        changed_tables.update({tables[m.from_table].pk, tables[m.to_table].pk})
    new_rows = []
    for row, m in rows:
        if row.pk is None:
            if m.pending:
                row.status = Move.Status.PENDING
                changed_tables.update({tables[m.from_table].pk, tables[m.to_table].pk})
            new_rows.append(row)
        else:  # a move that waited for its hand, made now
            row.save(update_fields=["status", "applied_at"])
    Move.objects.bulk_create(new_rows)
    if decision.final_redraw:
        final = tables[decision.final_table]
        final.button_seat = final.big_blind_seat = None
        final.save(update_fields=["button_seat", "big_blind_seat"])
        Seat.objects.filter(table=final).update(**UNLOCKED, waits_for_big_blind=False)
        snapshot.plan.final_redraw_at = now
        snapshot.plan.save(update_fields=["final_redraw_at"])
    if decision.moves or decision.broken or completed or dropped:
        record_audit(
            actor,
            AuditAction.TABLES_BALANCE,
            tournament,
            data={
                "moves": [
                    {
                        "entry": m.player,
                        "from": [m.from_table, m.from_seat],
                        "to": [m.to_table, m.to_seat],
                        "reason": m.reason,
                        "pending": m.pending,
                    }
                    for m in list(completed) + decision.moves
                ],
                "broken": decision.broken,
                "final_redraw": decision.final_redraw,
            },
        )
        tables_changed(sorted(changed_tables))
        tournament_changed(tournament.pk)
    return [row for row, _m in rows]


BALANCE_TASK = "tables.tasks.balance_tournament"


def _queue_balance(tournament_id: int) -> None:
    """Queue ``balance_tournament`` once after this transaction commits, however many busts, hands
    and seat changes in it asked (the task is idempotent, but each run costs a whole-field decision)."""

    def queue():
        # By name: the task module imports this one (registered at start-up by TablesConfig.ready).
        celery_app.tasks[BALANCE_TASK].delay(tournament_id)

    once_after_commit(("balance", tournament_id), queue)


def seated_count(tournament: Tournament) -> int:
    """Players in a seat, still in the tournament."""
    return Seat.objects.filter(
        table__tournament=tournament, entry__isnull=False, entry__status=Entry.Status.ACTIVE
    ).count()


# ---------------------------------------------------------------- the seat draw (R8.1)


def _table_size(tournament: Tournament) -> int:
    size = tournament.seats_per_table
    if not MIN_SEATS <= size <= MAX_SEATS:
        raise RuleError(
            _("A Courchevel table seats 2 to 8 players (R2.7); this tournament asks for %(seats)s.")
            % {"seats": size},
            code="too_many_seats",
            field="seats_per_table",
            rule="R2.7",
        )
    return size


def _create_tables(
    tournament: Tournament, count: int, *, first_number: int = 1, seated: dict | None = None
) -> list[Table]:
    """``count`` new tables with their seats; ``seated`` (entry -> (table number, seat)) fills seats
    as they are created, so a draw of 10,000 writes each seat once, in bulk."""
    size = _table_size(tournament)
    tables = insert_tables(tournament, range(first_number, first_number + count), size)
    who = {place: entry for entry, place in (seated or {}).items()}
    insert_seats(
        [(t.pk, s, who.get((t.number, s))) for t in tables for s in range(1, size + 1)], timezone.now()
    )
    return tables


@transaction.atomic
def draw_seats(tournament: Tournament, rng=None, *, actor=None) -> SeatDraw:
    """R8.1: the random seat draw for every active entry, from the OS secure source, recorded.

    ``rng`` (anything with ``randrange``) is for tests; by default 32 bytes from ``secrets`` seed a
    ``balancing.DrawRandom`` and are stored with the draw, so anyone can replay it afterwards.
    """
    tournament = _lock(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise StateError(_("The tournament is finished."), code="wrong_status")
    if Table.objects.filter(tournament=tournament).exists():
        raise StateError(_("Seats are already drawn for this tournament."), code="already_drawn")
    entries = list(tournament.entries.filter(status=ACTIVE).order_by("pk").values_list("pk", flat=True))
    if not entries:
        raise StateError(_("No entries to seat."), code="no_entries")
    seed = secrets.token_bytes(balancing.SEED_BYTES)
    if rng is None:
        rng = balancing.DrawRandom(seed)
    elif isinstance(rng, balancing.DrawRandom):
        seed = rng.seed
    else:
        seed = b""  # a test's generator: not replayable from the record
    size = _table_size(tournament)
    count = balancing.tables_needed(len(entries), size)
    assignment = balancing.initial_draw(entries, [(n, size) for n in range(1, count + 1)], rng)
    _create_tables(tournament, count, seated=assignment)
    seating_plan(tournament)
    draw = SeatDraw.objects.create(
        tournament=tournament,
        kind=SeatDraw.Kind.START,
        seed=seed,
        assignment=[{"entry": e, "table": t, "seat": s} for e, (t, s) in assignment.items()],
    )
    record_audit(
        actor,
        AuditAction.TABLES_DRAW,
        tournament,
        data={"entries": len(entries), "tables": count, "seed": seed.hex()},
    )
    # Only the tournament's screens are told: the tables are new, so no screen shows them yet (a
    # table's socket to an unknown table is refused), and 1,250 announcements would be for no one.
    tournament_changed(tournament.pk)
    return draw


@transaction.atomic
def seat_entry(entry: Entry, *, actor=None, rng=None) -> Seat | None:
    """R8.1: a late entry or re-entry gets a random open seat at one of the shortest tables.

    Dealt in at once unless the seat is between the small blind and the button (then
    ``waits_for_big_blind``). When every seat is taken a new table opens (and balancing fills it).
    Returns None when the seats are not drawn yet (the draw will seat the entry).
    """
    tournament = _lock(entry.tournament)
    entry = Entry.objects.get(pk=entry.pk)
    if entry.status != ACTIVE:
        raise StateError(
            _("%(entry)s is out of the tournament and cannot be seated.") % {"entry": entry},
            code="entry_busted",
            field="entry",
        )
    if Seat.objects.filter(entry=entry).exists():
        raise StateError(
            _("%(entry)s already has a seat.") % {"entry": entry}, code="already_seated", field="entry"
        )
    if not Table.objects.filter(tournament=tournament).exists():
        return None
    _release_busted(tournament)
    # The field read without locks; only the table the player sits at is locked and checked (a late
    # registration must not keep every table of the event waiting: see _Snapshot.confirm).
    snapshot = _Snapshot(tournament, rng=rng)
    reserved = _reserved_seat(tournament, entry)
    if reserved is not None:
        if not snapshot.confirm({reserved.table.number}):
            snapshot = _Snapshot(tournament, rng=rng, lock=True)
        return _take_reserved_seat(snapshot, entry, reserved, actor=actor)
    where = snapshot.field.late_entry_seat()
    if where is not None and not snapshot.confirm({where[0]}):
        snapshot = _Snapshot(tournament, rng=rng, lock=True)
        where = snapshot.field.late_entry_seat()
    if where is None:
        last = max(snapshot.tables.values(), key=lambda t: t.number)
        top = max(t.break_order for t in snapshot.tables.values())
        table = _create_tables(tournament, 1, first_number=last.number + 1)[0]
        table.break_order = top + 1  # the newest table breaks first
        table.save(update_fields=["break_order"])
        seat_number = snapshot.rng.randrange(table.seats) + 1
        waits = False
    else:
        number, seat_number = where
        table = snapshot.tables[number]
        waits = snapshot.field.tables[number].between_small_blind_and_button(seat_number)
    seat = Seat.objects.select_for_update().get(table=table, number=seat_number)
    seat.entry = entry
    seat.waits_for_big_blind = waits
    seat.seated_at = timezone.now()
    seat.save(update_fields=["entry", "waits_for_big_blind", "seated_at"])
    SeatDraw.objects.create(
        tournament=tournament,
        kind=SeatDraw.Kind.LATE,
        seed=snapshot.seed if isinstance(snapshot.rng, balancing.DrawRandom) else b"",
        assignment=[{"entry": entry.pk, "table": table.number, "seat": seat_number}],
    )
    record_audit(
        actor,
        AuditAction.TABLES_SEAT_ENTRY,
        seat,
        data={"entry": entry.pk, "table": table.number, "seat": seat_number, "waits_for_big_blind": waits},
    )
    table_changed(table.pk)
    tournament_changed(tournament.pk)
    _queue_balance(tournament.pk)
    return seat


def _reserved_seat(tournament: Tournament, entry: Entry) -> Seat | None:
    """The seat the director reserved for this entry's player, if any (matched on the name key)."""
    key = entry.player.name_key or name_key(entry.player.name)
    if not key:
        return None
    return (
        Seat.objects.select_for_update()
        .select_related("table")
        .filter(
            table__tournament=tournament,
            table__status=Table.Status.ACTIVE,
            entry__isnull=True,
            reserved_key=key,
        )
        .order_by("table__number", "number")
        .first()
    )


def _take_reserved_seat(snapshot: _Snapshot, entry: Entry, seat: Seat, *, actor=None) -> Seat:
    """The player sits in the seat kept for them; the reservation is used up. Dealt in as R8.1 says."""
    table = seat.table
    waits = snapshot.field.tables[table.number].between_small_blind_and_button(seat.number)
    reserved_for, reason = seat.reserved_for, seat.lock_reason
    for name, value in UNLOCKED.items():
        setattr(seat, name, value)
    seat.entry = entry
    seat.waits_for_big_blind = waits
    seat.seated_at = timezone.now()
    seat.save(update_fields=["entry", "waits_for_big_blind", "seated_at", *UNLOCKED])
    record_audit(
        actor,
        AuditAction.TABLES_SEAT_ENTRY,
        seat,
        data={
            "entry": entry.pk,
            "table": table.number,
            "seat": seat.number,
            "waits_for_big_blind": waits,
            "reserved_for": reserved_for,
            "reservation_reason": reason,
        },
    )
    table_changed(table.pk)
    tournament_changed(snapshot.tournament.pk)
    _queue_balance(snapshot.tournament.pk)
    return seat


# ---------------------------------------------------------------- hands (called by the dealing service)


def _table_state(table: Table) -> balancing.TableState:
    state = balancing.TableState(
        number=table.number,
        size=table.seats,
        button=table.button_seat,
        big_blind=table.big_blind_seat,
        hand_in_progress=table.hand_in_progress,
    )
    for number, entry_id in Seat.objects.filter(table=table, entry__isnull=False).values_list(
        "number", "entry_id"
    ):
        state.seats[number] = entry_id
    return state


def dealt_in_next_hand(table: Table, seat: Seat) -> bool:
    """R8.1: everybody seated is dealt in, except a player waiting for the big blind until it reaches them."""
    if seat.entry_id is None:
        return False
    if not seat.waits_for_big_blind:
        return True
    return _table_state(table).next_big_blind_seat() == seat.number


@dataclass(frozen=True)
class FieldFigures:
    """What the halt check needs of the whole field (``halted_reason``): the largest active table,
    the players seated at active tables, and the most players at one of them."""

    largest: int
    seated: int
    most: int


# Every change of who sits where (and of a table's status or size) moves the tournament's version, in
# its transaction: the figures are read once per version for every table's snapshot and every deal.
_FIELD_FIGURES = PerVersion()


def current_field_figures(tournament: Tournament, version: int | None = None) -> FieldFigures:
    """``field_figures`` at the tournament's version (``version``: as read with its snapshot)."""
    if live.changed_in_this_transaction(live.tournament_group(tournament.pk)):
        # This transaction moved the seating already and may move it again before its commit.
        return field_figures(tournament)
    version = tournament.version if version is None else version
    return _FIELD_FIGURES.get(tournament, version, lambda: field_figures(tournament))


def field_figures(tournament: Tournament) -> FieldFigures:
    # One pass over the seats, counted per active table: at 1,250 tables each server reads this once
    # per seating change (every bust and move), in a dealer's deal or a table's snapshot.
    figures = (
        Table.objects.filter(tournament=tournament)
        .exclude(status=Table.Status.BROKEN)
        .annotate(players=seated_players())
        .aggregate(largest=Max("seats"), seated=Sum("players"), most=Max("players"))
    )
    return FieldFigures(**{name: value or 0 for name, value in figures.items()})


def halted_reason(
    table: Table,
    *,
    current: bool = False,
    figures: FieldFigures | None = None,
    seated_here: int | None = None,
) -> str | None:
    """Why this table must not deal its next hand now (R8.3-R8.5), as a message, or None.

    Asked before every hand and by every table snapshot between hands, so it reads this table's seats
    and figures about the field (``FieldFigures``), not the whole seating: the whole field is built
    only when the players left could fit at one table.

    ``current``: the caller has just read the table (under its lock), so it is not read again.
    ``figures``: the field's figures as the caller read them; by default those of the tournament's
    version as ``table.tournament`` was read (``current_field_figures``).
    ``seated_here``: the players seated at this table, when the caller has just counted them.
    """
    if not current:
        table = Table.objects.select_related("tournament").get(pk=table.pk)
    if table.status == Table.Status.BROKEN:
        if Seat.objects.filter(table=table, entry__isnull=False).exists():
            return str(HALT_MESSAGES["breaking"])
        return str(HALT_MESSAGES["broken"])
    tournament = table.tournament
    figures = figures if figures is not None else current_field_figures(tournament)
    # The field counted for R8.5 is at least the players seated at active tables: more than one
    # table's worth and the final-table redraw is not due.
    if figures.seated <= figures.largest:
        # Near the final table (R8.5): a handful of players, the field's own rule decides.
        snapshot = _Snapshot(tournament)
        code = snapshot.field.halted_reason(table.number)
        if code is None and len(snapshot.field.tables[table.number].seats) < 2:
            code = "one_player"
        return None if code is None else str(HALT_MESSAGES[code])
    here = (
        seated_here
        if seated_here is not None
        else Seat.objects.filter(table=table, entry__isnull=False).count()
    )
    # balancing.Field.halted_reason's "short": three or more fewer players than the fullest table.
    code = "short" if here <= figures.most - balancing.SHORT_BY else ("one_player" if here < 2 else None)
    return None if code is None else str(HALT_MESSAGES[code])


def hand_started(
    table: Table,
    *,
    button_seat: int | None = None,
    big_blind_seat: int | None = None,
    halt_checked: bool = False,
    locked: bool = False,
    actor=None,
    savepoint: bool = True,
) -> Table:
    """A hand is being dealt at this table: balancing leaves it alone until ``hand_finished`` (R8.3).

    The dealing service may pass this hand's positions; they become the table's last-hand positions.
    Only the table row is locked (the dealing service holds it already): balancing locks the
    tournament and then the tables, so it waits for this hand to start and then leaves the table alone.
    """
    # ``savepoint=False``: as for ``hand_finished`` (the dealing service's own transaction).
    with transaction.atomic(savepoint=savepoint):
        return _hand_started(table, button_seat, big_blind_seat, halt_checked, locked)


def _hand_started(table, button_seat, big_blind_seat, halt_checked: bool, locked: bool) -> Table:
    if not locked:
        table = Table.objects.select_for_update(no_key=True).get(pk=table.pk)
    if table.hand_in_progress:
        raise StateError(
            _("A hand is already in progress at %(table)s.") % {"table": table}, code="hand_in_progress"
        )
    # ``halt_checked``: the caller asked halted_reason under this same table lock (the dealing service).
    reason = None if halt_checked else halted_reason(table)
    if reason is not None:
        raise StateError(reason, code="table_halted")
    for name, value in (("button_seat", button_seat), ("big_blind_seat", big_blind_seat)):
        if value is not None and not 1 <= value <= table.seats:
            raise ValidationError(
                {name: _("Table %(table)s has no seat %(seat)s.") % {"table": table.number, "seat": value}}
            )
    table.hand_in_progress = True
    fields = ["hand_in_progress"]
    if button_seat is not None:
        table.button_seat = button_seat
        fields.append("button_seat")
    if big_blind_seat is not None:
        table.big_blind_seat = big_blind_seat
        fields.append("big_blind_seat")
    update_row(Table, table.pk, **{name: getattr(table, name) for name in fields})  # its SQL built once
    table_changed(table.pk)
    return table


def hand_finished(
    table: Table,
    *,
    button_seat: int | None,
    big_blind_seat: int | None,
    busted: bool = False,
    actor=None,
    savepoint: bool = True,
    balance_after_commit: bool = False,
) -> list[Move]:
    """The hand at this table is over: record its positions, make the moves that waited for it, rebalance.

    Moves out of this table that waited for the hand are made now; a balancing move waiting here is
    decided afresh (the player who is big blind next has changed). Returns the moves made.

    ``busted``: players went out on this hand, so the field is rebalanced in this transaction (R8.3):
    read without locks, with only the tables that give or take a player locked (``_decided``).
    Most hands end with no move waiting and nobody out: then only this table's row is locked and
    nothing about the rest of the field is read, so hand ends at a thousand tables do not queue behind
    one another.

    ``savepoint=False``: the caller's own transaction (the dealing service's, which never goes on
    after an error) is rolled back whole by any error here, so no savepoint is made (two round trips).

    ``balance_after_commit`` (the dealer's input that ends the hand): the moves and the rebalance are
    left to the balance task, queued for the commit, and this returns no moves. The decision reads
    the whole field (40-70 ms at 1,250 tables) and a web server takes its dealers' inputs on one
    thread: decided in the input, it held up every input of that server at every bust. The task makes
    the waiting moves as this would (``_settle_idle_tables``) well before a dealer can deal again; a
    deal that comes first leaves a waiting move for the next hand's end (R8.3: a table mid-hand
    finishes it first). Not in the director's review mode, where the task decides nothing.
    """
    with transaction.atomic(savepoint=savepoint):
        return _hand_finished(table, button_seat, big_blind_seat, busted, actor, balance_after_commit)


def _hand_finished(table, button_seat, big_blind_seat, busted: bool, actor, after_commit: bool) -> list[Move]:
    for name, value in (("button_seat", button_seat), ("big_blind_seat", big_blind_seat)):
        if value is not None and not 1 <= value <= table.seats:
            raise ValidationError(
                {name: _("Table %(table)s has no seat %(seat)s.") % {"table": table.number, "seat": value}}
            )
    if (busted or _moves_wait_for(table)) and not (after_commit and _task_decides(table.tournament_id)):
        return _hand_finished_with_moves(
            table, button_seat=button_seat, big_blind_seat=big_blind_seat, actor=actor
        )
    table = lock_table(table.pk)
    _record_positions(table, button_seat, big_blind_seat)
    if busted or _moves_wait_for(table):
        # A balance decided while this table was locked for its hand's end left a move waiting here: the
        # balancing task makes it now that the table is between hands (lock order: tournament first).
        _queue_balance(table.tournament_id)
    return []


def _task_decides(tournament_id: int) -> bool:
    """The balance task decides for this tournament (not the director, in review mode)."""
    return not _reviewing_plan(tournament_id)


_reviewing_plan = PreparedQuery(
    lambda tournament_id: (
        SeatingPlan.objects.filter(tournament_id=tournament_id, review_moves=True).only("pk").order_by()[:1]
    )
)


# Read at every deal and every hand's end: their SQL built once (config.prepared).
_locked_table = PreparedQuery(
    lambda pk: Table.objects.select_for_update(no_key=True).filter(pk=pk).order_by()[:1]
)
_move_waiting = PreparedQuery(
    lambda table_id: (
        Move.objects.filter(from_table_id=table_id, status=Move.Status.PENDING).only("pk").order_by()[:1]
    )
)


def lock_table(pk: int) -> Table:
    """The table ``pk`` read under its lock (FOR NO KEY UPDATE) in the current transaction."""
    table = _locked_table.first(pk)
    if table is None:
        raise Table.DoesNotExist(f"table {pk}")
    return table


def _moves_wait_for(table: Table) -> bool:
    """Moves out of this table wait for its hand to end, or the table is broken with players still there."""
    if _move_waiting.first(table.pk) is not None:
        return True
    return table.status == Table.Status.BROKEN


def _record_positions(table: Table, button_seat: int | None, big_blind_seat: int | None) -> None:
    """The hand is over: the table's last-hand positions, the big blind's seat no longer waiting for
    it (R8.1), and the table announced (``table_changed``). On PostgreSQL in one statement with the
    table's version: a round trip less at every hand's end, on the dealers' thread."""
    table.hand_in_progress = False
    table.button_seat = button_seat
    table.big_blind_seat = big_blind_seat
    if connection.vendor == "postgresql":
        bump = not live.changed_in_this_transaction(live.table_group(table.pk))
        with connection.cursor() as cursor:
            cursor.execute(
                _positions_sql(), [table.pk, big_blind_seat, button_seat, big_blind_seat, int(bump), table.pk]
            )
            (version,) = cursor.fetchone()
        table_changed(table.pk, version=version if bump else None)
        return
    update_row(
        Table, table.pk, hand_in_progress=False, button_seat=button_seat, big_blind_seat=big_blind_seat
    )
    if big_blind_seat is not None:
        # The player who waited for the big blind has posted it (R8.1).
        Seat.objects.filter(table=table, number=big_blind_seat).update(waits_for_big_blind=False)
    table_changed(table.pk)


@functools.cache
def _positions_sql() -> str:
    """``_record_positions``'s statement (the seat's write only where it waits: no row is rewritten
    for nothing)."""
    table, seat = (connection.ops.quote_name(m._meta.db_table) for m in (Table, Seat))
    return (
        f'WITH posted AS (UPDATE {seat} SET "waits_for_big_blind" = false '
        f'WHERE "table_id" = %s AND "number" = %s AND "waits_for_big_blind") '
        f'UPDATE {table} SET "hand_in_progress" = false, "button_seat" = %s, "big_blind_seat" = %s, '
        f'"version" = "version" + %s WHERE "id" = %s RETURNING "version"'
    )


def _hand_finished_with_moves(
    table: Table, *, button_seat: int | None, big_blind_seat: int | None, actor=None
) -> list[Move]:
    tournament = _lock(table.tournament)
    table = lock_table(table.pk)
    _record_positions(table, button_seat, big_blind_seat)
    _release_busted(tournament)

    def decide(snapshot: _Snapshot):
        field = snapshot.field
        done, dropped = field.hand_finished(table.number, button=button_seat, big_blind=big_blind_seat)
        decision = field.decide() if not snapshot.plan.review_moves else balancing.Decision()
        return done, dropped, decision

    snapshot, (done, dropped, decision) = _decided(tournament, decide, also={table.number})
    rows = _write(snapshot, decision, actor=actor, completed=done, dropped=dropped)
    table_changed(table.pk)
    _queue_balance(tournament.pk)
    return [row for row in rows if row.status == Move.Status.DONE]


def release_and_rebalance(
    tournament: Tournament, entries: Iterable[int] | None = None, *, locked: bool = False
) -> None:
    """Players busted: free their seats now and balance once the bust is committed (R8.3, R8.8).
    ``entries``: the players just busted (late on a Day 1 the field's 8,000 busts are not read again
    at every bust); by default every busted player still seated. ``locked``: ``tournament`` was read
    under its lock in this transaction (the bust itself): not locked a second time, and the bust's
    transaction is this one (no savepoint of its own)."""
    with transaction.atomic(savepoint=not locked):
        _release_busted(tournament if locked else _lock(tournament), entries)
        _queue_balance(tournament.pk)


# ---------------------------------------------------------------- balancing (R8.3-R8.5)


@transaction.atomic
def balance(
    tournament: Tournament, *, actor=None, apply: bool = True, rng=None, ahead: _ReadAhead | None = None
) -> list[Move]:
    """Decide the moves that balance the tables, break a table or draw the final table, and make them.

    Locks the tournament first, so concurrent bust-outs are decided one after another; the decision
    counts pending moves, so running it twice moves nobody twice. With ``apply=False`` it returns the
    suggested moves (unsaved) and changes nothing.

    ``ahead``: the field as read and decided without the lock (``balance_if_due``), used if nothing
    moved the field since (the tournament's version is the one read before it).
    """
    tournament = _lock(tournament)
    released = _release_busted(tournament) if apply else 0
    if not Table.objects.filter(tournament=tournament).exists():
        return []
    if apply:
        if ahead is not None and (released or ahead.version != tournament.version):
            ahead = None  # the field moved after it was read: read it again, under the lock
        snapshot, (done, dropped, decision) = _decided(tournament, _settle_and_decide, rng=rng, ahead=ahead)
        return _write(snapshot, decision, actor=actor, completed=done, dropped=dropped)
    snapshot = _Snapshot(tournament, rng=rng)
    # Busted players still sitting would be moved in a suggestion: take them out of the picture.
    busted = set(_busted(tournament).values_list("pk", flat=True))
    for player in [p for p in snapshot.field.where if p in busted]:
        snapshot.field.bust(player)
    decision = snapshot.field.decide()
    numbers = {number for m in decision.moves for number in (m.from_table, m.to_table)}
    tables = {t.number: t for t in Table.objects.filter(pk__in=[snapshot.tables[n].pk for n in numbers])}
    return [
        _move_row(tournament, tables, m, status=Move.Status.PENDING if m.pending else Move.Status.DONE)
        for m in decision.moves
    ]


def _decided(
    tournament: Tournament, decide, *, rng=None, also: set[int] = frozenset(), ahead: _ReadAhead | None = None
):
    """Read the field without locks, ``decide(snapshot)`` -> (moves done, moves dropped, decision),
    then lock only the tables it changes (and ``also``) and check they are as read; if one is not
    (a hand dealt there meanwhile), read and decide again the same way, and after ``UNLOCKED_READS``
    such reads with every table locked. The caller holds the tournament's lock, so no other decision
    runs meanwhile. Returns the snapshot and the result. ``ahead``: that read and decision, made
    before the lock and still current.

    Every table locked is the last resort: while the field is read again under those locks (50-150 ms
    at 1,250 tables) every deal and input of the event waits, and a server takes its dealers' inputs
    one at a time, so all of its inputs wait behind the first. A table that changed between a read
    and the lock is usually one hand that started or ended there: read again, it is as read."""
    for attempt in range(UNLOCKED_READS):
        if attempt == 0 and ahead is not None:
            snapshot, result = ahead.snapshot, ahead.result
        else:
            snapshot = _Snapshot(tournament, rng=rng)
            result = decide(snapshot)
        if snapshot.confirm(_touched(snapshot, result, also)):
            return snapshot, result
    snapshot = _Snapshot(tournament, rng=rng, lock=True)
    return snapshot, decide(snapshot)


# Unlocked reads of the field a decision makes before it reads it with every table locked.
UNLOCKED_READS = 3


def _touched(snapshot: _Snapshot, result: tuple, also) -> set[int]:
    """The numbers of the tables a decision changes: they are locked and checked as read."""
    done, dropped, decision = result
    if decision.final_redraw:
        return set(snapshot.tables)  # everybody is drawn again
    touched = set(also) | set(decision.broken)
    for move in itertools.chain(decision.moves, decision.dropped, done, dropped):
        touched.update((move.from_table, move.to_table))
    return touched


def _settle_and_decide(snapshot: _Snapshot):
    done, dropped = _settle_idle_tables(snapshot)
    return done, dropped, snapshot.field.decide()


@dataclass(frozen=True)
class _ReadAhead:
    """The field read and decided without a lock (``_settle_and_decide``), at the tournament's
    ``version`` as read just before it."""

    version: int
    snapshot: _Snapshot
    result: tuple


# balance_if_due: due, for a reason only the locked balance reads (a busted player still seated).
_DUE_LOCKED = object()


def _due(tournament: Tournament):
    """None when ``balance`` would change nothing now; else what it would do, read without a lock
    (a ``_ReadAhead``), or ``_DUE_LOCKED``."""
    busted = _busted(tournament)
    if Seat.objects.filter(table__tournament=tournament, entry__in=busted).exists():
        return _DUE_LOCKED
    if Move.objects.filter(tournament=tournament, status=Move.Status.PENDING, entry__in=busted).exists():
        return _DUE_LOCKED
    if not Table.objects.filter(tournament=tournament).exists():
        return None
    if _at_rest(tournament):
        return None
    # Read before the field: a change of who sits where committed after it moves the version on.
    version = tournament_version(tournament.pk)
    try:
        snapshot = _Snapshot(tournament)
    except KeyError:  # a table added between its reads (unlocked, each its own snapshot): decide locked
        return _DUE_LOCKED
    settling = any(state.outgoing and not state.hand_in_progress for state in snapshot.field.tables.values())
    done, dropped, decision = result = _settle_and_decide(snapshot)
    if (
        settling
        or done
        or dropped
        or decision.moves
        or decision.broken
        or decision.dropped
        or decision.final_redraw
    ):
        return _ReadAhead(version, snapshot, result)
    return None


def _at_rest(tournament: Tournament) -> bool:
    """Nothing to do, told from the tables' counts (``balancing.Field.at_rest``): no table to break,
    no final table to draw, none to balance, and every pending move still fits and waits for a hand
    (R8.3-R8.5). Most busts leave a big field so: the balance task they queue, and the beat's backstop
    every 15 s, then read 1,250 rows and the seats of the few tables a pending move touches, instead of
    the whole seating (10,000 seats and every player's last move). False whenever the counts cannot
    tell: the whole field is read and decided then."""
    pending = list(
        Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).values_list(
            "entry_id", "from_table_id", "from_seat", "to_table_id", "to_seat", "reason"
        )
    )
    rows = (
        Table.objects.filter(tournament=tournament)
        .annotate(players=seated_players())
        .values_list("pk", "number", "seats", "break_order", "status", "hand_in_progress", "players")
    )
    number_of, counts = {}, []
    for pk, number, size, break_order, status, hand, players in rows:
        number_of[pk] = number
        counts.append(
            balancing.TableCount(number, size, players, break_order, status == Table.Status.BROKEN, hand)
        )
    if any(t.broken and t.players for t in counts):  # players still at a broken table: read them
        return False
    # The tables a pending move leaves or joins, with their real players: the Field tells whether the
    # move still fits (its player where it starts, its seat free).
    involved = {table_id for move in pending for table_id in (move[1], move[3])}
    seated: dict[int, dict[int, int]] = {
        number_of[table_id]: {} for table_id in involved if table_id in number_of
    }
    for table_id, seat, entry_id in Seat.objects.filter(
        table_id__in=involved, entry__isnull=False
    ).values_list("table_id", "number", "entry_id"):
        if table_id in number_of:
            seated[number_of[table_id]][seat] = entry_id
    try:
        tables = balancing.counted_tables((t for t in counts if not t.broken), seated)
        moves = [
            balancing.Move(
                player=entry_id,
                from_table=number_of[from_table],
                from_seat=from_seat,
                to_table=number_of[to_table],
                to_seat=to_seat,
                reason=reason,
                pending=True,
            )
            for entry_id, from_table, from_seat, to_table, to_seat, reason in pending
        ]
    except (ValueError, KeyError):  # the seats moved between the reads, or a table went: read it all
        return False
    field = balancing.Field(tables, _options(seating_plan(tournament), tournament), pending=moves)
    if any(state.outgoing and not state.hand_in_progress for state in field.tables.values()):
        return False  # a move waits at a table between hands: it is made now (``_settle_idle_tables``)
    return field.at_rest()


def balance_due(tournament: Tournament) -> bool:
    """Would ``balance`` change anything now: a busted player still seated or promised a move, a move
    waiting at a table between hands, or tables to balance, break or redraw (R8.3-R8.5)? Read without
    a lock."""
    return _due(tournament) is not None


def balance_if_due(tournament: Tournament, *, actor=None) -> list[Move]:
    """The balance task: read the field without a lock and decide; lock and balance only if that
    changes anything, with that same read and decision if the field has not moved since.

    ``balance`` locks the tournament while it decides: every bust of the event waits for it, and the
    tables it changes wait too (60-310 ms at 1,250 tables under load; the beat's backstop ran it every
    15 s, the slowest seconds of tests/bench/load_event.py at 250 inputs a second). Read first, a
    balanced field is left unlocked, and a due balance holds the lock only to check and write (the
    whole field was read twice, once here and once under the lock). A change committed after this
    read queues its own balance (``_queue_balance``), so nothing is missed by not locking. A field
    that moved while it was read is read again here, up to ``UNLOCKED_READS`` times, rather than
    under the lock."""
    for _attempt in range(UNLOCKED_READS):
        ahead = _due(tournament)
        if ahead is None:
            return []
        if not isinstance(ahead, _ReadAhead):
            return balance(tournament, actor=actor)
        # A bust or a move elsewhere while the field was read (50 ms at 1,250 tables) would make the
        # balance read it all again holding the tournament, and every bust of the event, each in a
        # dealer's input that holds its server's other inputs behind it, would wait that long: read
        # it again first, unlocked.
        if tournament_version(tournament.pk) == ahead.version:
            break
    return balance(tournament, actor=actor, ahead=ahead)


def _settle_idle_tables(snapshot: _Snapshot) -> tuple[list, list]:
    """Moves still waiting at a table whose hand is over are made (or re-decided) now, as at its hand's
    end: the end of a hand that raced with a balance leaves them to this run."""
    done, dropped = [], []
    for number, state in snapshot.field.tables.items():
        if state.outgoing and not state.hand_in_progress:
            d, x = snapshot.field.hand_finished(number, button=state.button, big_blind=state.big_blind)
            done += d
            dropped += x
    return done, dropped


def suggested_moves(tournament: Tournament) -> list[Move]:
    """What balancing would do now, without doing it (the director's review)."""
    with transaction.atomic():
        sid = transaction.savepoint()
        try:
            return balance(tournament, apply=False)
        finally:
            transaction.savepoint_rollback(sid)


# ---------------------------------------------------------------- director overrides


def _check_seat(table: Table, number, field: str = "seat") -> None:
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValidationError({field: _("A seat is a whole number.")})
    if number > MAX_SEATS:
        raise RuleError(
            _("A Courchevel table has at most 8 seats (R2.7): there is no seat %(seat)s.") % {"seat": number},
            code="ninth_seat",
            field=field,
            rule="R2.7",
        )
    if number < 1:
        raise ValidationError({field: _("Seats are numbered from 1.")})
    if number > table.seats:
        raise RuleError(
            _("Table %(table)s has seats 1 to %(seats)s, not %(seat)s (R2.7).")
            % {"table": table.number, "seats": table.seats, "seat": number},
            code="no_such_seat",
            field=field,
            rule="R2.7",
            params={"seat": number, "minimum": 1, "maximum": table.seats},
        )


@transaction.atomic
def move_entry(entry: Entry, to_table: Table, to_seat: int, *, reason: str, actor=None) -> Move:
    """The director moves a player by hand, with a reason. Waits for the hand if the player is in one."""
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the player is moved.")})
    tournament = _lock(entry.tournament)
    entry = Entry.objects.get(pk=entry.pk)
    to_table = Table.objects.select_for_update(no_key=True).get(pk=to_table.pk)
    if to_table.tournament_id != tournament.pk:
        raise ValidationError(
            {"table": _("Table %(table)s is not in this tournament.") % {"table": to_table.number}}
        )
    _check_seat(to_table, to_seat)
    if entry.status != ACTIVE:
        raise StateError(
            _("%(entry)s is out of the tournament and cannot be moved.") % {"entry": entry},
            code="entry_busted",
            field="entry",
        )
    if to_table.status != Table.Status.ACTIVE:
        raise StateError(_("%(table)s is broken.") % {"table": to_table}, code="table_broken", field="table")
    if Move.objects.filter(entry=entry, status=Move.Status.PENDING).exists():
        raise StateError(
            _("%(entry)s already has a move waiting for the hand to end.") % {"entry": entry},
            code="move_pending",
            field="entry",
        )
    target = Seat.objects.select_for_update().get(table=to_table, number=to_seat)
    if target.entry_id is not None:
        raise StateError(
            _("Table %(table)s seat %(seat)s is taken by %(entry)s.")
            % {"table": to_table.number, "seat": to_seat, "entry": target.entry},
            code="seat_taken",
            field="seat",
        )
    if Move.objects.filter(to_table=to_table, to_seat=to_seat, status=Move.Status.PENDING).exists():
        raise StateError(
            _("Table %(table)s seat %(seat)s is promised to a player who is moving there.")
            % {"table": to_table.number, "seat": to_seat},
            code="seat_promised",
            field="seat",
        )
    takes_reservation = bool(target.reserved_key) and target.reserved_key == entry.player.name_key
    if target.locked and not takes_reservation:
        raise StateError(
            (
                _(
                    "Table %(table)s seat %(seat)s is reserved for %(name)s (%(reason)s): cancel the reservation first."
                )
                if target.reserved_key
                else _("Table %(table)s seat %(seat)s is locked (%(reason)s): unlock it first.")
            )
            % {
                "table": to_table.number,
                "seat": to_seat,
                "name": target.reserved_for,
                "reason": target.lock_reason,
            },
            code="seat_locked",
            field="seat",
        )
    current = Seat.objects.select_for_update().select_related("table").filter(entry=entry).first()
    now = timezone.now()
    waits = _table_state(to_table).between_small_blind_and_button(to_seat)
    move = Move(
        tournament=tournament,
        entry=entry,
        from_table=current.table if current else None,
        from_seat=current.number if current else None,
        to_table=to_table,
        to_seat=to_seat,
        reason=Move.Reason.MANUAL,
        note=reason.strip()[:200],
        actor=actor if getattr(actor, "is_authenticated", False) else None,
    )
    if current is not None and current.table.hand_in_progress:
        move.status = Move.Status.PENDING
    else:
        if current is not None:
            current.entry = None
            current.waits_for_big_blind = False
            current.save(update_fields=["entry", "waits_for_big_blind"])
            table_changed(current.table_id)
        target.entry = entry
        target.waits_for_big_blind = waits
        target.seated_at = now
        fields = ["entry", "waits_for_big_blind", "seated_at"]
        if takes_reservation:  # the player the seat was kept for sits down: the reservation is used up
            for name, value in UNLOCKED.items():
                setattr(target, name, value)
            fields += list(UNLOCKED)
        target.save(update_fields=fields)
        move.status = Move.Status.DONE
        move.applied_at = now
    move.save()
    record_audit(
        actor,
        AuditAction.TABLES_MOVE,
        move,
        reason=reason,
        data={
            "entry": entry.pk,
            "to": [to_table.number, to_seat],
            "status": move.status,
            "from": [current.table.number, current.number] if current else None,
        },
    )
    table_changed(to_table.pk)
    tournament_changed(tournament.pk)
    return move


@transaction.atomic
def lock_seat(seat: Seat, *, reason: str, actor=None) -> Seat:
    """The player in this seat is not moved by balancing; an empty locked seat stays empty."""
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the seat is locked.")})
    _lock(seat.table.tournament)
    seat = Seat.objects.select_for_update().select_related("table").get(pk=seat.pk)
    if seat.table.status != Table.Status.ACTIVE:
        raise StateError(_("%(table)s is broken.") % {"table": seat.table}, code="table_broken")
    seat.locked = True
    seat.lock_reason = reason.strip()[:200]
    seat.save(update_fields=["locked", "lock_reason"])
    record_audit(actor, AuditAction.TABLES_LOCK_SEAT, seat, reason=reason)
    table_changed(seat.table_id)
    return seat


@transaction.atomic
def unlock_seat(seat: Seat, *, actor=None) -> Seat:
    _lock(seat.table.tournament)
    seat = Seat.objects.select_for_update().get(pk=seat.pk)
    reserved_for = seat.reserved_for
    for name, value in UNLOCKED.items():
        setattr(seat, name, value)
    seat.save(update_fields=list(UNLOCKED))
    record_audit(
        actor,
        AuditAction.TABLES_UNLOCK_SEAT,
        seat,
        data={"reserved_for": reserved_for} if reserved_for else None,
    )
    table_changed(seat.table_id)
    _queue_balance(seat.table.tournament_id)
    return seat


@transaction.atomic
def reserve_seat(seat: Seat, *, player_name: str, reason: str, actor=None) -> Seat:
    """Keep this empty seat for one named player (a late registrant, a player coming back): nobody else
    is seated, moved or drawn there, and that player's next seating takes it (``seat_entry``, or a
    manual move). The player need not be registered yet: the name is matched as the desk matches
    players (case, accents and spacing ignored)."""
    name = " ".join((player_name or "").split())
    if not name:
        raise ValidationError({"player": _("Name the player the seat is kept for.")})
    if len(name) > 200:
        raise ValidationError({"player": _("A name has at most 200 characters.")})
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the seat is reserved.")})
    tournament = _lock(seat.table.tournament)
    seat = (
        Seat.objects.select_for_update(of=("self",)).select_related("table", "entry__player").get(pk=seat.pk)
    )
    where = {"table": seat.table.number, "seat": seat.number}
    if seat.table.status != Table.Status.ACTIVE:
        raise StateError(_("%(table)s is broken.") % {"table": seat.table}, code="table_broken")
    if seat.entry_id is not None:
        raise StateError(
            _("Table %(table)s seat %(seat)s is taken by %(entry)s.") % {**where, "entry": seat.entry},
            code="seat_taken",
            field="seat",
        )
    if seat.reserved_key:
        raise StateError(
            _("Table %(table)s seat %(seat)s is already reserved for %(name)s.")
            % {**where, "name": seat.reserved_for},
            code="seat_reserved",
            field="seat",
        )
    if Move.objects.filter(to_table=seat.table, to_seat=seat.number, status=Move.Status.PENDING).exists():
        raise StateError(
            _("Table %(table)s seat %(seat)s is promised to a player who is moving there.") % where,
            code="seat_promised",
            field="seat",
        )
    key = name_key(name)
    sitting = (
        Seat.objects.filter(table__tournament=tournament, entry__status=ACTIVE, entry__player__name_key=key)
        .select_related("table")
        .first()
    )
    if sitting is not None:
        raise StateError(
            _("%(name)s is already seated at table %(table)s seat %(seat)s.")
            % {"name": name, "table": sitting.table.number, "seat": sitting.number},
            code="already_seated",
            field="player",
        )
    other = (
        Seat.objects.filter(table__tournament=tournament, reserved_key=key).select_related("table").first()
    )
    if other is not None:
        raise StateError(
            _("Table %(table)s seat %(seat)s is already reserved for %(name)s.")
            % {"table": other.table.number, "seat": other.number, "name": other.reserved_for},
            code="already_reserved",
            field="player",
        )
    seat.locked = True
    seat.lock_reason = reason.strip()[:200]
    seat.reserved_for = name
    seat.reserved_key = key
    seat.save(update_fields=["locked", "lock_reason", "reserved_for", "reserved_key"])
    record_audit(actor, AuditAction.TABLES_RESERVE_SEAT, seat, reason=reason, data={"player": name})
    table_changed(seat.table_id)
    tournament_changed(tournament.pk)
    return seat


def _table_number(value, field: str = "number") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError({field: _("A table number is a whole number.")})
    if not 1 <= value <= 99_999:
        raise ValidationError({field: _("Table numbers go from 1 to 99999.")})
    return value


@transaction.atomic
def open_table(
    tournament: Tournament, *, number: int | None = None, seats: int | None = None, actor=None
) -> Table:
    """Open one more table: for late registration when every seat is taken, or an outer table.

    By default it is numbered after the highest table and has the tournament's table size; a broken
    table's number opens that table again. A new table breaks first (R8.4: the director can change the
    breaking order). Balancing then fills it like any short table (R8.3)."""
    tournament = _lock(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise StateError(_("The tournament is finished."), code="wrong_status")
    existing = {
        t.number: t for t in Table.objects.select_for_update(no_key=True).filter(tournament=tournament)
    }
    if not existing:
        raise StateError(_("Draw the seats first: the draw opens the tables."), code="not_drawn")
    if seats is None:
        seats = _table_size(tournament)
    elif isinstance(seats, bool) or not isinstance(seats, int):
        raise ValidationError({"seats": _("Give the number of seats as a whole number.")})
    elif not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleError(
            _("A Courchevel table seats 2 to 8 players (R2.7), not %(seats)s.") % {"seats": seats},
            code="too_many_seats",
            field="seats",
            rule="R2.7",
            params={"seats": seats, "minimum": MIN_SEATS, "maximum": MAX_SEATS},
        )
    number = max(existing) + 1 if number is None else _table_number(number)
    top = max((t.break_order for t in existing.values() if t.status == Table.Status.ACTIVE), default=0)
    table = existing.get(number)
    if table is not None:
        if table.status == Table.Status.ACTIVE:
            raise StateError(
                _("Table %(number)s is already open.") % {"number": number}, code="table_open", field="number"
            )
        if Seat.objects.filter(table=table, entry__isnull=False).exists() or table.hand_in_progress:
            raise StateError(
                _("Table %(number)s is still breaking: its players are being moved (R8.4).")
                % {"number": number},
                code="table_breaking",
                field="number",
            )
        # A broken table opens again as a new one: no positions yet, the size asked for.
        Seat.objects.filter(table=table, number__gt=seats).delete()
        Seat.objects.bulk_create([Seat(table=table, number=n) for n in range(table.seats + 1, seats + 1)])
        Seat.objects.filter(table=table).update(**UNLOCKED, waits_for_big_blind=False)
        table.status = Table.Status.ACTIVE
        table.broken_at = None
        table.seats = seats
        table.button_seat = table.big_blind_seat = None
        table.break_order = top + 1
        table.save(
            update_fields=["status", "broken_at", "seats", "button_seat", "big_blind_seat", "break_order"]
        )
    else:
        table = Table.objects.create(tournament=tournament, number=number, seats=seats, break_order=top + 1)
        Seat.objects.bulk_create([Seat(table=table, number=n) for n in range(1, seats + 1)])
    record_audit(actor, AuditAction.TABLES_OPEN, table, data={"table": number, "seats": seats})
    table_changed(table.pk)
    tournament_changed(tournament.pk)
    _queue_balance(tournament.pk)
    return table


BREAK_REFUSALS = {
    "hand_in_progress": (
        StateError,
        _("A hand is being played at table %(table)s: break it once the hand is over (R8.3)."),
    ),
    "last_two_tables": (
        RuleError,
        _("Two tables are left: they come together in the final-table redraw (R8.5), not by breaking one."),
    ),
    "no_open_seat": (
        StateError,
        _(
            "The %(players)s players of table %(table)s do not fit in the %(seats)s open seats of the other"
            " tables (R8.4): open a table first."
        ),
    ),
}


@transaction.atomic
def break_table(table: Table, *, actor=None, rng=None) -> list[Move]:
    """The director breaks (closes) this table now: its players go to open seats by random draw, as
    when a table breaks in the breaking order (R8.4), each dealt in as R8.1 says. Refused (409) while a
    hand is played there; the balancing that may follow is queued as after any change."""
    tournament = _lock(table.tournament)
    _release_busted(tournament)
    snapshot = _Snapshot(tournament, rng=rng, lock=True)
    table = next((t for t in snapshot.tables.values() if t.pk == table.pk), None)
    if table is None or table.status != Table.Status.ACTIVE:
        raise StateError(_("This table is broken."), code="table_broken")
    done, dropped = _settle_idle_tables(snapshot)
    try:
        decision = snapshot.field.break_table(table.number)
    except balancing.SeatingError as exc:
        kind, message = BREAK_REFUSALS.get(exc.code, (StateError, _("This table cannot break now.")))
        raise kind(
            message % {"table": table.number, **exc.params}, code=exc.code, rule=exc.rule, params=exc.params
        ) from exc
    rows = _write(snapshot, decision, actor=actor, completed=done, dropped=dropped)
    record_audit(
        actor,
        AuditAction.TABLES_BREAK_TABLE,
        table,
        data={"table": table.number, "moves": len(decision.moves)},
    )
    _queue_balance(tournament.pk)
    return rows


@transaction.atomic
def show_chart_on_clock(tournament: Tournament, on: bool, *, actor=None) -> SeatingPlan:
    """Every clock screen of the tournament shows the seating chart (``on``) or the clock again."""
    tournament = _lock(tournament)
    if on and not Table.objects.filter(tournament=tournament).exists():
        raise StateError(_("No seats are drawn yet: there is no seating chart to show."), code="not_drawn")
    plan = seating_plan(tournament)
    if plan.chart_on_clock != bool(on):
        plan.chart_on_clock = bool(on)
        plan.save(update_fields=["chart_on_clock"])
        record_audit(actor, AuditAction.TABLES_CHART_ON_CLOCK, tournament, data={"on": bool(on)})
        tournament_changed(tournament.pk)
    return plan


@transaction.atomic
def acknowledge_move(move: Move, *, actor=None) -> Move:
    """The dealer saw the player arrive (or leave). Acknowledging twice changes nothing."""
    move = Move.objects.select_for_update().get(pk=move.pk)
    if move.status == Move.Status.ACKNOWLEDGED:
        return move
    if move.status != Move.Status.DONE:
        raise StateError(
            _("This move is %(status)s: only a move that is done can be acknowledged.")
            % {"status": move.get_status_display()},
            code="move_not_done",
        )
    move.status = Move.Status.ACKNOWLEDGED
    move.acknowledged_at = timezone.now()
    move.save(update_fields=["status", "acknowledged_at"])
    record_audit(actor, AuditAction.TABLES_ACKNOWLEDGE_MOVE, move)
    table_changed(move.to_table_id)
    if move.from_table_id:
        table_changed(move.from_table_id)
    return move


@transaction.atomic
def set_break_order(tournament: Tournament, numbers: list[int], *, actor=None) -> list[Table]:
    """R8.4: the director's breaking order: ``numbers`` lists every active table, first to break first."""
    tournament = _lock(tournament)
    active = {t.number: t for t in Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE)}
    if not isinstance(numbers, list) or any(isinstance(n, bool) or not isinstance(n, int) for n in numbers):
        raise ValidationError({"order": _("Give the table numbers as a list of whole numbers.")})
    if len(set(numbers)) != len(numbers):
        raise ValidationError({"order": _("A table is listed twice.")})
    unknown = sorted(set(numbers) - set(active))
    if unknown:
        raise ValidationError(
            {"order": _("No active table %(numbers)s.") % {"numbers": ", ".join(map(str, unknown))}}
        )
    missing = sorted(set(active) - set(numbers))
    if missing:
        raise ValidationError(
            {
                "order": _("Every active table must be listed; missing %(numbers)s.")
                % {"numbers": ", ".join(map(str, missing))}
            }
        )
    for i, number in enumerate(numbers):
        active[number].break_order = len(numbers) - i
    Table.objects.bulk_update(active.values(), ["break_order"])
    record_audit(actor, AuditAction.TABLES_BREAK_ORDER, tournament, data={"order": numbers})
    tournament_changed(tournament.pk)
    return sorted(active.values(), key=lambda t: -t.break_order)


@transaction.atomic
def update_plan(tournament: Tournament, *, actor=None, **fields) -> SeatingPlan:
    """Change how tables are balanced (R8.3): allowed difference, relaxed difference, review mode."""
    tournament = _lock(tournament)
    plan = seating_plan(tournament)
    allowed = {
        "allowed_difference",
        "relaxed_difference",
        "relaxed_above_tables",
        "final_table_seats",
        "two_table_seats",
        "review_moves",
    }
    for name, value in fields.items():
        if name not in allowed:
            raise ValidationError({name: _("This setting cannot be changed here.")})
        setattr(plan, name, value)
    plan.full_clean()
    plan.save()
    record_audit(actor, AuditAction.TABLES_PLAN, tournament, data={k: v for k, v in fields.items()})
    tournament_changed(tournament.pk)
    _queue_balance(tournament.pk)
    return plan


def halted_reasons(tournament: Tournament) -> dict[int, str | None]:
    """halted_reason for every table of a tournament from one read of the field: table id -> message."""
    tables = list(Table.objects.filter(tournament=tournament))
    if not tables:
        return {}
    snapshot = _Snapshot(tournament)
    field = snapshot.field
    result = {}
    for table in tables:
        if table.number not in field.tables:
            result[table.pk] = str(HALT_MESSAGES["broken"])
            continue
        code = field.halted_reason(table.number)
        if code is None and len(field.tables[table.number].seats) < 2:
            code = "one_player"
        result[table.pk] = None if code is None else str(HALT_MESSAGES[code])
    return result


@transaction.atomic
def unseat_entry(entry: Entry) -> Seat | None:
    """An entry voided before it played (``tournaments.services.void_entry``) leaves its seat empty."""
    seat = Seat.objects.select_for_update().filter(entry=entry).select_related("table").first()
    if seat is None:
        return None
    Move.objects.filter(entry=entry, status=Move.Status.PENDING).update(
        status=Move.Status.CANCELLED, note=str(_("voided"))
    )
    seat.entry = None
    seat.waits_for_big_blind = False
    seat.save(update_fields=["entry", "waits_for_big_blind"])
    table_changed(seat.table_id)
    tournament_changed(seat.table.tournament_id)
    return seat
