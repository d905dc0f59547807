"""Button and blinds from one hand to the next: the tournament dead-button rule (R3.5, R3.6).

Seat numbers go up clockwise around the table (1, 2, … table size). ``seats`` are the occupied seats
dealt into the hand. The big blind moves one player clockwise every hand; the small blind is posted
from the seat that was big blind last hand (if its player is gone, there is no small blind), and the
button goes to the seat that was small blind last hand (which may now be empty: a dead button).
Heads-up the button posts the small blind (R3.5), and the big blind still moves on, so nobody posts
it twice in a row when play becomes heads-up.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import ConfigError


@dataclass(frozen=True)
class Positions:
    button: int
    small_blind: int | None  # None: a dead small blind, nobody posts it (R3.6)
    big_blind: int

    def to_dict(self) -> dict:
        return {"button": self.button, "small_blind": self.small_blind, "big_blind": self.big_blind}


def _occupied(seats: Iterable[int]) -> list[int]:
    occupied = sorted(set(seats))
    for seat in occupied:
        if type(seat) is not int or seat < 1:
            raise ConfigError(
                "bad_seat", f"seat numbers must be positive integers, not {seat!r}", params={"seat": seat}
            )
    if len(occupied) < 2:
        raise ConfigError(
            "too_few_players", "a hand needs at least two players", "R2.7", {"players": len(occupied)}
        )
    return occupied


def next_seat(occupied: list[int], after: int) -> int:
    """The first occupied seat clockwise after seat number ``after`` (which may be empty)."""
    for seat in occupied:
        if seat > after:
            return seat
    return occupied[0]


def previous_seat(occupied: list[int], before: int) -> int:
    """The first occupied seat counter-clockwise before seat number ``before``."""
    for seat in reversed(occupied):
        if seat < before:
            return seat
    return occupied[-1]


def clockwise_after(seat: int, table_size: int) -> list[int]:
    """Every seat number of the table clockwise after ``seat``, ending with ``seat`` itself."""
    return [(seat + i - 1) % table_size + 1 for i in range(1, table_size + 1)]


def next_big_blind(seats: Iterable[int], big_blind: int) -> int | None:
    """R3.6: next hand's big blind is the first occupied seat clockwise after last hand's big blind
    (None when no seat is occupied). ``seats`` are the seats that will be occupied."""
    occupied = sorted(set(seats))
    return next_seat(occupied, big_blind) if occupied else None


def small_blind_seat(big_blind: int) -> int:
    """R3.6: the seat that posts next hand's small blind is last hand's big blind seat; if it is
    empty now the small blind is dead."""
    return big_blind


def between_small_blind_and_button(seat: int, *, button: int | None, big_blind: int, table_size: int) -> bool:
    """R8.1: whether a player who sits down in the open ``seat`` is passed by the button before the big
    blind reaches them, so they wait for the big blind.

    Next hand the button goes to last hand's small blind seat, somewhere after last hand's button, and
    the small blind is posted from last hand's big blind seat (R3.6). A newcomer clockwise after last
    hand's button, up to and including last hand's big blind seat, would get the button or a small
    blind before any big blind. With no button known, only the small blind seat is such a seat."""
    sb_seat = small_blind_seat(big_blind)
    if seat == sb_seat:
        return True
    if button is None:
        return False
    for s in clockwise_after(button, table_size):
        if s == seat:
            return True
        if s == sb_seat:
            return False
    return False


def between(start: int, end: int, seat: int) -> bool:
    """Whether ``seat`` lies strictly between ``start`` and ``end`` going clockwise."""
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def first_hand(seats: Iterable[int], button: int) -> Positions:
    """Positions for the first hand at a table, from the drawn button seat (R3.1, R3.5)."""
    occupied = _occupied(seats)
    if button not in occupied:
        raise ConfigError(
            "button_not_occupied",
            f"the button must start on an occupied seat, not seat {button}",
            "R3.1",
            {"seat": button},
        )
    if len(occupied) == 2:
        return Positions(button, button, next_seat(occupied, button))
    small_blind = next_seat(occupied, button)
    return Positions(button, small_blind, next_seat(occupied, small_blind))


def next_hand(
    seats: Iterable[int],
    *,
    button: int,
    big_blind: int,
    small_blind: int | None,
    table_size: int | None = None,
) -> Positions:
    """Positions for the next hand, given the previous hand's button, small blind (None if it was dead)
    and big blind, and the seats occupied now (R3.5, R3.6, R6.6)."""
    occupied = _occupied(seats)
    size = table_size or max(occupied[-1], button, big_blind, small_blind or 0)
    new_big = next_big_blind(occupied, big_blind)
    if len(occupied) == 2:
        # Heads-up the button is the small blind; the big blind has moved on, so nobody posts it twice.
        other = occupied[0] if occupied[1] == new_big else occupied[1]
        return Positions(other, other, new_big)
    new_small = small_blind_seat(big_blind) if small_blind_seat(big_blind) in occupied else None
    if small_blind is not None:
        new_button = small_blind
    else:
        # Last hand's small blind was dead: its position was the seat just before last hand's big blind.
        new_button = big_blind - 1 if big_blind > 1 else size
    # Coming from heads-up (or after new players sat down) the button could land on a blind or leave
    # an occupied seat between it and the blinds; then it goes to the player just before the blinds.
    first_blind = new_small if new_small is not None else new_big
    if new_button in (new_small, new_big) or any(between(new_button, first_blind, seat) for seat in occupied):
        new_button = previous_seat(occupied, first_blind)
    return Positions(new_button, new_small, new_big)
