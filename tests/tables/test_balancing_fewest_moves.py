"""R8.3/R8.4 with as few moves as the breaking order allows: no ping-pong, nobody onto the table that
breaks next while another can take them, the long table that breaks soonest gives the player."""

import random

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


def balance_moves(decision):
    return [m for m in decision.moves if m.reason == balancing.BALANCE]


def test_r8_3_a_player_already_moved_is_not_moved_again_while_another_choice_exists():
    """Table 1 is long; its next big blind (seat 5, player 104) was moved here before: the next player
    in big-blind order who has not been moved goes instead."""
    long_table = table(1, players(100, range(1, 9)), button=2, big_blind=4)
    short = table(2, players(1, range(1, 7)), button=1, big_blind=3)
    field = Field([long_table, short], rng=random.Random(1), moved={104: 7})
    [move] = balance_moves(field.decide())
    assert (move.player, move.from_seat) == (105, 6)
    # Everybody at the long table was moved: the one moved longest ago goes (then big-blind order).
    everybody = {100 + i: 50 - i for i in range(8)}
    field = Field(
        [table(1, players(100, range(1, 9)), button=2, big_blind=4), table(2, players(1, range(1, 7)))],
        rng=random.Random(1),
        moved=everybody,
    )
    [move] = balance_moves(field.decide())
    assert move.player == 107  # moved at 43, the earliest


def test_r8_3_the_next_big_blind_of_another_long_table_goes_before_a_later_one_here():
    """Two long tables: table 2's next big blind was moved before, table 1's was not: table 1's goes,
    although table 2 breaks sooner (R8.3: the player due for the big blind, not moved again)."""
    t1 = table(1, players(100, range(1, 9)), button=2, big_blind=4)  # 104 is due
    t2 = table(2, players(200, range(1, 9)), button=2, big_blind=4)  # 204 is due, but was moved
    t3 = table(3, players(300, range(1, 7)), order=0)  # short, breaks last
    field = Field([t1, t2, t3], rng=random.Random(1), moved={204: 3})
    moves = balance_moves(field.decide())
    assert moves[0].player == 104


def test_r8_3_ping_pong_3_2_1_2_does_not_happen():
    """The reported case: a player moved to the worst seat of a short table is the next big blind
    there, so when that table is long next he was moved again at once (3 -> 2 -> 1 -> 2 in two hands).
    Now he stays: another player of that table goes."""
    t1 = table(1, players(100, range(1, 7)), button=1, big_blind=2, order=1)  # breaks last
    t2 = table(2, players(200, [1, 2, 3, 4, 5, 6]), button=5, big_blind=6, order=2)
    t3 = table(3, players(300, range(1, 9)), button=1, big_blind=2, order=3)  # breaks first
    field = Field([t1, t2, t3], Options(), rng=random.Random(2))
    first = balance_moves(field.decide())
    traveller = first[0].player
    assert first[0].from_table == 3
    assert first[0].to_table == 1  # the short table that breaks last
    # Table 1's next hand: the traveller sits in the worst seat, so he is due for the big blind there.
    t1.big_blind = field.where[traveller][1] - 1 or t1.size
    assert t1.next_to_move()[1] == traveller
    # Busts elsewhere make table 1 the long one (7 against 5 and 5): somebody else goes, not him.
    for p in [200, 300, 301]:
        field.bust(p)
    decision = field.decide()
    moves = balance_moves(decision)
    assert decision.broken == [] and len(moves) == 1
    assert moves[0].from_table == 1 and moves[0].player != traveller
    assert field.where[traveller][0] == 1


def test_r8_3_nobody_is_moved_onto_the_table_that_breaks_next_while_another_short_table_can_take_him():
    long_table = table(1, players(100, range(1, 9)), order=1)
    short_last = table(2, players(200, range(1, 7)), order=2)
    short_next = table(3, players(300, range(1, 7)), order=3)  # breaks next
    field = Field([long_table, short_last, short_next], rng=random.Random(1))
    assert field.breaks_next() == 3
    [move] = balance_moves(field.decide())
    assert move.to_table == 2


def test_r8_3_the_table_that_breaks_next_gets_a_player_when_it_is_the_only_short_one():
    field = Field(
        [
            table(1, players(100, range(1, 9))),
            table(2, players(200, range(1, 9))),
            table(3, players(300, range(1, 6))),
        ],
        rng=random.Random(1),
    )
    moves = balance_moves(field.decide())
    assert moves and all(m.to_table == 3 for m in moves)
    low, high = field.counts()
    assert high - low <= 1


def test_r8_3_the_long_table_that_breaks_soonest_gives_the_player():
    """Its players are moved when it breaks anyway: one moved now is one fewer moved later."""
    t1 = table(1, players(100, range(1, 9)), order=1)
    t2 = table(2, players(200, range(1, 9)), order=3)  # breaks first
    t3 = table(3, players(300, range(1, 7)), order=2)
    [move] = balance_moves(Field([t1, t2, t3], rng=random.Random(1)).decide())
    assert move.from_table == 2 and move.to_table == 3


def test_r8_4_players_of_a_broken_table_go_to_the_tables_that_break_last_first():
    """R8.4: the draw is at random among open seats of the shortest tables, and among those the tables
    that break last take players first, so nobody lands at the table that breaks next needlessly."""
    tables = [table(n, players(100 * n, range(1, 7)), order=n) for n in range(1, 6)]  # 5 tables of 6
    tables[4].seats = dict(list(tables[4].seats.items())[:3])  # table 5 (breaks first) has 3
    field = Field(tables, rng=random.Random(9))
    decision = field.decide()
    assert decision.broken == [5]
    assert sorted(m.to_table for m in decision.moves) == [1, 2, 3]


def test_r8_4_a_break_waits_rather_than_fill_the_table_that_breaks_next_while_the_tables_are_level():
    """Tables 1-6 have one open seat each: table 7's six players fit only with the seat of table 6,
    the next to break after it. The tables are within one, so table 7 plays on; once a bust elsewhere
    makes room it breaks, and table 6 gets nobody."""
    tables = [table(n, players(100 * n, range(1, 8))) for n in range(1, 7)]
    tables.append(table(7, players(700, range(1, 7))))
    field = Field(tables, rng=random.Random(4))
    decision = field.decide()
    assert decision.broken == [] and decision.moves == []
    field.bust(100)  # a sixth open seat at tables 1-5
    decision = field.decide()
    assert decision.broken == [7]
    assert sorted(m.to_table for m in decision.moves) == [1, 1, 2, 3, 4, 5]


def test_r8_4_a_break_does_not_wait_when_the_tables_are_out_of_balance():
    t1 = table(1, players(100, range(1, 9)))
    t2 = table(2, players(200, range(1, 9)))
    t3 = table(3, players(300, range(1, 9)))
    t4 = table(4, players(400, range(1, 5)))  # four open seats
    t5 = table(5, players(500, range(1, 5)))
    decision = Field([t1, t2, t3, t4, t5], rng=random.Random(4)).decide()
    assert decision.broken == [5]
