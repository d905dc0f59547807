"""Hypothesis: random fields and random bust orders through tables.balancing (R8.1, R8.3-R8.5).

After every decision: nobody is seated twice, no seat holds two players, the tables are within the
allowed difference (or wait only as the rules allow), nobody moves into the small blind, and the
final-table redraw happens exactly once.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tables import balancing
from tables.balancing import Field, Options, TableState


def check_seating(field: Field, alive: set[int]) -> None:
    seen = {}
    for t in field.tables.values():
        for seat, player in t.seats.items():
            assert 1 <= seat <= t.size
            assert player not in seen, f"player {player} seated twice"
            seen[player] = (t.number, seat)
            assert seat not in t.reserved, "a seat is promised to a player while someone sits there"
        for seat, player in t.reserved.items():
            assert field.pending[player].to_seat == seat
    # A seat can only hold one player by construction (a dict); the map back must agree with it.
    assert seen == field.where
    assert set(seen) == alive, "a busted player is seated or a live one has no seat"
    for player, move in field.pending.items():
        src = field.tables[move.from_table]
        assert src.hand_in_progress, "a move waits although its table is between hands"
        assert src.seats[move.from_seat] == player


def check_decision(field: Field, decision: balancing.Decision, small_blinds: dict[int, int | None]) -> None:
    for move in decision.moves:
        if move.reason == balancing.REDRAW:
            continue
        small_blind = small_blinds.get(move.to_table)
        if move.reason == balancing.BALANCE:
            assert move.to_seat != small_blind, "moved into the small blind"
        elif move.to_seat == small_blind:
            assert move.waits_for_big_blind, "seated in the small blind and dealt in"
    if field.active_tables() > 1 and not field.fits_at_final_table() and not decision.blocked:
        low, high = field.counts()
        assert high - low <= field.allowed_difference()


fields = st.fixed_dictionaries(
    {
        "players": st.integers(2, 90),
        "size": st.integers(2, 8),
        "difference": st.sampled_from([1, 1, 2]),
        "relaxed": st.sampled_from([None, 2, 3]),
        "relaxed_above": st.integers(0, 6),
        "mid_hand": st.sampled_from([0.0, 0.3, 0.7]),
        "locks": st.integers(0, 3),
    }
)


@settings(max_examples=60, deadline=None)
@given(spec=fields, seed=st.integers(0, 2**32))
def test_random_fields_bust_to_a_winner_with_the_rules_kept(spec, seed):
    rng = random.Random(seed)
    size = spec["size"]
    n_tables = balancing.tables_needed(spec["players"], size)
    players = list(range(1, spec["players"] + 1))
    draw = balancing.initial_draw(players, [(n, size) for n in range(1, n_tables + 1)], rng)
    tables = [TableState(number=n, size=size, break_order=n) for n in range(1, n_tables + 1)]
    for player, (number, seat) in draw.items():
        tables[number - 1].seats[seat] = player
    # The director locks a few seats.
    for _ in range(spec["locks"]):
        t = rng.choice(tables)
        t.locked_seats.add(rng.randint(1, size))
    options = Options(
        allowed_difference=spec["difference"],
        relaxed_difference=spec["relaxed"],
        relaxed_above_tables=spec["relaxed_above"],
    )
    field = Field(tables, options, rng=random.Random(seed + 1))
    alive = set(players)
    small_blinds = {}
    redraws = 0

    def decide():
        nonlocal redraws
        small_blinds.clear()
        small_blinds.update({n: t.next_small_blind_seat() for n, t in field.tables.items()})
        decision = field.decide()
        redraws += decision.final_redraw
        check_seating(field, alive)
        check_decision(field, decision, small_blinds)
        return decision

    decide()
    steps = 0
    while len(alive) > 1:
        steps += 1
        assert steps < 50 * spec["players"], "the field stopped moving"
        live_tables = [t for t in field.tables.values() if not t.broken or t.seats]
        busy = [t for t in live_tables if t.hand_in_progress]
        ready = [
            t
            for t in live_tables
            if not t.hand_in_progress and len(t.seats) >= 2 and not field.halted_reason(t.number)
        ]
        # Liveness: with two or more players left some table can always deal or is dealing.
        assert busy or ready, "no table can deal"
        if busy and (not ready or rng.random() < 0.5):
            t = rng.choice(busy)
        else:
            t = rng.choice(ready)
            field.hand_started(t.number)
            if rng.random() < spec["mid_hand"]:
                continue
        # The hand at t ends: maybe somebody busts, the positions move on (R3.6), the balancer decides.
        if rng.random() < 0.6 and t.seats:
            victim = rng.choice(sorted(t.seats.values()))
            field.bust(victim)
            alive.discard(victim)
        big_blind = (
            t.next_big_blind_seat() if t.big_blind is not None else (min(t.seats) if t.seats else None)
        )
        button = t.big_blind  # good enough for the gap: the seat after which the button passes
        field.hand_finished(t.number, button=button, big_blind=big_blind)
        assert not t.outgoing, "a move still waits after its table's hand ended"
        decide()
        # Between hands everywhere: the seated counts themselves are within the limit.
        if (
            not any(x.hand_in_progress for x in field.tables.values())
            and field.active_tables() > 1
            and not field.fits_at_final_table()
        ):
            low, high = field.physical_counts()
            blocked = any(x.locked_seats for x in field.tables.values())
            assert blocked or high - low <= field.allowed_difference()
    if n_tables > 1:
        assert redraws == 1, "the final table is drawn exactly once (R8.5)"
        assert field.options.final_redraw_done
    else:
        assert redraws == 0
