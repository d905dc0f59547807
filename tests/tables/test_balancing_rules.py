"""The pure balancing rules (R8.1, R8.3-R8.5), one rule at a time, with hand-made tables."""

import random

import pytest

from tables import balancing
from tables.balancing import Field, Options, TableState


def table(number, seats, *, size=8, button=None, big_blind=None, hand=False, order=None, locked=()):
    return TableState(
        number=number,
        size=size,
        seats=dict(seats),
        button=button,
        big_blind=big_blind,
        hand_in_progress=hand,
        break_order=number if order is None else order,
        locked_seats=set(locked),
    )


def players(first, seats):
    return {seat: first + i for i, seat in enumerate(seats)}


def test_r8_3_player_due_for_the_big_blind_moves_to_the_worst_open_seat():
    """R8.3: at the long table the player who is big blind next moves; at the short table they take the
    seat that posts the big blind soonest, never the small blind."""
    long_table = table(1, players(100, range(1, 9)), button=2, big_blind=4)  # seat 5 is big blind next
    # Short table: last big blind seat 6 is now empty (that player busted): it is next hand's small blind.
    short = table(2, {1: 1, 2: 2, 3: 3, 5: 5}, button=3, big_blind=6)
    field = Field([long_table, short], rng=random.Random(1))
    decision = field.decide()
    moves = [m for m in decision.moves if m.reason == balancing.BALANCE]
    assert moves[0].player == 104 and (moves[0].from_table, moves[0].from_seat) == (1, 5)
    # Clockwise after the old big blind (6): seat 7 is empty and would be the next big blind.
    assert (moves[0].to_table, moves[0].to_seat) == (2, 7)
    assert all(m.to_seat != 6 for m in moves)  # never into the small blind


def test_r8_3_open_small_blind_seat_is_never_taken_even_if_it_is_the_only_early_one():
    t = TableState(number=2, size=8, seats={1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, button=4, big_blind=6)
    # Open seats: 6 (small blind next hand), 7, 8. 7 becomes the next big blind.
    assert t.next_small_blind_seat() == 6
    assert t.worst_open_seat() == 7
    t.seats[7] = 7
    t.seats[8] = 8
    assert t.worst_open_seat() is None  # only the small blind is open: nobody is moved there


def test_r8_1_seats_between_the_small_blind_and_the_button_wait_for_the_big_blind():
    t = TableState(number=1, size=8, seats={1: 1, 3: 3, 5: 5}, button=1, big_blind=5)
    assert [s for s in range(1, 9) if t.between_small_blind_and_button(s)] == [2, 3, 4, 5]
    assert not t.between_small_blind_and_button(6)


def test_r8_3_locked_player_is_skipped():
    long_table = table(1, players(100, range(1, 9)), button=2, big_blind=4, locked={5})
    short = table(2, players(1, range(1, 7)), button=1, big_blind=3)
    field = Field([long_table, short], rng=random.Random(1))
    move = field.decide().moves[0]
    assert move.from_seat == 6  # seat 5 is locked: the next player in line goes


def test_r8_3_mid_hand_table_waits_and_the_move_is_decided_again_when_the_hand_ends():
    long_table = table(1, players(100, range(1, 9)), button=2, big_blind=4, hand=True)
    short = table(2, players(1, range(1, 7)), button=1, big_blind=3)
    field = Field([long_table, short], rng=random.Random(1))
    decision = field.decide()
    assert [m.pending for m in decision.moves] == [True]
    assert decision.waiting == [1]
    assert field.decide().moves == []  # the pending move counts: nothing planned twice
    assert field.tables[1].seats[5] == 104  # still at the table until the hand ends
    done, dropped = field.hand_finished(1, button=3, big_blind=5)
    assert done == [] and len(dropped) == 1
    again = field.decide()
    # The big blind has moved on: now the player in seat 6 is due.
    assert [(m.player, m.from_seat, m.pending) for m in again.moves] == [(105, 6, False)]


def test_r8_3_table_three_short_halts_until_balanced():
    long_table = table(1, players(100, range(1, 9)), hand=True)
    short = table(2, players(1, range(1, 6)))
    field = Field([long_table, short], rng=random.Random(1))
    assert field.halted_reason(2) == "short"
    field.decide()  # pending: the player arrives when table 1's hand ends
    assert field.halted_reason(2) == "short"
    field.hand_finished(1, button=1, big_blind=3)
    field.decide()
    assert field.halted_reason(2) is None


def test_r8_3_relaxed_difference_while_many_tables_play():
    tables = [table(n, players(n * 100, range(1, 9 if n != 4 else 7))) for n in range(1, 5)]
    relaxed = Field(
        [TableState(**t.__dict__) for t in tables],
        Options(relaxed_difference=2, relaxed_above_tables=3),
        rng=random.Random(1),
    )
    assert relaxed.decide().moves == []  # 8, 8, 8, 6 is within two
    strict = Field(tables, Options(), rng=random.Random(1))
    assert len(strict.decide().moves) == 1


def test_r8_4_the_highest_table_breaks_first_into_the_shortest_tables():
    tables = [table(n, players(n * 100, range(1, 6))) for n in range(1, 4)]  # 5, 5, 5 -> fits in 2
    field = Field(tables, rng=random.Random(3))
    decision = field.decide()
    assert decision.broken == [3]
    assert all(m.reason == balancing.BREAK and m.from_table == 3 for m in decision.moves)
    assert sorted(len(field.tables[n].seats) for n in (1, 2)) == [7, 8]


def test_r8_4_the_director_breaking_order_is_followed():
    tables = [table(n, players(n * 100, range(1, 6)), order={1: 3, 2: 1, 3: 2}[n]) for n in range(1, 4)]
    decision = Field(tables, rng=random.Random(3)).decide()
    assert decision.broken == [1]


def test_r8_5_last_two_tables_stay_level_then_the_final_table_is_redrawn_once():
    """R8.5: two tables of 5 and 4 ... one busts: 8 fit at the final table: everybody redraws, once."""
    field = Field(
        [table(1, players(100, range(1, 6))), table(2, players(200, range(1, 5)))],
        Options(allowed_difference=2),
        rng=random.Random(5),
    )
    assert field.allowed_difference() == 1  # last two tables: within one whatever the setting
    assert field.decide().moves == []
    field.bust(100)
    decision = field.decide()
    assert decision.final_redraw and decision.final_table == 1 and decision.broken == [2]
    assert sorted(m.player for m in decision.moves) == sorted([101, 102, 103, 104, 200, 201, 202, 203])
    assert sorted(field.tables[1].seats) == list(range(1, 9))
    field.bust(101)
    assert not field.decide().final_redraw


def test_r8_5_final_redraw_waits_for_every_hand_to_end():
    field = Field(
        [table(1, players(100, range(1, 5))), table(2, players(200, range(1, 5)), hand=True)],
        rng=random.Random(5),
    )
    decision = field.decide()
    assert not decision.final_redraw and decision.waiting == [2]
    assert field.halted_reason(1) == "final_table_redraw"
    field.hand_finished(2, button=1, big_blind=3)
    assert field.decide().final_redraw


def test_r8_1_initial_draw_is_balanced_and_replayable():
    seed = bytes(range(32))
    tables = [(1, 8), (2, 8), (3, 8)]
    first = balancing.initial_draw(list(range(1, 21)), tables, balancing.DrawRandom(seed))
    again = balancing.initial_draw(list(range(1, 21)), tables, balancing.DrawRandom(seed))
    assert first == again
    counts = sorted(sum(1 for t, _ in first.values() if t == n) for n in (1, 2, 3))
    assert counts == [6, 7, 7]
    assert len(set(first.values())) == 20
    other = balancing.initial_draw(list(range(1, 21)), tables, balancing.DrawRandom(bytes(32)))
    assert other != first


def test_draw_random_is_uniform_enough():
    rng = balancing.DrawRandom(bytes(32))
    counts = [0] * 7
    for _ in range(7000):
        counts[rng.randrange(7)] += 1
    assert all(850 < c < 1150 for c in counts)


def test_r8_1_late_entry_goes_to_a_shortest_table():
    field = Field(
        [
            table(1, players(100, range(1, 8))),
            table(2, players(200, range(1, 7))),
            table(3, players(300, range(1, 8))),
        ],
        rng=random.Random(2),
    )
    for _ in range(20):
        number, seat = field.late_entry_seat()
        assert number == 2 and seat in (7, 8)


def test_refuses_a_player_seated_twice():
    with pytest.raises(balancing.SeatingError) as error:
        Field([table(1, {1: 5}), table(2, {1: 5})])
    assert error.value.code == "seated_twice"


def test_r8_4_a_move_waiting_to_go_to_a_breaking_table_goes_elsewhere():
    field = Field(
        [
            table(1, players(100, range(1, 9)), hand=True),
            table(2, players(200, range(1, 8))),
            table(3, players(300, range(1, 6))),
        ],
        rng=random.Random(4),
    )
    [waiting] = field.decide().moves
    assert waiting.pending and waiting.to_table == 3
    for player in (200, 201, 202, 203, 204):
        field.bust(player)
    decision = field.decide()
    assert decision.broken == [3]
    assert decision.dropped == [waiting]
    [rerouted] = [m for m in decision.moves if m.player == waiting.player]
    assert rerouted.pending and rerouted.to_table == 2 and rerouted.reason == balancing.BREAK
    field.hand_finished(1, button=1, big_blind=2)
    assert field.where[waiting.player][0] == 2
