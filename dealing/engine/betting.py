"""One betting round under the three betting structures (R5): what the player to act may do, and what
a bet or raise does to the round.

All amounts are "to" amounts: a player's total bet in this round. ``current`` is the bet to call. The
round remembers the last full bet or raise, because an all-in for less than that does not reopen the
betting to players who have already acted (R5.1 half-bet rule, R5.4).

Bets are made in chips (R5.7): every bet and raise-to is a multiple of the smallest chip in play
(``step``), except an all-in. The smallest raise is rounded up to a multiple, the pot-limit largest
down (unless it is the all-in), and the fixed-limit bet up (it only differs from a multiple after a
half-bet all-in for an odd amount).
"""

from typing import NamedTuple

from .errors import RuleError

FIXED_LIMIT = "fixed_limit"
POT_LIMIT = "pot_limit"
NO_LIMIT = "no_limit"
STRUCTURES = (FIXED_LIMIT, POT_LIMIT, NO_LIMIT)
CAP_BETS = 4  # bet, raise, re-raise, cap (R5.1)


class Options(NamedTuple):
    """What the player to act may do. ``call`` is the amount they would add to call (0 with ``check``);
    ``raise_kind`` is ``"bet"`` or ``"raise"`` when they may put in more, with ``min_to``/``max_to`` the
    smallest and largest total for the round (either may be an all-in for less than a full bet).
    ``step`` is the smallest chip: a bet or raise goes to a multiple of it, or all-in (R5.7)."""

    seat: int
    actions: tuple[str, ...]
    call: int
    call_all_in: bool
    raise_kind: str | None
    min_to: int | None
    max_to: int | None
    current_bet: int
    player_bet: int
    stack: int
    raise_blocked: str | None = None  # why no bet or raise: capped, short, not_reopened, no_opponent
    step: int = 1  # R5.7: bets and raises go to multiples of the smallest chip, or all-in

    @property
    def can_check(self) -> bool:
        return "check" in self.actions

    def to_dict(self) -> dict:
        return {
            "seat": self.seat,
            "actions": list(self.actions),
            "call": self.call,
            "call_all_in": self.call_all_in,
            "raise_kind": self.raise_kind,
            "min_to": self.min_to,
            "max_to": self.max_to,
            "current_bet": self.current_bet,
            "player_bet": self.player_bet,
            "stack": self.stack,
            "raise_blocked": self.raise_blocked,
            "step": self.step,
        }


# The action tuples an Options can hold, made once; an Options is built straight from its fields.
_CHECK = ("fold", "check")
_CALL = ("fold", "call")
_CHECK_BET = ("fold", "check", "bet")
_CALL_BET = ("fold", "call", "bet")
_CHECK_RAISE = ("fold", "check", "raise")
_CALL_RAISE = ("fold", "call", "raise")
_options = tuple.__new__


class BettingRound:
    """The betting state of one street.

    ``full_level`` (fixed limit) is the highest bet made by a full bet or raise; ``increment`` (pot and
    no limit) is the size of the last full bet or raise, at least the big blind; ``bets`` counts full
    bets and raises for the fixed-limit cap, the big blind counting as the first pre-flop (R5.1);
    ``step`` is the smallest chip in play (R5.7).
    """

    __slots__ = (
        "bets",
        "big_blind",
        "cap",
        "current",
        "full_level",
        "increment",
        "opened",
        "preflop",
        "step",
        "structure",
        "unit",
    )

    def __init__(self, structure: str, unit: int, big_blind: int, preflop: bool, cap: bool, step: int = 1):
        self.structure = structure
        self.step = step
        self.unit = unit  # fixed limit: the small or big bet of this street
        self.big_blind = big_blind
        self.preflop = preflop
        self.cap = cap
        # R5.6: the big blind is the bet to call even when it was posted short.
        self.current = big_blind if preflop else 0
        self.full_level = self.current
        self.increment = big_blind
        self.bets = 1 if preflop else 0
        self.opened = False  # a voluntary bet or raise happened in this round

    # -- rules ---------------------------------------------------------------------------------------

    def rule(self) -> str:
        if self.structure == FIXED_LIMIT:
            return "R5.1"
        if self.structure == POT_LIMIT:
            return "R5.2"
        return "R5.3"

    def options(
        self,
        seat: int,
        bet: int,
        stack: int,
        acted: bool,
        acted_level: int,
        acted_full: int,
        opponents_can_bet: bool,
        pot_for_limit: int,
    ) -> Options:
        """What the player to act may do: the one place that decides whether they may bet or raise and
        how much. ``pot_for_limit`` is everything in the middle including all bets on the table (and,
        pre-flop, any part of the blinds not posted, R5.2)."""
        current = self.current
        to_call = current - bet if current > bet else 0
        call = to_call if to_call < stack else stack
        all_in_to = bet + stack
        fixed = self.structure == FIXED_LIMIT
        if all_in_to <= current:
            blocked = "short"
        elif fixed and self.cap and self.bets >= CAP_BETS:
            blocked = "capped"  # R5.1
        elif not opponents_can_bet:
            blocked = "no_opponent"
        elif acted and (self.full_level <= acted_full if fixed else current - acted_level < self.increment):
            # A player who has acted may raise again only facing at least a full raise since then: an
            # incomplete all-in does not reopen the betting (R5.1, R5.4).
            blocked = "not_reopened"
        else:
            # The smallest and largest raise-to amounts, then the player's stack caps both.
            step = self.step
            if fixed:
                low = high = self.full_level + self.unit  # R5.1
            else:
                low = current + self.increment  # R5.3, R5.5
                if self.structure == NO_LIMIT:
                    high = all_in_to
                else:
                    # R5.2: the raise may be the pot after calling: pot + bets on the table + the call.
                    high = current + pot_for_limit + (current - bet)
            if high < all_in_to:
                # R5.7: in chips. The pot-limit maximum rounds down, a fixed-limit bet up (a multiple
                # more than the exact amount is still the one bet of the round).
                max_to = -(-high // step) * step if fixed else high // step * step
                if max_to > all_in_to:
                    max_to = all_in_to
            else:
                max_to = all_in_to  # all-in is always allowed, in whatever chips are left
            low = -(-low // step) * step  # R5.7: the minimum rounds up to a whole number of chips
            min_to = low if low < max_to else max_to
            if current > 0:
                return _options(
                    Options,
                    (
                        seat,
                        _CALL_RAISE if to_call else _CHECK_RAISE,
                        call,
                        stack <= to_call,
                        "raise",
                        min_to,
                        max_to,
                        current,
                        bet,
                        stack,
                        None,
                        step,
                    ),
                )
            return _options(
                Options,
                (
                    seat,
                    _CALL_BET if to_call else _CHECK_BET,
                    call,
                    stack <= to_call,
                    "bet",
                    min_to,
                    max_to,
                    current,
                    bet,
                    stack,
                    None,
                    step,
                ),
            )
        return _options(
            Options,
            (
                seat,
                _CALL if to_call else _CHECK,
                call,
                stack <= to_call,
                None,
                None,
                None,
                current,
                bet,
                stack,
                blocked,
                self.step,
            ),
        )

    def check_raise(self, options: Options, action: str, to: object, all_in_to: int) -> int:
        """Validate a bet or raise to ``to`` against ``options``; returns the amount. Raises RuleError."""
        rule = self.rule()
        if type(to) is not int:
            raise RuleError(
                "bad_amount",
                f"a {action} needs a whole number of chips to bet to, not {to!r}",
                params={"amount": repr(to)},
            )
        if options.raise_kind is None:
            if options.raise_blocked == "capped":
                raise RuleError(
                    "betting_capped",
                    f"betting is capped at {CAP_BETS} bets this round: call or fold",
                    "R5.1",
                    {"cap": CAP_BETS},
                )
            if options.raise_blocked == "short":
                raise RuleError(
                    "cannot_raise",
                    "the player has too few chips to raise: call all-in or fold",
                    "R3.7",
                    {"stack": options.stack},
                )
            if options.raise_blocked == "no_opponent":
                raise RuleError(
                    "no_opponent_to_bet",
                    "every other player is all-in or folded: there is nobody left to bet against",
                    "R4.6",
                )
            raise RuleError(
                "betting_not_reopened",
                "the betting was not reopened for this player: only a full raise reopens it, so call or fold",
                "R5.1" if self.structure == FIXED_LIMIT else "R5.4",
            )
        if action != options.raise_kind:
            if options.raise_kind == "raise":
                raise RuleError(
                    "must_raise",
                    f"there is a bet of {self.current} to this player: raise, call or fold, not bet",
                    rule,
                    {"current_bet": self.current},
                )
            raise RuleError("must_bet", "nobody has bet yet: bet or check, not raise", rule)
        word = "bet" if action == "bet" else "raise"
        if to > all_in_to:
            raise RuleError(
                "more_than_stack",
                f"{word} to {to} is more than the player has: all-in is {word} to {all_in_to}",
                rule,
                {"amount": to, "minimum": options.min_to, "maximum": options.max_to},
            )
        if self.structure == FIXED_LIMIT and options.min_to == options.max_to and to != options.min_to:
            raise RuleError(
                "fixed_amount",
                f"{word} to {to} is not allowed: in fixed limit the {word} is to exactly {options.min_to}",
                "R5.1",
                {"amount": to, "minimum": options.min_to, "maximum": options.max_to},
            )
        if to < options.min_to:
            min_rule = (
                "R5.5" if (self.preflop and not self.opened and self.structure != FIXED_LIMIT) else rule
            )
            raise RuleError(
                "below_minimum",
                f"{word} to {to} is below the minimum {word} to {options.min_to}",
                min_rule,
                {"amount": to, "minimum": options.min_to, "maximum": options.max_to},
            )
        if to > options.max_to:
            what = "pot-limit maximum" if self.structure == POT_LIMIT else "maximum"
            raise RuleError(
                "above_maximum",
                f"{word} to {to} is above the {what} {word} to {options.max_to}",
                rule,
                {"amount": to, "minimum": options.min_to, "maximum": options.max_to},
            )
        step = options.step
        if to % step and to != all_in_to:
            all_in = f", or all-in to {all_in_to}" if options.max_to == all_in_to and all_in_to % step else ""
            raise RuleError(
                "not_in_chips",
                f"{word} to {to} is not a whole number of the smallest chip ({step}): {word} to a "
                f"multiple of {step} from {options.min_to} to {options.max_to}{all_in}",
                "R5.7",
                {
                    "amount": to,
                    "minimum": options.min_to,
                    "maximum": options.max_to,
                    "step": step,
                    "all_in": all_in_to,
                },
            )
        return to

    def apply_raise(self, to: int) -> bool:
        """Record a bet or raise to ``to``; returns whether it was a full one (which reopens betting)."""
        if self.structure == FIXED_LIMIT:
            # R5.1: an all-in of at least half a bet counts as a full bet or raise.
            full = (to - self.full_level) * 2 >= self.unit
            if full:
                self.full_level = to
                self.bets += 1
        else:
            size = to - self.current
            full = size >= self.increment
            if full:
                self.increment = size
        self.current = to
        self.opened = True
        return full
