"""The one way tests build a tournament: through the services, to the states production reaches.

A structure (``create_structure``), a tournament (``create_tournament``, which copies it), players
registered (``register``), the seat draw (``draw_seats``, recorded), the start (``start_tournament``,
which starts the clock). ``make_table`` adds what the dealing tests need: one table with given stacks
at given seats, a known button and master seed, and more players at other tables.

Only two values of the setup are written through the ORM, each for a reason given where it is done:
the master seed (just another seed value) and a table's first button (no service records the button
draw). ``zero`` is the one helper for tests themselves that does: it stands in for the dealing service
writing a lost stack back before a bust.

In production every service call commits and its follow-ups run (live screens told, balancing
queued). A test runs inside one transaction that never commits, so the factories run those
follow-ups themselves (``as_committed``): the test starts from the state after them, and its own
requests are not taken for repeats of follow-ups still waiting from the setup.
"""

from __future__ import annotations

import functools
import threading
from datetime import timedelta

from django.test import TestCase
from django.utils import timezone

from dealing.engine import seed_commitment
from tables import balancing
from tables import services as tables_services
from tables.models import Seat, Table
from tournaments import services
from tournaments.models import BlindStructure, Entry, Player, Tournament

MASTER_SEED = bytes(range(32))

STAGES = ("planned", "registering", "drawn", "running")

# The reason recorded on every director action the factory takes to set a table up.
SETUP = "test setup"


def level(sb: int, bb: int, *, ante: int = 0, ante_kind: str = "none", minutes: int = 30, **fields) -> dict:
    """One level of play as ``create_structure`` takes it (fixed-limit bets are filled in there)."""
    return dict(
        small_blind=sb, big_blind=bb, ante=ante, ante_kind=ante_kind, duration_minutes=minutes, **fields
    )


def pause(minutes: int, *, color_up=()) -> dict:
    """A break, optionally colouring up chips (R8.7)."""
    return dict(is_break=True, duration_minutes=minutes, color_up=list(color_up))


def default_levels(sb: int = 10, bb: int = 20, *, ante: int = 0, ante_kind: str = "none", minutes: int = 30):
    """Two levels: sb/bb (with the ante), then doubled without one."""
    return [
        level(sb, bb, ante=ante, ante_kind=ante_kind, minutes=minutes),
        level(2 * sb, 2 * bb, minutes=minutes),
    ]


def make_structure(*, betting: str = "no_limit", levels: list[dict] | None = None, name: str = "Blinds"):
    """A blind structure through ``create_structure``. In fixed limit a level's small bet is its big
    blind and its big bet twice that (R3.3) unless the level says otherwise."""
    rows = []
    for row in levels if levels is not None else default_levels():
        row = dict(row)
        if betting == "fixed_limit" and not row.get("is_break"):
            row.setdefault("small_bet", row["big_blind"])
            row.setdefault("big_bet", 2 * row["small_bet"])
        rows.append(row)
    return services.create_structure(name=name, betting=betting, levels=rows)


def register_players(
    tournament: Tournament, count: int, *, prefix: str = "Player", start: int = 1
) -> list[Entry]:
    """``count`` new players registered (seated at once if the seats are drawn, R8.1)."""
    return [
        services.register(tournament, Player.objects.create(name=f"{prefix} {start + i}"))
        for i in range(count)
    ]


_building = threading.local()


def as_committed(factory):
    """The factory runs the on-commit follow-ups its services queued, as the commits of production
    would (outside a test transaction they ran at each commit already). Once, for the outermost one."""

    @functools.wraps(factory)
    def build(*args, **kwargs):
        if getattr(_building, "active", False):
            return factory(*args, **kwargs)
        _building.active = True
        try:
            with TestCase.captureOnCommitCallbacks(execute=True):
                return factory(*args, **kwargs)
        finally:
            _building.active = False

    return build


@as_committed
def make_tournament(
    *,
    players: int = 0,
    stage: str = "running",
    rng=None,
    started_at=None,
    structure: BlindStructure | None = None,
    levels: list[dict] | None = None,
    master_seed: bytes | None = None,
    plan: dict | None = None,
    **fields,
) -> Tournament:
    """A tournament taken through the services to ``stage``:

    - ``planned``: created (with its own copy of ``structure``, or of a structure made from ``levels``);
    - ``registering``: registration open and ``players`` registered ("Player 1", "Player 2", ...);
    - ``drawn``: the seat draw made (with ``rng`` if given, e.g. a ``random.Random`` or a
      ``balancing.DrawRandom``), and the seating ``plan`` applied (``tables.services.update_plan``);
    - ``running``: started, the clock running from ``started_at`` (default: now).

    ``fields`` are the tournament's own (name, game, betting, starting_stack, seats_per_table, ...);
    ``master_seed`` sets a known master seed (and the master seeding mode).
    """
    if stage not in STAGES:
        raise ValueError(f"stage is one of {STAGES}")
    betting = fields.setdefault("betting", structure.betting if structure is not None else "no_limit")
    name = fields.setdefault("name", "Courchevel Cup")
    fields.setdefault("game", "courchevel")
    fields.setdefault("starting_stack", 1000)
    if master_seed is not None:
        fields["seeding"] = Tournament.Seeding.MASTER
    if structure is None:
        structure = make_structure(betting=betting, levels=levels, name=f"{name} blinds")
    tournament = services.create_tournament(structure=structure, **fields)
    if master_seed is not None:
        set_master_seed(tournament, master_seed)
    if stage == "planned":
        return tournament
    services.open_registration(tournament)
    register_players(tournament, players)
    if stage in ("drawn", "running"):
        tables_services.draw_seats(tournament, rng)
        if plan:
            tables_services.update_plan(tournament, **plan)
    if stage == "running":
        services.start_tournament(tournament, now=started_at)
    tournament.refresh_from_db()
    return tournament


def set_master_seed(tournament: Tournament, seed: bytes) -> Tournament:
    """A known master seed, so the decks are known in advance. ``create_tournament`` draws one at
    random and no service changes it; writing it (and its published commitment) through the ORM just
    picks another seed value, a state production reaches with that draw."""
    Tournament.objects.filter(pk=tournament.pk).update(
        seeding=Tournament.Seeding.MASTER, master_seed=seed, master_seed_commitment=seed_commitment(seed)
    )
    tournament.refresh_from_db()
    return tournament


def set_button(table: Table, seat: int) -> Table:
    """The button of a table's first hand. At the table the dealer draws for it; no service records
    that draw (the dealing service draws one itself when the table has none), so the drawn button is
    written through the ORM: the one field the dealing service reads for a first hand."""
    Table.objects.filter(pk=table.pk).update(button_seat=seat)
    table.refresh_from_db()
    return table


@functools.cache
def draw_seed_for(players: int, size: int, seats: tuple[int, ...]) -> tuple[bytes, tuple[int, ...]]:
    """A recorded-draw seed that seats ``players`` at one table of ``size`` in exactly ``seats``, and
    the seat each entry (in registration order) gets. The first such seed counting up from 0, so the
    draw is the real one (replayable from its record) and the same on every run."""
    for i in range(100_000):
        seed = i.to_bytes(balancing.SEED_BYTES, "big")
        assignment = balancing.initial_draw(list(range(players)), [(1, size)], balancing.DrawRandom(seed))
        if {seat for _table, seat in assignment.values()} == set(seats):
            return seed, tuple(assignment[p][1] for p in range(players))
    raise ValueError(f"no draw seats {players} players in seats {seats} of {size}")


def spread(players: int, size: int) -> tuple[int, ...]:
    """``players`` at as few tables of ``size`` as hold them, within one of each other."""
    if not players:
        return ()
    tables = -(-players // size)
    return tuple(players // tables + (1 if i < players % tables else 0) for i in range(tables))


def seat_at_new_tables(tournament: Tournament, counts, *, prefix: str = "Elsewhere") -> list[Entry]:
    """Register players at new tables of ``counts[i]`` players each, through the late-entry path: with
    every open seat locked by the director, the next entry opens a new table (R8.1) and the ones after
    it sit there; the locks are lifted at the end."""
    locked, entries = [], []
    for count in counts:
        for seat in Seat.objects.filter(table__tournament=tournament, entry__isnull=True, locked=False):
            locked.append(tables_services.lock_seat(seat, reason=SETUP))
        entries += register_players(tournament, count, prefix=prefix, start=len(entries) + 1)
    for seat in locked:
        tables_services.unlock_seat(seat)
    return entries


# A field this small at several tables is, by the rules, redrawn at one final table (R8.5) or
# balanced after each hand (R8.3). To keep the players where a dealing test put them, the director
# reviews every move (none is made on its own) and plays the final table heads-up: two settings of
# the seating plan (``tables.services.update_plan``), not rule changes.
HOLD_SEATING = {"review_moves": True, "final_table_seats": 2}


@as_committed
def make_table(
    *,
    stacks=(1000, 1000, 1000),
    seats=None,
    button: int | None = 1,
    extra_entries: int = 0,
    other_tables=None,
    plan: dict | None = None,
    table_size: int = 8,
    sb: int = 10,
    bb: int = 20,
    ante: int = 0,
    ante_kind: str = "none",
    seeding: str = "master",
    master_seed: bytes = MASTER_SEED,
    name: str = "Cup",
    **fields,
) -> tuple[Tournament, Table]:
    """A running tournament whose table 1 (``table_size`` seats) has ``stacks`` at ``seats`` (default
    1, 2, 3 ...), ``button`` on the button for the first hand and, with master seeding, ``master_seed``
    (else a fresh seed every hand). Blinds ``sb``/``bb`` (and the ante) for 30 minutes, then doubled;
    the clock started a minute ago.

    More players sit at other tables: ``other_tables`` gives each one's count, or ``extra_entries``
    players are spread over as few tables as hold them. With other tables the seating ``plan`` is
    ``HOLD_SEATING`` unless given (``{}`` lets balancing work as usual).
    """
    seats = tuple(seats or range(1, len(stacks) + 1))
    if len(seats) != len(stacks):
        raise ValueError("one seat per stack")
    tournament = make_tournament(
        stage="registering",
        levels=default_levels(sb, bb, ante=ante, ante_kind=ante_kind),
        master_seed=master_seed if seeding == Tournament.Seeding.MASTER else None,
        name=name,
        seeding=seeding,
        seats_per_table=table_size,
        **fields,
    )
    seed, order = draw_seed_for(len(stacks), table_size, seats)
    for seat in order:  # each player is named after the seat the draw gives them
        services.register(tournament, Player.objects.create(name=f"P{seat}"))
    tables_services.draw_seats(tournament, balancing.DrawRandom(seed))
    table = Table.objects.get(tournament=tournament, number=1)
    chips = dict(zip(seats, stacks, strict=True))
    for seat in Seat.objects.filter(table=table, entry__isnull=False).select_related("entry"):
        if seat.entry.chips != chips[seat.number]:
            services.set_chips(seat.entry, chips[seat.number], reason=SETUP)
    others = tuple(other_tables) if other_tables is not None else spread(extra_entries, table_size)
    if others and plan is None:
        plan = HOLD_SEATING
    if plan:  # before the other tables fill: balancing after each commit already follows it
        tables_services.update_plan(tournament, **plan)
    seat_at_new_tables(tournament, others)
    services.start_tournament(tournament, now=timezone.now() - timedelta(minutes=1))
    if button is not None:
        set_button(table, button)
    tournament.refresh_from_db()
    return tournament, table


def entries_of(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.order_by("id"))


def zero(entry: Entry) -> Entry:
    """The hand took every chip: the dealing service writes a stack back like this, before the bust."""
    Entry.objects.filter(pk=entry.pk).update(chips=0)
    entry.refresh_from_db()
    return entry
