"""All-in equity for Courchevel and Courchevel Hi/Lo: each player's chances and expected share of the
pot, given the hands turned up (R6.2: all-in, every hand is face up), the board so far and any dead
cards.

    >>> result = all_in_equity(
    ...     [["Ah", "Kd", "Qs", "Jc", "Th"], ["2c", "3d", "4h", "5s", "6c"]], ["7h"], game="courchevel_hilo"
    ... )
    >>> result.method, result.boards
    ('exact', 101270)
    >>> round(sum(p.share for p in result.players), 12)
    1.0

Rules
-----
Every remaining board is equally likely: the cards not in a known hand, on the board or dead. A hand is
two hole plus three board cards (R2.3). In Courchevel the best high takes the pot, equal highs split it
(R6.3). In Hi/Lo the pot splits into a high half and a low half for the best 8-or-better low (R2.5);
ties split each half, so a pot can be quartered; with no qualifying low the high takes it all (R6.4).
A player's high and low may use different hole pairs (R2.6). Shares are exact fractions of the pot:
odd chips (R6.5) are ignored.

Method
------
Exact when every remaining board fits the time budget: all C(remaining, to come) boards are scored.
Otherwise (or when ``samples`` is given) boards are drawn uniformly, with replacement, from a NumPy
generator seeded with ``seed`` (the same seed gives the same answer); each share then comes with its
standard error. Scoring uses ``runouts.Runouts``, the evaluator's tables laid out for NumPy.

Every board's pot is counted in whole units of 1/1680 of the pot (1680 = 2 x lcm(1..8)), so that a
half pot split up to eight ways is a whole number: the exact shares are exact fractions, and the
shares of all players add up to exactly one pot.
"""

import secrets
from dataclasses import dataclass
from fractions import Fraction
from math import comb, sqrt
from numbers import Integral, Real

import numpy as np

from .cards import BOARD_CARDS, CODES, HOLE_CARDS, CardError, parse_cards
from .errors import RuleError
from .evaluator import NO_LOW
from .hand import COURCHEVEL, COURCHEVEL_HILO, GAMES
from .runouts import Runouts, all_runouts, unrank_runouts

MIN_HANDS = 2
MAX_HANDS = 8  # R2.7
EXACT = "exact"
SAMPLED = "sampled"
# 20,000 boards put the standard error of any share below 0.36% (a share per board is 0..1, so its
# variance is at most 1/4: sqrt(0.25 / 20000) = 0.0035), whatever the hands.
DEFAULT_SAMPLES = 20_000
DEFAULT_TIME_BUDGET = 0.5  # seconds
# Cost of scoring boards, measured by tests/bench/bench_equity.py on one core and rounded up about
# threefold, so that "fits the budget" holds on a slower or busy machine: per board, and per board
# and player.
_SECONDS_PER_BOARD = 5e-8
_SECONDS_PER_PLAYER_BOARD = 4e-8
_CHUNK = 1 << 16  # boards scored at a time: bounded memory, arrays that stay in cache

POT = 1680  # units of one pot: 2 x lcm(1..8), so halves split among up to 8 players are whole
_POT_SPLIT = np.array([0] + [POT // n for n in range(1, MAX_HANDS + 1)], dtype=np.int32)
_HALF_SPLIT = np.array([0] + [POT // 2 // n for n in range(1, MAX_HANDS + 1)], dtype=np.int32)


class EquityError(RuleError):
    """An equity question that cannot be answered as asked (cards are refused with ``CardError``)."""


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """One player's chances over the boards counted, each a fraction 0..1 of those boards.

    ``share`` is the expected share of the pot (the shares of all players add up to 1);
    ``share_error`` its standard error (0 when exact) and ``share_exact`` the exact fraction (exact
    method only). ``scoop``: the whole pot alone (in Hi/Lo the high alone and the low alone, or the
    high alone when no low qualifies); ``split``: part of the pot but not all of it. ``low_win`` and
    ``low_tie`` are None in a high-only game."""

    hole: tuple[str, ...]
    share: float
    share_error: float
    share_exact: Fraction | None
    high_win: float
    high_tie: float
    low_win: float | None
    low_tie: float | None
    scoop: float
    split: float

    def to_dict(self) -> dict:
        return {
            "hole": list(self.hole),
            "share": self.share,
            "share_error": self.share_error,
            "high_win": self.high_win,
            "high_tie": self.high_tie,
            "low_win": self.low_win,
            "low_tie": self.low_tie,
            "scoop": self.scoop,
            "split": self.split,
        }


@dataclass(frozen=True, slots=True)
class Equity:
    """The answer: ``method`` is "exact" (every remaining board, ``boards == total_boards``) or
    "sampled" (``boards`` drawn with ``seed``); ``no_low`` is the chance that no low qualifies
    (Hi/Lo, else None)."""

    game: str
    board: tuple[str, ...]
    dead: tuple[str, ...]
    method: str
    boards: int
    total_boards: int
    seed: int | None
    no_low: float | None
    players: tuple[PlayerEquity, ...]

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "board": list(self.board),
            "dead": list(self.dead),
            "method": self.method,
            "boards": self.boards,
            "total_boards": self.total_boards,
            "seed": self.seed,
            "no_low": self.no_low,
            "players": [p.to_dict() for p in self.players],
        }


# What one board means for one player, as a small int: whether they hold the best high, how many
# do, whether a low qualifies, whether they hold the best low, how many do. Counting these outcomes
# per player (one bincount) gives every figure of the answer, since each outcome pays a fixed share.
_OUTCOMES = 2 * 2 * 2 * (MAX_HANDS + 1) * (MAX_HANDS + 1)
_WIN_HIGH, _WIN_LOW, _HAS_LOW, _HIGH_COUNT, _LOW_COUNT = 1, 2, 4, 8, 8 * (MAX_HANDS + 1)


def _decode() -> dict[str, np.ndarray]:
    code = np.arange(_OUTCOMES)
    parts = {
        "win_high": code % 2,
        "win_low": code // _WIN_LOW % 2,
        "has_low": code // _HAS_LOW % 2,
        "high_count": code // _HIGH_COUNT % (MAX_HANDS + 1),
        "low_count": code // _LOW_COUNT,
    }
    # R6.3/R6.4 as pots.award pays them: with a low, the high half among the high winners and the low
    # half among the low winners; without one, the whole pot among the high winners.
    high_pays = np.where(
        parts["has_low"] == 1, _HALF_SPLIT[parts["high_count"]], _POT_SPLIT[parts["high_count"]]
    )
    parts["units"] = parts["win_high"] * high_pays + parts["win_low"] * _HALF_SPLIT[parts["low_count"]]
    return parts


_OUTCOME = _decode()


def _best(rows: np.ndarray) -> np.ndarray:
    """Column maxima of a few long rows. Row by row: NumPy's axis-0 reduction of a (players, boards)
    array is several times slower than a handful of whole-row maximums."""
    best = rows[0].copy()
    for row in rows[1:]:
        np.maximum(best, row, out=best)
    return best


def _count(flags: np.ndarray) -> np.ndarray:
    """Column counts of a (players, boards) bool array, row by row for the same reason."""
    count = flags[0].astype(np.intp)
    for row in flags[1:]:
        count += row
    return count


class _Tally:
    """How often each outcome came to each player, added up block by block of boards."""

    def __init__(self, players: int, hilo: bool):
        self.players = players
        self.hilo = hilo
        self.counts = np.zeros((players, _OUTCOMES), dtype=np.int64)
        self._offsets = (np.arange(players, dtype=np.intp) * _OUTCOMES)[:, None]

    def add(self, high: np.ndarray, low: np.ndarray | None) -> None:
        win_high = high == _best(high)
        board = _count(win_high) * _HIGH_COUNT
        code = self._offsets + win_high
        if low is not None:
            best_low = _best(low)
            has_low = best_low != NO_LOW
            win_low = (low == best_low) & has_low
            board += _count(win_low) * _LOW_COUNT + has_low * _HAS_LOW
            code += win_low * _WIN_LOW
        code += board
        self.counts += np.bincount(code.ravel(), minlength=self.players * _OUTCOMES).reshape(self.players, -1)

    def boards_where(self, outcomes: np.ndarray) -> np.ndarray:
        """Per player, how many boards gave them one of ``outcomes`` (a mask over the outcome codes)."""
        return self.counts @ outcomes.astype(np.int64)

    def sum_of(self, weights: np.ndarray) -> np.ndarray:
        """Per player, the sum over the boards of ``weights`` of the board's outcome."""
        return self.counts @ weights


def _parse(hands, board, dead) -> tuple[list[list[int]], list[int], list[int]]:
    """Validate at the door (R2.1, R2.2, R2.7), naming the hand or the cards at fault."""
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__iter__"):
        raise CardError(
            f"the hands must be a list of hands of {HOLE_CARDS} card codes, not {hands!r}",
            code="cards_not_list",
            rule="",
            params={"what": "hands", "cards": repr(hands)},
        )
    hands = list(hands)
    if len(hands) < MIN_HANDS:
        raise EquityError(
            "too_few_players",
            f"equity needs at least {MIN_HANDS} hands, got {len(hands)}",
            params={"minimum": MIN_HANDS, "got": len(hands)},
        )
    if len(hands) > MAX_HANDS:
        raise EquityError(
            "too_many_players",
            f"at most {MAX_HANDS} players can be dealt in, got {len(hands)} hands",
            rule="R2.7",
            params={"maximum": MAX_HANDS, "got": len(hands)},
        )
    holes = [parse_cards(hand, HOLE_CARDS, f"hand {i}") for i, hand in enumerate(hands, start=1)]
    known = parse_cards(board, None, "board")
    if len(known) > BOARD_CARDS:
        raise CardError(
            f"the board has at most {BOARD_CARDS} cards, got {len(known)}: {' '.join(CODES[c] for c in known)}",
            code="too_many_board_cards",
            rule="R2.2",
            params={"what": "board", "count": BOARD_CARDS, "got": len(known)},
        )
    gone = parse_cards(dead, None, "dead cards")
    seen: dict[int, str] = {}
    for what, cards in [*((f"hand {i}", h) for i, h in enumerate(holes, start=1)), ("board", known)]:
        for card in cards:
            if card in seen:
                raise CardError(
                    f"duplicate card {CODES[card]} in {seen[card]} and {what}: there is one 52-card deck",
                    code="duplicate_card",
                    params={"what": f"{seen[card]} and {what}", "card": CODES[card]},
                )
            seen[card] = what
    for card in gone:
        if card in seen:
            raise CardError(
                f"dead card {CODES[card]} is also in {seen[card]}: there is one 52-card deck",
                code="duplicate_card",
                params={"what": f"{seen[card]} and dead cards", "card": CODES[card]},
            )
    return holes, known, gone


def estimated_seconds(boards: int, players: int) -> float:
    """A deliberately high guess of the time to score ``boards`` boards exactly (see the constants)."""
    return boards * (_SECONDS_PER_BOARD + players * _SECONDS_PER_PLAYER_BOARD)


def all_in_equity(
    hands,
    board=(),
    *,
    dead=(),
    game: str = COURCHEVEL,
    samples: int | None = None,
    seed: int | None = None,
    time_budget: float | None = DEFAULT_TIME_BUDGET,
) -> Equity:
    """Chances and expected pot shares of 2 to 8 known hands (five card codes each) with ``board``
    (0 to 5 codes dealt so far) and ``dead`` cards out of play, in ``game`` ("courchevel" or
    "courchevel_hilo").

    Exact when scoring every remaining board is estimated to fit ``time_budget`` seconds (None: always
    exact); otherwise ``DEFAULT_SAMPLES`` boards are sampled. ``samples=N`` always samples N boards.
    ``seed`` makes sampling reproducible (None: a fresh random seed, reported in the result).
    Raises ``CardError`` for a bad card code, a duplicate card or a wrong card count and
    ``EquityError`` for a wrong number of hands, a bad game or a bad setting."""
    if game not in GAMES:
        raise EquityError(
            "bad_game", f"game must be one of {', '.join(GAMES)}, not {game!r}", params={"game": repr(game)}
        )
    if samples is not None and (
        not isinstance(samples, Integral) or isinstance(samples, bool) or samples < 1
    ):
        raise EquityError(
            "bad_samples",
            f"samples must be a whole number of boards, at least 1, not {samples!r}",
            params={"samples": repr(samples)},
        )
    if seed is not None and (not isinstance(seed, Integral) or isinstance(seed, bool) or seed < 0):
        raise EquityError(
            "bad_seed", f"seed must be a whole number >= 0, not {seed!r}", params={"seed": repr(seed)}
        )
    if time_budget is not None and (
        not isinstance(time_budget, Real) or isinstance(time_budget, bool) or not time_budget > 0
    ):
        raise EquityError(
            "bad_time_budget",
            f"time_budget must be a number of seconds above 0, or None, not {time_budget!r}",
            params={"time_budget": repr(time_budget)},
        )
    holes, known, gone = _parse(hands, board, dead)
    used = {*known, *gone}.union(*holes)
    deck = [card for card in range(52) if card not in used]
    to_come = BOARD_CARDS - len(known)
    if len(deck) < to_come:
        raise EquityError(
            "not_enough_cards",
            f"{len(deck)} cards are left in the deck, too few to deal the {to_come} board cards to come",
            rule="R2.7",
            params={"left": len(deck), "needed": to_come},
        )
    total = comb(len(deck), to_come)
    hilo = game == COURCHEVEL_HILO
    if samples is None and (time_budget is None or estimated_seconds(total, len(holes)) <= time_budget):
        method, seed = EXACT, None
    else:
        method = SAMPLED
        samples = DEFAULT_SAMPLES if samples is None else int(samples)
        seed = secrets.randbits(64) if seed is None else int(seed)

    runouts = Runouts(holes, known, deck)
    tally = _Tally(len(holes), hilo)
    if method == EXACT:
        every = all_runouts(len(deck), to_come)
        for start in range(0, total, _CHUNK):
            tally.add(*runouts.strengths(every[start : start + _CHUNK], low=hilo))
    else:
        rng = np.random.default_rng(seed)
        for start in range(0, samples, _CHUNK):
            numbers = rng.integers(0, total, size=min(_CHUNK, samples - start))
            tally.add(*runouts.strengths(unrank_runouts(numbers, to_come), low=hilo))
    return _answer(game, known, gone, holes, method, total, seed, tally)


def _answer(game, known, gone, holes, method, total, seed, tally: _Tally) -> Equity:
    o = _OUTCOME
    n = int(tally.counts[0].sum())
    units = tally.sum_of(o["units"])
    squares = tally.sum_of(o["units"] ** 2)
    win_high, win_low = o["win_high"] == 1, o["win_low"] == 1
    counts = {
        "high_win": tally.boards_where(win_high & (o["high_count"] == 1)),
        "high_tie": tally.boards_where(win_high & (o["high_count"] > 1)),
        "low_win": tally.boards_where(win_low & (o["low_count"] == 1)),
        "low_tie": tally.boards_where(win_low & (o["low_count"] > 1)),
        "scoop": tally.boards_where(o["units"] == POT),
        "split": tally.boards_where((o["units"] > 0) & (o["units"] < POT)),
    }
    players = []
    for p, hole in enumerate(holes):
        mean = int(units[p]) / (POT * n)
        if method == EXACT or n < 2:
            error = 0.0
        else:
            # Sample variance of the per-board share (in pots), then the standard error of its mean.
            variance = (int(squares[p]) / POT**2 - n * mean * mean) / (n - 1)
            error = sqrt(max(variance, 0.0) / n)
        chance = {name: int(c[p]) / n for name, c in counts.items()}
        players.append(
            PlayerEquity(
                hole=tuple(CODES[c] for c in hole),
                share=mean,
                share_error=error,
                share_exact=Fraction(int(units[p]), POT * n) if method == EXACT else None,
                high_win=chance["high_win"],
                high_tie=chance["high_tie"],
                low_win=chance["low_win"] if tally.hilo else None,
                low_tie=chance["low_tie"] if tally.hilo else None,
                scoop=chance["scoop"],
                split=chance["split"],
            )
        )
    no_low = int(tally.boards_where(o["has_low"] == 0)[0]) / n if tally.hilo else None
    return Equity(
        game=game,
        board=tuple(CODES[c] for c in known),
        dead=tuple(CODES[c] for c in gone),
        method=method,
        boards=n,
        total_boards=total,
        seed=seed,
        no_low=no_low,
        players=tuple(players),
    )
