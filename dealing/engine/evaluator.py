"""Hand evaluation for Courchevel: exactly two of the five hole cards with exactly three of the five
board cards (R2.3). High hands rank as standard poker (R2.4); lows are ace-to-five, 8 or better (R2.5),
and a player may use different hole pairs for the high and the low (R2.6).

Public functions
----------------
``evaluate_high(hole, board) -> HighValue`` and ``evaluate_low(hole, board) -> LowValue | None`` take
five hole and five board card codes (``["As", "Td", ...]``). Values compare with ``<``, ``==``, ``>``
(greater is better), name themselves as a dealer says them (``.name``: "Full house, kings full of
sevens", "8-6-4-2-A low") and give the five cards used (``.cards``).

Fast paths, for a whole showdown:

- ``evaluate_hand(hole, board) -> (HighValue, LowValue | None)`` parses once and does both halves;
  use it rather than ``evaluate_high`` then ``evaluate_low`` for a Hi/Lo player.
- On pre-parsed card ints (``cards.parse_cards``), plain ints, greater is better:
  ``high_strength(hole, board)`` (0 = 7-5-4-3-2 high … 7461 = royal flush),
  ``low_strength(hole, board)`` (``NO_LOW`` = 0 when no low qualifies, 7 = 8-7-6-5-4 … 224 = 5-4-3-2-A) and
  ``hilo_strengths(hole, board) -> (high, low)``. They check nothing: validate cards once, at the door.
  ``board`` may be five ints or ``prepare_board(board_ints)``, made once and shared by every player.
  ``HighValue.from_strength(s)`` / ``LowValue.from_strength(s)`` give the named value back (no cards).

  >>> board = prepare_board(parse_cards(["Ks", "7h", "7d", "4c", "5c"]))
  >>> high, low = hilo_strengths(parse_cards(["Kh", "Kd", "7s", "2c", "3c"]), board)
  >>> HighValue.from_strength(high).name, LowValue.from_strength(low).name
  ('Full house, kings full of sevens', '7-5-4-3-2 low')

How it is fast
--------------
A brute-force evaluator scores 10 hole pairs × 10 board triples = 100 five-card hands one by one.
Instead:

- High, non-flush: the value of five cards depends only on their ranks. Each rank gets a prime, so
  a rank multiset's key is the product of its primes. A table built at import maps each of the
  6,175 five-rank keys to its strength. For a board, one row of 91 small ints gives, for every
  possible pair of hole ranks, the best strength with any three of the board; rows are filled on
  first sight of each board rank multiset (6,175 of them, a few tens of µs each) and kept. A
  player's high is then the maximum of that row over the distinct rank pairs of their hole cards
  (at most ten lookups, looked up by the hole's own rank key), all done by C builtins.
- Flushes only where one can exist: a suit with at least three board cards and two hole cards,
  by the same kind of row over the suited board ranks.
- Low: an 8-or-better low is a set of five distinct ranks among A..8, i.e. five bits of a byte, and
  comparing lows from the highest card down is comparing those bytes as integers (smaller is
  better). For a pair of hole ranks the best three board ranks are simply the three lowest board
  ranks not in the pair: one table lookup. So the low costs at most ten steps and no search.
- The five cards used (``.cards``) are found only for the values returned, not while comparing.

The brute-force reference lives in tests/engine/test_evaluator.py, which checks this module against
it (and against pokerkit) on thousands of random deals; tests/bench/bench_evaluator.py prints speeds.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement, product
from operator import itemgetter

from .cards import _INDEX, BOARD_CARDS, CODES, HOLE_CARDS, RANK_NAMES, RANKS, CardError, parse_cards

HIGH_CATEGORIES = (
    "High card",
    "One pair",
    "Two pair",
    "Three of a kind",
    "Straight",
    "Flush",
    "Full house",
    "Four of a kind",
    "Straight flush",
)
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
# How many tie-break ranks each category keeps (a straight is known by its top card).
_KEY_LENGTH = (5, 4, 3, 3, 1, 5, 2, 2, 1)

_PLURAL = {
    "2": "twos",
    "3": "threes",
    "4": "fours",
    "5": "fives",
    "6": "sixes",
    "7": "sevens",
    "8": "eights",
    "9": "nines",
    "T": "tens",
    "J": "jacks",
    "Q": "queens",
    "K": "kings",
    "A": "aces",
}
_SINGULAR = RANK_NAMES  # one owner for the rank names (cards.py)
NO_LOW = 0


def _encode_high(category: int, ranks: tuple[int, ...]) -> int:
    strength = category
    for i in range(5):
        strength = strength << 4 | (ranks[i] if i < len(ranks) else 0)
    return strength


@dataclass(frozen=True, order=True, slots=True)
class HighValue:
    """A high hand. ``strength`` orders hands, 0 (7-5-4-3-2) .. 7461 (royal flush); ``cards`` are the
    five cards used."""

    strength: int
    cards: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_strength(cls, strength: int, cards: tuple[str, ...] = ()) -> "HighValue":
        return cls(strength, cards)

    @property
    def key(self) -> tuple[int, ...]:
        """(category 0..8, tie-break ranks…), ranks 0 (deuce) … 12 (ace)."""
        code = _CLASS_CODE[self.strength]
        category = code >> 20
        return (category, *((code >> (16 - 4 * i)) & 15 for i in range(_KEY_LENGTH[category])))

    @property
    def category(self) -> str:
        return HIGH_CATEGORIES[_CLASS_CODE[self.strength] >> 20]

    @property
    def name(self) -> str:
        cat, *tie = self.key
        ranks = [RANKS[r] for r in tie]
        if cat == STRAIGHT_FLUSH:
            return "Royal flush" if ranks[0] == "A" else f"Straight flush, {_SINGULAR[ranks[0]]} high"
        if cat == QUADS:
            return f"Four of a kind, {_PLURAL[ranks[0]]}"
        if cat == FULL_HOUSE:
            return f"Full house, {_PLURAL[ranks[0]]} full of {_PLURAL[ranks[1]]}"
        if cat == FLUSH:
            return f"Flush, {_SINGULAR[ranks[0]]} high"
        if cat == STRAIGHT:
            return f"Straight, {_SINGULAR[ranks[0]]} high"
        if cat == TRIPS:
            return f"Three of a kind, {_PLURAL[ranks[0]]}"
        if cat == TWO_PAIR:
            return f"Two pair, {_PLURAL[ranks[0]]} and {_PLURAL[ranks[1]]}"
        if cat == ONE_PAIR:
            return f"One pair, {_PLURAL[ranks[0]]}"
        return f"High card, {_SINGULAR[ranks[0]]}"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, order=True, slots=True)
class LowValue:
    """A qualifying ace-to-five low (R2.5). ``strength`` is ``255 - mask`` where the mask has bit 0
    for the ace, bit 1 for the deuce … bit 7 for the eight, so greater is better: 5-4-3-2-A is best."""

    strength: int
    cards: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_strength(cls, strength: int, cards: tuple[str, ...] = ()) -> "LowValue | None":
        return None if strength == NO_LOW else cls(strength, cards)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The low's ranks from the highest down, ace as 1: (8, 6, 4, 2, 1)."""
        mask = 255 - self.strength
        return tuple(bit + 1 for bit in range(7, -1, -1) if mask >> bit & 1)

    @property
    def key(self) -> tuple[int, ...]:
        """The negated ranks from the highest down (ace = 1): greater is better."""
        return tuple(-r for r in self.ranks)

    @property
    def name(self) -> str:
        return "-".join("A" if r == 1 else str(r) for r in self.ranks) + " low"

    def __str__(self) -> str:
        return self.name


# ---------------------------------------------------------------------------------------------
# Tables, built once at import (about a tenth of a second of CPU).

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_CARD_PRIME = [_PRIMES[c >> 2] for c in range(52)]
# Low bit of a card: ace -> bit 0, deuce..eight -> bits 1..7, nine and up -> 0 (never in a low).
_CARD_LOW_BIT = [1 if c >> 2 == 12 else (1 << ((c >> 2) + 1) if c >> 2 <= 6 else 0) for c in range(52)]
# Suit counts of a few cards packed in one int, a nibble per suit, so that five cards add up.
_CARD_SUIT_NIBBLE = [1 << 4 * (c & 3) for c in range(52)]


def _rank_code(ranks: tuple[int, ...], flush: bool) -> int:
    """Encoded value of five ranks (0..12), flush or not. Only used to build the tables."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    ordered = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    top = None
    if len(counts) == 5:
        if ordered[0] - ordered[4] == 4:
            top = ordered[0]
        elif ordered == (12, 3, 2, 1, 0):  # A-2-3-4-5: the ace plays low (R2.4)
            top = 3
    if top is not None:
        return _encode_high(STRAIGHT_FLUSH if flush else STRAIGHT, (top,))
    if flush:
        return _encode_high(FLUSH, ordered)
    if shape[0] == 4:
        return _encode_high(QUADS, ordered)
    if shape == [3, 2]:
        return _encode_high(FULL_HOUSE, ordered)
    if shape[0] == 3:
        return _encode_high(TRIPS, ordered)
    if shape == [2, 2, 1]:
        return _encode_high(TWO_PAIR, ordered)
    if shape[0] == 2:
        return _encode_high(ONE_PAIR, ordered)
    return _encode_high(HIGH_CARD, ordered)


def _prime_key(ranks) -> int:
    key = 1
    for r in ranks:
        key *= _PRIMES[r]
    return key


_FIVE_RANKS = [r for r in combinations_with_replacement(range(13), 5) if r[0] != r[4]]  # 6,175
_DISTINCT_FIVE = [r for r in _FIVE_RANKS if len(set(r)) == 5]  # 1,287
# The 7,462 distinct high values in order: a hand's strength is its place in this list.
_PLAIN_CODE = {r: _rank_code(r, False) for r in _FIVE_RANKS}
_FLUSH_CODE = {r: _rank_code(r, True) for r in _DISTINCT_FIVE}
_CLASS_CODE = sorted({*_PLAIN_CODE.values(), *_FLUSH_CODE.values()})
_CLASS_OF_CODE = {code: i for i, code in enumerate(_CLASS_CODE)}
_HIGH = {_prime_key(r): _CLASS_OF_CODE[code] for r, code in _PLAIN_CODE.items()}  # any five ranks
_FLUSH = {_prime_key(r): _CLASS_OF_CODE[code] for r, code in _FLUSH_CODE.items()}  # five suited

# Pair and triple rank multisets: 91 pairs (r1 <= r2) and 455 triples. _PAIR_TRIPLE[t][p] is the
# non-flush strength of pair p with triple t (-1 where that would need five of a rank).
_PAIR_RANKS = list(combinations_with_replacement(range(13), 2))
_PAIR_KEYS = [_prime_key(p) for p in _PAIR_RANKS]
_TRIPLE_ID = {_prime_key(t): i for i, t in enumerate(combinations_with_replacement(range(13), 3))}
_PAIR_TRIPLE = [[_HIGH.get(p * t, -1) for p in _PAIR_KEYS] for t in _TRIPLE_ID]
_PAIR_ID = {key: i for i, key in enumerate(_PAIR_KEYS)}
# Rank multiset of two to five cards (prime key) -> the distinct pairs (ids) two of them can make.
_PAIR_IDS_OF = {
    _prime_key(r): tuple(sorted({_PAIR_ID[_PRIMES[a] * _PRIMES[b]] for a, b in combinations(r, 2)}))
    for n in (2, 3, 4, 5)
    for r in combinations_with_replacement(range(13), n)
    if r[0] != r[-1] or n < 5
}
# The same as one C call that fetches those pairs' entries from a board's row, as a tuple (a lone
# pair is fetched twice, so that the result is always a tuple).
_PAIR_GETTER = {
    key: itemgetter(*ids) if len(ids) > 1 else itemgetter(ids[0], ids[0]) for key, ids in _PAIR_IDS_OF.items()
}
# Board rank multiset (prime key) -> for each of the 91 pairs, the best non-flush strength with any
# three of the board. Filled on first sight of each of the 6,175 board multisets (a few tens of
# µs each), so that a player's high is then a handful of lookups in one small list.
_BEST_WITH_PAIR: dict[int, list[int]] = {}
# The same for flushes: suited board ranks (3 to 5 of them) -> best flush strength for each pair
# of suited hole ranks (-1 for a pocket pair, which cannot be suited).
_FLUSH_PAIR_TRIPLE = {
    _prime_key(t): [_FLUSH.get(p * _prime_key(t), -1) for p in _PAIR_KEYS] for t in combinations(range(13), 3)
}
_BEST_FLUSH_WITH_PAIR: dict[int, list[int]] = {}


def _best_with_pair(board_key: int, board) -> list[int]:
    row = _BEST_WITH_PAIR.get(board_key)
    if row is None:
        # A paired board has fewer than ten distinct rank triples (at least two, even for quads).
        triple_ids = {
            _TRIPLE_ID[_CARD_PRIME[a] * _CARD_PRIME[b] * _CARD_PRIME[c]] for a, b, c in combinations(board, 3)
        }
        row = _BEST_WITH_PAIR[board_key] = list(map(max, *(_PAIR_TRIPLE[i] for i in triple_ids)))
    return row


def _best_flush_with_pair(suited_board) -> list[int]:
    key = 1
    for c in suited_board:
        key *= _CARD_PRIME[c]
    row = _BEST_FLUSH_WITH_PAIR.get(key)
    if row is None:
        columns = [
            _FLUSH_PAIR_TRIPLE[_CARD_PRIME[a] * _CARD_PRIME[b] * _CARD_PRIME[c]]
            for a, b, c in combinations(suited_board, 3)
        ]
        row = _BEST_FLUSH_WITH_PAIR[key] = list(map(max, *columns)) if len(columns) > 1 else list(columns[0])
    return row


# Packed suit counts of five cards -> the suit with three or more (at most one can), for flushes.
_FLUSH_SUIT = {
    sum(n << 4 * s for s, n in enumerate(counts)): next(s for s in range(4) if counts[s] >= 3)
    for counts in product(range(6), repeat=4)
    if sum(counts) == 5 and max(counts) >= 3
}

_NO_LOW_MASK = 1 << 9  # anything >= 256 means "no qualifying low"


def _lowest_three_bits(mask: int) -> int:
    picked = 0
    for bit in range(8):
        if mask >> bit & 1:
            picked |= 1 << bit
            if picked.bit_count() == 3:
                return picked
    return _NO_LOW_MASK


_LOW3 = [_lowest_three_bits(m) for m in range(256)]  # board low mask -> its best three lows
_PAIRS_OF = [  # hole low mask -> every two-rank sub-mask
    [(1 << a) | (1 << b) for a, b in combinations([i for i in range(8) if m >> i & 1], 2)] for m in range(256)
]
_NOT = [255 ^ m for m in range(256)]


# ---------------------------------------------------------------------------------------------
# The fast paths on card ints.


class Board:
    """What every player's evaluation needs from one board of five card ints, computed once."""

    __slots__ = ("_flush_row", "_triples", "cards", "flush_cards", "flush_suit", "low_mask", "row")

    def __init__(self, board):
        b0, b1, b2, b3, b4 = self.cards = tuple(board)
        p = _CARD_PRIME
        key = p[b0] * p[b1] * p[b2] * p[b3] * p[b4]
        self.row = _BEST_WITH_PAIR.get(key) or _best_with_pair(key, self.cards)
        low = _CARD_LOW_BIT
        self.low_mask = low[b0] | low[b1] | low[b2] | low[b3] | low[b4]
        nib = _CARD_SUIT_NIBBLE
        self.flush_suit = suit = _FLUSH_SUIT.get(nib[b0] + nib[b1] + nib[b2] + nib[b3] + nib[b4], -1)
        self.flush_cards = () if suit < 0 else tuple(c for c in self.cards if c & 3 == suit)
        self._flush_row = self._triples = None

    @property
    def triples(self) -> tuple[list[tuple[int, int, int]], list[int]]:
        """The ten board triples and their rank keys, to name the cards of an answer."""
        if self._triples is None:
            p = _CARD_PRIME
            triples = list(combinations(self.cards, 3))
            self._triples = triples, [p[a] * p[b] * p[c] for a, b, c in triples]
        return self._triples

    @property
    def flush_row(self) -> list[int]:
        if self._flush_row is None:
            self._flush_row = _best_flush_with_pair(self.flush_cards)
        return self._flush_row


prepare_board = Board


def _high(hole, board: Board) -> int:
    """Best non-flush strength by the board's row; then a flush, only if two hole cards of the
    board's three-plus suit can make one (R2.3)."""
    h0, h1, h2, h3, h4 = hole
    p = _CARD_PRIME
    best = max(_PAIR_GETTER[p[h0] * p[h1] * p[h2] * p[h3] * p[h4]](board.row))
    suit = board.flush_suit
    if suit >= 0:
        suited = [c for c in hole if c & 3 == suit]
        if len(suited) >= 2:
            key = 1
            for c in suited:
                key *= p[c]
            flush = max(_PAIR_GETTER[key](board.flush_row))
            if flush > best:
                return flush
    return best


def _low(hole, board: Board) -> tuple[int, int]:
    """(best low mask, hole pair mask used); the low mask is >= 256 when no low qualifies."""
    h0, h1, h2, h3, h4 = hole
    low = _CARD_LOW_BIT
    board_mask = board.low_mask
    best, best_pair = _NO_LOW_MASK, 0
    for pair in _PAIRS_OF[low[h0] | low[h1] | low[h2] | low[h3] | low[h4]]:
        mask = pair | _LOW3[board_mask & _NOT[pair]]
        if mask < best:
            best, best_pair = mask, pair
    return best, best_pair


@lru_cache(maxsize=64)
def _cached_board(board: tuple[int, ...]) -> Board:
    return Board(board)


def high_strength(hole, board) -> int:
    """Best high strength, 0 (7-5-4-3-2 high) .. 7461 (royal flush), of pre-parsed card ints.
    ``board`` is five card ints or a ``prepare_board(...)`` result (faster for several players)."""
    return _high(hole, board if isinstance(board, Board) else Board(board))


def low_strength(hole, board) -> int:
    """Best 8-or-better low strength (greater is better) of pre-parsed card ints, or NO_LOW (0)."""
    mask = _low(hole, board if isinstance(board, Board) else Board(board))[0]
    return NO_LOW if mask >= 256 else 255 - mask


def hilo_strengths(hole, board) -> tuple[int, int]:
    """(high_strength, low_strength) of one player in one call (R2.6: each with its own pair)."""
    if not isinstance(board, Board):
        board = Board(board)
    mask = _low(hole, board)[0]
    return _high(hole, board), (NO_LOW if mask >= 256 else 255 - mask)


def _best_flush(hole, board: Board) -> tuple[int, tuple[int, ...]]:
    """The best flush and its five cards, for the answer (the fast path only needs its strength);
    (-1, ()) when the hole has fewer than two cards of the board's suit."""
    suited = [c for c in hole if c & 3 == board.flush_suit]
    best, cards = -1, ()
    for a, b in combinations(suited, 2):
        for t in combinations(board.flush_cards, 3):
            strength = _FLUSH[
                _CARD_PRIME[a] * _CARD_PRIME[b] * _CARD_PRIME[t[0]] * _CARD_PRIME[t[1]] * _CARD_PRIME[t[2]]
            ]
            if strength > best:
                best, cards = strength, (a, b, *t)
    return best, cards


def _high_value(hole, board: Board) -> HighValue:
    """The best high as a value with its five cards (only for answers: a few more steps)."""
    h0, h1, h2, h3, h4 = hole
    p = _CARD_PRIME
    key = p[h0] * p[h1] * p[h2] * p[h3] * p[h4]
    strengths = _PAIR_GETTER[key](board.row)
    strength = max(strengths)
    if board.flush_suit >= 0 and _high(hole, board) > strength:
        flush, (a, b, c, d, e) = _best_flush(hole, board)
        return HighValue(flush, (CODES[a], CODES[b], CODES[c], CODES[d], CODES[e]))
    low_rank, high_rank = _PAIR_RANKS[_PAIR_IDS_OF[key][strengths.index(strength)]]
    ranks = [h0 >> 2, h1 >> 2, h2 >> 2, h3 >> 2, h4 >> 2]
    i = ranks.index(low_rank)
    a, b = hole[i], hole[ranks.index(high_rank, i + 1) if high_rank == low_rank else ranks.index(high_rank)]
    triples, triple_keys = board.triples
    c, d, e = triples[list(map(_HIGH.__getitem__, map((p[a] * p[b]).__mul__, triple_keys))).index(strength)]
    return HighValue(strength, (CODES[a], CODES[b], CODES[c], CODES[d], CODES[e]))


_BITS_OF = [[1 << bit for bit in range(8) if m >> bit & 1] for m in range(256)]


def _low_value(hole, board: Board) -> LowValue | None:
    mask, pair = _low(hole, board)
    if mask >= 256:
        return None
    hole_by_bit = {_CARD_LOW_BIT[c]: c for c in hole}
    board_by_bit = {_CARD_LOW_BIT[c]: c for c in board.cards}
    used = [hole_by_bit[bit] for bit in _BITS_OF[pair]] + [board_by_bit[bit] for bit in _BITS_OF[mask ^ pair]]
    return LowValue(255 - mask, tuple(CODES[c] for c in used))


@cache
def high_name(strength: int) -> str:
    """``HighValue.from_strength(strength).name``, remembered (7,462 values at most)."""
    return HighValue(strength).name


@cache
def low_name(strength: int) -> str:
    """``LowValue.from_strength(strength).name`` of a qualifying low, remembered (56 values at most)."""
    return LowValue(strength).name


# The best high / qualifying low (or None) with its five cards, of pre-parsed card ints on a prepared
# board: for the winners of a showdown, which already has both.
high_value = _high_value
low_value = _low_value


# ---------------------------------------------------------------------------------------------
# The public functions on card codes.


def _check(hole, board) -> tuple[list[int], list[int]]:
    """Parse five hole and five board codes, all different (R2.1, R2.2). The common case is a dict
    lookup per card; anything odd goes through the strict parser for a precise message."""
    if not isinstance(hole, (list, tuple, str)):
        hole = list(hole) if isinstance(hole, Iterable) else hole
    if not isinstance(board, (list, tuple, str)):
        board = list(board) if isinstance(board, Iterable) else board
    try:
        hole_cards = list(map(_INDEX.__getitem__, hole))
        board_cards = list(map(_INDEX.__getitem__, board))
    except (KeyError, TypeError):
        hole_cards = board_cards = []
    if (
        len(hole_cards) != HOLE_CARDS
        or len(board_cards) != BOARD_CARDS
        or len({*hole_cards, *board_cards}) != HOLE_CARDS + BOARD_CARDS
        or isinstance(hole, str)
        or isinstance(board, str)
    ):
        hole_cards = parse_cards(hole, HOLE_CARDS, "hole cards")
        board_cards = parse_cards(board, BOARD_CARDS, "board")
        shared = set(hole_cards) & set(board_cards)
        card = CODES[min(shared)] if shared else "?"
        raise CardError(
            f"duplicate card {card} in both the hole cards and the board: there is one 52-card deck (R2.1)",
            code="duplicate_card",
            params={"what": "hole cards and board", "card": card},
        )
    return hole_cards, board_cards


def evaluate_high(hole, board) -> HighValue:
    """The best high hand from exactly two hole cards and three board cards (R2.3, R2.4)."""
    return evaluate_hand(hole, board)[0]


def evaluate_low(hole, board) -> LowValue | None:
    """The best 8-or-better ace-to-five low from two hole and three board cards, or None (R2.5)."""
    return evaluate_hand(hole, board)[1]


def evaluate_hand(hole, board) -> tuple[HighValue, LowValue | None]:
    """Both halves at once, for Hi/Lo: the best high and the best low, each with its own two hole
    cards (R2.6). The last few answers are remembered, so ``evaluate_high`` then ``evaluate_low``
    of one player at a showdown does the work once."""
    if isinstance(hole, str) or isinstance(board, str):
        _check(hole, board)  # raises, naming the string
    try:
        return _evaluate(tuple(hole), tuple(board))
    except TypeError:  # not iterable, or unhashable codes: let the strict parser name the input
        _check(hole, board)
        raise


@lru_cache(maxsize=128)
def _evaluate(hole: tuple, board: tuple) -> tuple[HighValue, LowValue | None]:
    hole_cards, board_cards = _check(hole, board)
    prepared = _cached_board(tuple(board_cards))
    return _high_value(hole_cards, prepared), _low_value(hole_cards, prepared)
