"""Statistical check of the RULES section 7 shuffle: is every card equally likely everywhere?

    .venv/bin/python tests/bench/check_shuffle.py [--decks 100000] [--master-seed HEX]

Decks come from hand seeds derived from one master seed (section 7, step 5), table 1, hands 0..N-1,
exactly as a rehearsal tournament deals them. Three tests, each printed with its statistic and p-value:

1. Card by position: a 52 × 52 table of how often each card lands at each position. Every row and
   column sums to N, so under a uniform shuffle the Pearson statistic is chi-square with 51² df.
   Also the smallest of the 52 per-position chi-square p-values (51 df each), Bonferroni-corrected.
2. The first two cards together (the pair the first player is dealt from): 52 × 51 ordered pairs,
   each equally likely; chi-square with 2651 df. Catches a dependence between neighbouring cards
   that card-by-position counts cannot see.
3. Permutation parity: exactly half of all 52! orders are even. A binomial test on the count of
   even decks catches shuffles that do too few or systematically paired swaps.

Small p-values (say < 0.001) would mean a bias. Nothing is asserted: run it, read it.
"""

import argparse
import os
import sys
import time

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from dealing.engine.shuffle import UNSHUFFLED_DECK, hand_seed, shuffled_deck

INDEX = {code: i for i, code in enumerate(UNSHUFFLED_DECK)}


def parity(order: list[int]) -> int:
    """0 for an even permutation, 1 for odd: (n - number of cycles) mod 2."""
    seen = [False] * len(order)
    cycles = 0
    for start in range(len(order)):
        if not seen[start]:
            cycles += 1
            i = start
            while not seen[i]:
                seen[i] = True
                i = order[i]
    return (len(order) - cycles) & 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=100_000)
    parser.add_argument("--master-seed", default="5e" * 32, help="64 hex digits")
    args = parser.parse_args()
    master = bytes.fromhex(args.master_seed)
    n = args.decks

    start = time.perf_counter()
    decks = np.empty((n, 52), dtype=np.int16)
    odd = 0
    for hand in range(n):
        order = [INDEX[c] for c in shuffled_deck(hand_seed(master, 1, hand))]
        decks[hand] = order
        odd += parity(order)
    elapsed = time.perf_counter() - start
    print(
        f"{n:,} decks from master seed {args.master_seed[:16]}…, table 1, hands 0..{n - 1} "
        f"({elapsed:.1f} s, {n / elapsed:,.0f} decks/s)"
    )
    print()

    # 1. Card by position.
    counts = np.zeros((52, 52), dtype=np.int64)  # [position, card]
    for position in range(52):
        counts[position] = np.bincount(decks[:, position], minlength=52)
    expected = n / 52
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    df = 51 * 51
    p = stats.chi2.sf(chi2, df)
    per_position = [stats.chisquare(counts[pos]).pvalue for pos in range(52)]
    worst = int(np.argmin(per_position))
    print("1. card by position (52 x 52 counts)")
    print(f"   chi-square = {chi2:,.1f}, df = {df}, p = {p:.4f}")
    print(f"   counts per cell: expected {expected:,.1f}, min {counts.min()}, max {counts.max()}")
    print(
        f"   smallest per-position p = {per_position[worst]:.4f} (position {worst}), "
        f"Bonferroni x52 = {min(1.0, per_position[worst] * 52):.4f}"
    )
    print(
        f"   per-position p-values uniform? Kolmogorov-Smirnov p = {stats.kstest(per_position, 'uniform').pvalue:.4f}"
    )
    print()

    # 2. The first two cards as an ordered pair.
    pairs = decks[:, 0].astype(np.int64) * 52 + decks[:, 1]
    pair_counts = np.bincount(pairs, minlength=52 * 52).reshape(52, 52)
    observed = pair_counts[~np.eye(52, dtype=bool)]  # a card cannot follow itself
    result = stats.chisquare(observed)
    print("2. first two cards as an ordered pair (52 x 51 cells)")
    print(f"   chi-square = {result.statistic:,.1f}, df = {observed.size - 1}, p = {result.pvalue:.4f}")
    print(f"   expected {n / observed.size:.1f} per cell, min {observed.min()}, max {observed.max()}")
    print()

    # 3. Permutation parity.
    even = n - odd
    binomial = stats.binomtest(even, n, 0.5)
    print("3. permutation parity")
    print(f"   even decks {even:,} of {n:,} ({even / n:.4f}), two-sided binomial p = {binomial.pvalue:.4f}")


if __name__ == "__main__":
    main()
