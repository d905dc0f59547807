"""Chip amounts are whole numbers of chips everywhere in the engine.

A float (``2.5``, even ``2.0``), a bool (``True`` is an int to Python, never a chip count), a string
or a negative number is refused here, once, with the name of the amount that was wrong.
"""

from numbers import Integral

from .errors import RuleError


class ChipError(RuleError):
    """A chip amount that is not a non-negative integer."""

    def __init__(self, message: str, *, code: str = "invalid_chips", rule: str = "",
                 params: dict | None = None):
        super().__init__(code, message, rule, params)


def check_chips(value: object, what: str = "amount", *, positive: bool = False) -> int:
    """Return ``value`` as an ``int`` if it is a whole, non-negative chip amount, else raise ChipError.

    ``what`` names the amount in the message ("stack of seat 3", "big blind"). With ``positive=True``
    zero is refused too (a blind or a bet size of 0 makes no sense)."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ChipError(
            f"{what} must be a whole number of chips, not {value!r}",
            code="chips_not_integer", params={"what": what, "value": repr(value)},
        )
    value = int(value)
    if value < 0:
        raise ChipError(
            f"{what} cannot be negative, got {value}",
            code="chips_negative", params={"what": what, "value": value},
        )
    if positive and value == 0:
        raise ChipError(
            f"{what} must be at least 1 chip, got 0",
            code="chips_zero", params={"what": what, "value": value},
        )
    return value
