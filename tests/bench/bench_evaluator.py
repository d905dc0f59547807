"""Courchevel hand-evaluation speed, ours vs pokerkit 0.7.7, on random deals (one core).

    .venv/bin/python tests/bench/bench_evaluator.py [--deals 50000] [--pokerkit-deals 400]

Each figure is evaluations a second of one player's hand (five hole cards, five board cards, exactly
two plus three, R2.3); every deal has a new board unless the row says it is shared. Figures are
printed, never asserted: goals live in the issue, not in the test suite.
"""

import argparse
import importlib.metadata
import os
import random
import sys
import time
from itertools import combinations

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from dealing.engine.cards import CODES
from dealing.engine.evaluator import (
    _BEST_WITH_PAIR,
    _CARD_PRIME,
    _FLUSH,
    _HIGH,
    evaluate_hand,
    evaluate_high,
    evaluate_low,
    high_strength,
    hilo_strengths,
    prepare_board,
)


def rate(function, deals, repeat=5) -> float:
    """Best of ``repeat`` runs, in CPU time of this process: the machine may be shared, and a run
    descheduled half the time would otherwise halve the figure."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for hole, board in deals:
            function(hole, board)
        best = min(best, time.process_time() - start)
    return len(deals) / best


def plain_loop_high(hole, board):
    """The straightforward way: each of the 100 two-plus-three combinations scored by a five-card
    lookup (the same prime-product tables), the best kept. Needs a better idea to be fast."""
    p = _CARD_PRIME
    best = -1
    for a, b in combinations(hole, 2):
        for c, d, e in combinations(board, 3):
            key = p[a] * p[b] * p[c] * p[d] * p[e]
            suit = a & 3
            if b & 3 == suit and c & 3 == suit and d & 3 == suit and e & 3 == suit:
                strength = _FLUSH[key]
            else:
                strength = _HIGH[key]
            if strength > best:
                best = strength
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50_000)
    parser.add_argument("--pokerkit-deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    int_deals = []
    for _ in range(args.deals):
        cards = rng.sample(range(52), 10)
        int_deals.append((cards[:5], cards[5:]))
    code_deals = [([CODES[c] for c in hole], [CODES[c] for c in board]) for hole, board in int_deals]

    print(f"Courchevel evaluation, {args.deals:,} random deals, Python {sys.version.split()[0]}, one core")
    print()
    start = time.process_time()
    for hole, board in int_deals:
        hilo_strengths(hole, board)
    cold = args.deals / (time.process_time() - start)
    print(f"  board tables filled lazily: {len(_BEST_WITH_PAIR):,} of 6,175 board rank multisets seen")

    rows = []
    rows.append(("ours: high only, ints (high_strength)", rate(high_strength, int_deals)))
    rows.append(("ours: high + low, ints (hilo_strengths)", rate(hilo_strengths, int_deals)))
    rows.append(("ours: high + low, ints, first pass (tables cold)", cold))
    rows.append(("ours: high only, codes -> HighValue (evaluate_high)", rate(evaluate_high, code_deals)))
    rows.append(("ours: high + low, codes -> values (evaluate_hand)", rate(evaluate_hand, code_deals)))

    # A showdown: six players share one board, prepared once.
    tables = []
    for _ in range(max(1, args.deals // 6)):
        cards = rng.sample(range(52), 35)
        tables.append(([cards[i : i + 5] for i in range(5, 35, 5)], cards[:5]))

    def showdown(holes, board):
        prepared = prepare_board(board)
        for hole in holes:
            hilo_strengths(hole, prepared)

    rows.append(("ours: high + low, ints, 6 players per board", rate(showdown, tables) * 6))
    code_tables = [
        ([[CODES[c] for c in hole] for hole in holes], [CODES[c] for c in board]) for holes, board in tables
    ]

    def showdown_values(holes, board):
        for hole in holes:  # as the hand state machine calls it
            evaluate_high(hole, board)
            evaluate_low(hole, board)

    rows.append(
        ("ours: evaluate_high + evaluate_low, 6 players per board", rate(showdown_values, code_tables) * 6)
    )
    sample = int_deals[: max(1, args.deals // 5)]
    rows.append(
        ("plain loop over the 100 combinations, table lookups, high only", rate(plain_loop_high, sample))
    )

    try:
        import pokerkit
    except ImportError:  # pragma: no cover - pokerkit is a test dependency
        pokerkit = None
    if pokerkit is not None:
        pk_deals = [("".join(hole), "".join(board)) for hole, board in code_deals[: args.pokerkit_deals]]

        def pk_high(hole, board):
            return pokerkit.OmahaHoldemHand.from_game(hole, board)

        def pk_hilo(hole, board):
            high = pokerkit.OmahaHoldemHand.from_game(hole, board)
            try:
                low = pokerkit.OmahaEightOrBetterLowHand.from_game(hole, board)
            except ValueError:  # no qualifying low
                low = None
            return high, low

        version = importlib.metadata.version("pokerkit")
        rows.append(
            (f"pokerkit {version}: high only (OmahaHoldemHand.from_game)", rate(pk_high, pk_deals, repeat=1))
        )
        rows.append(("pokerkit: high + low (+ OmahaEightOrBetterLowHand)", rate(pk_hilo, pk_deals, repeat=1)))

    width = max(len(name) for name, _ in rows)
    print()
    print(f"  {'what':<{width}}  evaluations/s")
    for name, per_second in rows:
        print(f"  {name:<{width}}  {per_second:>13,.0f}")
    ours = dict(rows)
    if pokerkit is not None:
        ratio = (
            ours["ours: high + low, ints (hilo_strengths)"]
            / ours["pokerkit: high + low (+ OmahaEightOrBetterLowHand)"]
        )
        print(f"\n  high + low, ours (ints) / pokerkit: {ratio:,.0f}x")


if __name__ == "__main__":
    main()
