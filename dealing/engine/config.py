"""What a hand is dealt with: the games, the seats and stacks, the positions and the stakes (R2, R3,
R5), checked once before any card is dealt. ``HandConfig`` refuses what no table can produce, with
the rule that says so.
"""

from collections.abc import Iterable
from dataclasses import dataclass, fields
from operator import attrgetter

from .betting import FIXED_LIMIT, STRUCTURES
from .errors import ConfigError
from .positions import between

COURCHEVEL = "courchevel"
COURCHEVEL_HILO = "courchevel_hilo"
GAMES = (COURCHEVEL, COURCHEVEL_HILO)
ANTE_KINDS = ("none", "per_player", "big_blind")
DEAL_MODES = ("seeded", "entered")
MAX_PLAYERS = 8  # R2.7: 8 x 5 hole cards + 5 board + 4 burns = 49 of 52
HOLE_CARDS = 5


def _is_int(value: object) -> bool:
    return type(value) is int


def _chips(name: str, value: object, minimum: int = 0) -> int:
    if not _is_int(value):
        raise ConfigError(
            "bad_amount",
            f"{name} must be a whole number of chips, not {value!r}",
            params={"field": name, "value": repr(value)},
        )
    if value < minimum:
        raise ConfigError(
            "bad_amount",
            f"{name} must be at least {minimum}, not {value}",
            params={"field": name, "value": value, "minimum": minimum},
        )
    return value


@dataclass(frozen=True)
class SeatConfig:
    seat: int
    player: str
    stack: int

    def to_dict(self) -> dict:
        return {"seat": self.seat, "player": self.player, "stack": self.stack}


def _seat(entry: object) -> SeatConfig:
    if type(entry) is tuple and len(entry) == 3:
        # The common case, checked with no work beyond the tests themselves.
        seat, player, stack = entry
        if (
            type(seat) is int
            and seat >= 1
            and type(player) is str
            and player
            and type(stack) is int
            and stack >= 1
        ):
            return SeatConfig(seat, player, stack)
    if isinstance(entry, SeatConfig):
        return entry
    if isinstance(entry, dict):
        unknown = set(entry) - {"seat", "player", "stack"}
        if unknown or len(entry) != 3:
            raise ConfigError(
                "bad_seat",
                f"a seat needs exactly 'seat', 'player' and 'stack', got {sorted(entry)}",
                params={"field": "seats"},
            )
        seat, player, stack = entry["seat"], entry["player"], entry["stack"]
    elif isinstance(entry, (list, tuple)) and len(entry) == 3:
        seat, player, stack = entry
    else:
        raise ConfigError(
            "bad_seat", f"a seat is (seat number, player id, stack), not {entry!r}", params={"field": "seats"}
        )
    if not _is_int(seat) or seat < 1:
        raise ConfigError(
            "bad_seat",
            f"seat numbers must be positive integers, not {seat!r}",
            params={"field": "seats", "seat": repr(seat)},
        )
    if not isinstance(player, str) or not player:
        raise ConfigError(
            "bad_player",
            f"seat {seat}: the player id must be a non-empty string, not {player!r}",
            params={"field": "seats", "seat": seat},
        )
    _chips(f"seat {seat} stack", stack, 1)
    return SeatConfig(seat, player, stack)


@dataclass(frozen=True)
class HandConfig:
    """Everything needed to deal one hand. Seat numbers go up clockwise; ``seats`` are the players dealt
    in. ``button_seat`` may be an empty seat (dead button) and ``small_blind_seat`` None (dead small
    blind), as the dead-button rule gives them (R3.6, see ``positions``)."""

    game: str
    betting: str
    seats: tuple[SeatConfig, ...]
    button_seat: int
    small_blind_seat: int | None
    big_blind_seat: int
    small_blind: int
    big_blind: int
    ante: int = 0
    ante_kind: str = "none"
    small_bet: int | None = None
    big_bet: int | None = None
    smallest_chip: int = 1
    cap_raises: bool = True
    deal_mode: str = "seeded"
    # When betting closes with an all-in and cards are still to come (R4.6, R6.2): False, the engine
    # shows every hand and runs the board out at once (hands stored before this existed); True, the
    # dealer turns the hands face up (``face_up``) and deals each street on a tap (``deal``).
    dealer_runout: bool = False

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ConfigError(
                "bad_game",
                f"game must be one of {', '.join(GAMES)}, not {self.game!r}",
                params={"field": "game"},
            )
        if self.betting not in STRUCTURES:
            raise ConfigError(
                "bad_betting",
                f"betting must be one of {', '.join(STRUCTURES)}, not {self.betting!r}",
                params={"field": "betting"},
            )
        if self.deal_mode not in DEAL_MODES:
            raise ConfigError(
                "bad_deal_mode",
                f"deal_mode must be one of {', '.join(DEAL_MODES)}, not {self.deal_mode!r}",
                params={"field": "deal_mode"},
            )
        if isinstance(self.seats, (str, bytes)) or not isinstance(self.seats, Iterable):
            raise ConfigError(
                "bad_seat", "seats must be a list of (seat, player, stack)", params={"field": "seats"}
            )
        seats = tuple(sorted(map(_seat, self.seats), key=_SEAT_NUMBER))
        object.__setattr__(self, "seats", seats)
        if len(seats) < 2:
            raise ConfigError(
                "too_few_players",
                f"a hand needs at least 2 players, got {len(seats)}",
                "R2.7",
                {"field": "seats", "players": len(seats)},
            )
        if len(seats) > MAX_PLAYERS:
            raise ConfigError(
                "too_many_players",
                f"at most {MAX_PLAYERS} players can be dealt in "
                f"(5 hole cards each, 5 board cards and 4 burns must fit in 52), got {len(seats)}",
                "R2.7",
                {"field": "seats", "players": len(seats), "maximum": MAX_PLAYERS},
            )
        numbers = [s.seat for s in seats]
        if len(set(numbers)) != len(numbers):
            raise ConfigError("duplicate_seat", "each seat number may appear once", params={"field": "seats"})
        players = [s.player for s in seats]
        if len(set(players)) != len(players):
            raise ConfigError(
                "duplicate_player", "each player may sit in one seat", params={"field": "seats"}
            )
        if not _is_int(self.button_seat) or self.button_seat < 1:
            raise ConfigError(
                "bad_seat",
                f"button_seat must be a seat number, not {self.button_seat!r}",
                params={"field": "button_seat"},
            )
        if self.big_blind_seat not in numbers:
            raise ConfigError(
                "blind_seat_empty",
                f"the big blind seat {self.big_blind_seat!r} has no player",
                "R3.6",
                {"field": "big_blind_seat"},
            )
        if self.small_blind_seat is not None:
            if self.small_blind_seat not in numbers:
                raise ConfigError(
                    "blind_seat_empty",
                    f"the small blind seat {self.small_blind_seat!r} has no "
                    "player (use None for a dead small blind)",
                    "R3.6",
                    {"field": "small_blind_seat"},
                )
            if self.small_blind_seat == self.big_blind_seat:
                raise ConfigError(
                    "blind_seats_same",
                    "the small and big blind must be different seats",
                    "R3.1",
                    {"field": "small_blind_seat"},
                )
        if len(seats) == 2 and (
            self.small_blind_seat != self.button_seat or self.button_seat == self.big_blind_seat
        ):
            raise ConfigError(
                "heads_up_button",
                "heads-up the button posts the small blind and the other player the big blind",
                "R3.5",
                {"field": "small_blind_seat"},
            )
        if len(seats) > 2 and self.button_seat in (self.small_blind_seat, self.big_blind_seat):
            raise ConfigError(
                "button_on_blind",
                "with three or more players the button is not a blind: the blinds are the players left of it",
                "R3.1",
                {"field": "button_seat"},
            )
        if len(seats) > 2:
            self._check_blind_order(numbers)
        _chips("big_blind", self.big_blind, 1)
        _chips("small_blind", self.small_blind, 0)
        if self.small_blind > self.big_blind:
            raise ConfigError(
                "bad_blinds",
                f"the small blind ({self.small_blind}) cannot be larger than the big "
                f"blind ({self.big_blind})",
                "R3.2",
                {"field": "small_blind"},
            )
        if self.ante_kind not in ANTE_KINDS:
            raise ConfigError(
                "bad_ante_kind",
                f"ante_kind must be one of {', '.join(ANTE_KINDS)}, not {self.ante_kind!r}",
                "R3.4",
                {"field": "ante_kind"},
            )
        _chips("ante", self.ante, 0 if self.ante_kind == "none" else 1)
        if self.ante_kind == "none" and self.ante:
            raise ConfigError(
                "bad_ante", "an ante needs ante_kind 'per_player' or 'big_blind'", "R3.4", {"field": "ante"}
            )
        _chips("smallest_chip", self.smallest_chip, 1)
        for name in ("small_blind", "big_blind", "ante"):
            # R5.7: blinds and antes are posted in the chips in play, as a tournament's levels always are
            # (a short stack still posts whatever it has, R3.7). Fixed-limit bets follow: the small bet
            # is the big blind and the big bet twice it (R3.3).
            value = getattr(self, name)
            if value % self.smallest_chip:
                raise ConfigError(
                    "not_in_chips",
                    f"the {name.replace('_', ' ')} ({value}) is not a whole number of the smallest chip in "
                    f"play ({self.smallest_chip})",
                    "R5.7",
                    {"field": name, "value": value, "smallest_chip": self.smallest_chip},
                )
        if type(self.dealer_runout) is not bool:
            raise ConfigError(
                "bad_dealer_runout", "dealer_runout must be true or false", "R6.2", {"field": "dealer_runout"}
            )
        if type(self.cap_raises) is not bool:
            raise ConfigError("bad_cap", "cap_raises must be true or false", "R5.1", {"field": "cap_raises"})
        if self.betting == FIXED_LIMIT and not self.cap_raises and len(seats) > 2:
            # The cap is lifted only once the whole tournament is down to two players: then no hand
            # has more than two players dealt in.
            raise ConfigError(
                "cap_not_liftable",
                f"the fixed-limit cap is lifted only when the tournament is down to two players, "
                f"and {len(seats)} are dealt in",
                "R5.1",
                {"field": "cap_raises", "players": len(seats)},
            )
        if self.betting == FIXED_LIMIT:
            small_bet = self.big_blind if self.small_bet is None else _chips("small_bet", self.small_bet, 1)
            big_bet = 2 * small_bet if self.big_bet is None else _chips("big_bet", self.big_bet, 1)
            if small_bet != self.big_blind:
                raise ConfigError(
                    "bad_small_bet",
                    f"in fixed limit the big blind ({self.big_blind}) equals the small bet ({small_bet})",
                    "R3.3",
                    {"field": "small_bet"},
                )
            if big_bet != 2 * small_bet:
                raise ConfigError(
                    "bad_big_bet",
                    f"in fixed limit the big bet ({big_bet}) is twice the small bet ({small_bet})",
                    "R3.3",
                    {"field": "big_bet"},
                )
            object.__setattr__(self, "small_bet", small_bet)
            object.__setattr__(self, "big_bet", big_bet)
        else:
            object.__setattr__(self, "small_bet", None)
            object.__setattr__(self, "big_bet", None)

    def _check_blind_order(self, numbers: list[int]) -> None:
        """Three or more players: the blinds are the players dealt in next left of the button, with
        nobody dealt in between (R3.1); a dead small blind (R3.6) is an empty seat between the button
        and the big blind. These are the only positions ``positions`` gives."""
        small, big, button = self.small_blind_seat, self.big_blind_seat, self.button_seat
        if small is not None:
            inside = [seat for seat in numbers if between(small, big, seat)]
            if inside:
                raise ConfigError(
                    "player_between_blinds",
                    f"seat {inside[0]} is dealt in between the small blind (seat {small}) and the big "
                    f"blind (seat {big}): the big blind is the next player after the small blind",
                    "R3.1",
                    {"field": "big_blind_seat", "seats": inside},
                )
        first = big if small is None else small
        inside = [seat for seat in numbers if between(button, first, seat)]
        if inside:
            blind = "big blind" if small is None else "small blind"
            raise ConfigError(
                "player_between_button_and_blind",
                f"seat {inside[0]} is dealt in between the button (seat {button}) and the {blind} "
                f"(seat {first}): the blinds are the first players left of the button",
                "R3.6" if small is None else "R3.1",
                {"field": "button_seat", "seats": inside},
            )
        if small is None and button < big and big - button < 2:
            # The dead small blind's seat lies between the button and the big blind. (Round the end of
            # the table, button on the last seat and big blind on seat 1, the table size would tell.)
            raise ConfigError(
                "no_dead_small_blind_seat",
                f"a dead small blind is an empty seat between the button (seat {button}) and the big "
                f"blind (seat {big}), and there is none: the small blind is the seat after the button",
                "R3.6",
                {"field": "small_blind_seat"},
            )

    @property
    def hilo(self) -> bool:
        return self.game == COURCHEVEL_HILO

    def to_dict(self) -> dict:
        data = {
            "game": self.game,
            "betting": self.betting,
            "seats": [{"seat": s.seat, "player": s.player, "stack": s.stack} for s in self.seats],
            "button_seat": self.button_seat,
            "small_blind_seat": self.small_blind_seat,
            "big_blind_seat": self.big_blind_seat,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "ante_kind": self.ante_kind,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "smallest_chip": self.smallest_chip,
            "cap_raises": self.cap_raises,
            "deal_mode": self.deal_mode,
        }
        if self.dealer_runout:
            # Only when set: the start events of hands stored before the field existed replay as they are.
            data["dealer_runout"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "HandConfig":
        if not isinstance(data, dict):
            raise ConfigError("bad_config", "a hand config must be a mapping")
        unknown = set(data) - set(_CONFIG_FIELDS)
        if unknown:
            raise ConfigError(
                "unknown_field",
                f"unknown hand config field(s): {', '.join(sorted(unknown))}",
                params={"fields": sorted(unknown)},
            )
        required = {
            "game",
            "betting",
            "seats",
            "button_seat",
            "small_blind_seat",
            "big_blind_seat",
            "small_blind",
            "big_blind",
        }
        missing = required - set(data)
        if missing:
            raise ConfigError(
                "missing_field",
                f"missing hand config field(s): {', '.join(sorted(missing))}",
                params={"fields": sorted(missing)},
            )
        return cls(**data)


_SEAT_NUMBER = attrgetter("seat")
_CONFIG_FIELDS = tuple(f.name for f in fields(HandConfig))
