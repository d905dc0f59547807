"""Hypothesis: ``Field.at_rest`` tells from the tables' counts alone that balancing has nothing to do
(R8.3-R8.5), so the balance task can skip reading 10,000 seats when a bust leaves the field level.

- a field at rest decides nothing (no move, no break, no redraw);
- a field of stand-in players with the same counts (``counted_tables``) answers exactly as the field
  of real players, wherever they sit;
- with no hand running, no locked seat and no positions yet, a field not at rest always decides
  something: the counts are not a looser test than the decision.
"""

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tables import balancing
from tables.balancing import Field, Options, TableCount, TableState

tables_spec = st.lists(
    # size, players (a short-handed field as often as a full one: the final tables), break order
    st.tuples(st.integers(2, 10), st.one_of(st.integers(0, 3), st.integers(0, 10)), st.integers(0, 3)),
    min_size=1,
    max_size=12,
)
NO_OPTIONS = {
    "difference": 1,
    "relaxed": None,
    "relaxed_above": 0,
    "final_table_size": None,
    "two_table_seats": None,
    "can_grow": False,
}
options_spec = st.fixed_dictionaries(
    {
        "difference": st.integers(1, 2),
        "relaxed": st.sampled_from([None, 2, 3]),
        "relaxed_above": st.integers(0, 6),
        "final_table_size": st.sampled_from([None, 6, 9]),
        "two_table_seats": st.sampled_from([None, 4, 5]),
        "can_grow": st.booleans(),
    }
)


def options_of(spec: dict) -> Options:
    return Options(
        allowed_difference=spec["difference"],
        relaxed_difference=spec["relaxed"],
        relaxed_above_tables=spec["relaxed_above"],
        final_table_size=spec["final_table_size"],
        two_table_seats=spec["two_table_seats"],
        can_grow=spec["can_grow"],
    )


def real_tables(spec: list[tuple[int, int, int]], rng: random.Random) -> list[TableState]:
    """Players at random seats of each table (at most its size), numbered across the room."""
    tables, player = [], 0
    for number, (size, players, order) in enumerate(spec, start=1):
        state = TableState(number=number, size=size, break_order=order)
        for seat in rng.sample(range(1, size + 1), min(players, size)):
            player += 1
            state.seats[seat] = player
        tables.append(state)
    return tables


def counts_of(tables: list[TableState]) -> list[TableCount]:
    return [TableCount(t.number, t.size, len(t.seats), t.break_order) for t in tables]


@settings(max_examples=300, deadline=None)
@example(spec=[(8, 3, 0), (8, 3, 1)], options=NO_OPTIONS, one_size=True, seed=1)  # the final table (R8.5)
@example(spec=[(8, 8, 0), (8, 8, 1), (8, 4, 2), (8, 6, 3)], options=NO_OPTIONS, one_size=True, seed=1)  # R8.4
@given(spec=tables_spec, options=options_spec, one_size=st.booleans(), seed=st.integers(0, 2**32))
def test_r8_3_to_r8_5_the_counts_tell_exactly_when_balancing_has_nothing_to_do(spec, options, one_size, seed):
    if one_size:  # as a room is drawn: every table of the first one's size
        spec = [(spec[0][0], min(players, spec[0][0]), order) for _size, players, order in spec]
    rng = random.Random(seed)
    tables = real_tables(spec, rng)
    counted = Field(balancing.counted_tables(counts_of(tables)), options_of(options))
    field = Field(tables, options_of(options), rng=random.Random(seed + 1))
    at_rest = field.at_rest()
    assert counted.at_rest() == at_rest

    decision = field.decide()
    decided = bool(decision.moves or decision.broken or decision.final_redraw or decision.dropped)
    if at_rest:
        assert not decided and not decision.waiting, decision
    elif one_size:
        # No hand runs, no seat is locked, no table has positions yet and every table has the same
        # size: nothing can block a decision (a full small table beside a long big one can).
        assert decided, decision
        assert field.at_rest()  # and once decided, nothing is left to do


def test_r8_3_a_pending_move_is_at_rest_while_it_fits_and_a_table_to_break_never_is():
    # 8, 8, 7: level (R8.3 allows 1).
    tables = [TableState(number=n, size=8, break_order=n) for n in (1, 2, 3)]
    for n, players in ((1, 8), (2, 8), (3, 7)):
        tables[n - 1].seats.update({seat: n * 10 + seat for seat in range(1, players + 1)})
    assert Field(tables).at_rest()
    # A move waiting for table 1's hand to end, counted where it goes: 7, 8, 8, still level.
    pending = balancing.Move(player=11, from_table=1, from_seat=1, to_table=3, to_seat=8, reason="balance")
    assert Field(tables, pending=[pending]).at_rest()
    # Its player is no longer in seat 1 (busted, moved by hand): the decision drops it.
    stale = balancing.Move(player=99, from_table=1, from_seat=1, to_table=3, to_seat=8, reason="balance")
    assert not Field(tables, pending=[stale]).at_rest()
    # 6, 6, 4 (breaks next) and 8: the 4 fit in the 4 open seats elsewhere (R8.4).
    fitting = balancing.counted_tables(
        [TableCount(1, 8, 6), TableCount(2, 8, 6), TableCount(3, 8, 4, break_order=9), TableCount(4, 8, 8)]
    )
    assert not Field(fitting).at_rest()


@settings(max_examples=200, deadline=None)
@given(
    spec=tables_spec,
    options=options_spec,
    mid_hand=st.floats(0.2, 0.9),
    busts=st.integers(0, 3),
    ended=st.integers(0, 2),
    seed=st.integers(0, 2**32),
)
def test_r8_3_pending_moves_are_judged_on_the_seats_they_touch_only(
    spec, options, mid_hand, busts, ended, seed
):
    """Moves out of tables in a hand wait for it (R8.3); then players bust and hands end. The field of
    stand-ins, with real players only at the tables a pending move touches, answers as the real one:
    at rest or not, and whether a move waits at a table between hands (made at once)."""
    rng = random.Random(seed)
    tables = real_tables(spec, rng)
    for t in tables:
        t.hand_in_progress = rng.random() < mid_hand
    field = Field(tables, options_of(options), rng=random.Random(seed + 1))
    field.decide()
    pending = list(field.pending.values())
    # What the database holds now: who sits where (a pending move is not made yet), and the promises.
    now = {n: t for n, t in field.tables.items() if not t.broken}
    seats = {n: dict(t.seats) for n, t in now.items()}
    for _ in range(busts):  # a player out: a mover among them makes a stale promise
        n = rng.choice(sorted(seats))
        if seats[n]:
            del seats[n][rng.choice(sorted(seats[n]))]
    hands = {n: t.hand_in_progress for n, t in now.items()}
    for _ in range(ended):  # a hand over: its waiting moves are to be made now
        hands[rng.choice(sorted(hands))] = False
    if any(t.broken and t.seats for t in field.tables.values()):
        return  # players still at a broken table: the service reads the whole field
    involved = {m.from_table for m in pending} | {m.to_table for m in pending}

    def rebuilt(states):
        return Field(states, options_of(options), pending=pending)

    real = rebuilt(
        [
            TableState(
                number=n,
                size=t.size,
                seats=dict(seats[n]),
                break_order=t.break_order,
                hand_in_progress=hands[n],
            )
            for n, t in now.items()
        ]
    )
    counted = rebuilt(
        balancing.counted_tables(
            [TableCount(n, t.size, len(seats[n]), t.break_order, False, hands[n]) for n, t in now.items()],
            {n: seats[n] for n in involved if n in seats},
        )
    )

    def settling(f: Field) -> bool:
        return any(state.outgoing and not state.hand_in_progress for state in f.tables.values())

    assert counted.at_rest() == real.at_rest()
    assert settling(counted) == settling(real)
    if real.at_rest():
        decision = real.decide()
        assert not (decision.moves or decision.broken or decision.dropped or decision.final_redraw), decision


def test_a_count_beyond_a_tables_size_is_refused_for_the_real_read():
    with pytest.raises(ValueError):
        balancing.counted_tables([TableCount(1, 8, 9)])
