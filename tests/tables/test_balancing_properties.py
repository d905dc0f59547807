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


class CheckedField(Field):
    """A Field that checks, at the moment each move is chosen, that it was the best the rules allowed
    (R8.3, R8.4), and counts the moves that had no better choice."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.forced_again: dict[int, int] = {}  # player -> balancing moves made although moved before

    def _active(self):
        return [self.tables[n] for n in self._counted]

    def _move(self, decision, player, src, from_seat, dst, to_seat, reason):
        breaks_next = self.breaks_next()
        if reason == balancing.BALANCE:
            if player in self.moved:
                # R8.3: moved again only if every candidate at the long tables was moved before.
                for t in self._active():
                    if t.count >= src.count:
                        assert all(p in self.moved for _s, p in t.movable()), "moved again with a choice"
                self.forced_again[player] = self.forced_again.get(player, 0) + 1
            if dst.number == breaks_next:
                # R8.3: onto the table that breaks next only if no other short table could take him.
                for t in self._active():
                    if t not in (src, dst) and t.count <= dst.count:
                        assert t.worst_open_seat() is None, "moved onto the table that breaks next"
        elif reason == balancing.BREAK and dst.number == breaks_next and to_seat not in dst.locked_seats:
            for t in self._active():
                if t is not dst and (t.count < dst.count or (t.count == dst.count and t.draw_seats())):
                    assert not t.draw_seats(), "a broken table's player sent to the table that breaks next"
        return super()._move(decision, player, src, from_seat, dst, to_seat, reason)


@settings(max_examples=60, deadline=None)
@given(spec=fields, seed=st.integers(0, 2**32))
def test_r8_3_r8_4_random_bust_orders_move_players_as_little_as_the_rules_allow(spec, seed):
    """Over random fields and bust orders to the final table: every balancing move takes a player not
    moved before while one is left at the long tables, nobody goes to the table that breaks next while
    another can take them, balancing makes at most one move per bust-out, and no player moves more than
    once per table broken under him, plus the final redraw and the balancing moves he had no way out of."""
    rng = random.Random(seed)
    size = spec["size"]
    n_tables = balancing.tables_needed(spec["players"], size)
    players = list(range(1, spec["players"] + 1))
    draw = balancing.initial_draw(players, [(n, size) for n in range(1, n_tables + 1)], rng)
    tables = [TableState(number=n, size=size, break_order=n) for n in range(1, n_tables + 1)]
    for player, (number, seat) in draw.items():
        tables[number - 1].seats[seat] = player
    for _ in range(spec["locks"]):
        rng.choice(tables).locked_seats.add(rng.randint(1, size))
    options = Options(
        allowed_difference=spec["difference"],
        relaxed_difference=spec["relaxed"],
        relaxed_above_tables=spec["relaxed_above"],
    )
    field = CheckedField(tables, options, rng=random.Random(seed + 1))
    alive = set(players)
    moves: dict[int, list[str]] = {}
    hands = dict.fromkeys(players, 0)  # hands each player has played
    last_move: dict[int, int] = {}
    soon_again = busts = balance_moves = 0

    def count(move):
        nonlocal soon_again, balance_moves
        moves.setdefault(move.player, []).append(move.reason)
        balance_moves += move.reason == balancing.BALANCE
        if move.player in last_move and hands[move.player] - last_move[move.player] < 10:
            soon_again += move.reason == balancing.BALANCE
        last_move[move.player] = hands[move.player]

    def decide():
        for move in field.decide().moves:
            if not move.pending:
                count(move)
        check_seating(field, alive)

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
        assert busy or ready, "no table can deal"
        if busy and (not ready or rng.random() < 0.5):
            t = rng.choice(busy)
        else:
            t = rng.choice(ready)
            field.hand_started(t.number)
            if rng.random() < spec["mid_hand"]:
                continue
        for player in t.seats.values():
            hands[player] += 1
        if rng.random() < 0.6 and t.seats:
            victim = rng.choice(sorted(t.seats.values()))
            field.bust(victim)
            alive.discard(victim)
            busts += 1
        big_blind = (
            t.next_big_blind_seat() if t.big_blind is not None else (min(t.seats) if t.seats else None)
        )
        done, _dropped = field.hand_finished(t.number, button=t.big_blind, big_blind=big_blind)
        for move in done:
            count(move)
        decide()
    broken = sum(1 for t in field.tables.values() if t.broken)
    assert balance_moves <= busts, "more balancing moves than bust-outs"
    for player, reasons in moves.items():
        free = 1 if balancing.BALANCE in reasons else 0
        assert len(reasons) <= broken + free + field.forced_again.get(player, 0) + 1, (player, reasons)
    assert soon_again <= sum(field.forced_again.values())
