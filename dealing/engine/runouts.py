"""Many boards at once: every player's high and low strength on each of thousands of runouts (the
rest of the board dealt out), with NumPy, for the equity calculator (``equity.py``).

The strengths are exactly those of ``evaluator.hilo_strengths`` (same ints, same rules: two hole plus
three board cards, R2.3-R2.6) and come from the evaluator's own tables; this module only lays them out
so that one board costs a few array lookups instead of a Python call per player.

How
---
A player's best high without a flush depends only on the *rank multiset* of the board: for each of the
6,188 multisets of five ranks (6,175 that can be dealt), ``_tables().best_high[m, pair]`` is the best
strength of the hole rank pair ``pair`` with any three of the board's ranks (the evaluator's
``_PAIR_TRIPLE`` rows, maximised over the board's ten triples). Before the boards are looked at, each
player's column of "my best over my ten hole pairs" is taken once (``PlayerTables``): 6,188 entries per
player, so that on a board the player's non-flush high is **one lookup** by the board's multiset
number. The 8-or-better low also depends on ranks only, so it is a second lookup by the same number.

A flush needs a suit with three or more board cards (at most one suit can have them) and two hole
cards of that suit. Per player and suit, a table over the 8,192 masks of suited board ranks gives the
best flush; it is looked up only on the boards that have a flush suit, and the high is the larger of
the two (a flush of five ranks always beats those ranks unsuited).

Board numbers are built without sorting: runouts are combinations of the remaining deck in card order,
which is rank order (``cards.py``), so the new cards' ranks come sorted and their multiset number is a
sum of per-position lookups (the combinatorial number system); one more lookup merges in the board
cards already known.
"""

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np

from .evaluator import (
    _CARD_LOW_BIT,
    _FLUSH_PAIR_TRIPLE,
    _FLUSH_SUIT,
    _LOW3,
    _NO_LOW_MASK,
    _PAIR_IDS_OF,
    _PAIR_TRIPLE,
    _PRIMES,
    _TRIPLE_ID,
    NO_LOW,
)

BOARD = 5
# The multisets of five ranks out of 13, numbered 0..6187 (a few, five of a kind, are never dealt).
MULTISETS = comb(13 + BOARD - 1, BOARD)
# _BINOM[n, k] = C(n, k), for the combinatorial number system (multiset numbers, runout unranking).
_BINOM = np.array([[comb(n, k) for k in range(BOARD + 1)] for n in range(64)], dtype=np.int64)
_SUIT_MASKS = 1 << 13  # masks of the board ranks in one suit
_NO_FLUSH = -1


def multiset_number(sorted_ranks: np.ndarray) -> np.ndarray:
    """Number of each row of ranks (non-decreasing, 0..12) among the multisets of that many ranks:
    rank r_i at place i becomes the distinct value r_i + i, and the number is sum C(r_i + i, i + 1)."""
    number = np.zeros(len(sorted_ranks), dtype=np.int64)
    for i in range(sorted_ranks.shape[1]):
        number += _BINOM[sorted_ranks[:, i] + i, i + 1]
    return number


@cache
def _multisets(size: int) -> np.ndarray:
    """Every multiset of ``size`` ranks as sorted rows, row i being the multiset numbered i."""
    if size == 0:
        return np.zeros((1, 0), dtype=np.int64)
    rows = np.array(list(combinations_with_replacement(range(13), size)), dtype=np.int64)
    ordered = np.empty_like(rows)
    ordered[multiset_number(rows)] = rows
    return ordered


def _low_bit(rank: int) -> int:
    return _CARD_LOW_BIT[rank * 4]  # the evaluator's low bit of a card depends on its rank only


@dataclass(frozen=True)
class Tables:
    best_high: np.ndarray  # (6188, 91) int16: best non-flush strength of a hole rank pair, per multiset
    low_mask: np.ndarray  # (6188,) int64: the multiset's 8-or-better ranks, evaluator bits
    best_flush: np.ndarray  # (8192, 91) int16: best flush of a suited hole pair with those suited ranks
    flush_suit: np.ndarray  # (2**16,) int8: packed suit counts of five cards -> the 3+ suit, or -1
    low3: np.ndarray  # (256,) int64: the evaluator's _LOW3 (three lowest low ranks of a mask)


@cache
def _tables() -> Tables:
    """Built once, on the first equity asked for (some tens of milliseconds), from the evaluator's
    tables: nothing here scores a five-card hand on its own."""
    fives = _multisets(BOARD)
    primes = np.array(_PRIMES, dtype=np.int64)
    triple_ids = np.empty((MULTISETS, 10), dtype=np.int64)
    for j, (a, b, c) in enumerate(combinations(range(BOARD), 3)):
        keys = primes[fives[:, a]] * primes[fives[:, b]] * primes[fives[:, c]]
        triple_ids[:, j] = [_TRIPLE_ID[int(k)] for k in keys]
    pair_triple = np.array(_PAIR_TRIPLE, dtype=np.int16)  # (455 triples, 91 pairs)
    best_high = pair_triple[triple_ids].max(axis=1)

    low_bits = np.array([_low_bit(r) for r in range(13)], dtype=np.int64)
    low_mask = np.bitwise_or.reduce(low_bits[fives], axis=1)

    # Flushes: suited board ranks are distinct, 3 to 5 of them; a mask's best is over its triples.
    best_flush = np.full((_SUIT_MASKS, 91), _NO_FLUSH, dtype=np.int16)
    rows = {key: i for i, key in enumerate(_FLUSH_PAIR_TRIPLE)}
    flush_pair_triple = np.array(list(_FLUSH_PAIR_TRIPLE.values()), dtype=np.int16)
    masks, picks = [], []
    for size in (3, 4, 5):
        for ranks in combinations(range(13), size):
            triples = [rows[_PRIMES[a] * _PRIMES[b] * _PRIMES[c]] for a, b, c in combinations(ranks, 3)]
            masks.append(sum(1 << r for r in ranks))
            picks.append(triples + triples[:1] * (10 - len(triples)))  # pad: max is unchanged
    best_flush[masks] = flush_pair_triple[np.array(picks)].max(axis=1)

    flush_suit = np.full(1 << 16, -1, dtype=np.int8)
    flush_suit[list(_FLUSH_SUIT)] = list(_FLUSH_SUIT.values())
    return Tables(best_high, low_mask, best_flush, flush_suit, np.array(_LOW3, dtype=np.int64))


@dataclass(frozen=True)
class PlayerTables:
    """Per player, everything that depends on their hole cards, taken out of the loop over boards."""

    high: np.ndarray  # (players, 6188) int16: best non-flush high by board multiset
    low: np.ndarray  # (players, 6188) int16: best low strength (NO_LOW = 0) by board multiset
    flush: np.ndarray  # (players, 4 * 8192) int16: best flush by (suit, suited board ranks), or -1


def player_tables(holes: list[list[int]]) -> PlayerTables:
    t = _tables()
    count = len(holes)
    high = np.empty((count, MULTISETS), dtype=np.int16)
    low = np.empty((count, MULTISETS), dtype=np.int16)
    flush = np.full((count, 4 * _SUIT_MASKS), _NO_FLUSH, dtype=np.int16)
    board_masks = np.arange(256, dtype=np.int64)
    for p, hole in enumerate(holes):
        key = 1
        for card in hole:
            key *= _PRIMES[card >> 2]
        high[p] = t.best_high[:, list(_PAIR_IDS_OF[key])].max(axis=1)
        # R2.5: the best low with a pair of distinct low hole ranks is that pair plus the three lowest
        # board ranks not in it (evaluator._low); done here for all 256 board low masks at once.
        hole_mask = 0
        for card in hole:
            hole_mask |= _CARD_LOW_BIT[card]
        bits = [1 << b for b in range(8) if hole_mask >> b & 1]
        best = np.full(256, _NO_LOW_MASK, dtype=np.int64)
        for pair in (a | b for a, b in combinations(bits, 2)):
            best = np.minimum(best, pair | t.low3[board_masks & (255 ^ pair)])
        by_mask = np.where(best < 256, 255 - best, NO_LOW)
        low[p] = by_mask[t.low_mask]
        for suit in range(4):
            suited = [card >> 2 for card in hole if card & 3 == suit]
            if len(suited) >= 2:
                key = 1
                for rank in suited:
                    key *= _PRIMES[rank]
                columns = list(_PAIR_IDS_OF[key])
                flush[p, suit * _SUIT_MASKS : (suit + 1) * _SUIT_MASKS] = t.best_flush[:, columns].max(axis=1)
    return PlayerTables(high, low, flush)


@lru_cache(maxsize=4)
def all_runouts(deck_size: int, count: int) -> np.ndarray:
    """Every choice of ``count`` cards among ``deck_size`` as rows of increasing positions, in colex
    order (by the largest position, then the next...). Colex lets each level reuse the previous one:
    the choices of k - 1 below t are the first C(t, k - 1) rows of the choices of k - 1 below n."""
    rows = np.zeros((1, 0), dtype=np.uint8)
    for k in range(1, count + 1):
        out = np.empty((comb(deck_size, k), k), dtype=np.uint8)
        start = 0
        for top in range(k - 1, deck_size):
            n = comb(top, k - 1)
            out[start : start + n, : k - 1] = rows[:n]
            out[start : start + n, k - 1] = top
            start += n
        rows = out
    rows.flags.writeable = False  # cached and shared between calls
    return rows


def unrank_runouts(numbers: np.ndarray, count: int) -> np.ndarray:
    """The runouts with these colex numbers (as ``all_runouts`` orders them), without listing them
    all: for sampling, a uniform number is a uniform board."""
    numbers = numbers.astype(np.int64, copy=True)
    out = np.empty((len(numbers), count), dtype=np.uint8)
    for k in range(count, 0, -1):
        top = np.searchsorted(_BINOM[:, k], numbers, side="right") - 1
        numbers -= _BINOM[top, k]
        out[:, k - 1] = top
    return out


class Runouts:
    """The remaining deck and the known board of one equity question, ready to score any block of
    runouts (rows of positions in ``deck``, increasing) for every player."""

    def __init__(self, holes: list[list[int]], known: list[int], deck: list[int]):
        self.players = player_tables(holes)
        self.deck = np.array(deck, dtype=np.int64)
        self.to_come = BOARD - len(known)
        t = _tables()
        ranks = self.deck >> 2
        # One int per card and place holds what a board's keys need, so that a board costs one lookup
        # and one add per card to come: bits 16 and up, the multiset number of the new cards' ranks
        # (sorted, since runouts list positions in card order, so place i holds the i-th lowest rank:
        # C(rank + i, i + 1) per place); bits 0-15, its suit counts packed a nibble per suit (as the
        # evaluator does; five cards never carry out of a nibble). The known cards' counts go into
        # place 0 (with nothing to come, into every board directly).
        nibble = 1 << 4 * (self.deck & 3)
        self._known_key = sum(1 << 4 * (c & 3) for c in known)
        self._place = [(_BINOM[ranks + i, i + 1] << 16) + nibble for i in range(self.to_come)]
        if self._place:
            self._place[0] = self._place[0] + self._known_key
        # The full board's multiset number from the new cards' number: merge in the known ranks.
        new = _multisets(self.to_come)
        known_ranks = np.tile(np.array([c >> 2 for c in known], dtype=np.int64), (len(new), 1))
        self._merge = multiset_number(np.sort(np.concatenate([known_ranks, new], axis=1), axis=1))
        # Suited ranks as one 52-bit int, 13 bits per suit, for the boards with a flush suit.
        self._bits = np.left_shift(1, 13 * (self.deck & 3) + ranks)
        self._known_bits = sum(1 << (13 * (c & 3) + (c >> 2)) for c in known)
        self._flush_suit = t.flush_suit

    def strengths(self, runouts: np.ndarray, low: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
        """(high, low): arrays (players, boards) of int16 strengths, exactly as ``hilo_strengths``
        gives them (low is None when not asked for)."""
        if self.to_come:
            key = self._place[0][runouts[:, 0]]
            for i in range(1, self.to_come):
                key += self._place[i][runouts[:, i]]
        else:
            key = np.full(len(runouts), self._known_key, dtype=np.int64)
        multiset = self._merge[key >> 16]
        # np.take along an axis: several times faster than fancy indexing high[:, multiset].
        high = np.take(self.players.high, multiset, axis=1)
        suit = self._flush_suit[key & 0xFFFF]
        flushed = np.flatnonzero(suit >= 0)
        if len(flushed):
            cards = runouts[flushed]
            bits = np.full(len(flushed), self._known_bits, dtype=np.int64)
            for i in range(self.to_come):
                bits += self._bits[cards[:, i]]
            shift = suit[flushed].astype(np.int64)
            flush_key = shift * _SUIT_MASKS + ((bits >> (13 * shift)) & (_SUIT_MASKS - 1))
            flushes = np.take(self.players.flush, flush_key, axis=1)
            for row, flush in zip(high, flushes):
                row[flushed] = np.maximum(row[flushed], flush)
        return high, (np.take(self.players.low, multiset, axis=1) if low else None)
