"""Simulate a big field from the seat draw to the final table through tables.balancing (R8.1, R8.3-R8.5).

    .venv/bin/python tests/bench/simulate_balancing.py [--entries 10000] [--seats 8] [--seed 1]
        [--mid-hand 0.3] [--bust-rate 0.5] [--difference 1] [--relaxed 2 --relaxed-above 20] [--db-entries 200]

Every step one table plays a hand: sometimes a player busts, the positions move on by the dead-button
rule (R3.6), and the balancer decides. Some tables are kept mid-hand, so moves out of them wait
(pending) as R8.3 says. Prints the number of moves (by reason), moves per player, the most moves any one
player made, how often a player moved again within 10 of their own hands of the previous move, the
largest imbalance ever seen, the time for the whole run and the time per bust-out decision, with the
machine's load average (the figures are noisy on a shared machine).
Goals: whole run < 30 s, decision mean and p99.9 < 5 ms.
"""

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tables import balancing


def next_positions(table: balancing.TableState, last_small_blind: int | None):
    """Dead button (R3.6): the big blind moves one player on; the small blind and button follow it."""
    if table.big_blind is None:
        seats = sorted(table.seats)
        if len(seats) < 2:
            return None
        if len(seats) == 2:
            return seats[0], seats[1], seats[0]
        return seats[0], seats[2], seats[1]
    big_blind = table.next_big_blind_seat()
    return last_small_blind, big_blind, table.big_blind


def run(
    entries: int,
    seats: int,
    seed: int,
    mid_hand: float,
    options: balancing.Options,
    quiet=False,
    bust_rate: float = 0.5,
):
    rng = random.Random(seed)
    n_tables = balancing.tables_needed(entries, seats)
    players = list(range(1, entries + 1))
    started = time.perf_counter()
    draw = balancing.initial_draw(players, [(n, seats) for n in range(1, n_tables + 1)], rng)
    tables = [balancing.TableState(number=n, size=seats, break_order=n) for n in range(1, n_tables + 1)]
    for player, (table, seat) in draw.items():
        tables[table - 1].seats[seat] = player
    field = balancing.Field(tables, options, rng=rng)
    # The field is built once and lives long: keep it out of the cyclic collector's full passes
    # (a long-running worker would do the same), so a decision's time is the decision's own.
    gc.collect()
    gc.freeze()
    small_blinds: dict[int, int | None] = {}
    running: list[int] = []  # tables in the middle of a hand
    moves = 0
    moved: dict[int, int] = {}
    by_reason: dict[str, int] = {}
    # Hands each player has played, kept in O(1) per move: hands(p) = base[p] + hands at their table
    # now - hands at that table when they sat down there.
    table_hands: dict[int, int] = {}
    base: dict[int, int] = {}
    sat_at: dict[int, int] = {}
    last_move_hand: dict[int, int] = {}
    soon_again = 0  # moves made within 10 hands of the same player's previous move
    soon_again_balance = 0  # ... of which balancing moves (not a table break or the final redraw)
    onto_next = 0  # moves decided onto the table that breaks next
    decision_times: list[float] = []
    decision_cpu: list[float] = []  # CPU time: on a busy machine wall time also counts waiting for a core
    worst_effective = worst_physical = 0
    worst_physical_at_rest = 0
    redraws = 0
    busts = 0
    halted_hands = 0

    def made(move):
        """A move is done (the player changes seats now)."""
        nonlocal moves, soon_again, soon_again_balance
        moves += 1
        player = move.player
        moved[player] = moved.get(player, 0) + 1
        by_reason[move.reason] = by_reason.get(move.reason, 0) + 1
        hands = base.get(player, 0) + table_hands.get(move.from_table, 0) - sat_at.get(player, 0)
        previous = last_move_hand.get(player)
        if previous is not None and hands - previous < 10:
            soon_again += 1
            soon_again_balance += move.reason == balancing.BALANCE
        last_move_hand[player] = hands
        base[player] = hands
        sat_at[player] = table_hands.get(move.to_table, 0)

    def record(decision):
        nonlocal redraws, worst_effective, onto_next
        redraws += decision.final_redraw
        breaks_next = getattr(field, "breaks_next", lambda: field._break_queue[-1])()
        for move in decision.moves:
            onto_next += move.to_table == breaks_next and move.reason != balancing.REDRAW
            if not move.pending:
                made(move)
        low, high = field.counts()
        # Waiting for the final-table redraw (a table is mid-hand) is not an imbalance.
        if field.active_tables() > 1 and not decision.blocked and not field.fits_at_final_table():
            worst_effective = max(worst_effective, high - low)

    def finish(number: int, bust: bool):
        nonlocal busts
        table = field.tables[number]
        if bust and len(field.where) > 1:
            candidates = sorted(p for p in table.seats.values())
            if candidates:
                field.bust(rng.choice(candidates))
                busts += 1
        positions = next_positions(table, small_blinds.get(number))
        if positions is None:
            button = big_blind = small_blind = None
        else:
            button, big_blind, small_blind = positions
        small_blinds[number] = small_blind
        table_hands[number] = table_hands.get(number, 0) + 1
        done, _dropped = field.hand_finished(number, button=button, big_blind=big_blind)
        for move in done:
            made(move)
        t0, c0 = time.perf_counter(), time.process_time()
        decision = field.decide()
        decision_times.append(time.perf_counter() - t0)
        decision_cpu.append(time.process_time() - c0)
        record(decision)

    record(field.decide())
    active = list(range(1, n_tables + 1))
    while len(field.where) > 1:
        active = (
            [n for n in active if not field.tables[n].broken]
            if len(active) != field.active_tables()
            else active
        )
        number = rng.choice(active)
        table = field.tables[number]
        if table.hand_in_progress:
            running.remove(number)
            finish(number, bust=rng.random() < bust_rate)
        elif len(table.seats) < 2 or field.halted_reason(number):
            halted_hands += 1
            if halted_hands > 10 * entries:
                raise RuntimeError("the field stopped: no table can deal")
            # A halted table waits; let a running one finish instead.
            if running:
                other = running.pop(rng.randrange(len(running)))
                finish(other, bust=rng.random() < bust_rate)
            continue
        else:
            field.hand_started(number)
            if rng.random() < mid_hand:
                running.append(number)  # stays mid-hand for a while
            else:
                finish(number, bust=rng.random() < bust_rate)
        low, high = field.physical_counts()
        if field.active_tables() > 1 and not field.fits_at_final_table():
            worst_physical = max(worst_physical, high - low)
            if not running:
                worst_physical_at_rest = max(worst_physical_at_rest, high - low)
    total = time.perf_counter() - started
    decision_times.sort()
    decision_cpu.sort()
    result = {
        "entries": entries,
        "tables": n_tables,
        "bust-outs": busts,
        "moves": moves,
        "moves per player": moves / entries,
        "  balancing moves": by_reason.get(balancing.BALANCE, 0),
        "  table-break moves": by_reason.get(balancing.BREAK, 0),
        "  final-redraw moves": by_reason.get(balancing.REDRAW, 0),
        "most moves for one player": max(moved.values(), default=0),
        "players moved 3 or more times": sum(1 for n in moved.values() if n >= 3),
        "moves within 10 hands of the same player's last move": soon_again,
        "  of which balancing moves": soon_again_balance,
        "  per 1,000 moves": 1000 * soon_again / max(moves, 1),
        "moves onto the table that breaks next": onto_next,
        "largest imbalance (planned counts)": worst_effective,
        "largest imbalance (seated, incl. players waiting for a hand to end)": worst_physical,
        "largest imbalance (seated, no hand running)": worst_physical_at_rest,
        "final-table redraws": redraws,
        "total time s": total,
        "decisions": len(decision_times),
        "decision mean ms": 1000 * statistics.fmean(decision_times),
        "decision p99 ms": 1000 * decision_times[int(0.99 * (len(decision_times) - 1))],
        "decision p99.9 ms": 1000 * decision_times[int(0.999 * (len(decision_times) - 1))],
        "decision max ms": 1000 * decision_times[-1],
        "decision CPU p99.9 ms": 1000 * decision_cpu[int(0.999 * (len(decision_cpu) - 1))],
        "decision CPU max ms": 1000 * decision_cpu[-1],
    }
    result["load average (1, 5, 15 min)"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    if not quiet:
        for key, value in result.items():
            print(f"{key:>70}: {value:.3f}" if isinstance(value, float) else f"{key:>70}: {value}")
    return result


def run_db(entries: int, seats: int, seed: int):
    """The same decisions through the database path (tables.services) on a throwaway SQLite file:
    draw, then hands that start and end (hand_started / hand_finished), busting a player in some."""
    import os
    import tempfile

    folder = tempfile.mkdtemp(prefix="balancing-sim-")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/sim.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import logging

    import django

    django.setup()
    logging.disable(logging.INFO)  # the eager task runner logs every task
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tables import services
    from tables.models import Move, Seat, Table, seated_players
    from tests.factories import level, make_tournament
    from tournaments.models import Entry
    from tournaments.services import bust_entries, start_tournament

    rng = random.Random(seed)
    tournament = make_tournament(
        name="sim", players=entries, seats_per_table=seats, stage="registering", levels=[level(10, 20)]
    )
    started = time.perf_counter()
    services.draw_seats(tournament)
    start_tournament(tournament)
    finish_times = []
    worst = 0
    while Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count() > 1:
        tables = list(Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE))
        halted = services.halted_reasons(tournament)
        ready = [t for t in tables if not halted[t.pk]]
        table = rng.choice(ready)
        occupied = sorted(
            Seat.objects.filter(table=table, entry__isnull=False).values_list("number", "entry_id")
        )
        services.hand_started(table)
        _number, victim = rng.choice(occupied)
        Entry.objects.filter(pk=victim).update(chips=0)
        bust_entries(tournament, [(Entry.objects.get(pk=victim), 100)])
        state = balancing.TableState(
            number=table.number, size=table.seats, big_blind=table.big_blind_seat, seats=dict(occupied)
        )
        big_blind = state.next_big_blind_seat() if table.big_blind_seat else occupied[0][0]
        t0 = time.perf_counter()
        # Balances in the same transaction; the queued task runs again after the commit (eager here).
        services.hand_finished(table, button_seat=table.big_blind_seat, big_blind_seat=big_blind)
        finish_times.append(time.perf_counter() - t0)
        counts = list(
            Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE)
            .annotate(players=seated_players())
            .values_list("players", flat=True)
        )
        if len(counts) > 1:
            worst = max(worst, max(counts) - min(counts))
    total = time.perf_counter() - started
    done = Move.objects.filter(tournament=tournament).exclude(status=Move.Status.CANCELLED)
    print(f"{'database path, entries':>70}: {entries}")
    print(f"{'moves':>70}: {done.count()}")
    print(f"{'largest imbalance (seated)':>70}: {worst}")
    print(f"{'final-table redraws':>70}: {done.filter(reason='redraw').values('draw').distinct().count()}")
    print(f"{'total time s':>70}: {total:.3f}")
    print(
        f"{'hand_finished (balancing + the queued task) mean ms':>70}: {1000 * statistics.fmean(finish_times):.3f}"
    )


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mid-hand", type=float, default=0.3, help="share of hands left running a while")
    parser.add_argument(
        "--bust-rate",
        type=float,
        default=0.5,
        help="chance that a hand busts a player (0.1 is closer to live play)",
    )
    parser.add_argument("--difference", type=int, default=1)
    parser.add_argument("--relaxed", type=int, default=None)
    parser.add_argument("--relaxed-above", type=int, default=0)
    parser.add_argument(
        "--db-entries",
        type=int,
        default=0,
        help="also run this many entries through the database path (tables.services)",
    )
    args = parser.parse_args()
    options = balancing.Options(
        allowed_difference=args.difference,
        relaxed_difference=args.relaxed,
        relaxed_above_tables=args.relaxed_above,
    )
    run(args.entries, args.seats, args.seed, args.mid_hand, options, bust_rate=args.bust_rate)
    if args.db_entries:
        run_db(args.db_entries, args.seats, args.seed)


if __name__ == "__main__":
    main()
