"""Seat draws, balancing, breaking tables and the final-table redraw (R8.1, R8.3-R8.5), as pure decisions.

No Django here: ``tables.services`` builds a :class:`Field` from the database, asks it to decide, and
writes the moves back; ``tests/bench/simulate_balancing.py`` drives the same class through a whole
tournament. A :class:`Field` keeps its tables in buckets by player count, so one decision costs about
as much as the moves it makes, not a pass over every player of a 10,000-entry field.

One owner per rule: positions are those of ``dealing.engine.positions`` (the dead-button rule, R3.6:
the big blind moves one player clockwise every hand, last hand's big blind seat posts the small blind
or it is dead); random draws read ``dealing.engine.shuffle``'s RULES section 7 stream and shuffle with
its Fisher-Yates. A table that has not dealt yet (``big_blind`` is None) has no positions: any open
seat is as good.

Counts: a table's *count* includes players promised to it by pending moves and excludes players who
are leaving it when its hand ends, so a decision never plans the same move twice.

Fewest moves over the breaking order (R8.3, R8.4). Every player of a table is moved when it breaks,
so a player put at a table that breaks soon moves twice. The decisions therefore:

- take a balancing move from the long table that breaks soonest, and put it (and every player of a
  broken table) at the short tables that break last: the table that breaks next gets nobody while
  another table can take them;
- move a player who has not been moved before (``Field.moved``: when each player last moved) while
  another choice exists: first the player who will be big blind next at any of the long tables, then
  the next ones in big-blind order; a player already moved goes only when every candidate has moved,
  the one moved longest ago first;
- bring the last two tables together only by the final-table redraw (R8.5), once the field fits at
  the final table and cannot grow any more.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from dealing.engine import positions, shuffle
from dealing.engine.errors import RuleError

BALANCE = "balance"
BREAK = "break"
REDRAW = "redraw"

SEED_BYTES = shuffle.SEED_BYTES
# R8.3: a table this many players short of the fullest one waits for a player before dealing.
SHORT_BY = 3


class SeatingError(RuleError):
    """A seating request that breaks a rule."""


class DrawRandom(shuffle.SeededRandom):
    """Random choices replayable from a recorded seed (R8.1: the draw can be shown afterwards).

    The stream and the draws are those of RULES section 7 (``dealing.engine.shuffle``):
    ``randrange(n)`` is step 3's draw, ``shuffle(items)`` its Fisher-Yates."""

    def __init__(self, seed: bytes):
        if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
            raise ValueError(f"a draw seed is exactly {SEED_BYTES} bytes")
        super().__init__(seed)


def _choice(rng, seq):
    return seq[rng.randrange(len(seq))]


def _shuffle(rng, items: list) -> None:
    """The section 7 Fisher-Yates over ``rng.randrange``: a DrawRandom and a test's random.Random give
    the same kind of draw."""
    shuffle.fisher_yates(items, map(rng.randrange, range(len(items), 1, -1)))


@dataclass
class TableState:
    number: int
    size: int
    seats: dict[int, int] = field(default_factory=dict)  # seat number -> player id
    button: int | None = None  # last hand's button seat
    big_blind: int | None = None  # last hand's big blind seat
    hand_in_progress: bool = False
    break_order: int = 0  # highest breaks first
    locked_seats: set[int] = field(default_factory=set)
    reserved: dict[int, int] = field(default_factory=dict)  # seat -> player arriving by a pending move
    outgoing: set[int] = field(default_factory=set)  # players leaving by a pending move
    broken: bool = False

    @property
    def count(self) -> int:
        """Players once the pending moves are done."""
        return len(self.seats) - len(self.outgoing) + len(self.reserved)

    def _after(self, seat: int) -> list[int]:
        """Seat numbers clockwise after ``seat``, ending with ``seat`` itself."""
        return positions.clockwise_after(seat, self.size)

    def next_big_blind_seat(self) -> int | None:
        """R3.6: the first occupied seat clockwise after last hand's big blind (arrivals promised a seat
        count: they sit down before the next hand)."""
        if self.big_blind is None:
            return None
        return positions.next_big_blind([*self.seats, *self.reserved], self.big_blind)

    def next_small_blind_seat(self) -> int | None:
        """Dead button (R3.6): last hand's big blind seat posts the small blind (dead if empty)."""
        return None if self.big_blind is None else positions.small_blind_seat(self.big_blind)

    def between_small_blind_and_button(self, seat: int) -> bool:
        """R8.1: a player seated here is not dealt in until the big blind reaches them
        (``dealing.engine.positions.between_small_blind_and_button``)."""
        if self.big_blind is None:
            return False
        return positions.between_small_blind_and_button(
            seat, button=self.button, big_blind=self.big_blind, table_size=self.size
        )

    def big_blind_distance(self, seat: int) -> int:
        """How many hands until a player put in this open seat posts the big blind (0 = next hand)."""
        if self.big_blind is None:
            return seat  # no positions yet: lowest seat first, just to be deterministic
        distance = 0
        for s in self._after(self.big_blind):
            if s == seat:
                return distance
            if s in self.seats or s in self.reserved:
                distance += 1
        return distance

    def open_seats(self, include_locked: bool = False) -> list[int]:
        return [
            s
            for s in range(1, self.size + 1)
            if s not in self.seats
            and s not in self.reserved
            and (include_locked or s not in self.locked_seats)
        ]

    def worst_open_seat(self) -> int | None:
        """R8.3: the open seat that posts the big blind soonest, never next hand's small blind.

        Seats between the small blind and the button come last (the player waits for the big blind).
        """
        small_blind = self.next_small_blind_seat()
        best = None
        for seat in self.open_seats():
            if seat == small_blind:
                continue
            key = (self.between_small_blind_and_button(seat), self.big_blind_distance(seat), seat)
            if best is None or key < best[0]:
                best = (key, seat)
        return None if best is None else best[1]

    def draw_seats(self, include_locked: bool = False) -> list[int]:
        """Open seats a random draw may give (R8.1/R8.4): never next hand's small blind if avoidable."""
        seats = self.open_seats(include_locked)
        small_blind = self.next_small_blind_seat()
        others = [s for s in seats if s != small_blind]
        return others or seats

    def movable(self) -> Iterator[tuple[int, int]]:
        """(seat, player) of the players free to move, in big-blind order: the one who will be big
        blind next first (R8.3). Locked seats and players already leaving are skipped."""
        order = self._after(self.big_blind) if self.big_blind is not None else range(1, self.size + 1)
        for seat in order:
            player = self.seats.get(seat)
            if player is not None and player not in self.outgoing and seat not in self.locked_seats:
                yield seat, player

    def next_to_move(self) -> tuple[int, int] | None:
        """R8.3: (seat, player) of the player who will be big blind next and is free to move."""
        return next(self.movable(), None)


@dataclass(frozen=True)
class Move:
    player: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: str
    pending: bool = False  # the source table is mid-hand: done when its hand ends (R8.3)
    waits_for_big_blind: bool = False  # R8.1: seated between the small blind and the button


@dataclass
class Decision:
    moves: list[Move] = field(default_factory=list)
    broken: list[int] = field(default_factory=list)  # tables broken by this decision
    final_redraw: bool = False  # this decision drew the final table (R8.5)
    final_table: int | None = None
    waiting: list[int] = field(default_factory=list)  # mid-hand tables the decision waits for
    blocked: list[int] = field(default_factory=list)  # tables that could not give or take a player
    dropped: list[Move] = field(default_factory=list)  # pending moves replaced by this decision


@dataclass
class Options:
    allowed_difference: int = 1
    relaxed_difference: int | None = None  # e.g. 2 ...
    relaxed_above_tables: int = 0  # ... while more than this many tables play
    # The redraw plan (R8.5): the final table seats this many (None: the final table's own size) ...
    final_table_size: int | None = None
    # ... and each of the last two tables at most this many (None: their own size), e.g. two tables
    # of 5 before a final table of 8 (TDA RP-9). The last two tables are always kept level.
    two_table_seats: int | None = None
    # R8.5: the field can still grow (late registration open, re-entries possible): no final redraw.
    can_grow: bool = False
    final_redraw_done: bool = False  # set when this field draws the final table


class Field:
    """Every table of one tournament, with the rules that keep them balanced.

    ``moved`` maps players to when they were last moved (any increasing number, e.g. the id of their
    last move): R8.3 moves a player who has not been moved while another choice exists. The Field
    adds to it for every move it makes.
    """

    def __init__(
        self,
        tables: Iterable[TableState],
        options: Options | None = None,
        *,
        rng=None,
        pending: Iterable[Move] = (),
        moved: Mapping[int, int] | None = None,
    ):
        self.options = options or Options()
        self.rng = rng
        self.tables: dict[int, TableState] = {}
        self.where: dict[int, tuple[int, int]] = {}  # player -> (table, seat)
        self.pending: dict[int, Move] = {}  # player -> pending move
        # Pending moves that no longer fit the seating (their seat is taken, their player is not where
        # they were): left out, and reported in the next decision's ``dropped``, so no hand waits on them.
        self.stale: list[Move] = []
        self.moved: dict[int, int] = dict(moved or {})  # player -> when last moved (larger is later)
        self._clock = max(self.moved.values(), default=0)
        self._buckets: dict[int, set[int]] = {}  # count -> active table numbers
        self._counted: dict[int, int] = {}  # table -> the count it is filed under
        self._physical: dict[int, set[int]] = {}  # players sitting there now -> active table numbers
        self._physical_of: dict[int, int] = {}
        self.total = 0  # players in the field once pending moves are done
        self._open: dict[int, int] = {}  # table -> open seats now, not counting locked ones
        self.open_total = 0
        self._room: dict[int, int] = {}  # table -> open seats now, locked ones too
        self.room_total = 0
        self._largest = 0  # the largest table size, to skip the final-table check cheaply
        self._break_queue: list[int] = []
        self._queued: set[int] = set()
        self._rank: dict[int, int] = {}  # table -> place in the breaking order: 0 breaks last
        for table in tables:
            if table.number in self.tables:
                raise SeatingError("duplicate_table", f"table {table.number} given twice")
            self.tables[table.number] = table
            for seat, player in table.seats.items():
                if player in self.where:
                    raise SeatingError(
                        "seated_twice",
                        f"player {player} is seated twice",
                        rule="R8.1",
                        params={"player": player},
                    )
                if not 1 <= seat <= table.size:
                    raise SeatingError(
                        "no_such_seat",
                        f"table {table.number} has no seat {seat}",
                        params={"table": table.number, "seat": seat},
                    )
                self.where[player] = (table.number, seat)
        for move in pending:
            if self._still_possible(move):
                self._promise(move)
            else:
                self.stale.append(move)
        for table in self.tables.values():
            self._file(table)
        # Tables in breaking order: the last one breaks first, the first one is the final table (R8.4).
        self._break_queue = sorted(self._counted, key=lambda n: (self.tables[n].break_order, n))
        self._queued = set(self._break_queue)
        self._rank = {n: i for i, n in enumerate(self._break_queue)}
        self._largest = max((self.tables[n].size for n in self._counted), default=0)

    # -- bookkeeping ---------------------------------------------------------------------------------

    def _file(self, table: TableState) -> None:
        """Refile a table under its current counts (O(1))."""
        n = table.number
        old = self._counted.pop(n, None)
        if old is not None:
            self._buckets[old].discard(n)
            if not self._buckets[old]:
                del self._buckets[old]
            self.total -= old
        old = self._physical_of.pop(n, None)
        if old is not None:
            self._physical[old].discard(n)
            if not self._physical[old]:
                del self._physical[old]
        self.open_total -= self._open.pop(n, 0)
        self.room_total -= self._room.pop(n, 0)
        if table.broken:
            if n in self._queued:  # once per table: it leaves the breaking order
                self._queued.discard(n)
                self._break_queue.remove(n)
            return
        locked_open = sum(1 for s in table.locked_seats if s not in table.seats and s not in table.reserved)
        self._room[n] = table.size - len(table.seats) - len(table.reserved)
        self.room_total += self._room[n]
        self._open[n] = self._room[n] - locked_open
        self.open_total += self._open[n]
        count = table.count
        self._counted[n] = count
        self._buckets.setdefault(count, set()).add(n)
        self.total += count
        self._physical_of[n] = len(table.seats)
        self._physical.setdefault(len(table.seats), set()).add(n)

    def _still_possible(self, move: Move) -> bool:
        """A pending move read back can still be made: its player sits where it starts, its seat is free."""
        src, dst = self.tables.get(move.from_table), self.tables.get(move.to_table)
        return (
            src is not None
            and dst is not None
            and not dst.broken
            and self.where.get(move.player) == (move.from_table, move.from_seat)
            and move.player not in self.pending
            and 1 <= move.to_seat <= dst.size
            and move.to_seat not in dst.seats
            and move.to_seat not in dst.reserved
        )

    def _promise(self, move: Move) -> None:
        src, dst = self.tables[move.from_table], self.tables[move.to_table]
        if dst.seats.get(move.to_seat) is not None or move.to_seat in dst.reserved:
            raise SeatingError(
                "seat_taken",
                f"table {dst.number} seat {move.to_seat} is taken",
                params={"table": dst.number, "seat": move.to_seat},
            )
        src.outgoing.add(move.player)
        dst.reserved[move.to_seat] = move.player
        self.pending[move.player] = move

    def _stamp(self, player: int) -> None:
        self._clock += 1
        self.moved[player] = self._clock

    def active_tables(self) -> int:
        return len(self._counted)

    def counts(self) -> tuple[int, int]:
        """(smallest, largest) count among active tables."""
        return min(self._buckets), max(self._buckets)

    def physical_counts(self) -> tuple[int, int]:
        return min(self._physical), max(self._physical)

    def allowed_difference(self) -> int:
        o = self.options
        n = self.active_tables()
        if n <= 2:
            # R8.5: the last two tables are kept level (e.g. 4 and 4 before a final table of 8).
            return 1
        if o.relaxed_difference and n > o.relaxed_above_tables:
            return max(o.allowed_difference, o.relaxed_difference)
        return o.allowed_difference

    def _final_table(self) -> TableState:
        return self.tables[self._break_queue[0]]

    def _next_to_break(self) -> TableState:
        return self.tables[self._break_queue[-1]]

    def breaks_next(self) -> int | None:
        """The number of the table that breaks next (R8.4), or None with one table left."""
        return self._break_queue[-1] if len(self._break_queue) > 1 else None

    def final_table_size(self) -> int:
        size = self._final_table().size
        return min(size, self.options.final_table_size or size)

    def fits_at_final_table(self) -> bool:
        """R8.5: more than one table plays and the field fits at the final table."""
        return (
            self.active_tables() > 1 and self.total <= self._largest and self.total <= self.final_table_size()
        )

    def final_redraw_due(self) -> bool:
        """R8.5: the field fits at the final table and can no longer grow. A field that grew onto a second
        table after a redraw is redrawn again when it fits once more."""
        return not self.options.can_grow and self.fits_at_final_table()

    # -- changes from the floor -------------------------------------------------------------------------

    def seat(self, player: int, table: int, seat: int) -> None:
        t = self.tables[table]
        if player in self.where:
            raise SeatingError(
                "seated_twice", f"player {player} is already seated", rule="R8.1", params={"player": player}
            )
        if seat in t.seats or seat in t.reserved or not 1 <= seat <= t.size:
            raise SeatingError(
                "seat_taken", f"table {table} seat {seat} is not open", params={"table": table, "seat": seat}
            )
        t.seats[seat] = player
        self.where[player] = (table, seat)
        self._file(t)

    def bust(self, player: int) -> None:
        """The player is out: free their seat, drop any move promised to them."""
        table, seat = self.where.pop(player)
        t = self.tables[table]
        del t.seats[seat]
        self.moved.pop(player, None)
        move = self.pending.pop(player, None)
        if move is not None:
            t.outgoing.discard(player)
            dst = self.tables[move.to_table]
            dst.reserved.pop(move.to_seat, None)
            self._file(dst)
        self._file(t)

    def hand_started(self, table: int) -> None:
        self.tables[table].hand_in_progress = True

    def hand_finished(
        self, table: int, *, button: int | None, big_blind: int | None
    ) -> tuple[list[Move], list[Move]]:
        """The hand is over: record positions, do the break/manual moves that waited for it and drop the
        waiting balance moves (the next decision picks the player who is big blind next *now*); at a
        table that broke meanwhile every waiting move is made, since nobody may stay there.

        Returns (moves done, moves dropped)."""
        t = self.tables[table]
        t.hand_in_progress = False
        t.button, t.big_blind = button, big_blind
        done, dropped = [], []
        for player in sorted(t.outgoing):
            move = self.pending[player]
            if move.reason == BALANCE and not t.broken:
                self._drop(move)
                dropped.append(move)
            else:
                self._complete(move)
                done.append(move)
        return done, dropped

    def _drop(self, move: Move) -> None:
        del self.pending[move.player]
        src, dst = self.tables[move.from_table], self.tables[move.to_table]
        src.outgoing.discard(move.player)
        dst.reserved.pop(move.to_seat, None)
        self._file(src)
        self._file(dst)

    def _complete(self, move: Move) -> None:
        del self.pending[move.player]
        src, dst = self.tables[move.from_table], self.tables[move.to_table]
        src.outgoing.discard(move.player)
        dst.reserved.pop(move.to_seat, None)
        self._relocate(move)

    def _relocate(self, move: Move) -> None:
        src, dst = self.tables[move.from_table], self.tables[move.to_table]
        del src.seats[move.from_seat]
        dst.seats[move.to_seat] = move.player
        self.where[move.player] = (dst.number, move.to_seat)
        self._stamp(move.player)
        self._file(src)
        self._file(dst)

    def _move(
        self,
        decision: Decision,
        player: int,
        src: TableState,
        from_seat: int,
        dst: TableState,
        to_seat: int,
        reason: str,
    ) -> Move:
        move = Move(
            player=player,
            from_table=src.number,
            from_seat=from_seat,
            to_table=dst.number,
            to_seat=to_seat,
            reason=reason,
            pending=src.hand_in_progress,
            waits_for_big_blind=dst.between_small_blind_and_button(to_seat),
        )
        if move.pending:
            self._promise(move)
            self._file(src)
            self._file(dst)
        else:
            self._relocate(move)
        decision.moves.append(move)
        return move

    # -- decisions --------------------------------------------------------------------------------------

    def at_rest(self) -> bool:
        """``decide`` would do nothing, told from the tables' counts (a pending move counted where it
        goes): no pending move that no longer fits, no final-table redraw due, no table that breaks
        now and no two tables further apart than allowed (R8.3-R8.5). A field not at rest may still
        find nothing it can do (a locked seat, a hand to wait for): ``decide`` says. Only the tables a
        pending move touches are looked at seat by seat, so a field of stand-ins with the right counts
        and those tables' real players (``counted_tables``) answers as the real one."""
        if self.stale:
            return False
        if not self._counted:
            return True
        if self.final_redraw_due() or self._breaks_now():
            return False
        low, high = self.counts()
        return high - low <= self.allowed_difference()

    def decide(self) -> Decision:
        """Break, redraw and balance until nothing more can be done now (R8.3-R8.5).

        Moves out of a table in the middle of a hand are pending (done by ``hand_finished``). The Field
        is updated as if the moves were made; run it again and it finds nothing more to do.
        """
        decision = Decision()
        if self.stale:
            decision.dropped.extend(self.stale)
            self.stale = []
        while self._counted:
            if self.final_redraw_due():
                self._final_redraw(decision)
                break
            if self._breaks_now():
                self._break(self._next_to_break(), decision)
                continue
            if not self._balance_one(decision):
                break
        return decision

    def _breaks_now(self) -> bool:
        """R8.4: the table that breaks next breaks as soon as its players fit elsewhere. While four or
        more tables play, the open seats of the table that breaks after it are counted only when the
        tables are out of balance anyway: otherwise the break waits for room at the other tables, and
        nobody is put at the table that is then the next to break (R8.3)."""
        if self.active_tables() < 2:
            return False
        table = self._next_to_break()
        if not self._fits_without(table):
            return False
        if self.active_tables() < 4:
            return True
        after = self._room[self._break_queue[-2]]
        if after == 0 or self._fits_without(table, not_counting=after):
            return True
        low, high = self.counts()
        return high - low > self.allowed_difference()

    def _fits_without(self, table: TableState, not_counting: int = 0) -> bool:
        """R8.4: the players of ``table`` fit in the open seats of the others right now (a break may use
        a seat the director locked empty, as a last resort: a table that cannot break cannot deal either).

        The last two tables never break into one: they come together in the final-table redraw (R8.5).
        When the break would leave two tables, they seat at most the plan's ``two_table_seats`` each."""
        n = self.active_tables()
        if n <= 2:
            return False
        cap = self.options.two_table_seats
        if n == 3 and cap:
            room = 0
            for m in self._counted:
                if m != table.number:
                    t = self.tables[m]
                    room += max(0, min(self._room[m], cap - (t.size - self._room[m])))
            return room >= table.count
        return self.room_total - self._room[table.number] - not_counting >= table.count

    def _breaking_last_first(self, numbers: Iterable[int]) -> list[int]:
        """Table numbers, the one that breaks last first (the table that breaks next comes last)."""
        return sorted(numbers, key=self._rank.__getitem__)

    def _break(self, table: TableState, decision: Decision) -> None:
        """R8.4: the table breaks; its players are drawn at random to open seats at the shortest tables,
        those that break last first, so nobody goes to the table that breaks next while another has room."""
        table.broken = True
        self._file(table)
        decision.broken.append(table.number)
        leaving = [(seat, p) for seat, p in sorted(table.seats.items()) if p not in table.outgoing]
        _shuffle(self.rng, leaving)
        for seat, player in leaving:
            dst, to_seat = self._break_seat(exclude=table.number)
            self._move(decision, player, table, seat, dst, to_seat, BREAK)
        # Players promised to this table by pending moves go elsewhere too.
        for _to_seat, player in sorted(table.reserved.items()):
            move = self.pending[player]
            self._drop(move)
            if move in decision.moves:
                decision.moves.remove(move)  # decided a moment ago: it is simply not made
            else:
                decision.dropped.append(move)
            src = self.tables[move.from_table]
            dst, new_seat = self._break_seat(exclude=table.number)
            self._move(decision, player, src, move.from_seat, dst, new_seat, BREAK)

    def break_table(self, number: int) -> Decision:
        """R8.4 on the director's word: this table breaks now, whatever the breaking order, and its
        players are drawn to open seats exactly as when a table breaks by itself (locked players too:
        nobody stays at a broken table). Refused while its hand is being played (R8.3: moves happen
        between hands), when only two tables play (they come together in the final-table redraw,
        R8.5) and when its players do not fit in the open seats of the other tables."""
        t = self.tables.get(number)
        if t is None or t.broken:
            raise SeatingError("table_broken", f"table {number} is broken", params={"table": number})
        if t.hand_in_progress:
            raise SeatingError(
                "hand_in_progress",
                f"a hand is being played at table {number}",
                rule="R8.3",
                params={"table": number},
            )
        if self.active_tables() <= 2:
            raise SeatingError(
                "last_two_tables",
                "the last two tables come together in the final-table redraw",
                rule="R8.5",
                params={"tables": self.active_tables(), "minimum": 3},
            )
        room = self.room_total - self._room[number]
        if room < t.count:
            raise SeatingError(
                "no_open_seat",
                f"{t.count} players do not fit in {room} open seats",
                rule="R8.4",
                params={"players": t.count, "seats": room},
            )
        decision = Decision()
        if self.stale:
            decision.dropped.extend(self.stale)
            self.stale = []
        self._break(t, decision)
        return decision

    def _break_seat(self, exclude: int) -> tuple[TableState, int]:
        """Where the next player of a broken table goes (R8.4): the shortest tables with an open seat,
        the one that breaks last first, at a random open seat there (never the small blind if avoidable).
        A seat the director locked empty is used only when no other seat is left."""
        for locked_too in (False, True):
            room = self._room if locked_too else self._open
            for count in sorted(self._buckets):
                for n in self._breaking_last_first(self._buckets[count]):
                    if n != exclude and room[n] > 0:
                        t = self.tables[n]
                        seats = t.draw_seats(include_locked=locked_too)
                        if seats:
                            return t, _choice(self.rng, seats)
        raise SeatingError("no_open_seat", "no table has an open seat", rule="R8.4")

    def _draw_open_seat(self) -> tuple[TableState, int]:
        """R8.1: a random open seat at one of the shortest tables that have one: a random table among
        them, then a random open seat there (tables of one count have the same number of open seats)."""
        for count in sorted(self._buckets):
            candidates = sorted(self._buckets[count])  # sorted in C; the checks below reject lazily
            while candidates:
                i = self.rng.randrange(len(candidates))
                n = candidates[i]
                if self._open[n] > 0:
                    t = self.tables[n]
                    seats = t.draw_seats()
                    if seats:
                        return t, _choice(self.rng, seats)
                candidates[i] = candidates[-1]  # drop it in O(1); the order stays deterministic
                candidates.pop()
        raise SeatingError("no_open_seat", "no table has an open seat", rule="R8.1")

    def _final_redraw(self, decision: Decision) -> None:
        """R8.5: the field fits at one table and cannot grow: redraw every player at random, between
        hands. Everybody is dealt in at once (a new draw for the button, nobody waits for a big blind)."""
        busy = sorted(n for n in self._counted if self.tables[n].hand_in_progress)
        if busy or self.pending:
            decision.waiting.extend(busy or sorted({m.from_table for m in self.pending.values()}))
            return
        final = self._final_table()
        players = sorted(self.where.items(), key=lambda item: item[1])
        seats = list(range(1, self.final_table_size() + 1))
        _shuffle(self.rng, seats)
        # Everybody stands up first, so the new seats never collide with the old ones.
        for _player, (table, seat) in players:
            del self.tables[table].seats[seat]
        moves = []
        for (player, (table, seat)), to_seat in zip(players, seats):
            moves.append(
                Move(
                    player=player,
                    from_table=table,
                    from_seat=seat,
                    to_table=final.number,
                    to_seat=to_seat,
                    reason=REDRAW,
                )
            )
            final.seats[to_seat] = player
            self.where[player] = (final.number, to_seat)
            self._stamp(player)
        final.button = final.big_blind = None  # a new draw for the button
        final.locked_seats = set()
        for n in list(self._counted):
            t = self.tables[n]
            if t is not final:
                t.broken = True
                decision.broken.append(n)
            self._file(t)
        self.options.final_redraw_done = True
        decision.final_redraw = True
        decision.final_table = final.number
        decision.moves.extend(moves)

    def _balance_one(self, decision: Decision) -> bool:
        """R8.3: one player from a long table to the worst open seat of a short table. False: nothing to do.

        A lock (or an open seat that is only the small blind) can make a table unusable; then the next
        long or short table that is still out of line is tried. If none can be used the decision reports
        the tables as blocked.
        """
        low, high = self.counts()
        allowed = self.allowed_difference()
        if high - low <= allowed:
            return False
        counts = sorted(self._buckets)
        source = self._balance_source(counts, low, allowed, decision)
        if source is None:
            return False
        src, from_seat, player = source
        target = self._balance_target(counts, src, allowed, decision)
        if target is None:
            return False
        dst, to_seat = target
        move = self._move(decision, player, src, from_seat, dst, to_seat, BALANCE)
        if move.pending and src.number not in decision.waiting:
            decision.waiting.append(src.number)
        return True

    def _balance_source(
        self, counts: list[int], low: int, allowed: int, decision: Decision
    ) -> tuple[TableState, int, int] | None:
        """(table, seat, player) to move: at the longest tables, a player not moved before, the one who
        will be big blind next first (R8.3), at a table between hands rather than mid-hand, at the table
        that breaks soonest; a player already moved only if every candidate has moved (the one moved
        longest ago first)."""
        for count in reversed(counts):
            if count - low <= allowed:
                break
            best = best_key = None
            for n in sorted(self._buckets[count], key=self._rank.__getitem__, reverse=True):
                t = self.tables[n]
                any_free = False
                for order, (seat, player) in enumerate(t.movable()):
                    any_free = True
                    when = self.moved.get(player)
                    if when is None:
                        key = (0, order, t.hand_in_progress)
                    else:
                        key = (1, when, order, t.hand_in_progress)
                    if best_key is None or key < best_key:  # ties: the table that breaks sooner
                        best, best_key = (t, seat, player), key
                    if when is None:
                        break  # later players of this table come after this one
                if not any_free and n not in decision.blocked:
                    decision.blocked.append(n)
                if best_key == (0, 0, False):
                    break  # nobody can beat the next big blind, not moved yet, between hands
            if best is not None:
                return best
        return None

    def _balance_target(
        self, counts: list[int], src: TableState, allowed: int, decision: Decision
    ) -> tuple[TableState, int] | None:
        """(table, seat): the worst open seat (R8.3) at the shortest table, the one that breaks last
        first, so the table that breaks next gets the player only if no other short table can."""
        for count in counts:
            if src.count - count <= allowed:
                break
            for n in self._breaking_last_first(self._buckets[count]):
                if n == src.number:
                    continue
                seat = self.tables[n].worst_open_seat()
                if seat is not None:
                    return self.tables[n], seat
                if n not in decision.blocked:
                    decision.blocked.append(n)
        return None

    # -- what the floor sees ----------------------------------------------------------------------------

    def halted_reason(self, number: int) -> str | None:
        """Why this table must not deal its next hand now, as a code, or None (R8.3-R8.5)."""
        t = self.tables[number]
        if t.broken:
            return "breaking" if t.seats else "broken"
        if self.final_redraw_due():
            return "final_table_redraw"
        if self._physical and len(t.seats) <= max(self._physical) - SHORT_BY:
            return "short"
        return None

    def halted(self) -> dict[int, str]:
        """Every table that must not deal now, with the reason code."""
        result = {}
        for number in self.tables:
            reason = self.halted_reason(number)
            if reason is not None and reason != "broken":
                result[number] = reason
        return result

    def late_entry_seat(self) -> tuple[int, int] | None:
        """R8.1: a random open seat at one of the shortest tables, or None if every table is full."""
        try:
            table, seat = self._draw_open_seat()
        except SeatingError:
            return None
        return table.number, seat


@dataclass(frozen=True)
class TableCount:
    """What ``Field.at_rest`` needs of a table: its number, size, place in the breaking order, whether
    it is broken or in a hand, and how many players sit there."""

    number: int
    size: int
    players: int
    break_order: int = 0
    broken: bool = False
    hand_in_progress: bool = False


def counted_tables(
    tables: Iterable[TableCount], seated: Mapping[int, Mapping[int, int]] | None = None
) -> list[TableState]:
    """Tables for a Field that is asked only what its counts decide (``Field.at_rest``): reading
    10,000 seats to learn that 1,250 tables are level costs the balance task a whole field's read.

    Each table seats stand-in players (negative, so never a real one), as many as it counts, except
    the tables in ``seated`` (table number -> {seat: player}), which seat their real players: those
    a pending move leaves or joins, so that the Field can tell whether the move still fits.

    A table said to seat more than its size, or other than its real players, is a ValueError: the
    caller reads the real field."""
    seated = seated or {}
    states = []
    stand_in = 0
    for t in tables:
        if not 0 <= t.players <= t.size:
            raise ValueError(f"table {t.number}: {t.players} players at {t.size} seats")
        if t.number in seated:
            seats = dict(seated[t.number])
            if len(seats) != t.players:
                raise ValueError(f"table {t.number}: {t.players} players counted, {len(seats)} read")
        else:
            seats = dict(zip(range(1, t.players + 1), range(stand_in - 1, stand_in - 1 - t.players, -1)))
            stand_in -= t.players
        states.append(
            TableState(
                number=t.number,
                size=t.size,
                seats=seats,
                break_order=t.break_order,
                broken=t.broken,
                hand_in_progress=t.hand_in_progress,
            )
        )
    return states


def initial_draw(players: list[int], tables: list[tuple[int, int]], rng) -> dict[int, tuple[int, int]]:
    """R8.1: random seats for the whole field. ``tables`` is [(number, size), ...].

    Tables get as equal a number of players as can be (within one); which seats are used at each
    table and who sits where are both random.
    """
    capacity = sum(size for _, size in tables)
    if len(players) > capacity:
        raise SeatingError(
            "field_too_big",
            f"{len(players)} players do not fit in {capacity} seats",
            rule="R8.1",
            params={"players": len(players), "seats": capacity},
        )
    if len(set(players)) != len(players):
        raise SeatingError("seated_twice", "a player is in the draw twice", rule="R8.1")
    # Deal the players round the tables like cards, so counts differ by at most one.
    counts = {number: 0 for number, _ in tables}
    sizes = dict(tables)
    order = [number for number, _ in tables]
    i = 0
    for _ in players:
        while counts[order[i % len(order)]] >= sizes[order[i % len(order)]]:
            i += 1
        counts[order[i % len(order)]] += 1
        i += 1
    cards = []
    for number, size in tables:
        seats = list(range(1, size + 1))
        _shuffle(rng, seats)
        cards.extend((number, seat) for seat in sorted(seats[: counts[number]]))
    _shuffle(rng, cards)
    return dict(zip(players, cards))


def tables_needed(players: int, size: int) -> int:
    return max(1, -(-players // size))
