"""Calibrate the structure simulator (tournaments.simulator) against whole tournaments played hand by
hand with the product's engine, and print how far its predictions are from those runs.

    .venv/bin/python tests/bench/calibrate_simulator.py [--sizes 9,20,45,100] [--runs 4]
        [--speeds turbo,regular,deep] [--games courchevel,courchevel_hilo]
        [--bettings no_limit,pot_limit,fixed_limit] [--seats 8] [--sim-runs 400] [--seed 2] [--fit]
        [--cache FILE]

Each engine run is a freeze-out of ``size`` players on the shipped template of that speed and
betting (its blinds, antes, breaks and suggested starting stack), at tables of eight:

- every hand is a ``dealing.engine.Hand`` dealt from a seeded deck (RULES section 7: the hand seed
  comes from a master seed, the table number and the hand number), with positions from
  ``dealing.engine.positions`` (dead button, R3.6) and the level in force when it is dealt (R8.2);
- the players are simple automatic players: they rate their hand as a percentile (pre-flop from
  pairs, suits, connectors and the first flop card; on the flop and turn from the best two-plus-three
  made hand so far; on the river with the engine's evaluator; Hi/Lo also the low), bet or raise good
  hands, call when the hand beats the price (pot odds), sometimes bluff, and push or fold when short;
- each table keeps its own clock: a hand takes ``simulator.seconds_per_hand`` for its number of
  players (the simulator's hands-per-hour assumption), breaks deal nothing, and the next hand is
  always dealt at the table whose clock is earliest; after every hand the tables are balanced to
  within one player and the highest-numbered table breaks as soon as the others can seat its
  players (R8.3, R8.4, simplified: moved players take a random open seat).

For every hand the script records the field's average stack over that hand's forced bets (M), the
players at the table and the bust-outs, and ``--fit`` fits the simulator's bust model to them (a
Poisson regression per game and betting) and prints the constants to paste into ``BUST_MODEL``.
Then, by game, betting and field size, it runs the simulator on the same event and prints the
median length and money-bubble time of the engine runs beside the simulator's, and the error.
The script prints its own runtime and the load average (two cores are shared).
"""

import argparse
import hashlib
import heapq
import math
import os
import pickle
import random
import statistics
import sys
import time
from bisect import bisect_left, bisect_right
from itertools import combinations, combinations_with_replacement, pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np

from dealing.engine import ConfigError, Hand, HandConfig, hand_seed, positions
from dealing.engine.cards import CODES
from dealing.engine.evaluator import high_strength, low_strength
from tournaments import simulator, structures

CARD = {code: i for i, code in enumerate(CODES)}  # rank * 4 + suit, as the engine's ints

# -- hand strength --------------------------------------------------------------------------------------

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def _five_value(ranks: tuple[int, ...], flush: bool) -> int:
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    ordered = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    straight = None
    if len(counts) == 5:
        if ordered[0] - ordered[4] == 4:
            straight = ordered[0]
        elif ordered == [12, 3, 2, 1, 0]:
            straight = 3
    if straight is not None:
        category, ordered = (8 if flush else 4), [straight]
    elif flush:
        category = 5
    elif shape[0] == 4:
        category = 7
    elif shape == [3, 2]:
        category = 6
    elif shape[0] == 3:
        category = 3
    elif shape == [2, 2, 1]:
        category = 2
    elif shape[0] == 2:
        category = 1
    else:
        category = 0
    value = category
    for r in [*ordered, 0, 0, 0, 0][:5]:
        value = value * 13 + r
    return value


def _key(ranks) -> int:
    key = 1
    for r in ranks:
        key *= _PRIMES[r]
    return key


_PLAIN = {_key(r): _five_value(r, False) for r in combinations_with_replacement(range(13), 5) if r[0] != r[4]}
_FLUSHED = {_key(r): _five_value(r, True) for r in combinations(range(13), 5)}
_PRIME_OF = [_PRIMES[c >> 2] for c in range(52)]


def made_value(hole: list[int], board: list[int]) -> int:
    """Best two-hole-plus-three-board value (flop and turn; the river uses the engine's evaluator)."""
    best = 0
    prime = _PRIME_OF
    for triple in combinations(board, 3):
        t_key = prime[triple[0]] * prime[triple[1]] * prime[triple[2]]
        t_suit = triple[0] & 3 if (triple[0] & 3) == (triple[1] & 3) == (triple[2] & 3) else -1
        for a, b in combinations(hole, 2):
            key = t_key * prime[a] * prime[b]
            if t_suit >= 0 and (a & 3) == t_suit == (b & 3):
                value = _FLUSHED.get(key) or _PLAIN[key]
            else:
                value = _PLAIN.get(key, 0)
            if value > best:
                best = value
    return best


def preflop_value(hole: list[int], up: int, hilo: bool) -> float:
    """A rough pre-flop score from five hole cards and the first flop card (R4.2)."""
    ranks = sorted((c >> 2 for c in hole), reverse=True)
    score = 0.0
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    for r, count in counts.items():
        if count >= 2:
            score += 1.5 + r / 6 - (1.5 if count >= 3 else 0)
        if r == up >> 2:
            score += 1.2 + r / 8
    suits: dict[int, list[int]] = {}
    for c in hole:
        suits.setdefault(c & 3, []).append(c >> 2)
    for suit, rs in suits.items():
        if len(rs) >= 2:
            score += 0.5 + (0.6 if 12 in rs else 0) + (0.5 if suit == up & 3 else 0)
    distinct = sorted(set(ranks))
    score += 0.35 * sum(1 for x, y in pairwise(distinct) if y - x <= 2)
    score += 0.25 * sum(1 for r in ranks if r >= 8)
    if hilo:
        lows = {r for r in ranks if r <= 6 or r == 12}
        score += 0.4 * len(lows) + (0.8 if {12, 0} <= lows else 0)
    return score


def low_value(hole: list[int], board: list[int]) -> float:
    if len(board) == 5:
        return low_strength(hole, board)
    board_lows = {c >> 2 for c in board if (c >> 2) <= 6 or (c >> 2) == 12}
    hole_lows = {c >> 2 for c in hole if (c >> 2) <= 6 or (c >> 2) == 12} - board_lows
    if len(hole_lows) < 2:
        return 0.0
    return len(board_lows) * (1 + (12 in hole_lows) + (0 in hole_lows)) + len(hole_lows) * 0.5


class Strength:
    """Percentiles of the raw scores among random deals, by street (0: pre-flop … 3: river)."""

    def __init__(self, hilo: bool, rng: random.Random, samples: int = 1500):
        self.hilo = hilo
        self.high: list[list[float]] = [[], [], [], []]
        self.low: list[list[float]] = [[], [], [], []]
        deck = list(range(52))
        for _ in range(samples):
            cards = rng.sample(deck, 10)
            hole, board = cards[:5], cards[5:]
            for street, size in enumerate((1, 3, 4, 5)):
                high, low = self.raw(hole, board[:size])
                self.high[street].append(high)
                self.low[street].append(low)
        for table in (*self.high, *self.low):
            table.sort()

    def raw(self, hole: list[int], board: list[int]) -> tuple[float, float]:
        n = len(board)
        if n == 1:
            return preflop_value(hole, board[0], self.hilo), 0.0
        high = high_strength(hole, board) if n == 5 else made_value(hole, board)
        return high, (low_value(hole, board) if self.hilo and n >= 3 else 0.0)

    def percentile(self, hole: list[int], board: list[int]) -> float:
        street = (0, 0, 1, 1, 2, 3)[len(board)]
        high, low = self.raw(hole, board)
        table = self.high[street]
        s = (bisect_left(table, high) + bisect_right(table, high)) / (2 * len(table))
        if self.hilo and low > 0:
            table = self.low[street]
            s = max(s, 0.9 * (bisect_left(table, low) + bisect_right(table, low)) / (2 * len(table)))
        return s


# -- the automatic players --------------------------------------------------------------------------------

# A percentile is turned into a rough chance of beating one random hand (Courchevel's hands run
# close before the board is out), then of beating the opponents still in, counted as if about a third
# of those behind would play on.
COMPRESS = (0.45, 0.7, 0.85, 1.0)  # by street: pre-flop, flop, turn, river
BET = 0.55  # bet an unopened pot with at least this chance
RAISE = 0.65  # raise with at least this chance, counted against the raise's share of the stack
BLUFF = 0.08  # chance of betting anyway, shared among the opponents
IMPLIED = (0.75, 0.85, 1.0, 1.0)  # call when chance >= price * IMPLIED[street] + RISK * share of stack
RISK = 0.15
RANGE = 4.0  # a bet of the whole stack: the chance is raised to the power 1 + RANGE
PUSH_DEPTH = 10  # big blinds: pre-flop below this in pot and no limit is push or fold


def chance(strength: float, street: int, opponents: int) -> float:
    effective = 1 + 0.35 * (opponents - 1) if street == 0 else opponents
    return (0.5 + (strength - 0.5) * COMPRESS[street]) ** effective


def decide(options, strength, street, opponents, pot, big_blind, betting, rng):
    """(action, amount) for the player to act; ``pot`` counts every chip in the middle."""
    call = options.call
    stack = options.stack
    bet = options.player_bet
    can_raise = options.raise_kind is not None
    p = chance(strength, street, opponents)
    risk = min(1.0, (bet + call) / (bet + stack))  # share of the stack at stake in calling
    price = call / (pot + call) if call else 0.0
    # A bet that puts more of the stack at stake comes from a stronger hand, the more so the deeper
    # the stacks: short stacks push wide, and a blind is no sign of strength at all.
    depth = (stack + bet) / big_blind
    reading = RANGE * min(1.0, depth / 20)
    voluntary = options.current_bet > big_blind if street == 0 else options.current_bet > 0
    if street == 0 and depth <= PUSH_DEPTH and betting != "fixed_limit":
        if can_raise and p >= 0.3 + 0.2 * depth / PUSH_DEPTH:
            return options.raise_kind, options.max_to
        if call == 0:
            return "check", None
        return ("call", None) if p >= price else ("fold", None)
    if call == 0:
        if can_raise and (p >= BET or rng.random() < BLUFF / opponents):
            to = _size(options, pot, 0.5 + 0.5 * rng.random(), betting)
            if p ** (1 + reading * to / (bet + stack)) >= BET or to < options.max_to:
                return options.raise_kind, to
        return "check", None
    if voluntary:
        p **= 1 + reading * risk
    if can_raise:
        to = _size(options, pot + call, 0.7 + 0.3 * rng.random(), betting)
        if p ** (1 + reading * (to - bet) / (bet + stack)) >= RAISE:
            return options.raise_kind, to
    if p >= price * IMPLIED[street] + RISK * risk:
        return "call", None
    return "fold", None


def _size(options, pot: int, fraction: float, betting: str) -> int:
    if betting == "fixed_limit":
        return options.min_to
    to = options.current_bet + int(pot * fraction)
    if options.player_bet + options.stack - to < to:  # committed: all in
        to = options.max_to
    return max(options.min_to, min(options.max_to, to))


# -- one tournament ---------------------------------------------------------------------------------------


MAX_HANDS = 100_000  # a freeze-out that lasts longer than this has bots that never risk a chip


class Table:
    def __init__(self, number: int):
        self.number = number
        self.seats: dict[int, int] = {}  # seat -> player
        self.time = 0.0
        self.hands = 0
        self.last: positions.Positions | None = None


def play_hand(table, stacks, level, game, betting, cap, master, strength, rng):
    occupied = sorted(table.seats)
    pos = None
    if table.last is not None:
        try:
            pos = positions.next_hand(
                occupied,
                button=table.last.button,
                big_blind=table.last.big_blind,
                small_blind=table.last.small_blind,
                table_size=8,
            )
        except ConfigError:
            pos = None
    if pos is None:
        pos = positions.first_hand(occupied, rng.choice(occupied))
    table.last = pos
    config = HandConfig(
        game=game,
        betting=betting,
        seats=tuple((seat, str(table.seats[seat]), stacks[table.seats[seat]]) for seat in occupied),
        button_seat=pos.button,
        small_blind_seat=pos.small_blind,
        big_blind_seat=pos.big_blind,
        small_blind=level["small_blind"],
        big_blind=level["big_blind"],
        ante=level["ante"],
        ante_kind=level["ante_kind"],
        small_bet=level["small_bet"] or None,
        big_bet=level["big_bet"] or None,
        cap_raises=cap,
    )
    hand = Hand.start(config, seed=hand_seed(master, table.number, table.hands))
    table.hands += 1
    holes = {e["seat"]: [CARD[c] for c in e["cards"]] for e in hand.events if e["type"] == "hole"}
    pot, seen, street, live = 0, 0, -1, len(occupied)
    cache: dict[tuple[int, int], float] = {}
    board: list[int] = []
    while not hand.done:
        events = hand.events
        for event in events[seen:]:
            kind = event["type"]
            if kind == "post":
                pot += event["amount"]
            elif kind == "action":
                pot += event["amount"]
                live -= event["action"] == "fold"
            elif kind == "return":
                pot -= event["amount"]
            elif kind == "board":
                board.extend(CARD[c] for c in event["cards"])
                street += 1
        seen = len(events)
        options = hand.options()
        key = (options.seat, street)
        s = cache.get(key)
        if s is None:
            s = cache[key] = strength.percentile(holes[options.seat], board)
        action, amount = decide(options, s, street, live - 1, pot, level["big_blind"], betting, rng)
        hand.act(options.seat, action, amount)
    for seat, chips in hand.stacks().items():
        stacks[table.seats[seat]] = chips
    return [seat for seat, chips in hand.stacks().items() if chips == 0]


def balance(tables: dict[int, Table], players: int, seats: int, rng) -> None:
    """Break the highest-numbered table while the others can seat its players; then keep every table
    within one player of the others (moved players take a random open seat)."""
    while len(tables) > 1 and len(tables) > -(-players // seats):
        broken = tables.pop(max(tables))
        for player in broken.seats.values():
            _seat(min(tables.values(), key=lambda t: (len(t.seats), t.number)), player, seats, rng)
    while True:
        longest = max(tables.values(), key=lambda t: (len(t.seats), -t.number))
        shortest = min(tables.values(), key=lambda t: (len(t.seats), t.number))
        if len(longest.seats) - len(shortest.seats) <= 1:
            return
        seat = rng.choice(sorted(longest.seats))
        _seat(shortest, longest.seats.pop(seat), seats, rng)


def _seat(table: Table, player: int, seats: int, rng) -> None:
    table.seats[rng.choice([s for s in range(1, seats + 1) if s not in table.seats])] = player


def play_tournament(game, betting, speed, size, seats, seed, strength) -> dict:
    """One freeze-out through the engine. Returns its length, bubble and final-table times (seconds)
    and one row per hand: (M, players at the table, bust-outs)."""
    rng = random.Random(seed)
    master = hashlib.sha256(f"calibrate:{game}:{betting}:{speed}:{size}:{seed}".encode()).digest()
    levels = structures.template_levels(betting, speed)
    starting_stack = structures.SPEEDS[speed][5]
    ends = list(np.cumsum([60.0 * level["duration_minutes"] for level in levels]))
    ends[-1] = math.inf
    hands_per_hour = simulator.default_hands_per_hour(game, betting)
    players = list(range(size))
    rng.shuffle(players)
    stacks = dict.fromkeys(players, starting_stack)
    tables = {n: Table(n) for n in range(1, -(-size // seats) + 1)}
    for i, player in enumerate(players):
        _seat(tables[1 + i % len(tables)], player, seats, rng)
    heap = [(0.0, n) for n in tables]
    left, chips = size, size * starting_stack
    paid = int(simulator.places_paid(size, 15))
    result = {"bubble": None, "final_table": None, "hands": 0, "rows": []}
    rows = result["rows"]
    while left > 1:
        if result["hands"] > MAX_HANDS:
            raise RuntimeError(f"no end after {MAX_HANDS} hands: {sorted(stacks.values())}")
        now, number = heapq.heappop(heap)
        table = tables.get(number)
        if table is None or table.time != now:
            continue
        index = bisect_right(ends, now)
        level = levels[index]
        if level["is_break"]:
            table.time = ends[index]
            heapq.heappush(heap, (table.time, number))
            continue
        n = len(table.seats)
        ante_pp = level["ante"] if level["ante_kind"] == "per_player" else 0
        ante_bb = level["ante"] if level["ante_kind"] == "big_blind" else 0
        forced = simulator.forced_per_hand(level["small_blind"], level["big_blind"], ante_pp, ante_bb, n)
        busted = play_hand(table, stacks, level, game, betting, left > 2, master, strength, rng)
        result["hands"] += 1
        rows.append((chips / left / forced, n, len(busted)))
        table.time += float(simulator.seconds_per_hand(n, hands_per_hour))
        for seat in busted:
            del stacks[table.seats.pop(seat)]
        left -= len(busted)
        if result["bubble"] is None and left <= paid:
            result["bubble"] = table.time
        if result["final_table"] is None and left <= seats:
            result["final_table"] = table.time
        if left > 1:
            if busted:
                balance(tables, left, seats, rng)
            heapq.heappush(heap, (table.time, number))
    result["length"] = table.time
    return result


# -- fitting and comparing --------------------------------------------------------------------------------


def fit_poisson(rows) -> tuple[float, ...]:
    """Maximum-likelihood Poisson regression of bust-outs per hand on the simulator's bust model
    terms (Newton steps, with a touch of ridge so that a range with no bust-out stays finite)."""
    data = np.asarray(rows, dtype=float)
    X = simulator.bust_features(data[:, 0], data[:, 1])
    y = data[:, 2]
    k = X.shape[1]
    beta = np.zeros(k)
    beta[0] = math.log(max(y.mean(), 1e-6))
    ridge = 1e-3 * len(y) ** 0.5 * np.eye(k)
    ridge[0, 0] = 0.0
    for _ in range(100):
        mu = np.exp(X @ beta)
        gradient = X.T @ (y - mu) - ridge @ beta
        hessian = X.T @ (X * mu[:, None]) + ridge
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.abs(step).max() < 1e-8:
            break
    return tuple(round(float(b), 4) for b in beta)


def simulator_config(game, betting, speed, size, seats):
    levels = tuple(
        simulator.LevelSpec(
            minutes=level["duration_minutes"],
            small_blind=level["small_blind"],
            big_blind=level["big_blind"],
            ante=level["ante"],
            ante_kind=level["ante_kind"],
            is_break=level["is_break"],
        )
        for level in structures.template_levels(betting, speed)
    )
    return simulator.SimulationConfig(
        game=game,
        betting=betting,
        levels=levels,
        starting_stack=structures.SPEEDS[speed][5],
        entries=size,
        seats_per_table=seats,
        hand_for_hand=False,  # the engine runs here play no hand-for-hand
    )


def error(predicted: float, actual: float) -> float:
    return (predicted - actual) / actual


def compare(runs: dict, sim_runs: int, seed: int, seats: int) -> None:
    """Print the engine's and the simulator's median length and bubble, and the errors by size."""
    print(
        f"{'speed':8} {'game':16} {'betting':12} {'size':>4} | {'engine h':>8} {'sim h':>6} {'err':>5} | "
        f"{'bubble h':>8} {'sim h':>6} {'err':>5} | {'hands/run':>9}"
    )
    errors: dict[int, list[tuple[float, float]]] = {}
    for (speed, game, betting, size), played in runs.items():
        report = simulator.simulate(simulator_config(game, betting, speed, size, seats), sim_runs, seed)
        length = statistics.median(r["length"] for r in played)
        bubble = statistics.median(r["bubble"] for r in played)
        e_length, e_bubble = error(report.length.median, length), error(report.bubble.median, bubble)
        errors.setdefault(size, []).append((e_length, e_bubble))
        print(
            f"{speed:8} {game:16} {betting:12} {size:4} | {length / 3600:8.2f} {report.length.median / 3600:6.2f} "
            f"{e_length:+5.0%} | {bubble / 3600:8.2f} {report.bubble.median / 3600:6.2f} {e_bubble:+5.0%} | "
            f"{statistics.mean(r['hands'] for r in played):9.0f}"
        )
    print("By field size: median |error| of the simulator's median, over speeds, games and bettings")
    for size, pairs in errors.items():
        print(
            f"  {size:4} players ({len(pairs)} events): length {statistics.median(abs(a) for a, _ in pairs):5.1%}, "
            f"bubble {statistics.median(abs(b) for _, b in pairs):5.1%}  "
            f"(worst {max(abs(a) for a, _ in pairs):4.0%}, {max(abs(b) for _, b in pairs):4.0%})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="9,20,45,100")
    parser.add_argument("--runs", type=int, default=4, help="engine runs per speed, game, betting and size")
    parser.add_argument("--speeds", default="turbo,regular,deep")
    parser.add_argument("--games", default=",".join(simulator.GAMES))
    parser.add_argument("--bettings", default="no_limit,pot_limit,fixed_limit")
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--sim-runs", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2, help="the shipped constants were fitted with seed 1")
    parser.add_argument(
        "--fit", action="store_true", help="fit the bust model to these runs, compare with it too"
    )
    parser.add_argument(
        "--cache", help="keep the engine runs in this file and reuse them (for fitting again)"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    cpu = time.process_time()
    sizes = [int(s) for s in args.sizes.split(",")]
    speeds, games, bettings = args.speeds.split(","), args.games.split(","), args.bettings.split(",")
    print(f"load average at start: {os.getloadavg()}")
    runs: dict[tuple, list[dict]] = {}
    hands = 0
    if args.cache and os.path.exists(args.cache):
        with open(args.cache, "rb") as file:
            runs = pickle.load(file)
        hands = sum(r["hands"] for played in runs.values() for r in played)
        print(f"  loaded {len(runs)} events, {hands} hands from {args.cache}")
    for game in games if not runs else ():
        strength = Strength(game == "courchevel_hilo", random.Random(args.seed))
        for betting in bettings:
            for speed in speeds:
                for size in sizes:
                    runs[(speed, game, betting, size)] = played = [
                        play_tournament(
                            game, betting, speed, size, args.seats, args.seed * 1000 + i, strength
                        )
                        for i in range(args.runs)
                    ]
                    hands += sum(r["hands"] for r in played)
            print(
                f"  played {game} {betting}: {hands} hands so far, {time.perf_counter() - started:.0f} s",
                flush=True,
            )
    if args.cache and not os.path.exists(args.cache):
        with open(args.cache, "wb") as file:
            pickle.dump(runs, file)
    shipped = dict(simulator.BUST_MODEL)
    print(f"\nSimulator (constants in simulator.py) against {args.runs} engine runs each, seed {args.seed}:")
    compare(runs, args.sim_runs, args.seed, args.seats)
    if args.fit:
        fitted = {}
        for game in games:
            for betting in bettings:
                fitted[(game, betting)] = fit_poisson(
                    [
                        row
                        for key, played in runs.items()
                        if key[1:3] == (game, betting)
                        for r in played
                        for row in r["rows"]
                    ]
                )
        print("\nFitted BUST_MODEL (b0 … b5), to paste into simulator.py:")
        for key, beta in fitted.items():
            print(f"    {key!r}: {beta},")
        simulator.BUST_MODEL.update(fitted)
        print("\nSimulator (fitted constants) against the same runs:")
        compare(runs, args.sim_runs, args.seed, args.seats)
        simulator.BUST_MODEL.update(shipped)
    print(
        f"\n{hands} engine hands; runtime {time.perf_counter() - started:.0f} s "
        f"({time.process_time() - cpu:.0f} s CPU); load average {os.getloadavg()}"
    )


if __name__ == "__main__":
    main()
