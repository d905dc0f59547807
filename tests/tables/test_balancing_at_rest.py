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


def test_r8_3_a_pending_move_or_a_table_to_break_is_never_at_rest():
    # 8, 8, 7: level (R8.3 allows 1).
    tables = [TableState(number=n, size=8, break_order=n) for n in (1, 2, 3)]
    for n, players in ((1, 8), (2, 8), (3, 7)):
        tables[n - 1].seats.update({seat: n * 10 + seat for seat in range(1, players + 1)})
    assert Field(tables).at_rest()
    # A move waiting for a hand to end is the decision's to make or drop.
    pending = balancing.Move(player=11, from_table=1, from_seat=1, to_table=3, to_seat=8, reason="balance")
    assert not Field(tables, pending=[pending]).at_rest()
    # 8, 8, 4 and 4 open seats elsewhere... none: 4 players do not fit; with 3 they do (R8.4).
    fitting = balancing.counted_tables(
        [TableCount(1, 8, 6), TableCount(2, 8, 6), TableCount(3, 8, 4, break_order=9), TableCount(4, 8, 8)]
    )
    assert not Field(fitting).at_rest()


def test_a_count_beyond_a_tables_size_is_refused_for_the_real_read():
    with pytest.raises(ValueError):
        balancing.counted_tables([TableCount(1, 8, 9)])
