"""The structure simulator (issue 17): how long a tournament as configured will run, played many times.

Pure Python and NumPy, no Django: ``simulate(SimulationConfig(...), runs, seed)`` returns a
``SimulationReport`` with the median and the 10th/90th percentiles of the event's length (wall
clock, breaks included), when late registration closes, when the money bubble bursts and the final
table forms, the level the event ends in, and the players left and average stack in big blinds at
the start of every level. ``fit_level_minutes`` and ``pick_structure`` fit an event to a number of
hours. ``docs/simulator.md`` describes the model; ``tests/bench/calibrate_simulator.py`` fits its
constants against whole tournaments played hand by hand with the product's engine.

The model, in short. The field plays in rounds: one hand at every table. A round lasts one hand's
time at tables of the average size (hands per hour at a full table, by game and betting, and a
share of each hand's time that does not depend on the number of players). The clock walks through
the structure as ``tournaments.clock`` does: a hand is played at the level in force when it is
dealt (R8.2), breaks deal no hands and the last level never ends. Each round, the number of
bust-outs at the tables is Poisson with mean ``tables × rate(M, n)``, where ``M`` is the average
stack over the forced bets of one hand (small blind + big blind + antes) and ``n`` the players at a
table; ``rate`` is fitted from the engine runs. Late entries and re-entries arrive uniformly over
the late-registration window (a re-entry only after a bust-out), each with a starting stack, and
the chips of busted players stay in play, so the average stack is all chips over players left.
All runs advance together as NumPy arrays, one round per step.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

GAMES = ("courchevel", "courchevel_hilo")
BETTINGS = ("fixed_limit", "pot_limit", "no_limit")
ANTE_KINDS = ("none", "per_player", "big_blind")

# -- time model ---------------------------------------------------------------------------------------
# Hands an hour at a full table of eight with a dealer. Courchevel deals 40 hole cards at a full
# table and plays four betting rounds; Hi/Lo splits and counts more pots. Assumptions, not fitted: a
# director may give the floor's own figure (``SimulationConfig.hands_per_hour``).
HANDS_PER_HOUR = {
    ("courchevel", "fixed_limit"): 30.0,
    ("courchevel", "pot_limit"): 25.0,
    ("courchevel", "no_limit"): 25.0,
    ("courchevel_hilo", "fixed_limit"): 27.0,
    ("courchevel_hilo", "pot_limit"): 22.0,
    ("courchevel_hilo", "no_limit"): 22.0,
}
FULL_TABLE = 8  # the table size HANDS_PER_HOUR is for
FIXED_HAND_SHARE = 0.4  # share of a full table's hand time that does not depend on the players
HAND_FOR_HAND_SLOWDOWN = 1.5  # a round of hand-for-hand waits for the slowest table (R8.6)
HAND_FOR_HAND_ABOVE = 1  # hand-for-hand is on with this many players (or fewer) above the money
DEFAULT_LATE_SHARE = 0.25  # share of the entries that register after the start, if late registration is open
MAX_ROUNDS = 200_000  # a run that needs more rounds than this never gets its blinds up

# -- bust model (fitted) ------------------------------------------------------------------------------
# Expected bust-outs in one hand at a table of n players, as a linear spline in log-log:
#     ln rate = b0 + b1·x + b2·(x - ln 8)⁺ + b3·(x - ln 25)⁺ + b4·(x - ln 80)⁺ + b5·ln n
# with x = ln M, M = average stack / (small blind + big blind + antes of one hand), clipped to
# [M_MIN, M_MAX], and (.)⁺ = max(0, .). Below the first knot the rate follows the slope b1.
M_MIN, M_MAX = 1.0, 400.0
KNOTS = (math.log(8.0), math.log(25.0), math.log(80.0))
# Fitted by ``tests/bench/calibrate_simulator.py --runs 6 --seed 1 --fit``: 432 freeze-outs of 9, 20,
# 45 and 100 players played hand by hand with dealing.engine.Hand (six per game, betting, template
# speed and size; 267,245 hands), a Poisson regression of each hand's bust-outs on these terms.
# Checked on fresh seeds by running the script without --fit (docs/simulator.md has the table).
BUST_MODEL: dict[tuple[str, str], tuple[float, ...]] = {
    ("courchevel", "no_limit"): (-0.8703, -1.0722, 0.2558, 0.2151, 0.4748, 0.839),
    ("courchevel", "pot_limit"): (0.2796, -1.4129, 0.6363, 0.1447, 0.541, 0.5854),
    ("courchevel", "fixed_limit"): (-0.3128, -0.9788, -0.5673, -3.3838, -0.0983, 0.3414),
    ("courchevel_hilo", "no_limit"): (0.3397, -1.4025, 0.7257, 0.0004, 0.6177, 0.432),
    ("courchevel_hilo", "pot_limit"): (0.0846, -1.1642, 0.4589, 0.0081, 0.4317, 0.3487),
    ("courchevel_hilo", "fixed_limit"): (-0.4501, -0.8335, -1.0474, -3.1696, -0.0481, 0.2135),
}


class SimulationError(ValueError):
    """A configuration the simulator cannot run. Carries a machine ``code``, ``params`` for a
    translated message and an English ``message``."""

    def __init__(self, code: str, message: str, params: dict | None = None):
        super().__init__(message)
        self.code = code
        self.params = dict(params or {})
        self.message = message

    def to_dict(self) -> dict:
        return {"code": self.code, "params": self.params, "message": self.message}


# -- input --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LevelSpec:
    """One level of play or one break. Fixed limit: the big blind is the small bet (R3.3), so
    ``small_bet`` and ``big_bet`` may be left at 0; if given they must agree."""

    minutes: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    ante_kind: str = "none"
    small_bet: int = 0
    big_bet: int = 0
    is_break: bool = False

    @classmethod
    def pause(cls, minutes: int) -> LevelSpec:
        """A break of ``minutes``."""
        return cls(minutes=minutes, is_break=True)


@dataclass(frozen=True)
class SimulationConfig:
    """A tournament as configured, and the field expected.

    ``entries``: players expected (first entries); ``reentries``: re-entries expected in all.
    ``late_registration_until_level``: registration stays open until the end of that level (its
    number as players say it, breaks not counted) and the break right after it; 0: closed at the
    start. ``late_entry_share``: the share of ``entries`` who register after the start (None: 25%
    when late registration is open). ``places_paid``: None pays ``percent_paid`` of all entries.
    ``hands_per_hour``: hands an hour at a full table of eight (None: the default for the game).
    """

    game: str
    betting: str
    levels: tuple[LevelSpec, ...]
    starting_stack: int
    entries: int
    seats_per_table: int = 8
    reentries: int = 0
    late_registration_until_level: int = 0
    late_entry_share: float | None = None
    places_paid: int | None = None
    percent_paid: int = 15
    hands_per_hour: float | None = None
    hand_for_hand: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "levels", tuple(self.levels))


# -- output -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spread:
    """The median and the 10th and 90th percentiles over the runs."""

    median: float
    p10: float
    p90: float

    @classmethod
    def of(cls, values) -> Spread:
        values = np.asarray(values, dtype=float)
        values = values[~np.isnan(values)]
        if values.size == 0:
            return cls(math.nan, math.nan, math.nan)
        p10, median, p90 = np.percentile(values, [10, 50, 90])
        return cls(float(median), float(p10), float(p90))


@dataclass(frozen=True)
class LevelForecast:
    """The field at the start of one level of play, over the runs still going then."""

    number: int  # as players say it (breaks not counted)
    index: int  # position in the structure, breaks included
    starts_at: float  # seconds after the start, breaks included
    small_blind: int
    big_blind: int
    ante: int
    players_left: Spread
    average_stack_bb: Spread
    still_running: float  # share of the runs not over when the level starts


@dataclass(frozen=True)
class SimulationReport:
    """Times are seconds of wall clock after the start, breaks included."""

    runs: int
    seed: int
    hands_per_hour: float
    entries: Spread  # first entries and re-entries
    places_paid: Spread
    late_registration_closes_at: float  # 0: no late registration
    players_at_close: Spread
    length: Spread
    bubble: Spread  # the field is in the money (the bubble has burst)
    final_table: Spread  # the field fits at one table and registration is closed (R8.5)
    end_level: Spread  # number of the level the last hand is played at
    runs_out_of_levels: float  # share of runs that reach the last level
    levels: tuple[LevelForecast, ...] = field(default=())


@dataclass(frozen=True)
class LevelLengthFit:
    """``fit_level_minutes``: the longest level length whose median event fits ``target_seconds``."""

    level_minutes: int
    fits: bool  # False: even the shortest length tried runs longer than the target
    target_seconds: float
    report: SimulationReport
    config: SimulationConfig


@dataclass(frozen=True)
class StructureChoice:
    """``pick_structure``: the chosen candidate and every candidate's median length."""

    name: str
    fits: bool
    target_seconds: float
    median_seconds: dict[str, float]
    report: SimulationReport


# -- validation ---------------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _whole(name: str, value: object, minimum: int, maximum: int | None = None) -> None:
    if not _is_int(value) or value < minimum or (maximum is not None and value > maximum):
        bound = f"at least {minimum}" if maximum is None else f"from {minimum} to {maximum}"
        raise SimulationError(
            f"bad_{name}",
            f"{name.replace('_', ' ')} must be a whole number {bound}, not {value!r}",
            {"field": name, "value": repr(value), "minimum": minimum, "maximum": maximum},
        )


def validate(config: SimulationConfig) -> None:
    """Raise ``SimulationError`` for a configuration that cannot be simulated."""
    if config.game not in GAMES:
        raise SimulationError(
            "bad_game", f"game must be one of {', '.join(GAMES)}, not {config.game!r}", {"field": "game"}
        )
    if config.betting not in BETTINGS:
        raise SimulationError(
            "bad_betting",
            f"betting must be one of {', '.join(BETTINGS)}, not {config.betting!r}",
            {"field": "betting"},
        )
    levels = config.levels
    if not any(not level.is_break for level in levels):
        raise SimulationError("no_levels", "The structure has no levels of play.", {"field": "levels"})
    if levels[-1].is_break:
        raise SimulationError(
            "ends_with_break",
            "The structure ends with a break: the last period never ends, so no hand would be dealt.",
            {"field": "levels"},
        )
    for index, level in enumerate(levels):
        if not isinstance(level, LevelSpec):
            raise SimulationError("bad_level", f"level {index} is not a LevelSpec", {"index": index})
        if not _is_int(level.minutes) or not 1 <= level.minutes <= 600:
            raise SimulationError(
                "bad_minutes",
                f"period {index + 1} lasts {level.minutes!r} minutes: give 1 to 600",
                {"index": index, "minutes": repr(level.minutes)},
            )
        if level.is_break:
            continue
        amounts = (level.small_blind, level.big_blind, level.ante, level.small_bet, level.big_bet)
        if not all(_is_int(a) and a >= 0 for a in amounts) or level.big_blind < 1:
            raise SimulationError(
                "bad_blinds",
                f"period {index + 1}: blinds and antes are whole numbers of chips and the big blind is at least 1",
                {"index": index},
            )
        if level.small_blind > level.big_blind:
            raise SimulationError(
                "bad_blinds",
                f"period {index + 1}: the small blind ({level.small_blind}) is larger than the big blind "
                f"({level.big_blind})",
                {"index": index},
            )
        if level.ante_kind not in ANTE_KINDS or (level.ante_kind == "none") != (level.ante == 0):
            raise SimulationError(
                "bad_ante",
                f"period {index + 1}: an ante needs ante_kind 'per_player' or 'big_blind', and those need an ante",
                {"index": index},
            )
        if config.betting == "fixed_limit" and (
            (level.small_bet and level.small_bet != level.big_blind)
            or (level.big_bet and level.big_bet != 2 * (level.small_bet or level.big_blind))
        ):
            raise SimulationError(
                "bad_fixed_limit",
                f"period {index + 1}: in fixed limit the big blind is the small bet and the big bet twice it (R3.3)",
                {"index": index},
            )
    _whole("starting_stack", config.starting_stack, 1)
    _whole("seats_per_table", config.seats_per_table, 2, 8)
    _whole("entries", config.entries, 2, 100_000)
    _whole("reentries", config.reentries, 0, 100_000)
    play_levels = sum(1 for level in levels if not level.is_break)
    _whole("late_registration_until_level", config.late_registration_until_level, 0)
    if config.late_registration_until_level >= play_levels:
        raise SimulationError(
            "late_registration_beyond_structure",
            f"late registration until level {config.late_registration_until_level} would never close: the "
            f"structure has {play_levels} levels and the last one never ends",
            {"level": config.late_registration_until_level, "levels": play_levels},
        )
    if config.reentries and not config.late_registration_until_level:
        raise SimulationError(
            "reentries_without_late_registration",
            "re-entries need late registration: with registration closed at the start nobody can re-enter",
            {"field": "reentries"},
        )
    share = config.late_entry_share
    if share is not None and (
        not isinstance(share, (int, float)) or isinstance(share, bool) or not 0 <= share <= 1
    ):
        raise SimulationError(
            "bad_late_entry_share",
            f"the share of late entries is from 0 to 1, not {share!r}",
            {"field": "late_entry_share"},
        )
    if share and not config.late_registration_until_level:
        raise SimulationError(
            "late_entries_without_late_registration",
            "late entries need late registration",
            {"field": "late_entry_share"},
        )
    if config.places_paid is not None:
        _whole("places_paid", config.places_paid, 1)
    _whole("percent_paid", config.percent_paid, 1, 100)
    rate = config.hands_per_hour
    if rate is not None and (
        not isinstance(rate, (int, float)) or isinstance(rate, bool) or not 1 <= rate <= 200
    ):
        raise SimulationError(
            "bad_hands_per_hour",
            f"hands per hour at a full table is from 1 to 200, not {rate!r}",
            {"field": "hands_per_hour"},
        )


# -- the model's pieces -------------------------------------------------------------------------------


def default_hands_per_hour(game: str, betting: str) -> float:
    return HANDS_PER_HOUR[(game, betting)]


def seconds_per_hand(players, hands_per_hour: float):
    """Seconds one hand takes at a table of ``players`` (a number or an array)."""
    full = 3600.0 / hands_per_hour
    return full * (FIXED_HAND_SHARE + (1.0 - FIXED_HAND_SHARE) * np.asarray(players) / FULL_TABLE)


def forced_per_hand(small_blind, big_blind, ante_per_player, big_blind_ante, players):
    """Chips the blinds and antes put in one hand at a table of ``players``."""
    return small_blind + big_blind + ante_per_player * players + big_blind_ante


def bust_features(m, players) -> np.ndarray:
    """The bust model's terms for average depth ``m`` (in hands of forced bets) and ``players`` at a
    table: rows of (1, x, (x - k1)⁺, (x - k2)⁺, (x - k3)⁺, ln n)."""
    x = np.log(np.clip(np.asarray(m, dtype=float), M_MIN, M_MAX))
    n = np.broadcast_to(np.asarray(players, dtype=float), x.shape)
    columns = [np.ones_like(x), x, *(np.maximum(0.0, x - knot) for knot in KNOTS), np.log(np.maximum(n, 2.0))]
    return np.stack(columns, axis=-1)


def bust_rate(game: str, betting: str, m, players):
    """Expected bust-outs in one hand at a table of ``players`` when the average stack is ``m``
    hands' worth of forced bets (numbers or arrays)."""
    return np.exp(bust_features(m, players) @ np.asarray(BUST_MODEL[(game, betting)]))


def places_paid(entries, percent_paid: int):
    """``tournaments.payouts.places_paid`` for an array of field sizes."""
    entries = np.asarray(entries)
    return np.maximum(1, np.minimum(entries, (entries * percent_paid + 50) // 100))


def _period_starts(levels: Sequence[LevelSpec]) -> np.ndarray:
    return np.concatenate([[0.0], np.cumsum([60.0 * level.minutes for level in levels])])


def late_registration_closes_at(config: SimulationConfig) -> float:
    """Seconds after the start when registration closes: the end of level
    ``late_registration_until_level`` and of the break right after it (0: closed at the start)."""
    until = config.late_registration_until_level
    if not until:
        return 0.0
    starts = _period_starts(config.levels)
    number = 0
    for index, level in enumerate(config.levels):
        if not level.is_break:
            number += 1
            if number == until:
                end = index + 1
                while end < len(config.levels) - 1 and config.levels[end].is_break:
                    end += 1
                return float(starts[end])
    raise SimulationError("late_registration_beyond_structure", "late registration never closes")


def with_level_minutes(config: SimulationConfig, minutes: int) -> SimulationConfig:
    """The same event with every level of play lasting ``minutes`` (breaks unchanged)."""
    levels = tuple(level if level.is_break else replace(level, minutes=minutes) for level in config.levels)
    return replace(config, levels=levels)


# -- the simulation -----------------------------------------------------------------------------------


class _Structure:
    """The structure as arrays indexed by period."""

    def __init__(self, levels: Sequence[LevelSpec]):
        count = len(levels)
        self.count = count
        starts = _period_starts(levels)
        self.starts = starts[:-1]
        self.ends = starts[1:].copy()
        self.ends[-1] = np.inf  # the last level never ends
        self.is_break = np.array([level.is_break for level in levels])
        self.small_blind = np.array([float(level.small_blind) for level in levels])
        self.big_blind = np.array([float(level.big_blind) for level in levels])
        self.ante_per_player = np.array(
            [float(level.ante) if level.ante_kind == "per_player" else 0.0 for level in levels]
        )
        self.big_blind_ante = np.array(
            [float(level.ante) if level.ante_kind == "big_blind" else 0.0 for level in levels]
        )
        # For a break: the next level of play and when it starts.
        self.play_index = np.arange(count)
        self.play_start = self.starts.copy()
        for index in range(count - 2, -1, -1):
            if levels[index].is_break:
                self.play_index[index] = self.play_index[index + 1]
                self.play_start[index] = self.play_start[index + 1]
        numbers = np.zeros(count, dtype=int)
        number = 0
        for index, level in enumerate(levels):
            if not level.is_break:
                number += 1
            numbers[index] = number
        self.number = numbers  # a break carries the number of the level before it

    def index_at(self, t: np.ndarray) -> np.ndarray:
        return np.minimum(np.searchsorted(self.ends, t, side="right"), self.count - 1)


def simulate(config: SimulationConfig, runs: int = 1000, seed: int = 0) -> SimulationReport:
    """Play the event ``runs`` times; the same ``seed`` gives the same report."""
    validate(config)
    _whole("runs", runs, 1, 100_000)
    _whole("seed", seed, 0)
    rng = np.random.default_rng(seed)
    structure = _Structure(config.levels)
    hands_per_hour = float(config.hands_per_hour or default_hands_per_hour(config.game, config.betting))
    b0, b1, b2, b3, b4, b5 = BUST_MODEL[(config.game, config.betting)]
    k1, k2, k3 = KNOTS
    log_m_min, log_m_max = math.log(M_MIN), math.log(M_MAX)
    seats = config.seats_per_table
    stack = float(config.starting_stack)
    close = late_registration_closes_at(config)
    share = config.late_entry_share
    if share is None:
        share = DEFAULT_LATE_SHARE if config.late_registration_until_level else 0.0
    late_count = min(config.entries - 2, round(config.entries * share))
    starters = config.entries - late_count
    full_hand = 3600.0 / hands_per_hour

    # Per run state; finished runs are dropped from these arrays (``alive`` maps back to run numbers).
    alive = np.arange(runs)
    t = np.zeros(runs)
    players = np.full(runs, starters, dtype=np.int64)
    chips = np.full(runs, starters * stack)
    entries = players.copy()
    late_left = np.full(runs, late_count, dtype=np.int64)
    reentries_left = np.full(runs, config.reentries, dtype=np.int64)
    waiting = np.zeros(runs, dtype=np.int64)  # re-entries wanted but nobody has busted yet to make them
    busted = np.zeros(runs, dtype=np.int64)
    reentered = np.zeros(runs, dtype=np.int64)
    last_index = np.full(runs, -1, dtype=np.int64)  # the last period whose start was recorded
    registering = np.full(runs, close > 0)

    # Results, by run number.
    out_length = np.full(runs, np.nan)
    out_bubble = np.full(runs, np.nan)
    out_final = np.full(runs, np.nan)
    out_end_index = np.zeros(runs, dtype=np.int64)
    out_entries = np.zeros(runs)
    out_paid = np.zeros(runs)
    out_at_close = np.full(runs, np.nan)
    snap_players = np.full((runs, structure.count), np.nan)
    snap_chips = np.full((runs, structure.count), np.nan)
    if close == 0:
        out_entries[:] = entries
        out_at_close[:] = players

    for _ in range(MAX_ROUNDS):
        # The level a hand dealt now is played at (R8.2); during a break, the next level after it.
        index = structure.index_at(t)
        on_break = structure.is_break[index]
        if on_break.any():
            t = np.where(on_break, structure.play_start[index], t)
            index = structure.play_index[index]
        behind = last_index < index
        while behind.any():  # record the field at the start of every period reached
            rows = np.flatnonzero(behind)
            last_index[rows] += 1
            snap_players[alive[rows], last_index[rows]] = players[rows]
            snap_chips[alive[rows], last_index[rows]] = chips[rows]
            behind = last_index < index

        tables = -(-players // seats)
        at_table = players / tables
        dt = full_hand * (FIXED_HAND_SHARE + (1.0 - FIXED_HAND_SHARE) * at_table / FULL_TABLE)
        open_now = registering
        closes_now = open_now & (t + dt >= close)
        if config.hand_for_hand:
            paid = (
                places_paid(entries, config.percent_paid)
                if config.places_paid is None
                else np.minimum(config.places_paid, entries)
            )
            hand_for_hand = ~registering & (players > paid) & (players <= paid + HAND_FOR_HAND_ABOVE)
            dt = np.where(hand_for_hand, dt * HAND_FOR_HAND_SLOWDOWN, dt)

        if open_now.any():
            # Entries still to come arrive uniformly over what is left of the window (all of them
            # in the round that reaches its end).
            p = np.where(open_now, np.where(closes_now, 1.0, dt / np.maximum(close - t, dt)), 0.0)
            late = rng.binomial(late_left, p)
            late_left -= late
            wanted = rng.binomial(reentries_left, p)
            reentries_left -= wanted
            waiting += wanted
            served = np.where(open_now, np.minimum(waiting, busted - reentered), 0)
            waiting -= served
            reentered += served
            arrived = late + served
            players += arrived
            chips += arrived * stack
            entries += arrived
            tables = -(-players // seats)
            at_table = players / tables

        # Bust-outs this round.
        forced = (
            structure.small_blind[index]
            + structure.big_blind[index]
            + structure.ante_per_player[index] * at_table
            + structure.big_blind_ante[index]
        )
        x = np.clip(np.log(chips / players / forced), log_m_min, log_m_max)
        log_rate = b0 + b1 * x + b5 * np.log(np.maximum(at_table, 2.0))
        log_rate += b2 * np.maximum(0.0, x - k1) + b3 * np.maximum(0.0, x - k2) + b4 * np.maximum(0.0, x - k3)
        rate = np.exp(log_rate)
        out = rng.poisson(tables * rate)
        # While registration is open the event cannot end; nobody busts below two players.
        floor = np.where(open_now & ~closes_now, 2, 1)
        out = np.minimum(out, np.maximum(players - floor, 0))
        players -= out
        busted += out
        t = t + dt

        if closes_now.any():
            rows = np.flatnonzero(closes_now)
            out_entries[alive[rows]] = entries[rows]
            out_at_close[alive[rows]] = players[rows]
            registering = registering & ~closes_now
        closed = ~registering
        paid = (
            places_paid(entries, config.percent_paid)
            if config.places_paid is None
            else np.minimum(config.places_paid, entries)
        )
        run = alive
        hit = closed & (players <= paid) & np.isnan(out_bubble[run])
        out_bubble[run[hit]] = t[hit]
        out_paid[run[hit]] = paid[hit]
        hit = closed & (players <= seats) & np.isnan(out_final[run])
        out_final[run[hit]] = t[hit]
        over = closed & (players == 1)
        if over.any():
            rows = np.flatnonzero(over)
            out_length[run[rows]] = t[rows]
            out_end_index[run[rows]] = index[rows]
            keep = ~over
            if not keep.any():
                break
            alive, t, players, chips, entries = (
                alive[keep],
                t[keep],
                players[keep],
                chips[keep],
                entries[keep],
            )
            late_left, reentries_left, waiting = late_left[keep], reentries_left[keep], waiting[keep]
            busted, reentered, last_index = busted[keep], reentered[keep], last_index[keep]
            registering = registering[keep]
    else:
        raise SimulationError(
            "does_not_finish",
            f"the event does not finish in {MAX_ROUNDS} hands a table: the blinds never get high enough",
            {"rounds": MAX_ROUNDS},
        )
    results = {
        "length": out_length,
        "bubble": out_bubble,
        "final_table": out_final,
        "end_index": out_end_index,
        "entries": out_entries,
        "paid": out_paid,
        "at_close": out_at_close,
        "snap_players": snap_players,
        "snap_chips": snap_chips,
    }
    return _report(structure, runs, seed, hands_per_hour, close, results)


def _report(structure, runs, seed, hands_per_hour, close, state: dict) -> SimulationReport:
    snap_players, snap_chips = state["snap_players"], state["snap_chips"]
    levels = []
    for index in range(structure.count):
        if structure.is_break[index]:
            continue
        reached = ~np.isnan(snap_players[:, index])
        if not reached.any():
            break
        big_blind = structure.big_blind[index]
        left = snap_players[reached, index]
        depth = snap_chips[reached, index] / left / big_blind
        levels.append(
            LevelForecast(
                number=int(structure.number[index]),
                index=index,
                starts_at=float(structure.starts[index]),
                small_blind=int(structure.small_blind[index]),
                big_blind=int(big_blind),
                ante=int(structure.ante_per_player[index] + structure.big_blind_ante[index]),
                players_left=Spread.of(left),
                average_stack_bb=Spread.of(depth),
                still_running=float(reached.mean()),
            )
        )
    end_index = state["end_index"]
    return SimulationReport(
        runs=runs,
        seed=seed,
        hands_per_hour=hands_per_hour,
        entries=Spread.of(state["entries"]),
        places_paid=Spread.of(state["paid"]),
        late_registration_closes_at=close,
        players_at_close=Spread.of(state["at_close"]),
        length=Spread.of(state["length"]),
        bubble=Spread.of(state["bubble"]),
        final_table=Spread.of(state["final_table"]),
        end_level=Spread.of(structure.number[end_index]),
        runs_out_of_levels=float(np.mean(end_index == structure.count - 1)),
        levels=tuple(levels),
    )


# -- fitting a schedule -------------------------------------------------------------------------------


def _check_hours(hours: object) -> float:
    if not isinstance(hours, (int, float)) or isinstance(hours, bool) or not 0 < hours <= 72:
        raise SimulationError(
            "bad_hours", f"the schedule is from 0 to 72 hours, not {hours!r}", {"field": "hours"}
        )
    return float(hours) * 3600.0


def fit_level_minutes(
    config: SimulationConfig,
    hours: float,
    *,
    runs: int = 300,
    seed: int = 0,
    minimum: int = 5,
    maximum: int = 120,
) -> LevelLengthFit:
    """The longest level length (whole minutes, the same for every level; breaks kept) whose
    median event fits in ``hours``. The runs share ``seed``, so lengths compare like for like."""
    target = _check_hours(hours)
    validate(config)
    _whole("minimum", minimum, 1, 600)
    _whole("maximum", maximum, minimum, 600)
    cache: dict[int, SimulationReport] = {}

    def median(minutes: int) -> float:
        if minutes not in cache:
            cache[minutes] = simulate(with_level_minutes(config, minutes), runs, seed)
        return cache[minutes].length.median

    if median(minimum) > target:
        best, fits = minimum, False
    else:
        low, high = minimum, maximum  # median(low) fits; find the largest that does
        while low < high:
            mid = (low + high + 1) // 2
            if median(mid) <= target:
                low = mid
            else:
                high = mid - 1
        best, fits = low, True
    median(best)
    return LevelLengthFit(best, fits, target, cache[best], with_level_minutes(config, best))


def pick_structure(
    candidates: Mapping[str, SimulationConfig], hours: float, *, runs: int = 300, seed: int = 0
) -> StructureChoice:
    """Among named candidates (templates), the one with the longest median that still fits in
    ``hours`` (the deepest play the schedule allows); if none fits, the shortest."""
    target = _check_hours(hours)
    if not candidates:
        raise SimulationError("no_candidates", "Give at least one structure to choose from.")
    reports = {name: simulate(config, runs, seed) for name, config in candidates.items()}
    medians = {name: report.length.median for name, report in reports.items()}
    fitting = [name for name, value in medians.items() if value <= target]
    if fitting:
        name, fits = max(fitting, key=medians.__getitem__), True
    else:
        name, fits = min(medians, key=medians.__getitem__), False
    return StructureChoice(name, fits, target, medians, reports[name])
